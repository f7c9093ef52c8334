#include "gluon/qcd/sources.h"

#include "gluon/qcd/random.h"
#include "gluon/runtime/error.h"

namespace gluon::qcd {

std::string to_string(SourceType t) { return t == SourceType::point ? "point" : "z2-wall"; }

SourceType parse_source_type(const std::string& s) {
  if (s == "point") return SourceType::point;
  if (s == "z2-wall" || s == "z2_wall" || s == "wall") return SourceType::z2_wall;
  throw InputError("source type: expected point or z2-wall, found '" + s + "'");
}

void validate_source(const SourceSpec& spec, const Geometry& g) {
  static const char* name[4] = {"x", "y", "z", "t"};
  for (int mu = 0; mu < 4; ++mu) {
    if (spec.type == SourceType::z2_wall && mu < 3) continue;
    if (spec.position[mu] < 0 || spec.position[mu] >= g.global_dims()[mu])
      throw InputError(std::string("source position ") + name[mu] + ": expected 0.." +
                       std::to_string(g.global_dims()[mu] - 1) + ", found " +
                       std::to_string(spec.position[mu]));
  }
}

SpinorField make_source(const SourceSpec& spec, const Geometry& g, int nspin, int column) {
  validate_source(spec, g);
  if (column < 0 || column >= source_columns(nspin))
    throw InputError("source column: expected 0.." + std::to_string(source_columns(nspin) - 1) +
                     ", found " + std::to_string(column));
  SpinorFieldParams p;
  p.geometry = g;
  p.nspin = nspin;
  SpinorField f(p);
  auto* v = static_cast<double*>(f.data());
  const int per_site = 6 * nspin;
  std::fill(v, v + g.volume() * per_site, 0.0);
  const int spin = nspin == 4 ? column / 3 : 0, colour = column % 3;
  const int slot = (spin * 3 + colour) * 2;  // real part of (spin, colour)
  if (spec.type == SourceType::point) {
    Coords local;
    if (g.global_to_local(spec.position, local)) v[g.eo_index(local) * per_site + slot] = 1.0;
    return f;
  }
  const double inv_sqrt2 = 0.70710678118654752440;
  for (std::int64_t s = 0; s < g.volume(); ++s) {
    const Coords x = g.local_to_global(g.coords(s));
    if (x[3] != spec.position[3]) continue;
    SiteRng rng(spec.seed, static_cast<std::uint64_t>(g.global_lex(x)), kStreamWallSource);
    const std::uint32_t bits = rng.next_u32();
    v[s * per_site + slot] = (bits & 1u) ? -inv_sqrt2 : inv_sqrt2;
    v[s * per_site + slot + 1] = (bits & 2u) ? -inv_sqrt2 : inv_sqrt2;
  }
  return f;
}

}  // namespace gluon::qcd
