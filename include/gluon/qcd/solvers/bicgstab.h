#pragma once
// BiCGstab on M directly (non-Hermitian; conventions and failure policy: solver.h).
//
//   bicgstab(op, x, b, params, sloppy)   solves M x = b. Per iteration two applications of M and
//                                        fused kernels: bicgstab_p (p = r + beta (p - omega v)),
//                                        cdot (<r0, v>), caxpy_norm2 (s = r - alpha v, |s|^2),
//                                        cdot_norm2 (<t, s>, |t|^2), bicgstab_update (x += alpha p
//                                        + omega s, r = s - omega t, |r|^2 and the next <r0, r>).
// With a sloppy operator: reliable updates (solver.h), p and v kept, rho recomputed against the
// new residual. When the iterated residual claims convergence but the true one has not, or the
// true residual grew since the previous update, the method restarts from the true residual with a new shadow vector r0 = r (counted in restarts).
#include "gluon/qcd/solvers/solver.h"

namespace gluon::qcd {

SolverResult bicgstab(const DiracOperator& op, SpinorField& x, const SpinorField& b,
                      const SolverParams& params, const DiracOperator* sloppy = nullptr);

}  // namespace gluon::qcd
