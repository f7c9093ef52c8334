#!/bin/sh
# The same gluon binary with the one-site (scalar) CPU kernels: the "scalar" label of the tables.
GLUON_CPU_SIMD=0 exec "${GLUON_BIN:-build/bin/gluon}" "$@"
