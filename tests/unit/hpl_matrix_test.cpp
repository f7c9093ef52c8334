// HPL's generator and the block-cyclic layout: the LCG's jump-ahead, numroc, and a matrix that
// does not depend on P, Q or NB.
#include <gtest/gtest.h>

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
    EXPECT_GE(v, -0.5);
    EXPECT_LT(v, 0.5);
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
