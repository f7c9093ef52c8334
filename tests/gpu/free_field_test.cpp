// The propagator pipeline on the GPU (sources moved to the device, even-odd preparation, pure and
// mixed-precision solves, reconstruction, the columns brought back) against the free-field
// momentum-space propagators of tests/support/free_field.h, as the CPU test
// (tests/unit/free_field_correlators_test.cpp) checks the CPU pipeline.
#include <gtest/gtest.h>

#include "free_field.h"
#include "test_support.h"

using namespace gluon;
using namespace gluon::qcd;
using namespace gluon::test::free_field;

TEST(GpuFreeField, WilsonCloverAndStaggeredPropagatorsOnTheGpuGiveTheFreeCorrelators) {
  GLUON_REQUIRE_GPU();
  const runtime::Exec gpu = runtime::cuda_exec();
  const Lattice lat{{4, 4, 4, 8}, {1, 1, 1, -1}};
  {
    const double kappa = 0.11;
    std::vector<double> pion, rho;
    wilson_correlators(FreeWilson(lat, kappa), kSource, pion, rho);
    DiracParams p;
    p.kappa = kappa;
    p.reconstruct = Reconstruct::r12;
    for (Precision sloppy : {Precision::double_, Precision::single, Precision::half}) {
      SCOPED_TRACE("wilson, sloppy " + to_string(sloppy));
      const Correlators c = pipeline(p, lat, kSource, SolverType::bicgstab, gpu, sloppy);
      expect_relative(c.pion, pion, 1e-9, "pion");
      expect_relative(c.rho, rho, 1e-9, "rho");
    }
    p.type = DiracType::clover;
    p.csw = 1.7;
    const Correlators c = pipeline(p, lat, kSource, SolverType::bicgstab, gpu, Precision::half);
    expect_relative(c.pion, pion, 1e-9, "clover double-half, pion");
    expect_relative(c.rho, rho, 1e-9, "clover double-half, rho");
  }
  const double mass = 0.2;
  struct Case {
    DiracType type;
    double c1, c3;
  };
  for (const Case k : {Case{DiracType::staggered, 1.0, 0.0}, Case{DiracType::improved_staggered, 9.0 / 8, -1.0 / 24}}) {
    const std::vector<double> want = staggered_pion(lat, mass, k.c1, k.c3, kSource);
    DiracParams p;
    p.type = k.type;
    p.mass = mass;
    for (Precision sloppy : {Precision::double_, Precision::single, Precision::half}) {
      SCOPED_TRACE(to_string(k.type) + ", sloppy " + to_string(sloppy));
      const Correlators c = pipeline(p, lat, kSource, SolverType::cg, gpu, sloppy);
      expect_relative(c.pion, want, 1e-9, "pion");
    }
  }
}
