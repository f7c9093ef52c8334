#pragma once
// Where the Wilson-family operators fold the solvers' sums into their last kernel
// (WilsonFamily::folds, dslash_fold_pays in src/qcd/dirac/wilson.cpp), as the tests expect it:
// double and single, and nowhere under GLUON_WILSON_FOLD=0, with which ctest runs the GPU fold
// tests once more.
#include "gluon/qcd/precision.h"
#include "gluon/runtime/env.h"

namespace gluon::test {

inline bool wilson_fold_runs(qcd::Precision p) {
  if (runtime::env_switched_off("GLUON_WILSON_FOLD")) return false;
  return p != qcd::Precision::half;
}

}  // namespace gluon::test
