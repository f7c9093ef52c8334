// GPU: observables, reunitarisation and gauge transformations on the CUDA backend agree with the
// CPU (to 1e-12: the GPU may contract products into FMA, so not bitwise). Single/half r12 links
// rebuild their third row in float, where the GPU's FMA contraction moves the 8th digit: those
// agree to 1e-6.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gluon/qcd/gauge_accessor.h"
#include "gluon/qcd/gauge_field.h"
#include "gluon/qcd/gauge_start.h"
#include "gluon/qcd/gauge_transform.h"
#include "gluon/qcd/observables.h"
#include "gluon/runtime/exec.h"
#include "gluon/runtime/memory.h"
#include "test_support.h"

using namespace gluon;
using namespace gluon::qcd;

namespace {

GaugeField on_device(const GaugeField& h) {
  GaugeFieldParams p = h.params();
  p.space = runtime::MemSpace::device;
  GaugeField d(p);
  runtime::copy(d.buffer(), h.buffer());
  return d;
}

GaugeField on_host(const GaugeField& d) {
  GaugeFieldParams p = d.params();
  p.space = runtime::MemSpace::host;
  GaugeField h(p);
  runtime::copy(h.buffer(), d.buffer());
  return h;
}

}  // namespace

TEST(GpuObservables, AgreeWithTheCpuInEveryStorageForm) {
  GLUON_REQUIRE_GPU();
  const auto gpu = runtime::cuda_exec();
  const auto cpu = runtime::cpu_exec();
  const Geometry g({8, 8, 8, 8});
  for (Precision p : {Precision::double_, Precision::single, Precision::half})
    for (Reconstruct r : {Reconstruct::r18, Reconstruct::r12})
      for (FieldOrder o : {FieldOrder::site_major, FieldOrder::blocked}) {
        SCOPED_TRACE(to_string(p) + " " + to_string(r));
        GaugeFieldParams prm;
        prm.geometry = g;
        prm.precision = p;
        prm.reconstruct = r;
        prm.order = o;
        GaugeField h(prm);
        set_weak(h, 3, 0.3, cpu);
        const GaugeField d = on_device(h);
        const double tol = (p != Precision::double_ && r == Reconstruct::r12) ? 1e-6 : 1e-12;
        const auto ph = plaquette(h, cpu), pd = plaquette(d, gpu);
        EXPECT_NEAR(pd.total, ph.total, tol);
        EXPECT_NEAR(pd.spatial, ph.spatial, tol);
        EXPECT_NEAR(pd.temporal, ph.temporal, tol);
        EXPECT_NEAR(rectangle(d, gpu), rectangle(h, cpu), tol);
        EXPECT_NEAR(link_trace(d, gpu), link_trace(h, cpu), tol);
        const auto lh = polyakov_loop(h, cpu), ld = polyakov_loop(d, gpu);
        EXPECT_NEAR(ld.re, lh.re, tol);
        EXPECT_NEAR(ld.im, lh.im, tol);
        EXPECT_NEAR(max_unitarity_deviation(d, gpu), max_unitarity_deviation(h, cpu), tol);
      }
}

TEST(GpuObservables, ReunitarizeAndGaugeTransformAgreeWithTheCpu) {
  GLUON_REQUIRE_GPU();
  const auto gpu = runtime::cuda_exec();
  const auto cpu = runtime::cpu_exec();
  const Geometry g({8, 8, 4, 8});
  GaugeField h = GaugeField::canonical(g);
  set_hot(h, 8, cpu);
  for (std::int64_t s = 0; s < g.volume(); ++s) h.link(s, 2).e[0][1] *= 1.01;  // damage
  GaugeField d = on_device(h);
  reunitarize(h, cpu);
  reunitarize(d, gpu);
  EXPECT_LT(max_unitarity_deviation(d, gpu), 1e-13);
  const GaugeTransform th = random_gauge_transform(g, 9, cpu);
  const GaugeTransform td = random_gauge_transform(g, 9, gpu);
  apply_gauge_transform(h, th, cpu);
  apply_gauge_transform(d, td, gpu);
  const GaugeField back = on_host(d);
  double worst = 0;
  for (std::int64_t s = 0; s < g.volume(); ++s)
    for (int mu = 0; mu < 4; ++mu)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          worst = std::max(worst, std::abs(back.link(s, mu).e[i][j].re - h.link(s, mu).e[i][j].re));
          worst = std::max(worst, std::abs(back.link(s, mu).e[i][j].im - h.link(s, mu).e[i][j].im));
        }
  EXPECT_LT(worst, 1e-13);
  EXPECT_NEAR(plaquette(d, gpu).total, plaquette(h, cpu).total, 1e-12);
}
