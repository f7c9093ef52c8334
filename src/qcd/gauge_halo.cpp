// Gauge ghost zones (gauge_halo.h): sequential per-dimension slab exchanges on the host.
#include "gluon/qcd/gauge_halo.h"

#include <cstring>
#include <string>
#include <vector>

#include "gluon/comm/process_grid.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/exec.h"

namespace gluon::qcd {

namespace {

constexpr int kSiteDoubles = 4 * 18;  // 4 links of 3x3 complex doubles

std::string coords_text(const Coords& c) {
  return std::to_string(c[0]) + "," + std::to_string(c[1]) + "," + std::to_string(c[2]) + "," +
         std::to_string(c[3]);
}

// Calls f(x) for every x with lo[nu] <= x[nu] < hi[nu], x fastest (the same order on every rank,
// so that a slab packed by one rank unpacks in the same order on its neighbour).
template <class F>
void for_box(const Coords& lo, const Coords& hi, F&& f) {
  Coords x;
  for (x[3] = lo[3]; x[3] < hi[3]; ++x[3])
    for (x[2] = lo[2]; x[2] < hi[2]; ++x[2])
      for (x[1] = lo[1]; x[1] < hi[1]; ++x[1])
        for (x[0] = lo[0]; x[0] < hi[0]; ++x[0]) f(x);
}

GaugeField canonical_copy(const GaugeField& u) {
  if (u.params().canonical()) return GaugeField{};  // empty: use u itself
  GaugeFieldParams p;
  p.geometry = u.geometry();
  const runtime::Exec ex = u.params().space == runtime::MemSpace::device
                               ? runtime::cuda_exec(u.params().device)
                               : runtime::cpu_exec();
  return converted(u, p, ex);
}

}  // namespace

std::int64_t ExtendedGauge::index(const Coords& x) const {
  const Coords e{x[0] + depth, x[1] + depth, x[2] + depth, x[3] + depth};
  return extended.eo_index(e);
}

ExtendedGauge extend_gauge(const GaugeField& u, int depth, comm::Communicator& comm) {
  const Geometry& g = u.geometry();
  if (u.bytes() == 0) throw InputError("extend_gauge: the gauge field is empty (not allocated)");
  const Coords& grid = g.grid();
  const Coords& L = g.local_dims();
  const int nranks = grid[0] * grid[1] * grid[2] * grid[3];
  if (comm.size() != nranks)
    throw InputError("extend_gauge: communicator size: expected " + std::to_string(nranks) +
                     " (the volume of process grid " + coords_text(grid) + "), found " +
                     std::to_string(comm.size()) + " (" + comm.describe() + ")");
  const comm::ProcessGrid pg(grid, comm.rank());
  // Collective, so that every rank fails (none waits for a neighbour that gave up).
  const bool misplaced = pg.coords() != g.grid_coords();
  if (comm.any(misplaced))
    throw InputError(misplaced ? "extend_gauge: grid coordinates of " + comm.describe() + " in grid " +
                                     coords_text(grid) + ": expected " + coords_text(pg.coords()) +
                                     " (ranks x fastest), found " + coords_text(g.grid_coords()) +
                                     " in the field's Geometry"
                               : "extend_gauge: grid coordinates of another rank do not match its place "
                                 "in grid " + coords_text(grid) + " (see that rank's message)");
  if (depth < 0 || depth > 3)
    throw InputError("extend_gauge: depth: expected 0..3, found " + std::to_string(depth));
  for (int mu = 0; mu < 4; ++mu)
    if (depth > L[mu])
      throw InputError("extend_gauge: depth " + std::to_string(depth) + " exceeds local extent " +
                       std::to_string(L[mu]) + " in dimension " + std::to_string(mu) +
                       " (local lattice " + coords_text(L) + ")");

  const GaugeField copy = canonical_copy(u);
  const GaugeField& src = u.params().canonical() ? u : copy;

  ExtendedGauge e;
  e.depth = depth;
  e.local = g;
  e.extended = Geometry(Coords{L[0] + 2 * depth, L[1] + 2 * depth, L[2] + 2 * depth, L[3] + 2 * depth});
  e.field = GaugeField::canonical(e.extended);
  auto site = [&](const Coords& x) { return &e.field.link(e.index(x), 0).e[0][0].re; };

  // The body.
  for_box(Coords{0, 0, 0, 0}, L, [&](const Coords& x) {
    std::memcpy(site(x), &src.link(g.eo_index(x), 0).e[0][0].re, kSiteDoubles * sizeof(double));
  });
  if (depth == 0) return e;

  std::vector<double> send, recv;
  for (int mu = 0; mu < 4; ++mu) {
    // Dimensions before mu span the extended range (their halos are filled), later ones the body.
    Coords lo{}, hi{};
    for (int nu = 0; nu < 4; ++nu) {
      lo[nu] = nu < mu ? -depth : 0;
      hi[nu] = nu < mu ? L[nu] + depth : L[nu];
    }
    // dir 0: the top slab [L-depth, L) goes to +mu and arrives below the neighbour's body
    // [-depth, 0); dir 1: the bottom slab [0, depth) goes to -mu and arrives at [L, L+depth).
    for (int dir = 0; dir < 2; ++dir) {
      Coords slo = lo, shi = hi, rlo = lo, rhi = hi;
      if (dir == 0) {
        slo[mu] = L[mu] - depth, shi[mu] = L[mu];
        rlo[mu] = -depth, rhi[mu] = 0;
      } else {
        slo[mu] = 0, shi[mu] = depth;
        rlo[mu] = L[mu], rhi[mu] = L[mu] + depth;
      }
      send.clear();
      for_box(slo, shi, [&](const Coords& x) {
        const double* p = site(x);
        send.insert(send.end(), p, p + kSiteDoubles);
      });
      if (pg.is_cut(mu)) {
        recv.resize(send.size());
        const int dest = pg.neighbour(mu, dir == 0 ? +1 : -1);
        const int source = pg.neighbour(mu, dir == 0 ? -1 : +1);
        comm.sendrecv(send.data(), send.size() * sizeof(double), dest, recv.data(),
                      recv.size() * sizeof(double), source, 2 * mu + dir);
      } else {
        recv.swap(send);  // the rank is its own neighbour
      }
      std::size_t k = 0;
      for_box(rlo, rhi, [&](const Coords& x) {
        std::memcpy(site(x), recv.data() + k, kSiteDoubles * sizeof(double));
        k += kSiteDoubles;
      });
    }
  }
  return e;
}

}  // namespace gluon::qcd
