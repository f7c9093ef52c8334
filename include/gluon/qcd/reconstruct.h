#pragma once
// Gauge compression: packing an SU(3) matrix into 18, 12 or 8 reals and rebuilding it.
//
//   Recon<r18>  all 9 complex entries, row-major, (re, im) interleaved
//   Recon<r12>  rows 0 and 1; row 2 = conj(row0 x row1)
//   Recon<r8>   8 reals (QUDA-style): arg U00, arg U20, U01, U02, U10 of a pivoted copy of the
//               link; the rest from unitarity; an exact encoding for degenerate links (below)
//   half_scale<R>(r)  the scale of slot r in half storage (1, or the r8 angle slots' range)
//
// pack/unpack are exact to rounding for SU(3) matrices; r12/r8 are meaningless for others.
#include <type_traits>

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

// Reconstruct-8. Slots v[0..7]:
//   v[0] = arg(W00) + 8 o(k)      v[1] = arg(W20) + 8 b - 4
//   v[2], v[3] = W01              v[4], v[5] = W02              v[6], v[7] = W10
// where W = S_b U C_k is U pivoted so that the rebuild is well conditioned: C_k cyclically shifts
// the columns (W_ij = U_i,(j+k)%3) with k the column of the largest |U_0j| (so |W00|^2 >= 1/3),
// and S_b (b = 1) maps rows (0, 1, 2) -> (-row0, -row2, -row1), chosen so |W20| >= |W10|. Both are
// SU(3) (det C_k = det S_b = 1); o(0, 1, 2) = (0, 1, -1), so the unit link has v0 = 0 exactly.
// The angles sit in [-pi, pi], so k and b read back exactly (v0 against +-4, sign of v1)
// whatever the storage precision.
// Rebuild, with n = |W01|^2 + |W02|^2 summed directly from the stored entries (no cancellation):
//   |W00| = sqrt(1 - n),  |W20| = sqrt(n - |W10|^2), then from conj(W_ij) = cofactor C_ij and
//   orthogonality: W11 = -(W20* W02* + W00* W10 W01) / n,  W12 = (W20* W01* - W00* W10 W02) / n,
//                  W21 = (W10* W02* - W00* W20 W01) / n,   W22 = -(W10* W01* + W00* W20 W02) / n.
// Degenerate links (n < threshold, e.g. the unit link; row 0 is then a pure phase W00 = e^{i phi}
// and column 0 vanishes too) cannot be rebuilt that way. They are stored as
//   v[0] as above, v[1] = 0, v[2..5] = W11, W12, v[6] = v[7] = 1 (flag),
// and the 2x2 block [[W11, W12], [W21, W22]] (unitary, det = conj(W00)) gives
//   W21 = -conj(W00 W12),  W22 = conj(W00) conj(W11).
// The flag (W10 = 1 + i, |W10|^2 = 2) is impossible for a real link and survives any precision.
// The threshold drops entries of size sqrt(n): r8_threshold<T>() = eps(T)^2 (1e-32 double,
// 1e-15 float) keeps both paths exact to rounding; half storage (entries quantised to 1/32767)
// uses kR8HalfThreshold = 1/32767, where both paths err by ~sqrt(1/32767) ~ 5e-3 at worst (only
// links with row 0 within ~1e-2 of a pure phase; Haar-random links are within ~1e-4).
// Half storage scales slots 0 and 1 by kR8HalfSlot0Scale / kR8HalfSlot1Scale (half_scale()).
// In single precision on the GPU the rebuild uses the hardware's sin/cos, reciprocal square root
// and reciprocal (r8_sincos, r8_sqrt, r8_recip): libdevice's sinf/cosf carry a slow
// range-reduction path for large arguments (a stack frame and branches in every dslash thread)
// that angles in [-pi, pi] never take; sin/cos.approx err by at most 2^-21.4 there, below the
// tolerance of a float link.
inline constexpr float kR8AngleStep = 8.0f;
inline constexpr float kR8HalfThreshold = 1.0f / 32767.0f;
inline constexpr float kR8HalfSlot0Scale = 8.0f + 3.14159274f;  // |v0| <= 8 + pi
inline constexpr float kR8HalfSlot1Scale = 4.0f + 3.14159274f;  // |v1| <= 4 + pi

// The PTX is written out with .ftz: without -ftz (the build keeps IEEE denormals elsewhere)
// ptxas wraps each MUFU op in a denormal rescale (compares and predicated multiplies) and
// expands rcp.rn into a refined reciprocal with a called slow path (SASS of the Wilson single r8
// body: 49 FSETP, 48 FMUL and 12 CALL fewer; bench/results/2026-11-25-r8-ftz-h200). A flushed input is
// harmless here: an angle that small has sin = angle = 0 to float precision, and the square
// root and reciprocal are taken only of values above r8_floor<float>() = 1e-30 (the callers
// select 0 below; double keeps 0).
template <class T> GLUON_HD_INLINE constexpr T r8_floor() { return T(0); }
template <> GLUON_HD_INLINE constexpr float r8_floor<float>() { return 1e-30f; }
template <class T> GLUON_HD_INLINE void r8_sincos(T phi, T& s, T& c) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, float>) {
    asm("sin.approx.ftz.f32 %0, %1;" : "=f"(s) : "f"(phi));
    asm("cos.approx.ftz.f32 %0, %1;" : "=f"(c) : "f"(phi));
    return;
  }
#endif
  s = std::sin(phi);
  c = std::cos(phi);
}
// sqrt(m) for m > r8_floor<T>() (the callers select 0 otherwise). Single precision on the GPU:
// m * rsqrt(m) (two instructions, within 2 ulp) instead of the IEEE-rounded square root's
// refinement.
template <class T> GLUON_HD_INLINE T r8_sqrt(T m) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, float>) {
    float r;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(m));
    return m * r;
  }
#endif
  return std::sqrt(m);
}
// 1 / n for n > r8_floor<T>(); single precision on the GPU: the hardware reciprocal (1 ulp).
template <class T> GLUON_HD_INLINE T r8_recip(T n) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, float>) {
    float r;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(n));
    return r;
  }
#endif
  return T(1) / n;
}

template <class T> GLUON_HD_INLINE constexpr T r8_threshold() { return T(1e-32); }
template <> GLUON_HD_INLINE constexpr float r8_threshold<float>() { return 1e-15f; }

// An r8 link as a stencil applies it to colour vectors: U = sign S W C, kept factored. W is the
// rebuilt pivoted matrix, C the cyclic column shift by k, S the swap of rows 1 and 2 and sign
// -1 when b (see Recon<r8>). U h permutes h and the product's rows (a few selects on 2 x 3
// complex numbers) instead of permuting the 9 entries of U before every product.
template <class T>
struct PivotedLink {
  Matrix3<T> w;
  int k;
  bool b;
};
namespace detail {
// (x0, x1, x2) -> (x1, x2, x0) when on (left) / (x2, x0, x1) (right). Selects among values in
// registers: a pick such as `k == 0 ? r[0] : (k == 1 ? r[2] : r[1])` over an array is turned by
// nvcc into a load from a run-time address, which puts the array in local memory (a 48-byte
// stack frame in every single-precision dslash thread that read r8 links).
template <class T> GLUON_HD_INLINE void rotate3(Complex<T>& x0, Complex<T>& x1, Complex<T>& x2, bool on, bool left) {
  const Complex<T> a = x0, b = x1, c = x2;
  x0 = on ? (left ? b : c) : a;
  x1 = on ? (left ? c : a) : b;
  x2 = on ? (left ? a : b) : c;
}
template <class T> GLUON_HD_INLINE void rotate3(ColorVector<T>& v, bool on, bool left) {
  rotate3(v.c[0], v.c[1], v.c[2], on, left);
}
}  // namespace detail
// A PivotedLink without its overall sign (-1 when b): a stencil applies that with its hop's
// scalar factor (with_link_sign) instead of to the 6 reals of every product
// (GaugeAccessor::load_link_unscaled).
template <class T>
struct SignlessPivotedLink {
  PivotedLink<T> p;
};
// U h / sign = S W g with g_m = h_(m+k)%3.
template <class T>
GLUON_HD_INLINE ColorVector<T> operator*(const SignlessPivotedLink<T>& u, const ColorVector<T>& h) {
  ColorVector<T> g = h;
  detail::rotate3(g, u.p.k != 0, true);
  detail::rotate3(g, u.p.k == 2, true);
  const ColorVector<T> r = u.p.w * g;
  ColorVector<T> out;
  out.c[0] = r.c[0];
  out.c[1] = u.p.b ? r.c[2] : r.c[1];
  out.c[2] = u.p.b ? r.c[1] : r.c[2];
  return out;
}
// U^+ h / sign = C^T W^+ (S h): the product's components shifted back by k.
template <class T>
GLUON_HD_INLINE ColorVector<T> adj_mul(const SignlessPivotedLink<T>& u, const ColorVector<T>& h) {
  ColorVector<T> g;
  g.c[0] = h.c[0];
  g.c[1] = u.p.b ? h.c[2] : h.c[1];
  g.c[2] = u.p.b ? h.c[1] : h.c[2];
  ColorVector<T> q = adj_mul(u.p.w, g);
  detail::rotate3(q, u.p.k != 0, false);
  detail::rotate3(q, u.p.k == 2, false);
  return q;
}
template <class T>
GLUON_HD_INLINE ColorVector<T> signed_product(const ColorVector<T>& v, bool negative) {
  ColorVector<T> out;
  for (int c = 0; c < 3; ++c) out.c[c] = negative ? -v.c[c] : v.c[c];
  return out;
}
template <class T>
GLUON_HD_INLINE ColorVector<T> operator*(const PivotedLink<T>& u, const ColorVector<T>& h) {
  return signed_product(SignlessPivotedLink<T>{u} * h, u.b);
}
template <class T>
GLUON_HD_INLINE ColorVector<T> adj_mul(const PivotedLink<T>& u, const ColorVector<T>& h) {
  return signed_product(adj_mul(SignlessPivotedLink<T>{u}, h), u.b);
}
// A signless pivoted link applied as U (adj false) or U^+ (adj true), adj a run-time value:
// what adjoint_if makes of one, for the Wilson dslash's two threads a site, where the threads
// of one warp transport forward and backward hops in one instruction stream. W is transposed by
// selects (adjoint_if on the matrix) and the pivots' permutations go before or after the
// product by selects too, as in U h = S W C h and U^+ h = C^T W^+ S h.
template <class T>
struct DirectedPivotedLink {
  PivotedLink<T> p;  // p.w already adjoint_if(W, adj)
  bool adj;
};
template <class T>
GLUON_HD_INLINE DirectedPivotedLink<T> adjoint_if(const SignlessPivotedLink<T>& u, bool adj) {
  return {PivotedLink<T>{adjoint_if(u.p.w, adj), u.p.k, u.p.b}, adj};
}
template <class T>
GLUON_HD_INLINE ColorVector<T> operator*(const DirectedPivotedLink<T>& u, const ColorVector<T>& h) {
  const bool swap_in = u.adj && u.p.b, swap_out = !u.adj && u.p.b;
  ColorVector<T> g;
  g.c[0] = h.c[0];
  g.c[1] = swap_in ? h.c[2] : h.c[1];
  g.c[2] = swap_in ? h.c[1] : h.c[2];
  detail::rotate3(g, !u.adj && u.p.k != 0, true);
  detail::rotate3(g, !u.adj && u.p.k == 2, true);
  ColorVector<T> q = u.p.w * g;
  detail::rotate3(q, u.adj && u.p.k != 0, false);
  detail::rotate3(q, u.adj && u.p.k == 2, false);
  ColorVector<T> out;
  out.c[0] = q.c[0];
  out.c[1] = swap_out ? q.c[2] : q.c[1];
  out.c[2] = swap_out ? q.c[1] : q.c[2];
  return out;
}
// f times the sign a link form leaves to the stencil: -f for a signless pivoted link with b,
// f for every other form.
template <class L, class T>
GLUON_HD_INLINE T with_link_sign(const L&, T f) {
  return f;
}
template <class T>
GLUON_HD_INLINE T with_link_sign(const SignlessPivotedLink<T>& u, T f) {
  return u.p.b ? -f : f;
}
template <class T>
GLUON_HD_INLINE T with_link_sign(const DirectedPivotedLink<T>& u, T f) {
  return u.p.b ? -f : f;
}

// An r8 link in the form its products are cheapest in, for the stencils (load_link_unscaled): W
// of Recon<r8> with its pivots k and b and without its sign (with_link_sign, as for
// SignlessPivotedLink), W's rows 1 and 2 never formed. Every row of W below row 0 is a combination
// of p = (W01, W02) and q = (-conj W02, conj W01) (cofactors and orthogonality, Recon<r8>), so for
// a colour vector h, with s = p1 h1 + p2 h2 and t = q1 h1 + q2 h2,
//   (W h)_0 = a0 h0 + e s,   (W h)_1 = a1 h0 + g1 t + f1 s,   (W h)_2 = a2 h0 + g2 t + f2 s,
// and with u = e h0 + conj(f1) h1 + conj(f2) h2 and v = conj(g1) h1 + conj(g2) h2,
//   (W^+ h)_0 = conj(a0) h0 + conj(a1) h1 + conj(a2) h2,
//   (W^+ h)_1 = conj(p1) u - p2 v,   (W^+ h)_2 = conj(p2) u + p1 v.
// Regular links: a = column 0 of W, e = 1, g1 = conj(W20) / n, g2 = -conj(W10) / n,
// f1 = -conj(W00) W10 / n, f2 = -conj(W00) W20 / n. Degenerate ones (the 2x2 block B):
// a = (W00, 0, 0), p = (B11, B12), e = 0, g1 = 0, f1 = 1, g2 = conj(W00), f2 = 0.
// A product costs 11 to 12 complex multiply-adds against the matrix's 9, but the 4 cofactors
// (8 complex products a link) are never formed, and s and t, half of each product, need only
// the stored p and h: they run while the square roots, sines and reciprocal of the rebuild are
// still in flight (the single r8 dslash is latency-bound, docs/bench.md).
template <class T>
struct FactoredLink {
  Complex<T> a0, a1, a2, p1, p2, g1, g2, f1, f2;
  T e;
  int k;
  bool b;
  // W itself (its rows 1 and 2 formed), as a PivotedLink.
  GLUON_HD_INLINE PivotedLink<T> pivoted() const {
    const Complex<T> q1 = -conj(p2), q2 = conj(p1);
    Matrix3<T> w;
    w.e[0][0] = a0;
    w.e[0][1] = e * p1;
    w.e[0][2] = e * p2;
    w.e[1][0] = a1;
    w.e[2][0] = a2;
    w.e[1][1] = g1 * q1 + f1 * p1;
    w.e[1][2] = g1 * q2 + f1 * p2;
    w.e[2][1] = g2 * q1 + f2 * p1;
    w.e[2][2] = g2 * q2 + f2 * p2;
    return {w, k, b};
  }
};
// U h / sign = S W g with g_m = h_(m+k)%3.
template <class T>
GLUON_HD_INLINE ColorVector<T> operator*(const FactoredLink<T>& u, const ColorVector<T>& h) {
  ColorVector<T> g = h;
  detail::rotate3(g, u.k != 0, true);
  detail::rotate3(g, u.k == 2, true);
  const Complex<T> s = u.p1 * g.c[1] + u.p2 * g.c[2];
  const Complex<T> t = conj_mul(u.p1, g.c[2]) - conj_mul(u.p2, g.c[1]);
  ColorVector<T> out;
  out.c[0] = u.a0 * g.c[0] + u.e * s;
  const Complex<T> r1 = u.a1 * g.c[0] + u.g1 * t + u.f1 * s;
  const Complex<T> r2 = u.a2 * g.c[0] + u.g2 * t + u.f2 * s;
  out.c[1] = u.b ? r2 : r1;
  out.c[2] = u.b ? r1 : r2;
  return out;
}
// U^+ h / sign = C^T W^+ (S h): the product's components shifted back by k.
template <class T>
GLUON_HD_INLINE ColorVector<T> adj_mul(const FactoredLink<T>& u, const ColorVector<T>& h) {
  const Complex<T> g0 = h.c[0], g1 = u.b ? h.c[2] : h.c[1], g2 = u.b ? h.c[1] : h.c[2];
  const Complex<T> uu = u.e * g0 + conj_mul(u.f1, g1) + conj_mul(u.f2, g2);
  const Complex<T> vv = conj_mul(u.g1, g1) + conj_mul(u.g2, g2);
  ColorVector<T> q;
  q.c[0] = conj_mul(u.a0, g0) + conj_mul(u.a1, g1) + conj_mul(u.a2, g2);
  q.c[1] = conj_mul(u.p1, uu) - u.p2 * vv;
  q.c[2] = conj_mul(u.p2, uu) + u.p1 * vv;
  detail::rotate3(q, u.k != 0, false);
  detail::rotate3(q, u.k == 2, false);
  return q;
}
// The two-thread Wilson kernel's transport: W formed, then directed by selects.
template <class T>
GLUON_HD_INLINE DirectedPivotedLink<T> adjoint_if(const FactoredLink<T>& u, bool adj) {
  return adjoint_if(SignlessPivotedLink<T>{u.pivoted()}, adj);
}
template <class T>
GLUON_HD_INLINE T with_link_sign(const FactoredLink<T>& u, T f) {
  return u.b ? -f : f;
}

template <> struct Recon<Reconstruct::r8> {
  // Scale of slot r in half storage (value = int16 / 32767 * scale).
  GLUON_HD_INLINE static constexpr float half_scale(int r) {
    return r == 0 ? kR8HalfSlot0Scale : (r == 1 ? kR8HalfSlot1Scale : 1.0f);
  }

  template <class T> GLUON_HD_INLINE static void pack(const Matrix3<T>& m, T* v) {
    pack(m, v, r8_threshold<T>());
  }

  template <class T> GLUON_HD_INLINE static void pack(const Matrix3<T>& m, T* v, T threshold) {
    // Pivot column: the largest |U_0j|.
    int k = 0;
    T best = norm2(m.e[0][0]);
    for (int j = 1; j < 3; ++j) {
      const T a = norm2(m.e[0][j]);
      if (a > best) {
        best = a;
        k = j;
      }
    }
    const int k1 = k == 2 ? 0 : k + 1, k2 = k == 0 ? 2 : k - 1;  // (k+1)%3, (k+2)%3
    const Complex<T> w00 = m.e[0][k], w01 = m.e[0][k1], w02 = m.e[0][k2];
    const T n = norm2(w01) + norm2(w02);
    if (n < threshold) {
      v[0] = arg(w00) + kR8AngleStep * T(offset(k));
      // Degenerate: row 0 and column 0 are a phase times e_0; keep the 2x2 block's first row.
      // The block's rows follow the same column shift; rows are not swapped (b = 0).
      const Complex<T> w11 = m.e[1][k1], w12 = m.e[1][k2];
      v[1] = T(0);
      v[2] = w11.re;
      v[3] = w11.im;
      v[4] = w12.re;
      v[5] = w12.im;
      v[6] = T(1);
      v[7] = T(1);
      return;
    }
    // Row order: b = 1 swaps rows 1, 2 (and negates all rows) so that |W20| >= |W10|.
    const bool b = norm2(m.e[1][k]) > norm2(m.e[2][k]);
    const T sign = b ? T(-1) : T(1);
    v[0] = arg(sign * w00) + kR8AngleStep * T(offset(k));
    const Complex<T> w10 = sign * m.e[b ? 2 : 1][k], w20 = sign * m.e[b ? 1 : 2][k];
    v[1] = arg(w20) + (b ? kR8AngleStep - T(4) : T(-4));
    v[2] = sign * w01.re;
    v[3] = sign * w01.im;
    v[4] = sign * w02.re;
    v[5] = sign * w02.im;
    v[6] = w10.re;
    v[7] = w10.im;
  }

  template <class T> GLUON_HD_INLINE static Matrix3<T> unpack(const T* v) {
    const PivotedLink<T> p = unpack_pivoted(v);
    return unpivot(p.w, p.k, p.b);
  }

  // The rebuilt W with its pivots, not yet undone (PivotedLink: what a stencil multiplies by).
  template <class T> GLUON_HD_INLINE static PivotedLink<T> unpack_pivoted(const T* v) {
    return unpack_factored(v).pivoted();
  }

  // W with its pivots in the factored form (FactoredLink), the sign b not applied.
  template <class T> GLUON_HD_INLINE static FactoredLink<T> unpack_factored(const T* v) {
    // Column shift k from slot 0 (angles lie in [-pi, pi], steps of 8 separate the cases).
    const T a0 = v[0];
    const int k = a0 > T(4) ? 1 : (a0 < T(-4) ? 2 : 0);
    const T phi0 = a0 - kR8AngleStep * T(offset(k));
    T s0, c0;
    r8_sincos(phi0, s0, c0);
    const Complex<T> w00dir(c0, s0);
    const Complex<T> zero(T(0), T(0));
    FactoredLink<T> f;
    f.k = k;
    if (v[6] > T(0.75) && v[7] > T(0.75)) {
      // Degenerate encoding: the 2x2 block's first row in p, its second row conj(W00) q.
      f.a0 = w00dir;
      f.a1 = f.a2 = zero;
      f.p1 = Complex<T>(v[2], v[3]);
      f.p2 = Complex<T>(v[4], v[5]);
      f.e = T(0);
      f.g1 = zero;
      f.f1 = Complex<T>(T(1), T(0));
      f.g2 = conj(w00dir);
      f.f2 = zero;
      f.b = false;
      return f;
    }
    f.b = v[1] > T(0);
    const T phi1 = v[1] - (f.b ? kR8AngleStep - T(4) : T(-4));
    const Complex<T> w01(v[2], v[3]), w02(v[4], v[5]), w10(v[6], v[7]);
    const T n = norm2(w01) + norm2(w02);
    const T m00 = T(1) - n, m20 = n - norm2(w10);
    const Complex<T> w00 = (m00 > r8_floor<T>() ? r8_sqrt(m00) : T(0)) * w00dir;
    T s1, c1;
    r8_sincos(phi1, s1, c1);
    const Complex<T> w20 = (m20 > r8_floor<T>() ? r8_sqrt(m20) : T(0)) * Complex<T>(c1, s1);
    const T inv_n = n > r8_floor<T>() ? r8_recip(n) : T(0);
    // The cofactors: W11 = -(conj(W20) conj(W02) + conj(W00) W10 W01) / n and so on
    // (Recon<r8>), grouped by p and q.
    const Complex<T> c00n = conj(w00) * inv_n;
    f.a0 = w00;
    f.a1 = w10;
    f.a2 = w20;
    f.p1 = w01;
    f.p2 = w02;
    f.e = T(1);
    f.g1 = conj(w20) * inv_n;
    f.g2 = -(conj(w10) * inv_n);
    f.f1 = -(c00n * w10);
    f.f2 = -(c00n * w20);
    return f;
  }

 private:
  GLUON_HD_INLINE static constexpr int offset(int k) { return k == 0 ? 0 : (k == 1 ? 1 : -1); }
  // U = S_b^{-1} W C_k^{-1}: U_i,(j+k)%3 = W_ij, rows swapped and negated back when b; k and b
  // only pick among values in registers (detail::rotate3).
  template <class T> GLUON_HD_INLINE static Matrix3<T> unpivot(const Matrix3<T>& w, int k, bool b) {
    Matrix3<T> u;
    const T sign = b ? T(-1) : T(1);
    for (int j = 0; j < 3; ++j) {
      u.e[0][j] = sign * w.e[0][j];
      u.e[1][j] = sign * (b ? w.e[2][j] : w.e[1][j]);
      u.e[2][j] = sign * (b ? w.e[1][j] : w.e[2][j]);
    }
    // (x0, x1, x2) -> (x2, x0, x1) once for k = 1, twice for k = 2.
    for (int i = 0; i < 3; ++i) {
      detail::rotate3(u.e[i][0], u.e[i][1], u.e[i][2], k != 0, false);
      detail::rotate3(u.e[i][0], u.e[i][1], u.e[i][2], k == 2, false);
    }
    return u;
  }
};

// Scale of slot r of a compressed link in half storage (1 except the r8 angle slots).
template <Reconstruct R> GLUON_HD_INLINE constexpr float half_scale(int r) {
  if constexpr (R == Reconstruct::r8) return Recon<Reconstruct::r8>::half_scale(r);
  else return (void)r, 1.0f;
}

}  // namespace gluon::qcd
