#pragma once
// Multi-shift CG (RHMC): solves (A + sigma_i) x_i = b for all shifts at the cost of one CG on the
// smallest shift, A = M if op.hermitian_positive() else M^dagger M (conventions and failure
// policy: solver.h).
//
//   multishift_cg(op, x, b, shifts, tols, params, sloppy)
//       x is resized to shifts.size() and each x_i allocated with op.vector_params() unless it
//       already has those parameters. tols[i] is shift i's relative tolerance (empty: params.tol
//       for every shift). Shifts must be >= -(the smallest eigenvalue of A); the smallest shift is
//       the base system that CG iterates; the others follow through the zeta recurrence (Jegerlehner,
//       hep-lat/9612014) and stop being updated once |zeta_i r| <= tol_i |b|. The base system's
//       step is CG's (p^dagger A p, alpha and r -= alpha A p on the device, in the operator's last
//       kernel where it has the fold, its shift included: DiracOperator::M_cg_residual), the host
//       waiting once an iteration for the scalars the shifts' coefficients need. The shifts'
//       updates are applied params.multishift_window iterations at a time (default 8): the base
//       step (blas::multishift_base_step, queued ahead of that wait, beta read on the device)
//       forms the next p and keeps the residual in a vector of its own, and one pass
//       (blas::multishift_window) then applies the window's recorded solution updates of every
//       shift and p updates of the others, each x_i and p_i read and written once; with window 1
//       one kernel (blas::multishift_update) updates all active x_i and p_i every iteration.
//       Mixed precision (sloppy given): reliable updates of the base shift (params.delta, as in
//       CG): every shift's sloppy solution is folded into its outer-precision x_i and the base
//       residual replaced by the true one; the other shifts' residuals stay zeta_i times it.
//       At the end each shift's true residual |b - (A + sigma_i) x_i| / |b| is computed in the
//       outer precision; a shift above its tolerance (the base shift rarely, the others often
//       after a low-precision sloppy multi-shift) is refined by (mixed-precision) cg_shifted from
//       its x_i, as QUDA does, starting from the residual that check formed: one by one, or, with
//       params.multishift_together (by default where the sloppy operator runs on a GPU and applies
//       several vectors in one pass: even-odd staggered), all together, one CG each whose
//       operator steps share one DiracOperator::normal_shifted_multi call an iteration.
//
//   MultiShiftResult   total (the whole solve: iterations of the multi-shift loop plus the
//                      refinements, seconds, gflops, history of the base system) and per shift:
//                      true residual, the multi-shift iteration at which it converged (or stopped),
//                      and the refinement's iterations and seconds (0 where none ran; overlapping
//                      when together): what a mixed-precision solve spends past its sloppy loop;
//                      refine_wall_seconds, the refinement phase end to end, and refined_together.
#include <vector>

#include "gluon/qcd/solvers/solver.h"

namespace gluon::qcd {

struct MultiShiftResult {
  SolverResult total;
  std::vector<double> true_residual;
  std::vector<int> shift_iterations;
  std::vector<int> refine_iterations;
  std::vector<double> refine_seconds;  // each shift's refinement (together: overlapping)
  double refine_wall_seconds = 0.0;    // the refinement phase, end to end
  bool refined_together = false;       // SolverParams::multishift_together's choice
  bool converged = false;
};

MultiShiftResult multishift_cg(const DiracOperator& op, std::vector<SpinorField>& x, const SpinorField& b,
                               const std::vector<double>& shifts, const std::vector<double>& tols,
                               const SolverParams& params, const DiracOperator* sloppy = nullptr);

}  // namespace gluon::qcd
