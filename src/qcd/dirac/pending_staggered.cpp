// TEMPORARY until the staggered operators land (the engineer building them deletes this file).
#include "dirac_factories.h"
#include "gluon/runtime/error.h"
namespace gluon::qcd::detail {
std::unique_ptr<DiracOperator> make_staggered(const DiracParams&, const GaugeField&, const runtime::Exec&) {
  throw Error("staggered operator not built yet");
}
std::unique_ptr<DiracOperator> make_improved_staggered_impl(const DiracParams&, const GaugeField&, const GaugeField&,
                                                            const runtime::Exec&) {
  throw Error("improved staggered operator not built yet");
}
}  // namespace gluon::qcd::detail
