#pragma once
// Moving whole gauge fields between one process and a process grid (tests, small lattices).
//
//   make_geometry   the block of rank `rank` of `grid` over `lattice` (ranks ordered as
//                   comm::ProcessGrid, x fastest); InputError (comm::check_grid) when the grid
//                   does not divide the lattice into even local extents
//   scatter_gauge   the `local` block taken out of a whole-lattice canonical field (single-process
//                   geometry of the same global extents, InputError otherwise); no communication
//   gather_gauge    collective: the whole lattice as a canonical single-process field on `root`
//                   (an empty GaugeField on the other ranks); `local` may have any storage
//                   (converted to canonical first). Memory on root: the whole lattice.
#include "gluon/comm/communicator.h"
#include "gluon/comm/process_grid.h"
#include "gluon/qcd/gauge_field.h"
#include "gluon/qcd/geometry.h"

namespace gluon::qcd {

Geometry make_geometry(const Coords& lattice, const comm::Grid4& grid, int rank);
GaugeField scatter_gauge(const GaugeField& global_canonical, const Geometry& local);
GaugeField gather_gauge(const GaugeField& local, comm::Communicator& comm, int root);

}  // namespace gluon::qcd
