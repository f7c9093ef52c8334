// Shared solver machinery (solver_support.h): operators built from a DiracOperator, the iteration
// monitor and failure policy, argument checks, names, and the solve() dispatcher (solver.h).
#include "gluon/qcd/solvers/solver.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "gluon/qcd/blas.h"
#include "gluon/qcd/solvers/bicgstab.h"
#include "gluon/qcd/solvers/cg.h"
#include "gluon/runtime/env.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/log.h"
#include "gluon/runtime/scalar_slots.h"
#include "../cg_coefficients.h"
#include "solver_support.h"

namespace gluon::qcd {

namespace solvers::detail {

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3e", v);
  return buf;
}

namespace {
double vector_reals(const SpinorFieldParams& p) {
  return static_cast<double>(p.sites()) * p.reals_per_site();
}
}  // namespace

namespace {
using runtime::env_switched_off;

// GLUON_SHIFT_FOLD=0: a shifted CG step takes the default sequence (the operator, then blas::axpy,
// re_dot and cg_residual), as before the shift joined the operator's own step (A/B runs).
bool shift_fold_off() {
  static const bool off = env_switched_off("GLUON_SHIFT_FOLD");
  return off;
}

// GLUON_CG_LOOKAHEAD=0: SolverParams::cg_lookahead's default (-1) off on the GPU too (A/B runs).
bool lookahead_env_off() {
  static const bool off = env_switched_off("GLUON_CG_LOOKAHEAD");
  return off;
}
}  // namespace

bool multishift_together_env_off() {
  static const bool off = env_switched_off("GLUON_MULTISHIFT_TOGETHER");
  return off;
}

LinearOp make_op(const DiracOperator& op, Form form, double shift) {
  LinearOp L;
  L.params = op.vector_params();
  L.exec = op.exec();
  const DiracOperator* o = &op;
  const double fm = op.flops_M();
  if (form == Form::M || (form == Form::normal && op.hermitian_positive())) {
    L.apply = [o](SpinorField& out, const SpinorField& in) { o->M(out, in); };
    L.flops = fm;
  } else if (form == Form::normal || form == Form::mdagm) {
    L.apply = [o](SpinorField& out, const SpinorField& in) { o->MdagM(out, in); };
    L.flops = 2 * fm;
  } else {
    auto tmp = std::make_shared<SpinorField>(L.params);
    L.apply = [o, tmp](SpinorField& out, const SpinorField& in) {
      o->Mdag(*tmp, in);
      o->M(out, *tmp);
    };
    L.flops = 2 * fm;
  }
  const runtime::Exec ex = L.exec;
  if (shift != 0.0) {
    auto inner = L.apply;
    L.apply = [inner, shift, ex](SpinorField& out, const SpinorField& in) {
      inner(out, in);
      blas::axpy(shift, in, out, ex);
    };
    L.flops += blas::kFlopsAxpy * vector_reals(L.params);
  }
  if (shift == 0.0 && form == Form::M) {
    L.apply_r0v = [o](SpinorField& v, const SpinorField& p, const SpinorField& r0, blas::Slot rho, blas::Slot r0v,
                      blas::Slot alpha) { o->M_r0v(v, p, r0, rho, r0v, alpha); };
    L.apply_ts = [o](SpinorField& t, const SpinorField& s, const SpinorField& r0, const blas::TsSlots& slots) {
      o->M_ts(t, s, r0, slots);
    };
  }  // (BiCGstab iterates on M alone)
  // CG's step on A + shift, the shift inside the operator's step (multi-shift CG and its
  // refinements: RHMC's shifts are all positive, and while the shift was a separate axpy, re_dot
  // and cg_residual, none of their steps ran the fused kernels).
  if (form == Form::M || (form == Form::normal && op.hermitian_positive())) {
    const bool plain = shift != 0.0 && shift_fold_off();
    L.apply_residual = [o, shift, plain](SpinorField& Ap, const SpinorField& p, SpinorField& r, blas::Slot r2,
                                         blas::Slot pAp, blas::Slot r2_new) {
      if (plain) o->DiracOperator::M_cg_residual(Ap, p, r, r2, pAp, r2_new, shift);
      else o->M_cg_residual(Ap, p, r, r2, pAp, r2_new, shift);
    };
    L.begin_residual = [o, shift, plain](SpinorField& Ap, const SpinorField& p, blas::Slot pAp) {
      if (plain) o->DiracOperator::M_cg_begin(Ap, p, pAp, shift);
      else o->M_cg_begin(Ap, p, pAp, shift);
    };
    L.end_residual = [o, shift, plain](SpinorField& Ap, const SpinorField& p, SpinorField& r, blas::Slot r2,
                                       blas::Slot pAp, blas::Slot r2_new) {
      if (plain) o->DiracOperator::M_cg_end(Ap, p, r, r2, pAp, r2_new, shift);
      else o->M_cg_end(Ap, p, r, r2, pAp, r2_new, shift);
    };
  } else {
    // A = B^+ B (B = M, or M^+ for mmdag): p^+ A p = |B p|^2 (+ shift |p|^2), summed from the
    // intermediate B p, which streams one vector for the dot instead of p and A p (CGNR's alpha
    // as CGLS has it; also never negative in rounding). DiracOperator::normal_cg_residual.
    auto mid = std::make_shared<SpinorField>(L.params);
    const bool mdag_first = form == Form::mmdag;
    const bool plain = shift != 0.0 && shift_fold_off();
    L.apply_residual = [o, mid, mdag_first, shift, plain](SpinorField& Ap, const SpinorField& p, SpinorField& r,
                                                          blas::Slot r2, blas::Slot pAp, blas::Slot r2_new) {
      if (plain) o->DiracOperator::normal_cg_residual(Ap, *mid, p, r, r2, pAp, r2_new, mdag_first, shift);
      else o->normal_cg_residual(Ap, *mid, p, r, r2, pAp, r2_new, mdag_first, shift);
    };
  }
  return L;
}

Monitor::Monitor(std::string solver, const SolverParams& p, SolverResult& result)
    : solver_(std::move(solver)), params_(p), result_(result) {
  if (!(p.tol > 0.0) || !std::isfinite(p.tol))
    throw InputError(solver_ + ": tol: expected a positive relative residual, found " + sci(p.tol));
  if (p.max_iter < 0)
    throw InputError(solver_ + ": max_iter: expected >= 0, found " + std::to_string(p.max_iter));
  if (!(p.delta >= 0.0 && p.delta < 1.0))
    throw InputError(solver_ + ": delta (reliable-update threshold): expected in (0, 1), or 0 for the sloppy "
                     "precision's default, found " + sci(p.delta));
  if (p.max_stagnant_updates < 1)
    throw InputError(solver_ + ": max_stagnant_updates: expected >= 1, found " +
                     std::to_string(p.max_stagnant_updates));
  if (p.x_update_batch < 1 || p.x_update_batch > blas::kMaxAxpyTerms)
    throw InputError(solver_ + ": x_update_batch: expected 1 to " + std::to_string(blas::kMaxAxpyTerms) +
                     ", found " + std::to_string(p.x_update_batch));
  if (p.cg_lookahead < -1 || p.cg_lookahead > 1)
    throw InputError(solver_ + ": cg_lookahead: expected -1 (on a GPU), 0 or 1, found " +
                     std::to_string(p.cg_lookahead));
  if (p.multishift_together < -1 || p.multishift_together > 1)
    throw InputError(solver_ + ": multishift_together: expected -1 (on a GPU), 0 or 1, found " +
                     std::to_string(p.multishift_together));
  if (p.multishift_window < 1 || p.multishift_window > blas::kMaxShiftWindow)
    throw InputError(solver_ + ": multishift_window: expected 1 to " + std::to_string(blas::kMaxShiftWindow) +
                     ", found " + std::to_string(p.multishift_window));
  if (p.verbose && p.log_every <= 0)
    throw InputError(solver_ + ": log_every: expected > 0, found " + std::to_string(p.log_every));
  result_.solver = solver_;
  timer_.start();
}

void Monitor::finite(const char* what, double v) const {
  if (!std::isfinite(v)) throw Failure{std::string(std::isnan(v) ? "NaN" : "Inf") + " in " + what};
}

void Monitor::iteration(double r2, double b2) {
  ++result_.iterations;
  const double rel = std::sqrt(r2 / b2);
  result_.history.push_back(rel);
  if (params_.verbose && result_.iterations % params_.log_every == 0)
    runtime::log::info(solver_ + " (" + result_.precision + "): iteration " +
                       std::to_string(result_.iterations) + ", relative residual " + sci(rel) +
                       ", reliable updates " + std::to_string(result_.reliable_updates) + ", " +
                       sci(timer_.elapsed_s()) + " s");
}

void Monitor::true_residual_checked(double rel) {
  if (best_true_ < 0.0 || rel < 0.99 * best_true_) {
    best_true_ = rel;
    stagnant_ = 0;
    return;
  }
  if (++stagnant_ >= params_.max_stagnant_updates)
    throw Failure{"stagnation: the true relative residual (now " + sci(rel) + ", best " + sci(best_true_) +
                  ") has not decreased by 1% in " + std::to_string(stagnant_) +
                  " true-residual checks (a sloppy operator that does not match the precise one, or a "
                  "tolerance below what the precision can reach)"};
}

std::string Monitor::describe_failure(const std::string& reason) const {
  std::string m = solver_ + " (" + result_.precision + "): " + reason + " at iteration " +
                  std::to_string(result_.iterations) + " (tol " + sci(params_.tol) + ", max_iter " +
                  std::to_string(params_.max_iter) + ")";
  const auto& h = result_.history;
  const std::size_t k = std::min<std::size_t>(h.size(), 5);
  if (k > 0) {
    m += "; relative residual history, last " + std::to_string(k) + " of " + std::to_string(h.size()) + ":";
    for (std::size_t i = h.size() - k; i < h.size(); ++i) (m += ' ') += sci(h[i]);
  }
  return m;
}

void Monitor::finish(const std::string& failure_reason) {
  timer_.stop();
  result_.seconds = timer_.elapsed_s();
  result_.gflops = result_.seconds > 0 ? result_.flops / result_.seconds * 1e-9 : 0.0;
  if (!failure_reason.empty()) {
    result_.converged = false;
    result_.failure = describe_failure(failure_reason);
    if (params_.throw_on_failure) throw NumericalError(result_.failure);
    if (params_.verbose) runtime::log::warn(result_.failure);
    return;
  }
  result_.converged = true;
  if (params_.verbose)
    runtime::log::info(solver_ + " (" + result_.precision + "): converged in " +
                       std::to_string(result_.iterations) + " iterations, true relative residual " +
                       sci(result_.true_residual) + ", " + std::to_string(result_.reliable_updates) +
                       " reliable updates, " + sci(result_.seconds) + " s, " + sci(result_.gflops) +
                       " GFLOP/s");
}

namespace {
std::string mismatch(const SpinorFieldParams& want, const SpinorFieldParams& got) {
  std::string m;
  if (!(want.geometry == got.geometry))
    m += " geometry " + want.geometry.to_string() + " vs " + got.geometry.to_string() + ";";
  if (want.nspin != got.nspin) m += " nspin " + std::to_string(want.nspin) + " vs " + std::to_string(got.nspin) + ";";
  if (want.subset != got.subset) m += " site subset differs;";
  if (want.precision != got.precision)
    m += " precision " + to_string(want.precision) + " vs " + to_string(got.precision) + ";";
  if (want.space != got.space) m += " memory space " + runtime::to_string(want.space) + " vs " + runtime::to_string(got.space) + ";";
  return m;
}
}  // namespace

void check_vectors(const char* solver, const DiracOperator& op, const SpinorField& x, const SpinorField& b) {
  const SpinorFieldParams want = op.vector_params();
  const std::string mx = mismatch(want, x.params()), mb = mismatch(want, b.params());
  if (!mx.empty())
    throw InputError(std::string(solver) + ": solution x: expected the operator's vector parameters (" +
                     want.describe() + "), found " + x.params().describe() + " (" + mx + " )");
  if (!mb.empty())
    throw InputError(std::string(solver) + ": right-hand side b: expected the operator's vector parameters (" +
                     want.describe() + "), found " + b.params().describe() + " (" + mb + " )");
  if (&x == &b) throw InputError(std::string(solver) + ": x and b must be different fields");
}

void check_sloppy(const char* solver, const DiracOperator& op, const DiracOperator* sloppy) {
  if (sloppy == nullptr) return;
  const SpinorFieldParams a = op.vector_params(), s = sloppy->vector_params();
  if (!(a.geometry == s.geometry) || a.nspin != s.nspin || a.subset != s.subset)
    throw InputError(std::string(solver) + ": sloppy operator: expected vectors on the precise operator's "
                     "sites (" + a.describe() + "), found " + s.describe());
  if (op.params().type != sloppy->params().type)
    throw InputError(std::string(solver) + ": sloppy operator: expected type " + to_string(op.params().type) +
                     ", found " + to_string(sloppy->params().type));
}

std::string precision_name(const DiracOperator& op, const DiracOperator* sloppy) {
  std::string n = to_string(op.params().precision);
  if (sloppy != nullptr) (n += '-') += to_string(sloppy->params().precision);  // (not "-" + ...: -Wrestrict)
  return n;
}

ReliableSolution::ReliableSolution(const LinearOp& A, const LinearOp& As, bool mixed, SpinorField& x,
                                   const SpinorField& b, double tol, Monitor& m, SolverType solver,
                                   const StartResidual* start)
    : nr(vector_reals(A.params)),
      nrs(vector_reals(As.params)),
      flops_s(As.flops),
      delta(mixed ? reliable_delta(m.params(), As.params.precision, solver) : 0.0),
      A_(A),
      mixed_(mixed),
      x_(x),
      b_(b),
      m_(m) {
  const runtime::Exec& ex = A.exec;
  SolverResult& res = m.result();
  res.reliable_delta = delta;
  b2 = blas::norm2(b, ex);
  m.finite("|b|^2", b2);
  if (b2 == 0.0) {
    blas::zero(x, ex);
    res.true_residual = 0.0;
    done_ = true;
    return;
  }
  stop2 = tol * tol * b2;
  r_ = SpinorField(A.params);
  // A zero start (no initial guess: the solvers zeroed x; CGNE's inner y) needs no A x: r = b, as
  // in QUDA. Asked of x itself, not of use_initial_guess: CGNR's later passes (cg.cpp) start from
  // the x the earlier ones left. The norm reads one vector; the operator it spares at 32^4 in
  // double takes 0.7 ms.
  if (start != nullptr) {
    blas::copy(r_, *start->r, ex);
    r2 = start->r2;
    m.flops(2 * nr);
  } else if (blas::norm2(x, ex) == 0.0) {
    blas::copy(r_, b, ex);
    r2 = b2;
    m.flops(2 * nr);
  } else if (A.normal_residual) {
    r2 = A.normal_residual(x, r_, false).r2;
    m.flops(A.flops + 7 * nr);  // M, b - M x and its norm, M^+, |r|^2, and the norm of x
  } else {
    A.apply(r_, x);
    r2 = blas::xmy_norm2(b, r_, ex);  // r = b - A x
    m.flops(A.flops + 5 * nr);  // with the norm of x
  }
  m.finite("|b - A x|^2", r2);
  res.true_residual = std::sqrt(r2 / b2);
  if (r2 <= stop2) {
    done_ = true;
    return;
  }
  if (mixed) {
    rs_ = SpinorField(As.params);
    xs_ = SpinorField(As.params);
    blas::copy(rs_, r_, As.exec);
    blas::zero(xs_, As.exec);
  }
}

void ReliableSolution::flush() {
  if (mixed_) blas::accumulate(x_, xs_, A_.exec);
}

double ReliableSolution::true_r2() {
  flush();
  double t;
  if (A_.normal_residual) {
    // mixed: the sloppy residual restarts as M^+ (b_M - M x) with M^+ in the sloppy precision
    t = A_.normal_residual(x_, mixed_ ? rs_ : r_, mixed_).r2;
    // (A = M^+ M: half its flops are M's; the same for the sloppy operator)
    m_.flops(mixed_ ? A_.flops / 2 + 3 * nr + flops_s / 2 + 2 * nrs : A_.flops + 5 * nr);
  } else {
    A_.apply(r_, x_);
    // mixed: the sloppy residual restarts from the true one, copied in the same pass
    t = mixed_ ? blas::xmy_norm2_copy(b_, r_, rs_, A_.exec) : blas::xmy_norm2(b_, r_, A_.exec);
    m_.flops(A_.flops + 5 * nr);
  }
  m_.finite("true |r|^2", t);
  SolverResult& res = m_.result();
  ++res.reliable_updates;
  res.true_residual = std::sqrt(t / b2);
  if (t > stop2) m_.true_residual_checked(res.true_residual);
  return t;
}

// One iteration is queued whole before the host looks at it: p^dagger A p, alpha and beta stay in
// device slots (blas.h, "Device-resident scalars"), and the host waits once, for |r|^2, while the
// x and p update is already queued behind it (its run time hides the round trip to the host and
// back). The host's decisions (convergence, reliable update, breakdown) therefore see an
// iteration whose p update is already done.
//
// The solution update is batched (SolverParams::x_update_batch = n): each direction p gets its own
// vector and waits, with its alpha (cg_alpha of the slots' values, as the device computed it),
// until n of them are added to X in the step of every n-th iteration (blas::cg_step_batched) or
// before a true-residual check, a failure or the iteration limit (blas::axpy_sum). X is then
// read and written once per n iterations; the other steps only form p_next = R + beta p.
bool CgProgress::check_due(double r2, double stop2, bool mixed, double delta) {
  const double rn = std::sqrt(r2);
  rmax = std::max(rmax, rn);
  const bool claims = r2 <= stop2;
  if (r2 < 0.25 * best2) {  // progress: |r| halved
    best2 = r2;
    since_best = 0;
  }
  const bool stalled = ++since_best >= kStallIterations;
  return claims || stalled || (mixed && rn < delta * rmax);
}

bool cg_true_residual(ReliableSolution& sol, SpinorField& R, SpinorField& pn, CgProgress& g, double& r2, Monitor& m,
                      const runtime::Exec& exs) {
  // X holds this iteration's step; pn = R + beta p_old is the next direction. Keep q = beta p_old
  // (R is still the iterated residual here) for the re-projection below.
  blas::axpy(-1.0, R, pn, exs);
  m.flops(2 * sol.nrs);
  const double t2 = sol.true_r2();  // (mixed: R = r too)
  if (t2 <= sol.stop2) return true;
  const bool worse = t2 > g.last_true2;
  g.last_true2 = t2;
  r2 = g.r2_prev = t2;
  g.rmax = std::sqrt(t2);
  g.best2 = t2;
  g.since_best = 0;
  if (worse) {
    // The true residual grew since the last update: the sloppy recurrence has drifted too far
    // for its search direction to be useful. Restart it from the true residual.
    blas::copy(pn, R, exs);
    ++m.result().restarts;
    return false;
  }
  // Keep the search direction, re-projected against the new residual (QUDA's CG):
  // p = R + q - (<R, q> / |R|^2) R.
  const complexd rq = blas::cdot(R, pn, exs);
  blas::caxpy(complexd(1.0 - rq.re / r2, -rq.im / r2), R, pn, exs);
  m.flops(8 * sol.nrs);
  return false;
}

bool cg_core(const LinearOp& A, const LinearOp& As, bool mixed, SpinorField& x, const SpinorField& b,
             double tol, Monitor& m, const StartResidual* start) {
  const runtime::Exec& exs = As.exec;
  SolverResult& res = m.result();
  ReliableSolution sol(A, As, mixed, x, b, tol, m, SolverType::cg, start);
  if (sol.done()) return true;
  SpinorField& R = sol.R();
  SpinorField& X = sol.X();
  const double nrs = sol.nrs, b2 = sol.b2, stop2 = sol.stop2, delta = sol.delta;
  double r2 = sol.r2;
  const int batch = m.params().x_update_batch;
  // Directions: dirs[cur] is this iteration's p; with batch > 1, `pending` holds the earlier ones
  // whose alpha p is not yet in X (at most batch - 1 of them, so batch + 1 vectors suffice).
  std::vector<SpinorField> dirs;
  for (int i = 0; i < (batch > 1 ? batch + 1 : 1); ++i) dirs.emplace_back(As.params);
  int cur_dir = 0;
  std::vector<blas::AxpyTerm> pending;
  auto flush_x = [&] {
    blas::axpy_sum(pending, X, exs);
    pending.clear();
  };
  auto free_dir = [&] {
    for (int j = 0;; ++j) {
      const bool used = j == cur_dir || std::any_of(pending.begin(), pending.end(),
                                                    [&](const blas::AxpyTerm& t) { return t.v == &dirs[j]; });
      if (!used) return j;
    }
  };
  SpinorField Ap(As.params);
  blas::copy(dirs[cur_dir], R, exs);
  // Look-ahead (SolverParams::cg_lookahead): the step's first part for the next p is queued before
  // the wait. Its p^dagger A p then goes to the other pair of slots, so that it does not overwrite
  // the one the host is about to read.
  const int la = m.params().cg_lookahead;
  const bool lookahead = As.begin_residual && As.end_residual &&
                         (la == 1 || (la == -1 && !lookahead_env_off() && exs.on_device()));
  // Slots 0 and 1: |r|^2 of this iteration and of the next, alternating; 2 and 4: p^dagger A p,
  // alternating with look-ahead (3 and 5: their scratch, LinearOp::apply_residual).
  runtime::ScalarSlots slots(exs, 6);
  int cur = 0, cur_pap = 0;
  slots.set(cur, r2);
  auto pap_slot = [&](int j) { return blas::Slot{&slots, 2 + 2 * j}; };
  bool begun = false;  // the first part for dirs[cur_dir] is queued into pap_slot(cur_pap)

  CgProgress g(r2);
  // Whether the next iteration's check (on |r|^2 after it, predicted from the last two) is far
  // enough from a reliable update, the convergence check and the limits to look ahead past it: a
  // factor 1.5 in |r| from the thresholds (a wrong guess costs the first part once, or the
  // overlap of one iteration).
  auto look_past = [&] {
    if (!lookahead || res.iterations + 2 > m.params().max_iter || g.since_best + 2 >= kStallIterations) return false;
    const double next2 = r2 * std::min(1.0, r2 / g.r2_prev);
    if (next2 <= 2.25 * stop2) return false;
    return !(mixed && next2 < 2.25 * delta * delta * g.rmax * g.rmax);
  };
  try {
    while (true) {
      if (m.out_of_iterations()) {
        res.lookaheads_void += begun ? 1 : 0;
        flush_x();
        return sol.true_r2() <= stop2;
      }
      const blas::Slot r2_slot{&slots, cur}, r2_new_slot{&slots, 1 - cur}, pAp_slot = pap_slot(cur_pap);
      SpinorField& p = dirs[cur_dir];
      if (lookahead) {
        if (!begun) As.begin_residual(Ap, p, pAp_slot);
        As.end_residual(Ap, p, R, r2_slot, pAp_slot, r2_new_slot);  // R -= alpha A p
      } else {
        As.apply_residual(Ap, p, R, r2_slot, pAp_slot, r2_new_slot);
      }
      begun = false;
      slots.record();
      const bool add_x = static_cast<int>(pending.size()) + 1 >= batch;
      // p_next = R + beta p; every batch-th iteration (every one for batch 1, where p_next is p
      // itself) also X += alpha p + the pending terms.
      const int next = batch == 1 ? cur_dir : free_dir();
      blas::cg_step_batched(r2_slot, pAp_slot, r2_new_slot, p, dirs[next], R, add_x ? &X : nullptr,
                            add_x ? pending : std::vector<blas::AxpyTerm>{}, exs);
      if (look_past()) {
        As.begin_residual(Ap, dirs[next], pap_slot(1 - cur_pap));
        begun = true;
        ++res.lookaheads;
      }
      slots.wait();
      const double pAp = slots.host(2 + 2 * cur_pap);
      // Before any check below can throw (and flush pending).
      if (add_x) pending.clear();
      else pending.push_back({&p, blas::detail::cg_alpha(r2, pAp)});
      cur_dir = next;
      cur_pap = 1 - cur_pap;
      m.finite("p^dagger A p", pAp);
      if (pAp <= 0.0)
        throw Failure{"breakdown: p^dagger A p = " + sci(pAp) +
                      " <= 0 (the operator is not Hermitian positive definite)"};
      g.r2_prev = r2;
      r2 = slots.host(1 - cur);
      cur = 1 - cur;
      m.finite("|r|^2", r2);
      m.iteration(r2, b2);
      m.flops(As.flops + 10 * nrs);
      if (!g.check_due(r2, stop2, mixed, delta)) continue;
      // Reliable update (or the convergence check). A first part queued ahead is void: p changes,
      // and the outer operator may be this one.
      res.lookaheads_void += begun ? 1 : 0;
      begun = false;
      flush_x();
      if (cg_true_residual(sol, R, dirs[cur_dir], g, r2, m, exs)) return true;
      slots.set(cur, r2);
    }
  } catch (const Failure&) {
    try {
      flush_x();
      sol.flush();
    } catch (...) {
    }
    throw;
  }
}

}  // namespace solvers::detail

double reliable_delta(const SolverParams& params, Precision sloppy, SolverType solver) {
  if (params.delta > 0.0) return params.delta;
  // Measured (bench/results/2026-11-27-half-delta/, 2026-11-28-single-delta/): single's CG family
  // (multi-shift CG included) keeps its iterations with updates as rare as 1e-4, where BiCGstab
  // already needed up to 1.6% more; half needs frequent ones, the CG family more than BiCGstab.
  if (sloppy != Precision::half) return solver == SolverType::bicgstab ? 0.001 : 0.0001;
  return solver == SolverType::bicgstab ? 0.02 : 0.1;
}

std::string to_string(SolverType t) {
  switch (t) {
    case SolverType::cg: return "cg";
    case SolverType::cgnr: return "cgnr";
    case SolverType::cgne: return "cgne";
    case SolverType::bicgstab: return "bicgstab";
  }
  return "?";
}

SolverType parse_solver_type(const std::string& s) {
  if (s == "cg") return SolverType::cg;
  if (s == "cgnr") return SolverType::cgnr;
  if (s == "cgne") return SolverType::cgne;
  if (s == "bicgstab" || s == "bicg-stab") return SolverType::bicgstab;
  throw InputError("solver: expected cg, cgnr, cgne or bicgstab, found '" + s + "'");
}

SolverResult solve(SolverType type, const DiracOperator& op, SpinorField& x, const SpinorField& b,
                   const SolverParams& params, const DiracOperator* sloppy) {
  switch (type) {
    case SolverType::cg: return cg(op, x, b, params, sloppy);
    case SolverType::cgnr: return cgnr(op, x, b, params, sloppy);
    case SolverType::cgne: return cgne(op, x, b, params, sloppy);
    case SolverType::bicgstab: return bicgstab(op, x, b, params, sloppy);
  }
  throw InputError("solve: unknown solver type");
}

}  // namespace gluon::qcd
