#pragma once
// Private: the Wilson dslash vectorised across W sites of one x-row (wilson_simd.h), included only
// by the wilson_simd_*_{avx512,avx2}.cpp files. Everything here has internal linkage and
// includes no library header (wilson_simd_kernel.h says why).
//
// Data (FieldOrder::tiled, field_layout.h): real r of object obj at site s is at
// ((s / 8) * nobj * nreals + obj * nreals + r) * 8 + s % 8 (tiles of kT = 8 sites), so real r of
// 8 consecutive sites is one aligned vector load: 512 bits of doubles, 256 bits of floats. One
// task is W output sites, a whole tile (W = 8) or, in double without AVX-512, half a tile (W = 4,
// 256 bits; kWilsonLanes says why), or in single and half two tiles (W = 16, Pair: see Kernel),
// or in any precision half a tile where X/2 = 4 mod 8 (Tasks::half_tile);
// below, "tile" means the kStep sites of one lane group (the whole task but with Pair). They lie in one x-row
// (fixed y, z, t) because X/2 is a multiple of kStep. With x = 2k + o in the row (o = (p + y + z + t)
// % 2 for output parity p), the y/z/t neighbours of the tile are a whole tile of the neighbouring row
// (same k), and the x neighbours are the same tile (x+1 when o = 0, x-1 when o = 1) or the tile
// shifted by one site, taking one site from the next (previous) tile of the row, which wraps to
// the row's first (last) tile at the row's end: two loads and one lane shift (valign). Links:
// the 4 forward ones at the tile in u, the 4 backward ones U_mu(x - mu) stored at the tile in
// u_back (cpu_simd.h's backward_links), so a tile reads two contiguous link streams.
//
// Half precision (St = int16_t, computed in float as the scalar kernel does; precision.h): the
// spin projection adds the stored integers as 32-bit integers (exact) and converts the half
// spinor h; the links are used as stored (32767 times the entries; a rebuilt r12 row 2 is
// 32767^2 times, and loses one factor where it is used); each h is scaled by its site's
// norm / 32767^2 (a lane vector of norms, shifted with the spinor in x), which also takes the
// link's factor out, together with the boundary phase and the kernel's factor a (kFoldA: no 24
// multiplies at the end; r8 links are rebuilt at their value, from slots scaled as cpu_simd_r8.h
// says, and h takes norm / 32767). The output site's norm is its largest
// |real| (NaN kept), as spinor_accessor.h stores it. The products round differently from the
// scalar kernel's (which scales each real where it is read), within single precision.
//
// The spin algebra is that of wilson_dslash_impl.h (spin projection to two colour vectors, link
// product, reconstruction; DeGrand-Rossi gamma_entry table), with dagger compile-time here, so
// the signs are adds and subtracts. Conventions: dirac.h.
#include <omp.h>  // declarations only

#include <cstdint>

#include "cpu_simd_r8.h"
#include "cpu_simd_vector.h"
#include "wilson_simd_kernel.h"

#if defined(GLUON_CPU_SIMD)

namespace gluon::qcd::detail {
namespace {

// The gamma matrices' rows as (column, power of i): gamma.h's gamma_entry, repeated here
// because gamma.h pulls in library headers (see above); test_wilson_simd compares both paths.
struct Entry {
  int col, phase;
};
constexpr Entry kGamma[4][4] = {
    {{3, 1}, {2, 1}, {1, 3}, {0, 3}},  // g1
    {{3, 2}, {2, 0}, {1, 0}, {0, 2}},  // g2
    {{2, 1}, {3, 3}, {0, 3}, {1, 1}},  // g3
    {{2, 0}, {3, 0}, {0, 0}, {1, 0}},  // g4
};

// Epilogues (wilson_internal.h's DslashFuse): out = a D in (+ x), a C D in (+ x), C x + a D in.
enum Fuse : int { kPlain = 0, kClover = 1, kCloverOnX = 2 };
// The epilogues one file's instantiation of the kernel takes (run's Fuses): every one, the plain
// hop only, or the two clover ones only. Single and half take the clover ones in files of their
// own (wilson_simd_{single,half}_clover_*.cpp): with every epilogue, a single or half file took
// 2-5 minutes to compile on the development VM, the longest step of a build.
enum class FuseSet { all, plain, clover };

// Sites a task: a whole tile, except in double without AVX-512. There the 8 doubles of a tile
// would take two of AVX2's 16 registers a vector, and the accumulator alone (24 vectors) would
// live on the stack; a task is half a tile, 4 doubles a register (measured on an AVX2 Zen 3:
// bench/results/2026-11-25-cpu-avx2/).
#if defined(__AVX512F__)
template <class T> inline constexpr int kWilsonLanes = kTileSites;
#else
template <class T> inline constexpr int kWilsonLanes = sizeof(T) == 8 ? 4 : kTileSites;
#endif

// How a task's lanes cover the sites (Kernel's Shape): one tile (kWilsonLanes sites), a tile pair
// (Pair, below), or half a tile in either precision (4 lanes), for lattices whose x-rows hold
// X/2 = 4 mod 8 sites (X = 24, 40, 56, ...: no whole number of tiles, so a tile may straddle two
// rows, while every half tile lies in one), or in single and half a pair of half tiles (8
// floats: a half tile and its partner T/2 on, as Pair pairs tiles). Half-tile tasks are built for
// x86-64-v3 only (wilson_simd_*_narrow_avx2.cpp): 4 and 8 floats fill an SSE and an AVX register.
enum class Tasks { tile, pair, half_tile, half_tile_pair };

// One thread's order of tasks: its rows r = y + Y z in [q0, q1), in blocks of `by` values of y
// (all of its z; by = Y: one block), each block swept over the nt time slices: for each t, its
// rows in increasing r and each row's ntx tasks. task() is the task's index in the launch's order
// ((r + yz t) ntx + x); next() steps on, and valid turns false after the last task.
struct SweepOrder {
  std::int64_t q0, q1, Y, by, nt, ntx, yz;
  std::int64_t z_lo, z_hi;    // the z of q0 and of q1 - 1
  std::int64_t yb = 0, t = 0, z = 0, y = 0, x = 0;  // block's first y, slice, row, task in the row
  bool valid;
  SweepOrder(std::int64_t q0_, std::int64_t q1_, std::int64_t Y_, std::int64_t by_, std::int64_t nt_, std::int64_t ntx_,
             std::int64_t yz_)
      : q0(q0_), q1(q1_), Y(Y_), by(by_), nt(nt_), ntx(ntx_), yz(yz_), z_lo(q0_ / Y_), z_hi((q1_ - 1) / Y_),
        valid(q1_ > q0_ && nt_ > 0 && ntx_ > 0) {
    z = z_lo;
    y = 0;
    if (valid && !in_range()) next_row();
  }
  std::int64_t task() const { return (z * Y + y + yz * t) * ntx + x; }
  bool in_range() const {
    const std::int64_t r = z * Y + y;
    return r >= q0 && r < q1;
  }
  // The next row of the thread's range in the order (or the end).
  void next_row() {
    do {
      if (++y < (yb + by < Y ? yb + by : Y)) continue;
      y = yb;
      if (++z <= z_hi) continue;
      z = z_lo;
      if (++t < nt) continue;
      t = 0;
      yb += by;
      if (yb >= Y) {
        valid = false;
        return;
      }
      y = yb;
    } while (!in_range());
  }
  void next() {
    if (!valid) return;
    if (++x < ntx) return;
    x = 0;
    next_row();
  }
};

// Tile pairs (Pair): in single and half precision a task may take two tiles, lanes 0-7 a tile at
// time slice t < T/2 and lanes 8-15 the tile at the same x, y, z and t + T/2, 16 floats a vector:
// one zmm register with AVX-512, where a tile alone fills only a ymm one, so each instruction
// does the work of two. With T a multiple of 4 the two tiles have the same x parity o, so every
// lane follows the same path; their neighbours are the partner's neighbours T/2 slices on, except
// in t, where one of the two wraps around the lattice. The loads and stores take each tile's
// half of a vector from its own address (Simd's load2, store2).
//
// One launch: storage St (T, or int16_t with T = float: half), output parity, dagger, link
// compression, epilogue and tile pairs fixed.
template <class T, Tasks Shape>
inline constexpr int kTaskLanes = Shape == Tasks::pair             ? 2 * kTileSites
                                  : Shape == Tasks::half_tile_pair ? kTileSites
                                  : Shape == Tasks::half_tile      ? kTileSites / 2
                                                                   : kWilsonLanes<T>;
template <class T, class St, int NR, bool Dagger, bool HasX, int F, Tasks Shape = Tasks::tile>
struct Kernel : LaneGroups<T, kTaskLanes<T, Shape>, Shape == Tasks::pair || Shape == Tasks::half_tile_pair> {
  static constexpr bool Pair = Shape == Tasks::pair || Shape == Tasks::half_tile_pair;  // two lane groups
  static_assert(!Pair || sizeof(T) == 4, "tile pairs: 16 floats a vector, half-tile pairs 8");
  using G = LaneGroups<T, kTaskLanes<T, Shape>, Pair>;
  using S = typename G::S;
  using V = typename S::V;
  using C = typename S::C;
  using CI = typename S::CI;
  using VI = typename S::VI;
  static constexpr int W = S::W;          // sites a task (lanes)
  static constexpr int kT = kTileSites;   // sites a tile of the memory layout
  using G::kStep;    // sites of one x-row a lane group covers: W, or with Pair W / 2
  using G::kGroups;  // 2 with Pair, else 1
  using typename G::Sites;
  template <class P>
  using Ptr = typename G::template Ptr<P>;
  using G::load;
  static GLUON_SIMD_INLINE VI load_int(Ptr<const St> p) {
    if constexpr (Pair) return S::load_int2(p.a, p.b);
    else return S::load_int(p.a);
  }
  // Lane l gets x where its group's `on` is set, else 1.
  static GLUON_SIMD_INLINE V group_splat(bool on_a, bool on_b, T x) {
    return G::per_group(on_a ? x : T(1), on_b ? x : T(1));
  }
  // The x neighbours within each group: [a_{s-1}, b_0 .. b_{s-2}] (down) and [a_1 .. a_{s-1}, b_0]
  // (up), s = kStep, per group (Simd's shift_down and shift_up, on 8-lane halves with Pair).
  template <class Vec>
  static GLUON_SIMD_INLINE Vec shift_down(Vec a, Vec b) {
    if constexpr (Pair && W == 16) return __builtin_shufflevector(a, b, 7, 16, 17, 18, 19, 20, 21, 22, 15, 24, 25, 26, 27, 28, 29, 30);
    else if constexpr (Pair) return __builtin_shufflevector(a, b, 3, 8, 9, 10, 7, 12, 13, 14);
    else return S::shift_down(a, b);
  }
  template <class Vec>
  static GLUON_SIMD_INLINE Vec shift_up(Vec a, Vec b) {
    if constexpr (Pair && W == 16) return __builtin_shufflevector(a, b, 1, 2, 3, 4, 5, 6, 7, 16, 9, 10, 11, 12, 13, 14, 15, 24);
    else if constexpr (Pair) return __builtin_shufflevector(a, b, 1, 2, 3, 8, 5, 6, 7, 12);
    else return S::shift_up(a, b);
  }
  static constexpr bool kHalf = sizeof(St) == 2;
  static constexpr T kHalfMax = T(32767);
  // Half: r18 and r12 links are used as stored (integers 32767 times the entries), so each hop's
  // spinor carries both factors 1/32767: its norm / 32767 and the link's 1/32767. r8 links are
  // rebuilt at their value (cpu_simd_r8.h): the norm / 32767 only.
  static constexpr T kHalfHop = NR == 8 ? T(1) / kHalfMax : T(1) / (kHalfMax * kHalfMax);
  // Half scales every hop by its neighbours' norms (in_scale), and a goes into that scale; elsewhere
  // a hop is scaled only where it wraps, and a multiplies the sums at the end.
  static constexpr bool kFoldA = kHalf;
  // Forward hop projector 1 - g_mu (D) or 1 + g_mu (D^dagger); backward the other.
  static constexpr int kFwd = Dagger ? 1 : -1;

  const St* u;
  const St* u_back;  // u_back(x, mu) = u(x - mu, mu), the same layout
  St* out;
  const St* in;
  const St* x;
  const St* clov;  // tiled clover field: 2 chiral blocks of 36 reals a site
  // Half only: per-site norms of out, in, x (index: the field's site) and of the clover blocks
  // (index 2 s + block).
  float* out_norm;
  const float* in_norm;
  const float* x_norm;
  const float* clov_norm;
  bool stream_out;  // out written with non-temporal stores (WilsonSimdArgs::stream_out)
  int prefetch_mode;  // CpuPrefetch (WilsonSimdArgs::prefetch)
  bool prefetch_l2;  // into L2 only (WilsonSimdArgs::prefetch_l2)
  std::int64_t pair_tiles;  // Pair: tiles from a task's first tile to its partner (T/2 slices)
  int dims[4];
  int parity;
  std::int64_t half;
  std::int64_t out_shift, in_shift, x_shift;
  T a;
  T phase_f[4], phase_b[4];


  // Where site s (the first of a lane group's sites) lies in its tile: 0 for whole-tile groups
  // (the compiler cannot know that s is a multiple of kT there).
  static GLUON_SIMD_INLINE std::int64_t lane_offset(std::int64_t s) {
    if constexpr (kStep == kT) return 0;
    else return s % kT;
  }
  // Real 0 of site s (the first of a lane group's sites) of spinor field f: real r is r kT further.
  template <class P>
  static GLUON_SIMD_INLINE P* spinor_tile(P* f, std::int64_t s) {
    if constexpr (kStep == kT) return f + s * 24;  // (s / kT) * 24 kT
    else return f + (s / kT) * (24 * kT) + lane_offset(s);
  }
  template <class P>
  static GLUON_SIMD_INLINE Ptr<P> spinor_tile(P* f, Sites s) {
    return {spinor_tile(f, s.a), spinor_tile(f, s.b)};
  }
  // Real r of colour component (spin sp, colour c) in a spinor: (sp * 3 + c) * 2 + re/im. Half:
  // the stored integers as integer lanes (CI; project adds them before converting, the hop's
  // scale comes after).
  static GLUON_SIMD_INLINE auto load_c(Ptr<const St> tile, int sp, int c) {
    const Ptr<const St> p = tile + ((sp * 3 + c) * 2) * kT;
    if constexpr (kHalf) return CI{load_int(p), load_int(p + kT)};
    else return C{load(p), load(p + kT)};
  }
  // Half: the norms of the W sites of `in` from sites s times kHalfHop (the spinor's and the
  // link's 1/32767) and a (kFoldA); else unused.
  GLUON_SIMD_INLINE V in_scale(Sites s) const {
    if constexpr (kHalf) return load(Ptr<const float>{in_norm + (s.a - in_shift), in_norm + (s.b - in_shift)}) * S::splat(kHalfHop * a);
    else return V{};
  }
  // Real 0 of the link of direction mu at sites s of the links f (u or u_back); real r is r kT
  // further.
  static GLUON_SIMD_INLINE Ptr<const St> link_tile(const St* f, Sites s, int mu) {
    return {f + (s.a / kT) * (4 * NR * kT) + mu * NR * kT + lane_offset(s.a),
            f + (s.b / kT) * (4 * NR * kT) + mu * NR * kT + lane_offset(s.b)};
  }
  // Half: the stored integer (kHalfHop in the hop's scale has its 1/32767).
  static GLUON_SIMD_INLINE V link_real(Ptr<const St> p) { return load(p); }
  // Whether a hop's half spinor is scaled, and by what (sc): the boundary phase ph where the hop
  // wraps; in half also the neighbours' norms times kHalfHop (nrm, in_scale), on every hop.
  static GLUON_SIMD_INLINE bool hop_scale(bool wrap, V ph, V nrm, V& sc) {
    if constexpr (kHalf) {
      sc = wrap ? nrm * ph : nrm;
      return true;
    } else {
      sc = ph;
      return wrap;
    }
  }

  // Half spinor h = rows 0, 1 of (1 + sgn g_mu) psi, psi read through `get(sp, c)` (half: on
  // the integers, exact, then converted).
  template <int mu, int sgn, class Get>
  static GLUON_SIMD_INLINE void project(const Get& get, C h[2][3]) {
    constexpr Entry e0 = kGamma[mu][0], e1 = kGamma[mu][1];
    for (int c = 0; c < 3; ++c) {
      const auto g0 = S::ipow(get(e0.col, c), e0.phase);
      const auto g1 = S::ipow(get(e1.col, c), e1.phase);
      h[0][c] = S::real(sgn > 0 ? S::add(get(0, c), g0) : S::sub(get(0, c), g0));
      h[1][c] = S::real(sgn > 0 ? S::add(get(1, c), g1) : S::sub(get(1, c), g1));
    }
  }
  // The link of W sites, element (i, j), read through `get(r)` (real r of the stored link).
  template <class Get>
  static GLUON_SIMD_INLINE void load_link(const Get& get, C m[3][3]) {
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) m[i][j] = {get(2 * (3 * i + j)), get(2 * (3 * i + j) + 1)};
    if constexpr (NR == 18) {
      for (int j = 0; j < 3; ++j) m[2][j] = {get(12 + 2 * j), get(13 + 2 * j)};
    } else {  // row 2 = conj(row 0 x row 1)
      for (int j = 0; j < 3; ++j) {
        const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
        const C x = S::mul_sub(m[0][j1], m[1][j2], m[0][j2], m[1][j1]);
        m[2][j] = {x.re, -x.im};
      }
    }
  }
  // acc += the 4-spinor rebuilt from t = U h (Adj: U^dagger h), one colour of t at a time, with
  // the link's elements read through `u(i, j)` where they are used: only 4 complex numbers of t
  // and one link element live at once, besides acc and h (acc's 24 vectors alone fill most of
  // the 32 registers; the whole link and t on top spilled a quarter of the instructions).
  // Row2Big: the link's row 2 is 32767 times too large (half r12: rebuilt from the stored
  // integers), taken out of the 2 colour components it meets (h's colour 2 for U^dagger, t's
  // row 2 for U): 4 multiplies where scaling the row would take 6.
  template <int mu, int sgn, bool Adj, bool Row2Big = false, class Elem>
  static GLUON_SIMD_INLINE void transport_add(C acc[4][3], const Elem& u, C h[2][3]) {
    constexpr Entry e2 = kGamma[mu][2], e3 = kGamma[mu][3];
    static_assert(e2.col < 2 && e3.col < 2, "g_mu must map rows 2, 3 onto rows 0, 1");
    const V inv = S::splat(T(1) / kHalfMax);
    if constexpr (Row2Big && Adj)
      for (int k = 0; k < 2; ++k) h[k][2] = {h[k][2].re * inv, h[k][2].im * inv};
    for (int i = 0; i < 3; ++i) {
      C t[2];
      for (int j = 0; j < 3; ++j) {
        const C e = Adj ? u(j, i) : u(i, j);
        for (int k = 0; k < 2; ++k) {
          if (j == 0) t[k] = Adj ? S::conj_mul(e, h[k][j]) : S::mul(e, h[k][j]);
          else t[k] = Adj ? S::conj_mul_add(e, h[k][j], t[k]) : S::mul_add(e, h[k][j], t[k]);
        }
      }
      if constexpr (Row2Big && !Adj)
        if (i == 2)
          for (int k = 0; k < 2; ++k) t[k] = {t[k].re * inv, t[k].im * inv};
      acc[0][i] = S::add(acc[0][i], t[0]);
      acc[1][i] = S::add(acc[1][i], t[1]);
      const C r2 = S::ipow(t[e2.col], e2.phase), r3 = S::ipow(t[e3.col], e3.phase);
      acc[2][i] = sgn > 0 ? S::add(acc[2][i], r2) : S::sub(acc[2][i], r2);
      acc[3][i] = sgn > 0 ? S::add(acc[3][i], r3) : S::sub(acc[3][i], r3);
    }
  }
  // U h (Adj: U^dagger h) added to acc through transport_add, the link read through get(r): r18
  // element by element where used; r12 rows 0, 1 first, row 2 rebuilt from them; r8 rebuilt
  // whole first, here, or (kPairR8) with the direction's other link before both hops
  // (r8[3][3], rebuild_r8).
  template <int mu, int sgn, bool Adj, class Get>
  static GLUON_SIMD_INLINE void link_add(C acc[4][3], const Get& get, C h[2][3], const C (*r8)[3]) {
    if constexpr (NR == 18) {
      transport_add<mu, sgn, Adj>(
          acc, [&](int i, int j) { return C{get(2 * (3 * i + j)), get(2 * (3 * i + j) + 1)}; }, h);
    } else if constexpr (NR == 8 && kPairR8) {
      transport_add<mu, sgn, Adj>(acc, [&](int i, int j) { return r8[i][j]; }, h);
    } else if constexpr (NR == 8) {
      C m[3][3];
      SimdR8<T, W>::template unpack<kHalf>(get, m);
      transport_add<mu, sgn, Adj>(acc, [&](int i, int j) { return m[i][j]; }, h);
    } else {
      C m[3][3];
      load_link(get, m);
      transport_add<mu, sgn, Adj, kHalf>(acc, [&](int i, int j) { return m[i][j]; }, h);
    }
  }
  static GLUON_SIMD_INLINE void scale(C h[2][3], V ph) {
    for (int k = 0; k < 2; ++k)
      for (int c = 0; c < 3; ++c) h[k][c] = {h[k][c].re * ph, h[k][c].im * ph};
  }

  // r8 links of one direction rebuilt two at a time (SimdR8Pair: one 512-bit vector in single
  // with AVX-512); elsewhere each just before its hop, so that one rebuilt link is live at a time.
  static constexpr bool kPairR8 = SimdR8Pair<T, W>::kTogether;
  // The r8 links of direction mu at the W sites from s0: forward (u) and backward (u_back), rebuilt
  // together. Not kPairR8: nothing.
  template <int mu>
  GLUON_SIMD_INLINE void rebuild_r8(Sites s0, C fwd[3][3], C bwd[3][3]) const {
    if constexpr (NR == 8 && kPairR8) {
      const Ptr<const St> lf = link_tile(u, s0, mu);
      const Ptr<const St> lb = link_tile(u_back, s0, mu);
      SimdR8Pair<T, W>::template unpack<kHalf>([&](int r) { return link_real(lf + r * kT); },
                                              [&](int r) { return link_real(lb + r * kT); }, fwd, bwd);
    }
  }

  // Forward hop of direction mu: the neighbours' spinors through `get`, h scaled by sc where
  // `scaled` (hop_scale), the links at the tile (r8: rebuilt, rebuild_r8).
  template <int mu, class Get>
  GLUON_SIMD_INLINE void forward(C acc[4][3], Sites s0, const Get& get, bool scaled,
                                                     V sc, const C (*r8)[3]) const {
    C h[2][3];
    project<mu, kFwd>(get, h);
    if (scaled) scale(h, sc);
    const Ptr<const St> lt = link_tile(u, s0, mu);
    link_add<mu, kFwd, false>(acc, [&](int r) { return link_real(lt + r * kT); }, h, r8);
  }
  // Backward hop: the neighbours' spinors through getp, their links stored at the tile (u_back).
  template <int mu, class GetP>
  GLUON_SIMD_INLINE void backward(C acc[4][3], Sites s0, const GetP& getp, bool scaled,
                                                      V sc, const C (*r8)[3]) const {
    C h[2][3];
    project<mu, -kFwd>(getp, h);
    if (scaled) scale(h, sc);
    const Ptr<const St> lt = link_tile(u_back, s0, mu);
    link_add<mu, -kFwd, true>(acc, [&](int r) { return link_real(lt + r * kT); }, h, r8);
  }

  // Half: the clover blocks' scales bscale[b] of a task, from blocks(s, b0, b1), which gives
  // those of one group's sites from site s (a VG of kStep lanes); a pair's two groups joined.
  template <class VG, class Blocks>
  static GLUON_SIMD_INLINE void block_scales(Sites s0, const Blocks& blocks, V bscale[2]) {
    if constexpr (Pair) {
      VG a0, a1, b0, b1;
      blocks(s0.a, a0, a1);
      blocks(s0.b, b0, b1);
      bscale[0] = S::join(a0, b0);
      bscale[1] = S::join(a1, b1);
    } else {
      blocks(s0.a, bscale[0], bscale[1]);
    }
  }

  // v = C v at the W sites from s0 (clover_field.h: per chiral block b the 6 real diagonal
  // entries, then the 15 complex entries below the diagonal, row by row).
  // Half: C = the stored integers times the block's norm / 32767, applied to w first.
  GLUON_SIMD_INLINE void apply_clover(Sites s0, C v[4][3]) const {
    const Ptr<const St> ct{clov + (s0.a / kT) * (72 * kT) + lane_offset(s0.a),
                           clov + (s0.b / kT) * (72 * kT) + lane_offset(s0.b)};
    V bscale[2];
    if constexpr (kHalf && kStep < kT) {  // norms [2 s + b] of each group's 4 sites: 8 floats, split
      using S8 = Simd<T, kT>;
      using V4 = typename Simd<T, kStep>::V;
      auto blocks = [&](std::int64_t s, V4& b0, V4& b1) {
        const typename S8::V n = S8::load(clov_norm + 2 * s);
        b0 = __builtin_shufflevector(n, n, 0, 2, 4, 6) * (T(1) / kHalfMax);
        b1 = __builtin_shufflevector(n, n, 1, 3, 5, 7) * (T(1) / kHalfMax);
      };
      block_scales<V4>(s0, blocks, bscale);
    } else if constexpr (kHalf) {  // norms [2 s + b]: each tile's pairs, split into blocks 0 and 1
      using SH = Simd<T, kT>;
      using VH = typename SH::V;
      auto blocks = [&](std::int64_t s, VH& b0, VH& b1) {
        using M = typename SH::M;
        const VH n0 = SH::load(clov_norm + 2 * s), n1 = SH::load(clov_norm + 2 * s + kT);
        b0 = __builtin_shuffle(n0, n1, M{0, 2, 4, 6, 8, 10, 12, 14}) * SH::splat(T(1) / kHalfMax);
        b1 = __builtin_shuffle(n0, n1, M{1, 3, 5, 7, 9, 11, 13, 15}) * SH::splat(T(1) / kHalfMax);
      };
      block_scales<VH>(s0, blocks, bscale);
    }
    for (int b = 0; b < 2; ++b) {
      const Ptr<const St> cb = ct + b * 36 * kT;
      C w[6], o[6];
      for (int cc = 0; cc < 3; ++cc) w[cc] = v[2 * b][cc], w[3 + cc] = v[2 * b + 1][cc];
      if constexpr (kHalf)
        for (int i = 0; i < 6; ++i) w[i] = {w[i].re * bscale[b], w[i].im * bscale[b]};
      for (int i = 0; i < 6; ++i) {
        const V d = load(cb + i * kT);
        o[i] = {d * w[i].re, d * w[i].im};
      }
      for (int i = 1; i < 6; ++i)
        for (int j = 0; j < i; ++j) {
          const int k = i * (i - 1) / 2 + j;
          const C h = {load(cb + (6 + 2 * k) * kT), load(cb + (7 + 2 * k) * kT)};
          o[i] = S::mul_add(h, w[j], o[i]);
          o[j] = S::conj_mul_add(h, w[i], o[j]);
        }
      for (int cc = 0; cc < 3; ++cc) v[2 * b][cc] = o[cc], v[2 * b + 1][cc] = o[3 + cc];
    }
  }

  // Software prefetch (into L1; write hint for out unless it is streamed) of what tile `tile`
  // reads and writes, as prefetch_mode (CpuPrefetch, cpu_simd.h) says. By default (ahead) only
  // the input row at t + 1, which the thread's sweep meets for the first time, and out and x: the
  // other 6 input rows were read a tile row or a time slice before and are in L2 or L3, and the
  // links and the clover field run in long contiguous streams that the hardware prefetchers
  // follow. Prefetching every stream (all) issued about as many prefetches as loads; ahead was
  // 2-16% faster than it in 22 of 26 in-process comparisons on the Xeon host
  // (bench/results/2026-11-27-cpu-link-prefetch, trips 2-3).
  // Half-tile tasks: where X/2 is a multiple of kT, the first task of a tile prefetches the whole
  // tile (tp rounded down to it), the second nothing (the two are consecutive in every thread's
  // order); elsewhere (a tile may straddle two rows) each task prefetches from its own sites.
  // Tile pairs: both tiles.
  GLUON_SIMD_INLINE void prefetch(std::int64_t task) const {
    if (prefetch_mode == static_cast<int>(CpuPrefetch::none)) return;
    prefetch_tile(task);
    if constexpr (Pair) prefetch_tile(task + pair_tiles);
  }
  GLUON_SIMD_INLINE void prefetch_tile(std::int64_t tile) const {
    const bool row_tiles = kStep == kT || (dims[0] / 2) % kT == 0;
    if constexpr (kStep < kT)
      if (row_tiles && tile % (kT / kStep) != 0) return;
    constexpr int spinor_bytes = 24 * kT * sizeof(St);
    TilePos tp = tile_pos<kStep>(tile, dims, parity);
    if (row_tiles) {
      tp.i0 -= lane_offset(tp.i0);
      tp.k0 -= static_cast<int>(lane_offset(tp.k0));
    }
    const std::int64_t s0 = parity * half + tp.i0;
    const std::int64_t row0 = (1 - parity) * half + tp.k0;  // + row * Xh: the tile in that row
    if (prefetch_mode == static_cast<int>(CpuPrefetch::ahead)) {
      prefetch_in(row0 + neighbour_row(tp, 3, true) * tp.Xh);
    } else {
      prefetch_in(row0 + tp.row * tp.Xh);
      for (int mu = 1; mu < 4; ++mu) {
        prefetch_in(row0 + neighbour_row(tp, mu, true) * tp.Xh);
        prefetch_in(row0 + neighbour_row(tp, mu, false) * tp.Xh);
      }
    }
    const bool read_once = prefetch_mode == static_cast<int>(CpuPrefetch::all);  // links, clover
    if (read_once) {
      S::prefetch_bytes(link_tile(u, Sites{s0, s0}, 0).a, 4 * NR * kT * sizeof(St), false, prefetch_l2);
      S::prefetch_bytes(link_tile(u_back, Sites{s0, s0}, 0).a, 4 * NR * kT * sizeof(St), false, prefetch_l2);
    }
    if (!stream_out) S::prefetch_bytes(spinor_tile(out, s0 - out_shift), spinor_bytes, true, prefetch_l2);
    if constexpr (HasX) S::prefetch_bytes(spinor_tile(x, s0 - x_shift), spinor_bytes, false, prefetch_l2);
    if constexpr (F != kPlain)
      if (read_once) S::prefetch_bytes(clov + (s0 / kT) * (72 * kT), 72 * kT * sizeof(St), false, prefetch_l2);
    if constexpr (kHalf) {
      if (!stream_out) S::prefetch_bytes(out_norm + (s0 - out_shift), kT * sizeof(float), true, prefetch_l2);
      if constexpr (HasX) S::prefetch_bytes(x_norm + (s0 - x_shift), kT * sizeof(float), false, prefetch_l2);
      if constexpr (F != kPlain)
        if (read_once) S::prefetch_bytes(clov_norm + 2 * s0, 2 * kT * sizeof(float), false, prefetch_l2);
    }
  }
  GLUON_SIMD_INLINE void prefetch_in(std::int64_t s) const {
    S::prefetch_bytes(spinor_tile(in, s - in_shift), 24 * kT * sizeof(St), false, prefetch_l2);
    if constexpr (kHalf) S::prefetch_bytes(in_norm + (s - in_shift), kT * sizeof(float), false, prefetch_l2);
  }

  // The W sites of a spinor field f (norms fn) from sites s, decoded.
  GLUON_SIMD_INLINE void load_spinor(const St* f, const float* fn, Sites s, C v[4][3]) const {
    const Ptr<const St> p = spinor_tile(f, s);
    V sc{};
    if constexpr (kHalf) sc = load(Ptr<const float>{fn + s.a, fn + s.b}) * S::splat(T(1) / kHalfMax);
    for (int sp = 0; sp < 4; ++sp)
      for (int cc = 0; cc < 3; ++cc) {
        v[sp][cc] = S::real(load_c(p, sp, cc));
        if constexpr (kHalf) v[sp][cc] = {v[sp][cc].re * sc, v[sp][cc].im * sc};
      }
  }
  // Stores v at the W sites of out from eo site s0 (half: with the sites' norms, store_half).
  GLUON_SIMD_INLINE void store_out(Sites s0, const C v[4][3]) const {
    const Ptr<St> po = spinor_tile(out, s0 - out_shift);
    if constexpr (kHalf) {
      V r[24];
      for (int sp = 0; sp < 4; ++sp)
        for (int cc = 0; cc < 3; ++cc) r[(sp * 3 + cc) * 2] = v[sp][cc].re, r[(sp * 3 + cc) * 2 + 1] = v[sp][cc].im;
      float* na = out_norm + (s0.a - out_shift);
      if constexpr (Pair) S::template store_half2<24>(po.a, po.b, na, out_norm + (s0.b - out_shift), r, stream_out);
      else S::template store_half<24>(po.a, na, r, stream_out);
    } else {
      for (int sp = 0; sp < 4; ++sp)
        for (int cc = 0; cc < 3; ++cc) {
          const int r = (sp * 3 + cc) * 2;
          store(po + r * kT, v[sp][cc].re);
          store(po + (r + 1) * kT, v[sp][cc].im);
        }
    }
  }
  GLUON_SIMD_INLINE void store(Ptr<St> p, V v) const {
    if constexpr (Pair) S::store2(p.a, p.b, v, stream_out);
    else S::store(p.a, v, stream_out);
  }

  // The W output sites of task `task` of the output parity (Pair: tile `task` and its partner).
  GLUON_SIMD_INLINE void run_tile(std::int64_t task) const {
    const TilePos tp = tile_pos<kStep>(task, dims, parity);
    const TilePos tb = Pair ? tile_pos<kStep>(task + pair_tiles, dims, parity) : tp;
    const int Xh = tp.Xh, k0 = tp.k0, o = tp.o;  // the partner's too (T / 2 even)
    const Sites s0 = Sites::of(parity * half + tp.i0, parity * half + tb.i0);  // each group's lane 0
    const std::int64_t other = (1 - parity) * half;
    const Sites row0 = Sites::of(other + tp.row * Xh, other + tb.row * Xh);  // the neighbouring x-row

    C acc[4][3];
    for (int sp = 0; sp < 4; ++sp)
      for (int cc = 0; cc < 3; ++cc) acc[sp][cc] = {V{}, V{}};

    // x: aligned neighbours (same k) one way, shifted by one site the other way.
    if constexpr (kOneXBody) {
      hop_x(acc, s0, row0, Xh, k0, o);
    } else {
      C lf[3][3], lb[3][3];
      rebuild_r8<0>(s0, lf, lb);
      const Sites same = row0 + k0;
      const Ptr<const St> ps = spinor_tile(in, same - in_shift);
      auto get_same = [&](int sp, int cc) { return load_c(ps, sp, cc); };
      const V n_same = in_scale(same);
      V sc;
      if (o == 0) {
        const bool s_fwd = hop_scale(false, V{}, n_same, sc);
        forward<0>(acc, s0, get_same, s_fwd, sc, lf);
        // x - 1: sites k0 - 1 .. k0 + kStep - 2; a group's lane 0 from the previous tile (the
        // row's last at k0 = 0).
        const bool wrap = k0 == 0;
        const Sites prev = wrap ? row0 + (Xh - kStep) : same - kStep;
        const Ptr<const St> pp = spinor_tile(in, prev - in_shift);
        auto get_p = [&](int sp, int cc) {
          const auto a0 = load_c(pp, sp, cc), a1 = load_c(ps, sp, cc);
          return decltype(a0){shift_down(a0.re, a1.re), shift_down(a0.im, a1.im)};
        };
        V ph = S::splat(T(1));
        for (int g = 0; g < kGroups; ++g) ph[g * kStep] = phase_b[0];
        V n_prev{};
        if constexpr (kHalf) n_prev = shift_down(in_scale(prev), n_same);
        const bool s_bwd = hop_scale(wrap, ph, n_prev, sc);
        backward<0>(acc, s0, get_p, s_bwd, sc, lb);
      } else {
        // x + 1: sites k0 + 1 .. k0 + kStep; a group's last lane from the next tile (the row's
        // first at the end).
        const bool wrap = k0 + kStep == Xh;
        const Sites next = wrap ? row0 : same + kStep;
        const Ptr<const St> pn = spinor_tile(in, next - in_shift);
        auto get_n = [&](int sp, int cc) {
          const auto a0 = load_c(ps, sp, cc), a1 = load_c(pn, sp, cc);
          return decltype(a0){shift_up(a0.re, a1.re), shift_up(a0.im, a1.im)};
        };
        V ph = S::splat(T(1));
        for (int g = 0; g < kGroups; ++g) ph[g * kStep + kStep - 1] = phase_f[0];
        V n_next{};
        if constexpr (kHalf) n_next = shift_up(n_same, in_scale(next));
        const bool s_fwd = hop_scale(wrap, ph, n_next, sc);
        forward<0>(acc, s0, get_n, s_fwd, sc, lf);
        const bool s_bwd = hop_scale(false, V{}, n_same, sc);
        backward<0>(acc, s0, get_same, s_bwd, sc, lb);
      }
    }
    // y, z, t: whole tiles of the neighbouring rows.
    hop_row<1>(acc, s0, tp, tb);
    hop_row<2>(acc, s0, tp, tb);
    hop_row<3>(acc, s0, tp, tb);

    // a acc (kFoldA: acc, a being in every hop's scale already)
    const V av = S::splat(a);
    auto times_a = [&](const C& z) { return kFoldA ? z : C{av * z.re, av * z.im}; };
    if constexpr (F == kCloverOnX) {  // C x + a acc
      C xv[4][3];
      load_spinor(x, x_norm, s0 - x_shift, xv);
      apply_clover(s0, xv);
      for (int sp = 0; sp < 4; ++sp)
        for (int cc = 0; cc < 3; ++cc) acc[sp][cc] = S::add(xv[sp][cc], times_a(acc[sp][cc]));
      store_out(s0, acc);
      return;
    }
    if constexpr (F == kClover) apply_clover(s0, acc);
    if constexpr (HasX) {
      C xv[4][3];
      load_spinor(x, x_norm, s0 - x_shift, xv);
      for (int sp = 0; sp < 4; ++sp)
        for (int cc = 0; cc < 3; ++cc) acc[sp][cc] = S::add(xv[sp][cc], times_a(acc[sp][cc]));
    } else {
      for (int sp = 0; sp < 4; ++sp)
        for (int cc = 0; cc < 3; ++cc) acc[sp][cc] = times_a(acc[sp][cc]);
    }
    store_out(s0, acc);
  }

  // The x hops of a task written once for both x parities o of its row, where a permute of two
  // registers by an index register costs what a fixed one does (AVX-512: vpermt2ps/pd); run_tile
  // otherwise writes a pair of hops for each o, 2 hop bodies more. Each hop's input is the pair
  // (a0, a1) permuted by an index chosen by o: forward a0 the aligned tile and a1 the next (o = 1:
  // shift_up) or the aligned one again (o = 0: a0 as it is); backward a0 the previous (o = 0:
  // shift_down) or the aligned one (o = 1: a1 as it is), a1 the aligned one. The aligned hop
  // loads its tile twice, 24 loads and permutes a task more, for a body 10-16% smaller. Taken by
  // the Wilson half kernels only (plain and xpay; AVX-512): inside one process on the 16-core Xeon
  // host at 48^4 the half r12 hop ran 1.044x as fast (median of 8 rounds, 0.997-1.061) and half r8
  // 1.014x (0.993-1.033); clover half r12 1.012x and r8 1.000x (4 rounds each), single 0.992-0.996x,
  // double r8 0.969x (every round below 1), double r12 0.991x
  // (bench/results/2026-12-07-cpu-x-unified/xeon).
#if defined(__AVX512F__)
  static constexpr bool kOneXBody = kHalf && F == kPlain;
#else
  static constexpr bool kOneXBody = false;
#endif
  GLUON_SIMD_INLINE void hop_x(C acc[4][3], Sites s0, Sites row0, int Xh, int k0, int o) const {
    using M = typename S::M;
    C lf[3][3], lb[3][3];
    rebuild_r8<0>(s0, lf, lb);
    const bool up = o != 0;
    const bool wrap_f = up && k0 + kStep == Xh, wrap_b = !up && k0 == 0;
    const Sites same = row0 + k0;
    const Sites next = wrap_f ? row0 : same + kStep;
    const Sites prev = wrap_b ? row0 + (Xh - kStep) : same - kStep;
    const Ptr<const St> ps = spinor_tile(in, same - in_shift);
    const Ptr<const St> pf = up ? spinor_tile(in, next - in_shift) : ps;
    const Ptr<const St> pb = up ? ps : spinor_tile(in, prev - in_shift);
    M as_a0, as_a1, up_idx, down_idx;  // per group of kStep lanes
    for (int l = 0; l < W; ++l) {
      const int g = l / kStep, j = l % kStep;
      as_a0[l] = l;
      as_a1[l] = W + l;
      up_idx[l] = j == kStep - 1 ? W + g * kStep : l + 1;
      down_idx[l] = j == 0 ? g * kStep + kStep - 1 : W + l - 1;
    }
    const M idx_f = up ? up_idx : as_a0, idx_b = up ? as_a1 : down_idx;
    auto perm = [](auto a0, auto a1, M idx) { return __builtin_shuffle(a0, a1, idx); };
    auto get_f = [&](int sp, int cc) {
      const auto a0 = load_c(ps, sp, cc), a1 = load_c(pf, sp, cc);
      return decltype(a0){perm(a0.re, a1.re, idx_f), perm(a0.im, a1.im, idx_f)};
    };
    auto get_b = [&](int sp, int cc) {
      const auto a0 = load_c(pb, sp, cc), a1 = load_c(ps, sp, cc);
      return decltype(a0){perm(a0.re, a1.re, idx_b), perm(a0.im, a1.im, idx_b)};
    };
    V ph_f = S::splat(T(1)), ph_b = S::splat(T(1));  // the wrapping lanes' boundary phases
    for (int g = 0; g < kGroups; ++g) ph_f[g * kStep + kStep - 1] = phase_f[0], ph_b[g * kStep] = phase_b[0];
    V n_f{}, n_b{};
    if constexpr (kHalf) {
      const V n_same = in_scale(same);
      n_f = perm(n_same, up ? in_scale(next) : n_same, idx_f);
      n_b = perm(up ? n_same : in_scale(prev), n_same, idx_b);
    }
    V sc;
    const bool s_fwd = hop_scale(wrap_f, ph_f, n_f, sc);
    forward<0>(acc, s0, get_f, s_fwd, sc, lf);
    const bool s_bwd = hop_scale(wrap_b, ph_b, n_b, sc);
    backward<0>(acc, s0, get_b, s_bwd, sc, lb);
  }

  // The x-row one step forward (fwd) or backward along direction mu > 0 of the tile's row,
  // periodic in the lattice (the boundary phase is the caller's).
  GLUON_SIMD_INLINE std::int64_t neighbour_row(const TilePos& tp, int mu, bool fwd) const {
    std::int64_t rs = 1;  // row stride of direction mu
    for (int nu = 1; nu < mu; ++nu) rs *= dims[nu];
    const int L = dims[mu];
    if (fwd) return tp.c[mu] == L - 1 ? tp.row - (L - 1) * rs : tp.row + rs;
    return tp.c[mu] == 0 ? tp.row + (L - 1) * rs : tp.row - rs;
  }

  // Along y, z, t; tp and tb: the two tiles' positions (the same without Pair). With Pair only
  // t can wrap for one tile and not the other: the boundary phase goes to that tile's lanes.
  template <int mu>
  GLUON_SIMD_INLINE void hop_row(C acc[4][3], Sites s0, const TilePos& tp, const TilePos& tb) const {
    const std::int64_t row0 = (1 - parity) * half + tp.k0;
    V sc;
    C lf[3][3], lb[3][3];
    rebuild_r8<mu>(s0, lf, lb);
    {
      const Sites nb = Sites::of(row0 + neighbour_row(tp, mu, true) * tp.Xh, row0 + neighbour_row(tb, mu, true) * tp.Xh);
      const Ptr<const St> p = spinor_tile(in, nb - in_shift);
      const bool wa = tp.c[mu] == dims[mu] - 1, wb = Pair ? tb.c[mu] == dims[mu] - 1 : wa;
      const bool scaled = hop_scale(wa || wb, group_splat(wa, wb, phase_f[mu]), in_scale(nb), sc);
      forward<mu>(acc, s0, [&](int sp, int cc) { return load_c(p, sp, cc); }, scaled, sc, lf);
    }
    {
      const Sites nb = Sites::of(row0 + neighbour_row(tp, mu, false) * tp.Xh, row0 + neighbour_row(tb, mu, false) * tp.Xh);
      const Ptr<const St> p = spinor_tile(in, nb - in_shift);
      const bool wa = tp.c[mu] == 0, wb = Pair ? tb.c[mu] == 0 : wa;
      const bool scaled = hop_scale(wa || wb, group_splat(wa, wb, phase_b[mu]), in_scale(nb), sc);
      backward<mu>(acc, s0, [&](int sp, int cc) { return load_c(p, sp, cc); }, scaled, sc, lb);
    }
  }
};

template <class T, class St, int NR, bool Dagger, bool HasX, int F, Tasks Shape>
void launch(const WilsonSimdArgs& a) {
  using K = Kernel<T, St, NR, Dagger, HasX, F, Shape>;
  constexpr bool Pair = K::Pair;
  K k;
  k.u = static_cast<const St*>(a.u);
  k.u_back = static_cast<const St*>(a.u_back);
  k.out = static_cast<St*>(a.out);
  k.in = static_cast<const St*>(a.in);
  k.x = static_cast<const St*>(a.x);
  k.clov = static_cast<const St*>(a.clover);
  k.out_norm = a.out_norm;
  k.in_norm = a.in_norm;
  k.x_norm = a.x_norm;
  k.clov_norm = a.clover_norm;
  k.stream_out = a.stream_out && K::kStep == kTileSites;
  k.prefetch_mode = a.prefetch;
  k.prefetch_l2 = a.prefetch_l2;
  for (int mu = 0; mu < 4; ++mu) {
    k.dims[mu] = a.dims[mu];
    k.phase_f[mu] = static_cast<T>(a.phase_f[mu]);
    k.phase_b[mu] = static_cast<T>(a.phase_b[mu]);
  }
  k.parity = a.parity;
  k.half = a.half;
  k.out_shift = a.out_shift;
  k.in_shift = a.in_shift;
  k.x_shift = a.x_shift;
  k.a = static_cast<T>(a.a);
  // Order of the tiles: each thread takes a contiguous range of the Y Z x-rows of a time slice
  // and sweeps all T slices with it, so that the input rows it reads as t + 1 neighbours are
  // read again (as t, then t - 1 neighbours) while they are still in its L2 or the L3. In the
  // plain order (a thread a range of whole time slices) that reuse is a slice later, after more
  // data than the caches hold at 48^4: on the 16-core Xeon host the same volume with small time
  // slices (16^3 x 1296) ran 14-18% (double) and 10-14% (single) faster
  // (bench/results/2026-11-24-cpu-wilson-blocked). With block_rows = b > 0 the thread's rows are
  // swept over t in blocks of b values of y (all of its z), so that the rows a block reads
  // again at t + 1 and t + 2 are still in the core's own L2 (SweepOrder).
  // Tile pairs: the threads sweep the slices t < T/2, each task with its partner T/2 on.
  const int ntx = a.dims[0] / 2 / K::kStep;  // tasks per x-row
  const std::int64_t yz = static_cast<std::int64_t>(a.dims[1]) * a.dims[2];
  const int nt = Pair ? a.dims[3] / 2 : a.dims[3];
  k.pair_tiles = Pair ? nt * yz * ntx : 0;
  // Tiles prefetched ahead in the thread's order (WilsonSimdArgs::prefetch_distance, default 2):
  // 1, 2, 4 and 8 measured on the 2-core Zen 5 VM, 2 the best or equal; on the Xeon host 4 tiles
  // into L2 read 0.976-1.020 of 2 into L1 (bench/results/2026-11-27-cpu-prefetch-level).
  // (Half-tile tasks: as many tasks as make d tiles; tile pairs: d pairs.)
  const int ahead = a.prefetch_distance * kTileSites / K::kStep;
  const int by = a.block_rows > 0 && a.block_rows < a.dims[1] ? a.block_rows : a.dims[1];
#pragma omp parallel
  {
    const std::int64_t nth = omp_get_num_threads(), id = omp_get_thread_num();
    const std::int64_t q0 = yz * id / nth, q1 = yz * (id + 1) / nth;
    SweepOrder run(q0, q1, a.dims[1], by, nt, ntx, yz), lead = run;
    for (int i = 0; i < ahead; ++i) lead.next();
    for (; run.valid; run.next(), lead.next()) {
      if (lead.valid) k.prefetch(lead.task());
      k.run_tile(run.task());
    }
    if (k.stream_out) stream_fence();
  }
}

// a.fuse is one of Fuses (run checks).
template <class T, class St, int NR, bool Dagger, Tasks Shape, FuseSet Fuses>
void launch_fuse(const WilsonSimdArgs& a) {
  const bool x = a.x != nullptr;
  if constexpr (Fuses != FuseSet::clover) {
    if (a.fuse == kPlain)
      return x ? launch<T, St, NR, Dagger, true, kPlain, Shape>(a) : launch<T, St, NR, Dagger, false, kPlain, Shape>(a);
  }
  if constexpr (Fuses != FuseSet::plain) {
    if (a.fuse == kClover)
      return x ? launch<T, St, NR, Dagger, true, kClover, Shape>(a) : launch<T, St, NR, Dagger, false, kClover, Shape>(a);
    return launch<T, St, NR, Dagger, true, kCloverOnX, Shape>(a);
  }
}

// Tile pairs where asked for (WilsonSimdArgs::tile_pairs) and possible: computed in float, T a
// multiple of 4 (the partner T/2 slices on has the same x parity). Half-tile files: half tiles,
// or in float their pairs where tiles would pair.
template <class T, class St, int NR, FuseSet Fuses, bool HalfTiles>
void launch_recon(const WilsonSimdArgs& a) {
  constexpr Tasks one = HalfTiles ? Tasks::half_tile : Tasks::tile;
  constexpr Tasks two = HalfTiles ? Tasks::half_tile_pair : Tasks::pair;
  if constexpr (sizeof(T) == 4) {
    if (a.tile_pairs && a.dims[3] % 4 == 0) {
      if (a.dagger) launch_fuse<T, St, NR, true, two, Fuses>(a);
      else launch_fuse<T, St, NR, false, two, Fuses>(a);
      return;
    }
  }
  if (a.dagger) launch_fuse<T, St, NR, true, one, Fuses>(a);
  else launch_fuse<T, St, NR, false, one, Fuses>(a);
}

// Computed in T, stored as St (T, or int16_t for half with T = float); the links of Links and the
// epilogues of Fuses, in half-tile tasks where HalfTiles (else false). X/2 must be a multiple of
// the sites a task covers in a row: 4 for half tiles (and AVX2's double tiles), else 8.
template <class T, class St = T, LinkSet Links = LinkSet::all, FuseSet Fuses = FuseSet::all, bool HalfTiles = false>
bool run(const WilsonSimdArgs& a) {
  constexpr int row_step = HalfTiles ? kTileSites / 2 : kWilsonLanes<T>;
  if ((a.dims[0] / 2) % row_step != 0) return false;
  if (a.fuse < kPlain || a.fuse > kCloverOnX || (a.fuse != kPlain && !a.clover) || (a.fuse == kCloverOnX && !a.x))
    return false;
  if (Fuses == FuseSet::plain && a.fuse != kPlain) return false;
  if (Fuses == FuseSet::clover && a.fuse == kPlain) return false;
  if constexpr (sizeof(St) == 2) {
    if (!a.out_norm || !a.in_norm || (a.x && !a.x_norm) || (a.fuse != kPlain && !a.clover_norm)) return false;
  }
  if constexpr (Links != LinkSet::r8) {
    if (a.nreals == 18) return launch_recon<T, St, 18, Fuses, HalfTiles>(a), true;
    if (a.nreals == 12) return launch_recon<T, St, 12, Fuses, HalfTiles>(a), true;
  }
  if constexpr (Links != LinkSet::not_r8) {
    if (a.nreals == 8) return launch_recon<T, St, 8, Fuses, HalfTiles>(a), true;
  }
  return false;
}

}  // namespace
}  // namespace gluon::qcd::detail


#endif  // GLUON_CPU_SIMD
