#pragma once
// BiCGstab on M directly (non-Hermitian; conventions and failure policy: solver.h).
//
//   bicgstab(op, x, b, params, sloppy)   solves M x = b. Per iteration two applications of M, each
//                                        with its reductions (<r0, v>; <t, s>, |t|^2, <r0, s>,
//                                        <r0, t>), and two fused vector kernels: bicgstab_s
//                                        (s = r - alpha v, |s|^2) and bicgstab_step (x += alpha p +
//                                        omega s, r = s - omega t, p = r + beta (p - omega v),
//                                        |r|^2). The next rho = <r0, r> is <r0, s> - omega <r0, t>,
//                                        so p needs no pass of its own (blas.h).
// With a sloppy operator: reliable updates (solver.h), p and v kept, rho recomputed against the
// new residual. When the iterated residual claims convergence but the true one has not, or the
// true residual grew since the previous update, the method restarts from the true residual with a new shadow vector r0 = r (counted in restarts).
#include "gluon/qcd/solvers/solver.h"

namespace gluon::qcd {

SolverResult bicgstab(const DiracOperator& op, SpinorField& x, const SpinorField& b,
                      const SolverParams& params, const DiracOperator* sloppy = nullptr);

}  // namespace gluon::qcd
