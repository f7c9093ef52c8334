// Dirac operators and solvers on a lattice split over the ranks of the world (1, 2 or 4 in CI):
// every rank also builds the whole lattice in one process, and the split results must equal the
// corresponding block of the single-process results to 1e-12 relative (solves: to the solver
// tolerance). Both halo policies, cuts along one, two and three dimensions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "gluon/comm/environment.h"
#include "gluon/comm/process_grid.h"
#include "gluon/qcd/dirac/dirac.h"
#include "gluon/qcd/dirac/halo.h"
#include "gluon/qcd/dirac/staggered.h"
#include "gluon/qcd/dirac/wilson.h"
#include "gluon/qcd/distribute.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/qcd/gauge_start.h"
#include "gluon/qcd/random_fields.h"
#include "gluon/qcd/solvers/multishift_cg.h"
#include "gluon/qcd/solvers/solver.h"
#include "canonical_spinor.h"

using namespace gluon;
using namespace gluon::qcd;

namespace {

const runtime::Exec cpu = runtime::cpu_exec();
// X = 16: blocks cut in x keep X/2 = 4, so every grid below can run the vector CPU kernels
// (cpu_simd.h: local X/2 a multiple of 4).
const Coords kLattice{16, 4, 8, 8};

std::vector<comm::Grid4> grids_for(int n) {
  if (n == 1) return {{1, 1, 1, 1}};
  if (n == 2) return {{1, 1, 1, 2}, {2, 1, 1, 1}, {1, 1, 2, 1}};
  if (n == 4) return {{1, 1, 2, 2}, {2, 1, 1, 2}, {2, 1, 2, 1}};
  if (n == 8) return {{2, 1, 2, 2}};
  return {};
}

std::string name(const comm::Grid4& g) { return comm::ProcessGrid(g, 0).to_string(); }

Geometry block(const comm::Grid4& grid) { return make_geometry(kLattice, grid, comm::world().rank()); }

// This rank's block of `whole` (any order: on one rank the CPU operators may keep vectors tiled),
// as a canonical field.
SpinorField local_spinor(const SpinorField& whole_any, const Geometry& g) {
  const SpinorField whole = test::canonical_copy(whole_any, cpu);
  SpinorFieldParams p = whole.params();
  p.geometry = g;
  SpinorField f(p);
  const std::int64_t half = g.half_volume();
  const SiteSubset sub = p.subset;
  for (std::int64_t s = 0; s < g.volume(); ++s) {
    const int par = s >= half ? 1 : 0;
    if ((sub == SiteSubset::even && par == 1) || (sub == SiteSubset::odd && par == 0)) continue;
    const std::int64_t ls = sub == SiteSubset::full ? s : s - par * half;
    const std::int64_t ws0 = whole.geometry().eo_index(g.local_to_global(g.coords(s)));
    const std::int64_t ws = sub == SiteSubset::full ? ws0 : ws0 - par * whole.geometry().half_volume();
    if (p.nspin == 4) f.site(ls) = whole.site(ws);
    else f.color_vector(ls) = whole.color_vector(ws);
  }
  return f;
}

// Relative L2 difference over the whole lattice (summed over ranks) of canonical fields.
double global_rel_diff(const SpinorField& got, const SpinorField& want) {
  double v[2] = {0, 0};
  const int reals = got.params().nspin * 6;
  const auto* a = static_cast<const double*>(got.data());
  const auto* b = static_cast<const double*>(want.data());
  const std::int64_t n = got.params().sites() * reals;
  for (std::int64_t i = 0; i < n; ++i) {
    v[0] += (a[i] - b[i]) * (a[i] - b[i]);
    v[1] += b[i] * b[i];
  }
  comm::world().allreduce_sum(v, 2);
  return std::sqrt(v[0] / v[1]);
}

// The single-process operator's unpreconditioned M (DiracOperator::M_full, as the propagator's
// residual check uses it) on a Gaussian full field: {the input, the output}, both canonical.
std::pair<SpinorField, SpinorField> full_reference(const DiracOperator& ref, std::uint64_t seed) {
  SpinorFieldParams cp = ref.full_params();
  cp.precision = Precision::double_;
  cp.order = FieldOrder::site_major;
  SpinorField gauss(cp), in(ref.full_params()), out(ref.full_params());
  fill_gaussian(gauss, seed, 0, cpu);
  convert(gauss, in, cpu);
  ref.M_full(out, in);
  return {test::canonical_copy(in, cpu), test::canonical_copy(out, cpu)};
}

struct Policy {
  explicit Policy(HaloPolicy p) { set_default_halo_policy(p); }
  ~Policy() { set_default_halo_policy(HaloPolicy::auto_); }
};

DiracParams params(DiracType t) {
  DiracParams p;
  p.type = t;
  p.kappa = 0.11;
  p.csw = 1.2;
  p.mass = 0.2;
  p.boundary = {1, -1, 1, -1};
  p.even_odd = true;
  p.reconstruct = t == DiracType::improved_staggered ? Reconstruct::r18 : Reconstruct::r12;
  return p;
}

// A solve's problem on this rank's block of `grid`: the operator of p in double and in single
// precision (the sloppy one) on the block of `whole`, and the block of the right-hand side.
struct SplitSolve {
  Geometry g;
  std::unique_ptr<DiracOperator> op, op_s;
  SpinorField b;
};
SplitSolve split_solve(const DiracParams& p, const GaugeField& whole, const SpinorField& b_whole,
                       const comm::Grid4& grid) {
  DiracParams ps = p;
  ps.precision = Precision::single;
  const Geometry g = block(grid);
  const GaugeField u = scatter_gauge(whole, g);
  auto op = make_dirac(p, u, cpu);
  SpinorField b = converted(local_spinor(b_whole, g), op->vector_params(), cpu);
  return {g, std::move(op), make_dirac(ps, u, cpu), std::move(b)};
}

}  // namespace

TEST(SplitLattice, OperatorsEqualTheSingleProcessOnes) {
  const Geometry whole_g(kLattice);
  GaugeField whole = GaugeField::canonical(whole_g);
  set_weak(whole, 7, 0.5, cpu);
  GaugeField lng = GaugeField::canonical(whole_g);
  set_hot(lng, 8, cpu);
  for (DiracType t : {DiracType::wilson, DiracType::clover, DiracType::staggered,
                      DiracType::improved_staggered}) {
    const DiracParams p = params(t);
    auto make = [&](const GaugeField& u, const GaugeField& l) {
      return t == DiracType::improved_staggered ? make_improved_staggered(p, u, l, cpu)
                                                : make_dirac(p, u, cpu);
    };
    const auto ref = make(whole, lng);
    SpinorFieldParams wp = ref->vector_params();
    SpinorField in_w(wp), out_w(wp), outd_w(wp);
    SpinorFieldParams cp = wp;
    cp.precision = Precision::double_;
    cp.order = FieldOrder::site_major;
    SpinorField gauss(cp);
    fill_gaussian(gauss, 9, 0, cpu);
    convert(gauss, in_w, cpu);
    ref->M(out_w, in_w);
    ref->Mdag(outd_w, in_w);
    const SpinorField want_c = test::canonical_copy(out_w, cpu), wantd_c = test::canonical_copy(outd_w, cpu);
    const auto [inf_c, wantf_c] = full_reference(*ref, 10);
    for (const comm::Grid4& grid : grids_for(comm::world().size()))
      for (HaloPolicy pol : {HaloPolicy::no_overlap, HaloPolicy::overlap}) {
        Policy guard(pol);
        const Geometry g = block(grid);
        const auto op = make(scatter_gauge(whole, g), scatter_gauge(lng, g));
        const SpinorField in = local_spinor(test::canonical_copy(in_w, cpu), g);
        SpinorFieldParams vp = op->vector_params();
        SpinorField x(vp), out(vp), outd(vp);
        convert(in, x, cpu);
        op->M(out, x);
        op->Mdag(outd, x);
        const double e = global_rel_diff(test::canonical_copy(out, cpu), local_spinor(want_c, g));
        const double ed = global_rel_diff(test::canonical_copy(outd, cpu), local_spinor(wantd_c, g));
        EXPECT_LT(e, 1e-12) << to_string(t) << " grid " << name(grid) << " " << to_string(pol);
        EXPECT_LT(ed, 1e-12) << to_string(t) << " dagger, grid " << name(grid) << " " << to_string(pol);
        SpinorField inf(op->full_params()), outf(op->full_params());
        convert(local_spinor(inf_c, g), inf, cpu);
        op->M_full(outf, inf);
        const double ef = global_rel_diff(test::canonical_copy(outf, cpu), local_spinor(wantf_c, g));
        EXPECT_LT(ef, 1e-12) << to_string(t) << " M_full, grid " << name(grid) << " " << to_string(pol);
      }
  }
}

// The same on GPUs, one per rank (skipped without enough of them on the node): the faces take
// CUDA IPC (copy engines between the ranks' GPUs) and NCCL in turn, under both policies; three
// applications in a row use both ghost slots of the IPC exchange.
TEST(SplitLattice, GpuOperatorsEqualTheSingleProcessOnes) {
  if (!runtime::cuda_available() || runtime::cuda_device_count() < comm::world().local_size())
    GTEST_SKIP() << "needs one GPU per rank on the node";
  const runtime::Exec gpu = runtime::cuda_exec(comm::world().local_rank());
  const Geometry whole_g(kLattice);
  GaugeField whole = GaugeField::canonical(whole_g);
  set_weak(whole, 27, 0.5, cpu);
  for (DiracType t : {DiracType::clover, DiracType::staggered}) {
    const DiracParams p = params(t);
    const auto ref = make_dirac(p, whole, cpu);
    SpinorField in_w(ref->vector_params()), out_w(ref->vector_params()), outd_w(ref->vector_params());
    fill_gaussian(in_w, 28, 0, cpu);
    ref->M(out_w, in_w);
    ref->Mdag(outd_w, in_w);
    const SpinorField want_c = test::canonical_copy(out_w, cpu), wantd_c = test::canonical_copy(outd_w, cpu);
    const auto [inf_c, wantf_c] = full_reference(*ref, 10);
    for (const comm::Grid4& grid : grids_for(comm::world().size()))
      for (const char* transport : {"ipc", "nccl"})
        for (HaloPolicy pol : {HaloPolicy::no_overlap, HaloPolicy::overlap}) {
          if (comm::world().size() == 1 && std::string(transport) == "nccl") continue;
          setenv("GLUON_HALO_TRANSPORT", transport, 1);
          Policy guard(pol);
          const Geometry g = block(grid);
          const auto op = make_dirac(p, scatter_gauge(whole, g), gpu);
          const std::string how = to_string(t) + " grid " + name(grid) + " " + transport + " " + to_string(pol);
          if (op->split() && std::string(transport) == "ipc") EXPECT_EQ(op->halo_stats().transport, "cuda-ipc") << how;
          const SpinorField x = converted(local_spinor(test::canonical_copy(in_w, cpu), g), op->vector_params(), gpu);
          SpinorField out(op->vector_params());
          for (int call = 0; call < 3; ++call) {
            op->M(out, x);
            EXPECT_LT(global_rel_diff(test::canonical_copy(out, gpu), local_spinor(want_c, g)), 1e-12) << how << " call " << call;
            op->Mdag(out, x);
            EXPECT_LT(global_rel_diff(test::canonical_copy(out, gpu), local_spinor(wantd_c, g)), 1e-12) << how << " dagger, call " << call;
          }
          const SpinorField xf = converted(local_spinor(inf_c, g), op->full_params(), gpu);
          SpinorField outf(op->full_params());
          op->M_full(outf, xf);
          EXPECT_LT(global_rel_diff(test::canonical_copy(outf, gpu), local_spinor(wantf_c, g)), 1e-12) << how << " M_full";
          unsetenv("GLUON_HALO_TRANSPORT");
        }
  }
}

// All four dimensions cut: the grid cuts what the ranks allow, GLUON_HALO_FORCE_CUT makes the
// remaining dimensions exchange faces with the rank itself (a 1-rank run cuts all four that way).
TEST(SplitLattice, AllFourDimensionsCut) {
  const Geometry whole_g(kLattice);
  GaugeField whole = GaugeField::canonical(whole_g);
  set_weak(whole, 21, 0.5, cpu);
  const int n = comm::world().size();
  const comm::Grid4 grid = n == 1 ? comm::Grid4{1, 1, 1, 1} : n == 2 ? comm::Grid4{1, 1, 1, 2}
                                                            : comm::Grid4{1, 1, 2, 2};
  const char* force = n == 1 ? "1,1,1,1" : n == 2 ? "1,1,1,0" : "1,1,0,0";
  for (DiracType t : {DiracType::clover, DiracType::staggered}) {
    const DiracParams p = params(t);
    const auto ref = make_dirac(p, whole, cpu);
    SpinorField in_w(ref->vector_params()), out_w(ref->vector_params());
    fill_gaussian(in_w, 22, 0, cpu);
    ref->M(out_w, in_w);
    setenv("GLUON_HALO_FORCE_CUT", force, 1);
    for (HaloPolicy pol : {HaloPolicy::no_overlap, HaloPolicy::overlap}) {
      Policy guard(pol);
      const Geometry g = block(grid);
      const auto op = make_dirac(p, scatter_gauge(whole, g), cpu);
      EXPECT_TRUE(op->split());
      SpinorField out(op->vector_params());
      op->M(out, converted(local_spinor(in_w, g), op->vector_params(), cpu));
      EXPECT_LT(global_rel_diff(test::canonical_copy(out, cpu), local_spinor(out_w, g)), 1e-12)
          << to_string(t) << " " << to_string(pol);
    }
    unsetenv("GLUON_HALO_FORCE_CUT");
  }
}

TEST(SplitLattice, MixedPrecisionSolveEqualsTheSingleProcessSolve) {
  const Geometry whole_g(kLattice);
  GaugeField whole = GaugeField::canonical(whole_g);
  set_weak(whole, 11, 0.2, cpu);
  for (DiracType t : {DiracType::clover, DiracType::staggered}) {
    DiracParams p = params(t);
    DiracParams ps = p;
    ps.precision = Precision::single;
    const auto ref = make_dirac(p, whole, cpu);
    const auto ref_s = make_dirac(ps, whole, cpu);
    SpinorField b_w(ref->vector_params());
    fill_gaussian(b_w, 12, 0, cpu);
    SolverParams sp;
    sp.tol = 1e-11;
    // CGNR as well for clover: its reliable updates apply M^+ in the sloppy precision to the
    // residual b - M x summed over the ranks (cg.cpp).
    const std::vector<SolverType> solvers = t == DiracType::staggered
                                                ? std::vector<SolverType>{SolverType::cg}
                                                : std::vector<SolverType>{SolverType::bicgstab, SolverType::cgnr};
    for (const SolverType st : solvers) {
      SCOPED_TRACE(to_string(st));
      SpinorField x_w(ref->vector_params());
      const SolverResult rw = solve(st, *ref, x_w, b_w, sp, ref_s.get());
      ASSERT_TRUE(rw.converged);
      for (const comm::Grid4& grid : grids_for(comm::world().size())) {
        const SplitSolve q = split_solve(p, whole, b_w, grid);
        const Geometry& g = q.g;
        SpinorField x(q.op->vector_params());
        const SolverResult r = solve(st, *q.op, x, q.b, sp, q.op_s.get());
        EXPECT_TRUE(r.converged);
        EXPECT_LT(r.true_residual, 1e-11);
        // Same Krylov space up to rounding: the iteration counts agree closely.
        EXPECT_NEAR(r.iterations, rw.iterations, 2 + rw.iterations / 20) << name(grid);
        EXPECT_LT(global_rel_diff(test::canonical_copy(x, cpu), local_spinor(x_w, g)), 1e-9)
            << to_string(t) << " grid " << name(grid);
      }
    }
  }
}

// Multi-shift CG (RHMC's solver) on the split lattice, in double and double-single, with its
// windowed shift updates (the default) and with window 1: every shift's solution equals the
// single-process one to the tolerance and every shift meets it.
TEST(SplitLattice, MultiShiftSolveEqualsTheSingleProcessSolve) {
  const Geometry whole_g(kLattice);
  GaugeField whole = GaugeField::canonical(whole_g);
  set_weak(whole, 13, 0.2, cpu);
  DiracParams p = params(DiracType::staggered);
  p.mass = 0.1;
  DiracParams ps = p;
  ps.precision = Precision::single;
  const auto ref = make_dirac(p, whole, cpu);
  const auto ref_s = make_dirac(ps, whole, cpu);
  SpinorField b_w(ref->vector_params());
  fill_gaussian(b_w, 14, 0, cpu);
  const std::vector<double> shifts{0.0, 0.05, 0.4, 3.0};
  for (const bool mixed : {false, true}) {
    for (const int window : {8, 1}) {
      SCOPED_TRACE(std::string(mixed ? "double-single" : "double") + " window " + std::to_string(window));
      SolverParams sp;
      sp.tol = 1e-11;
      sp.multishift_window = window;
      std::vector<SpinorField> x_w;
      const MultiShiftResult rw = multishift_cg(*ref, x_w, b_w, shifts, {}, sp, mixed ? ref_s.get() : nullptr);
      ASSERT_TRUE(rw.converged);
      ASSERT_GT(rw.shift_iterations[1], 3 * 8) << "the windows are filled several times";
      for (const comm::Grid4& grid : grids_for(comm::world().size())) {
        const SplitSolve q = split_solve(p, whole, b_w, grid);
        const Geometry& g = q.g;
        std::vector<SpinorField> x;
        const MultiShiftResult r = multishift_cg(*q.op, x, q.b, shifts, {}, sp, mixed ? q.op_s.get() : nullptr);
        EXPECT_TRUE(r.converged) << name(grid);
        for (std::size_t i = 0; i < shifts.size(); ++i) {
          EXPECT_LT(r.true_residual[i], 1e-11) << name(grid) << " shift " << i;
          EXPECT_NEAR(r.shift_iterations[i], rw.shift_iterations[i], 2 + rw.shift_iterations[i] / 20)
              << name(grid) << " shift " << i;
          EXPECT_LT(global_rel_diff(test::canonical_copy(x[i], cpu), local_spinor(x_w[i], g)), 1e-9)
              << name(grid) << " shift " << i;
        }
      }
    }
  }
}
