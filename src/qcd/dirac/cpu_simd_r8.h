#pragma once
// Private: an r8 link (reconstruct.h's Recon<r8>) rebuilt on the W lanes of a tile, for the CPU
// vector kernels (included only by the *_avx512.cpp and *_avx2.cpp kernels through their impl headers, so
// everything here has internal linkage and includes no library header). Half storage
// (unpack<true>): the stored integers times half_slot_scale(r) are the slots' values, and the
// rebuilt link is the link itself (not 32767 times it, as the kernels use r18 and r12 half links).
//
// The same rebuild as Recon<r8>::unpack: the column pivot k from slot 0 (against +-4), the phase
// angles through sincos, |W00| and |W20| from unitarity, the other four entries from the
// cofactors, the degenerate encoding (slots 6 and 7 both 1) where n is too small to divide by,
// and the pivots undone (rows 1 and 2 swapped and negated when b, before the cofactors; columns
// rotated by k). Every per-site choice is a lane select, so the W sites of a tile may pivot
// differently.
//
// sincos: the angles lie in [-pi, pi] (slot 0 less its 8 k offset, slot 1 less +-4). Double: reduced
// by the nearest multiple q of pi/2 (pi/2 in two parts, so x - q pi/2 is exact to rounding for
// |q| <= 2) to |r| <= pi/4, where the Taylor series to r^15 is within rounding (the first dropped
// term is below 5e-17 relative), and the quadrant q swaps and negates the two. Single: the series
// of the half angle and the double-angle formulas, with no quadrant (sincos below). Single also
// takes its square roots and reciprocal from the hardware estimates and one Newton step (root,
// recip). In one process against the reduced-angle sincos and IEEE sqrt/div, that made the single
// and half r8 hops 1.014-1.085x as fast on the Xeon host of the GPU machine and 1.05-1.07x on a
// Zen 4 core (bench/results/2026-11-27-cpu-r8-estimates/); the Wilson single r8 hop's error stays
// within 2.5 times r12's (WilsonSimd.SingleR8HopIsAsAccurateAsR12).
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
#if defined(__AVX512F__)
  static constexpr unsigned kNativeBytes = 64;  // one register
#else
  static constexpr unsigned kNativeBytes = 32;
#endif

  // sin x and cos x on every lane, |x| <= pi + a few rounding steps.
  static GLUON_SIMD_INLINE void sincos(V x, V& s, V& c) {
    if constexpr (!kDouble) {
      // Single precision: through the half angle y = x/2, |y| <= pi/2, with no quadrant: sin y
      // and cos y by their Taylor series to y^11 and y^12 (the first dropped terms are below 6e-8
      // and 7e-9 there, and sin y's error enters sin x times cos y), then sin x = 2 sin y cos y
      // and cos x = 2 cos^2 y - 1 (absolute errors of a few 1e-8). About 17 operations where the
      // reduction to |r| <= pi/4 (sincos_reduced, double's) took about 26 in single (counted in
      // the source): its quadrant's masks and selects cost more than the longer series.
      const V y2 = (x * T(0.25)) * x;
      V sp = S::splat(T(-1.0 / 39916800.0));                    // -1/11!
      sp = sp * y2 + T(1.0 / 362880.0);                         // 1/9!
      sp = sp * y2 + T(-1.0 / 5040.0);                          // -1/7!
      sp = sp * y2 + T(1.0 / 120.0);                            // 1/5!
      sp = sp * y2 + T(-1.0 / 6.0);                             // -1/3!
      const V sin2y = x + (x * y2) * sp;                        // 2 sin y (2y = x)
      V cy = S::splat(T(1.0 / 479001600.0));                    // 1/12!
      cy = cy * y2 + T(-1.0 / 3628800.0);                       // -1/10!
      cy = cy * y2 + T(1.0 / 40320.0);                          // 1/8!
      cy = cy * y2 + T(-1.0 / 720.0);                           // -1/6!
      cy = cy * y2 + T(1.0 / 24.0);                             // 1/4!
      cy = cy * y2 + T(-0.5);
      cy = cy * y2 + T(1);                                      // cos y
      s = sin2y * cy;
      c = (cy + cy) * cy - T(1);
    } else {
      sincos_reduced(x, s, c);
    }
  }
  // Double: sin x and cos x from r = x - q pi/2, |r| <= pi/4 (the file's comment).
  static GLUON_SIMD_INLINE void sincos_reduced(V x, V& s, V& c) {
    static_assert(kDouble, "single precision takes the half angle (sincos)");
    const T two_over_pi = T(0.636619772367581343075535053490057448);
    // pi/2 = hi + lo, hi with trailing zero bits to spare: q hi is exact for |q| <= 2.
    const T pio2_hi = T(1.57079632679489655800e+00);
    const T pio2_lo = T(6.12323399573676603587e-17);
    // q = t rounded to the nearest integer by adding and subtracting 1.5 2^(mantissa bits): t +
    // magic is exact to the integer, whose low bits are those of its pattern's mantissa (the
    // magic's own are 0 there), so qm & 3 = q mod 4. Two adds where a compare, a select, an add
    // and two conversions did it. (Needs IEEE rounding: the build has no -ffast-math.)
    const T magic = T(6755399441055744.0);  // 1.5 2^52
    const V t = x * two_over_pi;
    const V tm = t + magic;
    const V q = tm - magic;
    M qm;
    __builtin_memcpy(&qm, &tm, sizeof qm);
    const V r = (x - q * pio2_hi) - q * pio2_lo;
    const V r2 = r * r;
    V sr = S::splat(T(-1.0 / 1307674368000.0));               // -1/15!
    sr = sr * r2 + T(1.0 / 6227020800.0);                     // 1/13!
    sr = sr * r2 + T(-1.0 / 39916800.0);                      // -1/11!
    sr = sr * r2 + T(1.0 / 362880.0);                         // 1/9!
    sr = sr * r2 + T(-1.0 / 5040.0);                          // -1/7!
    sr = sr * r2 + T(1.0 / 120.0);                            // 1/5!
    sr = sr * r2 + T(-1.0 / 6.0);                             // -1/3!
    sr = r + r * r2 * sr;
    V cr = S::splat(T(1.0 / 20922789888000.0));               // 1/16!
    cr = cr * r2 + T(-1.0 / 87178291200.0);                   // -1/14!
    cr = cr * r2 + T(1.0 / 479001600.0);                      // 1/12!
    cr = cr * r2 + T(-1.0 / 3628800.0);                       // -1/10!
    cr = cr * r2 + T(1.0 / 40320.0);                          // 1/8!
    cr = cr * r2 + T(-1.0 / 720.0);                           // -1/6!
    cr = cr * r2 + T(1.0 / 24.0);                             // 1/4!
    cr = cr * r2 + T(-0.5);
    cr = cr * r2 + T(1);
    // x = q pi/2 + r: sin x = sin r, cos r, -sin r, -cos r and cos x = cos r, -sin r, -cos r,
    // sin r for q = 0, 1, 2, 3 (mod 4).
    const M swap = (qm & 1) != 0;
    const M sin_neg = (qm & 2) != 0;
    const M cos_neg = ((qm + 1) & 2) != 0;
    const V s0 = swap ? cr : sr, c0 = swap ? sr : cr;
    s = sin_neg ? -s0 : s0;
    c = cos_neg ? -c0 : c0;
  }

  // sqrt(m) and 1/n where positive (the callers select 0 elsewhere). Double: IEEE (leaving them
  // out bought nothing measurable on a Zen 4 VM). Single: the hardware estimate after one Newton step,
  // y (3 - m y^2) / 2 for 1/sqrt(m) and e (2 - n e) for 1/n, the estimate's relative error
  // squared (AVX-512's 2^-14: rounding; AVX2's 1.5 2^-12: 2e-7 and 1.4e-7).
  static GLUON_SIMD_INLINE V root(V m) {
    if constexpr (kDouble) {
      return S::sqrt(m);
    } else {
      const V y = S::rsqrt_estimate(m);
      const V my = m * y;
      return my * (T(1.5) - (my * y) * T(0.5));
    }
  }
  static GLUON_SIMD_INLINE V recip(V n) {
    if constexpr (kDouble) {
      return S::splat(T(1)) / n;
    } else {
      const V e = S::rcp_estimate(n);
      return e * (T(2) - n * e);
    }
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
  //
  // The row pivot is folded into the rebuild: U' = sign S_b W (rows 1 and 2 swapped and every row
  // negated when b) is SU(3) with the same n, so its first row and column, signed and with W10 and
  // W20 swapped (a few selects), give its other four entries through the same cofactor formulas.
  // Undoing the pivot on the rebuilt matrix took 48 instructions a link. The degenerate encoding
  // is picked only where a lane of the tile has it (the unit link; never in a thermalised field).
  template <bool Half, class Get>
  static GLUON_SIMD_INLINE void unpack(const Get& stored, C u[3][3]) {
    if constexpr (sizeof(V) > kNativeBytes) {
      // Vectors wider than the target's registers (8 doubles with AVX2): rebuilt as two halves.
      // GCC splits arithmetic on such vectors into register-sized pieces, but lowers lane
      // selects (m ? a : b) element by element, in scalar code: the staggered double r8 kernel
      // ran at 0.40 GFLOP/s at 16^4 on a 2-core Zen 3 (1.6 MB of code, 1200 vcomisd), 2.4 in
      // halves (bench/results/2026-11-26-cpu-stream-stores).
      // (16 floats with AVX2: a kernel's tile pairs, which run there only when asked for.)
      static_assert(L == 8 || L == 16, "halves of 8 or 16 lanes");
      using H = SimdR8<T, L / 2>;
      typename H::C lo[3][3], hi[3][3];
      if constexpr (L == 8) {
        H::template unpack<Half>([&](int r) { const V v = stored(r); return __builtin_shufflevector(v, v, 0, 1, 2, 3); }, lo);
        H::template unpack<Half>([&](int r) { const V v = stored(r); return __builtin_shufflevector(v, v, 4, 5, 6, 7); }, hi);
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j)
            u[i][j] = {__builtin_shufflevector(lo[i][j].re, hi[i][j].re, 0, 1, 2, 3, 4, 5, 6, 7),
                       __builtin_shufflevector(lo[i][j].im, hi[i][j].im, 0, 1, 2, 3, 4, 5, 6, 7)};
      } else {
        H::template unpack<Half>([&](int r) { return S::low(stored(r)); }, lo);
        H::template unpack<Half>([&](int r) { return S::high(stored(r)); }, hi);
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) u[i][j] = {S::join(lo[i][j].re, hi[i][j].re), S::join(lo[i][j].im, hi[i][j].im)};
      }
      return;
    }
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
    // General rebuild (meaningless on degenerate lanes, which take the other below), of U'.
    const V sign = b ? S::splat(T(-1)) : S::splat(T(1));
    const V n = x23.re * x23.re + x23.im * x23.im + x45.re * x45.re + x45.im * x45.im;
    const V m00 = S::splat(T(1)) - n, m20 = n - (x67.re * x67.re + x67.im * x67.im);
    const V r00 = m00 > V{} ? root(m00) : V{}, r20 = m20 > V{} ? root(m20) : V{};
    const C w00 = scaled(dir, r00 * sign), w20 = scaled(C{c1, s1}, r20 * sign);
    const C w01 = scaled(x23, sign), w02 = scaled(x45, sign), w10 = scaled(x67, sign);
    const C p10 = pick(b, w20, w10), p20 = pick(b, w10, w20);  // U'10, U'20
    const V inv_n = n > V{} ? recip(n) : V{};
    // 1/n rides on the three conjugates every cofactor has one of.
    const C c01 = conj(w01), c02 = conj(w02);
    const C c00n = scaled(conj(w00), inv_n), c10n = scaled(conj(p10), inv_n), c20n = scaled(conj(p20), inv_n);
    const C a10 = S::mul(c00n, p10), a20 = S::mul(c00n, p20);
    C w[3][3];
    w[0][0] = w00;
    w[0][1] = w01;
    w[0][2] = w02;
    w[1][0] = p10;
    w[2][0] = p20;
    w[1][1] = neg(S::mul_add(c20n, c02, S::mul(a10, w01)));
    w[1][2] = S::mul_sub(c20n, c01, a10, w02);
    w[2][1] = S::mul_sub(c10n, c02, a20, w01);
    w[2][2] = neg(S::mul_add(c10n, c01, S::mul(a20, w02)));
    if (S::any(degen)) {
      // Degenerate: W00 = dir, the 2x2 block from slots 2-5, d = conj(W00) its determinant
      // (b = 0 on these lanes: no row pivot).
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
    }
    // Undo the column pivot: U_i,(j+k)%3 = U'_ij.
    for (int i = 0; i < 3; ++i) {
      u[i][0] = pick(k1, w[i][2], pick(k2, w[i][1], w[i][0]));
      u[i][1] = pick(k1, w[i][0], pick(k2, w[i][2], w[i][1]));
      u[i][2] = pick(k1, w[i][1], pick(k2, w[i][0], w[i][2]));
    }
  }
};

// Two r8 links of the same W sites rebuilt together (a kernel's forward and backward link of one
// direction): with AVX-512 in single precision (and half, computed in single) the 2 x 8 lanes fill
// one 512-bit register, so each instruction of the rebuild serves both links, and the halves cost
// one extract a real. Elsewhere two links a vector would take two registers: rebuilt one by one.
template <class T, int L = kTileSites>
struct SimdR8Pair {
  using S = Simd<T, L>;
  using V = typename S::V;
  using C = typename S::C;
#if defined(__AVX512F__)
  static constexpr bool kTogether = sizeof(T) == 4 && L == 8;
#else
  static constexpr bool kTogether = false;
#endif

  template <bool Half, class GetA, class GetB>
  static GLUON_SIMD_INLINE void unpack(const GetA& a, const GetB& b, C ua[3][3], C ub[3][3]) {
    if constexpr (kTogether) {
      using S2 = Simd<T, 2 * L>;
      using V2 = typename S2::V;
      typename S2::C u[3][3];
      SimdR8<T, 2 * L>::template unpack<Half>(
          [&](int r) -> V2 { return __builtin_shufflevector(a(r), b(r), 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15); },
          u);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          const V2 re = u[i][j].re, im = u[i][j].im;
          ua[i][j] = {__builtin_shufflevector(re, re, 0, 1, 2, 3, 4, 5, 6, 7),
                      __builtin_shufflevector(im, im, 0, 1, 2, 3, 4, 5, 6, 7)};
          ub[i][j] = {__builtin_shufflevector(re, re, 8, 9, 10, 11, 12, 13, 14, 15),
                      __builtin_shufflevector(im, im, 8, 9, 10, 11, 12, 13, 14, 15)};
        }
    } else {
      SimdR8<T, L>::template unpack<Half>(a, ua);
      SimdR8<T, L>::template unpack<Half>(b, ub);
    }
  }
};

}  // namespace
}  // namespace gluon::qcd::detail

#endif  // GLUON_CPU_SIMD
