#pragma once
// Plain double-precision reference of the staggered operators (staggered.h gives the
// conventions): straightforward loops over the full lattice, written for clarity, against which
// the fast kernels are tested. Fields must be canonical: colour vectors (nspin 1), full lattice,
// double, site_major, host; links canonical (double r18 site_major host). One process only.
//
//   staggered_eta(x, mu)            eta_mu(x) = (-1)^(x_0 + ... + x_{mu-1}), x global coordinates
//   reference_staggered_dslash(out, in, fat, longlinks, boundary)
//                                   out = D in; longlinks == nullptr: naive (fat = thin links)
//   reference_staggered_M(out, in, mass, fat, longlinks, boundary, dagger)
//                                   out = (m + D) in, or (m - D) in with dagger
// InputError for fields that are not canonical or not on one geometry, and for boundary phases
// other than +-1.
#include <array>

#include "gluon/qcd/gauge_field.h"
#include "gluon/qcd/geometry.h"
#include "gluon/qcd/spinor_field.h"

namespace gluon::qcd {

int staggered_eta(const Coords& x, int mu);

void reference_staggered_dslash(SpinorField& out, const SpinorField& in, const GaugeField& fat,
                                const GaugeField* longlinks, const std::array<double, 4>& boundary);

void reference_staggered_M(SpinorField& out, const SpinorField& in, double mass, const GaugeField& fat,
                           const GaugeField* longlinks, const std::array<double, 4>& boundary,
                           bool dagger = false);

}  // namespace gluon::qcd
