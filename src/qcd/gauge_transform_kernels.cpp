// Gauge transformations (gauge_transform.h).
#include "gluon/qcd/gauge_transform.h"

#include "gluon/qcd/gauge_accessor.h"
#include "gluon/qcd/random.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/parallel.h"
#include "ops_support.h"

namespace gluon::qcd {

namespace {

struct RandomTransformKernel {
  SU3d* g;
  GlobalSiteIndex site;
  std::uint64_t seed;
  GLUON_HD void operator()(std::int64_t s) const {
    SiteRng rng(seed, site(s), kStreamGaugeTransform);
    g[s] = haar_su3(rng);
  }
};

template <class A>
struct ApplyTransformKernel {
  A u;
  const SU3d* g;
  SiteIndexer idx;
  GLUON_HD void operator()(std::int64_t s) const {
    const SU3d gx = g[s];
    for (int mu = 0; mu < 4; ++mu) {
      const SU3d m = gx * SU3d::from(u.load(s, mu)) * adj(g[idx.neighbour(s, mu, 1)]);
      u.store(s, mu, A::matrix::from(m));
    }
  }
};

}  // namespace

GaugeTransform::GaugeTransform(const Geometry& g, runtime::MemSpace space, int device)
    : geometry_(g),
      data_(space, static_cast<std::size_t>(g.volume()) * sizeof(SU3d),
            "gauge transformation " + g.to_string(), device) {}

SU3d& GaugeTransform::at(std::int64_t s) {
  if (space() == runtime::MemSpace::device)
    throw Error("GaugeTransform::at: the transformation is in device memory");
  return data()[s];
}
const SU3d& GaugeTransform::at(std::int64_t s) const {
  if (space() == runtime::MemSpace::device)
    throw Error("GaugeTransform::at: the transformation is in device memory");
  return data()[s];
}

GaugeTransform random_gauge_transform(const Geometry& geometry, std::uint64_t seed,
                                      const runtime::Exec& ex) {
  GaugeTransform g(geometry, runtime::memspace_for(ex), ex.device);
  runtime::parallel_for(ex, "random_gauge_transform", geometry.volume(),
                        RandomTransformKernel{g.data(), global_site_index(geometry), seed});
  runtime::synchronize(ex);
  return g;
}

void apply_gauge_transform(GaugeField& u, const GaugeTransform& g, const runtime::Exec& ex) {
  if (u.bytes() == 0) throw InputError("apply_gauge_transform: the gauge field is empty");
  if (!(g.geometry() == u.geometry()))
    throw InputError("apply_gauge_transform: the transformation is on lattice " +
                     g.geometry().to_string() + " (or another block), the field on " +
                     u.geometry().to_string());
  const Coords& grid = u.geometry().grid();
  if (grid[0] * grid[1] * grid[2] * grid[3] != 1)
    throw InputError("apply_gauge_transform: needs the whole lattice in one process (g(x+mu) "
                     "across a block face needs halo exchange, not available yet)");
  detail::require_memory_for(u.params().space, u.params().device, ex, "apply_gauge_transform (field)");
  detail::require_memory_for(g.space(), g.device(), ex, "apply_gauge_transform (transformation)");
  const SiteIndexer idx = u.geometry().indexer();
  const SU3d* gp = g.data();
  dispatch_gauge(u, [&](auto acc) {
    runtime::parallel_for(ex, "apply_gauge_transform", idx.volume,
                          ApplyTransformKernel<decltype(acc)>{acc, gp, idx});
  });
  runtime::synchronize(ex);
}

}  // namespace gluon::qcd
