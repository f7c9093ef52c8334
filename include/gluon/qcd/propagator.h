#pragma once
// Quark propagators: one solve per source column (12 spin-colour columns for Wilson/clover, 3
// colours for staggered), each through the operator's even-odd preparation, the chosen Krylov
// solver (optionally mixed precision with a sloppy operator) and reconstruction, returned as
// canonical full-lattice fields (double, site_major, host) for contractions and files.
//
//   compute_propagator(op, sloppy, source, solver, params, progress)
//     progress: a line per column with rate and ETA (runtime::Progress) unless silent
//     solver cg needs op.hermitian_positive() (InputError otherwise: on any other operator solve()
//     runs CG on M^+ M with the source as right-hand side, which is not M^-1 b)
#include <vector>

#include "gluon/qcd/dirac/dirac.h"
#include "gluon/qcd/solvers/solver.h"
#include "gluon/qcd/sources.h"
#include "gluon/qcd/spinor_field.h"

namespace gluon::qcd {

struct PropagatorResult {
  std::vector<SpinorField> columns;  // canonical, full lattice
  std::vector<SolverResult> solves;  // one per column
  int iterations = 0;                // summed over columns
  double seconds = 0;                // whole computation, conversions included
  double solver_seconds = 0, solver_flops = 0;
  double max_true_residual = 0;      // worst column (relative, preconditioned system)
  // |b - M_full x| / |b| of each reconstructed column with the unpreconditioned operator
  // (DiracOperator::M_full), in the operator's precision, and the worst. It differs from the
  // preconditioned residual by the preparation's factors: for Wilson and asymmetric clover the
  // residual vectors agree (the odd part vanishes by reconstruction) and only |b| differs;
  // staggered divides by the mass, symmetric clover multiplies by A_ee.
  std::vector<double> full_residuals;
  double max_full_residual = 0;
};

PropagatorResult compute_propagator(const DiracOperator& op, const DiracOperator* sloppy,
                                    const SourceSpec& source, SolverType solver,
                                    const SolverParams& params, bool show_progress = true);

}  // namespace gluon::qcd
