#pragma once
// Private: the staggered hopping kernel (naive and improved), included only by the
// staggered_{double,single,half}_kernels.cpp files, one per storage precision so that nvcc
// compiles them in parallel. staggered_dslash.h declares the launcher that staggered.cpp calls.
//
// One thread per output site x of the launched range:
//   out(x) = c_fat  * sum_mu s_mu(x) [ F_mu(x) in(x+mu)  - s'(x) F_mu(x-mu)^+  in(x-mu) ]
//          + c_long * sum_mu s_mu(x) [ L_mu(x) in(x+3mu) - s'(x) L_mu(x-3mu)^+ in(x-3mu) ]
//          + beta * x(x)                                             (xpay only)
// with eta_mu(x) and the boundary phase of each hop that wraps folded into +-1 signs (computed
// from the coordinates here; the stored links stay the plain, possibly compressed, links).
// c_fat/c_long carry 1/2, the sign of the dagger (-1) or of the caller's alpha, and the global
// scale the links were divided by before storage (fat/long: a power of two >= max |entry|, or the
// SU(3) normalisation of the long links for r12), so that half precision never saturates.
#include <cstdint>
#include <type_traits>

#include "gluon/qcd/gauge_accessor.h"
#include "gluon/qcd/geometry.h"
#include "gluon/qcd/spinor_accessor.h"
#include "gluon/runtime/parallel.h"
#include "gluon/runtime/tune.h"
#include "../cg_coefficients.h"
#include "../ops_support.h"
#include "face_indexer.h"
#include "occupancy_floor.h"
#include "staggered_dslash.h"

namespace gluon::qcd::detail {

// acc += (negative ? -f : f) v: the hop's sign and (half) its neighbour's and link's scales ride
// on the accumulation, one FFMA a real, where decoding each loaded real scaled 18 of them a hop.
template <class T>
GLUON_HD_INLINE void stag_accumulate_scaled(ColorVector<T>& acc, const ColorVector<T>& v, bool negative, T f) {
  const T s = negative ? -f : f;
  for (int c = 0; c < 3; ++c) {
    acc.c[c].re += s * v.c[c].re;
    acc.c[c].im += s * v.c[c].im;
  }
}
template <class T>
GLUON_HD_INLINE void stag_accumulate(ColorVector<T>& acc, const ColorVector<T>& v, bool negative) {
  stag_accumulate_scaled(acc, v, negative, T(1));
}

template <class T>
GLUON_HD_INLINE ColorVector<T> load_cv(const T* g, std::int64_t f) {
  ColorVector<T> v;
  for (int c = 0; c < 3; ++c) v.c[c] = Complex<T>(g[6 * f + 2 * c], g[6 * f + 2 * c + 1]);
  return v;
}
template <class T>
GLUON_HD_INLINE void store_cv(T* g, std::int64_t f, const ColorVector<T>& v) {
  for (int c = 0; c < 3; ++c) {
    g[6 * f + 2 * c] = v.c[c].re;
    g[6 * f + 2 * c + 1] = v.c[c].im;
  }
}

template <class SA, class GA, class LA, bool Improved>
struct StaggeredDslashKernel {
  using real = typename SA::real;
  SA out, in, x;
  GA fat;
  LA lng;
  SiteIndexer idx;
  int stride[4];  // lexicographic stride of direction mu (sites are 32-bit: kMaxLocalVolume)
  int origin_parity[4];  // parity of origin_0 + ... + origin_{mu-1} (global eta from local coords)
  int antiperiodic[4];   // 1: hops across the boundary in mu pick up -1
  // Site indices are 32-bit (Geometry: local volume <= kMaxLocalVolume), as in the Wilson kernel:
  // 64-bit bases made every neighbour's index and norm address 64-bit arithmetic.
  int first;                     // eo index of the first output site of the launch
  int out_base, in_base, x_base;  // eo index - base = site index in each field
  real c_fat, c_long, beta;
  bool hopping;  // false: out = beta x only (copies a parity into a full field)
  bool xpay;
  // Halo (spinor_halo.h): mode 0 no cut, 1 read ghosts, 2 skip hops across cut edges.
  // Forward ghost of mu: in(y) on the +mu neighbour's slices 0..2 (naive: 0); backward ghost:
  // F^+ in on its top slice, then (improved) L^+ in on its top three slices.
  int mode;
  const double* cg_r2;   // cg_residual: the slots alpha is computed from
  const double* cg_pAp;
  int cut[4];
  int gneg_f[4], gneg_b[4];  // 1: a hop across the rank's +mu / -mu edge is antiperiodic
  const real* gf[4];
  const real* gb[4];
  FaceIndexer face;

  // The hops of direction mu at distance dist (1 fat, 3 long), mu and dist compile-time so that
  // the coordinates stay in registers (a run-time mu put them in a local-memory frame) and nvcc
  // can issue the loads of several hops ahead. The neighbour's eo index follows from the
  // lexicographic one: an odd hop flips the parity and, extents being even, so does a wrap.
  // Extents are >= 2, so a hop of 3 wraps at most twice (counted exactly: the boundary sign).
  // in_norm2 (the +x hop only; nullptr: not wanted) receives |in|^2 at the forward neighbour,
  // from the loaded values.
  template <int mu, int dist, class A>
  GLUON_HD_INLINE void hop_term(ColorVector<real>& acc, const A& links, const int* xc, int eo, int lex,
                                int other, bool eta_neg, double* in_norm2 = nullptr) const {
    const int L = idx.dims[mu];
    {
      int v = xc[mu] + dist, w = 0;
      if (v >= L) v -= L, ++w;
      if (dist > 1 && v >= L) v -= L, ++w;
      if (cut[mu] & int(w != 0)) {  // no short circuit on the per-site wrap: cut is uniform
        if (mode == 1) add_forward_ghost(acc, links, xc, eo, mu, dist, eta_neg);
      } else {
        const int nb = other + ((lex + (v - xc[mu]) * stride[mu]) >> 1);
        const bool neg = eta_neg != ((w & antiperiodic[mu]) != 0);
        real sc;  // half: the spinor's norm / 32767 and the link's 1/32767, applied once
        const ColorVector<real> v = in.load_unscaled(nb - in_base, sc, A::unscaled_factor);
        const auto u = links.load_link_unscaled(eo, mu);
        stag_accumulate_scaled(acc, u * v, neg, with_link_sign(u, sc));
        if (in_norm2) {
          const double f = static_cast<double>(sc) / A::unscaled_factor;  // the spinor's own scale
          *in_norm2 = norm2_of(v) * f * f;
        }
      }
    }
    {
      int v = xc[mu] - dist, w = 0;
      if (v < 0) v += L, ++w;
      if (dist > 1 && v < 0) v += L, ++w;
      if (cut[mu] & int(w != 0)) {
        if (mode == 1) add_backward_ghost(acc, xc, mu, dist, eta_neg);
      } else {
        const int nb = other + ((lex + (v - xc[mu]) * stride[mu]) >> 1);
        // The backward term enters with a minus sign.
        const bool neg = !(eta_neg != ((w & antiperiodic[mu]) != 0));
        real sc;
        const ColorVector<real> v = in.load_unscaled(nb - in_base, sc, A::unscaled_factor);
        const auto u = links.load_link_unscaled(nb, mu);
        stag_accumulate_scaled(acc, adj_mul(u, v), neg, with_link_sign(u, sc));
      }
    }
  }

  template <int mu>
  GLUON_HD_INLINE void hops(ColorVector<real>& af, ColorVector<real>& al, const int* xc, int eo, int lex,
                            int other, int eta, double* in_norm2 = nullptr) const {
    const bool eta_neg = ((eta + origin_parity[mu]) & 1) != 0;
    hop_term<mu, 1>(af, fat, xc, eo, lex, other, eta_neg, in_norm2);
    if constexpr (Improved) hop_term<mu, 3>(al, lng, xc, eo, lex, other, eta_neg);
  }

  template <class A>
  GLUON_HD_INLINE void add_forward_ghost(ColorVector<real>& acc, const A& links, const int xc[4],
                                         std::int64_t eo, int mu, int dist, bool eta_neg) const {
    const int k = xc[mu] + dist - idx.dims[mu];  // slice on the neighbour
    const ColorVector<real> v = load_cv(gf[mu], face.index(xc, mu, k));
    stag_accumulate(acc, links.load(eo, mu) * v, eta_neg != (gneg_f[mu] != 0));
  }
  GLUON_HD_INLINE void add_backward_ghost(ColorVector<real>& acc, const int xc[4], int mu, int dist,
                                          bool eta_neg) const {
    const std::int64_t f = dist == 1 ? face.index(xc, mu, 0)
                                     : face.half_face(mu) + face.index(xc, mu, xc[mu]);
    stag_accumulate(acc, load_cv(gb[mu], f), !(eta_neg != (gneg_b[mu] != 0)));
  }

  // Parity of global x_0 + ... + x_{mu-1} is odd (eta_mu(x) = -1).
  GLUON_HD_INLINE bool eta_negative(const int xc[4], int mu) const {
    int eta = 0;
    for (int nu = 0; nu < mu; ++nu) eta += xc[nu];
    return ((eta + origin_parity[mu]) & 1) != 0;
  }

  GLUON_HD void operator()(std::int64_t i) const { site<StaggeredFold::none>(i); }

  // Computes out(x) and stores it, or (cg_residual) subtracts alpha out(x) from the residual
  // stored there; returns the site's part of the fold's sums (StaggeredFold), in double and from
  // the values before a store rounds them.
  template <int Fold>
  GLUON_HD DoubleSums<2> site(std::int64_t i) const {
    const int eo = first + static_cast<int>(i);
    int xc[4];
    idx.coords(eo, xc);
    ColorVector<real> af{}, al{};
    DoubleSums<2> sums{};
    if (hopping) {
      const int lex = xc[0] + stride[1] * xc[1] + stride[2] * xc[2] + stride[3] * xc[3];
      const int half = static_cast<int>(idx.half);
      const int other = eo >= half ? 0 : half;  // the neighbours' parity block
      // cg_norms: |in|^2 at the +x neighbour, from the x hop's load, so that each input site is
      // counted once over the launch (x -> x + 1 with wrap-around maps the output parity onto
      // the input parity; the lattice is not split, so that hop is never a ghost).
      hops<0>(af, al, xc, eo, lex, other, 0,  // eta_mu: parity of (global) x_0 + ... + x_{mu-1}
              Fold == StaggeredFold::cg_norms ? &sums.v[1] : nullptr);
      hops<1>(af, al, xc, eo, lex, other, xc[0]);
      hops<2>(af, al, xc, eo, lex, other, xc[0] + xc[1]);
      hops<3>(af, al, xc, eo, lex, other, xc[0] + xc[1] + xc[2]);
    }
    ColorVector<real> r;
    for (int c = 0; c < 3; ++c) {
      r.c[c].re = c_fat * af.c[c].re;
      r.c[c].im = c_fat * af.c[c].im;
      if constexpr (Improved) {
        r.c[c].re += c_long * al.c[c].re;
        r.c[c].im += c_long * al.c[c].im;
      }
    }
    if (xpay) {
      const ColorVector<real> xv = x.load(eo - x_base);
      for (int c = 0; c < 3; ++c) {
        r.c[c].re += beta * xv.c[c].re;
        r.c[c].im += beta * xv.c[c].im;
        if constexpr (Fold == StaggeredFold::dot)
          sums.v[0] += static_cast<double>(xv.c[c].re) * r.c[c].re + static_cast<double>(xv.c[c].im) * r.c[c].im;
      }
    }
    if constexpr (Fold == StaggeredFold::cg_residual) {
      const real alpha = static_cast<real>(blas::detail::cg_alpha(*cg_r2, *cg_pAp));
      ColorVector<real> res = out.load(eo - out_base);
      for (int c = 0; c < 3; ++c) {
        res.c[c].re -= alpha * r.c[c].re;
        res.c[c].im -= alpha * r.c[c].im;
      }
      out.store(eo - out_base, res);
      sums.v[0] = norm2_of(res);
    } else {
      out.store(eo - out_base, r);
      if constexpr (Fold == StaggeredFold::cg_norms) sums.v[0] = norm2_of(r);
    }
    return sums;
  }

  GLUON_HD_INLINE static double norm2_of(const ColorVector<real>& v) {
    double n = 0.0;
    for (int c = 0; c < 3; ++c)
      n += static_cast<double>(v.c[c].re) * v.c[c].re + static_cast<double>(v.c[c].im) * v.c[c].im;
    return n;
  }
};

// The body with one sum folded in (StaggeredFold dot or cg_residual).
template <class K, int Fold>
struct StaggeredSumKernel {
  K k;
  GLUON_HD DoubleSums<1> operator()(std::int64_t i) const { return {{k.template site<Fold>(i).v[0]}}; }
};

// The first kernel of CG's M with {|out|^2, |in|^2} summed; its finish writes p^dagger M p =
// m2 |in|^2 + |out|^2 over the first of the two slots (device and mirror) the sums went to.
template <class K>
struct StaggeredCgNormsKernel {
  K k;
  double m2;
  double* pAp;
  double* pAp_mirror;
  GLUON_HD DoubleSums<2> operator()(std::int64_t i) const { return k.template site<StaggeredFold::cg_norms>(i); }
  GLUON_HD void finish(const DoubleSums<2>& total) const {
    const double v = m2 * total.v[1] + total.v[0];
    *pAp = v;
    *pAp_mirror = v;
  }
};

// Pack of dimension mu (input sites of parity q): entries [0, D hf) are in(y) on slices
// 0..D-1 (D = 3 improved, 1 naive) for the -mu neighbour; then F^+ in on slice L-1, and
// (improved) L^+ in on slices L-3..L-1, for the +mu neighbour.
template <class K>
struct StaggeredPackKernel {
  using real = typename K::real;
  K k;
  int mu, q, depth;
  std::int64_t hf;
  real* send_bwd;
  real* send_fwd;

  GLUON_HD void operator()(std::int64_t i) const {
    const int L = k.idx.dims[mu];
    int c[4];
    const std::int64_t nf = depth * hf;
    if (i < nf) {
      k.face.coords(i, mu, 0, q, c);
      store_cv(send_bwd, i, k.in.load(k.idx.eo_index(c) - k.in_base));
      return;
    }
    const std::int64_t j = i - nf;
    if (j < hf) {
      k.face.coords(j, mu, L - 1, q, c);
      const std::int64_t y = k.idx.eo_index(c);
      store_cv(send_fwd, j, adj_mul(k.fat.load(y, mu), k.in.load(y - k.in_base)));
      return;
    }
    k.face.coords(j - hf, mu, L - 3, q, c);
    const std::int64_t y = k.idx.eo_index(c);
    store_cv(send_fwd, j, adj_mul(k.lng.load(y, mu), k.in.load(y - k.in_base)));
  }
};

// Exterior of dimension mu: output sites on the slices within `depth` of either edge (all slices
// when the two slabs overlap) add their ghost hops of mu, scaled, to out.
template <class K, bool Improved>
struct StaggeredExteriorKernel {
  using real = typename K::real;
  K k;
  int mu, p, nslices;
  std::int64_t hf;

  GLUON_HD void operator()(std::int64_t i) const {
    const int L = k.idx.dims[mu];
    const int j = static_cast<int>(i / hf);
    const int slice = j < nslices / 2 ? j : L - nslices + j;
    int c[4];
    k.face.coords(i - j * hf, mu, slice, p, c);
    const std::int64_t eo = k.idx.eo_index(c);
    const bool eta_neg = k.eta_negative(c, mu);
    ColorVector<real> af{}, al{};
    if (slice + 1 >= L) k.add_forward_ghost(af, k.fat, c, eo, mu, 1, eta_neg);
    if (slice - 1 < 0) k.add_backward_ghost(af, c, mu, 1, eta_neg);
    if constexpr (Improved) {
      if (slice + 3 >= L) k.add_forward_ghost(al, k.lng, c, eo, mu, 3, eta_neg);
      if (slice - 3 < 0) k.add_backward_ghost(al, c, mu, 3, eta_neg);
    }
    ColorVector<real> r = k.out.load(eo - k.out_base);
    for (int cc = 0; cc < 3; ++cc) {
      r.c[cc].re += k.c_fat * af.c[cc].re;
      r.c[cc].im += k.c_fat * af.c[cc].im;
      if constexpr (Improved) {
        r.c[cc].re += k.c_long * al.c[cc].re;
        r.c[cc].im += k.c_long * al.c[cc].im;
      }
    }
    k.out.store(eo - k.out_base, r);
  }
};

// The links, lattice, output sites and hop scales of a launch into a kernel (the single- and the
// multi-vector one have these members alike).
template <class K, class GA, class LA>
void set_links_and_sites(K& k, const StaggeredLaunch& a, const GA& fat, const LA& lng) {
  using real = typename K::real;
  k.fat = fat;
  k.lng = lng;
  k.idx = a.indexer;
  k.stride[0] = 1;
  for (int mu = 1; mu < 4; ++mu) k.stride[mu] = k.stride[mu - 1] * k.idx.dims[mu - 1];
  for (int mu = 0; mu < 4; ++mu) {
    k.origin_parity[mu] = a.origin_parity[mu];
    k.antiperiodic[mu] = a.antiperiodic[mu];
  }
  k.first = static_cast<int>(a.first);
  k.out_base = static_cast<int>(a.out_base);
  k.in_base = static_cast<int>(a.in_base);
  k.x_base = static_cast<int>(a.x_base);
  k.c_fat = static_cast<real>(a.c_fat);
  k.c_long = static_cast<real>(a.c_long);
}

// The accessors assume the blocked order in device code (field_layout.h: one load path per
// field, which the launcher checks).
template <class Store, class GA, class LA, bool Improved>
void launch_dslash_typed(const StaggeredLaunch& a, GA fat, LA lng) {
  using SA = SpinorAccessor<Store, 1, true>;
  using real = typename SA::real;
  if (a.ex->on_device()) {
    require_blocked(a.fat->layout(), "staggered dslash: the fat (or thin) links");
    if (a.longlinks) require_blocked(a.longlinks->layout(), "staggered dslash: the long links");
    require_blocked(a.out->layout(), "staggered dslash: the output");
    require_blocked(a.in->layout(), "staggered dslash: the input");
    if (a.x) require_blocked(a.x->layout(), "staggered dslash: the x vector");
  }
  StaggeredDslashKernel<SA, GA, LA, Improved> k{};
  k.out = make_spinor_accessor<Store, 1, true>(*a.out);
  k.in = make_spinor_accessor<Store, 1, true>(const_cast<SpinorField&>(*a.in));
  k.x = a.x ? make_spinor_accessor<Store, 1, true>(const_cast<SpinorField&>(*a.x)) : k.in;
  set_links_and_sites(k, a, fat, lng);
  k.beta = static_cast<real>(a.beta);
  k.hopping = a.hopping;
  k.xpay = a.x != nullptr;
  k.mode = a.view.mode;
  k.face = FaceIndexer::of(k.idx);
  for (int mu = 0; mu < 4; ++mu) {
    k.cut[mu] = a.view.cut[mu];
    k.gneg_f[mu] = a.view.phase_fwd[mu] < 0 ? 1 : 0;
    k.gneg_b[mu] = a.view.phase_bwd[mu] < 0 ? 1 : 0;
    k.gf[mu] = static_cast<const real*>(a.view.ghost_fwd[mu]);
    k.gb[mu] = static_cast<const real*>(a.view.ghost_bwd[mu]);
  }
  using K = StaggeredDslashKernel<SA, GA, LA, Improved>;
  if (a.op == StaggeredLaunch::pack) {
    const int depth = Improved ? 3 : 1;
    const std::int64_t hf = k.face.half_face(a.mu);
    StaggeredPackKernel<K> pk{k, a.mu, static_cast<int>(1 - a.first / a.indexer.half), depth, hf,
                              static_cast<real*>(a.send_bwd), static_cast<real*>(a.send_fwd)};
    runtime::TuneSpec ps;
    ps.label = Improved ? "improved_staggered_pack" : "staggered_pack";
    ps.tuning = runtime::Tuning::idempotent;
    ps.aux = std::string("mu ") + char('0' + a.mu);
    runtime::parallel_for(*a.ex, ps, (Improved ? 7 : 2) * hf, pk);
    return;
  }
  if (a.op == StaggeredLaunch::exterior) {
    const int depth = Improved ? 3 : 1;
    const int L = a.indexer.dims[a.mu];
    const int nslices = 2 * depth < L ? 2 * depth : L;
    const std::int64_t hf = k.face.half_face(a.mu);
    StaggeredExteriorKernel<K, Improved> ek{k, a.mu, static_cast<int>(a.first / a.indexer.half), nslices, hf};
    runtime::TuneSpec es;
    es.label = Improved ? "improved_staggered_exterior" : "staggered_exterior";
    es.tuning = runtime::Tuning::off;  // adds to out
    runtime::parallel_for(*a.ex, es, nslices * hf, ek);
    return;
  }
  using floors = occupancy_floors<Store>;
  if (a.fold.kind == StaggeredFold::dot) {
    runtime::TuneSpec ds;
    ds.label = Improved ? "improved_staggered_dslash_dot" : "staggered_dslash_dot";
    ds.tuning = a.x->data() == a.out->data() ? runtime::Tuning::off : runtime::Tuning::idempotent;
    using T = DoubleSums<1>;
    runtime::parallel_reduce_into<T>(*a.ex, ds, a.count, StaggeredSumKernel<K, StaggeredFold::dot>{k},
                                     reinterpret_cast<T*>(a.fold.host), reinterpret_cast<T*>(a.fold.device));
    return;
  }
  if (a.fold.kind == StaggeredFold::cg_norms || a.fold.kind == StaggeredFold::cg_residual) {
    // Built for double and single only: in half they measured slower than M_dot and the BLAS
    // residual update (staggered.cpp, M_cg_residual).
    if constexpr (is_half_store<Store>) {
      throw Error("staggered dslash: CG's folds are not built for half precision");
    } else {
      // With the plain kernel's occupancy floors (reduce_into_floored says why).
      runtime::TuneSpec ds;
      if (a.fold.kind == StaggeredFold::cg_norms) {
        ds.label = Improved ? "improved_staggered_dslash_cg_norms" : "staggered_dslash_cg_norms";
        ds.tuning = runtime::Tuning::idempotent;  // out-of-place; the finish rewrites its slot from the sums
        using T = DoubleSums<2>;
        reduce_into_floored<floors>(*a.ex, ds, a.count,
                                    StaggeredCgNormsKernel<K>{k, a.fold.m2, a.fold.device, a.fold.host},
                                    reinterpret_cast<T*>(a.fold.host), reinterpret_cast<T*>(a.fold.device));
        return;
      }
      ds.label = Improved ? "improved_staggered_dslash_cg_residual" : "staggered_dslash_cg_residual";
      ds.tuning = runtime::Tuning::restore;  // updates the residual in place
      ds.outputs.add(a.out->data(), a.out->buffer().bytes());
      k.cg_r2 = a.fold.r2;
      k.cg_pAp = a.fold.pAp;
      using T = DoubleSums<1>;
      reduce_into_floored<floors>(*a.ex, ds, a.count, StaggeredSumKernel<K, StaggeredFold::cg_residual>{k},
                                  reinterpret_cast<T*>(a.fold.host), reinterpret_cast<T*>(a.fold.device));
      return;
    }
  }
  if (a.fold.kind != StaggeredFold::none) throw Error("staggered dslash: unknown fold");
  // Out-of-place unless x is the output (then tuning would apply the update repeatedly).
  runtime::TuneSpec spec;
  spec.label = Improved ? "improved_staggered_dslash" : "staggered_dslash";
  spec.tuning = a.x && a.x->data() == a.out->data() ? runtime::Tuning::off : runtime::Tuning::idempotent;
  spec.aux = a.x ? "xpay" : "";
  auto go = [&](int v) {
    launch_variant(v, k, [&](const auto& f) { runtime::parallel_for(*a.ex, spec, a.count, f); }, floors{});
  };
  go(runtime::choose_variant<K>(*a.ex, spec, a.count, 1 + static_cast<int>(floors::size()), go));
}

// f(fat accessor, long accessor, std::bool_constant<Improved>) for the launch's link storage.
// Naive: thin links r18/r12/r8 (passed twice). Improved: fat r18, long r18/r12 (checked by the caller).
template <class Store, class F>
void with_staggered_links(const StaggeredLaunch& a, F&& f) {
  GaugeField& fat = const_cast<GaugeField&>(*a.fat);
  if (!a.longlinks) {
    switch (fat.params().reconstruct) {
      case Reconstruct::r18: {
        auto u = make_accessor<Store, Reconstruct::r18, true>(fat);
        return f(u, u, std::false_type{});
      }
      case Reconstruct::r12: {
        auto u = make_accessor<Store, Reconstruct::r12, true>(fat);
        return f(u, u, std::false_type{});
      }
      case Reconstruct::r8: {
        auto u = make_accessor<Store, Reconstruct::r8, true>(fat);
        return f(u, u, std::false_type{});
      }
    }
    throw Error("staggered dslash: unknown reconstruct of the links");
  }
  GaugeField& lng = const_cast<GaugeField&>(*a.longlinks);
  auto u = make_accessor<Store, Reconstruct::r18, true>(fat);
  switch (lng.params().reconstruct) {
    case Reconstruct::r18: return f(u, make_accessor<Store, Reconstruct::r18, true>(lng), std::true_type{});
    case Reconstruct::r12: return f(u, make_accessor<Store, Reconstruct::r12, true>(lng), std::true_type{});
    case Reconstruct::r8: break;
  }
  throw Error("improved staggered dslash: long links must be stored r18 or r12");
}

template <class Store>
void launch_staggered_dslash_impl(const StaggeredLaunch& a) {
  with_staggered_links<Store>(a, [&](auto f, auto l, auto improved) {
    launch_dslash_typed<Store, decltype(f), decltype(l), decltype(improved)::value>(a, f, l);
  });
}

}  // namespace gluon::qcd::detail
