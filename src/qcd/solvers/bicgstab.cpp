// BiCGstab on M, mixed precision with reliable updates (bicgstab.h, policy in solver.h).
#include "gluon/qcd/solvers/bicgstab.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "gluon/qcd/blas.h"
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

bool bicgstab_core(const LinearOp& A, const LinearOp& As, bool mixed, SpinorField& x, const SpinorField& b,
                   Monitor& m) {
  const runtime::Exec& exs = As.exec;
  SolverResult& res = m.result();
  const double tol = m.params().tol;
  ReliableSolution sol(A, As, mixed, x, b, tol, m);
  if (sol.done()) return true;
  SpinorField& r = sol.r();
  SpinorField& R = sol.R();
  SpinorField& X = sol.X();
  const double nrs = sol.nrs, b2 = sol.b2, stop2 = sol.stop2;
  double r2 = sol.r2;
  SpinorField r0(As.params), p(As.params), v(As.params), t(As.params);
  blas::copy(r0, R, exs);

  complexd rho = blas::cdot(r0, R, exs), rho_old(1.0), alpha(1.0), omega(1.0);
  double r0n2 = blas::norm2(r0, exs);
  bool fresh = true;  // p = r at the next iteration (start or restart)
  double rmax = std::sqrt(r2), last_true2 = r2, best2 = r2;
  int since_best = 0;
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
        fresh = true;
        ++res.restarts;
      }
      if (fresh) {
        blas::copy(p, R, exs);
        fresh = false;
      } else {
        const complexd beta = (rho / rho_old) * (alpha / omega);
        finite_c(m, "beta", beta);
        blas::bicgstab_p(R, beta, omega, v, p, exs);
      }
      As.apply(v, p);
      const complexd r0v = blas::cdot(r0, v, exs);
      finite_c(m, "<r0, v>", r0v);
      if (cabs(r0v) == 0.0) throw Failure{"breakdown: <r0, A p> = 0"};
      alpha = rho / r0v;
      finite_c(m, "alpha", alpha);
      const double s2 = blas::caxpy_norm2(complexd(-alpha.re, -alpha.im), v, R, exs);  // R = s
      m.finite("|s|^2", s2);
      m.flops(As.flops + 16 * nrs);
      bool claims = false;
      if (s2 <= stop2) {
        // Converged at the half step: x += alpha p, r = s.
        blas::caxpy(alpha, p, X, exs);
        r2 = s2;
        claims = true;
        m.iteration(r2, b2);
      } else {
        As.apply(t, R);
        const blas::DotNorm ts = blas::cdot_norm2(t, R, exs);
        finite_c(m, "<t, s>", ts.dot);
        m.finite("|t|^2", ts.norm2);
        if (ts.norm2 == 0.0) throw Failure{"breakdown: |A s|^2 = 0"};
        omega = ts.dot / ts.norm2;
        if (cabs(omega) == 0.0) throw Failure{"breakdown: omega = <t, s> / |t|^2 = 0"};
        const blas::NormDot u = blas::bicgstab_update(alpha, p, omega, R, t, X, r0, exs);
        m.flops(As.flops + 24 * nrs);
        r2 = u.norm2;
        m.finite("|r|^2", r2);
        rho_old = rho;
        rho = u.dot;
        m.iteration(r2, b2);
        claims = r2 <= stop2;
      }
      const double rn = std::sqrt(r2);
      rmax = std::max(rmax, rn);
      if (r2 < 0.25 * best2) {  // progress: |r| halved
        best2 = r2;
        since_best = 0;
      }
      const bool stalled = ++since_best >= solvers::detail::kStallIterations;
      if (!claims && !stalled && !(mixed && rn < m.params().delta * rmax)) continue;
      const double t2 = sol.true_r2();
      if (t2 <= stop2) return true;
      if (mixed) blas::copy(R, r, exs);
      const bool worse = t2 > last_true2;
      last_true2 = t2;
      r2 = t2;
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
        rho = blas::cdot(r0, R, exs);  // rho_old stays: p's recurrence continues
      }
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
