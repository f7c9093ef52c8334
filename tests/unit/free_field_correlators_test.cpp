// Free-field meson correlators against momentum-space propagators written from the conventions
// of docs/conventions.md alone (tests/support/free_field.h): the whole pipeline (point source,
// even-odd solve, reconstruction, contraction) of the Wilson, clover and staggered operators on
// the unit gauge field. This is what another code would compute from the documented conventions,
// so it pins the hopping normalisation, the boundary phases, the t' = t - t0 shift, the colour
// factor, the rho's 1/3 and sign, and the staggered phases and Naik coefficients end to end.
#include <gtest/gtest.h>

#include "free_field.h"

using namespace gluon;
using namespace gluon::qcd;
using namespace gluon::test::free_field;

namespace {
const runtime::Exec cpu = runtime::cpu_exec();
}  // namespace


TEST(FreeFieldCorrelators, WilsonAndCloverPionAndRhoEqualTheMomentumSpacePropagator) {
  // Antiperiodic in t (the default), and once antiperiodic in y as well: the boundary phase of
  // every direction enters through its momenta.
  for (const std::array<double, 4> boundary : {std::array<double, 4>{1, 1, 1, -1}, std::array<double, 4>{1, -1, 1, -1}}) {
    SCOPED_TRACE("boundary y " + std::to_string(boundary[1]));
    const Lattice lat{{4, 4, 4, 8}, boundary};
    const double kappa = 0.11;
    const FreeWilson w(lat, kappa);
    std::vector<double> pion, rho;
    wilson_correlators(w, kSource, pion, rho);
    DiracParams p;
    p.kappa = kappa;
    p.boundary = boundary;
    const Correlators c = pipeline(p, lat, kSource, SolverType::bicgstab, cpu);
    expect_relative(c.pion, pion, 1e-9, "wilson pion");
    expect_relative(c.rho, rho, 1e-9, "wilson rho");
    // F = 0 on the unit field: the clover term is 1 whatever c_sw, and so are both preconditionings.
    p.type = DiracType::clover;
    p.csw = 1.7;
    for (auto pc : {CloverPreconditioning::asymmetric, CloverPreconditioning::symmetric}) {
      p.clover_pc = pc;
      const Correlators cc = pipeline(p, lat, kSource, SolverType::cgnr, cpu);
      expect_relative(cc.pion, pion, 1e-9, "clover pion");
      expect_relative(cc.rho, rho, 1e-9, "clover rho");
    }
  }
  // The reference itself: a pion that decays to the middle, a positive rho, and time reflection,
  // which the free field has exactly.
  const Lattice lat{{4, 4, 4, 8}, {1, 1, 1, -1}};
  std::vector<double> pion, rho;
  wilson_correlators(FreeWilson(lat, 0.11), kSource, pion, rho);
  EXPECT_GT(pion[0], pion[4]);
  EXPECT_GT(rho[4], 0.0);
  EXPECT_NEAR(pion[1], pion[7], 1e-12 * pion[1]);  // time reflection, exact in the free field
}

TEST(FreeFieldCorrelators, StaggeredGoldstonePionEqualsTheMomentumSpacePropagator) {
  const Lattice lat{{4, 4, 4, 8}, {1, 1, 1, -1}};
  const double mass = 0.2;
  struct Case {
    DiracType type;
    double c1, c3;
  };
  for (const Case k : {Case{DiracType::staggered, 1.0, 0.0}, Case{DiracType::improved_staggered, 9.0 / 8, -1.0 / 24}}) {
    SCOPED_TRACE(to_string(k.type));
    const std::vector<double> want = staggered_pion(lat, mass, k.c1, k.c3, kSource);
    DiracParams p;
    p.type = k.type;
    p.mass = mass;
    const Correlators c = pipeline(p, lat, kSource, SolverType::cg, cpu);
    expect_relative(c.pion, want, 1e-9, "even-odd, cg");
    EXPECT_TRUE(c.rho.empty());
    p.even_odd = false;
    const Correlators n = pipeline(p, lat, kSource, SolverType::cgnr, cpu);
    expect_relative(n.pion, want, 1e-9, "unpreconditioned, cgnr");
  }
}
