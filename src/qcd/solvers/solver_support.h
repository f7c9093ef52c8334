#pragma once
// Private helpers of the Krylov solvers: the linear operators they iterate on (built from a
// DiracOperator), the iteration monitor (history, NaN/Inf and breakdown checks, verbose lines,
// flop count) and the failure path of solver.h's policy, and the CG core shared by cg, cgnr,
// cgne and the multi-shift refinement.
#include <cmath>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "gluon/qcd/blas.h"
#include "gluon/qcd/dirac/dirac.h"
#include "gluon/qcd/solvers/solver.h"
#include "gluon/qcd/spinor_field.h"
#include "gluon/runtime/exec.h"
#include "gluon/runtime/timer.h"

namespace gluon::qcd::solvers::detail {

// CGNR's true residual, LinearOp::normal_residual: |out|^2 with out = M^+ (b_M - M x), and the M
// system's |b_M - M x|^2.
struct NormalResidual {
  double r2 = 0.0, m_r2 = 0.0;
};

// out = A in on fields of `params`, run on `exec`; `flops` per application. apply_residual is
// CG's operator step (DiracOperator::M_cg_residual's contract: p^dagger A p into slot pAp and the
// scratch slot after it, then r -= alpha A p, |r|^2 into r2_new; Ap scratch): M_cg_residual
// where A is M itself; for A = B^+ B, p^dagger A p as |B p|^2 from the intermediate B p, then
// blas::cg_residual. apply_r0v and apply_ts queue BiCGstab's reductions (DiracOperator::M_r0v,
// M_ts; A = M only).
struct LinearOp {
  std::function<void(SpinorField&, const SpinorField&)> apply;
  std::function<void(SpinorField& Ap, const SpinorField& p, SpinorField& r, blas::Slot r2, blas::Slot pAp,
                     blas::Slot r2_new)>
      apply_residual;
  std::function<void(SpinorField& v, const SpinorField& p, const SpinorField& r0, blas::Slot rho, blas::Slot r0v,
                     blas::Slot alpha)>
      apply_r0v;
  std::function<void(SpinorField& t, const SpinorField& s, const SpinorField& r0, const blas::TsSlots& slots)> apply_ts;
  // apply_residual in its two parts (DiracOperator::M_cg_begin, M_cg_end) where A = M + shift;
  // unset for A = B^+ B, whose step runs whole.
  std::function<void(SpinorField& Ap, const SpinorField& p, blas::Slot pAp)> begin_residual;
  std::function<void(SpinorField& Ap, const SpinorField& p, SpinorField& r, blas::Slot r2, blas::Slot pAp,
                     blas::Slot r2_new)>
      end_residual;
  // Set by cgnr only (A = M^+ M, b = M^+ b_M): the true residual as out = M^+ (b_M - M x), with M x
  // and the difference in the outer precision and M^+ in the sloppy one when `sloppy` (out is then
  // a mixed solve's sloppy residual), else in the outer one. ReliableSolution uses it in place of
  // b - A x and counts its flops.
  std::function<NormalResidual(const SpinorField& x, SpinorField& out, bool sloppy)> normal_residual;
  SpinorFieldParams params;
  runtime::Exec exec;
  double flops = 0.0;
};

// M; M if hermitian_positive() else M^+ M; M^+ M always; M M^+
enum class Form { M, normal, mdagm, mmdag };
LinearOp make_op(const DiracOperator& op, Form form, double shift = 0.0);

// Iterations in which the iterated residual has not halved, after which a true-residual check is
// forced (so that stagnation is seen by Monitor::true_residual_checked).
inline constexpr int kStallIterations = 200;

// Raised inside a solver loop; caught by finish(), which applies the failure policy.
struct Failure {
  std::string reason;
};

class Monitor {
 public:
  Monitor(std::string solver, const SolverParams& p, SolverResult& result);
  // NaN/Inf check of a scalar (throws Failure naming it).
  void finite(const char* what, double v) const;
  // One iteration done with iterated |r|^2 = r2 (relative to |b|^2 = b2).
  void iteration(double r2, double b2);
  void flops(double f) { result_.flops += f; }
  // "cg: ..., residual history (last 5): ..."
  std::string describe_failure(const std::string& reason) const;
  // Sets seconds/gflops; on failure applies the policy (throw NumericalError or fill `failure`).
  void finish(const std::string& failure_reason);
  SolverResult& result() { return result_; }
  const SolverParams& params() const { return params_; }
  bool out_of_iterations() const { return result_.iterations >= params_.max_iter; }
  // After each true-residual check: throws Failure when max_stagnant_updates checks in a row
  // did not improve on the best true residual by 1%.
  void true_residual_checked(double rel);

 private:
  std::string solver_;
  SolverParams params_;
  SolverResult& result_;
  runtime::Timer timer_;
  double best_true_ = -1.0;
  int stagnant_ = 0;
};

// "1.234e-05": how residuals are printed in messages.
std::string sci(double v);

// The outer-precision side of a Krylov solve, shared by the CG and BiCGstab cores: |b|^2, the
// stopping threshold tol^2 |b|^2, the true residual r = b - A x in the outer precision and, for
// mixed solves, the sloppy residual and solution correction that reliable updates fold into x.
// The constructor computes the initial residual, or takes it from `start` (b - A x of the given
// x in the outer precision and its |.|^2, which the caller has just formed: multi-shift CG's check
// of a shift before refining it); done() is true when nothing is left to do (b = 0, x set to 0;
// or the initial x already meets tol). `solver` picks the default delta (reliable_delta): cg for
// the CG core (CG, CGNR, CGNE), or bicgstab.
struct StartResidual {
  const SpinorField* r = nullptr;
  double r2 = 0.0;
};
class ReliableSolution {
 public:
  ReliableSolution(const LinearOp& A, const LinearOp& As, bool mixed, SpinorField& x, const SpinorField& b,
                   double tol, Monitor& m, SolverType solver, const StartResidual* start = nullptr);
  bool done() const { return done_; }
  SpinorField& R() { return mixed_ ? rs_ : r_; }   // residual the iteration updates
  SpinorField& X() { return mixed_ ? xs_ : x_; }   // solution (mixed: correction since the last update)
  // x += the sloppy correction (mixed only), which is then zeroed.
  void flush();
  // flush(), then r = b - A x in the outer precision (mixed: and R = r in the sloppy one; with
  // A.normal_residual, R = M^+ (b_M - M x) from M^+ in the sloppy precision and r is not formed);
  // returns |r|^2, counts a reliable update, sets the result's true residual and feeds the
  // stagnation check.
  double true_r2();

  const double nr, nrs;  // reals per vector, outer and sloppy (flop counts)
  const double flops_s;  // the sloppy operator's flops per application (A.normal_residual's M^+)
  const double delta;    // reliable-update threshold (reliable_delta; 0 when not mixed)
  double b2 = 0, stop2 = 0, r2 = 0;

 private:
  const LinearOp& A_;
  bool mixed_;
  SpinorField& x_;
  const SpinorField& b_;
  Monitor& m_;
  SpinorField r_, rs_, xs_;
  bool done_ = false;
};

// Checks that x and b have the operator's vector parameters (InputError naming the solver).
void check_vectors(const char* solver, const DiracOperator& op, const SpinorField& x, const SpinorField& b);
void check_sloppy(const char* solver, const DiracOperator& op, const DiracOperator* sloppy);
std::string precision_name(const DiracOperator& op, const DiracOperator* sloppy);

// The host's bookkeeping of a CG solve between true-residual checks (cg_core,
// cg_shifted_together): the largest |r| since the last check (rmax, for the reliable-update
// threshold delta), the last true |r|^2, the best iterated |r|^2 and the iterations since it
// halved (stagnation: kStallIterations), the previous iteration's |r|^2.
struct CgProgress {
  explicit CgProgress(double r2) : rmax(std::sqrt(r2)), last_true2(r2), best2(r2), r2_prev(r2) {}
  // After an iteration with iterated |r|^2 = r2: whether the true residual is due (r2 claims
  // convergence, the solve stalled, or a mixed solve's |r| fell by delta below rmax).
  bool check_due(double r2, double stop2, bool mixed, double delta);
  double rmax, last_true2, best2, r2_prev;
  int since_best = 0;
};

// The true-residual check of a CG solve (a reliable update, or the convergence check), after an
// iteration whose X update is applied and whose next direction pn = R + beta p_old is formed:
// true when the true residual met sol.stop2; otherwise R (and r2) restart from the true residual
// and pn is re-projected against it (QUDA's CG), or restarts as R when the true residual grew
// since the last check. The caller stores r2 where its next iteration reads it.
bool cg_true_residual(ReliableSolution& sol, SpinorField& R, SpinorField& pn, CgProgress& g, double& r2, Monitor& m,
                      const runtime::Exec& exs);

// CG on A x = b (A Hermitian positive definite), mixed precision with reliable updates when
// `mixed` (As on its own vectors). Adds its iterations/history/flops to m.result(); sets
// m.result().true_residual. Returns true when the true residual met params.tol. Throws Failure.
bool cg_core(const LinearOp& A, const LinearOp& As, bool mixed, SpinorField& x, const SpinorField& b,
             double tol, Monitor& m, const StartResidual* start = nullptr);

// cg_shifted (cg.h) from x with its residual b - (A + shift) x already formed (multi-shift CG's
// refinements): the same solve, less the operator application that would form it again.
SolverResult cg_shifted_from(const DiracOperator& op, double shift, SpinorField& x, const SpinorField& b,
                             const StartResidual& start, const SolverParams& params, const DiracOperator* sloppy);

// Several cg_shifted_from solves at once, (A + shifts[j]) x[j] = b from x[j] with its residual
// starts[j] (outer precision, as formed by the caller), to tolerance tols[j]: multi-shift CG's
// refinements (SolverParams::multishift_together). Each is CG as cg_core runs it with x updated
// every iteration and no look-ahead (mixed precision with reliable updates, the same checks and
// the same failures), its own SolverResult; their operator steps go to one
// DiracOperator::normal_shifted_multi call an iteration, with p^dagger A p (then the residual and
// the x and p updates by BLAS kernels; a solve left alone takes its operator's fused step,
// LinearOp::apply_residual), and the host waits once an iteration for all of them.
// params.max_iter bounds their iterations together, as it bounds refinements one by one (each
// takes what the earlier ones left): when the next iteration would exceed it, the solves left
// over end with their true residual checked. params.use_initial_guess must be set.
std::vector<SolverResult> cg_shifted_together(const DiracOperator& op, std::span<const double> shifts,
                                              std::span<SpinorField* const> x, const SpinorField& b,
                                              std::span<const StartResidual> starts, std::span<const double> tols,
                                              const SolverParams& params, const DiracOperator* sloppy);

// GLUON_MULTISHIFT_TOGETHER=0: SolverParams::multishift_together's default (-1) off on the GPU
// too (A/B runs).
bool multishift_together_env_off();

}  // namespace gluon::qcd::solvers::detail
