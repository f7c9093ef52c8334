#include "gluon/hpl/matrix.h"

#include <algorithm>

namespace gluon::hpl {

long numroc(long n, long nb, int iproc, int nprocs) {
  const long nblocks = n / nb;
  long count = (nblocks / nprocs) * nb;
  const long extra = nblocks % nprocs;
  if (iproc < extra)
    count += nb;
  else if (iproc == extra)
    count += n % nb;
  return count;
}

void Lcg::jump(std::uint64_t count) {
  // Compose the affine map x -> a x + c with itself: (A, C) o (A, C) = (A A, A C + C).
  std::uint64_t ma = 1, mc = 0, pa = a, pc = c;
  while (count) {
    if (count & 1) {
      mc = pa * mc + pc;
      ma = pa * ma;
    }
    pc = pa * pc + pc;
    pa = pa * pa;
    count >>= 1;
  }
  x = ma * x + mc;
}

double matrix_entry(long n, long i, long j, std::uint64_t seed) {
  Lcg g(seed);
  g.jump(static_cast<std::uint64_t>(j) * static_cast<std::uint64_t>(n) + static_cast<std::uint64_t>(i));
  return g.next();
}

LocalMatrix::LocalMatrix(long n_, int nb_, int p_, int q_, int myrow_, int mycol_, bool allocate)
    : n(n_), nb(nb_), p(p_), q(q_), myrow(myrow_), mycol(mycol_) {
  mp = numroc(n, nb, myrow, p);
  nq = numroc(n + 1, nb, mycol, q);
  lda = std::max<long>(1, mp);
  if (allocate) a.assign(static_cast<std::size_t>(lda * std::max<long>(nq, 1)), 0.0);
}

void LocalMatrix::generate(std::uint64_t seed) { generate_columns(0, nq, a.data(), lda, seed); }

void LocalMatrix::generate_columns(long lj0, long ncols, double* out, long ld, std::uint64_t seed) const {
#pragma omp parallel for schedule(dynamic) if (ncols * mp > (1L << 18))
  for (long jj = 0; jj < ncols; ++jj) {
    const long gj = to_global(lj0 + jj, nb, mycol, q);
    double* c = out + jj * ld;
    for (long li0 = 0; li0 < mp; li0 += nb) {
      const long gi0 = to_global(li0, nb, myrow, p);
      const long len = std::min<long>(nb, mp - li0);
      Lcg g(seed);
      g.jump(static_cast<std::uint64_t>(gj) * static_cast<std::uint64_t>(n) + static_cast<std::uint64_t>(gi0));
      for (long k = 0; k < len; ++k) c[li0 + k] = g.next();
    }
  }
}

}  // namespace gluon::hpl
