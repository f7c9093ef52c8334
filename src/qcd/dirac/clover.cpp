// CloverField storage, CloverTerm (clover.h), clover_apply and make_clover. Kernels:
// clover_kernels.cpp.
#include "gluon/qcd/dirac/clover.h"

#include <sstream>
#include <vector>

#include "../ops_support.h"
#include "dirac_factories.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/comm/environment.h"
#include "gluon/qcd/gauge_halo.h"
#include "gluon/runtime/error.h"
#include "wilson_internal.h"

namespace gluon::qcd {

std::string CloverFieldParams::describe() const {
  std::ostringstream s;
  s << to_string(precision) << ' ' << to_string(order) << ' '
    << runtime::to_string(space);
  return s.str();
}

CloverField::CloverField(const CloverFieldParams& p) : params_(p) {
  require_host_order(p.order, p.space == runtime::MemSpace::device, "clover field");
  layout_ = make_layout(p.order, p.geometry.volume(), p.pad, 2, kCloverBlockReals, bytes_per_real(p.precision));
  const std::string label = "clover field " + p.geometry.to_string() + " " + p.describe();
  data_ = runtime::Buffer(p.space, static_cast<std::size_t>(layout_.size()) * bytes_per_real(p.precision),
                          label, p.device);
  if (p.precision == Precision::half)
    norm_ = runtime::Buffer(p.space, static_cast<std::size_t>(p.geometry.volume()) * 2 * sizeof(float),
                            label + " norms", p.device);
}

void clover_apply(SpinorField& out, const SpinorField& in, const CloverField& c, int parity,
                  const runtime::Exec& ex) {
  if (parity != 0 && parity != 1)
    throw InputError("clover_apply: parity must be 0 (even) or 1 (odd), found " + std::to_string(parity));
  const SiteSubset want = parity == 0 ? SiteSubset::even : SiteSubset::odd;
  const SpinorField* fields[2] = {&out, &in};
  for (const SpinorField* f : fields) {
    const auto& p = f->params();
    const std::string what = f == &out ? "clover_apply (out)" : "clover_apply (in)";
    if (p.nspin != 4) throw InputError(what + ": expected a Dirac field (nspin 4), found nspin " + std::to_string(p.nspin));
    if (!(p.geometry == c.geometry()))
      throw InputError(what + ": the field is on " + p.geometry.to_string() + ", the clover field on " +
                       c.geometry().to_string());
    if (p.precision != c.params().precision)
      throw InputError(what + ": expected " + to_string(c.params().precision) +
                       " precision (the clover field's), found " + to_string(p.precision));
    if (p.subset != SiteSubset::full && p.subset != want)
      throw InputError(what + ": the field holds the other parity");
    detail::require_memory_for(p.space, p.device, ex, what);
  }
  detail::require_memory_for(c.params().space, c.params().device, ex, "clover_apply (clover field)");
  detail::launch_clover_apply(out, in, c, parity, ex);
}

CloverTerm::CloverTerm(const GaugeField& u, double kappa, double csw, Precision p, const runtime::Exec& ex,
                       std::optional<FieldOrder> order)
    : kappa_(kappa), csw_(csw), exec_(ex) {
  const Coords& grid = u.geometry().grid();
  if (grid[0] * grid[1] * grid[2] * grid[3] != 1) {
    build_split(u, p, ex, order);
    return;
  }
  GaugeFieldParams gp;
  gp.geometry = u.geometry();
  gp.precision = Precision::double_;
  gp.reconstruct = Reconstruct::r18;
  gp.order = ex.on_device() ? FieldOrder::blocked : FieldOrder::site_major;
  gp.space = runtime::memspace_for(ex);
  gp.device = ex.device;
  const GaugeField ud = converted(u, gp, ex);
  CloverFieldParams cp;
  cp.geometry = u.geometry();
  cp.precision = p;
  cp.order = order ? *order : gp.order;
  cp.space = gp.space;
  cp.device = ex.device;
  clover_ = CloverField(cp);
  inverse_ = CloverField(cp);
  const std::int64_t failed = detail::launch_clover_build(ud, kappa, csw, clover_, inverse_, ex);
  runtime::synchronize(ex);
  check_positive(failed, u.geometry().global_volume());
}

void CloverTerm::check_positive(std::int64_t failed, std::int64_t volume) const {
  const double kappa = kappa_, csw = csw_;
  if (failed > 0)
    throw NumericalError("clover term: A = 1 - kappa c_sw sigma.F is not positive definite on " +
                         std::to_string(failed) + " of " + std::to_string(volume) +
                         " sites (kappa " + std::to_string(kappa) + ", c_sw " + std::to_string(csw) +
                         "): its inverse does not exist; lower kappa c_sw or smooth the gauge field");
}

// A split lattice: the leaves at the rank's edges need links of the neighbours, corners included.
// The clover field is built in double on the host over the box extended by one site
// (extend_gauge), its interior is moved to the local sites in the target storage, and failures
// are summed over the ranks.
void CloverTerm::build_split(const GaugeField& u, Precision p, const runtime::Exec& ex,
                             std::optional<FieldOrder> order) {
  const ExtendedGauge ext = extend_gauge(u, 1, comm::world());
  CloverFieldParams ep;
  ep.geometry = ext.extended;
  CloverField ea(ep), ei(ep);
  const runtime::Exec host = runtime::cpu_exec();
  std::int64_t failed = detail::launch_clover_build(ext.field, kappa_, csw_, ea, ei, host, 1);
  failed = comm::world().sum(failed);
  const Geometry& g = u.geometry();
  std::vector<std::int64_t> map(static_cast<std::size_t>(g.volume()));
  for (std::int64_t s = 0; s < g.volume(); ++s) map[static_cast<std::size_t>(s)] = ext.index(g.coords(s));
  CloverFieldParams cp;
  cp.geometry = g;
  cp.precision = p;
  cp.order = order ? *order : (ex.on_device() ? FieldOrder::blocked : FieldOrder::site_major);
  cp.space = runtime::memspace_for(ex);
  cp.device = ex.device;
  clover_ = CloverField(cp);
  inverse_ = CloverField(cp);
  if (!ex.on_device()) {
    detail::launch_clover_restrict(ea, map.data(), clover_, host);
    detail::launch_clover_restrict(ei, map.data(), inverse_, host);
  } else {
    ep.space = runtime::MemSpace::device;
    ep.device = ex.device;
    CloverField da(ep), di(ep);
    runtime::copy_bytes(da.data(), runtime::MemSpace::device, ea.data(), runtime::MemSpace::host, ea.bytes());
    runtime::copy_bytes(di.data(), runtime::MemSpace::device, ei.data(), runtime::MemSpace::host, ei.bytes());
    runtime::Buffer dmap(runtime::MemSpace::device, map.size() * sizeof(std::int64_t), "clover site map", ex.device);
    runtime::copy_bytes(dmap.data(), runtime::MemSpace::device, map.data(), runtime::MemSpace::host, dmap.bytes());
    detail::launch_clover_restrict(da, static_cast<const std::int64_t*>(dmap.data()), clover_, ex);
    detail::launch_clover_restrict(di, static_cast<const std::int64_t*>(dmap.data()), inverse_, ex);
    runtime::synchronize(ex);
  }
  check_positive(failed, g.global_volume());
}

namespace detail {
std::unique_ptr<DiracOperator> make_clover(const DiracParams& p, const GaugeField& u, const runtime::Exec& ex) {
  return make_wilson_family(p, u, ex, true);
}
}  // namespace detail

}  // namespace gluon::qcd
