// CG, CGNR, CGNE and shifted CG (cg.h) on top of the CG core of solver.cpp.
#include "gluon/qcd/solvers/cg.h"

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

using solvers::detail::sci;

std::string max_iter_reason(const SolverParams& p, double rel) {
  return "no convergence within max_iter = " + std::to_string(p.max_iter) +
         " iterations (true relative residual " + sci(rel) + " > tol " + sci(p.tol) + ")";
}

SolverResult run_cg(const char* name, const DiracOperator& op, double shift, SpinorField& x,
                    const SpinorField& b, const SolverParams& p, const DiracOperator* sloppy) {
  solvers::detail::check_vectors(name, op, x, b);
  solvers::detail::check_sloppy(name, op, sloppy);
  SolverResult res;
  res.precision = solvers::detail::precision_name(op, sloppy);
  Monitor m(name, p, res);
  std::string failure;
  try {
    if (!p.use_initial_guess) blas::zero(x, op.exec());
    const LinearOp A = solvers::detail::make_op(op, Form::normal, shift);
    const LinearOp As = sloppy ? solvers::detail::make_op(*sloppy, Form::normal, shift) : A;
    if (!solvers::detail::cg_core(A, As, sloppy != nullptr, x, b, p.tol, m))
      failure = max_iter_reason(p, res.true_residual);
  } catch (const Failure& f) {
    failure = f.reason;
  }
  m.finish(failure);
  return res;
}

// |b - M x|^2 with M the operator itself, in the outer precision.
double m_residual2(const DiracOperator& op, const SpinorField& x, const SpinorField& b, SpinorField& tmp,
                   Monitor& m) {
  op.M(tmp, x);
  const double r2 = blas::xmy_norm2(b, tmp, op.exec());
  m.flops(op.flops_M() + 3.0 * tmp.params().sites() * tmp.params().reals_per_site());
  m.finite("|b - M x|^2", r2);
  return r2;
}

}  // namespace

SolverResult cg(const DiracOperator& op, SpinorField& x, const SpinorField& b, const SolverParams& params,
                const DiracOperator* sloppy) {
  return run_cg("cg", op, 0.0, x, b, params, sloppy);
}

SolverResult cg_shifted(const DiracOperator& op, double shift, SpinorField& x, const SpinorField& b,
                        const SolverParams& params, const DiracOperator* sloppy) {
  return run_cg("cg (shifted)", op, shift, x, b, params, sloppy);
}

SolverResult cgnr(const DiracOperator& op, SpinorField& x, const SpinorField& b, const SolverParams& p,
                  const DiracOperator* sloppy) {
  const char* name = "cgnr";
  solvers::detail::check_vectors(name, op, x, b);
  solvers::detail::check_sloppy(name, op, sloppy);
  SolverResult res;
  res.precision = solvers::detail::precision_name(op, sloppy);
  Monitor m(name, p, res);
  std::string failure;
  try {
    const runtime::Exec& ex = op.exec();
    if (!p.use_initial_guess) blas::zero(x, ex);
    const LinearOp A = solvers::detail::make_op(op, Form::mdagm);
    const LinearOp As = sloppy ? solvers::detail::make_op(*sloppy, Form::mdagm) : A;
    const double b2 = blas::norm2(b, ex);
    m.finite("|b|^2", b2);
    if (b2 == 0.0) {
      blas::zero(x, ex);
      res.true_residual = 0.0;
    } else {
      SpinorField rhs(op.vector_params()), tmp(op.vector_params());
      op.Mdag(rhs, b);
      m.flops(op.flops_M());
      double tol_n = p.tol;
      while (true) {
        solvers::detail::cg_core(A, As, sloppy != nullptr, x, rhs, tol_n, m);
        const double rel = std::sqrt(m_residual2(op, x, b, tmp, m) / b2);
        res.true_residual = rel;
        if (rel <= p.tol) break;
        if (m.out_of_iterations()) {
          failure = max_iter_reason(p, rel);
          break;
        }
        // The normal equations converged but M's residual did not: tighten and continue from x.
        tol_n *= std::clamp(0.5 * p.tol / rel, 1e-3, 0.5);
        ++res.restarts;
        if (tol_n < 1e-16) {
          failure = "the normal-equation residual reached " + sci(tol_n) +
                    " but |b - M x| / |b| = " + sci(rel) + " is still above tol (precision limit)";
          break;
        }
      }
    }
  } catch (const Failure& f) {
    failure = f.reason;
  }
  m.finish(failure);
  return res;
}

SolverResult cgne(const DiracOperator& op, SpinorField& x, const SpinorField& b, const SolverParams& p,
                  const DiracOperator* sloppy) {
  const char* name = "cgne";
  solvers::detail::check_vectors(name, op, x, b);
  solvers::detail::check_sloppy(name, op, sloppy);
  SolverResult res;
  res.precision = solvers::detail::precision_name(op, sloppy);
  Monitor m(name, p, res);
  std::string failure;
  try {
    const runtime::Exec& ex = op.exec();
    const LinearOp A = solvers::detail::make_op(op, Form::mmdag);
    const LinearOp As = sloppy ? solvers::detail::make_op(*sloppy, Form::mmdag) : A;
    SpinorField y(op.vector_params()), tmp(op.vector_params());
    blas::zero(y, ex);
    try {
      solvers::detail::cg_core(A, As, sloppy != nullptr, y, b, p.tol, m);
    } catch (const Failure&) {
      op.Mdag(x, y);  // the last iterate
      throw;
    }
    op.Mdag(x, y);
    m.flops(op.flops_M());
    const double b2 = blas::norm2(b, ex);
    const double rel = b2 > 0 ? std::sqrt(m_residual2(op, x, b, tmp, m) / b2) : 0.0;
    res.true_residual = rel;
    if (rel > p.tol)
      failure = m.out_of_iterations() ? max_iter_reason(p, rel)
                                      : "|b - M x| / |b| = " + sci(rel) + " above tol after M M^dagger converged";
  } catch (const Failure& f) {
    failure = f.reason;
  }
  m.finish(failure);
  return res;
}

}  // namespace gluon::qcd
