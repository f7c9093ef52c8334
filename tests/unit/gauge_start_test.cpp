// Gauge starts: unit, hot (Haar) and weak fields in every storage form; SU(3)-ness, observables,
// reproducibility, parse/to_string, error paths.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "gluon/qcd/gauge_accessor.h"
#include "gluon/qcd/gauge_field.h"
#include "gluon/qcd/gauge_start.h"
#include "gluon/qcd/observables.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/exec.h"

using namespace gluon;
using namespace gluon::qcd;

namespace {

const runtime::Exec cpu = runtime::cpu_exec();

GaugeField make(const Geometry& g, Precision p = Precision::double_, Reconstruct r = Reconstruct::r18,
                FieldOrder o = FieldOrder::site_major) {
  GaugeFieldParams prm;
  prm.geometry = g;
  prm.precision = p;
  prm.reconstruct = r;
  prm.order = o;
  prm.pad = o == FieldOrder::blocked ? 2 : 0;
  return GaugeField(prm);
}

}  // namespace

TEST(GaugeStart, ParseAndToString) {
  for (GaugeStart s : {GaugeStart::unit, GaugeStart::hot, GaugeStart::weak})
    EXPECT_EQ(parse_gauge_start(to_string(s)), s);
  EXPECT_EQ(parse_gauge_start("cold"), GaugeStart::unit);
  EXPECT_EQ(parse_gauge_start("random"), GaugeStart::hot);
  EXPECT_THROW(parse_gauge_start("warm"), InputError);
  try {
    parse_gauge_start("warm");
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'warm'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("weak"), std::string::npos);
  }
}

TEST(GaugeStart, UnitInEveryStorageForm) {
  const Geometry g({4, 2, 4, 2});
  for (Precision p : {Precision::double_, Precision::single, Precision::half})
    for (Reconstruct r : {Reconstruct::r18, Reconstruct::r12})
      for (FieldOrder o : {FieldOrder::site_major, FieldOrder::blocked}) {
        GaugeField u = make(g, p, r, o);
        set_unit(u, cpu);
        const auto pl = plaquette(u, cpu);
        EXPECT_EQ(pl.total, 1.0);
        EXPECT_EQ(rectangle(u, cpu), 1.0);
        EXPECT_EQ(link_trace(u, cpu), 1.0);
        EXPECT_EQ(polyakov_loop(u, cpu).re, 1.0);
        EXPECT_EQ(max_unitarity_deviation(u, cpu), 0.0);
      }
}

TEST(GaugeStart, HotIsHaarSU3AndDisordered) {
  const Geometry g({4, 4, 4, 4});
  GaugeField u = GaugeField::canonical(g);
  set_hot(u, 1234, cpu);
  EXPECT_LT(max_unitarity_deviation(u, cpu), 1e-13);
  // 6V = 1536 plaquettes of a Haar field: mean 0, sd of Re tr/3 per plaquette = 1/(3 sqrt 2)
  EXPECT_LT(std::abs(plaquette(u, cpu).total), 5 * 0.2357 / std::sqrt(1536.0));
  EXPECT_LT(std::abs(link_trace(u, cpu)), 5 * 0.2357 / std::sqrt(1024.0));
  double t2 = 0;
  for (std::int64_t s = 0; s < g.volume(); ++s)
    for (int mu = 0; mu < 4; ++mu) t2 += norm2(trace(u.link(s, mu)));
  EXPECT_NEAR(t2 / (4.0 * g.volume()), 1.0, 0.15);  // E|tr U|^2 = 1 (sd 1/sqrt(1024))
  // reproducible; another seed differs
  GaugeField v = GaugeField::canonical(g), w = GaugeField::canonical(g);
  set_hot(v, 1234, cpu);
  set_hot(w, 1235, cpu);
  EXPECT_EQ(std::memcmp(u.data(), v.data(), u.bytes()), 0);
  EXPECT_NE(std::memcmp(u.data(), w.data(), u.bytes()), 0);
}

TEST(GaugeStart, WeakIsSU3WithPlaquetteNearOne) {
  const Geometry g({4, 4, 4, 4});
  double last = 1.0;
  for (double eps : {0.05, 0.1, 0.2}) {
    GaugeField u = GaugeField::canonical(g);
    set_weak(u, 77, eps, cpu);
    EXPECT_LT(max_unitarity_deviation(u, cpu), 1e-13);
    const double p = plaquette(u, cpu).total;
    EXPECT_LT(p, 1.0 - 0.5 * eps * eps);  // each link deviates by O(eps): 1 - P = O(eps^2)
    EXPECT_GT(p, 1.0 - 20 * eps * eps);
    EXPECT_LT(p, last);
    last = p;
  }
  GaugeField d = GaugeField::canonical(g), e = GaugeField::canonical(g);
  set_weak(d, 77, cpu);  // default epsilon
  set_weak(e, 77, kDefaultWeakEpsilon, cpu);
  EXPECT_EQ(std::memcmp(d.data(), e.data(), d.bytes()), 0);
  set_start(e, GaugeStart::weak, 78, kDefaultWeakEpsilon, cpu);
  EXPECT_NE(std::memcmp(d.data(), e.data(), d.bytes()), 0);
}

TEST(GaugeStart, ReducedPrecisionStartsMeasureLikeTheDoubleOne) {
  const Geometry g({4, 4, 2, 4});
  GaugeField ref = GaugeField::canonical(g);
  set_hot(ref, 5, cpu);
  const auto p0 = plaquette(ref, cpu);
  const double r0 = rectangle(ref, cpu);
  for (Precision p : {Precision::single, Precision::half})
    for (Reconstruct r : {Reconstruct::r18, Reconstruct::r12}) {
      GaugeField u = make(g, p, r, FieldOrder::blocked);
      set_hot(u, 5, cpu);
      const double tol = p == Precision::single ? 2e-6 : 3e-4;
      EXPECT_NEAR(plaquette(u, cpu).total, p0.total, tol);
      EXPECT_NEAR(rectangle(u, cpu), r0, tol);
      EXPECT_LT(max_unitarity_deviation(u, cpu), p == Precision::single ? 2e-6 : 2e-3);
    }
}

TEST(GaugeStart, ErrorPaths) {
  runtime::Exec cuda;
  cuda.backend = runtime::Backend::cuda;
  GaugeField u = GaugeField::canonical(Geometry({2, 2, 2, 2}));
  EXPECT_THROW(set_unit(u, cuda), InputError);
  EXPECT_THROW(set_hot(u, 1, cuda), InputError);
  EXPECT_THROW(set_weak(u, 1, -1.0, cpu), InputError);
  GaugeField empty;
  EXPECT_THROW(set_unit(empty, cpu), InputError);
}
