#pragma once
// Solver settings that cannot work together, refused before anything is read or solved, by
// `gluon solve` and `gluon bench solver` alike: a sloppy (inner) precision that is not lower than
// the outer one ("none" for no mixed solve), and a tolerance outside (0, 1) or below 10 unit
// roundoffs of the outer precision, where the true residual is recomputed and could only end the
// solve in stagnation.
#include <string>

namespace gluon::apps {

void check_solver_settings(const std::string& precision, const std::string& sloppy, double tol);

}  // namespace gluon::apps
