// Observables (observables.h): plaquette, rectangle, Polyakov loop, link trace, unitarity check
// and re-unitarisation as GLUON_HD functors over sites, for every accessor type.
#include "gluon/qcd/observables.h"

#include <cstdint>

#include "gluon/qcd/gauge_accessor.h"
#include "gluon/qcd/geometry.h"
#include "gluon/qcd/su3.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/parallel.h"
#include "ops_support.h"

namespace gluon::qcd {

namespace {

using detail::DoubleMax;
using detail::DoubleSums;

template <class A>
GLUON_HD_INLINE SU3d load_d(const A& u, std::int64_t s, int mu) {
  return SU3d::from(u.load(s, mu));
}

// Per site: (sum of Re tr over spatial plaquettes, over temporal ones).
template <class A>
struct PlaquetteKernel {
  A u;
  SiteIndexer idx;
  GLUON_HD DoubleSums<2> operator()(std::int64_t s) const {
    DoubleSums<2> r{};
    for (int mu = 0; mu < 4; ++mu) {
      const std::int64_t s_mu = idx.neighbour(s, mu, 1);
      const SU3d umu = load_d(u, s, mu);
      for (int nu = mu + 1; nu < 4; ++nu) {
        const std::int64_t s_nu = idx.neighbour(s, nu, 1);
        const SU3d a = umu * load_d(u, s_mu, nu);         // U_mu(x) U_nu(x+mu)
        const SU3d b = load_d(u, s, nu) * load_d(u, s_nu, mu);  // U_nu(x) U_mu(x+nu)
        const double p = re_trace_mul(a, adj(b));
        r.v[nu == 3 ? 1 : 0] += p;
      }
    }
    return r;
  }
};

// Per site: sum of Re tr over the 12 1x2 rectangles (long side along mu).
template <class A>
struct RectangleKernel {
  A u;
  SiteIndexer idx;
  GLUON_HD DoubleSums<1> operator()(std::int64_t s) const {
    DoubleSums<1> r{};
    for (int mu = 0; mu < 4; ++mu) {
      const std::int64_t s_mu = idx.neighbour(s, mu, 1);
      const std::int64_t s_2mu = idx.neighbour(s, mu, 2);
      const SU3d long_mu = load_d(u, s, mu) * load_d(u, s_mu, mu);  // U_mu(x) U_mu(x+mu)
      for (int nu = 0; nu < 4; ++nu) {
        if (nu == mu) continue;
        const std::int64_t s_nu = idx.neighbour(s, nu, 1);
        const std::int64_t s_mu_nu = idx.neighbour(s_mu, nu, 1);
        const SU3d a = long_mu * load_d(u, s_2mu, nu);
        const SU3d b = load_d(u, s, nu) * load_d(u, s_nu, mu) * load_d(u, s_mu_nu, mu);
        r.v[0] += re_trace_mul(a, adj(b));
      }
    }
    return r;
  }
};

// Per spatial site i (lexicographic in the local spatial box): tr of the product of U_t along t.
template <class A>
struct PolyakovKernel {
  A u;
  SiteIndexer idx;
  GLUON_HD DoubleSums<2> operator()(std::int64_t i) const {
    int x[4];
    x[0] = static_cast<int>(i % idx.dims[0]);
    std::int64_t rest = i / idx.dims[0];
    x[1] = static_cast<int>(rest % idx.dims[1]);
    x[2] = static_cast<int>(rest / idx.dims[1]);
    x[3] = 0;
    std::int64_t s = idx.eo_index(x);
    SU3d p = load_d(u, s, 3);
    for (int t = 1; t < idx.dims[3]; ++t) {
      s = idx.neighbour(s, 3, 1);
      p = p * load_d(u, s, 3);
    }
    const Complex<double> tr = trace(p);
    DoubleSums<2> r{};
    r.v[0] = tr.re;
    r.v[1] = tr.im;
    return r;
  }
};

template <class A>
struct LinkTraceKernel {
  A u;
  GLUON_HD DoubleSums<1> operator()(std::int64_t s) const {
    DoubleSums<1> r{};
    for (int mu = 0; mu < 4; ++mu) r.v[0] += trace(load_d(u, s, mu)).re;
    return r;
  }
};

template <class A>
struct UnitarityKernel {
  A u;
  GLUON_HD DoubleMax operator()(std::int64_t s) const {
    DoubleMax r{0.0};
    for (int mu = 0; mu < 4; ++mu) r += DoubleMax{unitarity_deviation(load_d(u, s, mu))};
    return r;
  }
};

template <class A>
struct ReunitarizeKernel {
  A u;
  GLUON_HD void operator()(std::int64_t s) const {
    for (int mu = 0; mu < 4; ++mu) {
      const SU3d m = reunitarize(load_d(u, s, mu));
      u.store(s, mu, A::matrix::from(m));
    }
  }
};

void require_single_process(const GaugeField& u, const char* what) {
  const Coords& g = u.geometry().grid();
  if (g[0] != 1 || g[1] != 1 || g[2] != 1 || g[3] != 1)
    throw InputError(std::string(what) +
                     ": closed loops need the whole lattice in one process (process grid 1,1,1,1), "
                     "found grid " +
                     std::to_string(g[0]) + "," + std::to_string(g[1]) + "," + std::to_string(g[2]) +
                     "," + std::to_string(g[3]) + "; halo exchange is not available yet");
}

void check(const GaugeField& u, const runtime::Exec& ex, const char* what) {
  if (u.bytes() == 0) throw InputError(std::string(what) + ": the gauge field is empty (not allocated)");
  detail::require_memory_for(u.params().space, u.params().device, ex, what);
}

}  // namespace

PlaquetteResult plaquette(const GaugeField& u, const runtime::Exec& ex) {
  check(u, ex, "plaquette");
  require_single_process(u, "plaquette");
  const SiteIndexer idx = u.geometry().indexer();
  const auto sums = dispatch_gauge(u, [&](auto acc) {
    return runtime::parallel_reduce<DoubleSums<2>>(ex, "plaquette", idx.volume,
                                                   PlaquetteKernel<decltype(acc)>{acc, idx});
  });
  const double v = static_cast<double>(idx.volume);
  return {(sums.v[0] + sums.v[1]) / (18.0 * v), sums.v[0] / (9.0 * v), sums.v[1] / (9.0 * v)};
}

double rectangle(const GaugeField& u, const runtime::Exec& ex) {
  check(u, ex, "rectangle");
  require_single_process(u, "rectangle");
  const SiteIndexer idx = u.geometry().indexer();
  const auto sums = dispatch_gauge(u, [&](auto acc) {
    return runtime::parallel_reduce<DoubleSums<1>>(ex, "rectangle", idx.volume,
                                                   RectangleKernel<decltype(acc)>{acc, idx});
  });
  return sums.v[0] / (36.0 * static_cast<double>(idx.volume));
}

Complex<double> polyakov_loop(const GaugeField& u, const runtime::Exec& ex) {
  check(u, ex, "polyakov_loop");
  require_single_process(u, "polyakov_loop");
  const SiteIndexer idx = u.geometry().indexer();
  const std::int64_t vs = idx.volume / idx.dims[3];
  const auto sums = dispatch_gauge(u, [&](auto acc) {
    return runtime::parallel_reduce<DoubleSums<2>>(ex, "polyakov_loop", vs,
                                                   PolyakovKernel<decltype(acc)>{acc, idx});
  });
  const double n = 3.0 * static_cast<double>(vs);
  return {sums.v[0] / n, sums.v[1] / n};
}

double link_trace(const GaugeField& u, const runtime::Exec& ex) {
  check(u, ex, "link_trace");
  const std::int64_t v = u.geometry().volume();
  const auto sums = dispatch_gauge(u, [&](auto acc) {
    return runtime::parallel_reduce<DoubleSums<1>>(ex, "link_trace", v,
                                                   LinkTraceKernel<decltype(acc)>{acc});
  });
  return sums.v[0] / (12.0 * static_cast<double>(v));
}

double max_unitarity_deviation(const GaugeField& u, const runtime::Exec& ex) {
  check(u, ex, "max_unitarity_deviation");
  const std::int64_t v = u.geometry().volume();
  const auto m = dispatch_gauge(u, [&](auto acc) {
    return runtime::parallel_reduce<DoubleMax>(ex, "max_unitarity_deviation", v,
                                               UnitarityKernel<decltype(acc)>{acc});
  });
  return m.v;
}

void reunitarize(GaugeField& u, const runtime::Exec& ex) {
  check(u, ex, "reunitarize");
  const std::int64_t v = u.geometry().volume();
  dispatch_gauge(u, [&](auto acc) {
    runtime::parallel_for(ex, "reunitarize", v, ReunitarizeKernel<decltype(acc)>{acc});
  });
  runtime::synchronize(ex);
}

}  // namespace gluon::qcd
