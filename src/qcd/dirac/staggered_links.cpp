// Unsmeared improved-staggered links (staggered_links.h): a host loop on canonical fields.
#include "gluon/qcd/dirac/staggered_links.h"

#include "gluon/qcd/field_convert.h"
#include "gluon/runtime/error.h"

namespace gluon::qcd {

ImprovedStaggeredLinks unsmeared_improved_links(const GaugeField& u, const runtime::Exec& ex, double c_one,
                                                double c_three) {
  const Geometry& g = u.geometry();
  const Coords& grid = g.grid();
  if (grid[0] * grid[1] * grid[2] * grid[3] != 1)
    throw InputError("unsmeared_improved_links: one process only (U(x+mu) U(x+2mu) across a block face "
                     "needs halo exchange)");
  if (u.bytes() == 0) throw InputError("unsmeared_improved_links: the gauge field is empty");
  GaugeFieldParams cp;
  cp.geometry = g;
  const GaugeField uc = u.params().canonical() ? GaugeField() : converted(u, cp, ex);
  const GaugeField& thin = u.params().canonical() ? u : uc;
  ImprovedStaggeredLinks r{GaugeField::canonical(g), GaugeField::canonical(g)};
  const SiteIndexer idx = g.indexer();
  for (std::int64_t s = 0; s < g.volume(); ++s)
    for (int mu = 0; mu < 4; ++mu) {
      const SU3d& a = thin.link(s, mu);
      const std::int64_t s1 = idx.neighbour(s, mu, 1), s2 = idx.neighbour(s, mu, 2);
      r.fat.link(s, mu) = c_one * a;
      r.longlinks.link(s, mu) = c_three * (a * thin.link(s1, mu) * thin.link(s2, mu));
    }
  return r;
}

}  // namespace gluon::qcd
