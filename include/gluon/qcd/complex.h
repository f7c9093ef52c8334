#pragma once
// A plain complex number usable in host and device code (std::complex is not, portably).
#include <cmath>

#include "gluon/runtime/hd.h"

namespace gluon::qcd {

template <class T>
struct Complex {
  T re{}, im{};

  GLUON_HD_INLINE constexpr Complex() = default;
  GLUON_HD_INLINE constexpr Complex(T r, T i = T(0)) : re(r), im(i) {}
  template <class U>
  GLUON_HD_INLINE explicit constexpr Complex(const Complex<U>& o) : re(T(o.re)), im(T(o.im)) {}

  GLUON_HD_INLINE Complex& operator+=(const Complex& o) { re += o.re; im += o.im; return *this; }
  GLUON_HD_INLINE Complex& operator-=(const Complex& o) { re -= o.re; im -= o.im; return *this; }
  GLUON_HD_INLINE Complex& operator*=(T s) { re *= s; im *= s; return *this; }
  GLUON_HD_INLINE Complex& operator*=(const Complex& o) { *this = *this * o; return *this; }

  friend GLUON_HD_INLINE Complex operator+(Complex a, const Complex& b) { return a += b; }
  friend GLUON_HD_INLINE Complex operator-(Complex a, const Complex& b) { return a -= b; }
  friend GLUON_HD_INLINE Complex operator-(const Complex& a) { return {-a.re, -a.im}; }
  friend GLUON_HD_INLINE Complex operator*(const Complex& a, const Complex& b) {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  }
  friend GLUON_HD_INLINE Complex operator*(T s, const Complex& a) { return {s * a.re, s * a.im}; }
  friend GLUON_HD_INLINE Complex operator*(const Complex& a, T s) { return {s * a.re, s * a.im}; }
  friend GLUON_HD_INLINE Complex operator/(const Complex& a, T s) { return {a.re / s, a.im / s}; }
  friend GLUON_HD_INLINE Complex operator/(const Complex& a, const Complex& b) {
    const T d = b.re * b.re + b.im * b.im;
    return {(a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d};
  }
  friend GLUON_HD_INLINE bool operator==(const Complex& a, const Complex& b) {
    return a.re == b.re && a.im == b.im;
  }
};

template <class T> GLUON_HD_INLINE Complex<T> conj(const Complex<T>& a) { return {a.re, -a.im}; }
template <class T> GLUON_HD_INLINE T norm2(const Complex<T>& a) { return a.re * a.re + a.im * a.im; }
template <class T> GLUON_HD_INLINE T abs(const Complex<T>& a) { return std::sqrt(norm2(a)); }
template <class T> GLUON_HD_INLINE T arg(const Complex<T>& a) { return std::atan2(a.im, a.re); }
template <class T> GLUON_HD_INLINE Complex<T> polar(T r, T phi) { return {r * std::cos(phi), r * std::sin(phi)}; }
// i * a
template <class T> GLUON_HD_INLINE Complex<T> times_i(const Complex<T>& a) { return {-a.im, a.re}; }
// conj(a) * b
template <class T> GLUON_HD_INLINE Complex<T> conj_mul(const Complex<T>& a, const Complex<T>& b) {
  return {a.re * b.re + a.im * b.im, a.re * b.im - a.im * b.re};
}

using complexd = Complex<double>;
using complexf = Complex<float>;

}  // namespace gluon::qcd
