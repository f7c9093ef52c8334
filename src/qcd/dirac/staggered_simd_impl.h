#pragma once
// Private: the naive and improved staggered dslash vectorised across W sites of one x-row
// (staggered_simd.h), included only by staggered_simd_{double,single,half}_{avx512,avx2}.cpp.
// Everything here has internal linkage and includes no library header (cpu_simd_kernel.h says why).
//
// Data (FieldOrder::tiled, field_layout.h): real r of object obj at site s is at
// ((s / 8) * nobj * nreals + obj * nreals + r) * 8 + s % 8 (tiles of kT = 8 sites). One task is
// W output sites of one x-row: a tile (W = 8, X/2 a multiple of 8), or half a tile (W = 4), where
// X/2 = 4 mod 8 and a tile may straddle two rows (wilson_simd_impl.h's Tasks::half_tile; the
// staggered_simd_*_narrow_avx2.cpp files). Below, "tile" means a task's W sites. With x = 2k + o in the row (o = (p + y + z
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
// with -1 for each hop across an antiperiodic boundary, and 0 for each across a cut dimension
// (StaggeredSimdArgs::cut).
//
// Half precision (St = int16_t, computed in float as the scalar kernel does; precision.h): the
// links are used as stored (32767 times the entries; a rebuilt r12 row 2 is 32767^2 times and
// loses one factor where it is used), and each hop's product is scaled by the neighbours' norms
// / 32767^2 through the hop's per-lane sign (a lane vector of norms, windowed with the vectors in
// x), which takes out the colour vector's and the link's 1/32767 at once. The output site's norm
// is its largest |real| (NaN kept), as spinor_accessor.h stores it. Improved half runs in one
// pass: a second would round the one-hop term to half. The products round differently from the
// scalar kernel's (which scales each real where it is read), within single precision.
#include <cstdint>

#include "cpu_simd_r8.h"
#include "cpu_simd_vector.h"
#include "staggered_simd_kernel.h"

#if defined(GLUON_CPU_SIMD)

namespace gluon::qcd::detail {
namespace {

// One launch: storage St (T, or int16_t with T = float: half), output parity, link
// compressions (LNR = 0: naive), xpay, the dot, the lanes and half-tile pairs fixed.
//
// Half-tile pairs (Pair; single precision, Lanes = 8): a task's lanes 0-3 are a half tile at time
// slice t < T/2 and lanes 4-7 the half tile at the same x, y, z and t + T/2, 8 floats a vector
// (an AVX register, where a half tile alone fills only an SSE one), as wilson_simd_impl.h's
// Tasks::half_tile_pair. With T a multiple of 4 both have the same x parity o, so the same
// staggered phases and x windows; their neighbours differ only along t, where one of the two may
// wrap around the lattice. Loads and stores take each group's 4 lanes from its own address.
template <class T, class St, int FNR, int LNR, bool HasX, bool Dot, int Lanes = kTileSites, bool Pair = false>
struct StaggeredKernel : LaneGroups<T, Lanes, Pair> {
  static_assert(!Pair || (Lanes == kTileSites && sizeof(St) == 4 && sizeof(T) == 4),
                "half-tile pairs: single precision, 8 floats a vector");
  using G = LaneGroups<T, Lanes, Pair>;
  using S = typename G::S;
  using V = typename S::V;
  using C = typename S::C;
  static constexpr int W = S::W;         // sites a task (lanes)
  static constexpr int kT = kTileSites;  // sites a tile of the memory layout
  using G::kStep;    // sites of one x-row a lane group covers: W, or with Pair W / 2
  using G::kGroups;  // 2 with Pair, else 1
  using typename G::Sites;
  template <class P>
  using Ptr = typename G::template Ptr<P>;
  using G::load;
  // Lane l gets -x where its group's `neg` is set, else x.
  static GLUON_SIMD_INLINE V group_sign(bool neg_a, bool neg_b, T x) { return G::per_group(neg_a ? -x : x, neg_b ? -x : x); }
  // sign with the lanes of a skipped group (a hop across a cut) set to 0.
  static GLUON_SIMD_INLINE V skipped(V sign, bool skip_a, bool skip_b) {
    if (!skip_a && !skip_b) return sign;
    return sign * G::per_group(skip_a ? T(0) : T(1), skip_b ? T(0) : T(1));
  }
  // Lanes of the half-row indices of a task's groups plus n, from the group's tiles in a (n > 0:
  // the tile itself; n < 0: the previous) and b (n > 0: the next; n < 0: the tile itself), per
  // group of 4 (Pair; otherwise Simd's window over all W lanes).
  template <int n>
  static GLUON_SIMD_INLINE V window(V a, V b) {
    if constexpr (Pair) {
      static_assert(n >= -2 && n <= 2 && n != 0 && kStep == 4);
      if constexpr (n == 1) return __builtin_shufflevector(a, b, 1, 2, 3, 8, 5, 6, 7, 12);
      else if constexpr (n == -1) return __builtin_shufflevector(a, b, 3, 8, 9, 10, 7, 12, 13, 14);
      else return __builtin_shufflevector(a, b, 2, 3, 8, 9, 6, 7, 12, 13);  // n = 2 and n = -2
    } else if constexpr (n > 0) {
      return S::template window<n>(a, b);
    } else {
      return S::template window<W + n>(a, b);
    }
  }
  static constexpr bool kImproved = LNR != 0;
  static constexpr bool kHalf = sizeof(St) == 2;
  static constexpr T kHalfMax = T(32767);

  const St* fat;
  const St* lng;
  const St* fat_back;   // fat_back(x, mu) = fat(x - mu, mu)
  const St* long_back;  // long_back(x, mu) = long(x - 3 mu, mu)
  St* out;
  const St* in;
  const St* x;
  // Half only: per-site norms of out, in, x (index: the field's site).
  float* out_norm;
  bool stream_out = false;  // out written with non-temporal stores (StaggeredSimdArgs::stream_out)
  int prefetch_mode = 0;    // CpuPrefetch (StaggeredSimdArgs::prefetch)
  const float* in_norm;
  const float* x_norm;
  int dims[4];
  int parity;
  std::int64_t half;
  std::int64_t out_shift, in_shift, x_shift;
  T c_fat, c_long, beta;
  int origin_parity[4], antiperiodic[4], cut[4];
  std::int64_t pair_groups = 0;  // Pair: lane groups from a task's first group to its partner (T/2 slices)
  int pass = 0;  // 0: the whole sum; improved in two passes: 1 the one-hop term and x, 2 the three-hop term added to out

  // Where site s (the first of a lane group's sites) lies in its tile: 0 for whole-tile groups
  // (the compiler cannot know that s is a multiple of kT there).
  static GLUON_SIMD_INLINE std::int64_t lane_offset(std::int64_t s) {
    if constexpr (kStep == kT) return 0;
    else return s % kT;
  }
  // Real 0 of site s of a colour-vector field (real r is r kT further) and of link mu there.
  template <class P>
  static GLUON_SIMD_INLINE P* vec_tile(P* f, std::int64_t s) {
    if constexpr (kStep == kT) return f + s * 6;  // (s / kT) * 6 kT
    else return f + (s / kT) * (6 * kT) + lane_offset(s);
  }
  template <class P>
  static GLUON_SIMD_INLINE Ptr<P> vec_tile(P* f, Sites s) {
    return {vec_tile(f, s.a), vec_tile(f, s.b)};
  }
  template <int NR>
  static GLUON_SIMD_INLINE const St* link_tile(const St* u, std::int64_t s, int mu) {
    return u + (s / kT) * (4 * NR * kT) + mu * NR * kT + lane_offset(s);
  }
  template <int NR>
  static GLUON_SIMD_INLINE Ptr<const St> link_tile(const St* u, Sites s, int mu) {
    return {link_tile<NR>(u, s.a, mu), link_tile<NR>(u, s.b, mu)};
  }

  // Reals of W sites of a row whose half-row indices are those of the tile plus n, read from the
  // tiles at pa and pb (n > 0: the tile itself and the next; n < 0: the previous and the tile
  // itself; n = 0: pa alone). P: St (vectors; half: the stored integers), or float (norms, r = 0).
  template <int n, class P = St>
  struct Window {
    Ptr<const P> pa;
    Ptr<const P> pb;
    GLUON_SIMD_INLINE V operator()(int r) const {
      if constexpr (n == 0) return load(pa + r * kT);
      else return window<n>(load(pa + r * kT), load(pb + r * kT));
    }
  };
  struct Aligned {
    Ptr<const St> p;
    GLUON_SIMD_INLINE V operator()(int r) const { return load(p + r * kT); }
  };
  struct Link {  // half: the stored integer (hop_sign, or for r8 the rebuild, has its scale)
    Ptr<const St> p;
    GLUON_SIMD_INLINE V operator()(int r) const { return load(p + r * kT); }
  };
  // A hop's per-lane sign, times (half) the neighbours' norms / 32767^2 read through `norms` (a
  // Window<n, float> or the aligned tile's norms): the colour vector's and the link's 1/32767.
  // r8 links are rebuilt at their value: the norms / 32767 only.
  template <int NR, class Norms>
  GLUON_SIMD_INLINE V hop_sign(V sign, const Norms& norms) const {
    constexpr T k = NR == 8 ? T(1) / kHalfMax : T(1) / (kHalfMax * kHalfMax);
    if constexpr (kHalf) return sign * norms(0) * S::splat(k);
    else return sign;
  }
  GLUON_SIMD_INLINE Ptr<const float> norm_at(Sites s) const {
    if constexpr (kHalf) return {in_norm + (s.a - in_shift), in_norm + (s.b - in_shift)};
    else return {nullptr, nullptr};
  }

  // r8 links of one direction rebuilt two at a time (SimdR8Pair: one 512-bit vector in single
  // with AVX-512); elsewhere each just before its hop, so that one rebuilt link is live at a time.
  // Not in half: there the pair measured slower in 5 runs of 5 (0-16%) on the 16-core Xeon,
  // where single gained 2-17% (bench/results/2026-11-26-cpu-r8-rebuild/).
  static constexpr bool kPairR8 = SimdR8Pair<T, W>::kTogether && !kHalf;
  // The forward and backward r8 links of direction mu at the tile from s0, rebuilt together
  // (kPairR8; otherwise nothing, and transport_add rebuilds each).
  template <int NR>
  static GLUON_SIMD_INLINE void rebuild_r8(const St* u, const St* ub, Sites s0, int mu, C fwd[3][3], C bwd[3][3]) {
    if constexpr (NR == 8 && kPairR8)
      SimdR8Pair<T, W>::template unpack<kHalf>(Link{link_tile<NR>(u, s0, mu)}, Link{link_tile<NR>(ub, s0, mu)}, fwd, bwd);
  }

  // acc += sign (U v) (Adj: sign U^+ v), U read through get(r) (real r of the stored link): r18
  // element by element where used, r12 rows 0 and 1 first, row 2 = conj(row 0 x row 1), r8
  // rebuilt whole first (cpu_simd_r8.h), or before by rebuild_r8 (r8: kPairR8). Half
  // r12: row 2 is 32767 times too large, taken out of v's colour 2 (U^+) or t's row 2 (U): 2
  // multiplies where scaling the row would take 6.
  template <int NR, bool Adj, class GetU, class GetV>
  static GLUON_SIMD_INLINE void transport_add(C acc[3], const GetU& get, const GetV& getv, V sign,
                                              const C (*r8)[3]) {
    constexpr bool kRow2Big = kHalf && NR == 12;
    const V inv = S::splat(T(1) / kHalfMax);
    C v[3];
    for (int c = 0; c < 3; ++c) v[c] = {getv(2 * c), getv(2 * c + 1)};
    if constexpr (kRow2Big && Adj) v[2] = {v[2].re * inv, v[2].im * inv};
    C m[3][3];
    if constexpr (NR == 8 && !kPairR8) SimdR8<T, W>::template unpack<kHalf>(get, m);
    if constexpr (NR == 12) {
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j) m[i][j] = {get(2 * (3 * i + j)), get(2 * (3 * i + j) + 1)};
      for (int j = 0; j < 3; ++j) {
        const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
        const C c = S::mul_sub(m[0][j1], m[1][j2], m[0][j2], m[1][j1]);
        m[2][j] = {c.re, -c.im};
      }
    }
    auto elem = [&](int i, int j) {
      if constexpr (NR == 8 && kPairR8) return r8[i][j];
      else if constexpr (NR == 12 || NR == 8) return m[i][j];
      else return C{get(2 * (3 * i + j)), get(2 * (3 * i + j) + 1)};
    };
    for (int i = 0; i < 3; ++i) {
      C t;
      for (int j = 0; j < 3; ++j) {
        if (j == 0) t = Adj ? S::conj_mul(elem(j, i), v[j]) : S::mul(elem(i, j), v[j]);
        else t = Adj ? S::conj_mul_add(elem(j, i), v[j], t) : S::mul_add(elem(i, j), v[j], t);
      }
      if constexpr (kRow2Big && !Adj)
        if (i == 2) t = {t.re * inv, t.im * inv};
      acc[i].re += sign * t.re;
      acc[i].im += sign * t.im;
    }
  }

  // The x hops at distance d (the tile's x parity o compile-time): the links at the tile (ub:
  // the backward ones stored there), the neighbours through windows of the row. tp and tb: the
  // positions of the task's lane groups (the same without Pair), which share k0 and o.
  template <int d, int o, int NR>
  GLUON_SIMD_INLINE void x_hops(C acc[3], const St* u, const St* ub, Sites s0, const TilePos& tp, const TilePos& tb,
                                bool eta_neg) const {
    constexpr int nf = (o + d) / 2, nb = -((d - o + 1) / 2);
    const int Xh = tp.Xh, k0 = tp.k0;
    const std::int64_t other = (1 - parity) * half;
    const Sites row0 = Sites::of(other + tp.row * Xh, other + tb.row * Xh);
    const Sites same = Sites::of(row0.a + k0, row0.b + k0);
    const Sites next = k0 + kStep == Xh ? row0 : Sites::of(same.a + kStep, same.b + kStep);
    const Sites prev = k0 == 0 ? Sites::of(row0.a + Xh - kStep, row0.b + Xh - kStep) : Sites::of(same.a - kStep, same.b - kStep);
    C lf[3][3], lb[3][3];
    rebuild_r8<NR>(u, ub, s0, 0, lf, lb);
    {
      // Lanes kStep - nf .. kStep - 1 of each group of the row's last tile wrap.
      V sign = S::splat(eta_neg ? T(-1) : T(1));
      if (nf > 0 && (antiperiodic[0] || cut[0]) && k0 + kStep == Xh)
        for (int g = 0; g < kGroups; ++g)
          for (int i = kStep - nf; i < kStep; ++i) sign[g * kStep + i] = cut[0] ? T(0) : -sign[g * kStep + i];
      const Window<nf> v{vec_tile(in, same - in_shift), vec_tile(in, next - in_shift)};
      sign = hop_sign<NR>(sign, Window<nf, float>{norm_at(same), norm_at(next)});
      transport_add<NR, false>(acc, Link{link_tile<NR>(u, s0, 0)}, v, sign, lf);
    }
    {
      // Lanes 0 .. -nb - 1 of each group of the row's first tile wrap. The backward term enters
      // with a minus.
      V sign = S::splat(eta_neg ? T(1) : T(-1));
      if (nb < 0 && (antiperiodic[0] || cut[0]) && k0 == 0)
        for (int g = 0; g < kGroups; ++g)
          for (int i = 0; i < -nb; ++i) sign[g * kStep + i] = cut[0] ? T(0) : -sign[g * kStep + i];
      const Sites from = nb == 0 ? same : prev;
      const Window<nb> v{vec_tile(in, from - in_shift), vec_tile(in, same - in_shift)};
      sign = hop_sign<NR>(sign, Window<nb, float>{norm_at(from), norm_at(same)});
      transport_add<NR, true>(acc, Link{link_tile<NR>(ub, s0, 0)}, v, sign, lb);
    }
  }

  // The neighbour d away along mu > 0 (forward where d > 0) of the group at tp: its eo site, and
  // whether its hop's sign flips (the antiperiodic boundary crossed an odd number of times) or
  // the hop is skipped (it wraps around a cut dimension).
  template <int mu>
  GLUON_SIMD_INLINE std::int64_t row_neighbour(const TilePos& tp, int d, bool& flip, bool& skip) const {
    std::int64_t rs = 1;  // row stride of direction mu
    for (int nu = 1; nu < mu; ++nu) rs *= dims[nu];
    const int L = dims[mu];
    int v = tp.c[mu] + d, w = 0;
    while (v >= L) v -= L, ++w;
    while (v < 0) v += L, ++w;
    flip = (w & antiperiodic[mu]) != 0;
    skip = w != 0 && cut[mu];
    return (1 - parity) * half + (tp.row + (v - tp.c[mu]) * rs) * tp.Xh + tp.k0;
  }

  // The hops of direction mu > 0 at distance d: whole tiles of the rows d away; links at the tile.
  template <int mu, int d, int NR>
  GLUON_SIMD_INLINE void row_hops(C acc[3], const St* u, const St* ub, Sites s0, const TilePos& tp, const TilePos& tb,
                                  bool eta_neg) const {
    C lf[3][3], lb[3][3];
    rebuild_r8<NR>(u, ub, s0, mu, lf, lb);
    {
      bool fa, fb = false, sa, sb = false;
      const std::int64_t na = row_neighbour<mu>(tp, d, fa, sa);
      const std::int64_t nbb = Pair ? row_neighbour<mu>(tb, d, fb, sb) : na;
      const Sites nb = Sites::of(na, nbb);
      const V sign = skipped(group_sign(eta_neg != fa, eta_neg != (Pair ? fb : fa), T(1)), sa, Pair ? sb : sa);
      transport_add<NR, false>(acc, Link{link_tile<NR>(u, s0, mu)}, Aligned{vec_tile(in, nb - in_shift)},
                               hop_sign<NR>(sign, Window<0, float>{norm_at(nb), {nullptr, nullptr}}), lf);
    }
    {
      bool fa, fb = false, sa, sb = false;
      const std::int64_t na = row_neighbour<mu>(tp, -d, fa, sa);
      const std::int64_t nbb = Pair ? row_neighbour<mu>(tb, -d, fb, sb) : na;
      const Sites nb = Sites::of(na, nbb);
      const V sign =  // minus the forward's
          skipped(group_sign(eta_neg == fa, eta_neg == (Pair ? fb : fa), T(1)), sa, Pair ? sb : sa);
      transport_add<NR, true>(acc, Link{link_tile<NR>(ub, s0, mu)}, Aligned{vec_tile(in, nb - in_shift)},
                              hop_sign<NR>(sign, Window<0, float>{norm_at(nb), {nullptr, nullptr}}), lb);
    }
  }

  template <int d, int NR>
  GLUON_SIMD_INLINE void all_hops(C acc[3], const St* u, const St* ub, Sites s0, const TilePos& tp, const TilePos& tb,
                                  const bool* eta_neg) const {
    if (tp.o == 0) x_hops<d, 0, NR>(acc, u, ub, s0, tp, tb, eta_neg[0]);
    else x_hops<d, 1, NR>(acc, u, ub, s0, tp, tb, eta_neg[0]);
    row_hops<1, d, NR>(acc, u, ub, s0, tp, tb, eta_neg[1]);
    row_hops<2, d, NR>(acc, u, ub, s0, tp, tb, eta_neg[2]);
    row_hops<3, d, NR>(acc, u, ub, s0, tp, tb, eta_neg[3]);
  }

  // Software prefetch of what the lane group at tp reads and writes, as prefetch_mode
  // (CpuPrefetch, cpu_simd.h) says: all, every stream (the tile's 10-odd streams are more than
  // the hardware prefetchers run far enough ahead of in the naive kernel); spinors, the input
  // rows, out and x; ahead, of the input only the row at t + d (the tile order runs through whole
  // time slices, so that row is the one not read yet as another row's neighbour), out and x.
  template <int d, int NR>
  GLUON_SIMD_INLINE void prefetch_links_and_rows(const St* u, const St* ub, std::int64_t s0, const TilePos& tp) const {
    constexpr int link_bytes = NR * kStep * sizeof(St);
    const std::int64_t other = (1 - parity) * half;
    if (prefetch_mode == static_cast<int>(CpuPrefetch::all)) {
      S::prefetch_bytes(link_tile<NR>(u, s0, 0), 4 * link_bytes);
      S::prefetch_bytes(link_tile<NR>(ub, s0, 0), 4 * link_bytes);
    }
    std::int64_t rs = 1;
    for (int mu = 1; mu < 4; ++mu) {
      if (prefetch_mode == static_cast<int>(CpuPrefetch::ahead) && mu != 3) {
        rs *= dims[mu];
        continue;
      }
      const int L = dims[mu], c = tp.c[mu];
      const int f = (c + d) % L, b = ((c - d) % L + L) % L;
      const std::int64_t fw = tp.row + (f - c) * rs, bw = tp.row + (b - c) * rs;
      prefetch_in(other + fw * tp.Xh + tp.k0);
      if (prefetch_mode != static_cast<int>(CpuPrefetch::ahead)) prefetch_in(other + bw * tp.Xh + tp.k0);
      rs *= L;
    }
  }
  GLUON_SIMD_INLINE void prefetch_in(std::int64_t s) const {
    S::prefetch_bytes(vec_tile(in, s - in_shift), 6 * kStep * sizeof(St));
    if constexpr (kHalf) S::prefetch_bytes(in_norm + (s - in_shift), kStep * sizeof(float));
  }
  GLUON_SIMD_INLINE void prefetch_group(std::int64_t group) const {
    const TilePos tp = tile_pos<kStep>(group, dims, parity);
    const std::int64_t s0 = parity * half + tp.i0;
    if (prefetch_mode != static_cast<int>(CpuPrefetch::ahead)) prefetch_in((1 - parity) * half + tp.row * tp.Xh + tp.k0);
    if (pass != 2) prefetch_links_and_rows<1, FNR>(fat, fat_back, s0, tp);
    if constexpr (kImproved)
      if (pass != 1) prefetch_links_and_rows<3, LNR>(lng, long_back, s0, tp);
    if (!stream_out) S::prefetch_bytes(vec_tile(out, s0 - out_shift), 6 * kStep * sizeof(St), true);
    if constexpr (HasX)
      if (pass != 2 || Dot) S::prefetch_bytes(vec_tile(x, s0 - x_shift), 6 * kStep * sizeof(St));
    if constexpr (kHalf) {
      if (!stream_out) S::prefetch_bytes(out_norm + (s0 - out_shift), kStep * sizeof(float), true);
      if constexpr (HasX) S::prefetch_bytes(x_norm + (s0 - x_shift), kStep * sizeof(float));
    }
  }
  GLUON_SIMD_INLINE void prefetch(std::int64_t task) const {
    if (prefetch_mode == static_cast<int>(CpuPrefetch::none)) return;
    prefetch_group(task);
    if constexpr (Pair) prefetch_group(task + pair_groups);
  }

  // The W output sites of task `task` of the output parity (Pair: lane group `task` and its
  // partner pair_groups on); with Dot, returns Re <x, out> there.
  GLUON_SIMD_INLINE double run_tile(std::int64_t task) const {
    const TilePos tp = tile_pos<kStep>(task, dims, parity);
    const TilePos tb = Pair ? tile_pos<kStep>(task + pair_groups, dims, parity) : tp;
    const int o = tp.o;
    const int* c = tp.c;
    // eta_mu = (-1)^(x_0 + ... + x_{mu-1}) with global coordinates (origin_parity adds the
    // origin's part); x_0's parity is o for the whole tile (and its partner: T/2 is even).
    bool eta_neg[4];
    eta_neg[0] = (origin_parity[0] & 1) != 0;
    eta_neg[1] = ((o + origin_parity[1]) & 1) != 0;
    eta_neg[2] = ((o + c[1] + origin_parity[2]) & 1) != 0;
    eta_neg[3] = ((o + c[1] + c[2] + origin_parity[3]) & 1) != 0;
    const Sites s0 = Sites::of(parity * half + tp.i0, parity * half + tb.i0);  // eo index of each group's lane 0

    C af[3], al[3];
    for (int cc = 0; cc < 3; ++cc) af[cc] = al[cc] = {V{}, V{}};
    if (pass != 2) all_hops<1, FNR>(af, fat, fat_back, s0, tp, tb, eta_neg);
    if constexpr (kImproved)
      if (pass != 1) all_hops<3, LNR>(al, lng, long_back, s0, tp, tb, eta_neg);

    const Ptr<St> po = vec_tile(out, s0 - out_shift);
    const V cf = S::splat(c_fat);
    double dot = 0.0;
    using VD = typename VecOf<double, W>::type;
    VD dv{};
    V xs{};  // half: x's norms / 32767
    if constexpr (kHalf && HasX) xs = S::load(x_norm + (s0.a - x_shift)) * S::splat(T(1) / kHalfMax);
    V res[6];
    for (int cc = 0; cc < 3; ++cc) {
      V re, im;
      if (!kHalf && pass == 2) {  // (half runs one pass)
        re = load(Ptr<const St>{po.a, po.b} + (2 * cc) * kT);
        im = load(Ptr<const St>{po.a, po.b} + (2 * cc + 1) * kT);
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
        const Ptr<const St> px = vec_tile(x, s0 - x_shift);
        const V bv = S::splat(beta);
        V xr = load(px + (2 * cc) * kT), xi = load(px + (2 * cc + 1) * kT);
        if constexpr (kHalf) xr *= xs, xi *= xs;
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
      res[2 * cc] = re;
      res[2 * cc + 1] = im;
    }
    store_out(po, s0, res);
    if constexpr (Dot)
      for (int i = 0; i < W; ++i) dot += dv[i];
    return dot;
  }

  // The 6 reals v of the W sites from eo sites s0 into out (tiles po; half: with the sites'
  // norms, store_half).
  GLUON_SIMD_INLINE void store_out(Ptr<St> po, Sites s0, const V v[6]) const {
    if constexpr (kHalf) {
      S::template store_half<6>(po.a, out_norm + (s0.a - out_shift), v, stream_out);
    } else if constexpr (Pair) {
      for (int r = 0; r < 6; ++r) S::store2(po.a + r * kT, po.b + r * kT, v[r], stream_out);
    } else {
      for (int r = 0; r < 6; ++r) S::store(po.a + r * kT, v[r], stream_out);
    }
  }
};

template <class T, class St, int FNR, int LNR, bool HasX, bool Dot, int L, bool Pair>
void launch(const StaggeredSimdArgs& a) {
  using K = StaggeredKernel<T, St, FNR, LNR, HasX, Dot, L, Pair>;
  K k;
  k.fat = static_cast<const St*>(a.fat);
  k.lng = static_cast<const St*>(a.lng);
  k.fat_back = static_cast<const St*>(a.fat_back);
  k.long_back = static_cast<const St*>(a.long_back);
  k.out = static_cast<St*>(a.out);
  k.in = static_cast<const St*>(a.in);
  k.x = static_cast<const St*>(a.x);
  k.out_norm = a.out_norm;
  k.in_norm = a.in_norm;
  k.x_norm = a.x_norm;
  for (int mu = 0; mu < 4; ++mu) {
    k.dims[mu] = a.dims[mu];
    k.origin_parity[mu] = a.origin_parity[mu];
    k.antiperiodic[mu] = a.antiperiodic[mu];
    k.cut[mu] = a.cut[mu];
  }
  k.parity = a.parity;
  k.half = a.half;
  k.out_shift = a.out_shift;
  k.in_shift = a.in_shift;
  k.x_shift = a.x_shift;
  k.c_fat = static_cast<T>(a.c_fat);
  k.c_long = static_cast<T>(a.c_long);
  k.beta = static_cast<T>(a.beta);
  k.prefetch_mode = a.prefetch;
  const std::int64_t tiles = a.half / L;  // tasks (Pair: the groups of t < T/2, each with its partner)
  k.pair_groups = Pair ? tiles : 0;
  const std::int64_t chunks = (tiles + kStaggeredDotChunk - 1) / kStaggeredDotChunk;
  // Tiles prefetched ahead: 1, 2, 4 and 8, into L1 or L2, measured alike on the 2-core VM (the
  // Wilson kernel's best was 2); leaving out the tile's own links (one sequential stream) was
  // 8-13% (improved) and 26-61% (naive) slower. (Measured before the backward links were stored
  // at the tile.)
  constexpr std::int64_t ahead = 2;
  // Improved: the one-hop term first, then the three-hop term added to out. Each pass reads
  // about half the streams, which the prefetchers keep up with: median +3% (double r18) and
  // +36% (single r12) on the 2-core VM, for 2 more vector passes (out read and written again).
  // Not in half, where out between the passes would be rounded to half.
  const bool two = LNR != 0 && sizeof(St) != 2;
#pragma omp parallel
  for (int pass = two ? 1 : 0; pass <= (two ? 2 : 0); ++pass) {
    auto kp = k;
    kp.pass = pass;
    // One-pass kernels only: the second pass reads out back (so its lines are in the cache).
    kp.stream_out = a.stream_out && pass == 0;
#pragma omp for schedule(static)
    for (std::int64_t ch = 0; ch < chunks; ++ch) {
      const std::int64_t t0 = ch * kStaggeredDotChunk;
      const std::int64_t t1 = t0 + kStaggeredDotChunk < tiles ? t0 + kStaggeredDotChunk : tiles;
      double sum = 0.0;
      for (std::int64_t t = t0; t < t1; ++t) {
        if (t + ahead < tiles) kp.prefetch(t + ahead);
        sum += kp.run_tile(t);
      }
      if (kp.stream_out) stream_fence();
      if constexpr (Dot)
        if (pass != 1) a.dot_partials[ch] = sum;
    }
  }
}

template <class T, class St, int FNR, int LNR, int L, bool Pair>
void launch_pairs(const StaggeredSimdArgs& a) {
  if (!a.x) return launch<T, St, FNR, LNR, false, false, L, Pair>(a);
  if (a.dot_partials) return launch<T, St, FNR, LNR, true, true, L, Pair>(a);
  launch<T, St, FNR, LNR, true, false, L, Pair>(a);
}

// Half-tile pairs where asked for (StaggeredSimdArgs::tile_pairs) and possible: half tiles in
// single precision, T a multiple of 4.
template <class T, class St, int FNR, int LNR, int L>
void launch_x(const StaggeredSimdArgs& a) {
  if constexpr (L < kTileSites && sizeof(St) == 4 && sizeof(T) == 4) {
    if (a.tile_pairs && a.dims[3] % 4 == 0) return launch_pairs<T, St, FNR, LNR, 2 * L, true>(a);
  }
  launch_pairs<T, St, FNR, LNR, L, false>(a);
}

// Computed in T, stored as St (T, or int16_t for half with T = float); the fat links of Links
// (r8 only naive; else false), as wilson_simd_impl.h's run; in half-tile tasks where HalfTiles.
// X/2 must be a multiple of a task's sites (kStaggeredLanes).
template <class T, class St = T, LinkSet Links = LinkSet::all, bool HalfTiles = false>
bool run(const StaggeredSimdArgs& a) {
  constexpr int L = kStaggeredLanes(HalfTiles);
  if ((a.dot_partials && !a.x) || !a.fat_back || (a.lng && !a.long_back)) return false;
  if ((a.dims[0] / 2) % L != 0) return false;
  if constexpr (sizeof(St) == 2) {
    if (!a.out_norm || !a.in_norm || (a.x && !a.x_norm)) return false;
  }
  if constexpr (Links != LinkSet::r8) {
    if (a.lng) {
      if (a.fat_nreals == 18 && a.long_nreals == 18) return launch_x<T, St, 18, 18, L>(a), true;
      if (a.fat_nreals == 18 && a.long_nreals == 12) return launch_x<T, St, 18, 12, L>(a), true;
      return false;
    }
    if (a.fat_nreals == 18) return launch_x<T, St, 18, 0, L>(a), true;
    if (a.fat_nreals == 12) return launch_x<T, St, 12, 0, L>(a), true;
  }
  if constexpr (Links != LinkSet::not_r8) {
    if (!a.lng && a.fat_nreals == 8) return launch_x<T, St, 8, 0, L>(a), true;
  }
  return false;
}

}  // namespace
}  // namespace gluon::qcd::detail

#endif  // GLUON_CPU_SIMD
