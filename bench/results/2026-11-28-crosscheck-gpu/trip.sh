#!/usr/bin/env bash
# Call 2 of 2 (call 1: `bash bench/gpu-build.sh gluon || exit 1`): the docs-only cross-check
# (tests/crosscheck/correlators_from_conventions.py) against `gluon solve --backend cuda`, with the
# GPU machine's python3 and numpy and the carried test data (.deps/testdata).
export GLUON_TESTDATA=$PWD/.deps/testdata
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
python3 -c "import numpy, sys; print('python', sys.version.split()[0], 'numpy', numpy.__version__)" | tee -a $OUT/gpu.txt
GLUON_CROSSCHECK_BACKEND=cuda timeout 400 python3 tests/crosscheck/correlators_from_conventions.py \
  --gluon build-cuda/bin/gluon > $OUT/crosscheck-cuda.txt 2>&1
echo "rc=$?"; tail -3 $OUT/crosscheck-cuda.txt
