#pragma once
// Counter-based random numbers (DESIGN.md "Random numbers"): Philox-4x32-10 keyed by seed, global
// site and stream, so that a field drawn on any number of ranks, on the CPU or the GPU, is
// bit-identical. Everything here is GLUON_HD and header-only.
//
//   philox4x32_10(ctr, key)   the Random123 block function (Salmon, Moraes, Dror, Shaw, SC11):
//                             multipliers 0xD2511F53, 0xCD9E8D57, Weyl keys 0x9E3779B9,
//                             0xBB67AE85, 10 rounds. Checked against Random123's kat_vectors.
//   SiteRng                   the generator of one lattice site. Counter words:
//                             (global lexicographic site index: low 32, high 32 bits, stream,
//                             draw), key = the 64-bit seed (low word first). Each block gives
//                             4 uint32; `draw` counts blocks, so 2^32 blocks = 2^34 words per
//                             (seed, site, stream). The global site index makes the numbers
//                             independent of how the lattice is split; the stream separates uses
//                             (a noise vector, the hot start, a gauge transformation, ...).
//     next_u32()              the next 32-bit word
//     uniform()               double in the open interval (0, 1): (k + 1/2) 2^-52 with k a
//                             uniform 52-bit integer (never 0 or 1, so log(u) is finite)
//     gaussian()              standard normal N(0, 1) (Box-Muller, both outputs used in turn)
//     complex_gaussian()      z with Re, Im independent N(0, 1/2): E|z|^2 = 1 (the convention of
//                             pseudofermion heat baths, exp(-|z|^2))
//     z2()                    complex Z2 noise (+-1 +- i)/sqrt(2), the two signs independent:
//                             |z| = 1 exactly, E z = 0, E z^2 = 0, E |z|^2 = 1
//   haar_su3(rng)             a Haar-distributed SU(3) matrix: two rows of complex Gaussians,
//                             Gram-Schmidt (R with positive diagonal: Mezzadri's phase fix, so
//                             the rows are those of a Haar U(3) matrix), row 2 = conj(row0 x row1),
//                             which removes the determinant phase; the map U -> that matrix
//                             commutes with right multiplication by SU(3), so the result is
//                             exactly Haar on SU(3).
//   weak_su3(rng, eps)        exact_reunitarize(1 + eps X), X with complex_gaussian() entries:
//                             the QUDA paper's weak-field start.
//   exact::                   add/sub/mul/div/sqrt that are correctly rounded and never contracted
//                             into FMA (CUDA intrinsics __dadd_rn etc. in the device pass, plain
//                             operators on the host: g++ on x86-64 does not fuse without -mfma;
//                             build the host with -ffp-contract=off if you add -mfma), and log,
//                             sincos_2pi built only from them (accurate to ~1e-16, identical on
//                             host and device). Every floating-point step of the samplers above
//                             goes through these, which is what makes CPU and GPU fields equal
//                             bit for bit.
//   exact_reunitarize(m)      MILC's projection (as qcd::reunitarize) with exact:: operations.
//   GlobalSiteIndex           GLUON_HD: the global lexicographic index of a local even-odd site,
//                             from the SiteIndexer plus the block's origin (what a kernel keys
//                             its SiteRng with); global_site_index(geometry) builds it.
//
// Stream ids below 0x10000 are free for users; gluon's own draws use the kStream* constants.
#include <cstdint>
#include <cstring>

#include "gluon/qcd/complex.h"
#include "gluon/qcd/geometry.h"
#include "gluon/qcd/su3.h"
#include "gluon/runtime/hd.h"

namespace gluon::qcd {

inline constexpr std::uint32_t kStreamHotStart = 0x10001;
inline constexpr std::uint32_t kStreamWeakStart = 0x10002;
inline constexpr std::uint32_t kStreamGaugeTransform = 0x10003;

struct Philox4x32 {
  std::uint32_t v[4];
};

GLUON_HD_INLINE Philox4x32 philox4x32_10(Philox4x32 ctr, std::uint32_t k0, std::uint32_t k1) {
  constexpr std::uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;
  constexpr std::uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += kW0;
      k1 += kW1;
    }
    const std::uint64_t p0 = static_cast<std::uint64_t>(kM0) * ctr.v[0];
    const std::uint64_t p1 = static_cast<std::uint64_t>(kM1) * ctr.v[2];
    const std::uint32_t hi0 = static_cast<std::uint32_t>(p0 >> 32), lo0 = static_cast<std::uint32_t>(p0);
    const std::uint32_t hi1 = static_cast<std::uint32_t>(p1 >> 32), lo1 = static_cast<std::uint32_t>(p1);
    ctr = Philox4x32{{hi1 ^ ctr.v[1] ^ k0, lo1, hi0 ^ ctr.v[3] ^ k1, lo0}};
  }
  return ctr;
}

namespace exact {

GLUON_HD_INLINE double add(double a, double b) {
#if GLUON_DEVICE_PASS
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}
GLUON_HD_INLINE double sub(double a, double b) {
#if GLUON_DEVICE_PASS
  return __dsub_rn(a, b);
#else
  return a - b;
#endif
}
GLUON_HD_INLINE double mul(double a, double b) {
#if GLUON_DEVICE_PASS
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
GLUON_HD_INLINE double div(double a, double b) {
#if GLUON_DEVICE_PASS
  return __ddiv_rn(a, b);
#else
  return a / b;
#endif
}
GLUON_HD_INLINE double sqrt(double a) {
#if GLUON_DEVICE_PASS
  return __dsqrt_rn(a);
#else
  return std::sqrt(a);
#endif
}

// Bit casts (host: memcpy; device: the intrinsics).
GLUON_HD_INLINE std::uint64_t bits_of(double x) {
#if GLUON_DEVICE_PASS
  return static_cast<std::uint64_t>(__double_as_longlong(x));
#else
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
#endif
}
GLUON_HD_INLINE double double_of(std::uint64_t b) {
#if GLUON_DEVICE_PASS
  return __longlong_as_double(static_cast<long long>(b));
#else
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
#endif
}

// Natural logarithm of a positive, normal, finite x (what uniform() returns). x = m 2^e with
// m in [sqrt(1/2), sqrt(2)), log m = 2 atanh(s), s = (m-1)/(m+1), |s| < 0.172, by its series to
// s^25 (truncation < 1e-20); e ln 2 with ln 2 split in a 32-bit head (exact products) and a tail.
GLUON_HD_INLINE double log(double x) {
  const std::uint64_t b = bits_of(x);
  int e = static_cast<int>((b >> 52) & 0x7ff) - 1023;
  double m = double_of((b & 0x000fffffffffffffull) | 0x3ff0000000000000ull);  // [1, 2)
  if (m > 1.4142135623730951) {
    m = mul(m, 0.5);
    e += 1;
  }
  const double s = div(sub(m, 1.0), add(m, 1.0));
  const double s2 = mul(s, s);
  // 2 * (1 + s2/3 + s2^2/5 + ... + s2^12/25), Horner from the top
  double p = 1.0 / 25.0;
  p = add(mul(p, s2), 1.0 / 23.0);
  p = add(mul(p, s2), 1.0 / 21.0);
  p = add(mul(p, s2), 1.0 / 19.0);
  p = add(mul(p, s2), 1.0 / 17.0);
  p = add(mul(p, s2), 1.0 / 15.0);
  p = add(mul(p, s2), 1.0 / 13.0);
  p = add(mul(p, s2), 1.0 / 11.0);
  p = add(mul(p, s2), 1.0 / 9.0);
  p = add(mul(p, s2), 1.0 / 7.0);
  p = add(mul(p, s2), 1.0 / 5.0);
  p = add(mul(p, s2), 1.0 / 3.0);
  const double logm = mul(2.0, add(s, mul(mul(s, s2), p)));
  constexpr double kLn2Hi = 0.693147180369123816490;    // 0x3FE62E42FEE00000: few bits, exact e*hi
  constexpr double kLn2Lo = 1.90821492927058770002e-10;  // ln 2 - kLn2Hi
  const double de = static_cast<double>(e);
  return add(mul(de, kLn2Hi), add(mul(de, kLn2Lo), logm));
}

// cos(2 pi t) and sin(2 pi t) for t in [0, 1] a multiple of 2^-53 (uniform()'s values; any t
// with |t| <= 1 works to ~1e-16): t = k/4 + f with |f| <= 1/8 exactly, x = 2 pi f, Taylor series
// of sin x to x^19 and cos x to x^20 (|x| <= pi/4: truncation < 1e-19), then the quadrant k.
GLUON_HD_INLINE void sincos_2pi(double t, double& s, double& c) {
  const double q = mul(t, 4.0);
  double kq = static_cast<double>(static_cast<long long>(add(q, 0.5)));  // round half up (q >= 0)
  if (q < 0) kq = -static_cast<double>(static_cast<long long>(add(-q, 0.5)));
  const double f = sub(t, mul(kq, 0.25));  // exact
  constexpr double kTwoPi = 6.283185307179586476925;
  const double x = mul(f, kTwoPi);
  const double x2 = mul(x, x);
  // sin x = x (1 - x2/3! + x2^2/5! - ...), coefficients (-1)^n / (2n+1)!
  double ps = -1.0 / 121645100408832000.0;  // -1/19!
  ps = add(mul(ps, x2), 1.0 / 355687428096000.0);
  ps = add(mul(ps, x2), -1.0 / 1307674368000.0);
  ps = add(mul(ps, x2), 1.0 / 6227020800.0);
  ps = add(mul(ps, x2), -1.0 / 39916800.0);
  ps = add(mul(ps, x2), 1.0 / 362880.0);
  ps = add(mul(ps, x2), -1.0 / 5040.0);
  ps = add(mul(ps, x2), 1.0 / 120.0);
  ps = add(mul(ps, x2), -1.0 / 6.0);
  const double sx = add(x, mul(mul(x, x2), ps));
  // cos x = 1 - x2/2! + x2^2/4! - ...
  double pc = 1.0 / 2432902008176640000.0;  // 1/20!
  pc = add(mul(pc, x2), -1.0 / 6402373705728000.0);
  pc = add(mul(pc, x2), 1.0 / 20922789888000.0);
  pc = add(mul(pc, x2), -1.0 / 87178291200.0);
  pc = add(mul(pc, x2), 1.0 / 479001600.0);
  pc = add(mul(pc, x2), -1.0 / 3628800.0);
  pc = add(mul(pc, x2), 1.0 / 40320.0);
  pc = add(mul(pc, x2), -1.0 / 720.0);
  pc = add(mul(pc, x2), 1.0 / 24.0);
  pc = add(mul(pc, x2), -0.5);
  const double cx = add(1.0, mul(x2, pc));
  const int k = static_cast<int>(static_cast<long long>(kq) & 3);
  switch (k) {
    case 0: s = sx; c = cx; break;
    case 1: s = cx; c = -sx; break;
    case 2: s = -sx; c = -cx; break;
    default: s = -cx; c = sx; break;
  }
}

GLUON_HD_INLINE Complex<double> cmul(const Complex<double>& a, const Complex<double>& b) {
  return {sub(mul(a.re, b.re), mul(a.im, b.im)), add(mul(a.re, b.im), mul(a.im, b.re))};
}
// conj(a) * b
GLUON_HD_INLINE Complex<double> cconj_mul(const Complex<double>& a, const Complex<double>& b) {
  return {add(mul(a.re, b.re), mul(a.im, b.im)), sub(mul(a.re, b.im), mul(a.im, b.re))};
}
GLUON_HD_INLINE Complex<double> cadd(const Complex<double>& a, const Complex<double>& b) {
  return {add(a.re, b.re), add(a.im, b.im)};
}
GLUON_HD_INLINE Complex<double> csub(const Complex<double>& a, const Complex<double>& b) {
  return {sub(a.re, b.re), sub(a.im, b.im)};
}
GLUON_HD_INLINE Complex<double> cscale(double s, const Complex<double>& a) {
  return {mul(s, a.re), mul(s, a.im)};
}
GLUON_HD_INLINE double cnorm2(const Complex<double>& a) {
  return add(mul(a.re, a.re), mul(a.im, a.im));
}

}  // namespace exact

// MILC's projection onto SU(3) (as qcd::reunitarize), every step through exact:: operations.
GLUON_HD_INLINE SU3d exact_reunitarize(const SU3d& a) {
  using exact::add, exact::div, exact::cnorm2, exact::cscale, exact::cadd, exact::csub, exact::cmul,
      exact::cconj_mul;
  SU3d u = a;
  double n0 = add(add(cnorm2(u.e[0][0]), cnorm2(u.e[0][1])), cnorm2(u.e[0][2]));
  n0 = div(1.0, exact::sqrt(n0));
  for (int j = 0; j < 3; ++j) u.e[0][j] = cscale(n0, u.e[0][j]);
  Complex<double> p = cadd(cadd(cconj_mul(u.e[0][0], u.e[1][0]), cconj_mul(u.e[0][1], u.e[1][1])),
                           cconj_mul(u.e[0][2], u.e[1][2]));
  for (int j = 0; j < 3; ++j) u.e[1][j] = csub(u.e[1][j], cmul(p, u.e[0][j]));
  double n1 = add(add(cnorm2(u.e[1][0]), cnorm2(u.e[1][1])), cnorm2(u.e[1][2]));
  n1 = div(1.0, exact::sqrt(n1));
  for (int j = 0; j < 3; ++j) u.e[1][j] = cscale(n1, u.e[1][j]);
  const Complex<double>* r0 = u.e[0];
  const Complex<double>* r1 = u.e[1];
  u.e[2][0] = conj(csub(cmul(r0[1], r1[2]), cmul(r0[2], r1[1])));
  u.e[2][1] = conj(csub(cmul(r0[2], r1[0]), cmul(r0[0], r1[2])));
  u.e[2][2] = conj(csub(cmul(r0[0], r1[1]), cmul(r0[1], r1[0])));
  return u;
}

struct GlobalSiteIndex {
  SiteIndexer idx;
  int origin[4];
  int global[4];
  GLUON_HD_INLINE std::uint64_t operator()(std::int64_t eo) const {
    int x[4];
    idx.coords(eo, x);
    std::uint64_t l = static_cast<std::uint64_t>(x[3] + origin[3]);
    for (int mu = 2; mu >= 0; --mu) l = l * static_cast<std::uint64_t>(global[mu]) + (x[mu] + origin[mu]);
    return l;
  }
};

inline GlobalSiteIndex global_site_index(const Geometry& g) {
  GlobalSiteIndex r;
  r.idx = g.indexer();
  for (int mu = 0; mu < 4; ++mu) {
    r.origin[mu] = g.origin()[mu];
    r.global[mu] = g.global_dims()[mu];
  }
  return r;
}

class SiteRng {
 public:
  // site = global lexicographic index of the site (Geometry::global_lex of its global coordinates).
  GLUON_HD_INLINE SiteRng(std::uint64_t seed, std::uint64_t site, std::uint32_t stream)
      : k0_(static_cast<std::uint32_t>(seed)),
        k1_(static_cast<std::uint32_t>(seed >> 32)),
        c0_(static_cast<std::uint32_t>(site)),
        c1_(static_cast<std::uint32_t>(site >> 32)),
        stream_(stream) {}

  GLUON_HD_INLINE std::uint32_t next_u32() {
    if (used_ == 4) {
      buf_ = philox4x32_10(Philox4x32{{c0_, c1_, stream_, draw_}}, k0_, k1_);
      ++draw_;
      used_ = 0;
    }
    return buf_.v[used_++];
  }

  GLUON_HD_INLINE double uniform() {
    const std::uint64_t hi = next_u32();
    const std::uint64_t lo = next_u32();
    const std::uint64_t k = (hi << 20) | (lo >> 12);  // 52 bits
    return (static_cast<double>(k) + 0.5) * 2.220446049250313080847e-16;  // exact: 2^-52
  }

  GLUON_HD_INLINE double gaussian() {
    if (have_spare_) {
      have_spare_ = false;
      return spare_;
    }
    double a, b;
    box_muller(-2.0, a, b);
    spare_ = b;
    have_spare_ = true;
    return a;
  }

  GLUON_HD_INLINE Complex<double> complex_gaussian() {
    double a, b;
    box_muller(-1.0, a, b);
    return {a, b};
  }

  GLUON_HD_INLINE Complex<double> z2() {
    constexpr double h = 0.70710678118654752440;
    const std::uint32_t w = next_u32();
    return {(w & 1u) ? -h : h, (w & 2u) ? -h : h};
  }

  GLUON_HD_INLINE std::uint32_t blocks_drawn() const { return draw_; }

 private:
  // r = sqrt(factor * log u1) (factor -2: N(0,1) outputs, -1: N(0,1/2)), angle 2 pi u2.
  GLUON_HD_INLINE void box_muller(double factor, double& a, double& b) {
    const double u1 = uniform();
    const double u2 = uniform();
    const double r = exact::sqrt(exact::mul(factor, exact::log(u1)));
    double s, c;
    exact::sincos_2pi(u2, s, c);
    a = exact::mul(r, c);
    b = exact::mul(r, s);
  }

  std::uint32_t k0_, k1_, c0_, c1_, stream_;
  std::uint32_t draw_ = 0;
  int used_ = 4;
  Philox4x32 buf_{};
  bool have_spare_ = false;
  double spare_ = 0;
};

GLUON_HD_INLINE SU3d haar_su3(SiteRng& rng) {
  // Rows 0 and 1 complex Gaussian; exact_reunitarize is Gram-Schmidt of them (an R with positive
  // real diagonal: Mezzadri's fix, so the rows are those of a Haar U(3) matrix) and sets
  // row 2 = conj(row0 x row1) (determinant 1).
  SU3d u;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) u.e[i][j] = rng.complex_gaussian();
  return exact_reunitarize(u);
}

GLUON_HD_INLINE SU3d weak_su3(SiteRng& rng, double eps) {
  SU3d m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const Complex<double> x = rng.complex_gaussian();
      m.e[i][j] = {exact::add(i == j ? 1.0 : 0.0, exact::mul(eps, x.re)), exact::mul(eps, x.im)};
    }
  return exact_reunitarize(m);
}

}  // namespace gluon::qcd
