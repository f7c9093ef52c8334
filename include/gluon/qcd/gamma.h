#pragma once
// Dirac gamma matrices in the DeGrand-Rossi basis (DESIGN.md; Chroma, QDP++, QUDA's interface):
//   g1 = [[0,0,0,i],[0,0,i,0],[0,-i,0,0],[-i,0,0,0]]   g2 = [[0,0,0,-1],[0,0,1,0],[0,1,0,0],[-1,0,0,0]]
//   g3 = [[0,0,i,0],[0,0,0,-i],[-i,0,0,0],[0,i,0,0]]   g4 = [[0,0,1,0],[0,0,0,1],[1,0,0,0],[0,1,0,0]]
//   g5 = g1 g2 g3 g4 = diag(1,1,-1,-1)
// Direction mu = 0..3 (x, y, z, t) is g_{mu+1}; index 4 (kGamma5) is g5.
//
//   GammaEntry / gamma_entry(mu, row)  the one non-zero entry of row `row`: its column and its
//                                      phase as a power of i (0: 1, 1: i, 2: -1, 3: -i); GLUON_HD
//   times_i_power(z, p)                i^p z for complex numbers and colour vectors; GLUON_HD
//   apply_gamma(mu, psi)               g_{mu+1} psi (mu = 0..3; 4 gives g5 psi); GLUON_HD
//   apply_gamma5(psi)                  g5 psi; GLUON_HD
//   Matrix4 / gamma_matrix(mu)         dense complex 4x4 (host; tests and references), with
//                                      products, sums, adjoint and gamma_matrix(kGamma5)
//   sigma_matrix(mu, nu)               sigma_munu = (i/2)[g_mu, g_nu] (dense, host)
#include "gluon/qcd/complex.h"
#include "gluon/qcd/spinor.h"
#include "gluon/runtime/hd.h"

namespace gluon::qcd {

inline constexpr int kGamma5 = 4;

struct GammaEntry {
  int col;    // column of the non-zero entry
  int phase;  // the entry is i^phase: 0 -> 1, 1 -> i, 2 -> -1, 3 -> -i
};

GLUON_HD_INLINE constexpr GammaEntry gamma_entry(int mu, int row) {
  // Rows of g1, g2, g3, g4, g5 as (column, power of i).
  constexpr GammaEntry table[5][4] = {
      {{3, 1}, {2, 1}, {1, 3}, {0, 3}},  // g1: i, i, -i, -i
      {{3, 2}, {2, 0}, {1, 0}, {0, 2}},  // g2: -1, 1, 1, -1
      {{2, 1}, {3, 3}, {0, 3}, {1, 1}},  // g3: i, -i, -i, i
      {{2, 0}, {3, 0}, {0, 0}, {1, 0}},  // g4: 1, 1, 1, 1
      {{0, 0}, {1, 0}, {2, 2}, {3, 2}},  // g5: 1, 1, -1, -1
  };
  return table[mu][row];
}

// i^p z.
template <class T> GLUON_HD_INLINE Complex<T> times_i_power(const Complex<T>& z, int p) {
  switch (p & 3) {
    case 0: return z;
    case 1: return {-z.im, z.re};
    case 2: return {-z.re, -z.im};
    default: return {z.im, -z.re};
  }
}
template <class T> GLUON_HD_INLINE ColorVector<T> times_i_power(const ColorVector<T>& v, int p) {
  ColorVector<T> r;
  for (int c = 0; c < 3; ++c) r.c[c] = times_i_power(v.c[c], p);
  return r;
}

// g_{mu+1} psi for mu = 0..3, g5 psi for mu = kGamma5.
template <class T> GLUON_HD_INLINE Spinor<T> apply_gamma(int mu, const Spinor<T>& psi) {
  Spinor<T> r;
  for (int row = 0; row < 4; ++row) {
    const GammaEntry e = gamma_entry(mu, row);
    r.s[row] = times_i_power(psi.s[e.col], e.phase);
  }
  return r;
}

template <class T> GLUON_HD_INLINE Spinor<T> apply_gamma5(const Spinor<T>& psi) {
  Spinor<T> r = psi;
  for (int row = 2; row < 4; ++row)
    for (int c = 0; c < 3; ++c) r.s[row].c[c] = -psi.s[row].c[c];
  return r;
}

// Dense 4x4 complex matrix (spin space), host-side.
struct Matrix4 {
  complexd e[4][4]{};

  static Matrix4 zero() { return Matrix4{}; }
  static Matrix4 identity() {
    Matrix4 m;
    for (int i = 0; i < 4; ++i) m.e[i][i] = complexd(1.0);
    return m;
  }
  friend Matrix4 operator*(const Matrix4& a, const Matrix4& b) {
    Matrix4 c;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        for (int k = 0; k < 4; ++k) c.e[i][j] += a.e[i][k] * b.e[k][j];
    return c;
  }
  friend Matrix4 operator+(Matrix4 a, const Matrix4& b) {
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) a.e[i][j] += b.e[i][j];
    return a;
  }
  friend Matrix4 operator-(Matrix4 a, const Matrix4& b) {
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) a.e[i][j] -= b.e[i][j];
    return a;
  }
  friend Matrix4 operator*(const complexd& s, Matrix4 a) {
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) a.e[i][j] = s * a.e[i][j];
    return a;
  }
  friend bool operator==(const Matrix4& a, const Matrix4& b) {
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        if (!(a.e[i][j] == b.e[i][j])) return false;
    return true;
  }
};

inline Matrix4 adj(const Matrix4& a) {
  Matrix4 b;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) b.e[i][j] = conj(a.e[j][i]);
  return b;
}

// Dense g_{mu+1} (mu = 0..3) or g5 (mu = kGamma5), built from gamma_entry.
inline Matrix4 gamma_matrix(int mu) {
  Matrix4 m;
  for (int row = 0; row < 4; ++row) {
    const GammaEntry e = gamma_entry(mu, row);
    m.e[row][e.col] = times_i_power(complexd(1.0), e.phase);
  }
  return m;
}

// sigma_munu = (i/2) [g_mu, g_nu] (mu, nu = 0..3).
inline Matrix4 sigma_matrix(int mu, int nu) {
  const Matrix4 a = gamma_matrix(mu), b = gamma_matrix(nu);
  return complexd(0.0, 0.5) * (a * b - b * a);
}

}  // namespace gluon::qcd
