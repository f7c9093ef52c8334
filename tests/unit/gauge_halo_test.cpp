// extend_gauge on one process: every dimension wraps onto the rank itself, so the extended field
// is the periodic continuation of the lattice (corners included) for depths 0-3, from any storage.
#include <gtest/gtest.h>

#include <cstring>

#include "gluon/comm/communicator.h"
#include "gluon/qcd/distribute.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/qcd/gauge_halo.h"
#include "gluon/qcd/gauge_start.h"
#include "gluon/runtime/error.h"

using namespace gluon;
using namespace gluon::qcd;

TEST(GaugeHalo, OneProcessWrapsPeriodically) {
  const runtime::Exec cpu = runtime::cpu_exec();
  const Coords dims{4, 6, 4, 8};
  GaugeField u = GaugeField::canonical(Geometry(dims));
  set_hot(u, 3, cpu);
  // A single-precision r12 blocked copy too: extend_gauge converts it to canonical first.
  GaugeFieldParams p;
  p.geometry = u.geometry();
  p.precision = Precision::single;
  p.reconstruct = Reconstruct::r12;
  p.order = FieldOrder::blocked;
  const GaugeField f = converted(u, p, cpu);
  const GaugeField fc = converted(f, GaugeFieldParams{}, cpu);
  const auto self = comm::make_single_communicator();
  for (const GaugeField* src : {static_cast<const GaugeField*>(&u), &f}) {
    const GaugeField& ref = src == &u ? u : fc;
    for (int depth = 0; depth <= 3; ++depth) {
      const ExtendedGauge e = extend_gauge(*src, depth, *self);
      EXPECT_EQ(e.extended.volume(), std::int64_t(4 + 2 * depth) * (6 + 2 * depth) * (4 + 2 * depth) * (8 + 2 * depth));
      std::int64_t wrong = 0;
      Coords x;
      for (x[3] = -depth; x[3] < dims[3] + depth; ++x[3])
        for (x[2] = -depth; x[2] < dims[2] + depth; ++x[2])
          for (x[1] = -depth; x[1] < dims[1] + depth; ++x[1])
            for (x[0] = -depth; x[0] < dims[0] + depth; ++x[0]) {
              Coords y;
              for (int mu = 0; mu < 4; ++mu) y[mu] = (x[mu] + dims[mu]) % dims[mu];
              if (std::memcmp(&e.field.link(e.index(x), 0), &ref.link(ref.geometry().eo_index(y), 0),
                              4 * sizeof(SU3d)) != 0)
                ++wrong;
            }
      EXPECT_EQ(wrong, 0) << "depth " << depth << (src == &u ? " canonical" : " single r12 blocked");
    }
  }
}

TEST(GaugeHalo, BadDepthAndCommunicatorAreInputErrors) {
  const runtime::Exec cpu = runtime::cpu_exec();
  GaugeField u = GaugeField::canonical(Geometry(Coords{4, 4, 2, 4}));
  set_unit(u, cpu);
  const auto self = comm::make_single_communicator();
  EXPECT_THROW(extend_gauge(u, 3, *self), InputError);  // deeper than the local extent 2
  EXPECT_THROW(extend_gauge(u, -1, *self), InputError);
  GaugeField v = GaugeField::canonical(make_geometry(Coords{4, 4, 4, 8}, comm::Grid4{1, 1, 1, 2}, 1));
  set_unit(v, cpu);
  EXPECT_THROW(extend_gauge(v, 1, *self), InputError);  // a grid of 2 on a communicator of 1
  GaugeField empty;
  EXPECT_THROW(extend_gauge(empty, 1, *self), InputError);
}

TEST(GaugeHalo, ScatterRejectsAMismatchedLattice) {
  GaugeField u = GaugeField::canonical(Geometry(Coords{4, 4, 4, 4}));
  EXPECT_THROW(scatter_gauge(u, make_geometry(Coords{4, 4, 4, 8}, comm::Grid4{1, 1, 1, 2}, 0)), InputError);
}
