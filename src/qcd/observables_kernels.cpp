// Observables (observables.h): plaquette, rectangle, Polyakov loop, link trace, unitarity check
// and re-unitarisation as GLUON_HD functors over sites, for every accessor type.
#include "gluon/qcd/observables.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "gluon/comm/environment.h"
#include "gluon/comm/process_grid.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/qcd/gauge_halo.h"

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

// Site i of the body -> its index in the field the kernel reads: itself for a whole lattice
// (depth 0), the same site of the extended box (gauge_halo.h) on a split lattice.
struct BodyMap {
  SiteIndexer body;
  int depth = 0;
  GLUON_HD_INLINE std::int64_t operator()(const SiteIndexer& field, std::int64_t i) const {
    if (depth == 0) return i;
    int x[4];
    body.coords(i, x);
    for (int mu = 0; mu < 4; ++mu) x[mu] += depth;
    return field.eo_index(x);
  }
};

// Per site: (sum of Re tr over spatial plaquettes, over temporal ones).
template <class A>
struct PlaquetteKernel {
  A u;
  SiteIndexer idx;
  BodyMap map;
  GLUON_HD DoubleSums<2> operator()(std::int64_t i) const {
    const std::int64_t s = map(idx, i);
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
  BodyMap map;
  GLUON_HD DoubleSums<1> operator()(std::int64_t i) const {
    const std::int64_t s = map(idx, i);
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

bool split(const GaugeField& u) { return u.geometry().grid() != Coords{1, 1, 1, 1}; }

// A split lattice's observables are collective over a communicator of the grid's size.
void require_grid_comm(const GaugeField& u, comm::Communicator& comm, const char* what) {
  const Coords& g = u.geometry().grid();
  const int n = g[0] * g[1] * g[2] * g[3];
  if (comm.size() != n)
    throw InputError(std::string(what) + ": communicator size: expected " + std::to_string(n) +
                     " (the volume of process grid " + std::to_string(g[0]) + "," + std::to_string(g[1]) +
                     "," + std::to_string(g[2]) + "," + std::to_string(g[3]) + " of the field), found " +
                     std::to_string(comm.size()));
  // This rank's place in the grid (collective: every rank fails together).
  const bool misplaced = comm::ProcessGrid(g, comm.rank()).coords() != u.geometry().grid_coords();
  if (comm.any(misplaced))
    throw InputError(std::string(what) + ": grid coordinates of " +
                     (misplaced ? comm.describe() : std::string("another rank")) +
                     ": expected its place in process grid " + std::to_string(g[0]) + "," +
                     std::to_string(g[1]) + "," + std::to_string(g[2]) + "," + std::to_string(g[3]) +
                     " (ranks x fastest)");
}

// The field as a canonical host copy (empty when it already is one).
GaugeField canonical_copy(const GaugeField& u, const runtime::Exec& ex) {
  if (u.params().canonical()) return GaugeField{};
  GaugeFieldParams p;
  p.geometry = u.geometry();
  return converted(u, p, ex);
}

void check(const GaugeField& u, const runtime::Exec& ex, const char* what) {
  if (u.bytes() == 0) throw InputError(std::string(what) + ": the gauge field is empty (not allocated)");
  detail::require_memory_for(u.params().space, u.params().device, ex, what);
}

// Polyakov loop on a split lattice: each rank multiplies its own t segment of every spatial site,
// the segments are gathered along the t sub-communicator (ranks of equal x,y,z grid coordinates,
// ordered by t) and multiplied in t order; the ranks at t grid coordinate 0 add the traces.
Complex<double> split_polyakov_loop(const GaugeField& u, const runtime::Exec& ex, comm::Communicator& comm) {
  const Geometry& g = u.geometry();
  const Coords& grid = g.grid();
  const Coords& gc = g.grid_coords();
  require_grid_comm(u, comm, "polyakov_loop");
  const GaugeField copy = canonical_copy(u, ex);
  const GaugeField& c = u.params().canonical() ? u : copy;
  const Coords& L = g.local_dims();
  const std::int64_t vs = static_cast<std::int64_t>(L[0]) * L[1] * L[2];
  std::vector<SU3d> seg(static_cast<std::size_t>(vs));
  for (std::int64_t i = 0; i < vs; ++i) {
    Coords x{static_cast<int>(i % L[0]), static_cast<int>((i / L[0]) % L[1]),
             static_cast<int>(i / (static_cast<std::int64_t>(L[0]) * L[1])), 0};
    SU3d p = c.link(g.eo_index(x), 3);
    for (x[3] = 1; x[3] < L[3]; ++x[3]) p = p * c.link(g.eo_index(x), 3);
    seg[static_cast<std::size_t>(i)] = p;
  }
  const int colour = gc[0] + grid[0] * (gc[1] + grid[1] * gc[2]);
  const std::unique_ptr<comm::Communicator> tcomm = comm.split(colour, gc[3]);
  const std::size_t bytes = seg.size() * sizeof(SU3d);
  std::vector<SU3d> all(seg.size() * static_cast<std::size_t>(tcomm->size()));
  tcomm->allgather(seg.data(), bytes, all.data());
  double sums[2] = {0, 0};
  if (gc[3] == 0)
    for (std::int64_t i = 0; i < vs; ++i) {
      SU3d p = all[static_cast<std::size_t>(i)];
      for (int r = 1; r < tcomm->size(); ++r) p = p * all[static_cast<std::size_t>(r * vs + i)];
      const Complex<double> tr = trace(p);
      sums[0] += tr.re;
      sums[1] += tr.im;
    }
  comm.allreduce_sum(sums, 2);
  const double n = 3.0 * static_cast<double>(vs) * grid[0] * grid[1] * grid[2];
  return {sums[0] / n, sums[1] / n};
}

}  // namespace

PlaquetteResult plaquette(const GaugeField& u, const runtime::Exec& ex) {
  return plaquette(u, ex, comm::world());
}

PlaquetteResult plaquette(const GaugeField& u, const runtime::Exec& ex, comm::Communicator& comm) {
  check(u, ex, "plaquette");
  DoubleSums<2> sums;
  if (!split(u)) {
    const SiteIndexer idx = u.geometry().indexer();
    sums = dispatch_gauge(u, [&](auto acc) {
      return runtime::parallel_reduce<DoubleSums<2>>(ex, "plaquette", idx.volume,
                                                     PlaquetteKernel<decltype(acc)>{acc, idx, {}});
    });
  } else {
    require_grid_comm(u, comm, "plaquette");
    ExtendedGauge e = extend_gauge(u, 1, comm);
    const SiteIndexer idx = e.extended.indexer();
    const BodyMap map{u.geometry().indexer(), 1};
    sums = dispatch_gauge(e.field, [&](auto acc) {
      return runtime::parallel_reduce<DoubleSums<2>>(runtime::cpu_exec(), "plaquette", map.body.volume,
                                                     PlaquetteKernel<decltype(acc)>{acc, idx, map});
    });
    comm.allreduce_sum(sums.v, 2);
  }
  const double v = static_cast<double>(u.geometry().global_volume());
  return {(sums.v[0] + sums.v[1]) / (18.0 * v), sums.v[0] / (9.0 * v), sums.v[1] / (9.0 * v)};
}

double rectangle(const GaugeField& u, const runtime::Exec& ex) { return rectangle(u, ex, comm::world()); }

double rectangle(const GaugeField& u, const runtime::Exec& ex, comm::Communicator& comm) {
  check(u, ex, "rectangle");
  DoubleSums<1> sums;
  if (!split(u)) {
    const SiteIndexer idx = u.geometry().indexer();
    sums = dispatch_gauge(u, [&](auto acc) {
      return runtime::parallel_reduce<DoubleSums<1>>(ex, "rectangle", idx.volume,
                                                     RectangleKernel<decltype(acc)>{acc, idx, {}});
    });
  } else {
    require_grid_comm(u, comm, "rectangle");
    ExtendedGauge e = extend_gauge(u, 2, comm);
    const SiteIndexer idx = e.extended.indexer();
    const BodyMap map{u.geometry().indexer(), 2};
    sums = dispatch_gauge(e.field, [&](auto acc) {
      return runtime::parallel_reduce<DoubleSums<1>>(runtime::cpu_exec(), "rectangle", map.body.volume,
                                                     RectangleKernel<decltype(acc)>{acc, idx, map});
    });
    comm.allreduce_sum(sums.v, 1);
  }
  return sums.v[0] / (36.0 * static_cast<double>(u.geometry().global_volume()));
}

Complex<double> polyakov_loop(const GaugeField& u, const runtime::Exec& ex) {
  return polyakov_loop(u, ex, comm::world());
}

Complex<double> polyakov_loop(const GaugeField& u, const runtime::Exec& ex, comm::Communicator& comm) {
  check(u, ex, "polyakov_loop");
  if (split(u)) return split_polyakov_loop(u, ex, comm);
  const SiteIndexer idx = u.geometry().indexer();
  const std::int64_t vs = idx.volume / idx.dims[3];
  const auto sums = dispatch_gauge(u, [&](auto acc) {
    return runtime::parallel_reduce<DoubleSums<2>>(ex, "polyakov_loop", vs,
                                                   PolyakovKernel<decltype(acc)>{acc, idx});
  });
  const double n = 3.0 * static_cast<double>(vs);
  return {sums.v[0] / n, sums.v[1] / n};
}

double link_trace(const GaugeField& u, const runtime::Exec& ex) { return link_trace(u, ex, comm::world()); }

double link_trace(const GaugeField& u, const runtime::Exec& ex, comm::Communicator& comm) {
  check(u, ex, "link_trace");
  if (split(u)) require_grid_comm(u, comm, "link_trace");
  const std::int64_t v = u.geometry().volume();
  const auto sums = dispatch_gauge(u, [&](auto acc) {
    return runtime::parallel_reduce<DoubleSums<1>>(ex, "link_trace", v,
                                                   LinkTraceKernel<decltype(acc)>{acc});
  });
  if (!split(u)) return sums.v[0] / (12.0 * static_cast<double>(v));
  return comm.sum(sums.v[0]) / (12.0 * static_cast<double>(u.geometry().global_volume()));
}

double max_unitarity_deviation(const GaugeField& u, const runtime::Exec& ex) {
  return max_unitarity_deviation(u, ex, comm::world());
}

double max_unitarity_deviation(const GaugeField& u, const runtime::Exec& ex, comm::Communicator& comm) {
  check(u, ex, "max_unitarity_deviation");
  if (split(u)) require_grid_comm(u, comm, "max_unitarity_deviation");
  const std::int64_t v = u.geometry().volume();
  const auto m = dispatch_gauge(u, [&](auto acc) {
    return runtime::parallel_reduce<DoubleMax>(ex, "max_unitarity_deviation", v,
                                               UnitarityKernel<decltype(acc)>{acc});
  });
  if (!split(u)) return m.v;
  // A NaN on any rank must survive the reduction: report it as +inf.
  return comm.max(m.v != m.v ? std::numeric_limits<double>::infinity() : m.v);
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
