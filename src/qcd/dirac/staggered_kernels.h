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

#include "gluon/qcd/gauge_accessor.h"
#include "gluon/qcd/geometry.h"
#include "gluon/qcd/spinor_accessor.h"
#include "gluon/runtime/parallel.h"
#include "gluon/runtime/tune.h"
#include "staggered_dslash.h"

namespace gluon::qcd::detail {

template <class T>
GLUON_HD_INLINE void stag_accumulate(ColorVector<T>& acc, const ColorVector<T>& v, bool negative) {
  const T s = negative ? T(-1) : T(1);
  for (int c = 0; c < 3; ++c) {
    acc.c[c].re += s * v.c[c].re;
    acc.c[c].im += s * v.c[c].im;
  }
}

template <class SA, class GA, class LA, bool Improved>
struct StaggeredDslashKernel {
  using real = typename SA::real;
  SA out, in, x;
  GA fat;
  LA lng;
  SiteIndexer idx;
  int origin_parity[4];  // parity of origin_0 + ... + origin_{mu-1} (global eta from local coords)
  int antiperiodic[4];   // 1: hops across the boundary in mu pick up -1
  std::int64_t first;    // eo index of the first output site of the launch
  std::int64_t out_base, in_base, x_base;  // eo index - base = site index in each field
  real c_fat, c_long, beta;
  bool hopping;  // false: out = beta x only (copies a parity into a full field)
  bool xpay;

  // eo index of x moved by d in direction mu (periodic) and the number of wraps (0 or 1 for
  // |d| <= extent; more only on extents below 3, counted exactly).
  GLUON_HD_INLINE std::int64_t hop(const int xc[4], int mu, int d, int& wraps) const {
    int y[4] = {xc[0], xc[1], xc[2], xc[3]};
    int v = y[mu] + d;
    const int L = idx.dims[mu];
    wraps = 0;
    while (v >= L) {
      v -= L;
      ++wraps;
    }
    while (v < 0) {
      v += L;
      ++wraps;
    }
    y[mu] = v;
    return idx.eo_index(y);
  }

  template <class A>
  GLUON_HD_INLINE void hop_term(ColorVector<real>& acc, const A& links, const int xc[4],
                                std::int64_t eo, int mu, int dist, bool eta_neg) const {
    int wf = 0, wb = 0;
    const std::int64_t fwd = hop(xc, mu, dist, wf);
    const std::int64_t bwd = hop(xc, mu, -dist, wb);
    const bool neg_f = eta_neg != ((wf & antiperiodic[mu]) != 0);
    // The backward term enters with a minus sign.
    const bool neg_b = !(eta_neg != ((wb & antiperiodic[mu]) != 0));
    const auto uf = links.load(eo, mu);
    stag_accumulate(acc, uf * in.load(fwd - in_base), neg_f);
    const auto ub = links.load(bwd, mu);
    stag_accumulate(acc, adj_mul(ub, in.load(bwd - in_base)), neg_b);
  }

  GLUON_HD void operator()(std::int64_t i) const {
    const std::int64_t eo = first + i;
    int xc[4];
    idx.coords(eo, xc);
    ColorVector<real> af{}, al{};
    int eta = 0;  // parity of (global) x_0 + ... + x_{mu-1}
    for (int mu = 0; mu < 4 && hopping; ++mu) {
      const bool eta_neg = ((eta + origin_parity[mu]) & 1) != 0;
      hop_term(af, fat, xc, eo, mu, 1, eta_neg);
      if constexpr (Improved) hop_term(al, lng, xc, eo, mu, 3, eta_neg);
      eta += xc[mu];
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
      }
    }
    out.store(eo - out_base, r);
  }
};

template <class Store, class GA, class LA, bool Improved>
void launch_dslash_typed(const StaggeredLaunch& a, GA fat, LA lng) {
  using SA = SpinorAccessor<Store, 1>;
  using real = typename SA::real;
  StaggeredDslashKernel<SA, GA, LA, Improved> k{};
  k.out = make_spinor_accessor<Store, 1>(*a.out);
  k.in = make_spinor_accessor<Store, 1>(const_cast<SpinorField&>(*a.in));
  k.x = a.x ? make_spinor_accessor<Store, 1>(const_cast<SpinorField&>(*a.x)) : k.in;
  k.fat = fat;
  k.lng = lng;
  k.idx = a.indexer;
  for (int mu = 0; mu < 4; ++mu) {
    k.origin_parity[mu] = a.origin_parity[mu];
    k.antiperiodic[mu] = a.antiperiodic[mu];
  }
  k.first = a.first;
  k.out_base = a.out_base;
  k.in_base = a.in_base;
  k.x_base = a.x_base;
  k.c_fat = static_cast<real>(a.c_fat);
  k.c_long = static_cast<real>(a.c_long);
  k.beta = static_cast<real>(a.beta);
  k.hopping = a.hopping;
  k.xpay = a.x != nullptr;
  // Out-of-place unless x is the output (then tuning would apply the update repeatedly).
  runtime::TuneSpec spec;
  spec.label = Improved ? "improved_staggered_dslash" : "staggered_dslash";
  spec.tuning = a.x && a.x->data() == a.out->data() ? runtime::Tuning::off : runtime::Tuning::idempotent;
  spec.aux = a.x ? "xpay" : "";
  runtime::parallel_for(*a.ex, spec, a.count, k);
}

// Naive: thin links r18/r12/r8. Improved: fat r18, long r18/r12 (checked by the caller).
template <class Store>
void launch_staggered_dslash_impl(const StaggeredLaunch& a) {
  GaugeField& fat = const_cast<GaugeField&>(*a.fat);
  if (!a.longlinks) {
    switch (fat.params().reconstruct) {
      case Reconstruct::r18: {
        auto f = make_accessor<Store, Reconstruct::r18>(fat);
        return launch_dslash_typed<Store, decltype(f), decltype(f), false>(a, f, f);
      }
      case Reconstruct::r12: {
        auto f = make_accessor<Store, Reconstruct::r12>(fat);
        return launch_dslash_typed<Store, decltype(f), decltype(f), false>(a, f, f);
      }
      case Reconstruct::r8: {
        auto f = make_accessor<Store, Reconstruct::r8>(fat);
        return launch_dslash_typed<Store, decltype(f), decltype(f), false>(a, f, f);
      }
    }
    throw Error("staggered dslash: unknown reconstruct of the links");
  }
  GaugeField& lng = const_cast<GaugeField&>(*a.longlinks);
  auto f = make_accessor<Store, Reconstruct::r18>(fat);
  switch (lng.params().reconstruct) {
    case Reconstruct::r18: {
      auto l = make_accessor<Store, Reconstruct::r18>(lng);
      return launch_dslash_typed<Store, decltype(f), decltype(l), true>(a, f, l);
    }
    case Reconstruct::r12: {
      auto l = make_accessor<Store, Reconstruct::r12>(lng);
      return launch_dslash_typed<Store, decltype(f), decltype(l), true>(a, f, l);
    }
    case Reconstruct::r8: break;
  }
  throw Error("improved staggered dslash: long links must be stored r18 or r12");
}

}  // namespace gluon::qcd::detail
