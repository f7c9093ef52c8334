#pragma once
// Private: the constructors behind make_dirac, one per operator family (wilson.cpp/clover.cpp,
// staggered.cpp). Not part of the public API.
#include <memory>

#include "gluon/qcd/dirac/dirac.h"

namespace gluon::qcd::detail {

std::unique_ptr<DiracOperator> make_wilson(const DiracParams& p, const GaugeField& u, const runtime::Exec& ex);
std::unique_ptr<DiracOperator> make_clover(const DiracParams& p, const GaugeField& u, const runtime::Exec& ex);
std::unique_ptr<DiracOperator> make_staggered(const DiracParams& p, const GaugeField& u, const runtime::Exec& ex);
std::unique_ptr<DiracOperator> make_improved_staggered_impl(const DiracParams& p, const GaugeField& fat,
                                                            const GaugeField& longlinks, const runtime::Exec& ex);

}  // namespace gluon::qcd::detail
