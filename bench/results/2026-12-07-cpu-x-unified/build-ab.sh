#!/usr/bin/env bash
# Builds the A/B binaries of trip.sh on the development VM from a cpu-preset build of 1b29fe1
# (`cmake --preset cpu && cmake --build build`): experiment.patch applied to a copy of
# src/qcd/dirac, each Wilson x86-64-v4 file compiled again with its entry point renamed (_exp1:
# GLUON_X_ONE_BRANCH, _exp2: GLUON_X_UNIFIED), and the dispatcher that picks them by GLUON_EXP_X;
# then gluon and unit_dirac_wilson_simd_test linked against a copy of libgluon_qcd.a holding them,
# xz-compressed into build-ab/. Run from the repository root.
set -eu
ROOT=$PWD; E=${E:-/tmp/exp}; rm -rf $E; mkdir -p $E
cp -r src/qcd/dirac $E/dirac && (cd $E && patch -p3 -s < $ROOT/bench/results/2026-12-07-cpu-x-unified/experiment.patch)
cmd() {  # the compile command of one file, from compile_commands.json
  python3 -c "
import json, sys
for e in json.load(open('build/compile_commands.json')):
    if e['file'].endswith('dirac/' + sys.argv[1]): print(e['command'])" "$1"
}
variant() {  # file entry-macro object: compiled from the patched copy with extra flags
  local file=$1 out=$2; shift 2
  $(cmd $file | sed "s# -o [^ ]*# -o $E/$out#; s# -c [^ ]*# -c $E/dirac/$file#") "$@"
}
variant wilson_simd_half_avx512.cpp half_exp1.o -DGLUON_X_ONE_BRANCH -Dwilson_simd_half=wilson_simd_half_exp1
variant wilson_simd_single_avx512.cpp single_exp1.o -DGLUON_X_ONE_BRANCH -Dwilson_simd_single=wilson_simd_single_exp1
for f in half single half_clover single_clover double double_r8; do
  variant wilson_simd_${f}_avx512.cpp ${f}_exp2.o -DGLUON_X_UNIFIED -Dwilson_simd_${f}=wilson_simd_${f}_exp2
done
variant wilson_simd.cpp wilson_simd.cpp.o
cp build/src/libgluon_qcd.a $E/libqcd_exp.a
ar r $E/libqcd_exp.a $E/wilson_simd.cpp.o $E/*_exp[12].o
relink() {  # ninja target, output: its link line with the library copy
  local line=$(grep -n "^build $1[: ]" build/build.ninja | head -1 | cut -d: -f1)
  local objs=$(sed -n ${line}p build/build.ninja | sed -E 's/.*_Release (.*) \| .*/\1/')
  local libs=$(sed -n "$line,$((line + 8))p" build/build.ninja | grep -m1 LINK_LIBRARIES | sed "s/  LINK_LIBRARIES = //; s#src/libgluon_qcd.a#$E/libqcd_exp.a#")
  (cd build && c++ -O3 -DNDEBUG -fopenmp $objs -o $2 $libs)
}
relink bin/gluon $E/gluon
relink bin/unit_dirac_wilson_simd_test $E/unit_dirac_wilson_simd_test
mkdir -p build-ab && rm -f build-ab/*.xz
for b in gluon unit_dirac_wilson_simd_test; do xz -T2 -3 -c $E/$b > build-ab/$b.xz; done
ls -la build-ab
