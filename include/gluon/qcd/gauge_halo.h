#pragma once
// Gauge-field ghost zones for a lattice split over a process grid (issue 4, DESIGN.md
// "Communication"): a rank's links on its local box extended by `depth` sites on both sides of
// every dimension, corners included.
//
//   ExtendedGauge   a canonical (double r18 site_major host) field on the extended box
//                   (a single-process Geometry of extents L_mu + 2 depth), its depth, the rank's
//                   Geometry, and index(x) for LOCAL coordinates x_mu in -depth .. L_mu+depth-1.
//                   Shifting by depth in all four dimensions keeps the parity of every site, so
//                   the extended field has the same even-odd convention as the local one.
//   extend_gauge    collective over `comm` (its size must equal the grid volume; ranks ordered
//                   as comm::ProcessGrid, x fastest; the Geometry's grid coordinates must be
//                   ProcessGrid(grid, comm.rank()).coords(), InputError otherwise). Fills the
//                   halo by one exchange per dimension mu = 0..3 of slabs `depth` thick, each
//                   slab already holding the halos of the dimensions before it: that is how the
//                   corners (sites off the box in several dimensions) arrive. A dimension that is
//                   not cut wraps onto the rank itself (a local copy). depth 0..3, and at most
//                   every local extent (InputError otherwise). `u` may have any precision,
//                   compression, order or memory space: it is converted to canonical first.
//
// Uses: depth 1 for the clover field and the plaquette, 2 for rectangles, 3 for Naik links.
#include <cstdint>

#include "gluon/comm/communicator.h"
#include "gluon/qcd/gauge_field.h"
#include "gluon/qcd/geometry.h"

namespace gluon::qcd {

struct ExtendedGauge {
  int depth = 0;
  Geometry local;     // the rank's geometry (with grid)
  Geometry extended;  // Geometry(local dims + 2*depth), single process
  GaugeField field;   // canonical on `extended`
  // eo index in `extended` of the site with LOCAL coordinates x (each in -depth .. L+depth-1)
  std::int64_t index(const Coords& x) const;
};

ExtendedGauge extend_gauge(const GaugeField& u, int depth, comm::Communicator& comm);

}  // namespace gluon::qcd
