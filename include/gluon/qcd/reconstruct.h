#pragma once
// Gauge compression: packing an SU(3) matrix into 18, 12 or 8 reals and rebuilding it.
//
//   Recon<r18>  all 9 complex entries, row-major, (re, im) interleaved
//   Recon<r12>  rows 0 and 1; row 2 = conj(row0 x row1)
//   Recon<r8>   8 reals (QUDA-style): arg U00, arg U20, U01, U02, U10; the rest from unitarity
//
// pack/unpack are exact to rounding for SU(3) matrices; r12/r8 are meaningless for others.
#include "gluon/qcd/precision.h"
#include "gluon/qcd/su3.h"

namespace gluon::qcd {

template <Reconstruct R> struct Recon;

template <> struct Recon<Reconstruct::r18> {
  template <class T> GLUON_HD_INLINE static void pack(const Matrix3<T>& m, T* v) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        v[2 * (3 * i + j)] = m.e[i][j].re;
        v[2 * (3 * i + j) + 1] = m.e[i][j].im;
      }
  }
  template <class T> GLUON_HD_INLINE static Matrix3<T> unpack(const T* v) {
    Matrix3<T> m;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) m.e[i][j] = Complex<T>(v[2 * (3 * i + j)], v[2 * (3 * i + j) + 1]);
    return m;
  }
};

template <> struct Recon<Reconstruct::r12> {
  template <class T> GLUON_HD_INLINE static void pack(const Matrix3<T>& m, T* v) {
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) {
        v[2 * (3 * i + j)] = m.e[i][j].re;
        v[2 * (3 * i + j) + 1] = m.e[i][j].im;
      }
  }
  template <class T> GLUON_HD_INLINE static Matrix3<T> unpack(const T* v) {
    Matrix3<T> m;
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) m.e[i][j] = Complex<T>(v[2 * (3 * i + j)], v[2 * (3 * i + j) + 1]);
    conj_cross(m.e[0], m.e[1], m.e[2]);
    return m;
  }
};

// TODO(helper C): replace with the exact 8-parameter reconstruction (see the spec).
template <> struct Recon<Reconstruct::r8> {
  template <class T> GLUON_HD_INLINE static void pack(const Matrix3<T>& m, T* v);
  template <class T> GLUON_HD_INLINE static Matrix3<T> unpack(const T* v);
};

}  // namespace gluon::qcd
