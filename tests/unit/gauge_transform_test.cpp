// Gauge transformations: closed loops invariant, link trace not, the per-link formula, the random
// transformation's SU(3)-ness and split independence, storage variants, error paths.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "gluon/qcd/gauge_accessor.h"
#include "gluon/qcd/gauge_field.h"
#include "gluon/qcd/gauge_start.h"
#include "gluon/qcd/gauge_transform.h"
#include "gluon/qcd/observables.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/exec.h"

using namespace gluon;
using namespace gluon::qcd;

namespace {
const runtime::Exec cpu = runtime::cpu_exec();
}

TEST(GaugeTransform, RandomTransformIsSU3AndReproducible) {
  const Geometry g({4, 4, 2, 2});
  const GaugeTransform a = random_gauge_transform(g, 3, cpu);
  const GaugeTransform b = random_gauge_transform(g, 3, cpu);
  const GaugeTransform c = random_gauge_transform(g, 4, cpu);
  for (std::int64_t s = 0; s < g.volume(); ++s) EXPECT_LT(unitarity_deviation(a.at(s)), 1e-14);
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.buffer().bytes()), 0);
  EXPECT_NE(std::memcmp(a.data(), c.data(), a.buffer().bytes()), 0);
}

TEST(GaugeTransform, RandomTransformDoesNotDependOnTheSplit) {
  const Coords global{4, 4, 4, 4};
  const Geometry full(global);
  const GaugeTransform gf = random_gauge_transform(full, 9, cpu);
  const Geometry part(global, {2, 1, 1, 2}, {1, 0, 0, 1});
  const GaugeTransform gp = random_gauge_transform(part, 9, cpu);
  for (std::int64_t s = 0; s < part.volume(); ++s) {
    const std::int64_t fs = full.eo_index(part.local_to_global(part.coords(s)));
    ASSERT_EQ(std::memcmp(&gp.at(s), &gf.at(fs), sizeof(SU3d)), 0);
  }
}

TEST(GaugeTransform, LinksTransformAsGUGDaggerOfTheNeighbour) {
  const Geometry g({4, 2, 2, 4});
  GaugeField u = GaugeField::canonical(g);
  set_hot(u, 1, cpu);
  GaugeField v = GaugeField::canonical(g);
  std::memcpy(v.data(), u.data(), u.bytes());
  const GaugeTransform t = random_gauge_transform(g, 2, cpu);
  apply_gauge_transform(v, t, cpu);
  for (std::int64_t s = 0; s < g.volume(); ++s)
    for (int mu = 0; mu < 4; ++mu) {
      auto x = g.coords(s);
      x[mu] = (x[mu] + 1) % g.local_dims()[mu];
      const SU3d want = t.at(s) * u.link(s, mu) * adj(t.at(g.eo_index(x)));
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          ASSERT_NEAR(v.link(s, mu).e[i][j].re, want.e[i][j].re, 1e-15);
          ASSERT_NEAR(v.link(s, mu).e[i][j].im, want.e[i][j].im, 1e-15);
        }
    }
}

TEST(GaugeTransform, ClosedLoopsAreInvariantAndTheLinkTraceIsNot) {
  const Geometry g({4, 4, 4, 6});
  for (bool hot : {true, false}) {
    GaugeField u = GaugeField::canonical(g);
    if (hot) set_hot(u, 10, cpu);
    else set_weak(u, 10, 0.2, cpu);
    const auto p = plaquette(u, cpu);
    const double r = rectangle(u, cpu), lt = link_trace(u, cpu);
    const auto l = polyakov_loop(u, cpu);
    apply_gauge_transform(u, random_gauge_transform(g, 11, cpu), cpu);
    const auto q = plaquette(u, cpu);
    EXPECT_NEAR(q.total, p.total, 1e-14);
    EXPECT_NEAR(q.spatial, p.spatial, 1e-14);
    EXPECT_NEAR(q.temporal, p.temporal, 1e-14);
    EXPECT_NEAR(rectangle(u, cpu), r, 1e-14);
    EXPECT_NEAR(polyakov_loop(u, cpu).re, l.re, 1e-14);
    EXPECT_NEAR(polyakov_loop(u, cpu).im, l.im, 1e-14);
    EXPECT_LT(max_unitarity_deviation(u, cpu), 1e-13);
    if (!hot) {
      // the weak field's link trace is ~1 - O(eps^2); after a random transformation it is ~0
      EXPECT_GT(lt, 0.9);
      EXPECT_LT(std::abs(link_trace(u, cpu)), 0.1);
    }
  }
}

TEST(GaugeTransform, WorksOnCompressedAndSinglePrecisionFields) {
  const Geometry g({4, 4, 2, 4});
  GaugeFieldParams prm;
  prm.geometry = g;
  prm.precision = Precision::single;
  prm.reconstruct = Reconstruct::r12;
  prm.order = FieldOrder::blocked;
  GaugeField u(prm);
  set_weak(u, 3, 0.3, cpu);
  const double p = plaquette(u, cpu).total, lt = link_trace(u, cpu);
  apply_gauge_transform(u, random_gauge_transform(g, 4, cpu), cpu);
  EXPECT_NEAR(plaquette(u, cpu).total, p, 2e-6);
  EXPECT_GT(std::abs(link_trace(u, cpu) - lt), 0.1);
}

TEST(GaugeTransform, ErrorPaths) {
  const Geometry g({4, 4, 2, 2});
  GaugeField u = GaugeField::canonical(g);
  set_unit(u, cpu);
  const GaugeTransform other = random_gauge_transform(Geometry({4, 4, 2, 4}), 1, cpu);
  EXPECT_THROW(apply_gauge_transform(u, other, cpu), InputError);
  const Geometry part({4, 4, 4, 4}, {1, 1, 2, 1}, {0, 0, 0, 0});
  GaugeField v = GaugeField::canonical(part);
  set_unit(v, cpu);
  EXPECT_THROW(apply_gauge_transform(v, random_gauge_transform(part, 1, cpu), cpu), InputError);
  runtime::Exec cuda;
  cuda.backend = runtime::Backend::cuda;
  EXPECT_THROW(apply_gauge_transform(u, random_gauge_transform(g, 1, cpu), cuda), InputError);
  GaugeField empty;
  EXPECT_THROW(apply_gauge_transform(empty, random_gauge_transform(g, 1, cpu), cpu), InputError);
}
