// Gauge starts (gauge_start.h). The random ones are random_fields.h draws on fixed streams.
#include "gluon/qcd/gauge_start.h"

#include "gluon/qcd/gauge_accessor.h"
#include "gluon/qcd/random.h"
#include "gluon/qcd/random_fields.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/parallel.h"
#include "ops_support.h"

namespace gluon::qcd {

namespace {

template <class A>
struct UnitKernel {
  A u;
  GLUON_HD void operator()(std::int64_t s) const {
    for (int mu = 0; mu < 4; ++mu) u.store(s, mu, A::matrix::identity());
  }
};

}  // namespace

std::string to_string(GaugeStart s) {
  switch (s) {
    case GaugeStart::unit: return "unit";
    case GaugeStart::hot: return "hot";
    case GaugeStart::weak: return "weak";
  }
  return "?";
}

GaugeStart parse_gauge_start(const std::string& s) {
  if (s == "unit" || s == "cold" || s == "identity") return GaugeStart::unit;
  if (s == "hot" || s == "random") return GaugeStart::hot;
  if (s == "weak") return GaugeStart::weak;
  throw InputError("gauge start: expected unit (cold), hot (random) or weak, found '" + s + "'");
}

void set_unit(GaugeField& u, const runtime::Exec& ex) {
  if (u.bytes() == 0) throw InputError("set_unit: the gauge field is empty");
  detail::require_memory_for(u.params().space, u.params().device, ex, "set_unit");
  dispatch_gauge(u, [&](auto acc) {
    runtime::parallel_for(ex, "set_unit", u.geometry().volume(), UnitKernel<decltype(acc)>{acc});
  });
  runtime::synchronize(ex);
}

void set_hot(GaugeField& u, std::uint64_t seed, const runtime::Exec& ex) {
  fill_haar(u, seed, kStreamHotStart, ex);
}

void set_weak(GaugeField& u, std::uint64_t seed, double epsilon, const runtime::Exec& ex) {
  fill_weak(u, seed, kStreamWeakStart, epsilon, ex);
}

void set_start(GaugeField& u, GaugeStart start, std::uint64_t seed, double epsilon,
               const runtime::Exec& ex) {
  switch (start) {
    case GaugeStart::unit: return set_unit(u, ex);
    case GaugeStart::hot: return set_hot(u, seed, ex);
    case GaugeStart::weak: return set_weak(u, seed, epsilon, ex);
  }
}

}  // namespace gluon::qcd
