#pragma once
// The P x Q block-cyclic layout of HPL and HPL's random matrix.
//
//   numroc(n, nb, iproc, nprocs)   how many of the indices [0, n) process iproc owns
//   owner / to_local / to_global   the block-cyclic maps of one dimension (blocks of nb)
//   Lcg                            HPL's generator (HPL_rand, HPL_pdmatgen): x' = a x + c mod
//                                  2^64, a = 6364136223846793005 (HPL_MULT1 2^32 + HPL_MULT0),
//                                  c = 1 (HPL_IADD), jump-ahead by any count in O(log count);
//                                  value(x) = 0.5 - x / 2^64, rounded as HPL_rand rounds it
//   matrix_entry(n, i, j, seed)    entry (i, j) of the N x (N+1) matrix [A b] (b is column N):
//                                  the (j N + i)-th number of the stream, so A and b depend on
//                                  N and the seed only, never on P, Q or NB.
//   LocalMatrix                    one process's part of [A b], column-major, lda = local rows;
//                                  generate() fills it with HPL's matrix by jumping to the start
//                                  of each block-cyclic run of rows.
#include <cstdint>
#include <vector>

namespace gluon::hpl {

long numroc(long n, long nb, int iproc, int nprocs);
inline int owner(long g, long nb, int nprocs) { return static_cast<int>((g / nb) % nprocs); }
inline long to_local(long g, long nb, int nprocs) { return (g / (nb * nprocs)) * nb + g % nb; }
inline long to_global(long l, long nb, int iproc, int nprocs) { return ((l / nb) * nprocs + iproc) * nb + l % nb; }

struct Lcg {
  static constexpr std::uint64_t a = 6364136223846793005ULL;
  static constexpr std::uint64_t c = 1;
  std::uint64_t x;
  explicit Lcg(std::uint64_t seed) : x(seed) {}
  // HPL's first number is that of a seed + c (HPL_xjumpm by 1 from ISEED), so next() steps first.
  double next() {
    x = a * x + c;
    return value(x);
  }
  // HPL_rand: (low 32 bits / 2^32 + high 32 bits) / 2^32 subtracted from 1/2, one rounding in the
  // sum and one in the difference (the scalings by powers of two are exact): the same bits.
  static double value(std::uint64_t v) {
    const double lo = static_cast<double>(v & 0xffffffffULL), hi = static_cast<double>(v >> 32);
    return 0.5 - (lo * 0x1p-32 + hi) * 0x1p-32;
  }
  void jump(std::uint64_t count);  // as if next() were called count times
};

constexpr std::uint64_t default_seed = 100;
double matrix_entry(long n, long i, long j, std::uint64_t seed = default_seed);

struct LocalMatrix {
  long n = 0;
  int nb = 1, p = 1, q = 1, myrow = 0, mycol = 0;
  long mp = 0, nq = 0, lda = 1;  // local rows, local columns of [A b]
  std::vector<double> a;

  LocalMatrix() = default;
  // allocate = false: the shape only (mp, nq, lda), for generate_columns() into other memory.
  LocalMatrix(long n, int nb, int p, int q, int myrow, int mycol, bool allocate = true);
  double* col(long lj) { return a.data() + lj * lda; }
  double& at(long li, long lj) { return a[li + lj * lda]; }
  void generate(std::uint64_t seed = default_seed);
  // Local columns [lj0, lj0 + ncols) of HPL's matrix into out (column-major, leading dim ld >= mp).
  void generate_columns(long lj0, long ncols, double* out, long ld, std::uint64_t seed = default_seed) const;
};

}  // namespace gluon::hpl
