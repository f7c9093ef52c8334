#pragma once
// Private: the Wilson dslash vectorised across W sites of one x-row (wilson_simd.h), included only
// by wilson_simd_{double,single}_avx512.cpp. Everything here has internal linkage and includes no
// library header (wilson_simd_kernel.h says why).
//
// Data (FieldOrder::tiled, field_layout.h): real r of object obj at site s is at
// ((s / W) * nobj * nreals + obj * nreals + r) * W + s % W (W = 8), so real r of W consecutive
// sites is one aligned vector load: 512 bits of doubles, 256 bits of floats. One task is one tile
// of W output sites: they lie in one x-row (fixed y, z, t) because X/2 is a multiple of W. With x = 2k + o in the row (o = (p + y + z + t) % 2
// for output parity p), the y/z/t neighbours of the tile are a whole tile of the neighbouring row
// (same k), and the x neighbours are the same tile (x+1 when o = 0, x-1 when o = 1) or the tile
// shifted by one site, taking one site from the next (previous) tile of the row, which wraps to
// the row's first (last) tile at the row's end: two loads and one lane shift (valign). Links:
// the 4 forward ones at the tile in u, the 4 backward ones U_mu(x - mu) stored at the tile in
// u_back (cpu_simd.h's backward_links), so a tile reads two contiguous link streams.
//
// The spin algebra is that of wilson_dslash_impl.h (spin projection to two colour vectors, link
// product, reconstruction; DeGrand-Rossi gamma_entry table), with dagger compile-time here, so
// the signs are adds and subtracts. Conventions: dirac.h.
#include <cstdint>

#include "cpu_simd_vector.h"
#include "wilson_simd_kernel.h"

#if defined(__AVX512F__)

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

// One launch: output parity, dagger, link compression and epilogue fixed.
template <class T, int NR, bool Dagger, bool HasX, int F>
struct Kernel {
  using S = Simd<T>;
  using V = typename S::V;
  using C = typename S::C;
  static constexpr int W = S::W;
  // Forward hop projector 1 - g_mu (D) or 1 + g_mu (D^dagger); backward the other.
  static constexpr int kFwd = Dagger ? 1 : -1;

  const T* u;
  const T* u_back;  // u_back(x, mu) = u(x - mu, mu), the same layout
  T* out;
  const T* in;
  const T* x;
  const T* clov;  // tiled clover field: 2 chiral blocks of 36 reals a site
  int dims[4];
  int parity;
  std::int64_t half;
  std::int64_t out_shift, in_shift, x_shift;
  T a;
  T phase_f[4], phase_b[4];


  // Spinor tile holding site s (first site of a tile) of `f`.
  static GLUON_SIMD_INLINE const T* spinor_tile(const T* f, std::int64_t s) {
    return f + s * 24;  // (s / W) * 24 * W
  }
  // Real r of colour component (spin sp, colour c) in a spinor: (sp * 3 + c) * 2 + re/im.
  static GLUON_SIMD_INLINE C load_c(const T* tile, int sp, int c) {
    return {S::load(tile + ((sp * 3 + c) * 2) * W), S::load(tile + ((sp * 3 + c) * 2 + 1) * W)};
  }
  // Link tile of direction mu at site s (first site of a tile) of the links f (u or u_back).
  static GLUON_SIMD_INLINE const T* link_tile(const T* f, std::int64_t s, int mu) {
    return f + (s / W) * (4 * NR * W) + mu * NR * W;
  }

  // Half spinor h = rows 0, 1 of (1 + sgn g_mu) psi, psi read through `get(sp, c)`.
  template <int mu, int sgn, class Get>
  static GLUON_SIMD_INLINE void project(const Get& get, C h[2][3]) {
    constexpr Entry e0 = kGamma[mu][0], e1 = kGamma[mu][1];
    for (int c = 0; c < 3; ++c) {
      const C g0 = S::ipow(get(e0.col, c), e0.phase);
      const C g1 = S::ipow(get(e1.col, c), e1.phase);
      h[0][c] = sgn > 0 ? S::add(get(0, c), g0) : S::sub(get(0, c), g0);
      h[1][c] = sgn > 0 ? S::add(get(1, c), g1) : S::sub(get(1, c), g1);
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
        const C x = S::sub(S::mul(m[0][j1], m[1][j2]), S::mul(m[0][j2], m[1][j1]));
        m[2][j] = {x.re, -x.im};
      }
    }
  }
  // acc += the 4-spinor rebuilt from t = U h (Adj: U^dagger h), one colour of t at a time, with
  // the link's elements read through `u(i, j)` where they are used: only 4 complex numbers of t
  // and one link element live at once, besides acc and h (acc's 24 vectors alone fill most of
  // the 32 registers; the whole link and t on top spilled a quarter of the instructions).
  template <int mu, int sgn, bool Adj, class Elem>
  static GLUON_SIMD_INLINE void transport_add(C acc[4][3], const Elem& u, const C h[2][3]) {
    constexpr Entry e2 = kGamma[mu][2], e3 = kGamma[mu][3];
    static_assert(e2.col < 2 && e3.col < 2, "g_mu must map rows 2, 3 onto rows 0, 1");
    for (int i = 0; i < 3; ++i) {
      C t[2];
      for (int j = 0; j < 3; ++j) {
        const C e = Adj ? u(j, i) : u(i, j);
        for (int k = 0; k < 2; ++k) {
          const C p = Adj ? S::conj_mul(e, h[k][j]) : S::mul(e, h[k][j]);
          t[k] = j == 0 ? p : S::add(t[k], p);
        }
      }
      acc[0][i] = S::add(acc[0][i], t[0]);
      acc[1][i] = S::add(acc[1][i], t[1]);
      const C r2 = S::ipow(t[e2.col], e2.phase), r3 = S::ipow(t[e3.col], e3.phase);
      acc[2][i] = sgn > 0 ? S::add(acc[2][i], r2) : S::sub(acc[2][i], r2);
      acc[3][i] = sgn > 0 ? S::add(acc[3][i], r3) : S::sub(acc[3][i], r3);
    }
  }
  // U h (Adj: U^dagger h) added to acc through transport_add, the link read through get(r): r18
  // element by element where used; r12 rows 0, 1 first, row 2 rebuilt from them.
  template <int mu, int sgn, bool Adj, class Get>
  static GLUON_SIMD_INLINE void link_add(C acc[4][3], const Get& get, const C h[2][3]) {
    if constexpr (NR == 18) {
      transport_add<mu, sgn, Adj>(
          acc, [&](int i, int j) { return C{get(2 * (3 * i + j)), get(2 * (3 * i + j) + 1)}; }, h);
    } else {
      C m[3][3];
      load_link(get, m);
      transport_add<mu, sgn, Adj>(acc, [&](int i, int j) { return m[i][j]; }, h);
    }
  }
  static GLUON_SIMD_INLINE void scale(C h[2][3], V ph) {
    for (int k = 0; k < 2; ++k)
      for (int c = 0; c < 3; ++c) h[k][c] = {h[k][c].re * ph, h[k][c].im * ph};
  }

  // Forward hop of direction mu: the neighbours' spinors through `get`, the links at the tile.
  template <int mu, class Get>
  GLUON_SIMD_INLINE void forward(C acc[4][3], std::int64_t s0, const Get& get, bool wrap,
                                                     V ph) const {
    C h[2][3];
    project<mu, kFwd>(get, h);
    if (wrap) scale(h, ph);
    const T* lt = link_tile(u, s0, mu);
    link_add<mu, kFwd, false>(acc, [&](int r) { return S::load(lt + r * W); }, h);
  }
  // Backward hop: the neighbours' spinors through getp, their links stored at the tile (u_back).
  template <int mu, class GetP>
  GLUON_SIMD_INLINE void backward(C acc[4][3], std::int64_t s0, const GetP& getp, bool wrap,
                                                      V ph) const {
    C h[2][3];
    project<mu, -kFwd>(getp, h);
    if (wrap) scale(h, ph);
    const T* lt = link_tile(u_back, s0, mu);
    link_add<mu, -kFwd, true>(acc, [&](int r) { return S::load(lt + r * W); }, h);
  }

  // v = C v at the W sites from s0 (clover_field.h: per chiral block b the 6 real diagonal
  // entries, then the 15 complex entries below the diagonal, row by row).
  GLUON_SIMD_INLINE void apply_clover(std::int64_t s0, C v[4][3]) const {
    const T* ct = clov + (s0 / W) * (72 * W);
    for (int b = 0; b < 2; ++b) {
      const T* cb = ct + b * 36 * W;
      C w[6], o[6];
      for (int cc = 0; cc < 3; ++cc) w[cc] = v[2 * b][cc], w[3 + cc] = v[2 * b + 1][cc];
      for (int i = 0; i < 6; ++i) {
        const V d = S::load(cb + i * W);
        o[i] = {d * w[i].re, d * w[i].im};
      }
      for (int i = 1; i < 6; ++i)
        for (int j = 0; j < i; ++j) {
          const int k = i * (i - 1) / 2 + j;
          const C h = {S::load(cb + (6 + 2 * k) * W), S::load(cb + (7 + 2 * k) * W)};
          o[i] = S::add(o[i], S::mul(h, w[j]));
          o[j] = S::add(o[j], S::conj_mul(h, w[i]));
        }
      for (int cc = 0; cc < 3; ++cc) v[2 * b][cc] = o[cc], v[2 * b + 1][cc] = o[3 + cc];
    }
  }

  // Software prefetch of everything tile `tile` reads and writes (L1, write hint for out): the
  // tile's 10-odd streams (neighbour rows of in, the two link streams, out, x) are too many for
  // the hardware prefetchers to run far enough ahead, and one core then waits on DRAM latency.
  GLUON_SIMD_INLINE void prefetch(std::int64_t tile) const {
    constexpr int spinor_bytes = 24 * W * sizeof(T), link_bytes = NR * W * sizeof(T);
    const std::int64_t i0 = tile * W;
    const int Xh = dims[0] / 2;
    const std::int64_t row = i0 / Xh;
    const int k0 = static_cast<int>(i0 - row * Xh);
    const std::int64_t s0 = parity * half + i0;
    const std::int64_t other = (1 - parity) * half;
    S::prefetch_bytes(spinor_tile(in, other + row * Xh + k0 - in_shift), spinor_bytes);
    S::prefetch_bytes(link_tile(u, s0, 0), 4 * link_bytes);
    S::prefetch_bytes(link_tile(u_back, s0, 0), 4 * link_bytes);
    std::int64_t r = row, rs = 1;
    for (int mu = 1; mu < 4; ++mu) {
      const int L = dims[mu];
      const int c = static_cast<int>(r % L);
      r /= L;
      const std::int64_t fw = c == L - 1 ? row - (L - 1) * rs : row + rs;
      const std::int64_t bw = c == 0 ? row + (L - 1) * rs : row - rs;
      S::prefetch_bytes(spinor_tile(in, other + fw * Xh + k0 - in_shift), spinor_bytes);
      S::prefetch_bytes(spinor_tile(in, other + bw * Xh + k0 - in_shift), spinor_bytes);
      rs *= L;
    }
    S::prefetch_bytes(out + (s0 - out_shift) * 24, spinor_bytes, true);
    if constexpr (HasX) S::prefetch_bytes(x + (s0 - x_shift) * 24, spinor_bytes);
    if constexpr (F != kPlain) S::prefetch_bytes(clov + (s0 / W) * (72 * W), 72 * W * sizeof(T));
  }

  // The W output sites of tile `tile` of the output parity.
  GLUON_SIMD_INLINE void run_tile(std::int64_t tile) const {
    const TilePos tp = tile_pos(tile, dims, parity);
    const std::int64_t i0 = tp.i0, row = tp.row;
    const int Xh = tp.Xh, k0 = tp.k0, o = tp.o;
    const int* c = tp.c;
    const std::int64_t s0 = parity * half + i0;  // eo index of lane 0
    const std::int64_t other = (1 - parity) * half;
    const std::int64_t row0 = other + row * Xh;  // first site of the neighbouring x-row

    C acc[4][3];
    for (int sp = 0; sp < 4; ++sp)
      for (int cc = 0; cc < 3; ++cc) acc[sp][cc] = {V{}, V{}};

    // x: aligned neighbours (same k) one way, shifted by one site the other way.
    {
      const std::int64_t same = row0 + k0;
      const T* ps = spinor_tile(in, same - in_shift);
      auto get_same = [&](int sp, int cc) { return load_c(ps, sp, cc); };
      if (o == 0) {
        forward<0>(acc, s0, get_same, false, V{});
        // x - 1: sites k0 - 1 .. k0 + W - 2; lane 0 from the previous tile (row's last at k0 = 0).
        const bool wrap = k0 == 0;
        const std::int64_t prev = wrap ? row0 + Xh - W : same - W;
        const T* pp = spinor_tile(in, prev - in_shift);
        auto get_p = [&](int sp, int cc) {
          const C a0 = load_c(pp, sp, cc), a1 = load_c(ps, sp, cc);
          return C{S::shift_down(a0.re, a1.re), S::shift_down(a0.im, a1.im)};
        };
        V ph = S::splat(T(1));
        ph[0] = phase_b[0];
        backward<0>(acc, s0, get_p, wrap, ph);
      } else {
        // x + 1: sites k0 + 1 .. k0 + W; lane W-1 from the next tile (row's first at the end).
        const bool wrap = k0 + W == Xh;
        const std::int64_t next = wrap ? row0 : same + W;
        const T* pn = spinor_tile(in, next - in_shift);
        auto get_n = [&](int sp, int cc) {
          const C a0 = load_c(ps, sp, cc), a1 = load_c(pn, sp, cc);
          return C{S::shift_up(a0.re, a1.re), S::shift_up(a0.im, a1.im)};
        };
        V ph = S::splat(T(1));
        ph[W - 1] = phase_f[0];
        forward<0>(acc, s0, get_n, wrap, ph);
        backward<0>(acc, s0, get_same, false, V{});
      }
    }
    // y, z, t: whole tiles of the neighbouring rows.
    hop_row<1>(acc, s0, row, c, Xh, k0);
    hop_row<2>(acc, s0, row, c, Xh, k0);
    hop_row<3>(acc, s0, row, c, Xh, k0);

    T* po = out + (s0 - out_shift) * 24;
    const V av = S::splat(a);
    if constexpr (F == kCloverOnX) {  // C x + a acc
      const T* px = x + (s0 - x_shift) * 24;
      C xv[4][3];
      for (int sp = 0; sp < 4; ++sp)
        for (int cc = 0; cc < 3; ++cc) xv[sp][cc] = load_c(px, sp, cc);
      apply_clover(s0, xv);
      for (int sp = 0; sp < 4; ++sp)
        for (int cc = 0; cc < 3; ++cc) {
          const int r = (sp * 3 + cc) * 2;
          S::store(po + r * W, xv[sp][cc].re + av * acc[sp][cc].re);
          S::store(po + (r + 1) * W, xv[sp][cc].im + av * acc[sp][cc].im);
        }
      return;
    }
    if constexpr (F == kClover) apply_clover(s0, acc);
    if constexpr (HasX) {
      const T* px = x + (s0 - x_shift) * 24;
      for (int sp = 0; sp < 4; ++sp)
        for (int cc = 0; cc < 3; ++cc) {
          const int r = (sp * 3 + cc) * 2;
          S::store(po + r * W, S::load(px + r * W) + av * acc[sp][cc].re);
          S::store(po + (r + 1) * W, S::load(px + (r + 1) * W) + av * acc[sp][cc].im);
        }
    } else {
      for (int sp = 0; sp < 4; ++sp)
        for (int cc = 0; cc < 3; ++cc) {
          const int r = (sp * 3 + cc) * 2;
          S::store(po + r * W, av * acc[sp][cc].re);
          S::store(po + (r + 1) * W, av * acc[sp][cc].im);
        }
    }
  }

  template <int mu>
  GLUON_SIMD_INLINE void hop_row(C acc[4][3], std::int64_t s0, std::int64_t row, const int* c,
                                                     int Xh, int k0) const {
    std::int64_t rs = 1;  // row stride of direction mu
    for (int nu = 1; nu < mu; ++nu) rs *= dims[nu];
    const std::int64_t other = (1 - parity) * half;
    const int L = dims[mu];
    {
      const bool wrap = c[mu] == L - 1;
      const std::int64_t nrow = wrap ? row - (L - 1) * rs : row + rs;
      const T* p = spinor_tile(in, other + nrow * Xh + k0 - in_shift);
      forward<mu>(acc, s0, [&](int sp, int cc) { return load_c(p, sp, cc); }, wrap, S::splat(phase_f[mu]));
    }
    {
      const bool wrap = c[mu] == 0;
      const std::int64_t nrow = wrap ? row + (L - 1) * rs : row - rs;
      const T* p = spinor_tile(in, other + nrow * Xh + k0 - in_shift);
      backward<mu>(acc, s0, [&](int sp, int cc) { return load_c(p, sp, cc); }, wrap, S::splat(phase_b[mu]));
    }
  }
};

template <class T, int NR, bool Dagger, bool HasX, int F>
void launch(const WilsonSimdArgs& a) {
  Kernel<T, NR, Dagger, HasX, F> k;
  k.u = static_cast<const T*>(a.u);
  k.u_back = static_cast<const T*>(a.u_back);
  k.out = static_cast<T*>(a.out);
  k.in = static_cast<const T*>(a.in);
  k.x = static_cast<const T*>(a.x);
  k.clov = static_cast<const T*>(a.clover);
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
  const std::int64_t tiles = a.half / Simd<T>::W;
  // Tiles prefetched ahead: 1, 2, 4 and 8 measured on the 2-core Zen 5 VM, 2 the best or equal;
  // streaming (non-temporal) stores of out were no faster at 16^4 and slower in double.
  constexpr std::int64_t ahead = 2;
#pragma omp parallel for schedule(static)
  for (std::int64_t t = 0; t < tiles; ++t) {
    if (t + ahead < tiles) k.prefetch(t + ahead);
    k.run_tile(t);
  }
}

template <class T, int NR, bool Dagger>
void launch_fuse(const WilsonSimdArgs& a) {
  const bool x = a.x != nullptr;
  switch (a.fuse) {
    case kPlain: return x ? launch<T, NR, Dagger, true, kPlain>(a) : launch<T, NR, Dagger, false, kPlain>(a);
    case kClover: return x ? launch<T, NR, Dagger, true, kClover>(a) : launch<T, NR, Dagger, false, kClover>(a);
    default: return launch<T, NR, Dagger, true, kCloverOnX>(a);
  }
}

template <class T, int NR>
void launch_recon(const WilsonSimdArgs& a) {
  if (a.dagger) launch_fuse<T, NR, true>(a);
  else launch_fuse<T, NR, false>(a);
}

template <class T>
bool run(const WilsonSimdArgs& a) {
  if (a.fuse < kPlain || a.fuse > kCloverOnX || (a.fuse != kPlain && !a.clover) || (a.fuse == kCloverOnX && !a.x))
    return false;
  if (a.nreals == 18) launch_recon<T, 18>(a);
  else if (a.nreals == 12) launch_recon<T, 12>(a);
  else return false;
  return true;
}

}  // namespace
}  // namespace gluon::qcd::detail


#endif  // __AVX512F__
