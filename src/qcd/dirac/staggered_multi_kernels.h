#pragma once
// Private: the staggered hop applied to several vectors in one pass over the links, included only
// by the staggered_multi_{double,single,half}_kernels.cpp files (files of their own, so that nvcc
// compiles them beside the single-vector kernels). staggered_dslash.h declares the launcher
// (StaggeredMultiLaunch).
//
// One thread per output site x of one parity of an unsplit lattice, for vectors j < n:
//   out_j(x) = c_fat  sum_mu s_mu(x) [ F_mu(x) in_j(x+mu)  - F_mu(x-mu)^+  in_j(x-mu) ]
//            + c_long sum_mu s_mu(x) [ L_mu(x) in_j(x+3mu) - L_mu(x-3mu)^+ in_j(x-3mu) ]
//            + beta_j x_j(x)                                        (xpay only)
// Each link is loaded (and rebuilt) once and applied to all n vectors, so the links' bytes, which
// are most of a staggered hop's (naive r12: 96 of 108 reals a site; improved: 240 of 252), are
// read once for n vectors. The arithmetic of each vector is the single-vector kernel's
// (StaggeredDslashKernel::hop_term), term by term in the same order. No halo: the operator runs it
// only where its single-vector hops would run the body kernel. One folded sum: the xpay launch
// can sum each vector's Re <x_j, out_j> (CG's p^dagger A p) into its own slot.
#include "staggered_kernels.h"

namespace gluon::qcd::detail {

template <class SA, class GA, class LA, bool Improved>
struct StaggeredMultiKernel {
  using real = typename SA::real;
  static constexpr int N = kStaggeredMultiMax;
  SA out[N], in[N], x[N];
  real beta[N];
  int n;  // vectors in this launch, 1..N
  bool xpay;
  GA fat;
  LA lng;
  SiteIndexer idx;
  int stride[4];
  int origin_parity[4];
  int antiperiodic[4];
  int first;
  int out_base, in_base, x_base;
  real c_fat, c_long;

  template <int mu, int dist, class A>
  GLUON_HD_INLINE void hop_term(ColorVector<real> (&acc)[N], const A& links, const int* xc, int eo, int lex,
                                int other, bool eta_neg) const {
    const int L = idx.dims[mu];
    {
      int v = xc[mu] + dist, w = 0;
      if (v >= L) v -= L, ++w;
      if (dist > 1 && v >= L) v -= L, ++w;
      const int nb = other + ((lex + (v - xc[mu]) * stride[mu]) >> 1);
      const bool neg = eta_neg != ((w & antiperiodic[mu]) != 0);
      const auto u = links.load_link_unscaled(eo, mu);
      for (int j = 0; j < N; ++j) {
        if (j < n) {
          real sc;
          const ColorVector<real> s = in[j].load_unscaled(nb - in_base, sc, A::unscaled_factor);
          stag_accumulate_scaled(acc[j], u * s, neg, with_link_sign(u, sc));
        }
      }
    }
    {
      int v = xc[mu] - dist, w = 0;
      if (v < 0) v += L, ++w;
      if (dist > 1 && v < 0) v += L, ++w;
      const int nb = other + ((lex + (v - xc[mu]) * stride[mu]) >> 1);
      const bool neg = !(eta_neg != ((w & antiperiodic[mu]) != 0));  // the backward term's minus
      const auto u = links.load_link_unscaled(nb, mu);
      for (int j = 0; j < N; ++j) {
        if (j < n) {
          real sc;
          const ColorVector<real> s = in[j].load_unscaled(nb - in_base, sc, A::unscaled_factor);
          stag_accumulate_scaled(acc[j], adj_mul(u, s), neg, with_link_sign(u, sc));
        }
      }
    }
  }

  template <int mu>
  GLUON_HD_INLINE void hops(ColorVector<real> (&af)[N], ColorVector<real> (&al)[N], const int* xc, int eo, int lex,
                            int other, int eta) const {
    const bool eta_neg = ((eta + origin_parity[mu]) & 1) != 0;
    hop_term<mu, 1>(af, fat, xc, eo, lex, other, eta_neg);
    if constexpr (Improved) hop_term<mu, 3>(al, lng, xc, eo, lex, other, eta_neg);
  }

  GLUON_HD void operator()(std::int64_t i) const { site<false>(i); }

  // Stores out_j(x) for each vector; with Dot (xpay only), also returns Re <x_j, out_j> at the
  // site in v[j], summed in double from the values before the store rounds them (as the
  // single-vector kernel's dot fold).
  template <bool Dot>
  GLUON_HD DoubleSums<N> site(std::int64_t i) const {
    DoubleSums<N> sums{};
    const int eo = first + static_cast<int>(i);
    int xc[4];
    idx.coords(eo, xc);
    ColorVector<real> af[N] = {}, al[N] = {};
    const int lex = xc[0] + stride[1] * xc[1] + stride[2] * xc[2] + stride[3] * xc[3];
    const int half = static_cast<int>(idx.half);
    const int other = eo >= half ? 0 : half;
    hops<0>(af, al, xc, eo, lex, other, 0);
    hops<1>(af, al, xc, eo, lex, other, xc[0]);
    hops<2>(af, al, xc, eo, lex, other, xc[0] + xc[1]);
    hops<3>(af, al, xc, eo, lex, other, xc[0] + xc[1] + xc[2]);
    for (int j = 0; j < N; ++j) {
      if (j >= n) continue;
      ColorVector<real> r;
      for (int c = 0; c < 3; ++c) {
        r.c[c].re = c_fat * af[j].c[c].re;
        r.c[c].im = c_fat * af[j].c[c].im;
        if constexpr (Improved) {
          r.c[c].re += c_long * al[j].c[c].re;
          r.c[c].im += c_long * al[j].c[c].im;
        }
      }
      if (xpay) {
        const ColorVector<real> xv = x[j].load(eo - x_base);
        for (int c = 0; c < 3; ++c) {
          r.c[c].re += beta[j] * xv.c[c].re;
          r.c[c].im += beta[j] * xv.c[c].im;
          if constexpr (Dot)
            sums.v[j] += static_cast<double>(xv.c[c].re) * r.c[c].re + static_cast<double>(xv.c[c].im) * r.c[c].im;
        }
      }
      out[j].store(eo - out_base, r);
    }
    return sums;
  }
};

// The xpay launch with each vector's Re <x_j, out_j> summed; its finish copies sum j into vector
// j's slot (device and mirror), from the scratch the reduction wrote.
template <class K>
struct StaggeredMultiDotKernel {
  K k;
  double* dev[kStaggeredMultiMax];
  double* host[kStaggeredMultiMax];
  GLUON_HD DoubleSums<kStaggeredMultiMax> operator()(std::int64_t i) const { return k.template site<true>(i); }
  GLUON_HD void finish(const DoubleSums<kStaggeredMultiMax>& total) const {
    for (int j = 0; j < kStaggeredMultiMax; ++j) {
      if (j < k.n) {
        *dev[j] = total.v[j];
        *host[j] = total.v[j];
      }
    }
  }
};

template <class Store, class GA, class LA, bool Improved>
void launch_multi_typed(const StaggeredMultiLaunch& m, GA fat, LA lng) {
  using SA = SpinorAccessor<Store, 1, true>;
  using real = typename SA::real;
  const StaggeredLaunch& a = m.base;
  StaggeredMultiKernel<SA, GA, LA, Improved> k{};
  k.n = m.n;
  k.xpay = m.x[0] != nullptr;
  for (int j = 0; j < m.n; ++j) {
    if (a.ex->on_device()) {
      require_blocked(m.out[j]->layout(), "staggered multi-vector hop: an output");
      require_blocked(m.in[j]->layout(), "staggered multi-vector hop: an input");
      if (k.xpay) require_blocked(m.x[j]->layout(), "staggered multi-vector hop: an xpay vector");
    }
    k.out[j] = make_spinor_accessor<Store, 1, true>(*m.out[j]);
    k.in[j] = make_spinor_accessor<Store, 1, true>(const_cast<SpinorField&>(*m.in[j]));
    k.x[j] = k.xpay ? make_spinor_accessor<Store, 1, true>(const_cast<SpinorField&>(*m.x[j])) : k.in[j];
    k.beta[j] = static_cast<real>(m.beta[j]);
  }
  for (int j = m.n; j < kStaggeredMultiMax; ++j) k.out[j] = k.in[j] = k.x[j] = k.in[0];  // never read
  if (a.ex->on_device()) {
    require_blocked(a.fat->layout(), "staggered multi-vector hop: the fat (or thin) links");
    if (a.longlinks) require_blocked(a.longlinks->layout(), "staggered multi-vector hop: the long links");
  }
  set_links_and_sites(k, a, fat, lng);
  runtime::TuneSpec spec;
  spec.label = Improved ? "improved_staggered_multi" : "staggered_multi";
  spec.tuning = runtime::Tuning::idempotent;  // out-of-place (the caller refuses an output that is an input)
  spec.aux = std::string(k.xpay ? "xpay " : "") + (m.sums_device ? "dot " : "") + "n " + char('0' + m.n);
  if (m.sums_device) {
    using K = decltype(k);
    StaggeredMultiDotKernel<K> dk{k, {}, {}};
    for (int j = 0; j < m.n; ++j) {
      dk.dev[j] = m.dot_device[j];
      dk.host[j] = m.dot_host[j];
    }
    using T = DoubleSums<kStaggeredMultiMax>;
    runtime::parallel_reduce_into<T>(*a.ex, spec, a.count, dk, reinterpret_cast<T*>(m.sums_host),
                                     reinterpret_cast<T*>(m.sums_device));
    return;
  }
  runtime::parallel_for(*a.ex, spec, a.count, k);
}

template <class Store>
void launch_staggered_multi_impl(const StaggeredMultiLaunch& m) {
  with_staggered_links<Store>(m.base, [&](auto f, auto l, auto improved) {
    launch_multi_typed<Store, decltype(f), decltype(l), decltype(improved)::value>(m, f, l);
  });
}

}  // namespace gluon::qcd::detail
