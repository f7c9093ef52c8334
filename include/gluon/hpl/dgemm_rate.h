#pragma once
// hpl::measure_dgemm: the DGEMM rate the Linpack update can hope for, measured in the same run
// (the reference of the GPU performance targets, docs/hpl.md).
//   backend "cpu": OpenBLAS on host arrays; "cuda": cuBLAS on device-resident arrays (no
//   transfers), timed with events. C(m x n) -= A(m x k) B(k x n); the best of `reps` calls.
#include <string>

namespace gluon::hpl {

struct DgemmRate {
  double gflops = 0;  // best call
  double seconds = 0;
  long m = 0, n = 0, k = 0;
  std::string backend;
};

DgemmRate measure_dgemm(const std::string& backend, long m, long n, long k, int reps = 3, int device = 0);

}  // namespace gluon::hpl
