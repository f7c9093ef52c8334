#include "gluon/qcd/propagator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "gluon/qcd/blas.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/progress.h"

namespace gluon::qcd {

PropagatorResult compute_propagator(const DiracOperator& op, const DiracOperator* sloppy,
                                    const SourceSpec& source, SolverType solver,
                                    const SolverParams& params, bool show_progress) {
  // solve(cg) on an operator that is not hermitian positive runs CG on M^+ M with the source as
  // the right-hand side: x = (M^+ M)^-1 b, a converged solve of the wrong system. The propagator
  // needs M^-1 b, which CGNR (M^+ M x = M^+ b), CGNE and BiCGstab give.
  if (solver == SolverType::cg && !op.hermitian_positive())
    throw InputError("propagator: solver cg solves M^+ M x = b, which is not the propagator M^-1 b of the " +
                     to_string(op.params().type) + " operator" +
                     (op.params().even_odd ? std::string() : std::string(" without even-odd preconditioning")) +
                     "; use cgnr (M^+ M x = M^+ b), cgne or bicgstab");
  const auto t0 = std::chrono::steady_clock::now();
  const SpinorFieldParams full = op.full_params();
  const int ncols = source_columns(full.nspin);
  SpinorFieldParams canonical;
  canonical.geometry = full.geometry;
  canonical.nspin = full.nspin;

  runtime::Progress::Options popt;
  popt.silent = !show_progress;
  popt.interval_s = 2.0;
  runtime::Progress progress("propagator", ncols, "solves", popt);

  PropagatorResult out;
  for (int col = 0; col < ncols; ++col) {
    const SpinorField b_host = make_source(source, full.geometry, full.nspin, col);
    const SpinorField b = converted(b_host, full, op.exec());
    SpinorField b_pc(op.vector_params()), x_pc(op.vector_params()), x(full);
    op.prepare(b_pc, b);
    SolverResult r;
    try {
      r = solve(solver, op, x_pc, b_pc, params, sloppy);
    } catch (const NumericalError& e) {
      const std::string which = full.nspin == 4
                                    ? "spin " + std::to_string(col / 3) + ", colour " + std::to_string(col % 3)
                                    : "colour " + std::to_string(col);
      throw NumericalError("propagator column " + std::to_string(col) + " of " + std::to_string(ncols) + " (source " +
                           which + "): " + e.what());
    }
    op.reconstruct(x, x_pc, b);
    // The full system's true residual, from the unpreconditioned operator: a check of prepare,
    // solve and reconstruct together (the solver's is that of the even-odd system).
    SpinorField res(full);
    op.M_full(res, x);
    const double b2 = blas::norm2(b, op.exec());
    const double full_residual = b2 > 0 ? std::sqrt(blas::xmy_norm2(b, res, op.exec()) / b2) : 0.0;
    out.full_residuals.push_back(full_residual);
    out.max_full_residual = std::max(out.max_full_residual, full_residual);
    out.columns.push_back(converted(x, canonical, op.exec()));
    out.iterations += r.iterations;
    out.solver_seconds += r.seconds;
    out.solver_flops += r.flops;
    out.max_true_residual = std::max(out.max_true_residual, r.true_residual);
    out.solves.push_back(std::move(r));
    progress.update(col + 1);
  }
  progress.finish();
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace gluon::qcd
