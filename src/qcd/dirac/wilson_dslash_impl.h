#pragma once
// Private: the Wilson dslash kernel (one thread per output site of one parity), included by the
// per-precision kernel files wilson_dslash_{double,single,half}_kernels.cpp so that they compile
// in parallel. Conventions: dirac.h; spin projection as in the QUDA paper: (1 -+ g_mu) psi has
// only two independent spin components in any basis where g_mu has one non-zero per row, so
// the link multiplies 2 colour vectors and the other two spin rows are rebuilt from them.
#include <cstdint>
#include <string>

#include "gluon/qcd/dirac/clover_field.h"
#include "gluon/qcd/gamma.h"
#include "gluon/qcd/gauge_accessor.h"
#include "gluon/qcd/geometry.h"
#include "gluon/qcd/spinor_accessor.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/parallel.h"
#include "gluon/runtime/tune.h"
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

// acc += (the full 4-spinor rebuilt from the transported rows 0, 1):
// rows 0, 1 = u0, u1; row r = 2, 3: sgn i^phase(r) u_{col(r)}.
template <int mu, class T>
GLUON_HD_INLINE void spin_reconstruct_add(Spinor<T>& acc, const ColorVector<T>& u0, const ColorVector<T>& u1,
                                          T sgn) {
  constexpr GammaEntry e2 = gamma_entry(mu, 2);
  constexpr GammaEntry e3 = gamma_entry(mu, 3);
  static_assert(e2.col < 2 && e3.col < 2, "g_mu must map rows 2,3 onto rows 0,1");
  for (int c = 0; c < 3; ++c) {
    acc.s[0].c[c] += u0.c[c];
    acc.s[1].c[c] += u1.c[c];
    const Complex<T> r2 = times_i_power(e2.col == 0 ? u0.c[c] : u1.c[c], e2.phase);
    const Complex<T> r3 = times_i_power(e3.col == 0 ? u0.c[c] : u1.c[c], e3.phase);
    acc.s[2].c[c] += sgn * r2;
    acc.s[3].c[c] += sgn * r3;
  }
}

template <class T>
GLUON_HD_INLINE void scale_cv(ColorVector<T>& v, T s) {
  for (int c = 0; c < 3; ++c) v.c[c] *= s;
}

// The epilogue (fuse) and dagger are run-time values, uniform over the launch: one instantiation
// per storage precision x reconstruct keeps nvcc's compile time bounded (each instantiation
// unrolls 8 hops with the link rebuild).
template <class Store, Reconstruct R>
struct WilsonDslashKernel {
  using G = GaugeAccessor<Store, R>;
  using S = SpinorAccessor<Store, 4>;
  using C = CloverAccessor<Store>;
  using real = typename G::real;

  G u;
  S out, in, x;
  C clov;
  SiteIndexer idx;
  std::int64_t stride[4];  // lexicographic stride of direction mu
  int parity;
  std::int64_t out_shift, in_shift, x_shift;
  real a;
  real fwd;  // -1: D (forward projector 1 - g_mu); +1: D^dagger
  real phase[4];
  bool has_x;
  int fuse;

  // Forward: (1 - g_mu) U_mu(x) psi(x+mu); dagger: (1 + g_mu).
  template <int mu>
  GLUON_HD_INLINE void hop(Spinor<real>& acc, std::int64_t s, const int* c, std::int64_t lex) const {
    const std::int64_t other = (1 - parity) * idx.half;
    {
      const bool wrap = c[mu] == idx.dims[mu] - 1;
      const std::int64_t nl = wrap ? lex - (idx.dims[mu] - 1) * stride[mu] : lex + stride[mu];
      const std::int64_t nb = other + (nl >> 1);
      const Spinor<real> p = in.load(nb - in_shift);
      ColorVector<real> h0, h1;
      spin_project<mu>(p, h0, h1, fwd);
      if (wrap) {
        scale_cv(h0, phase[mu]);
        scale_cv(h1, phase[mu]);
      }
      const typename G::matrix U = u.load(s, mu);
      spin_reconstruct_add<mu>(acc, U * h0, U * h1, fwd);
    }
    {
      const bool wrap = c[mu] == 0;
      const std::int64_t nl = wrap ? lex + (idx.dims[mu] - 1) * stride[mu] : lex - stride[mu];
      const std::int64_t nb = other + (nl >> 1);
      const Spinor<real> p = in.load(nb - in_shift);
      ColorVector<real> h0, h1;
      spin_project<mu>(p, h0, h1, -fwd);
      if (wrap) {
        scale_cv(h0, phase[mu]);
        scale_cv(h1, phase[mu]);
      }
      const typename G::matrix U = u.load(nb, mu);
      spin_reconstruct_add<mu>(acc, adj_mul(U, h0), adj_mul(U, h1), -fwd);
    }
  }

  GLUON_HD void operator()(std::int64_t i) const {
    const std::int64_t s = parity * idx.half + i;
    int c[4];
    idx.coords(s, c);
    const std::int64_t lex = idx.lex(c);
    Spinor<real> acc;
    for (int sp = 0; sp < 4; ++sp)
      for (int k = 0; k < 3; ++k) acc.s[sp].c[k] = Complex<real>(real(0), real(0));
    hop<0>(acc, s, c, lex);
    hop<1>(acc, s, c, lex);
    hop<2>(acc, s, c, lex);
    hop<3>(acc, s, c, lex);

    Spinor<real> r;
    if (fuse == kFuseCloverOnX) {
      const Spinor<real> xv = x.load(i + parity * idx.half - x_shift);
      r = apply_clover(clov.load(s, 0), clov.load(s, 1), xv);
      for (int sp = 0; sp < 4; ++sp)
        for (int k = 0; k < 3; ++k) r.s[sp].c[k] += a * acc.s[sp].c[k];
    } else {
      if (fuse == kFuseClover) acc = apply_clover(clov.load(s, 0), clov.load(s, 1), acc);
      if (has_x) {
        r = x.load(i + parity * idx.half - x_shift);
        for (int sp = 0; sp < 4; ++sp)
          for (int k = 0; k < 3; ++k) r.s[sp].c[k] += a * acc.s[sp].c[k];
      } else {
        for (int sp = 0; sp < 4; ++sp)
          for (int k = 0; k < 3; ++k) r.s[sp].c[k] = a * acc.s[sp].c[k];
      }
    }
    out.store(i + parity * idx.half - out_shift, r);
  }
};

template <class Store, Reconstruct R>
void run_wilson_dslash(const DslashCall& call, const GaugeAccessor<Store, R>& u) {
  using K = WilsonDslashKernel<Store, R>;
  using real = typename K::real;
  K k;
  k.u = u;
  k.out = make_spinor_accessor<Store, 4>(*call.out);
  k.in = make_spinor_accessor<Store, 4>(const_cast<SpinorField&>(*call.in));
  k.x = call.x ? make_spinor_accessor<Store, 4>(const_cast<SpinorField&>(*call.x)) : k.out;
  if (call.c) k.clov = make_clover_accessor<Store>(const_cast<CloverField&>(*call.c));
  else k.clov = CloverAccessor<Store>{nullptr, nullptr, FieldLayout{}};
  k.idx = call.u->geometry().indexer();
  k.stride[0] = 1;
  for (int mu = 1; mu < 4; ++mu) k.stride[mu] = k.stride[mu - 1] * k.idx.dims[mu - 1];
  k.parity = call.parity;
  k.out_shift = parity_shift(*call.out, call.parity);
  k.in_shift = parity_shift(*call.in, 1 - call.parity);
  k.x_shift = call.x ? parity_shift(*call.x, call.parity) : 0;
  k.a = static_cast<real>(call.a);
  for (int mu = 0; mu < 4; ++mu) k.phase[mu] = static_cast<real>(call.boundary[mu]);
  k.has_x = call.x != nullptr;
  k.fwd = call.dagger ? real(1) : real(-1);
  k.fuse = call.fuse;
  // Out-of-place unless x is the output (then tuning would apply the update repeatedly).
  runtime::TuneSpec spec;
  spec.label = "wilson_dslash";
  spec.tuning = call.x && call.x->data() == call.out->data() ? runtime::Tuning::off : runtime::Tuning::idempotent;
  spec.aux = "fuse " + std::to_string(call.fuse) + (call.dagger ? " dagger" : "");
  runtime::parallel_for(call.ex, spec, k.idx.half, k);
}

template <class Store>
void launch_wilson_dslash_store(const DslashCall& call) {
  GaugeField& u = const_cast<GaugeField&>(*call.u);
  switch (u.params().reconstruct) {
    case Reconstruct::r18: return run_wilson_dslash(call, make_accessor<Store, Reconstruct::r18>(u));
    case Reconstruct::r12: return run_wilson_dslash(call, make_accessor<Store, Reconstruct::r12>(u));
    case Reconstruct::r8: return run_wilson_dslash(call, make_accessor<Store, Reconstruct::r8>(u));
  }
  throw Error("wilson dslash: unknown reconstruct");
}

}  // namespace gluon::qcd::detail
