#pragma once
// The plain reference the Linpack tests compare against: x of A x = b for HPL's matrix
// (hpl::matrix_entry, columns 0..N-1 and b as column N) by textbook Gaussian elimination with
// partial pivoting on the dense N x (N+1) matrix.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "gluon/hpl/matrix.h"

namespace gluon::test {

inline std::vector<double> hpl_reference_solve(long n, std::uint64_t seed = hpl::default_seed) {
  std::vector<double> m(static_cast<std::size_t>(n * (n + 1)));
  for (long j = 0; j <= n; ++j)
    for (long i = 0; i < n; ++i) m[i + j * n] = hpl::matrix_entry(n, i, j, seed);
  auto at = [&](long i, long j) -> double& { return m[i + j * n]; };
  for (long k = 0; k < n; ++k) {
    long p = k;
    for (long i = k + 1; i < n; ++i)
      if (std::abs(at(i, k)) > std::abs(at(p, k))) p = i;
    for (long j = 0; j <= n; ++j) std::swap(at(k, j), at(p, j));
    for (long i = k + 1; i < n; ++i) at(i, k) /= at(k, k);
    // Column by column (the storage order): row by row, a 3001-row matrix took minutes.
    for (long j = k + 1; j <= n; ++j) {
      const double u = at(k, j);
      for (long i = k + 1; i < n; ++i) at(i, j) -= at(i, k) * u;
    }
  }
  std::vector<double> x(n);
  for (long i = n - 1; i >= 0; --i) {
    double s = at(i, n);
    for (long j = i + 1; j < n; ++j) s -= at(i, j) * x[j];
    x[i] = s / at(i, i);
  }
  return x;
}

}  // namespace gluon::test
