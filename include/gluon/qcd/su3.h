#pragma once
// SU(3) colour matrices and colour vectors (3 complex components), host and device.
//
//   Matrix3<T>        3x3 complex, row-major e[row][col]; U_mu(x) acts on colour vectors at x+mu
//   ColorVector<T>    3 complex
//   identity, adj (dagger), trace, det, products, matrix*vector, adj(matrix)*vector
//   reunitarize       row 1 normalised, row 2 Gram-Schmidt, row 3 = conj(row1 x row2) (MILC's)
//   unitarity_deviation  max |U U^+ - 1| entry plus |det U - 1|
#include <cmath>

#include "gluon/qcd/complex.h"

namespace gluon::qcd {

template <class T>
struct Matrix3 {
  Complex<T> e[3][3];

  GLUON_HD_INLINE static Matrix3 zero() { return Matrix3{}; }
  GLUON_HD_INLINE static Matrix3 identity() {
    Matrix3 m{};
    m.e[0][0] = m.e[1][1] = m.e[2][2] = Complex<T>(T(1));
    return m;
  }
  template <class U>
  GLUON_HD_INLINE static Matrix3 from(const Matrix3<U>& o) {
    Matrix3 m;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) m.e[i][j] = Complex<T>(o.e[i][j]);
    return m;
  }

  GLUON_HD_INLINE Matrix3& operator+=(const Matrix3& o) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) e[i][j] += o.e[i][j];
    return *this;
  }
  GLUON_HD_INLINE Matrix3& operator-=(const Matrix3& o) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) e[i][j] -= o.e[i][j];
    return *this;
  }
  GLUON_HD_INLINE Matrix3& operator*=(T s) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) e[i][j] *= s;
    return *this;
  }
  friend GLUON_HD_INLINE Matrix3 operator+(Matrix3 a, const Matrix3& b) { return a += b; }
  friend GLUON_HD_INLINE Matrix3 operator-(Matrix3 a, const Matrix3& b) { return a -= b; }
  friend GLUON_HD_INLINE Matrix3 operator*(T s, Matrix3 a) { return a *= s; }
  friend GLUON_HD_INLINE Matrix3 operator*(const Matrix3& a, const Matrix3& b) {
    Matrix3 c;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        Complex<T> s = a.e[i][0] * b.e[0][j];
        s += a.e[i][1] * b.e[1][j];
        s += a.e[i][2] * b.e[2][j];
        c.e[i][j] = s;
      }
    return c;
  }
};

template <class T>
struct ColorVector {
  Complex<T> c[3];
  GLUON_HD_INLINE ColorVector& operator+=(const ColorVector& o) {
    for (int i = 0; i < 3; ++i) c[i] += o.c[i];
    return *this;
  }
  GLUON_HD_INLINE ColorVector& operator-=(const ColorVector& o) {
    for (int i = 0; i < 3; ++i) c[i] -= o.c[i];
    return *this;
  }
  friend GLUON_HD_INLINE ColorVector operator+(ColorVector a, const ColorVector& b) { return a += b; }
  friend GLUON_HD_INLINE ColorVector operator-(ColorVector a, const ColorVector& b) { return a -= b; }
};

template <class T>
GLUON_HD_INLINE Matrix3<T> adj(const Matrix3<T>& a) {
  Matrix3<T> b;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) b.e[i][j] = conj(a.e[j][i]);
  return b;
}

template <class T>
GLUON_HD_INLINE Complex<T> trace(const Matrix3<T>& a) {
  return a.e[0][0] + a.e[1][1] + a.e[2][2];
}

// Re tr(a b) without forming the product.
template <class T>
GLUON_HD_INLINE T re_trace_mul(const Matrix3<T>& a, const Matrix3<T>& b) {
  T s = 0;
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) s += a.e[i][k].re * b.e[k][i].re - a.e[i][k].im * b.e[k][i].im;
  return s;
}

template <class T>
GLUON_HD_INLINE Complex<T> det(const Matrix3<T>& a) {
  const auto& m = a.e;
  return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
         m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
         m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

// conj(a x b): the third row of an SU(3) matrix whose first two rows are a and b.
template <class T>
GLUON_HD_INLINE void conj_cross(const Complex<T>* a, const Complex<T>* b, Complex<T>* out) {
  out[0] = conj(a[1] * b[2] - a[2] * b[1]);
  out[1] = conj(a[2] * b[0] - a[0] * b[2]);
  out[2] = conj(a[0] * b[1] - a[1] * b[0]);
}

template <class T>
GLUON_HD_INLINE ColorVector<T> operator*(const Matrix3<T>& m, const ColorVector<T>& v) {
  ColorVector<T> r;
  for (int i = 0; i < 3; ++i) r.c[i] = m.e[i][0] * v.c[0] + m.e[i][1] * v.c[1] + m.e[i][2] * v.c[2];
  return r;
}

// adj(m) * v
template <class T>
GLUON_HD_INLINE ColorVector<T> adj_mul(const Matrix3<T>& m, const ColorVector<T>& v) {
  ColorVector<T> r;
  for (int i = 0; i < 3; ++i)
    r.c[i] = conj_mul(m.e[0][i], v.c[0]) + conj_mul(m.e[1][i], v.c[1]) + conj_mul(m.e[2][i], v.c[2]);
  return r;
}

// m, or adj(m) when `adj` (a run-time value): element selects and a sign, no branch, so that the
// threads of one warp that transport a forward hop and those that transport a backward one run
// one instruction stream (the Wilson dslash with two threads a site).
template <class T>
GLUON_HD_INLINE Matrix3<T> adjoint_if(const Matrix3<T>& m, bool adj) {
  Matrix3<T> r;
  const T sign = adj ? T(-1) : T(1);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const Complex<T>& a = m.e[i][j];
      const Complex<T>& b = m.e[j][i];
      r.e[i][j] = Complex<T>(adj ? b.re : a.re, sign * (adj ? b.im : a.im));
    }
  return r;
}

// Projects a near-unitary matrix back onto SU(3): normalise row 0, Gram-Schmidt row 1 against it,
// row 2 = conj(row0 x row1). The same procedure MILC applies on every read.
template <class T>
GLUON_HD_INLINE Matrix3<T> reunitarize(const Matrix3<T>& a) {
  Matrix3<T> u = a;
  T n0 = 0;
  for (int j = 0; j < 3; ++j) n0 += norm2(u.e[0][j]);
  n0 = T(1) / std::sqrt(n0);
  for (int j = 0; j < 3; ++j) u.e[0][j] *= n0;
  Complex<T> p(0, 0);
  for (int j = 0; j < 3; ++j) p += conj_mul(u.e[0][j], u.e[1][j]);
  for (int j = 0; j < 3; ++j) u.e[1][j] -= p * u.e[0][j];
  T n1 = 0;
  for (int j = 0; j < 3; ++j) n1 += norm2(u.e[1][j]);
  n1 = T(1) / std::sqrt(n1);
  for (int j = 0; j < 3; ++j) u.e[1][j] *= n1;
  conj_cross(u.e[0], u.e[1], u.e[2]);
  return u;
}

// max_ij |(U U^+ - 1)_ij| + |det U - 1|: zero to rounding for an SU(3) matrix.
template <class T>
GLUON_HD_INLINE T unitarity_deviation(const Matrix3<T>& u) {
  const Matrix3<T> p = u * adj(u);
  T worst = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Complex<T> d = p.e[i][j];
      if (i == j) d.re -= T(1);
      const T m = abs(d);
      worst = m > worst ? m : worst;
    }
  Complex<T> dt = det(u);
  dt.re -= T(1);
  return worst + abs(dt);
}

using SU3d = Matrix3<double>;
using SU3f = Matrix3<float>;

}  // namespace gluon::qcd
