#pragma once
// Private: the Wilson dslash kernel (one thread per output site of one parity), included by the
// per-precision kernel files wilson_dslash_{double,single,half}_kernels.cpp so that they compile
// in parallel. Conventions: dirac.h; spin projection as in the QUDA paper: (1 -+ g_mu) psi has
// only two independent spin components in any basis where g_mu has one non-zero per row, so
// the link multiplies 2 colour vectors and the other two spin rows are rebuilt from them.
#include <cstdint>
#include <type_traits>
#include <utility>
#include <string>

#include "gluon/qcd/dirac/clover_field.h"
#include "gluon/qcd/gamma.h"
#include "gluon/qcd/gauge_accessor.h"
#include "gluon/qcd/geometry.h"
#include "gluon/qcd/spinor_accessor.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/parallel.h"
#include "gluon/runtime/tune.h"
#include "../bicgstab_coefficients.h"
#include "../cg_coefficients.h"
#include "face_indexer.h"
#include "occupancy_floor.h"
#include "wilson_internal.h"

namespace gluon::qcd::detail {

// h = (1 + sgn g_mu) psi restricted to spin rows 0, 1 (rows 2, 3 follow: chi = sgn g_mu chi).
// sgn = +-1 is a run-time value (dagger swaps the projectors): one kernel serves D and D^dagger,
// which halves the nvcc compile time at the cost of a multiply the memory-bound kernel hides.
template <int mu, class T>
GLUON_HD_INLINE void spin_project(const Spinor<T>& p, ColorVector<T>& h0, ColorVector<T>& h1, T sgn) {
  constexpr GammaEntry e0 = gamma_entry(mu, 0);
  constexpr GammaEntry e1 = gamma_entry(mu, 1);
  for (int c = 0; c < 3; ++c) {
    const Complex<T> g0 = times_i_power(p.s[e0.col].c[c], e0.phase);
    const Complex<T> g1 = times_i_power(p.s[e1.col].c[c], e1.phase);
    h0.c[c] = p.s[0].c[c] + sgn * g0;
    h1.c[c] = p.s[1].c[c] + sgn * g1;
  }
}

// acc += f (the full 4-spinor rebuilt from the transported rows 0, 1):
// rows 0, 1 = u0, u1; row r = 2, 3: sgn i^phase(r) u_{col(r)}. The hop's scalar factor f (the
// boundary phase, times the half-precision norm) rides on the accumulation: 24 FFMA in place of
// 24 FADD, where scaling the projected h0, h1 first cost 12 more multiplies a hop.
template <int mu, class T>
GLUON_HD_INLINE void spin_reconstruct_add(Spinor<T>& acc, const ColorVector<T>& u0, const ColorVector<T>& u1,
                                          T sgn, T f) {
  constexpr GammaEntry e2 = gamma_entry(mu, 2);
  constexpr GammaEntry e3 = gamma_entry(mu, 3);
  static_assert(e2.col < 2 && e3.col < 2, "g_mu must map rows 2,3 onto rows 0,1");
  const T g = sgn * f;
  for (int c = 0; c < 3; ++c) {
    acc.s[0].c[c] += f * u0.c[c];
    acc.s[1].c[c] += f * u1.c[c];
    const Complex<T> r2 = times_i_power(e2.col == 0 ? u0.c[c] : u1.c[c], e2.phase);
    const Complex<T> r3 = times_i_power(e3.col == 0 ? u0.c[c] : u1.c[c], e3.phase);
    acc.s[2].c[c] += g * r2;
    acc.s[3].c[c] += g * r3;
  }
}

// Dagger and the epilogue's form are run-time values, uniform over the launch, to keep nvcc's
// compile time bounded (each instantiation unrolls 8 hops with the link rebuild); whether the
// epilogue touches the clover field at all is compile-time (site<Clover>, launched through
// WilsonBody): the clover product holds 72 more reals live, and a kernel is allocated the
// registers of its fattest path, so the plain Wilson dslash must not carry it.
// The accessors assume the blocked order in device code (field_layout.h: one load path per
// field; make_wilson_kernel checks the fields).
template <class Store, Reconstruct R>
struct WilsonDslashKernel {
  using G = GaugeAccessor<Store, R, true>;
  using S = SpinorAccessor<Store, 4, true>;
  using C = CloverAccessor<Store, true>;
  using real = typename G::real;

  G u;
  S out, in, x;
  S w;  // the fold's w: BiCGstab's r0, or CG's p with a shift (else a copy of out, never read)
  C clov;
  SiteIndexer idx;
  // Site indices are 32-bit (Geometry: local volume <= kMaxLocalVolume): half the registers and
  // integer instructions of 64-bit index arithmetic in a latency-bound kernel.
  int half;       // sites of one parity
  int stride[4];  // lexicographic stride of direction mu
  int parity;
  int out_shift, in_shift, x_shift, w_shift;
  real a;
  real fwd;  // -1: D (forward projector 1 - g_mu); +1: D^dagger
  int ifwd;  // fwd as an integer (half: the projection of the stored integers)
  real phase_f[4], phase_b[4];  // phase of a hop across the rank's +mu / -mu edge
  bool has_x;
  bool cg_update;                // DslashFold::cg with cg_update: out is CG's residual
  const double *cg_r2, *cg_pAp;  // its alpha's slots
  real cg_shift;                 // DslashFold::cg's shift (w = p in the update)
  int fuse;
  int mode;                      // HaloView::mode
  int cut[4];
  const real* gf[4];             // ghosts from the +mu / -mu neighbours
  const real* gb[4];
  FaceIndexer face;

  // C_b psi at site s: the clover term's block b on spins 2b, 2b + 1. (Not apply_clover_block:
  // half precision's block scale is applied to the product here, from load_unscaled.)
  GLUON_HD_INLINE ChiralHalf<real> clover_block_times(int s, int b, const ChiralHalf<real>& psi) const {
    real sc;  // half: the block's norm / 32767, applied to A v
    const CloverBlock<real> A = clov.load_unscaled(s, b, sc);
    Complex<real> v[6], o[6];
    for (int c = 0; c < 3; ++c) v[c] = psi.s[0].c[c], v[3 + c] = psi.s[1].c[c];
    A.apply(v, o);
    ChiralHalf<real> r;
    for (int c = 0; c < 3; ++c) r.s[0].c[c] = sc * o[c], r.s[1].c[c] = sc * o[3 + c];
    return r;
  }
  // C psi at site s, one chiral block at a time: block 1's 36 reals are loaded only after block
  // 0 is applied, so they are never live together.
  GLUON_HD_INLINE Spinor<real> clover_times(int s, const Spinor<real>& psi) const {
    Spinor<real> r;
#if defined(__CUDACC__)
#pragma unroll
#endif
    GLUON_UNROLL
    for (int b = 0; b < 2; ++b) {  // unrolled: a run-time b puts r and the blocks in local memory
      const ChiralHalf<real> h = clover_block_times(s, b, ChiralHalf<real>{{psi.s[2 * b], psi.s[2 * b + 1]}});
      r.s[2 * b] = h.s[0];
      r.s[2 * b + 1] = h.s[1];
    }
    return r;
  }

  // h0, h1 = (1 + sgn g_mu) in(n) (rows 0, 1), sgn = fwd, or -fwd for a backward hop; sc the
  // factor the stored values still need (load_unscaled), times the one load_link_unscaled's
  // link lacks. Half storage projects its integers exactly (|a +- b| < 2^16) and converts the
  // 12 results instead of the 24 inputs: Wilson half +11.5%, clover half +5.6% (H200, trip 2 of
  // bench/results/2026-11-24-half-projection-h200).
  template <int mu>
  GLUON_HD_INLINE void project_neighbour(int n, ColorVector<real>& h0, ColorVector<real>& h1, bool backward,
                                         real& sc) const {
    if constexpr (is_half_store<Store>) {
      const Spinor<int> p = in.load_raw(n, sc, G::unscaled_factor);
      ColorVector<int> i0, i1;
      spin_project<mu>(p, i0, i1, backward ? -ifwd : ifwd);
      // (I2F here: the exponent trick, as_float(0x4b400000 + v) - 1.5 * 2^23, and the same for
      // the links' raw pairs, issue 2-3 instructions a value and measured 5-8% slower; H200,
      // bench/results/2026-11-24-half-projection-h200.)
      for (int c = 0; c < 3; ++c) {
        h0.c[c] = Complex<real>(i0.c[c]);
        h1.c[c] = Complex<real>(i1.c[c]);
      }
    } else {
      const Spinor<real> p = in.load_unscaled(n, sc, G::unscaled_factor);
      spin_project<mu>(p, h0, h1, backward ? -fwd : fwd);
    }
  }

  // Forward: (1 - g_mu) U_mu(x) psi(x+mu); dagger: (1 + g_mu). A hop across a cut dimension's
  // edge reads the ghost (mode 1) or is left to the exterior kernel (mode 2).
  template <int mu>
  GLUON_HD_INLINE void hop(Spinor<real>& acc, int s, const int* c, int lex) const {
    const int other = (1 - parity) * half;
    {
      const bool wrap = c[mu] == idx.dims[mu] - 1;
      if (cut[mu] & int(wrap)) {  // no short circuit on the per-site wrap: cut is uniform
        if (mode == 1) add_forward_ghost<mu>(acc, s, c);
      } else {
        const int nl = wrap ? lex - (idx.dims[mu] - 1) * stride[mu] : lex + stride[mu];
        const int nb = other + (nl >> 1);
        real sc;  // half: the site's norm / 32767 and the link's 1/32767, applied with the accumulation
        ColorVector<real> h0, h1;
        project_neighbour<mu>(nb - in_shift, h0, h1, false, sc);
        // Branch-free: with `if (wrap) scale` nvcc duplicated the rest of the hop into both
        // paths, and the one or two wrapping sites of each warp's x-rows ran it apart (Nsight
        // Compute: 26 of 32 threads active on average in the plain Wilson kernels).
        const auto U = u.load_link_unscaled(s, mu);
        const real ph = with_link_sign(U, (wrap ? phase_f[mu] : real(1)) * sc);
        spin_reconstruct_add<mu>(acc, U * h0, U * h1, fwd, ph);
      }
    }
    {
      const bool wrap = c[mu] == 0;
      if (cut[mu] & int(wrap)) {  // no short circuit on the per-site wrap: cut is uniform
        if (mode == 1) add_backward_ghost<mu>(acc, c);
      } else {
        const int nl = wrap ? lex + (idx.dims[mu] - 1) * stride[mu] : lex - stride[mu];
        const int nb = other + (nl >> 1);
        real sc;
        ColorVector<real> h0, h1;
        project_neighbour<mu>(nb - in_shift, h0, h1, true, sc);
        const auto U = u.load_link_unscaled(nb, mu);
        const real ph = with_link_sign(U, (wrap ? phase_b[mu] : real(1)) * sc);
        spin_reconstruct_add<mu>(acc, adj_mul(U, h0), adj_mul(U, h1), -fwd, ph);
      }
    }
  }

  // One of dimension mu's two hops, for split_site: hop<mu>'s arithmetic with the direction a
  // run-time value (backward: the -mu hop), so that the two threads of a site, one taking the
  // forward hops and one the backward, run one instruction stream; a branch on the direction
  // would issue both hops' code in every warp. The link is transposed by selects (adjoint_if).
  template <int mu>
  GLUON_HD_INLINE void hop_one_way(Spinor<real>& acc, int s, const int* c, int lex, bool backward) const {
    const int d = idx.dims[mu];
    const bool wrap = c[mu] == (backward ? 0 : d - 1);
    if (cut[mu] & int(wrap)) {  // cut is uniform
      if (mode == 1) {
        if (backward) add_backward_ghost<mu>(acc, c);
        else add_forward_ghost<mu>(acc, s, c);
      }
      return;
    }
    const int step = backward ? -stride[mu] : stride[mu];
    const int nl = wrap ? lex - (d - 1) * step : lex + step;
    const int nb = (1 - parity) * half + (nl >> 1);
    real sc;
    ColorVector<real> h0, h1;
    project_neighbour<mu>(nb - in_shift, h0, h1, backward, sc);
    const auto U = adjoint_if(u.load_link_unscaled(backward ? nb : s, mu), backward);
    const real ph = with_link_sign(U, (wrap ? (backward ? phase_b[mu] : phase_f[mu]) : real(1)) * sc);
    spin_reconstruct_add<mu>(acc, U * h0, U * h1, backward ? -fwd : fwd, ph);
  }

  // Output site i / 2 shared by threads i and i + 1 (i even; one warp, as every block is whole
  // warps and the launch's count even): thread i takes the 4 forward hops, i + 1 the 4 backward
  // ones, and after one exchange of 12 reals each owns one chiral half of the sum, spins 2h,
  // 2h + 1 for h = i & 1, whose epilogue (x, the clover block h) and store it runs alone. Half the
  // work a thread: a block lives half as long, so the launch's last wave drains sooner (the
  // one-thread kernel's fixed ~12 us a call at 32^4 on an H200,
  // bench/results/2026-11-27-volume-h200), for ~20% more instructions a site (the selects, the
  // exchange). Measured 3.5% faster to 3.4% slower per kernel, so the tuner times both. Built in
  // double and single, r8 links included (their pivoted product directed by selects,
  // DirectedPivotedLink); not in half storage (the halves' maxima exchanged for the site's
  // norm, 8-byte stores), where two threads measured 12-14% slower on an H200
  // (bench/results/2026-11-27-site-threads/, trip 2).
  template <bool Clover>
  GLUON_HD_INLINE void split_site(std::int64_t i) const {
#if defined(__CUDA_ARCH__)
    const int h = static_cast<int>(i & 1);
    const bool backward = h != 0;
    int c[4], lex;
    const int s = tiled_site(static_cast<int>(i >> 1), c, lex);
    Spinor<real> acc;
    for (int sp = 0; sp < 4; ++sp)
      for (int k = 0; k < 3; ++k) acc.s[sp].c[k] = Complex<real>(real(0), real(0));
    hop_one_way<0>(acc, s, c, lex, backward);
    hop_one_way<1>(acc, s, c, lex, backward);
    hop_one_way<2>(acc, s, c, lex, backward);
    hop_one_way<3>(acc, s, c, lex, backward);
    const unsigned pair = 3u << (threadIdx.x & 30u);
    ChiralHalf<real> d;
    for (int sp = 0; sp < 2; ++sp)
      for (int k = 0; k < 3; ++k) {
        const Complex<real> keep = backward ? acc.s[2 + sp].c[k] : acc.s[sp].c[k];
        const Complex<real> give = backward ? acc.s[sp].c[k] : acc.s[2 + sp].c[k];
        d.s[sp].c[k] = Complex<real>(keep.re + __shfl_xor_sync(pair, give.re, 1),
                                     keep.im + __shfl_xor_sync(pair, give.im, 1));
      }
    ChiralHalf<real> r;
    auto xpay = [&](const ChiralHalf<real>& base) {
      for (int sp = 0; sp < 2; ++sp)
        for (int k = 0; k < 3; ++k) r.s[sp].c[k] = base.s[sp].c[k] + a * d.s[sp].c[k];
    };
    if constexpr (Clover) {
      if (fuse == kFuseCloverOnX) {  // C x + a D in
        xpay(clover_block_times(s, h, x.load_chiral(s - x_shift, h)));
        return out.template store_chiral<true>(s - out_shift, h, r);
      }
      if (fuse == kFuseClover) d = clover_block_times(s, h, d);
    }
    if (has_x) {
      xpay(x.load_chiral(s - x_shift, h));
    } else {
      for (int sp = 0; sp < 2; ++sp)
        for (int k = 0; k < 3; ++k) r.s[sp].c[k] = a * d.s[sp].c[k];
    }
    out.template store_chiral<true>(s - out_shift, h, r);
#else
    (void)i;
    throw Error("wilson dslash: the two-thread kernel runs on the GPU only");
#endif
  }

  // Ghost entries: 12 reals, the two colour vectors h0, h1 (re, im of each colour).
  GLUON_HD_INLINE static void load_half(const real* g, std::int64_t f, ColorVector<real>& h0,
                                        ColorVector<real>& h1) {
    const real* e = g + f * 12;
    for (int k = 0; k < 3; ++k) {
      h0.c[k] = Complex<real>(e[2 * k], e[2 * k + 1]);
      h1.c[k] = Complex<real>(e[6 + 2 * k], e[6 + 2 * k + 1]);
    }
  }
  // From the +mu neighbour: (1 -+ g_mu) psi(x + mu), projected there; transported here.
  template <int mu>
  GLUON_HD_INLINE void add_forward_ghost(Spinor<real>& acc, int s, const int* c) const {
    ColorVector<real> h0, h1;
    load_half(gf[mu], face.index(c, mu, 0), h0, h1);
    const auto U = u.load_link(s, mu);
    spin_reconstruct_add<mu>(acc, U * h0, U * h1, fwd, phase_f[mu]);
  }
  // From the -mu neighbour: U_mu(x - mu)^+ (1 +- g_mu) psi(x - mu), transported there.
  template <int mu>
  GLUON_HD_INLINE void add_backward_ghost(Spinor<real>& acc, const int* c) const {
    ColorVector<real> h0, h1;
    load_half(gb[mu], face.index(c, mu, 0), h0, h1);
    spin_reconstruct_add<mu>(acc, h0, h1, -fwd, phase_b[mu]);
  }

  // Thread i's output site: the parity's sites in 2x2x2 micro-tiles of (y, z, t) behind each half
  // x-row (x fastest, then the low bits of y, z, t, then y/2, z/2, t/2). A warp still stores 32
  // consecutive sites when X/2 = 16 (two x-rows), but a block of 128 now covers a 32x2x2x2 box
  // instead of 32x8x1x1, so more of its neighbour spinors are in L1 already: the lexicographic
  // order left every z and t neighbour to L2, the kernels' limit once their loads were in
  // flight (Wilson single/double at the same 76% of copy). Extents are even (Geometry).
  // Returns the site's eo index; c its coordinates, lex its lexicographic index.
  GLUON_HD_INLINE int tiled_site(int i, int* c, int& lex) const {
    const unsigned hx = static_cast<unsigned>(idx.dims[0]) >> 1;
    const unsigned hy = static_cast<unsigned>(idx.dims[1]) >> 1, hz = static_cast<unsigned>(idx.dims[2]) >> 1;
    const unsigned r = static_cast<unsigned>(i) / hx;
    const unsigned xh = static_cast<unsigned>(i) - r * hx;
    const unsigned q = r >> 3, qy = q / hy, qz = qy / hz;
    c[1] = static_cast<int>(2 * (q - qy * hy) + (r & 1));
    c[2] = static_cast<int>(2 * (qy - qz * hz) + ((r >> 1) & 1));
    c[3] = static_cast<int>(2 * qz + ((r >> 2) & 1));
    c[0] = static_cast<int>(2 * xh) + ((parity + c[1] + c[2] + c[3]) & 1);
    lex = c[0] + idx.dims[0] * (c[1] + idx.dims[1] * (c[2] + idx.dims[2] * c[3]));
    return parity * half + (lex >> 1);
  }

  // {<a, b>, |a|^2} of one site, in double, as the BLAS reductions sum.
  GLUON_HD_INLINE static qcd::detail::DoubleSums<3> cdot_norm(const Spinor<real>& a, const Spinor<real>& b) {
    qcd::detail::DoubleSums<3> d{};
    for (int sp = 0; sp < 4; ++sp)
      for (int k = 0; k < 3; ++k) {
        const double are = a.s[sp].c[k].re, aim = a.s[sp].c[k].im;
        const double bre = b.s[sp].c[k].re, bim = b.s[sp].c[k].im;
        d.v[0] += are * bre + aim * bim;
        d.v[1] += are * bim - aim * bre;
        d.v[2] += are * are + aim * aim;
      }
    return d;
  }
  // The sums of a fold: BiCGstab's ts has kTsSums, the others 3 (r0v) or 1 (cg, in slot 0).
  template <int Fold>
  using FoldSums = std::conditional_t<Fold == DslashFold::ts, qcd::detail::DoubleSums<blas::detail::kTsSums>,
                                      qcd::detail::DoubleSums<3>>;
  // BiCGstab's sums at site s (DslashFold), from the output r before the store rounds it and x(s)
  // = xs: ts {<r, x>, |r|^2, <w, x>, <w, r>} (r = t, x = s, w = r0), r0v {<w, r>, |w|^2}.
  template <int Fold>
  GLUON_HD_INLINE FoldSums<Fold> fold_sums(int s, const Spinor<real>& r, const Spinor<real>& xs) const {
    if constexpr (Fold == DslashFold::ts) {
      const Spinor<real> w0 = w.load(s - w_shift);
      const auto ts = cdot_norm(r, xs), ws = cdot_norm(w0, xs), wt = cdot_norm(w0, r);
      return {{ts.v[0], ts.v[1], ts.v[2], ws.v[0], ws.v[1], wt.v[0], wt.v[1]}};
    }
    if constexpr (Fold == DslashFold::r0v) return cdot_norm(w.load(s - w_shift), r);
    if constexpr (Fold == DslashFold::cg) {
      // (|x|^2 only with a shift: an unshifted CG step, CGNR's every step, need not sum it)
      const double shifted = cg_shift != real(0) ? static_cast<double>(cg_shift) * norm2(xs) : 0.0;
      return {{norm2(r) + shifted, 0.0, 0.0}};
    }
    (void)s;
    (void)xs;
    return {};
  }
  // |a|^2 summed in double, as the BLAS reductions sum (spinor.h's norm2 sums in real).
  GLUON_HD_INLINE static double norm2(const Spinor<real>& a) {
    double n = 0.0;
    for (int sp = 0; sp < 4; ++sp)
      for (int k = 0; k < 3; ++k) {
        const double re = a.s[sp].c[k].re, im = a.s[sp].c[k].im;
        n += re * re + im * im;
      }
    return n;
  }
  // The output, in the plain kernels with the streaming hint (st.global.cs): nothing in this
  // kernel reads it back, and evict-first lines leave more of L2 to the neighbour spinors.
  // Measured on an H200 at 32^4 (bench/results/2026-11-25-stream-store-h200/): the hop 0.6%
  // (double) and 1.4% (clover double) faster, single within noise. The folded kernels (Fold !=
  // none) keep the plain store: with the hint, Wilson double CGNR's two folds each took 16 us
  // more (209 and 231 us against 193 and 215; bench/results/2026-11-25-session14-final-h200/).
  template <int Fold>
  GLUON_HD_INLINE void store_out(int s, const Spinor<real>& r) const {
    if constexpr (Fold == DslashFold::none) out.store_streaming(s - out_shift, r);
    else out.store(s - out_shift, r);
  }
  // The epilogue's store of a launch with x, and the fold's sums of the site: out = r, or
  // (DslashFold::cg with cg_update) out -= alpha r, CG's residual update, whose r is never stored.
  template <int Fold>
  GLUON_HD_INLINE FoldSums<Fold> store_site(int s, const Spinor<real>& r, const Spinor<real>& xs) const {
    if constexpr (Fold == DslashFold::cg) {
      if (cg_update) {
        const real alpha = static_cast<real>(blas::detail::cg_alpha(*cg_r2, *cg_pAp));
        Spinor<real> res = out.load(s - out_shift);
        if (cg_shift != real(0)) {  // A p = v + shift p
          const Spinor<real> ps = w.load(s - w_shift);
          for (int sp = 0; sp < 4; ++sp)
            for (int k = 0; k < 3; ++k) res.s[sp].c[k] -= alpha * (r.s[sp].c[k] + cg_shift * ps.s[sp].c[k]);
        } else {
          for (int sp = 0; sp < 4; ++sp)
            for (int k = 0; k < 3; ++k) res.s[sp].c[k] -= alpha * r.s[sp].c[k];
        }
        out.store(s - out_shift, res);
        return {{norm2(res), 0.0, 0.0}};
      }
    }
    store_out<Fold>(s, r);
    return fold_sums<Fold>(s, r, xs);
  }

  // Output site of thread i: the 8 hops, then the epilogue (with the clover forms only when
  // Clover), then with Fold (x given) BiCGstab's sums of the site (zero without).
  template <bool Clover, int Fold = DslashFold::none>
  GLUON_HD_INLINE FoldSums<Fold> site(std::int64_t i) const {
    int c[4], lex;
    const int s = tiled_site(static_cast<int>(i), c, lex);
    Spinor<real> acc;
    for (int sp = 0; sp < 4; ++sp)
      for (int k = 0; k < 3; ++k) acc.s[sp].c[k] = Complex<real>(real(0), real(0));
    hop<0>(acc, s, c, lex);
    hop<1>(acc, s, c, lex);
    hop<2>(acc, s, c, lex);
    hop<3>(acc, s, c, lex);

    Spinor<real> r;
    if constexpr (Clover) {
      if (fuse == kFuseCloverOnX) {  // C x + a D in
        const Spinor<real> xs = x.load(s - x_shift);
        r = clover_times(s, xs);
        for (int sp = 0; sp < 4; ++sp)
          for (int k = 0; k < 3; ++k) r.s[sp].c[k] += a * acc.s[sp].c[k];
        return store_site<Fold>(s, r, xs);
      }
      if (fuse == kFuseClover) acc = clover_times(s, acc);
    }
    if (has_x) {
      const Spinor<real> xs = x.load(s - x_shift);
      r = xs;
      for (int sp = 0; sp < 4; ++sp)
        for (int k = 0; k < 3; ++k) r.s[sp].c[k] += a * acc.s[sp].c[k];
      return store_site<Fold>(s, r, xs);
    }
    for (int sp = 0; sp < 4; ++sp)
      for (int k = 0; k < 3; ++k) r.s[sp].c[k] = a * acc.s[sp].c[k];
    store_out<Fold>(s, r);
    return {};
  }
};

// The body launch: site<Clover> of every output site.
template <class K, bool Clover>
struct WilsonBody : K {
  static constexpr bool clover = Clover;
  GLUON_HD void operator()(std::int64_t i) const { this->template site<Clover>(i); }
};

// The body with two threads a site (split_site), launched over 2 x the parity's sites.
template <class K, bool Clover>
struct WilsonSplitBody : K {
  GLUON_HD void operator()(std::int64_t i) const { this->template split_site<Clover>(i); }
};
// One thread a site for sites [0, bulk), two for the rest: launched over 2 half - bulk threads
// (bulk even, so that each pair of the tail is one warp's threads 2j, 2j + 1). Blocks start in
// index order, so the two-thread sites are the launch's last blocks: they live half as long, and
// the last wave drains sooner, while the bulk keeps the one-thread kernel's instructions.
template <class K, bool Clover>
struct WilsonTailSplitBody : K {
  std::int64_t bulk = 0;
  GLUON_HD void operator()(std::int64_t i) const {
    if (i < bulk) this->template site<Clover>(i);
    else this->template split_site<Clover>(i + bulk);  // site bulk + (i - bulk) / 2
  }
};
// Sites of the two-thread tail of one launch on ex's device: per_sm (GLUON_GPU_TAIL_SITES_PER_SM)
// per multiprocessor, at most a quarter of the sites, even.
inline std::int64_t wilson_tail_sites(const runtime::Exec& ex, std::int64_t half, int per_sm) {
#if defined(__CUDACC__)
  const std::int64_t want = std::int64_t{per_sm} * runtime::cuda::multiprocessor_count(ex.device);
  const std::int64_t t = want < half / 4 ? want : half / 4;
  return t - (t & 1);
#else
  (void)ex, (void)half, (void)per_sm;
  return 0;
#endif
}

// Whether split_site is built for these fields (its comment says why not for half), and the
// one-thread kernel with a two-thread tail: single only, where it measured 2.7-3.4% faster a
// call on an H200 (Wilson, clover r12); in double it gained nothing a call, and a tail hop ahead
// of a one-thread xpay kernel made Wilson's M 2% slower (bench/results/2026-11-27-tail-split/).
template <class Store>
inline constexpr bool wilson_split_built = !is_half_store<Store>;
template <class Store>
inline constexpr bool wilson_tail_built = std::is_same_v<Store, float>;

// The body with BiCGstab's reduction folded in (DslashFold::kind = Fold): a reduction functor.
template <class K, bool Clover, int Fold>
struct WilsonFoldBody : K {
  GLUON_HD typename K::template FoldSums<Fold> operator()(std::int64_t i) const {
    return this->template site<Clover, Fold>(i);
  }
};

// The body with CG's one sum folded in (DslashFold::cg).
template <class K, bool Clover>
struct WilsonCgBody : K {
  GLUON_HD qcd::detail::DoubleSums<1> operator()(std::int64_t i) const {
    return {{this->template site<Clover, DslashFold::cg>(i).v[0]}};
  }
};

// Pack: thread i < hf takes bottom-face site i (x_mu = 0) of the input parity and writes its
// projection (1 -+ g_mu) psi for the -mu neighbour; thread hf + i takes top-face site i and
// writes U_mu(y)^+ (1 +- g_mu) psi(y) for the +mu neighbour (QUDA packs the same two halves).
template <class Store, Reconstruct R, int mu>
struct WilsonPackKernel {
  using K = WilsonDslashKernel<Store, R>;
  using real = typename K::real;
  K k;
  real* send_bwd;
  real* send_fwd;
  std::int64_t hf;

  GLUON_HD_INLINE static void store_half(real* g, std::int64_t f, const ColorVector<real>& h0,
                                         const ColorVector<real>& h1) {
    real* e = g + f * 12;
    for (int c = 0; c < 3; ++c) {
      e[2 * c] = h0.c[c].re;
      e[2 * c + 1] = h0.c[c].im;
      e[6 + 2 * c] = h1.c[c].re;
      e[6 + 2 * c + 1] = h1.c[c].im;
    }
  }
  GLUON_HD void operator()(std::int64_t i) const {
    const int q = 1 - k.parity;
    const bool top = i >= hf;
    const std::int64_t f = top ? i - hf : i;
    int c[4];
    k.face.coords(f, mu, top ? k.idx.dims[mu] - 1 : 0, q, c);
    const std::int64_t y = k.idx.eo_index(c);
    const Spinor<real> p = k.in.load(y - k.in_shift);
    ColorVector<real> h0, h1;
    if (!top) {
      spin_project<mu>(p, h0, h1, k.fwd);
      store_half(send_bwd, f, h0, h1);
    } else {
      spin_project<mu>(p, h0, h1, -k.fwd);
      const auto U = k.u.load_link(y, mu);
      store_half(send_fwd, f, adj_mul(U, h0), adj_mul(U, h1));
    }
  }
};

// Exterior of dimension mu: thread i < hf takes top-face output site i (forward ghost hop),
// hf + i bottom-face site i (backward ghost hop), and adds a (C) times the hop to out, which the
// interior kernel wrote: the epilogues are linear in D, so the split changes only rounding.
template <class Store, Reconstruct R, int mu>
struct WilsonExteriorKernel {
  using K = WilsonDslashKernel<Store, R>;
  using real = typename K::real;
  K k;
  std::int64_t hf;

  GLUON_HD void operator()(std::int64_t i) const {
    const bool bottom = i >= hf;
    const std::int64_t f = bottom ? i - hf : i;
    int c[4];
    k.face.coords(f, mu, bottom ? 0 : k.idx.dims[mu] - 1, k.parity, c);
    const std::int64_t s = k.idx.eo_index(c);
    Spinor<real> acc;
    for (int sp = 0; sp < 4; ++sp)
      for (int j = 0; j < 3; ++j) acc.s[sp].c[j] = Complex<real>(real(0), real(0));
    if (bottom) k.template add_backward_ghost<mu>(acc, c);
    else k.template add_forward_ghost<mu>(acc, s, c);
    if (k.fuse == kFuseClover) acc = k.clover_times(s, acc);
    Spinor<real> r = k.out.load(s - k.out_shift);
    for (int sp = 0; sp < 4; ++sp)
      for (int j = 0; j < 3; ++j) r.s[sp].c[j] += k.a * acc.s[sp].c[j];
    k.out.store(s - k.out_shift, r);
  }
};

template <class Store, Reconstruct R, int mu>
void launch_wilson_face_op(const DslashCall& call, const WilsonDslashKernel<Store, R>& k) {
  using real = typename WilsonDslashKernel<Store, R>::real;
  const std::int64_t hf = k.face.half_face(mu);
  runtime::TuneSpec spec;
  if (call.op == DslashCall::pack) {
    spec.label = "wilson_pack";
    spec.tuning = runtime::Tuning::idempotent;
    WilsonPackKernel<Store, R, mu> p{k, static_cast<real*>(call.send_bwd), static_cast<real*>(call.send_fwd), hf};
    spec.aux = std::string("mu ") + char('0' + mu);
    runtime::parallel_for(call.ex, spec, 2 * hf, p);
  } else {
    spec.label = "wilson_exterior";
    spec.tuning = runtime::Tuning::off;  // adds to out: not repeatable
    WilsonExteriorKernel<Store, R, mu> e{k, hf};
    runtime::parallel_for(call.ex, spec, 2 * hf, e);
  }
}

template <class Store, Reconstruct R>
void run_wilson_face_op(const DslashCall& call, const WilsonDslashKernel<Store, R>& k) {
  switch (call.mu) {
    case 0: return launch_wilson_face_op<Store, R, 0>(call, k);
    case 1: return launch_wilson_face_op<Store, R, 1>(call, k);
    case 2: return launch_wilson_face_op<Store, R, 2>(call, k);
    case 3: return launch_wilson_face_op<Store, R, 3>(call, k);
  }
  throw Error("wilson halo: direction out of range");
}

template <class Store, Reconstruct R>
WilsonDslashKernel<Store, R> make_wilson_kernel(const DslashCall& call) {
  using K = WilsonDslashKernel<Store, R>;
  using real = typename K::real;
  if (call.ex.on_device()) {
    require_blocked(call.u->layout(), "wilson dslash: the gauge field");
    require_blocked(call.out->layout(), "wilson dslash: the output spinor");
    require_blocked(call.in->layout(), "wilson dslash: the input spinor");
    if (call.x) require_blocked(call.x->layout(), "wilson dslash: the x spinor");
    if (call.c) require_blocked(call.c->layout(), "wilson dslash: the clover field");
  }
  K k;
  k.u = make_accessor<Store, R, true>(const_cast<GaugeField&>(*call.u));
  k.out = make_spinor_accessor<Store, 4, true>(*call.out);
  k.in = make_spinor_accessor<Store, 4, true>(const_cast<SpinorField&>(*call.in));
  k.x = call.x ? make_spinor_accessor<Store, 4, true>(const_cast<SpinorField&>(*call.x)) : k.out;
  const SpinorField* w = call.fold.w;
  if (w && call.ex.on_device())
    require_blocked(w->layout(), "wilson dslash: the fold's w spinor (r0, or p with a shift)");
  k.w = w ? make_spinor_accessor<Store, 4, true>(const_cast<SpinorField&>(*w)) : k.out;
  k.w_shift = w ? static_cast<int>(parity_shift(*w, call.parity)) : 0;
  if (call.c) k.clov = make_clover_accessor<Store, true>(const_cast<CloverField&>(*call.c));
  else k.clov = typename K::C{nullptr, nullptr, FieldLayout{}};
  k.idx = call.u->geometry().indexer();
  k.half = static_cast<int>(k.idx.half);
  k.stride[0] = 1;
  for (int mu = 1; mu < 4; ++mu) k.stride[mu] = k.stride[mu - 1] * k.idx.dims[mu - 1];
  k.parity = call.parity;
  k.out_shift = static_cast<int>(parity_shift(*call.out, call.parity));
  k.in_shift = static_cast<int>(parity_shift(*call.in, 1 - call.parity));
  k.x_shift = call.x ? static_cast<int>(parity_shift(*call.x, call.parity)) : 0;
  k.a = static_cast<real>(call.a);
  k.mode = call.view.mode;
  k.face = FaceIndexer::of(k.idx);
  for (int mu = 0; mu < 4; ++mu) {
    k.phase_f[mu] = static_cast<real>(call.view.phase_fwd[mu]);
    k.phase_b[mu] = static_cast<real>(call.view.phase_bwd[mu]);
    k.cut[mu] = call.view.cut[mu];
    k.gf[mu] = static_cast<const real*>(call.view.ghost_fwd[mu]);
    k.gb[mu] = static_cast<const real*>(call.view.ghost_bwd[mu]);
  }
  k.has_x = call.x != nullptr;
  k.cg_update = call.fold.kind == DslashFold::cg && call.fold.cg_update;
  k.cg_r2 = call.fold.r2;
  k.cg_pAp = call.fold.pAp;
  k.cg_shift = static_cast<real>(call.fold.kind == DslashFold::cg ? call.fold.shift : 0.0);
  k.fwd = call.dagger ? real(1) : real(-1);
  k.ifwd = call.dagger ? 1 : -1;
  k.fuse = call.fuse;
  return k;
}

// The floors the folds are timed with (reduce_into_floored): those their tuning picked on an H200
// at 32^4 from the plain kernels' list (3 blocks in double, 4 or 5 in single;
// bench/results/2026-11-26-fold-floors-h200/). Fewer than the plain kernels have, because each is
// a kernel per fold, clover form and link compression: the build stays about as long.
template <class Store>
using wilson_fold_floors =
#if GLUON_HAVE_CUDA
    std::conditional_t<std::is_same_v<Store, double>, std::integer_sequence<int, 3>, std::integer_sequence<int, 4, 5>>;
#else
    std::integer_sequence<int>;
#endif

// The body with the fold: one reduction launch, whose finisher writes alpha or omega (BiCGstab),
// or which queues its one sum (CG); the plain reduction and its floors timed, the fastest kept.
template <class Store, class K, bool Clover>
void run_wilson_fold(const DslashCall& call, const K& k, runtime::TuneSpec spec) {
  namespace bd = blas::detail;
  using T = qcd::detail::DoubleSums<3>;
  using floors = wilson_fold_floors<Store>;
  // A half residual keeps its norms in a buffer of their own, which the tuner's restore of r
  // (Tuning::restore, below) would have to save too: tuning a half fold without them corrupted r.
  static_assert(!is_half_store<Store>, "the folds are not built for half precision");
  const DslashFold& f = call.fold;
  T* host = reinterpret_cast<T*>(f.sums_mirror);
  T* dev = reinterpret_cast<T*>(f.sums);
  const bd::PairOut coef{f.coef, f.coef_mirror};
  spec.label = "wilson_dslash_fold";
  if (f.kind == DslashFold::cg) {
    using T1 = qcd::detail::DoubleSums<1>;
    spec.label = f.cg_update ? "wilson_dslash_cg_residual" : "wilson_dslash_cg_norm";
    if (f.cg_update) {  // updates the residual in place
      spec.tuning = runtime::Tuning::restore;
      spec.outputs.add(call.out->data(), call.out->buffer().bytes());
    }
    reduce_into_floored<floors>(call.ex, spec, k.idx.half, WilsonCgBody<K, Clover>{k},
                                reinterpret_cast<T1*>(f.sums_mirror), reinterpret_cast<T1*>(f.sums));
    return;
  }
  if (f.kind == DslashFold::r0v) {
    spec.aux += " r0v";
    using B = WilsonFoldBody<K, Clover, DslashFold::r0v>;
    reduce_into_floored<floors>(call.ex, spec, k.idx.half, bd::Finished<B, bd::AlphaFinish>{{k}, {f.rho, coef}}, host,
                                dev);
  } else {
    spec.aux += " ts";
    using B = WilsonFoldBody<K, Clover, DslashFold::ts>;
    using T7 = typename K::template FoldSums<DslashFold::ts>;
    const bd::OmegaFinish fin{coef, f.rho, f.alpha, {f.rho_next, f.rho_next_mirror}, {f.beta, f.beta_mirror}};
    reduce_into_floored<floors>(call.ex, spec, k.idx.half, bd::Finished<B, bd::OmegaFinish>{{k}, fin},
                                reinterpret_cast<T7*>(f.sums_mirror), reinterpret_cast<T7*>(f.sums));
  }
}

template <class Store, Reconstruct R>
void run_wilson_dslash(const DslashCall& call) {
  if (call.op != DslashCall::body) return run_wilson_face_op(call, make_wilson_kernel<Store, R>(call));
  const auto k = make_wilson_kernel<Store, R>(call);
  // Out-of-place unless x is the output (then tuning would apply the update repeatedly).
  runtime::TuneSpec spec;
  spec.label = "wilson_dslash";
  spec.tuning = call.x && call.x->data() == call.out->data() ? runtime::Tuning::off : runtime::Tuning::idempotent;
  spec.aux = "fuse " + std::to_string(call.fuse) + (call.dagger ? " dagger" : "");
  spec.aux += " mode " + std::to_string(call.view.mode);
  if (call.x) spec.aux += " x";  // D and x + a D share a functor type, not their best launch
  // The variants the tuner times: the one-thread kernel and its occupancy floors, then (GPU,
  // where built) the two-thread kernel and its floors, then the one-thread kernel with a
  // two-thread tail (WilsonTailSplitBody) and its floors; GLUON_GPU_SITE_THREADS keeps one kind.
  // Unset, the tuner picks: no kind wins everywhere (on one H200 two threads were 3.5% faster
  // for clover single and 3.4% slower for Wilson double, back to back as the tuner times them
  // and per call alike; bench/results/2026-11-27-site-threads/, trip 3).
  const int threads = wilson_site_threads();
  if (threads) spec.aux += " threads " + std::to_string(threads);
  const int tail_per_sm = wilson_tail_sites_per_sm();
  if (tail_per_sm != kWilsonTailSitesPerSm) spec.aux += " tail " + std::to_string(tail_per_sm);
  auto run = [&](const auto& kern, const auto& split, const auto& tail) {
    using KT = std::decay_t<decltype(kern)>;
    using floors = occupancy_floors<Store>;
    constexpr int nf = 1 + static_cast<int>(floors::size());
    constexpr bool built = !std::is_same_v<std::decay_t<decltype(split)>, std::nullptr_t>;
    constexpr bool tail_built = !std::is_same_v<std::decay_t<decltype(tail)>, std::nullptr_t>;
    const bool gpu = call.ex.on_device();
    // Kinds in variant order (0 one thread, 1 two, 2 tail), those built and this launch may time.
    const bool has[3] = {true, built && gpu, tail_built && gpu};
    int kinds[3], nk = 0;
    for (int kind = 0; kind < 3; ++kind)
      if (has[kind] && (threads == 0 || threads == kind + 1)) kinds[nk++] = kind;
    if (nk == 0) kinds[nk++] = 0;  // a kind the fields lack: one thread a site
    auto go = [&](int v) {
      const int kind = kinds[v / nf], f = v % nf;
      if (kind == 0) {
        launch_variant(f, kern, [&](const auto& g) { runtime::parallel_for(call.ex, spec, k.idx.half, g); }, floors{});
      } else if constexpr (built) {
        if (kind == 1) {
          launch_variant(f, split, [&](const auto& g) { runtime::parallel_for(call.ex, spec, 2 * k.idx.half, g); },
                         floors{});
        } else if constexpr (tail_built) {
          auto t = tail;
          t.bulk = k.idx.half - wilson_tail_sites(call.ex, k.idx.half, tail_per_sm);
          launch_variant(f, t, [&](const auto& g) { runtime::parallel_for(call.ex, spec, 2 * k.idx.half - t.bulk, g); },
                         floors{});
        }
      }
    };
    go(runtime::choose_variant<KT>(call.ex, spec, k.idx.half, nk * nf, go));
  };
  using K = WilsonDslashKernel<Store, R>;
  if (call.fold.kind != DslashFold::none) {
    // Built in double and single, where the host folds (dslash_fold_pays).
    if constexpr (is_half_store<Store>) {
      throw Error("wilson dslash: the solvers' folds are not built for half precision");
    } else {
      return call.fuse == kFusePlain ? run_wilson_fold<Store, K, false>(call, k, spec)
                                     : run_wilson_fold<Store, K, true>(call, k, spec);
    }
  }
#if defined(__CUDACC__)
  if constexpr (wilson_tail_built<Store>) {
    if (call.fuse == kFusePlain)
      return run(WilsonBody<K, false>{k}, WilsonSplitBody<K, false>{k}, WilsonTailSplitBody<K, false>{k});
    return run(WilsonBody<K, true>{k}, WilsonSplitBody<K, true>{k}, WilsonTailSplitBody<K, true>{k});
  } else if constexpr (wilson_split_built<Store>) {
    if (call.fuse == kFusePlain) return run(WilsonBody<K, false>{k}, WilsonSplitBody<K, false>{k}, nullptr);
    return run(WilsonBody<K, true>{k}, WilsonSplitBody<K, true>{k}, nullptr);
  }
#endif
  if (call.fuse == kFusePlain) run(WilsonBody<K, false>{k}, nullptr, nullptr);
  else run(WilsonBody<K, true>{k}, nullptr, nullptr);
}

template <class Store>
void launch_wilson_dslash_store(const DslashCall& call) {
  switch (call.u->params().reconstruct) {
    case Reconstruct::r18: return run_wilson_dslash<Store, Reconstruct::r18>(call);
    case Reconstruct::r12: return run_wilson_dslash<Store, Reconstruct::r12>(call);
    case Reconstruct::r8: return run_wilson_dslash<Store, Reconstruct::r8>(call);
  }
  throw Error("wilson dslash: unknown reconstruct");
}

}  // namespace gluon::qcd::detail
