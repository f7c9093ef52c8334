#pragma once
// Solver settings that cannot work together, refused before anything is read or solved, by
// `gluon solve` and `gluon bench solver` alike: a sloppy (inner) precision that is not lower than
// the outer one ("none" for no mixed solve), and a tolerance outside (0, 1) or below 10 unit
// roundoffs of the outer precision, where the true residual is recomputed and could only end the
// solve in stagnation.
#include <string>

namespace gluon::apps {

void check_solver_settings(const std::string& precision, const std::string& sloppy, double tol);

// The operator's parameters, each flagged when given (on the command line or in the TOML input).
struct OperatorParameters {
  std::string op;  // --operator
  double kappa = 0, mass = 0;
  bool kappa_given = false, mass_given = false, csw_given = false;
};
// A parameter the operator does not take is refused, not dropped: --csw outside clover, --kappa
// for staggered, --mass for Wilson/clover unless `wilson_mass_form` (gluon solve's mass form,
// kappa = 1/(2 (4 + m)): then not with --kappa, and m > -2); and kappa in (0, 0.25), a staggered
// mass above 0.
void check_operator_parameters(const OperatorParameters& p, bool wilson_mass_form);

}  // namespace gluon::apps
