// Gauge compression: reconstruct-18/12/8 pack/unpack exact to rounding on Haar-random SU(3) links,
// in double and single; reconstruct-8 on degenerate (unit, diagonal, permutation-like), near
// degenerate and pivot-stressing links; the degenerate flag; out-of-SU(3) behaviour is not promised.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "gluon/qcd/reconstruct.h"
#include "gluon/qcd/su3.h"

using namespace gluon::qcd;

namespace {

SU3d random_su3(std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  SU3d a;
  for (auto& row : a.e)
    for (auto& z : row) z = complexd(g(rng), g(rng));
  return reunitarize(a);
}

template <class T>
double max_diff(const Matrix3<T>& a, const SU3d& b) {
  double m = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      m = std::fmax(m, std::fabs(double(a.e[i][j].re) - b.e[i][j].re));
      m = std::fmax(m, std::fabs(double(a.e[i][j].im) - b.e[i][j].im));
    }
  return m;
}

template <Reconstruct R, class T>
double roundtrip_error(const SU3d& u) {
  T v[stored_reals(R)];
  Recon<R>::template pack<T>(Matrix3<T>::from(u), v);
  return max_diff(Recon<R>::template unpack<T>(v), u);
}

// A phase times a permutation-like SU(3) matrix: row 0 has a single non-zero entry.
SU3d embedded_su2(const complexd& a, const complexd& b, double phase, int perm) {
  // [[e^{i p}, 0, 0], [0, e^{-i p} a, e^{-i p} b], [0, -conj(b), conj(a)]] (det 1 for |a|^2+|b|^2 = 1),
  // then columns cyclically shifted by perm.
  SU3d w{};
  const complexd e = polar(1.0, phase), ec = conj(e);
  w.e[0][0] = e;
  w.e[1][1] = ec * a;
  w.e[1][2] = ec * b;
  w.e[2][1] = -conj(b);
  w.e[2][2] = conj(a);
  SU3d u{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) u.e[i][(j + perm) % 3] = w.e[i][j];
  return u;
}

}  // namespace

TEST(Reconstruct, R18IsBitExact) {
  std::mt19937_64 rng(1);
  for (int i = 0; i < 100; ++i) {
    const SU3d u = random_su3(rng);
    EXPECT_EQ((roundtrip_error<Reconstruct::r18, double>(u)), 0.0);
  }
}

TEST(Reconstruct, R12AndR8ExactToRoundingOnHaarRandomLinks) {
  std::mt19937_64 rng(2);
  double e12d = 0, e12f = 0, e8d = 0, e8f = 0;
  for (int i = 0; i < 20000; ++i) {
    const SU3d u = random_su3(rng);
    ASSERT_LT(unitarity_deviation(u), 1e-14);
    e12d = std::fmax(e12d, roundtrip_error<Reconstruct::r12, double>(u));
    e12f = std::fmax(e12f, roundtrip_error<Reconstruct::r12, float>(u));
    e8d = std::fmax(e8d, roundtrip_error<Reconstruct::r8, double>(u));
    e8f = std::fmax(e8f, roundtrip_error<Reconstruct::r8, float>(u));
  }
  EXPECT_LT(e12d, 1e-14);
  EXPECT_LT(e8d, 1e-14);
  EXPECT_LT(e12f, 1e-6);
  EXPECT_LT(e8f, 1e-6);
  // Not vacuous: single precision really is single.
  EXPECT_GT(e8f, 1e-9);
}

TEST(Reconstruct, R8DegenerateLinksUseTheFlaggedEncodingAndAreExact) {
  // Unit link: bit-exact rebuild, flag set.
  double v[8];
  Recon<Reconstruct::r8>::pack(SU3d::identity(), v);
  EXPECT_EQ(v[6], 1.0);
  EXPECT_EQ(v[7], 1.0);
  const SU3d one = Recon<Reconstruct::r8>::unpack(v);
  EXPECT_LT(max_diff(one, SU3d::identity()), 1e-16);

  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> ang(-M_PI, M_PI);
  for (int perm = 0; perm < 3; ++perm)
    for (int i = 0; i < 200; ++i) {
      const SU3d s = random_su3(rng);
      // An SU(2) block from a random link's first row, normalised.
      complexd a = s.e[0][0], b = s.e[0][1];
      const double nn = 1.0 / std::sqrt(norm2(a) + norm2(b));
      a *= nn;
      b *= nn;
      const SU3d u = embedded_su2(a, b, ang(rng), perm);
      ASSERT_LT(unitarity_deviation(u), 1e-14);
      double w[8];
      Recon<Reconstruct::r8>::pack(u, w);
      EXPECT_EQ(w[6], 1.0);
      EXPECT_EQ(w[7], 1.0);
      EXPECT_LT((roundtrip_error<Reconstruct::r8, double>(u)), 1e-15);
      EXPECT_LT((roundtrip_error<Reconstruct::r8, float>(u)), 1e-6);
    }
}

TEST(Reconstruct, R8NearDegenerateAndPivotStressingLinks) {
  std::mt19937_64 rng(4);
  std::normal_distribution<double> g;
  // Links near the unit link and near a degenerate permuted link, at many distances (both
  // sides of the degenerate thresholds of double and float).
  for (double eps : {1e-1, 1e-3, 1e-6, 1e-8, 1e-10, 1e-14, 1e-16, 1e-18, 1e-24}) {
    for (int i = 0; i < 50; ++i) {
      SU3d a = SU3d::identity();
      for (auto& row : a.e)
        for (auto& z : row) z += complexd(eps * g(rng), eps * g(rng));
      const SU3d near_one = reunitarize(a);
      const SU3d s = random_su3(rng);
      const double nn = 1.0 / std::sqrt(norm2(s.e[0][0]) + norm2(s.e[0][1]));
      const SU3d block = embedded_su2(s.e[0][0] * nn, s.e[0][1] * nn, 1.0, i % 3);
      const SU3d near_block = reunitarize(block + (a - SU3d::identity()));
      for (const SU3d& u : {near_one, near_block}) {
        ASSERT_LT(unitarity_deviation(u), 1e-14);
        EXPECT_LT((roundtrip_error<Reconstruct::r8, double>(u)), 2e-15) << "eps " << eps;
        EXPECT_LT((roundtrip_error<Reconstruct::r8, float>(u)), 1e-6) << "eps " << eps;
        EXPECT_LT((roundtrip_error<Reconstruct::r12, double>(u)), 2e-15) << "eps " << eps;
      }
    }
  }
  // Column 0 with a vanishing entry below the pivot (|U20| or |U10| = 0) and rows with entries
  // of equal size: the pivoting must keep these exact.
  for (int perm = 0; perm < 3; ++perm)
    for (int i = 0; i < 100; ++i) {
      const SU3d s = random_su3(rng);
      complexd a = s.e[0][0], b = s.e[0][1];
      const double nn = 1.0 / std::sqrt(norm2(a) + norm2(b));
      // Rows permuted: the SU(2) block now mixes rows 0 and 1, row 2 is a phase.
      SU3d w = embedded_su2(a * nn, b * nn, 0.3 * i, perm), u;
      for (int j = 0; j < 3; ++j) {
        u.e[0][j] = w.e[1][j];
        u.e[1][j] = w.e[2][j];
        u.e[2][j] = w.e[0][j];
      }
      ASSERT_LT(unitarity_deviation(u), 1e-14);
      EXPECT_LT((roundtrip_error<Reconstruct::r8, double>(u)), 1e-14);
      EXPECT_LT((roundtrip_error<Reconstruct::r8, float>(u)), 1e-6);
    }
}

// The stencils' r8 form (FactoredLink): sign * (f h) and sign * adj_mul(f, h) equal U h and U^+ h
// of the packed link itself (not of unpack's matrix, which is formed from the same coefficients),
// for regular links of every pivot and for degenerate ones.
template <class T>
double factored_product_error(const SU3d& u, std::mt19937_64& rng) {
  T v[8];
  const Matrix3<T> m = Matrix3<T>::from(u);
  Recon<Reconstruct::r8>::template pack<T>(m, v);
  const FactoredLink<T> f = Recon<Reconstruct::r8>::template unpack_factored<T>(v);
  const T sign = with_link_sign(f, T(1));
  std::normal_distribution<double> g;
  ColorVector<T> h;
  for (auto& z : h.c) z = Complex<T>(T(g(rng)), T(g(rng)));
  const ColorVector<T> a = f * h, b = m * h, aa = adj_mul(f, h), bb = adj_mul(m, h);
  double e = 0;
  for (int c = 0; c < 3; ++c) {
    e = std::fmax(e, std::fabs(double(sign * a.c[c].re - b.c[c].re)));
    e = std::fmax(e, std::fabs(double(sign * a.c[c].im - b.c[c].im)));
    e = std::fmax(e, std::fabs(double(sign * aa.c[c].re - bb.c[c].re)));
    e = std::fmax(e, std::fabs(double(sign * aa.c[c].im - bb.c[c].im)));
  }
  return e;
}

TEST(Reconstruct, R8FactoredProductsMatchTheLink) {
  std::mt19937_64 rng(6);
  std::uniform_real_distribution<double> ang(-M_PI, M_PI);
  int pivots[3][2] = {};
  for (int i = 0; i < 600; ++i) {
    const SU3d u = random_su3(rng);
    double v[8];
    Recon<Reconstruct::r8>::pack(u, v);
    const FactoredLink<double> f = Recon<Reconstruct::r8>::unpack_factored(v);
    ++pivots[f.k][f.b];
    EXPECT_LT(factored_product_error<double>(u, rng), 1e-14) << "link " << i;
    EXPECT_LT(factored_product_error<float>(u, rng), 5e-6) << "link " << i;
  }
  for (int k = 0; k < 3; ++k)
    for (int b = 0; b < 2; ++b) EXPECT_GT(pivots[k][b], 0) << "no link with pivots k " << k << ", b " << b;
  int degenerate = 0;
  for (int perm = 0; perm < 3; ++perm)
    for (int i = 0; i < 50; ++i) {
      const SU3d s = random_su3(rng);
      const double nn = 1.0 / std::sqrt(norm2(s.e[0][0]) + norm2(s.e[0][1]));
      const SU3d u = i == 0 ? SU3d::identity() : embedded_su2(s.e[0][0] * nn, s.e[0][1] * nn, ang(rng), perm);
      double v[8];
      Recon<Reconstruct::r8>::pack(u, v);
      degenerate += Recon<Reconstruct::r8>::unpack_factored(v).e == 0.0;
      EXPECT_LT(factored_product_error<double>(u, rng), 1e-14) << "degenerate link " << i << ", perm " << perm;
      EXPECT_LT(factored_product_error<float>(u, rng), 5e-6) << "degenerate link " << i << ", perm " << perm;
    }
  EXPECT_EQ(degenerate, 150);
}

TEST(Reconstruct, R8HalfScalesCoverTheAngleSlots) {
  // Slot 0 holds an angle plus -8, 0 or 8; slot 1 an angle plus -4 or 4: within the half scales.
  std::mt19937_64 rng(5);
  for (int i = 0; i < 1000; ++i) {
    float v[8];
    Recon<Reconstruct::r8>::pack(Matrix3<float>::from(random_su3(rng)), v);
    EXPECT_LE(std::fabs(v[0]), Recon<Reconstruct::r8>::half_scale(0));
    EXPECT_LE(std::fabs(v[1]), Recon<Reconstruct::r8>::half_scale(1));
    for (int r = 2; r < 8; ++r) EXPECT_LE(std::fabs(v[r]), 1.0f);
  }
  EXPECT_EQ(half_scale<Reconstruct::r12>(3), 1.0f);
  EXPECT_EQ(half_scale<Reconstruct::r8>(5), 1.0f);
}
