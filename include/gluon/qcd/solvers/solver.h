#pragma once
// Common parameters and results of the Krylov solvers (cg.h, bicgstab.h, multishift_cg.h), and
// one entry point that picks a solver by name.
//
//   SolverParams   tol (relative residual |b - A x| / |b| to reach), max_iter, delta (reliable-
//                  update threshold of mixed-precision solves; 0 picks it by the sloppy
//                  precision, reliable_delta()), verbose/log_every (a log line
//                  every log_every iterations), use_initial_guess, throw_on_failure,
//                  x_update_batch (CG's batched solution update), multishift_window (multi-shift
//                  CG's windowed shift updates).
//   SolverResult   converged, iterations, true_residual (relative, recomputed at the end in the
//                  outer precision with the precise operator), seconds, flops and gflops,
//                  history (the iterated relative residual after every iteration, so
//                  history.size() == iterations), reliable_updates, restarts, the solver and
//                  precision names, and failure (why it did not converge; empty otherwise).
//   SolverType     cg | cgnr | cgne | bicgstab; to_string / parse_solver_type
//   solve(...)     runs the named solver (cg: on M when the operator is hermitian_positive(),
//                  else on M^dagger M with right-hand side b as given).
//
// Mixed precision: every solver takes an optional `sloppy` operator: the same DiracParams in a
// lower precision and/or compression, acting on its own vector_params(). When it is given the
// Krylov iteration runs with it on sloppy vectors, the solution is accumulated in the precise
// (outer) precision, and whenever the iterated residual has dropped by a factor delta below the
// largest one since the last update (or claims convergence) the true residual b - A x is
// recomputed with the precise operator, the correction accumulated, and the iteration restarted
// from the true residual (reliable updates, QUDA paper section VII). The default delta depends on
// the sloppy precision and the solver (reliable_delta): for single and double 0.0001 in the CG
// family (CG, CGNR, CGNE, multi-shift) and 0.001 in BiCGstab; for half 0.1 in the CG family and
// 0.02 in BiCGstab. The iterated residual
// drifts from the true one by about the sloppy unit roundoff times the largest residual since the
// last update, so at the update it is off by about roundoff / delta relative to |r|: single
// (roundoff 6e-8) at 0.0001 stays about as close as half (about 3e-5, 16-bit fixed point) at
// 0.05. Measured on weak-field and thermalised configurations up to kappa 0.15
// (bench/results/2026-11-25-reliable-delta/, 2026-11-27-half-delta/, 2026-11-28-single-delta/):
//   - single: 0.001 needed the same iterations as 0.01 (and as 0.1, within 1.5%), with fewer
//     updates (double-single solves 0.7-2.6% faster on an H200 than at 0.01); 0.0001 the same
//     iterations again in CGNR and +0.0-0.3% in staggered CG (0.00001: up to +7%), one update
//     fewer a solve (CGNR 1.4-1.8% faster on an H200), but BiCGstab -0.9% to +1.6%, so
//     BiCGstab keeps 0.001;
//   - half, CG family: staggered CG on the thermalised 8^4 sample needed 2% more iterations at
//     0.05, 4.5% more at 0.03 and 10% more at 0.01, so it keeps 0.1;
//   - half, BiCGstab (Wilson, clover): 0.02 needed -1.1% to +1.8% of 0.1's iterations with 30-40%
//     fewer updates, each of which costs about an iteration (double-half BiCGstab 5-7% faster).
// Without a sloppy operator the solver runs in the operator's precision and recomputes the true
// residual only when the iterated one claims convergence. Either way "converged" means the TRUE
// residual met tol. An iterated residual that has not halved in 200 iterations also forces a
// true-residual check. When a true residual is larger than the previous one, the search direction
// restarts from it.
//
// Failure policy (documented once for all solvers): breakdown (p^dagger A p <= 0 in CG;
// <r0, r> = 0, <r0, v> = 0, |t| = 0 or omega = 0 in BiCGstab), a NaN/Inf in any scalar,
// stagnation of the true residual (max_stagnant_updates) or no convergence within max_iter end
// the solve at once; nothing loops on. With throw_on_failure
// (the default) a gluon::NumericalError is thrown whose message names the solver, the reason, the
// iteration, the requested tolerance and the tail of the residual history. With
// throw_on_failure = false the solver returns converged = false with `failure` holding the same
// message and x holding the last iterate.
//
// x and b are fields of op.vector_params() (same precision, nspin, subset, geometry; InputError
// otherwise).
#include <string>
#include <vector>

#include "gluon/qcd/dirac/dirac.h"
#include "gluon/qcd/spinor_field.h"

namespace gluon::qcd {

struct SolverParams {
  double tol = 1e-10;              // relative true residual |b - A x| / |b| to reach
  int max_iter = 10000;            // Krylov iterations (all shifts/restarts together)
  double delta = 0.0;              // reliable update when |r| < delta * max |r| since the last one;
                                   // 0: reliable_delta(sloppy precision, solver)
  bool verbose = false;            // log lines (runtime::log::info) while iterating
  int log_every = 100;             // iterations between verbose lines
  bool use_initial_guess = false;  // false: x is set to 0 first (CGNE always starts from 0)
  bool throw_on_failure = true;    // see "Failure policy" above
  // Stagnation: stop when this many true-residual checks in a row (reliable updates, convergence
  // checks, forced checks) have not lowered the best true residual so far by 1% (a sloppy
  // operator that does not match the precise one, or a tol below what the precision can reach).
  int max_stagnant_updates = 10;
  // CG (cg, cgnr, cgne): the solution update x += alpha p of this many iterations is applied in
  // one pass (QUDA's solution-accumulator pipeline). The directions wait in their own vectors,
  // so x is read and written once a batch instead of once an iteration, and each iteration's
  // step streams 3 vectors instead of 5, for x_update_batch extra vectors of memory. 1 updates
  // x every iteration, with no extra vector; at most blas::kMaxAxpyTerms.
  int x_update_batch = 4;
  // Multi-shift CG: the updates x_i += alpha_i p_i (every shift) and p_i = zeta_i r + beta_i p_i
  // (all but the base shift, whose p the operator needs every iteration) are applied this many
  // iterations at a time, in one pass that reads each x_i and p_i once and the window's
  // residuals, kept in their own vectors: multishift_window + 1 extra vectors in the sloppy
  // precision. 1 updates every shift every iteration; at most blas::kMaxShiftWindow.
  int multishift_window = 8;
  // CG on an operator whose step splits in two (DiracOperator::M_cg_begin / M_cg_end: even-odd
  // staggered, and every A = M + shift, as multi-shift CG's refinements run; not CGNR/CGNE): the
  // next iteration's first part is queued before the host waits for this iteration's scalars, so
  // that the GPU runs it during the host's round trip, which the p update behind the wait does
  // not cover in single and half precision. Not for an iteration whose check is likely to end in
  // a reliable update or the convergence check (p then changes, and the part would be redone).
  // -1: on when the sloppy operator runs on a GPU (GLUON_CG_LOOKAHEAD=0 turns that off, for A/B
  // runs); 0: never; 1: always (the CPU tests).
  int cg_lookahead = -1;
  // Multi-shift CG: the shifts whose true residual after the sloppy loop is above their tolerance
  // are refined together (solvers::detail::cg_shifted_together): one CG each, their operator
  // steps applied in one DiracOperator::normal_shifted_multi call an iteration (even-odd
  // staggered reads each link once for up to 4 of them) and one host wait an iteration for all.
  // Each refinement then runs without the look-ahead and with x updated every iteration, and
  // holds its own vectors meanwhile (two in the outer precision and four in the sloppy one a
  // refined shift, where one by one they are allocated for one shift at a time).
  // -1: together when the sloppy operator runs on a GPU and applies several vectors in one pass
  // (DiracOperator::shifted_multi_width() > 1; GLUON_MULTISHIFT_TOGETHER=0 turns that off, for
  // A/B runs); 0: one by one; 1: together (the CPU tests).
  int multishift_together = -1;
};

struct SolverResult {
  bool converged = false;
  int iterations = 0;
  double true_residual = 0.0;  // relative, outer precision, precise operator
  double seconds = 0.0;
  double flops = 0.0;  // operator applications (flops_M) plus BLAS-1 work
  double gflops = 0.0;
  std::vector<double> history;  // iterated relative residual per iteration
  int reliable_updates = 0;
  double reliable_delta = 0.0;  // the delta the solve used (0 without a sloppy operator)
  int restarts = 0;  // CG/BiCGstab restarts of the search direction, CGNR extra outer passes
  // CG look-ahead (SolverParams::cg_lookahead): iterations whose operator step's first part was
  // queued before the host's wait, and those of them voided (a reliable update or the end followed).
  int lookaheads = 0, lookaheads_void = 0;
  std::string solver;
  std::string precision;  // "double", "double-single", "double-half", ...
  std::string failure;    // empty when converged
};

enum class SolverType { cg, cgnr, cgne, bicgstab };

// The reliable-update threshold a mixed solve uses: params.delta when set (> 0), else the default
// for the sloppy precision and solver: for single and double 0.001 in BiCGstab and 0.0001 in the
// CG family; for half 0.02 in BiCGstab and 0.1 in the CG family (cg for CG, CGNR, CGNE and
// multi-shift CG alike).
double reliable_delta(const SolverParams& params, Precision sloppy, SolverType solver);
std::string to_string(SolverType t);
// "cg", "cgnr", "cgne", "bicgstab"; InputError naming the value otherwise.
SolverType parse_solver_type(const std::string& s);

SolverResult solve(SolverType type, const DiracOperator& op, SpinorField& x, const SpinorField& b,
                   const SolverParams& params, const DiracOperator* sloppy = nullptr);

}  // namespace gluon::qcd
