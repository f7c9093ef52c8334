#include "solver_settings.h"

#include <fmt/format.h>

#include "gluon/qcd/precision.h"
#include "gluon/runtime/error.h"

namespace gluon::apps {

void check_solver_settings(const std::string& precision, const std::string& sloppy, double tol) {
  const qcd::Precision outer = qcd::parse_precision(precision);
  if (sloppy != "none" && qcd::bytes_per_real(qcd::parse_precision(sloppy)) >= qcd::bytes_per_real(outer))
    throw InputError(fmt::format("--sloppy-precision {}: the inner precision must be lower than --precision {} "
                                 "(double > single > half), or none",
                                 sloppy, precision));
  if (!(tol > 0 && tol < 1))
    throw InputError(fmt::format("--tol: expected a relative residual 0 < tol < 1, found {}", tol));
  const double floor = 10 * qcd::unit_roundoff(outer);
  if (tol < floor)
    throw InputError(fmt::format("--tol {:.1e}: below what --precision {} can reach (10 x its unit roundoff = {:.1e}); "
                                 "use --precision double{}",
                                 tol, precision, floor,
                                 outer == qcd::Precision::double_ ? "" : fmt::format(" --sloppy-precision {}", precision)));
}

}  // namespace gluon::apps
