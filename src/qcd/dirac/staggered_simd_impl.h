#pragma once
// Private: the naive and improved staggered dslash vectorised across W sites of one x-row
// (staggered_simd.h), included only by staggered_simd_{double,single}_avx512.cpp. Everything
// here has internal linkage and includes no library header (cpu_simd_kernel.h says why).
//
// Data (FieldOrder::tiled, field_layout.h): real r of object obj at site s is at
// ((s / W) * nobj * nreals + obj * nreals + r) * W + s % W (W = 8). One task is one tile of W
// output sites of one x-row (X/2 is a multiple of W). With x = 2k + o in the row (o = (p + y + z
// + t) % 2 for output parity p), every site of the tile has the same x parity o, so the staggered
// phases eta_mu(x) are one sign for the tile. The neighbour x +- d (d = 1 fat, 3 long) of the
// site with half-row index k has half-row index k + n, n = (o + d) / 2 forward and
// -(d - o + 1) / 2 backward (n in -2 .. 2): the same tile for n = 0, else a window of two
// consecutive tiles of the row (one lane shuffle, valignq/valignd), which wraps to the row's
// other end. The y/z/t neighbours are whole tiles of the neighbouring rows.
//
// The formula and sign conventions are staggered_kernels.h's:
//   out(x) = c_fat  sum_mu eta_mu(x) [ F_mu(x) in(x+mu)  - F_mu(x-mu)^+  in(x-mu) ]
//          + c_long sum_mu eta_mu(x) [ L_mu(x) in(x+3mu) - L_mu(x-3mu)^+ in(x-3mu) ] + beta x(x)
// with -1 for each hop across an antiperiodic boundary.
#include <cstdint>

#include "cpu_simd_vector.h"
#include "staggered_simd_kernel.h"

#if defined(__AVX512F__)

namespace gluon::qcd::detail {
namespace {

// One launch: output parity, link compressions (LNR = 0: naive), xpay and the dot fixed.
template <class T, int FNR, int LNR, bool HasX, bool Dot>
struct StaggeredKernel {
  using S = Simd<T>;
  using V = typename S::V;
  using C = typename S::C;
  static constexpr int W = S::W;
  static constexpr bool kImproved = LNR != 0;

  const T* fat;
  const T* lng;
  const T* fat_back;   // fat_back(x, mu) = fat(x - mu, mu)
  const T* long_back;  // long_back(x, mu) = long(x - 3 mu, mu)
  T* out;
  const T* in;
  const T* x;
  int dims[4];
  int parity;
  std::int64_t half;
  std::int64_t out_shift, in_shift, x_shift;
  T c_fat, c_long, beta;
  int origin_parity[4], antiperiodic[4];
  int pass = 0;  // 0: the whole sum; improved in two passes: 1 the one-hop term and x, 2 the three-hop term added to out

  static GLUON_SIMD_INLINE const T* vec_tile(const T* f, std::int64_t s) { return f + s * 6; }
  template <int NR>
  static GLUON_SIMD_INLINE const T* link_tile(const T* u, std::int64_t s, int mu) {
    return u + (s / W) * (4 * NR * W) + mu * NR * W;
  }

  // Reals of W sites of a row whose half-row indices are those of the tile plus n, read from the
  // tiles at pa and pb (n > 0: the tile itself and the next; n < 0: the previous and the tile
  // itself; n = 0: pa alone).
  template <int n>
  struct Window {
    const T* pa;
    const T* pb;
    GLUON_SIMD_INLINE V operator()(int r) const {
      if constexpr (n == 0) return S::load(pa + r * W);
      else if constexpr (n > 0) return S::template window<n>(S::load(pa + r * W), S::load(pb + r * W));
      else return S::template window<W + n>(S::load(pa + r * W), S::load(pb + r * W));
    }
  };
  struct Aligned {
    const T* p;
    GLUON_SIMD_INLINE V operator()(int r) const { return S::load(p + r * W); }
  };

  // acc += sign (U v) (Adj: sign U^+ v), U read through get(r) (real r of the stored link): r18
  // element by element where used, r12 rows 0 and 1 first, row 2 = conj(row 0 x row 1).
  template <int NR, bool Adj, class GetU, class GetV>
  static GLUON_SIMD_INLINE void transport_add(C acc[3], const GetU& get, const GetV& getv, V sign) {
    C v[3];
    for (int c = 0; c < 3; ++c) v[c] = {getv(2 * c), getv(2 * c + 1)};
    C m[3][3];
    if constexpr (NR == 12) {
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j) m[i][j] = {get(2 * (3 * i + j)), get(2 * (3 * i + j) + 1)};
      for (int j = 0; j < 3; ++j) {
        const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
        const C c = S::sub(S::mul(m[0][j1], m[1][j2]), S::mul(m[0][j2], m[1][j1]));
        m[2][j] = {c.re, -c.im};
      }
    }
    auto elem = [&](int i, int j) {
      if constexpr (NR == 12) return m[i][j];
      else return C{get(2 * (3 * i + j)), get(2 * (3 * i + j) + 1)};
    };
    for (int i = 0; i < 3; ++i) {
      C t;
      for (int j = 0; j < 3; ++j) {
        const C p = Adj ? S::conj_mul(elem(j, i), v[j]) : S::mul(elem(i, j), v[j]);
        t = j == 0 ? p : S::add(t, p);
      }
      acc[i].re += sign * t.re;
      acc[i].im += sign * t.im;
    }
  }

  // The x hops at distance d (the tile's x parity o compile-time): the links at the tile (ub:
  // the backward ones stored there), the neighbours through windows of the row.
  template <int d, int o, int NR>
  GLUON_SIMD_INLINE void x_hops(C acc[3], const T* u, const T* ub, std::int64_t s0, std::int64_t row0, int k0,
                                int Xh, bool eta_neg) const {
    constexpr int nf = (o + d) / 2, nb = -((d - o + 1) / 2);
    const std::int64_t same = row0 + k0;
    const std::int64_t next = k0 + W == Xh ? row0 : same + W;
    const std::int64_t prev = k0 == 0 ? row0 + Xh - W : same - W;
    {
      // Lanes W - nf .. W - 1 of the row's last tile wrap.
      V sign = S::splat(eta_neg ? T(-1) : T(1));
      if (nf > 0 && antiperiodic[0] && k0 + W == Xh)
        for (int i = W - nf; i < W; ++i) sign[i] = -sign[i];
      const Window<nf> v{vec_tile(in, same - in_shift), vec_tile(in, next - in_shift)};
      transport_add<NR, false>(acc, Aligned{link_tile<NR>(u, s0, 0)}, v, sign);
    }
    {
      // Lanes 0 .. -nb - 1 of the row's first tile wrap. The backward term enters with a minus.
      V sign = S::splat(eta_neg ? T(1) : T(-1));
      if (nb < 0 && antiperiodic[0] && k0 == 0)
        for (int i = 0; i < -nb; ++i) sign[i] = -sign[i];
      const Window<nb> v{vec_tile(in, (nb == 0 ? same : prev) - in_shift), vec_tile(in, same - in_shift)};
      transport_add<NR, true>(acc, Aligned{link_tile<NR>(ub, s0, 0)}, v, sign);
    }
  }

  // The hops of direction mu > 0 at distance d: whole tiles of the rows d away; links at the tile.
  template <int mu, int d, int NR>
  GLUON_SIMD_INLINE void row_hops(C acc[3], const T* u, const T* ub, std::int64_t s0, std::int64_t row, const int* c,
                                  int Xh, int k0, bool eta_neg) const {
    std::int64_t rs = 1;  // row stride of direction mu
    for (int nu = 1; nu < mu; ++nu) rs *= dims[nu];
    const std::int64_t other = (1 - parity) * half;
    const int L = dims[mu];
    {
      int v = c[mu] + d, w = 0;
      if (v >= L) v -= L, ++w;
      if (d > 1 && v >= L) v -= L, ++w;
      const bool neg = eta_neg != ((w & antiperiodic[mu]) != 0);
      const std::int64_t nb = other + (row + (v - c[mu]) * rs) * Xh + k0;
      transport_add<NR, false>(acc, Aligned{link_tile<NR>(u, s0, mu)}, Aligned{vec_tile(in, nb - in_shift)},
                               S::splat(neg ? T(-1) : T(1)));
    }
    {
      int v = c[mu] - d, w = 0;
      if (v < 0) v += L, ++w;
      if (d > 1 && v < 0) v += L, ++w;
      const bool neg = !(eta_neg != ((w & antiperiodic[mu]) != 0));
      const std::int64_t nb = other + (row + (v - c[mu]) * rs) * Xh + k0;
      transport_add<NR, true>(acc, Aligned{link_tile<NR>(ub, s0, mu)}, Aligned{vec_tile(in, nb - in_shift)},
                              S::splat(neg ? T(-1) : T(1)));
    }
  }

  template <int d, int NR>
  GLUON_SIMD_INLINE void all_hops(C acc[3], const T* u, const T* ub, std::int64_t s0, std::int64_t row, const int* c, int Xh,
                                  int k0, int o, const bool* eta_neg) const {
    const std::int64_t row0 = (1 - parity) * half + row * Xh;
    if (o == 0) x_hops<d, 0, NR>(acc, u, ub, s0, row0, k0, Xh, eta_neg[0]);
    else x_hops<d, 1, NR>(acc, u, ub, s0, row0, k0, Xh, eta_neg[0]);
    row_hops<1, d, NR>(acc, u, ub, s0, row, c, Xh, k0, eta_neg[1]);
    row_hops<2, d, NR>(acc, u, ub, s0, row, c, Xh, k0, eta_neg[2]);
    row_hops<3, d, NR>(acc, u, ub, s0, row, c, Xh, k0, eta_neg[3]);
  }

  // Software prefetch of everything tile `tile` reads and writes (as in the Wilson kernel: the
  // tile's 10-odd streams are more than the hardware prefetchers run far enough ahead).
  template <int d, int NR>
  GLUON_SIMD_INLINE void prefetch_links_and_rows(const T* u, const T* ub, std::int64_t s0, const TilePos& tp) const {
    constexpr int vec_bytes = 6 * W * sizeof(T), link_bytes = NR * W * sizeof(T);
    const std::int64_t other = (1 - parity) * half;
    S::prefetch_bytes(link_tile<NR>(u, s0, 0), 4 * link_bytes);
    S::prefetch_bytes(link_tile<NR>(ub, s0, 0), 4 * link_bytes);
    std::int64_t rs = 1;
    for (int mu = 1; mu < 4; ++mu) {
      const int L = dims[mu], c = tp.c[mu];
      const int f = (c + d) % L, b = ((c - d) % L + L) % L;
      const std::int64_t fw = tp.row + (f - c) * rs, bw = tp.row + (b - c) * rs;
      S::prefetch_bytes(vec_tile(in, other + fw * tp.Xh + tp.k0 - in_shift), vec_bytes);
      S::prefetch_bytes(vec_tile(in, other + bw * tp.Xh + tp.k0 - in_shift), vec_bytes);
      rs *= L;
    }
  }
  GLUON_SIMD_INLINE void prefetch(std::int64_t tile) const {
    const TilePos tp = tile_pos(tile, dims, parity);
    const std::int64_t s0 = parity * half + tp.i0;
    S::prefetch_bytes(vec_tile(in, (1 - parity) * half + tp.row * tp.Xh + tp.k0 - in_shift), 6 * W * sizeof(T));
    if (pass != 2) prefetch_links_and_rows<1, FNR>(fat, fat_back, s0, tp);
    if constexpr (kImproved)
      if (pass != 1) prefetch_links_and_rows<3, LNR>(lng, long_back, s0, tp);
    S::prefetch_bytes(out + (s0 - out_shift) * 6, 6 * W * sizeof(T), true);
    if constexpr (HasX)
      if (pass != 2 || Dot) S::prefetch_bytes(x + (s0 - x_shift) * 6, 6 * W * sizeof(T));
  }

  // The W output sites of tile `tile` of the output parity; with Dot, returns Re <x, out> there.
  GLUON_SIMD_INLINE double run_tile(std::int64_t tile) const {
    const TilePos tp = tile_pos(tile, dims, parity);
    const std::int64_t i0 = tp.i0, row = tp.row;
    const int Xh = tp.Xh, k0 = tp.k0, o = tp.o;
    const int* c = tp.c;
    // eta_mu = (-1)^(x_0 + ... + x_{mu-1}) with global coordinates (origin_parity adds the
    // origin's part); x_0's parity is o for the whole tile.
    bool eta_neg[4];
    eta_neg[0] = (origin_parity[0] & 1) != 0;
    eta_neg[1] = ((o + origin_parity[1]) & 1) != 0;
    eta_neg[2] = ((o + c[1] + origin_parity[2]) & 1) != 0;
    eta_neg[3] = ((o + c[1] + c[2] + origin_parity[3]) & 1) != 0;
    const std::int64_t s0 = parity * half + i0;  // eo index of lane 0

    C af[3], al[3];
    for (int cc = 0; cc < 3; ++cc) af[cc] = al[cc] = {V{}, V{}};
    if (pass != 2) all_hops<1, FNR>(af, fat, fat_back, s0, row, c, Xh, k0, o, eta_neg);
    if constexpr (kImproved)
      if (pass != 1) all_hops<3, LNR>(al, lng, long_back, s0, row, c, Xh, k0, o, eta_neg);

    T* po = out + (s0 - out_shift) * 6;
    const V cf = S::splat(c_fat);
    double dot = 0.0;
    using VD = typename VecOf<double>::type;
    VD dv{};
    for (int cc = 0; cc < 3; ++cc) {
      V re, im;
      if (pass == 2) {
        re = S::load(po + (2 * cc) * W);
        im = S::load(po + (2 * cc + 1) * W);
      } else {
        re = cf * af[cc].re;
        im = cf * af[cc].im;
      }
      if constexpr (kImproved) {
        if (pass != 1) {
          const V cl = S::splat(c_long);
          re += cl * al[cc].re;
          im += cl * al[cc].im;
        }
      }
      if constexpr (HasX) {
        const T* px = x + (s0 - x_shift) * 6;
        const V bv = S::splat(beta);
        const V xr = S::load(px + (2 * cc) * W), xi = S::load(px + (2 * cc + 1) * W);
        if (pass != 2) {
          re += bv * xr;
          im += bv * xi;
        }
        if constexpr (Dot) {
          if (pass != 1)
            dv += __builtin_convertvector(xr, VD) * __builtin_convertvector(re, VD) +
                  __builtin_convertvector(xi, VD) * __builtin_convertvector(im, VD);
        }
      }
      S::store(po + (2 * cc) * W, re);
      S::store(po + (2 * cc + 1) * W, im);
    }
    if constexpr (Dot)
      for (int i = 0; i < W; ++i) dot += dv[i];
    return dot;
  }
};

template <class T, int FNR, int LNR, bool HasX, bool Dot>
void launch(const StaggeredSimdArgs& a) {
  StaggeredKernel<T, FNR, LNR, HasX, Dot> k;
  k.fat = static_cast<const T*>(a.fat);
  k.lng = static_cast<const T*>(a.lng);
  k.fat_back = static_cast<const T*>(a.fat_back);
  k.long_back = static_cast<const T*>(a.long_back);
  k.out = static_cast<T*>(a.out);
  k.in = static_cast<const T*>(a.in);
  k.x = static_cast<const T*>(a.x);
  for (int mu = 0; mu < 4; ++mu) {
    k.dims[mu] = a.dims[mu];
    k.origin_parity[mu] = a.origin_parity[mu];
    k.antiperiodic[mu] = a.antiperiodic[mu];
  }
  k.parity = a.parity;
  k.half = a.half;
  k.out_shift = a.out_shift;
  k.in_shift = a.in_shift;
  k.x_shift = a.x_shift;
  k.c_fat = static_cast<T>(a.c_fat);
  k.c_long = static_cast<T>(a.c_long);
  k.beta = static_cast<T>(a.beta);
  const std::int64_t tiles = a.half / Simd<T>::W;
  const std::int64_t chunks = (tiles + kStaggeredDotChunk - 1) / kStaggeredDotChunk;
  // Tiles prefetched ahead: 1, 2, 4 and 8, into L1 or L2, measured alike on the 2-core VM (the
  // Wilson kernel's best was 2); leaving out the tile's own links (one sequential stream) was
  // 8-13% (improved) and 26-61% (naive) slower. (Measured before the backward links were stored
  // at the tile.)
  constexpr std::int64_t ahead = 2;
  // Improved: the one-hop term first, then the three-hop term added to out. Each pass reads
  // about half the streams, which the prefetchers keep up with: median +3% (double r18) and
  // +36% (single r12) on the 2-core VM, for 2 more vector passes (out read and written again).
  const bool two = LNR != 0;
#pragma omp parallel
  for (int pass = two ? 1 : 0; pass <= (two ? 2 : 0); ++pass) {
    auto kp = k;
    kp.pass = pass;
#pragma omp for schedule(static)
    for (std::int64_t ch = 0; ch < chunks; ++ch) {
      const std::int64_t t0 = ch * kStaggeredDotChunk;
      const std::int64_t t1 = t0 + kStaggeredDotChunk < tiles ? t0 + kStaggeredDotChunk : tiles;
      double sum = 0.0;
      for (std::int64_t t = t0; t < t1; ++t) {
        if (t + ahead < tiles) kp.prefetch(t + ahead);
        sum += kp.run_tile(t);
      }
      if constexpr (Dot)
        if (pass != 1) a.dot_partials[ch] = sum;
    }
  }
}

template <class T, int FNR, int LNR>
void launch_x(const StaggeredSimdArgs& a) {
  if (!a.x) return launch<T, FNR, LNR, false, false>(a);
  if (a.dot_partials) return launch<T, FNR, LNR, true, true>(a);
  launch<T, FNR, LNR, true, false>(a);
}

template <class T>
bool run(const StaggeredSimdArgs& a) {
  if ((a.dot_partials && !a.x) || !a.fat_back || (a.lng && !a.long_back)) return false;
  const bool fat18 = a.fat_nreals == 18, fat12 = a.fat_nreals == 12;
  if (!a.lng) {
    if (fat18) launch_x<T, 18, 0>(a);
    else if (fat12) launch_x<T, 12, 0>(a);
    else return false;
    return true;
  }
  if (!fat18) return false;
  if (a.long_nreals == 18) launch_x<T, 18, 18>(a);
  else if (a.long_nreals == 12) launch_x<T, 18, 12>(a);
  else return false;
  return true;
}

}  // namespace
}  // namespace gluon::qcd::detail

#endif  // __AVX512F__
