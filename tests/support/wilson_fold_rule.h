#pragma once
// Where the Wilson-family operators fold the solvers' sums into their last kernel
// (WilsonFamily::folds, dslash_fold_pays in src/qcd/dirac/wilson.cpp), as the tests expect it: the
// measured rule (double and single), or all / none under GLUON_WILSON_FOLD=all / 0,
// which the ctest entries *_all_folds set so that the folds the rule leaves out are tested too.
#include <cstdlib>
#include <string>

#include "gluon/qcd/precision.h"

namespace gluon::test {

inline bool wilson_fold_runs(qcd::Precision p) {
  const char* e = std::getenv("GLUON_WILSON_FOLD");
  const std::string mode = e ? e : "";
  if (mode == "all") return true;
  if (mode == "0") return false;
  return p != qcd::Precision::half;
}

}  // namespace gluon::test
