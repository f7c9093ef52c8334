// CloverField storage, CloverTerm (clover.h), clover_apply and make_clover. Kernels:
// clover_kernels.cpp.
#include "gluon/qcd/dirac/clover.h"

#include <sstream>

#include "../ops_support.h"
#include "dirac_factories.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/runtime/error.h"
#include "wilson_internal.h"

namespace gluon::qcd {

std::string CloverFieldParams::describe() const {
  std::ostringstream s;
  s << to_string(precision) << ' ' << (order == FieldOrder::blocked ? "blocked" : "site_major") << ' '
    << runtime::to_string(space);
  return s.str();
}

CloverField::CloverField(const CloverFieldParams& p) : params_(p) {
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
  if (grid[0] * grid[1] * grid[2] * grid[3] != 1)
    throw InputError("clover term: needs the whole lattice in one process (halo exchange is not available yet)");
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
  if (failed > 0)
    throw NumericalError("clover term: A = 1 - kappa c_sw sigma.F is not positive definite on " +
                         std::to_string(failed) + " of " + std::to_string(u.geometry().volume()) +
                         " sites (kappa " + std::to_string(kappa) + ", c_sw " + std::to_string(csw) +
                         "): its inverse does not exist; lower kappa c_sw or smooth the gauge field");
}

namespace detail {
std::unique_ptr<DiracOperator> make_clover(const DiracParams& p, const GaugeField& u, const runtime::Exec& ex) {
  return make_wilson_family(p, u, ex, true);
}
}  // namespace detail

}  // namespace gluon::qcd
