// Distributed gauge fields on however many ranks mpirun gave (1, 2 or 4): random starts are the
// same links on every grid, scatter/gather round-trip, extend_gauge's halos (corners included)
// equal the whole lattice for depths 1-3, and the observables equal the single-process values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "gluon/comm/environment.h"
#include "gluon/comm/process_grid.h"
#include "gluon/qcd/distribute.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/qcd/gauge_halo.h"
#include "gluon/qcd/gauge_start.h"
#include "gluon/qcd/observables.h"
#include "gluon/runtime/error.h"

using namespace gluon;
using namespace gluon::qcd;

namespace {

const runtime::Exec cpu = runtime::cpu_exec();
const Coords kLattice{8, 8, 8, 16};

// The grids this run tests, by number of ranks (every one divides kLattice into local extents >= 4).
std::vector<comm::Grid4> grids() {
  switch (comm::world().size()) {
    case 1: return {{1, 1, 1, 1}};
    case 2: return {{1, 1, 1, 2}, {2, 1, 1, 1}, {1, 1, 2, 1}};
    case 4: return {{1, 1, 2, 2}, {2, 2, 1, 1}, {1, 1, 1, 4}, {2, 1, 1, 2}};
    default: return {comm::choose_grid(kLattice, comm::world().size(), 4)};
  }
}

std::string name(const comm::Grid4& g) { return comm::ProcessGrid(g, 0).to_string(); }

GaugeField whole_weak(std::uint64_t seed) {
  GaugeField u = GaugeField::canonical(Geometry(kLattice));
  set_weak(u, seed, 0.3, cpu);
  return u;
}

bool same_site(const GaugeField& a, std::int64_t sa, const GaugeField& b, std::int64_t sb) {
  return std::memcmp(&a.link(sa, 0), &b.link(sb, 0), 4 * sizeof(SU3d)) == 0;
}

void expect_close(double a, double b, const char* what, const comm::Grid4& g) {
  EXPECT_NEAR(a, b, 1e-12 * std::max(1.0, std::fabs(b))) << what << " on grid " << name(g);
}

}  // namespace

TEST(DistributedGauge, RandomStartsAreTheSameLinksOnEveryGrid) {
  GaugeField hot = GaugeField::canonical(Geometry(kLattice));
  set_hot(hot, 77, cpu);
  const GaugeField weak = whole_weak(78);
  for (const auto& g : grids()) {
    const Geometry local = make_geometry(kLattice, g, comm::world().rank());
    GaugeField h = GaugeField::canonical(local), w = GaugeField::canonical(local);
    set_hot(h, 77, cpu);
    set_weak(w, 78, 0.3, cpu);
    const GaugeField hs = scatter_gauge(hot, local), ws = scatter_gauge(weak, local);
    EXPECT_EQ(std::memcmp(h.data(), hs.data(), h.bytes()), 0) << "hot start, grid " << name(g);
    EXPECT_EQ(std::memcmp(w.data(), ws.data(), w.bytes()), 0) << "weak start, grid " << name(g);
  }
}

TEST(DistributedGauge, ScatterThenGatherGivesTheWholeField) {
  const GaugeField whole = whole_weak(5);
  auto& world = comm::world();
  for (const auto& g : grids()) {
    const Geometry local = make_geometry(kLattice, g, world.rank());
    // A non-canonical local copy: gather converts it.
    GaugeFieldParams p;
    p.geometry = local;
    p.order = FieldOrder::blocked;
    const GaugeField blocked = converted(scatter_gauge(whole, local), p, cpu);
    const int root = world.size() - 1;
    const GaugeField back = gather_gauge(blocked, world, root);
    if (world.rank() == root) {
      ASSERT_EQ(back.bytes(), whole.bytes());
      EXPECT_EQ(std::memcmp(back.data(), whole.data(), whole.bytes()), 0) << "grid " << name(g);
    } else {
      EXPECT_EQ(back.bytes(), 0u);
    }
  }
}

TEST(DistributedGauge, ExtendedFieldEqualsTheWholeLatticeCornersIncluded) {
  const GaugeField whole = whole_weak(11);
  const Geometry& gw = whole.geometry();
  for (const auto& g : grids()) {
    const Geometry local = make_geometry(kLattice, g, comm::world().rank());
    const GaugeField u = scatter_gauge(whole, local);
    for (int depth = 1; depth <= 3; ++depth) {
      const ExtendedGauge e = extend_gauge(u, depth, comm::world());
      ASSERT_EQ(e.depth, depth);
      const Coords& L = local.local_dims();
      for (int mu = 0; mu < 4; ++mu) ASSERT_EQ(e.extended.local_dims()[mu], L[mu] + 2 * depth);
      std::int64_t checked = 0, wrong = 0, corners = 0;
      Coords x;
      for (x[3] = -depth; x[3] < L[3] + depth; ++x[3])
        for (x[2] = -depth; x[2] < L[2] + depth; ++x[2])
          for (x[1] = -depth; x[1] < L[1] + depth; ++x[1])
            for (x[0] = -depth; x[0] < L[0] + depth; ++x[0]) {
              Coords y;
              int outside = 0;
              for (int mu = 0; mu < 4; ++mu) {
                outside += x[mu] < 0 || x[mu] >= L[mu];
                y[mu] = ((local.origin()[mu] + x[mu]) % kLattice[mu] + kLattice[mu]) % kLattice[mu];
              }
              corners += outside >= 2;
              // The parity of the extended site is that of the global site.
              EXPECT_EQ(e.extended.indexer().parity_of_index(e.index(x)), (y[0] + y[1] + y[2] + y[3]) & 1);
              if (!same_site(e.field, e.index(x), whole, gw.eo_index(y))) ++wrong;
              ++checked;
            }
      EXPECT_EQ(wrong, 0) << "depth " << depth << " grid " << name(g);
      EXPECT_EQ(checked, e.extended.volume());
      EXPECT_GT(corners, 0);
    }
  }
}

TEST(DistributedGauge, ObservablesEqualTheSingleProcessValues) {
  const GaugeField whole = whole_weak(21);
  // Every rank computes the reference alone (a single-process field, communicator of one).
  const auto self = comm::make_single_communicator();
  const PlaquetteResult p0 = plaquette(whole, cpu, *self);
  const double r0 = rectangle(whole, cpu, *self), t0 = link_trace(whole, cpu, *self);
  const Complex<double> l0 = polyakov_loop(whole, cpu, *self);
  const double m0 = max_unitarity_deviation(whole, cpu, *self);
  ASSERT_GT(std::fabs(l0.re), 1e-3);  // a weak field: a Polyakov loop far from 0
  for (const auto& g : grids()) {
    const Geometry local = make_geometry(kLattice, g, comm::world().rank());
    const GaugeField u = scatter_gauge(whole, local);
    const PlaquetteResult p = plaquette(u, cpu);
    expect_close(p.total, p0.total, "plaquette", g);
    expect_close(p.spatial, p0.spatial, "spatial plaquette", g);
    expect_close(p.temporal, p0.temporal, "temporal plaquette", g);
    expect_close(rectangle(u, cpu), r0, "rectangle", g);
    expect_close(link_trace(u, cpu), t0, "link trace", g);
    const Complex<double> l = polyakov_loop(u, cpu);
    expect_close(l.re, l0.re, "Polyakov loop (re)", g);
    expect_close(l.im, l0.im, "Polyakov loop (im)", g);
    EXPECT_EQ(max_unitarity_deviation(u, cpu), m0) << "grid " << name(g);
    // A single-precision blocked field is measured as exactly the links it stores.
    GaugeFieldParams fp;
    fp.precision = Precision::single;
    fp.order = FieldOrder::blocked;
    fp.geometry = Geometry(kLattice);
    const GaugeField wf = converted(whole, fp, cpu);
    fp.geometry = local;
    const GaugeField uf = converted(u, fp, cpu);
    expect_close(plaquette(uf, cpu).total, plaquette(wf, cpu, *self).total, "float plaquette", g);
  }
}

TEST(DistributedGauge, BadSetUpsAreInputErrors) {
  auto& world = comm::world();
  // A grid whose volume is not the number of ranks.
  const comm::Grid4 wrong{1, 1, 1, 2 * world.size()};
  const Geometry g(kLattice, wrong, Coords{0, 0, 0, 0});
  GaugeField u = GaugeField::canonical(g);
  set_unit(u, cpu);
  EXPECT_THROW(extend_gauge(u, 1, world), InputError);
  EXPECT_THROW(plaquette(u, cpu), InputError);
  EXPECT_THROW(rectangle(u, cpu), InputError);
  EXPECT_THROW(polyakov_loop(u, cpu), InputError);
  EXPECT_THROW(link_trace(u, cpu), InputError);
  EXPECT_THROW(max_unitarity_deviation(u, cpu), InputError);
  EXPECT_THROW(make_geometry(kLattice, comm::Grid4{1, 1, 1, 3}, 0), InputError);
  // Depth beyond 3.
  const GaugeField w = whole_weak(1);
  const auto self = comm::make_single_communicator();
  EXPECT_THROW(extend_gauge(w, 4, *self), InputError);
  if (world.size() > 1) {
    // Grid coordinates that are not this rank's place in the grid.
    const comm::Grid4 grid{1, 1, 1, world.size()};
    const Geometry shifted(kLattice, grid, Coords{0, 0, 0, (world.rank() + 1) % world.size()});
    GaugeField v = GaugeField::canonical(shifted);
    set_unit(v, cpu);
    try {
      extend_gauge(v, 1, world);
      ADD_FAILURE() << "no InputError";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("grid coordinates"), std::string::npos) << e.what();
    }
    // Only rank 0 misplaced (it claims rank 1's block): every rank fails, none waits.
    const Coords c = comm::ProcessGrid(grid, world.rank() == 0 ? 1 : world.rank()).coords();
    GaugeField w0 = GaugeField::canonical(Geometry(kLattice, grid, c));
    set_unit(w0, cpu);
    EXPECT_THROW(extend_gauge(w0, 2, world), InputError);
    EXPECT_THROW(polyakov_loop(w0, cpu), InputError);
    EXPECT_THROW(plaquette(w0, cpu), InputError);
  }
}

// The same on the GPU (skipped without a CUDA device): device fields of the blocked layout give
// the same halos, observables and random starts as host fields.
TEST(DistributedGauge, DeviceFieldsGiveTheSameHalosObservablesAndStarts) {
  if (!runtime::cuda_available()) GTEST_SKIP() << "no CUDA device (CPU-only build or no GPU): not run";
  auto& world = comm::world();
  const runtime::Exec gpu = runtime::cuda_exec(world.local_rank() % runtime::cuda_device_count());
  const GaugeField whole = whole_weak(31);
  const auto self = comm::make_single_communicator();
  const PlaquetteResult p0 = plaquette(whole, cpu, *self);
  const double r0 = rectangle(whole, cpu, *self), t0 = link_trace(whole, cpu, *self);
  const Complex<double> l0 = polyakov_loop(whole, cpu, *self);
  for (const auto& g : grids()) {
    const Geometry local = make_geometry(kLattice, g, world.rank());
    const GaugeField u = scatter_gauge(whole, local);
    GaugeFieldParams p;
    p.geometry = local;
    p.order = FieldOrder::blocked;
    p.space = runtime::MemSpace::device;
    p.device = gpu.device;
    const GaugeField d = converted(u, p, gpu);
    expect_close(plaquette(d, gpu).total, p0.total, "device plaquette", g);
    expect_close(rectangle(d, gpu), r0, "device rectangle", g);
    expect_close(link_trace(d, gpu), t0, "device link trace", g);
    const Complex<double> l = polyakov_loop(d, gpu);
    expect_close(l.re, l0.re, "device Polyakov loop (re)", g);
    expect_close(l.im, l0.im, "device Polyakov loop (im)", g);
    const ExtendedGauge eh = extend_gauge(u, 3, world), ed = extend_gauge(d, 3, world);
    EXPECT_EQ(std::memcmp(eh.field.data(), ed.field.data(), eh.field.bytes()), 0) << "grid " << name(g);
    GaugeField hot(p);
    set_hot(hot, 77, gpu);
    GaugeField hot_host = GaugeField::canonical(local);
    set_hot(hot_host, 77, cpu);
    const GaugeField back = converted(hot, GaugeFieldParams{}, gpu);
    // Keyed by the global site on the device too (equal to rounding: CPU and GPU maths libraries).
    const auto* a = static_cast<const double*>(back.data());
    const auto* b = static_cast<const double*>(hot_host.data());
    double diff = 0;
    for (std::size_t k = 0; k < back.bytes() / sizeof(double); ++k) diff = std::max(diff, std::fabs(a[k] - b[k]));
    EXPECT_LT(diff, 1e-13) << "device hot start, grid " << name(g);
  }
}
