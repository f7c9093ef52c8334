#pragma once
// Private: an r8 link (reconstruct.h's Recon<r8>) rebuilt on the W lanes of a tile, for the CPU
// vector kernels (included only by the *_avx512.cpp and *_avx2.cpp kernels through their impl headers, so
// everything here has internal linkage and includes no library header). Half storage
// (unpack<true>): the stored integers times half_slot_scale(r) are the slots' values, and the
// rebuilt link is the link itself (not 32767 times it, as the kernels use r18 and r12 half links).
//
// The same rebuild as Recon<r8>::unpack: the column pivot k from slot 0 (against +-4), the phase
// angles through sincos, |W00| and |W20| from unitarity, W11..W22 from the cofactors, the
// degenerate encoding (slots 6 and 7 both 1) where n is too small to divide by, and the pivots
// undone (rows 1 and 2 swapped and negated when b, columns rotated by k). Every per-site choice
// is a lane select, so the W sites of a tile may pivot differently.
//
// sincos: the angles lie in [-pi, pi] (slot 0 less its 8 k offset, slot 1 less +-4), reduced by
// the nearest multiple q of pi/2 (pi/2 in two parts, so x - q pi/2 is exact to rounding for
// |q| <= 2) to |r| <= pi/4, where the Taylor series to r^15 (double) or r^9 (single) is within
// rounding (the first dropped term is below 5e-17 and 2e-9 relative), and the quadrant q
// swaps and negates the two.
#include "cpu_simd_vector.h"

#if defined(GLUON_CPU_SIMD)

namespace gluon::qcd::detail {
namespace {

template <class T, int L = kTileSites>
struct SimdR8 {
  using S = Simd<T, L>;
  using V = typename S::V;
  using M = typename S::M;
  using C = typename S::C;
  static constexpr bool kDouble = sizeof(T) == 8;

  // sin x and cos x on every lane, |x| <= pi + a few rounding steps.
  static GLUON_SIMD_INLINE void sincos(V x, V& s, V& c) {
    const T two_over_pi = T(0.636619772367581343075535053490057448);
    // pi/2 = hi + lo, hi with trailing zero bits to spare: q hi is exact for |q| <= 2.
    const T pio2_hi = kDouble ? T(1.57079632679489655800e+00) : T(1.5707963705062866);
    const T pio2_lo = kDouble ? T(6.12323399573676603587e-17) : T(-4.37113900018624283e-8);
    const V t = x * two_over_pi;
    const M qm = __builtin_convertvector(t + (t < V{} ? S::splat(T(-0.5)) : S::splat(T(0.5))), M);  // round
    const V q = __builtin_convertvector(qm, V);
    const V r = (x - q * pio2_hi) - q * pio2_lo;
    const V r2 = r * r;
    V sr, cr;
    if constexpr (kDouble) {
      sr = S::splat(T(-1.0 / 1307674368000.0));                 // -1/15!
      sr = sr * r2 + T(1.0 / 6227020800.0);                     // 1/13!
      sr = sr * r2 + T(-1.0 / 39916800.0);                      // -1/11!
      sr = sr * r2 + T(1.0 / 362880.0);                         // 1/9!
      sr = sr * r2 + T(-1.0 / 5040.0);                          // -1/7!
      sr = sr * r2 + T(1.0 / 120.0);                            // 1/5!
      sr = sr * r2 + T(-1.0 / 6.0);                             // -1/3!
      sr = r + r * r2 * sr;
      cr = S::splat(T(1.0 / 20922789888000.0));                 // 1/16!
      cr = cr * r2 + T(-1.0 / 87178291200.0);                   // -1/14!
      cr = cr * r2 + T(1.0 / 479001600.0);                      // 1/12!
      cr = cr * r2 + T(-1.0 / 3628800.0);                       // -1/10!
      cr = cr * r2 + T(1.0 / 40320.0);                          // 1/8!
      cr = cr * r2 + T(-1.0 / 720.0);                           // -1/6!
      cr = cr * r2 + T(1.0 / 24.0);                             // 1/4!
      cr = cr * r2 + T(-0.5);
      cr = cr * r2 + T(1);
    } else {
      sr = S::splat(T(1.0 / 362880.0));
      sr = sr * r2 + T(-1.0 / 5040.0);
      sr = sr * r2 + T(1.0 / 120.0);
      sr = sr * r2 + T(-1.0 / 6.0);
      sr = r + r * r2 * sr;
      cr = S::splat(T(-1.0 / 3628800.0));
      cr = cr * r2 + T(1.0 / 40320.0);
      cr = cr * r2 + T(-1.0 / 720.0);
      cr = cr * r2 + T(1.0 / 24.0);
      cr = cr * r2 + T(-0.5);
      cr = cr * r2 + T(1);
    }
    // x = q pi/2 + r: sin x = sin r, cos r, -sin r, -cos r and cos x = cos r, -sin r, -cos r,
    // sin r for q = 0, 1, 2, 3 (mod 4).
    const M swap = (qm & 1) != 0;
    const M sin_neg = (qm & 2) != 0;
    const M cos_neg = ((qm + 1) & 2) != 0;
    const V s0 = swap ? cr : sr, c0 = swap ? sr : cr;
    s = sin_neg ? -s0 : s0;
    c = cos_neg ? -c0 : c0;
  }

  // Half: the factor from stored integer to value of slot r.
  static GLUON_SIMD_INLINE T half_slot_scale(int r) {
    return (r == 0 ? kSimdR8HalfSlot0Scale : (r == 1 ? kSimdR8HalfSlot1Scale : 1.0f)) / 32767.0f;
  }

  static GLUON_SIMD_INLINE C conj(C z) { return {z.re, -z.im}; }
  static GLUON_SIMD_INLINE C neg(C z) { return {-z.re, -z.im}; }
  static GLUON_SIMD_INLINE C scaled(C z, V a) { return {z.re * a, z.im * a}; }
  static GLUON_SIMD_INLINE C pick(M m, C a, C b) { return {m ? a.re : b.re, m ? a.im : b.im}; }

  // u = the link whose 8 stored reals are stored(0) .. stored(7) (Half: the int16 values as
  // reals, scaled here by half_slot_scale).
  template <bool Half, class Get>
  static GLUON_SIMD_INLINE void unpack(const Get& stored, C u[3][3]) {
    auto get = [&](int r) {
      if constexpr (Half) return stored(r) * S::splat(half_slot_scale(r));
      else return stored(r);
    };
    const V a0 = get(0), v1 = get(1);
    const M k1 = a0 > S::splat(T(4)), k2 = a0 < S::splat(T(-4));
    const V phi0 = a0 - (k1 ? S::splat(T(8)) : (k2 ? S::splat(T(-8)) : V{}));
    V s0, c0;
    sincos(phi0, s0, c0);
    const C dir{c0, s0};
    const C x23{get(2), get(3)}, x45{get(4), get(5)}, x67{get(6), get(7)};
    const M degen = (x67.re > S::splat(T(0.75))) & (x67.im > S::splat(T(0.75)));
    const M b = (v1 > V{}) & ~degen;
    const V phi1 = v1 - (b ? S::splat(T(4)) : S::splat(T(-4)));
    V s1, c1;
    sincos(phi1, s1, c1);
    // General rebuild (meaningless on degenerate lanes, which take the other below).
    const C w01 = x23, w02 = x45, w10 = x67;
    const V n = w01.re * w01.re + w01.im * w01.im + w02.re * w02.re + w02.im * w02.im;
    const V m00 = S::splat(T(1)) - n, m20 = n - (w10.re * w10.re + w10.im * w10.im);
    const C w00 = scaled(dir, m00 > V{} ? S::sqrt(m00) : V{});
    const C w20 = scaled(C{c1, s1}, m20 > V{} ? S::sqrt(m20) : V{});
    const V inv_n = n > V{} ? S::splat(T(1)) / n : V{};
    const C c00 = conj(w00), c01 = conj(w01), c02 = conj(w02), c10 = conj(w10), c20 = conj(w20);
    C w[3][3];
    w[0][0] = w00;
    w[0][1] = w01;
    w[0][2] = w02;
    w[1][0] = w10;
    w[2][0] = w20;
    w[1][1] = scaled(neg(S::add(S::mul(c20, c02), S::mul(S::mul(c00, w10), w01))), inv_n);
    w[1][2] = scaled(S::sub(S::mul(c20, c01), S::mul(S::mul(c00, w10), w02)), inv_n);
    w[2][1] = scaled(S::sub(S::mul(c10, c02), S::mul(S::mul(c00, w20), w01)), inv_n);
    w[2][2] = scaled(neg(S::add(S::mul(c10, c01), S::mul(S::mul(c00, w20), w02))), inv_n);
    // Degenerate: W00 = dir, the 2x2 block from slots 2-5, d = conj(W00) its determinant.
    const C d = conj(dir), zero{V{}, V{}};
    w[0][0] = pick(degen, dir, w[0][0]);
    w[0][1] = pick(degen, zero, w[0][1]);
    w[0][2] = pick(degen, zero, w[0][2]);
    w[1][0] = pick(degen, zero, w[1][0]);
    w[2][0] = pick(degen, zero, w[2][0]);
    w[1][1] = pick(degen, x23, w[1][1]);
    w[1][2] = pick(degen, x45, w[1][2]);
    w[2][1] = pick(degen, neg(S::mul(d, conj(x45))), w[2][1]);
    w[2][2] = pick(degen, S::mul(d, conj(x23)), w[2][2]);
    // Undo the pivots: rows 1, 2 swapped and every row negated when b; then U_i,(j+k)%3 = W_ij.
    for (int j = 0; j < 3; ++j) {
      const C r1 = pick(b, w[2][j], w[1][j]), r2 = pick(b, w[1][j], w[2][j]);
      w[0][j] = pick(b, neg(w[0][j]), w[0][j]);
      w[1][j] = pick(b, neg(r1), r1);
      w[2][j] = pick(b, neg(r2), r2);
    }
    for (int i = 0; i < 3; ++i) {
      u[i][0] = pick(k1, w[i][2], pick(k2, w[i][1], w[i][0]));
      u[i][1] = pick(k1, w[i][0], pick(k2, w[i][2], w[i][1]));
      u[i][2] = pick(k1, w[i][1], pick(k2, w[i][0], w[i][2]));
    }
  }
};

}  // namespace
}  // namespace gluon::qcd::detail

#endif  // GLUON_CPU_SIMD
