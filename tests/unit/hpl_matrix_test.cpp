// HPL's generator and the block-cyclic layout: the LCG's jump-ahead, numroc, and a matrix that
// does not depend on P, Q or NB.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>

#include "gluon/hpl/matrix.h"

using namespace gluon::hpl;

TEST(HplMatrix, JumpAheadEqualsStepping) {
  for (std::uint64_t count : {0ULL, 1ULL, 2ULL, 7ULL, 1000ULL, 123457ULL}) {
    Lcg a(42), b(42);
    for (std::uint64_t i = 0; i < count; ++i) a.next();
    b.jump(count);
    EXPECT_EQ(a.x, b.x) << count;
  }
  Lcg g(1);
  for (int i = 0; i < 1000; ++i) {
    const double v = g.next();
    EXPECT_GT(v, -0.5);  // HPL_rand's interval is (-0.5, 0.5]
    EXPECT_LE(v, 0.5);
  }
}

// HPL 2.3's HPL_pdmatgen(GRID, N, N+1, NB, A, LDA, ISEED = 100): the multiplier and adder are
// the pairs (HPL_MULT0, HPL_MULT1) = (1284865837, 1481765933) and (HPL_IADD0, HPL_IADD1) = (1, 0)
// of 32-bit halves; the first number is that of a * ISEED + c; entry (i, j) is number i + j N;
// HPL_rand turns the state's halves (lo, hi) into 1/2 - ((lo / 2^31 / 2 + hi) / 2^31 / 2), each
// half rebuilt from its 16-bit pieces. Written out here in HPL's own arithmetic, bit for bit.
TEST(HplMatrix, IsHplsGeneratorBitForBit) {
  EXPECT_EQ(Lcg::a, 1481765933ULL * 4294967296ULL + 1284865837ULL);
  EXPECT_EQ(Lcg::c, 1ULL);
  EXPECT_EQ(default_seed, 100ULL);
  auto hpl_rand = [](std::uint64_t x) {
    const std::uint32_t j0 = static_cast<std::uint32_t>(x), j1 = static_cast<std::uint32_t>(x >> 32);
    return 0.5 - (((j0 & 65535) + (j0 >> 16) * 65536.0) / 2147483648.0 * 0.5 + (j1 & 65535) + (j1 >> 16) * 65536.0) /
                     2147483648.0 * 0.5;
  };
  const long n = 7;
  std::uint64_t x = 100;
  for (long j = 0; j <= n; ++j)
    for (long i = 0; i < n; ++i) {
      x = x * 6364136223846793005ULL + 1;  // the next state, mod 2^64
      const double want = hpl_rand(x);
      EXPECT_EQ(matrix_entry(n, i, j), want) << "(" << i << ", " << j << ")";
    }
}

TEST(HplMatrix, NumrocAndIndexMaps) {
  for (long n : {0L, 1L, 17L, 64L, 100L})
    for (int nb : {1, 4, 7})
      for (int np : {1, 2, 3}) {
        long sum = 0;
        for (int p = 0; p < np; ++p) {
          const long c = numroc(n, nb, p, np);
          sum += c;
          for (long l = 0; l < c; ++l) {
            const long g = to_global(l, nb, p, np);
            EXPECT_EQ(owner(g, nb, np), p);
            EXPECT_EQ(to_local(g, nb, np), l);
          }
        }
        EXPECT_EQ(sum, n);
      }
}

TEST(HplMatrix, SameMatrixForEveryGrid) {
  const long n = 45;
  for (int nb : {1, 5, 16, 64})
    for (auto [p, q] : {std::pair{1, 1}, std::pair{2, 3}, std::pair{3, 2}})
      for (int r = 0; r < p; ++r)
        for (int c = 0; c < q; ++c) {
          LocalMatrix m(n, nb, p, q, r, c);
          m.generate();
          for (long lj = 0; lj < m.nq; ++lj)
            for (long li = 0; li < m.mp; ++li) {
              const long gi = to_global(li, nb, r, p), gj = to_global(lj, nb, c, q);
              ASSERT_EQ(m.at(li, lj), matrix_entry(n, gi, gj)) << gi << "," << gj;
            }
        }
  // Different seeds, different matrices; entries differ from each other.
  EXPECT_NE(matrix_entry(10, 3, 4, 1), matrix_entry(10, 3, 4, 2));
  std::set<double> seen;
  for (long j = 0; j <= 10; ++j)
    for (long i = 0; i < 10; ++i) seen.insert(matrix_entry(10, i, j));
  EXPECT_EQ(seen.size(), 110u);
}
