// Plain double reference of the staggered operators (reference_staggered.h).
#include "gluon/qcd/dirac/reference_staggered.h"

#include <string>

#include "gluon/runtime/error.h"

namespace gluon::qcd {

namespace {

void require_canonical_vector(const SpinorField& f, const Geometry& g, const char* what) {
  const auto& p = f.params();
  if (!p.canonical() || p.nspin != 1 || p.subset != SiteSubset::full)
    throw InputError(std::string("reference staggered: ") + what +
                     " must be a canonical full-lattice colour-vector field (nspin 1, double, "
                     "site_major, host), found nspin " + std::to_string(p.nspin) + " " + p.describe());
  if (!(f.geometry() == g))
    throw InputError(std::string("reference staggered: ") + what + " is on " + f.geometry().to_string() +
                     ", the links on " + g.to_string());
}

void require_canonical_links(const GaugeField& u, const Geometry& g, const char* what) {
  if (!u.params().canonical())
    throw InputError(std::string("reference staggered: ") + what +
                     " links must be canonical (double r18 site_major host), found " + u.params().describe());
  if (!(u.geometry() == g))
    throw InputError(std::string("reference staggered: ") + what + " links are on " + u.geometry().to_string() +
                     ", expected " + g.to_string());
}

// Adds sign * 1/2 eta [W(x) in(x + d mu) - W(x - d mu)^+ in(x - d mu)] for all mu.
void add_hops(ColorVector<double>& acc, const Geometry& g, const Coords& x, const SpinorField& in,
              const GaugeField& w, int dist, const std::array<double, 4>& boundary) {
  const Coords& L = g.global_dims();
  for (int mu = 0; mu < 4; ++mu) {
    const double eta = staggered_eta(x, mu);
    // Forward.
    Coords y = x;
    int wraps = 0;
    y[mu] += dist;
    while (y[mu] >= L[mu]) y[mu] -= L[mu], ++wraps;
    double phase = (wraps % 2) ? boundary[mu] : 1.0;
    const ColorVector<double> f = w.link(g.eo_index(x), mu) * in.color_vector(g.eo_index(y));
    // Backward.
    Coords z = x;
    wraps = 0;
    z[mu] -= dist;
    while (z[mu] < 0) z[mu] += L[mu], ++wraps;
    const double phase_b = (wraps % 2) ? boundary[mu] : 1.0;
    const ColorVector<double> b = adj_mul(w.link(g.eo_index(z), mu), in.color_vector(g.eo_index(z)));
    for (int c = 0; c < 3; ++c) acc.c[c] += 0.5 * eta * (phase * f.c[c] - phase_b * b.c[c]);
  }
}

}  // namespace

int staggered_eta(const Coords& x, int mu) {
  int s = 0;
  for (int nu = 0; nu < mu; ++nu) s += x[nu];
  return (s & 1) ? -1 : 1;
}

void reference_staggered_dslash(SpinorField& out, const SpinorField& in, const GaugeField& fat,
                                const GaugeField* longlinks, const std::array<double, 4>& boundary) {
  const Geometry& g = fat.geometry();
  const Coords& grid = g.grid();
  if (grid[0] * grid[1] * grid[2] * grid[3] != 1)
    throw InputError("reference staggered: one process only (the lattice is split over a process grid)");
  require_canonical_links(fat, g, "fat (one-hop)");
  if (longlinks) require_canonical_links(*longlinks, g, "long (three-hop)");
  require_canonical_vector(in, g, "input");
  require_canonical_vector(out, g, "output");
  if (out.data() == in.data()) throw InputError("reference staggered: output and input are one field");
  for (int mu = 0; mu < 4; ++mu)
    if (boundary[mu] != 1.0 && boundary[mu] != -1.0)
      throw InputError("reference staggered: boundary phase in direction " + std::to_string(mu) +
                       " must be +1 or -1, found " + std::to_string(boundary[mu]));
  for (std::int64_t s = 0; s < g.volume(); ++s) {
    const Coords x = g.coords(s);  // one process: local = global
    ColorVector<double> acc{};
    add_hops(acc, g, x, in, fat, 1, boundary);
    if (longlinks) add_hops(acc, g, x, in, *longlinks, 3, boundary);
    out.color_vector(s) = acc;
  }
}

void reference_staggered_M(SpinorField& out, const SpinorField& in, double mass, const GaugeField& fat,
                           const GaugeField* longlinks, const std::array<double, 4>& boundary, bool dagger) {
  reference_staggered_dslash(out, in, fat, longlinks, boundary);
  const double sd = dagger ? -1.0 : 1.0;
  for (std::int64_t s = 0; s < in.geometry().volume(); ++s) {
    ColorVector<double>& o = out.color_vector(s);
    const ColorVector<double>& v = in.color_vector(s);
    for (int c = 0; c < 3; ++c) o.c[c] = mass * v.c[c] + sd * o.c[c];
  }
}

}  // namespace gluon::qcd
