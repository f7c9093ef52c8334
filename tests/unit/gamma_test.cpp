// Gamma matrices: every entry pinned against DESIGN.md's DeGrand-Rossi matrices, g5 = g1 g2 g3 g4,
// {g_mu, g_nu} = 2 delta, hermiticity, g5 diagonal and anticommuting, sigma_munu block diagonal in
// chirality, and the sparse apply_gamma agreeing with the dense matrices on random spinors.
#include <gtest/gtest.h>

#include <random>

#include "gluon/qcd/gamma.h"

using namespace gluon::qcd;

namespace {

const complexd O(0, 0), I1(1, 0), M1(-1, 0), Ii(0, 1), Mi(0, -1);

// DESIGN.md, typed in independently of gamma.h's table.
Matrix4 design_gamma(int k) {
  const complexd g[5][4][4] = {
      {{O, O, O, Ii}, {O, O, Ii, O}, {O, Mi, O, O}, {Mi, O, O, O}},
      {{O, O, O, M1}, {O, O, I1, O}, {O, I1, O, O}, {M1, O, O, O}},
      {{O, O, Ii, O}, {O, O, O, Mi}, {Mi, O, O, O}, {O, Ii, O, O}},
      {{O, O, I1, O}, {O, O, O, I1}, {I1, O, O, O}, {O, I1, O, O}},
      {{I1, O, O, O}, {O, I1, O, O}, {O, O, M1, O}, {O, O, O, M1}},
  };
  Matrix4 m;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) m.e[i][j] = g[k][i][j];
  return m;
}

double max_abs(const Matrix4& a) {
  double m = 0;
  for (auto& row : a.e)
    for (auto& z : row) m = std::max(m, abs(z));
  return m;
}

Spinor<double> random_spinor(std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  Spinor<double> p;
  for (auto& s : p.s)
    for (auto& c : s.c) c = complexd(g(rng), g(rng));
  return p;
}

}  // namespace

TEST(Gamma, EveryEntryMatchesDesign) {
  for (int mu = 0; mu < 5; ++mu) EXPECT_TRUE(gamma_matrix(mu) == design_gamma(mu)) << "gamma index " << mu;
}

TEST(Gamma, Gamma5IsTheProductAndDiagonal) {
  const Matrix4 p = gamma_matrix(0) * gamma_matrix(1) * gamma_matrix(2) * gamma_matrix(3);
  EXPECT_TRUE(p == gamma_matrix(kGamma5));
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      EXPECT_EQ(gamma_matrix(kGamma5).e[i][j], (i == j ? complexd(i < 2 ? 1.0 : -1.0) : O));
}

TEST(Gamma, CliffordAlgebraAndHermiticity) {
  for (int mu = 0; mu < 5; ++mu) {
    const Matrix4 g = gamma_matrix(mu);
    EXPECT_TRUE(adj(g) == g) << mu;
    EXPECT_TRUE(g * g == Matrix4::identity()) << mu;
    for (int nu = 0; nu < 5; ++nu) {
      if (nu == mu) continue;
      const Matrix4 h = gamma_matrix(nu);
      EXPECT_EQ(max_abs(g * h + h * g), 0.0) << mu << ' ' << nu;
    }
  }
}

TEST(Gamma, SigmaIsHermitianAndBlockDiagonalInChirality) {
  for (int mu = 0; mu < 4; ++mu)
    for (int nu = 0; nu < 4; ++nu) {
      const Matrix4 s = sigma_matrix(mu, nu);
      EXPECT_TRUE(adj(s) == s);
      if (mu == nu) {
        EXPECT_EQ(max_abs(s), 0.0);
        continue;
      }
      EXPECT_GT(max_abs(s), 0.5);
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          if ((i < 2) != (j < 2)) EXPECT_EQ(s.e[i][j], O) << mu << nu << ' ' << i << j;
      // commutes with g5
      EXPECT_EQ(max_abs(s * gamma_matrix(kGamma5) - gamma_matrix(kGamma5) * s), 0.0);
    }
}

TEST(Gamma, SparseApplyMatchesDenseOnRandomSpinors) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    const Spinor<double> psi = random_spinor(rng);
    for (int mu = 0; mu < 5; ++mu) {
      const Matrix4 g = gamma_matrix(mu);
      const Spinor<double> r = mu == kGamma5 ? apply_gamma5(psi) : apply_gamma(mu, psi);
      if (mu == kGamma5) {
        const Spinor<double> r2 = apply_gamma(kGamma5, psi);
        for (int a = 0; a < 4; ++a)
          for (int c = 0; c < 3; ++c) EXPECT_EQ(r.s[a].c[c], r2.s[a].c[c]);
      }
      for (int a = 0; a < 4; ++a)
        for (int c = 0; c < 3; ++c) {
          complexd want(0, 0);
          for (int b = 0; b < 4; ++b) want += g.e[a][b] * psi.s[b].c[c];
          EXPECT_EQ(r.s[a].c[c], want) << mu << ' ' << a << ' ' << c;
        }
    }
    // (1 - g_mu) and (1 + g_mu) are projectors up to 2: (1-g)(1+g) psi = 0
    for (int mu = 0; mu < 4; ++mu) {
      const Spinor<double> p = psi + apply_gamma(mu, psi);
      const Spinor<double> z = p - apply_gamma(mu, p);
      EXPECT_LT(norm2(z), 1e-24);
    }
  }
}
