#pragma once
// Dirac spinor: 4 spin components, each a colour vector. Spin index 0..3 in the DeGrand-Rossi
// basis (gamma.h), where gamma5 = diag(1, 1, -1, -1).
#include "gluon/qcd/su3.h"

namespace gluon::qcd {

template <class T>
struct Spinor {
  ColorVector<T> s[4];

  GLUON_HD_INLINE Spinor& operator+=(const Spinor& o) {
    for (int i = 0; i < 4; ++i) s[i] += o.s[i];
    return *this;
  }
  GLUON_HD_INLINE Spinor& operator-=(const Spinor& o) {
    for (int i = 0; i < 4; ++i) s[i] -= o.s[i];
    return *this;
  }
  friend GLUON_HD_INLINE Spinor operator+(Spinor a, const Spinor& b) { return a += b; }
  friend GLUON_HD_INLINE Spinor operator-(Spinor a, const Spinor& b) { return a -= b; }
};

// Colour matrix applied to every spin component.
template <class T>
GLUON_HD_INLINE Spinor<T> operator*(const Matrix3<T>& m, const Spinor<T>& v) {
  Spinor<T> r;
  for (int i = 0; i < 4; ++i) r.s[i] = m * v.s[i];
  return r;
}

template <class T>
GLUON_HD_INLINE T norm2(const Spinor<T>& v) {
  T n = 0;
  for (int i = 0; i < 4; ++i)
    for (int c = 0; c < 3; ++c) n += norm2(v.s[i].c[c]);
  return n;
}

}  // namespace gluon::qcd
