// Field containers and layouts. Conversions between them live in field_convert_kernels.cpp.
#include <sstream>

#include "gluon/qcd/field_layout.h"
#include "gluon/qcd/gauge_field.h"
#include "gluon/qcd/precision.h"
#include "gluon/qcd/spinor_field.h"
#include "gluon/runtime/error.h"

namespace gluon::qcd {

std::string to_string(Precision p) {
  switch (p) {
    case Precision::double_: return "double";
    case Precision::single: return "single";
    case Precision::half: return "half";
  }
  return "?";
}

// Appended, not "r" + std::string: GCC 12 warns (-Wrestrict) on that operator+'s inlined insert.
std::string to_string(Reconstruct r) {
  std::string s = "r";
  return s += std::to_string(static_cast<int>(r));
}

Precision parse_precision(const std::string& s) {
  if (s == "double" || s == "fp64" || s == "d") return Precision::double_;
  if (s == "single" || s == "float" || s == "fp32" || s == "s") return Precision::single;
  if (s == "half" || s == "fp16" || s == "h") return Precision::half;
  throw InputError("precision: expected double, single or half, found '" + s + "'");
}

Reconstruct parse_reconstruct(const std::string& s) {
  const std::string v = (!s.empty() && (s[0] == 'r' || s[0] == 'R')) ? s.substr(1) : s;
  if (v == "18") return Reconstruct::r18;
  if (v == "12") return Reconstruct::r12;
  if (v == "8") return Reconstruct::r8;
  throw InputError("reconstruct: expected 18, 12 or 8, found '" + s + "'");
}

void require_host_order(FieldOrder order, bool device_memory, const char* what) {
  if (order == FieldOrder::tiled && device_memory)
    throw InputError(std::string(what) + ": the tiled order is a CPU layout; a field in device memory must be "
                     "blocked (or site_major), found tiled");
}

void require_blocked(const FieldLayout& layout, const char* what) {
  if (layout.order != FieldOrder::blocked)
    throw InputError(std::string(what) + ": a stencil kernel on the GPU reads the blocked field order, found " +
                     to_string(layout.order));
}

FieldLayout make_layout(FieldOrder order, std::int64_t sites, std::int64_t pad, int nobj, int nreals,
                        int bytes_per_real) {
  FieldLayout l;
  l.order = order;
  l.sites = sites;
  l.stride = sites + (order == FieldOrder::blocked ? pad : 0);
  l.nobj = nobj;
  l.nreals = nreals;
  l.block = nreals;
  if (order == FieldOrder::blocked) {
    l.block = blocked_block_reals(nreals, bytes_per_real);
    // Device code indexes blocks with 32-bit unsigned integers (load_blocks).
    const std::int64_t blocks = l.stride * nobj * (nreals / l.block);
    if (blocks >= (std::int64_t{1} << 32))
      throw InputError("blocked field order: " + std::to_string(blocks) + " blocks of " + std::to_string(l.block) +
                       " reals (" + std::to_string(sites) + " sites x " + std::to_string(nobj * nreals) +
                       " reals) exceed the 2^32 that device code indexes; use more ranks");
  }
  if (order == FieldOrder::tiled) {
    l.block = kTiledSites;
    if (sites % l.block != 0)
      throw InputError("tiled field order: " + std::to_string(sites) + " sites are not a multiple of the tile width " +
                       std::to_string(l.block));
  }
  return l;
}

const char* to_string(FieldOrder o) {
  switch (o) {
    case FieldOrder::site_major: return "site_major";
    case FieldOrder::blocked: return "blocked";
    case FieldOrder::tiled: return "tiled";
  }
  return "unknown";
}

namespace {
const char* order_name(FieldOrder o) { return to_string(o); }
}  // namespace

std::string GaugeFieldParams::describe() const {
  std::ostringstream s;
  s << to_string(precision) << ' ' << to_string(reconstruct) << ' ' << order_name(order) << ' '
    << runtime::to_string(space);
  return s.str();
}

GaugeField::GaugeField(const GaugeFieldParams& p) : params_(p) {
  require_host_order(p.order, p.space == runtime::MemSpace::device, "gauge field");
  layout_ = make_layout(p.order, p.geometry.volume(), p.pad, 4, stored_reals(p.reconstruct),
                        bytes_per_real(p.precision));
  data_ = runtime::Buffer(p.space, static_cast<std::size_t>(layout_.size()) * bytes_per_real(p.precision),
                          "gauge field " + p.geometry.to_string() + " " + p.describe(), p.device);
}

GaugeField GaugeField::canonical(const Geometry& g) {
  GaugeFieldParams p;
  p.geometry = g;
  return GaugeField(p);
}

void GaugeField::require_canonical(const char* what) const {
  if (!params_.canonical())
    throw Error(std::string(what) + " needs a canonical gauge field (double r18 site_major host), got " +
                params_.describe());
}

SU3d& GaugeField::link(std::int64_t s, int mu) {
  require_canonical("GaugeField::link");
  return static_cast<SU3d*>(data_.data())[s * 4 + mu];
}

const SU3d& GaugeField::link(std::int64_t s, int mu) const {
  require_canonical("GaugeField::link");
  return static_cast<const SU3d*>(data_.data())[s * 4 + mu];
}

std::string SpinorFieldParams::describe() const {
  std::ostringstream s;
  s << (nspin == 4 ? "dirac " : "staggered ")
    << (subset == SiteSubset::full ? "full " : subset == SiteSubset::even ? "even " : "odd ")
    << to_string(precision) << ' ' << order_name(order) << ' ' << runtime::to_string(space);
  return s.str();
}

SpinorField::SpinorField(const SpinorFieldParams& p) : params_(p) {
  if (p.nspin != 4 && p.nspin != 1)
    throw InputError("spinor field: nspin must be 4 or 1, found " + std::to_string(p.nspin));
  require_host_order(p.order, p.space == runtime::MemSpace::device, "spinor field");
  layout_ = make_layout(p.order, p.sites(), p.pad, 1, p.reals_per_site(), bytes_per_real(p.precision));
  const std::string label = "spinor field " + p.geometry.to_string() + " " + p.describe();
  data_ = runtime::Buffer(p.space, static_cast<std::size_t>(layout_.size()) * bytes_per_real(p.precision),
                          label, p.device);
  if (p.precision == Precision::half)
    norm_ = runtime::Buffer(p.space, static_cast<std::size_t>(layout_.stride) * sizeof(float),
                            label + " norms", p.device);
}

void SpinorField::require_canonical(int nspin, const char* what) const {
  if (!params_.canonical() || params_.nspin != nspin)
    throw Error(std::string(what) + " needs a canonical " + (nspin == 4 ? "Dirac" : "staggered") +
                " field (double site_major host), got " + params_.describe());
}

Spinor<double>& SpinorField::site(std::int64_t s) {
  require_canonical(4, "SpinorField::site");
  return static_cast<Spinor<double>*>(data_.data())[s];
}
const Spinor<double>& SpinorField::site(std::int64_t s) const {
  require_canonical(4, "SpinorField::site");
  return static_cast<const Spinor<double>*>(data_.data())[s];
}
ColorVector<double>& SpinorField::color_vector(std::int64_t s) {
  require_canonical(1, "SpinorField::color_vector");
  return static_cast<ColorVector<double>*>(data_.data())[s];
}
const ColorVector<double>& SpinorField::color_vector(std::int64_t s) const {
  require_canonical(1, "SpinorField::color_vector");
  return static_cast<const ColorVector<double>*>(data_.data())[s];
}

}  // namespace gluon::qcd
