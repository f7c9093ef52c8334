#pragma once
// Conjugate gradients on the Dirac-operator interface (conventions and failure policy: solver.h).
//
//   cg(op, x, b, params, sloppy)    solves A x = b with A = M when op.hermitian_positive() (even-odd
//                                   staggered), else A = M^dagger M; the residual is that of A.
//   cgnr(op, x, b, params, sloppy)  solves M x = b through M^dagger M x = M^dagger b; converged
//                                   means |b - M x| / |b| <= tol: when the normal-equation residual
//                                   has reached tol but M's has not, CG continues from x with a
//                                   tighter normal tolerance (counted in restarts).
//   cgne(op, x, b, params, sloppy)  solves M x = b through M M^dagger y = b, x = M^dagger y (whose
//                                   residual is M's); starts from y = 0.
//   cg_shifted(op, shift, ...)      solves (A + shift) x = b, A as for cg (multi-shift refinement).
//
// Each iteration streams the vectors through fused kernels: re_dot(p, Ap); axpy_norm2 for
// r -= alpha Ap with |r|^2; axpy_zpbx for x += alpha p, p = r + beta p (8 vector streams besides
// the operator). With a sloppy operator: reliable updates as described in solver.h, the search
// direction kept and re-projected against the new residual (p -= <r, p>/|r|^2 r, as QUDA does),
// except when the true residual grew since the previous update: then p = r (counted in restarts).
#include "gluon/qcd/solvers/solver.h"

namespace gluon::qcd {

SolverResult cg(const DiracOperator& op, SpinorField& x, const SpinorField& b, const SolverParams& params,
                const DiracOperator* sloppy = nullptr);
SolverResult cg_shifted(const DiracOperator& op, double shift, SpinorField& x, const SpinorField& b,
                        const SolverParams& params, const DiracOperator* sloppy = nullptr);
SolverResult cgnr(const DiracOperator& op, SpinorField& x, const SpinorField& b, const SolverParams& params,
                  const DiracOperator* sloppy = nullptr);
SolverResult cgne(const DiracOperator& op, SpinorField& x, const SpinorField& b, const SolverParams& params,
                  const DiracOperator* sloppy = nullptr);

}  // namespace gluon::qcd
