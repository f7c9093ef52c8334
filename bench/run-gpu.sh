#!/usr/bin/env bash
# The one script run on the GPU machine (H100/H200, Ubuntu 24.04, CUDA 13, g++ 13, cmake 4, no
# internet). From the repository root:
#
#   bench/run-gpu.sh            # or: OUT=/some/dir bench/run-gpu.sh  to keep the logs
#
# It prints the GPU (nvidia-smi), configures the 'cuda' preset in build-cuda (Ninja), builds
# everything with -j16, runs the gpu-labelled tests, then the whole CPU+GPU suite, then the
# benchmarks (gluon bench copy, and gluon bench dslash for every operator of issue 3's table at
# 32^4; bench/README.md). Every step's output is tee'd into $OUT (when set): nvidia-smi.log,
# configure.log, build.log, ctest-gpu.log, ctest-all.log, bench.log, summary.log; the benchmark
# JSON goes to $OUT/bench/<device>/*.json and the tune cache to $OUT/tunecache.json. Exits non-zero when any step fails; both test runs happen even when
# the first one fails, so one trip to the machine shows everything.
#
# Nothing is installed or downloaded: toml++ (absent there) comes from .deps/tomlpp/usr/include
# (git-ignored; scripts/prepare-gpu-carry.sh makes it here, with a copy of the shipped gauge files),
# carried to the machine with the working tree (carry .deps); CMake already searches there.
# Environment: JOBS (build parallelism, default 16), CTEST_JOBS (default 8), BUILD_DIR (default
# build-cuda; the preset's folder), CMAKE_EXTRA (more configure arguments), BENCH=0 (skip the
# benchmarks), BENCH_LATTICE (default 32,32,32,32).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)

# NVLink multicast stays off on the shared GPU hosts (it can take the GPUs out of service).
export NCCL_NVLS_ENABLE=0
export TORCH_SYMM_MEM_DISABLE_MULTICAST=1
export NVSHMEM_DISABLE_NVLS=1

# ../shared does not travel to the GPU machine: the files of shared/testdata are carried in
# .deps/testdata (cp -r ../shared/testdata .deps/ here, then carry .deps).
if [[ -z "${GLUON_TESTDATA:-}" && -d "$ROOT/.deps/testdata/gauge" ]]; then
  export GLUON_TESTDATA="$ROOT/.deps/testdata"
fi

JOBS=${JOBS:-16}
CTEST_JOBS=${CTEST_JOBS:-8}
BUILD_DIR=${BUILD_DIR:-build-cuda}
LOG_DIR=${OUT:-}
if [[ -n "$LOG_DIR" ]]; then
  mkdir -p "$LOG_DIR"
else
  LOG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/gluon-run-gpu.XXXXXX")
fi

say() { printf '\n=== run-gpu: %s\n' "$*" | tee -a "$LOG_DIR/summary.log"; }

# run_step NAME CMD...: runs CMD with its output shown and tee'd into $LOG_DIR/NAME.log;
# returns CMD's exit status (pipefail keeps it through tee).
run_step() {
  local name=$1
  shift
  say "$name: $*"
  local start=$SECONDS rc=0
  "$@" 2>&1 | tee "$LOG_DIR/$name.log" || rc=$?
  say "$name: exit $rc after $((SECONDS - start)) s"
  return "$rc"
}

say "repository $ROOT at $(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo 'unknown commit')"
say "logs in $LOG_DIR"

# nvcc is usually not on PATH in a plain shell.
if ! command -v nvcc >/dev/null 2>&1; then
  for d in /usr/local/cuda/bin /usr/local/cuda-13/bin /usr/local/cuda-13.0/bin; do
    if [[ -x "$d/nvcc" ]]; then
      export PATH="$d:$PATH"
      break
    fi
  done
fi

# What the machine offers (informational: a missing tool fails the configure step below).
{
  echo "host: $(uname -srm), $(nproc) CPUs"
  for tool in nvcc cmake ninja g++ c++; do
    if command -v "$tool" >/dev/null 2>&1; then
      printf '%-6s %s: %s\n' "$tool" "$(command -v "$tool")" "$("$tool" --version 2>&1 | grep -m1 -iE 'release|version|[0-9]+\.[0-9]+' || true)"
    else
      printf '%-6s MISSING\n' "$tool"
    fi
  done
  echo "NCCL_NVLS_ENABLE=$NCCL_NVLS_ENABLE"
} 2>&1 | tee -a "$LOG_DIR/summary.log"

status=0
if command -v nvidia-smi >/dev/null 2>&1; then
  run_step nvidia-smi nvidia-smi || status=1
else
  say "nvidia-smi not found: the gpu tests will skip or fail"
  status=1
fi

read -r -a extra <<<"${CMAKE_EXTRA:-}"
run_step configure cmake --preset cuda -B "$BUILD_DIR" "${extra[@]}" || {
  say "FAILED: configure (see $LOG_DIR/configure.log)"
  exit 1
}
run_step build cmake --build "$BUILD_DIR" -j "$JOBS" || {
  say "FAILED: build (see $LOG_DIR/build.log)"
  exit 1
}

# GPU tests first: they are the reason for the trip. --no-tests=error: an empty selection is a
# failure, not a pass.
gpu_rc=0
run_step ctest-gpu ctest --test-dir "$BUILD_DIR" -L gpu --output-on-failure --no-tests=error || gpu_rc=$?
all_rc=0
# OpenMP threads per test process: CTEST_JOBS processes share the cores (no oversubscription).
# CPU_SUITE=0 skips this step (the CPU suite also runs in CI).
[[ "${CPU_SUITE:-1}" == 0 ]] || run_step ctest-all env OMP_NUM_THREADS="${OMP_NUM_THREADS:-$(( $(nproc) / CTEST_JOBS > 0 ? $(nproc) / CTEST_JOBS : 1 ))}" \
  ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$CTEST_JOBS" || all_rc=$?

# The command itself on the GPU: info, then every shipped file measured on the device in each
# storage form, and a weak start generated on the GPU.
GLUON="$BUILD_DIR/bin/gluon"
cli_rc=0
run_step gluon-info "$GLUON" info || cli_rc=$?
gauge_on_gpu() {
  local f
  for f in "${GLUON_TESTDATA:-$ROOT/../shared/testdata}"/gauge/*; do
    case "$f" in *.md | *.info) continue ;; esac
    echo "--- $f"
    "$GLUON" gauge --load "$f" --backend cuda || return 1
    "$GLUON" gauge --load "$f" --backend cuda --precision single --recon 12 | grep plaquette || return 1
    "$GLUON" gauge --load "$f" --backend cuda --precision half --recon 8 | grep plaquette || return 1
  done
  "$GLUON" gauge --start weak --lattice 32,32,32,64 --seed 2026 --backend cuda
  "$GLUON" gauge --start weak --lattice 32,32,32,64 --seed 2026 --backend cpu
}
run_step gluon-gauge gauge_on_gpu || cli_rc=$?

# Benchmarks (bench/README.md): the copy bandwidth, then each dslash of issue 3's table, each with
# the copy measured in the same run. JSON into $LOG_DIR/bench/<device>/, tune cache beside it.
bench_rc=0
if [[ "${BENCH:-1}" != 0 ]]; then
  export GLUON_TUNE_CACHE="$LOG_DIR/tunecache.json"
  BENCH_DIR="$LOG_DIR/bench"
  BENCH_LATTICE=${BENCH_LATTICE:-32,32,32,32}
  benchmarks() {
    local rc=0 op prec recon
    "$GLUON" bench copy --backend cuda --json --save "$BENCH_DIR" || rc=1
    # operator precision recon (bench/dslash-table.txt): double/single/half r12 and single r8
    # (Wilson, clover); staggered thin links r12 (QUDA's table: recon 13); improved: fat links
    # r18, long links r12 (13).
    local TABLE_FILE=bench/dslash-table.txt
    while read -r op prec recon; do
      echo "--- dslash $op $prec recon $recon at $BENCH_LATTICE"
      "$GLUON" bench dslash --backend cuda --operator "$op" --precision "$prec" --recon "$recon" \
        --lattice "$BENCH_LATTICE" --json --save "$BENCH_DIR" || rc=1
    done <"$TABLE_FILE"
    # the second run of one case starts from the tune cache the first wrote
    echo "--- again, tuned from $GLUON_TUNE_CACHE"
    "$GLUON" bench dslash --backend cuda --operator wilson --precision single --recon 12 \
      --lattice "$BENCH_LATTICE" || rc=1
    return "$rc"
  }
  run_step bench benchmarks || bench_rc=$?
fi

# Whole solves on the GPU: pure double against mixed double-single and double-half (reliable
# updates), for each operator, on a weak-field 32^4 configuration; JSON per run in $LOG_DIR.
solve_rc=0
if [[ "${SOLVES:-1}" != 0 ]]; then
  SOLVE_LATTICE=${SOLVE_LATTICE:-32,32,32,32}
  solves() {
    local rc=0 op sloppy args
    "$GLUON" gauge --start weak --lattice "$SOLVE_LATTICE" --seed 2026 --backend cuda \
      --save "$LOG_DIR/weak.nersc" || return 1
    while read -r op args; do
      sym=""
      [[ " $args " == *" --clover-pc symmetric "* ]] && sym="-symmetric"
      for sloppy in none single half; do
        echo "--- solve $op $args, sloppy $sloppy"
        "$GLUON" solve --gauge "$LOG_DIR/weak.nersc" --backend cuda --operator "$op" $args \
          --precision double --sloppy-precision "$sloppy" --recon 12 --tol 1e-10 --quiet --json \
          >"$LOG_DIR/solve-$op$sym-$sloppy.json" || rc=1
        python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(f\"{j['operator']:>20} {j['precision']:>14} {j['solver']:>9} iterations {j['iterations']:6d} true residual {j['true_residual']:.2e} solver {j['solver_seconds']:8.3f} s {j['gflops']:9.1f} GFLOP/s\")" "$LOG_DIR/solve-$op$sym-$sloppy.json" || rc=1
      done
    done <bench/solve-table.txt  # operator and its flags, one solve a line
    return "$rc"
  }
  run_step solves solves || solve_rc=$?
fi

# Skipped gpu tests mean no usable device: say so loudly (ctest marks them ***Skipped).
if grep -qE '\*\*\*Skipped|no CUDA device' "$LOG_DIR/ctest-gpu.log" 2>/dev/null; then
  say "WARNING: gpu tests were skipped (no usable CUDA device seen by the tests)"
  status=1
fi

say "summary: gpu tests exit $gpu_rc, full suite exit $all_rc, gluon commands exit $cli_rc, benchmarks exit $bench_rc, solves exit $solve_rc"
if ((gpu_rc != 0 || all_rc != 0 || cli_rc != 0 || bench_rc != 0 || solve_rc != 0 || status != 0)); then
  say "FAILED"
  exit 1
fi
say "PASSED"
