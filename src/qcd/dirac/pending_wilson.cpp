// TEMPORARY until the Wilson/clover operators land (the engineer building them deletes this file).
#include "dirac_factories.h"
#include "gluon/runtime/error.h"
namespace gluon::qcd::detail {
std::unique_ptr<DiracOperator> make_wilson(const DiracParams&, const GaugeField&, const runtime::Exec&) {
  throw Error("Wilson operator not built yet");
}
std::unique_ptr<DiracOperator> make_clover(const DiracParams&, const GaugeField&, const runtime::Exec&) {
  throw Error("clover operator not built yet");
}
}  // namespace gluon::qcd::detail
