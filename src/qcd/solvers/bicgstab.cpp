// BiCGstab on M, mixed precision with reliable updates (bicgstab.h, policy in solver.h).
#include "gluon/qcd/solvers/bicgstab.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "gluon/qcd/blas.h"
#include "gluon/runtime/scalar_slots.h"
#include "solver_support.h"

namespace gluon::qcd {

namespace {

using solvers::detail::Failure;
using solvers::detail::Form;
using solvers::detail::LinearOp;
using solvers::detail::Monitor;

using solvers::detail::ReliableSolution;
using solvers::detail::sci;

double cabs(complexd z) { return std::hypot(z.re, z.im); }

void finite_c(const Monitor& m, const char* what, complexd z) {
  m.finite(what, z.re);
  m.finite(what, z.im);
}

// Slots of the device-resident scalars (blas.h). Those of an iteration's start come in pairs by
// parity (k % 2): the iteration that starts reads [cur], and the next one's M p, queued before the
// host has read this one's, writes [nxt].
struct BicgSlotMap {
  static constexpr int kRho[2] = {0, 3};    // {|r|^2, Re rho, Im rho} (bicgstab_step, the ts finisher)
  static constexpr int kR0v[2] = {6, 9};    // {Re, Im, |r0|^2} of <r0, v>
  static constexpr int kAlpha[2] = {12, 14};  // {Re, Im}
  static constexpr int kS2 = 16;            // |s|^2
  static constexpr int kTs = 17;            // the kTsSums = 7 sums of bicgstab_ts
  static constexpr int kOmega = 24, kBeta = 26, kCount = 28;  // {Re, Im}
};

// One iteration is queued whole: alpha, omega, beta and the next rho are computed on the device by
// the reductions that produce them (blas.h), and the host waits once, at the end, for every scalar of
// the iteration. A solve that converges at the half step (|s| <= tol) therefore also runs t = A s and
// the omega step, which only lowers |r|.
//
// Per iteration: v = A p with <r0, v> (alpha), s = r - alpha v, t = A s with <t, s>, |t|^2, <r0, s>
// and <r0, t> (omega and the next rho), and one pass for x, r and p: 12 vector passes besides the
// operator's own traffic, where computing <r0, r> from r needs 14 (p's update must then wait for it).
// While the host reads the iteration's scalars, the next iteration's A p already runs, unless this
// iteration is likely to end in a reliable update or the end of the solve (a residual trend that
// reaches the threshold), where p will change.
bool bicgstab_core(const LinearOp& A, const LinearOp& As, bool mixed, SpinorField& x, const SpinorField& b,
                   Monitor& m) {
  using Map = BicgSlotMap;
  const runtime::Exec& exs = As.exec;
  SolverResult& res = m.result();
  const double tol = m.params().tol;
  ReliableSolution sol(A, As, mixed, x, b, tol, m, SolverType::bicgstab);
  if (sol.done()) return true;
  SpinorField& R = sol.R();
  SpinorField& X = sol.X();
  const double nrs = sol.nrs, b2 = sol.b2, stop2 = sol.stop2;
  double r2 = sol.r2;
  SpinorField r0(As.params), p(As.params), v(As.params), t(As.params);
  blas::copy(r0, R, exs);

  runtime::ScalarSlots slots(exs, Map::kCount);
  auto slot = [&](int i) { return blas::Slot{&slots, i}; };
  int cur = 0;  // the scalars of the iteration that starts are in the [cur] slots
  auto set_rho = [&](complexd z) {
    slots.set(Map::kRho[cur] + 1, z.re);
    slots.set(Map::kRho[cur] + 2, z.im);
  };
  complexd rho = blas::cdot(r0, R, exs);
  set_rho(rho);
  double r0n2 = blas::norm2(r0, exs);
  bool fresh = true;    // p = r at the next iteration (start or restart)
  bool v_ready = false;  // v = A p and alpha of the iteration that starts are queued
  double rmax = std::sqrt(r2), last_true2 = r2, best2 = r2, prev2 = r2;
  int since_best = 0;
  auto queue_r0v = [&](int k) {
    As.apply_r0v(v, p, r0, slot(Map::kRho[k] + 1), slot(Map::kR0v[k]), slot(Map::kAlpha[k]));
  };
  try {
    while (true) {
      if (m.out_of_iterations()) return sol.true_r2() <= stop2;
      finite_c(m, "rho = <r0, r>", rho);
      if (cabs(rho) <= 1e-14 * std::sqrt(r0n2 * r2)) {
        // The residual became orthogonal to the shadow vector (it happens exactly for point
        // sources, whose r0 lives on one site): restart with r0 = r; a breakdown only if that
        // was just done.
        if (fresh) throw Failure{"breakdown: rho = <r0, r> = 0 with r0 = r"};
        blas::copy(r0, R, exs);
        r0n2 = blas::norm2(r0, exs);
        rho = complexd(r0n2, 0.0);
        set_rho(rho);
        fresh = true;
        v_ready = false;
        ++res.restarts;
      }
      const int nxt = 1 - cur;
      if (fresh) {
        blas::copy(p, R, exs);
        fresh = false;
      }
      if (!v_ready) queue_r0v(cur);
      v_ready = false;
      blas::bicgstab_s(slot(Map::kAlpha[cur]), v, R, slot(Map::kS2), exs);  // R = s
      As.apply_ts(t, R, r0,
                  {slot(Map::kRho[cur] + 1), slot(Map::kAlpha[cur]), slot(Map::kTs), slot(Map::kOmega),
                   slot(Map::kRho[nxt] + 1), slot(Map::kBeta)});
      blas::bicgstab_step(slot(Map::kAlpha[cur]), slot(Map::kOmega), slot(Map::kBeta), p, R, t, v, X,
                          slot(Map::kRho[nxt]), exs);
      slots.record();
      {
        // The next A p, queued before the host looks at this iteration: its run hides the round
        // trip. Skipped where |r|^2 or its trend comes within a decade (in |r|) of the end of the
        // solve, or within a factor 2 of a reliable update: both change p and rho, the queued work
        // would be redone, and a wasted A p costs ten or more round trips (BiCGstab's residual
        // jumps, so the margins are wide).
        const double guess2 = std::min(r2, r2 * (r2 / std::max(prev2, 1e-300)));
        const bool likely_check = guess2 <= 100 * stop2 || (mixed && std::sqrt(guess2) < 2 * sol.delta * rmax);
        if (!likely_check) {
          queue_r0v(nxt);
          v_ready = true;
        }
      }
      slots.wait();
      const complexd rho_start = rho;
      m.flops(2 * As.flops + 40 * nrs);
      // The checks the host made between the kernels before, in the same order.
      const complexd r0v(slots.host(Map::kR0v[cur]), slots.host(Map::kR0v[cur] + 1));
      finite_c(m, "<r0, v>", r0v);
      if (cabs(r0v) == 0.0) throw Failure{"breakdown: <r0, A p> = 0"};
      finite_c(m, "alpha", rho / r0v);
      const double s2 = slots.host(Map::kS2);
      m.finite("|s|^2", s2);
      if (s2 > stop2) {
        const complexd ts(slots.host(Map::kTs), slots.host(Map::kTs + 1));
        const double tt = slots.host(Map::kTs + 2);
        finite_c(m, "<t, s>", ts);
        m.finite("|t|^2", tt);
        if (tt == 0.0) throw Failure{"breakdown: |A s|^2 = 0"};
        if (cabs(ts) == 0.0) throw Failure{"breakdown: omega = <t, s> / |t|^2 = 0"};
      }
      prev2 = r2;
      r2 = slots.host(Map::kRho[nxt]);
      m.finite("|r|^2", r2);
      rho = complexd(slots.host(Map::kRho[nxt] + 1), slots.host(Map::kRho[nxt] + 2));
      const complexd alpha(slots.host(Map::kAlpha[cur]), slots.host(Map::kAlpha[cur] + 1));
      cur = nxt;
      m.iteration(r2, b2);
      const bool claims = r2 <= stop2;
      const double rn = std::sqrt(r2);
      rmax = std::max(rmax, rn);
      if (r2 < 0.25 * best2) {  // progress: |r| halved
        best2 = r2;
        since_best = 0;
      }
      const bool stalled = ++since_best >= solvers::detail::kStallIterations;
      if (!claims && !stalled && !(mixed && rn < sol.delta * rmax)) continue;
      v_ready = false;  // p or rho changes below (or the solve ends)
      // p = R + beta q was written with q = p_old - omega v; keep beta q while R is still the
      // iterated residual (the true-residual check overwrites it).
      const complexd beta_queued(slots.host(Map::kBeta), slots.host(Map::kBeta + 1));
      blas::axpy(-1.0, R, p, exs);
      const double t2 = sol.true_r2();  // (mixed: R = r too)
      if (t2 <= stop2) return true;
      const bool worse = t2 > last_true2;
      last_true2 = t2;
      r2 = prev2 = t2;
      rmax = std::sqrt(t2);
      best2 = t2;
      since_best = 0;
      if (claims || worse) {
        // The iterated residual drifted from the true one (or the true residual grew): restart
        // with a new shadow vector.
        blas::copy(r0, R, exs);
        rho = blas::cdot(r0, R, exs);
        r0n2 = rho.re;
        fresh = true;
        ++res.restarts;
      } else {
        // rho of the new residual, and beta from it: p's recurrence continues, p = R + beta q.
        rho = blas::cdot(r0, R, exs);
        const complexd omega(slots.host(Map::kOmega), slots.host(Map::kOmega + 1));
        const complexd beta = (rho / rho_start) * (alpha / omega);
        finite_c(m, "beta", beta);
        if (cabs(beta_queued) == 0.0) {
          fresh = true;  // q is lost with a zero beta: start p again from R
          ++res.restarts;
        } else {
          blas::caxpby(complexd(1.0, 0.0), R, beta / beta_queued, p, exs);
        }
      }
      set_rho(rho);
    }
  } catch (const Failure&) {
    try {
      sol.flush();
    } catch (...) {
    }
    throw;
  }
}

}  // namespace

SolverResult bicgstab(const DiracOperator& op, SpinorField& x, const SpinorField& b, const SolverParams& p,
                      const DiracOperator* sloppy) {
  const char* name = "bicgstab";
  solvers::detail::check_vectors(name, op, x, b);
  solvers::detail::check_sloppy(name, op, sloppy);
  SolverResult res;
  res.precision = solvers::detail::precision_name(op, sloppy);
  Monitor m(name, p, res);
  std::string failure;
  try {
    if (!p.use_initial_guess) blas::zero(x, op.exec());
    const LinearOp A = solvers::detail::make_op(op, Form::M);
    const LinearOp As = sloppy ? solvers::detail::make_op(*sloppy, Form::M) : A;
    if (!bicgstab_core(A, As, sloppy != nullptr, x, b, m))
      failure = "no convergence within max_iter = " + std::to_string(p.max_iter) +
                " iterations (true relative residual " + sci(res.true_residual) + " > tol " + sci(p.tol) + ")";
  } catch (const Failure& f) {
    failure = f.reason;
  }
  m.finish(failure);
  return res;
}

}  // namespace gluon::qcd
