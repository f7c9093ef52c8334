#!/usr/bin/env bash
# Ad-hoc, one nvidia-h200 call (carry .deps), on the session's final code: build, all GPU tests,
# the dslash table (hop timing, streaming output stores), the solve table and the CGNR rows, and
# the dslash table again when time allows. Results in $OUT/res.tgz.
set -u
R=/tmp/res
mkdir -p "$R"
PARTS="build tests dslash solver cgnr" OUT=$R/t1 bash bench/solver-gpu.sh >"$R/stdout.txt" 2>&1
echo "rc $?" >>"$R/stdout.txt"
if (( SECONDS < 470 )); then PARTS="dslash" OUT=$R/t2 bash bench/solver-gpu.sh >>"$R/stdout.txt" 2>&1; fi
rm -f $R/t1/build.log $R/t1/configure.log
tar czf "$OUT/res.tgz" -C /tmp res
grep -E "done after|rc " "$R/stdout.txt"
tail -3 "$R/t1/ctest-gpu.log"
cat "$R/t1/summary.txt"; echo "== t2"; cat "$R/t2/summary.txt" 2>/dev/null
echo "total $SECONDS s"
