#include "solver_settings.h"

#include <fmt/format.h>

#include "gluon/qcd/dirac/dirac.h"
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

void check_operator_parameters(const OperatorParameters& p, bool wilson_mass_form) {
  const qcd::DiracType type = qcd::parse_dirac_type(p.op);
  const bool wilson_like = type == qcd::DiracType::wilson || type == qcd::DiracType::clover;
  if (p.csw_given && type != qcd::DiracType::clover)
    throw InputError(fmt::format("--csw: only --operator clover has a clover term, found --operator {}", p.op));
  if (!wilson_like) {
    if (p.kappa_given)
      throw InputError(fmt::format("--kappa: --operator {} takes --mass (M = m + D), not a hopping parameter", p.op));
    if (!(p.mass > 0)) throw InputError(fmt::format("--mass: expected a positive staggered mass, found {}", p.mass));
    return;
  }
  if (p.mass_given && !wilson_mass_form)
    throw InputError(fmt::format("--mass: --operator {} takes --kappa here", p.op));
  if (p.kappa_given && p.mass_given)
    throw InputError("--kappa and --mass: give one (--mass m is the mass form, kappa = 1/(2 (4 + m)), with the "
                     "correlators and propagator in the mass normalisation)");
  if (p.mass_given && !(p.mass > -2))
    throw InputError(fmt::format("--mass: the Wilson mass form needs m > -2 (kappa = 1/(2 (4 + m)) below 0.25), "
                                 "found {}", p.mass));
  if (!p.mass_given && !(p.kappa > 0 && p.kappa < 0.25))
    throw InputError(fmt::format("--kappa: expected 0 < kappa < 0.25, found {}", p.kappa));
}

}  // namespace gluon::apps
