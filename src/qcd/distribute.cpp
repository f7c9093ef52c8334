// Whole gauge fields <-> blocks of a process grid (distribute.h).
#include "gluon/qcd/distribute.h"

#include <cstring>
#include <string>
#include <vector>

#include "gluon/qcd/field_convert.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/exec.h"

namespace gluon::qcd {

namespace {

constexpr std::size_t kSiteBytes = 4 * 18 * sizeof(double);

bool single_process(const Geometry& g) { return g.grid() == Coords{1, 1, 1, 1}; }

// Copies the block `local` between its own eo order (`block`) and the whole lattice (`whole`).
void copy_block(const Geometry& local, GaugeField& whole, unsigned char* block, bool to_whole) {
  const Geometry& gw = whole.geometry();
  const Coords& L = local.local_dims();
  Coords x;
  for (x[3] = 0; x[3] < L[3]; ++x[3])
    for (x[2] = 0; x[2] < L[2]; ++x[2])
      for (x[1] = 0; x[1] < L[1]; ++x[1])
        for (x[0] = 0; x[0] < L[0]; ++x[0]) {
          unsigned char* b = block + static_cast<std::size_t>(local.eo_index(x)) * kSiteBytes;
          void* w = &whole.link(gw.eo_index(local.local_to_global(x)), 0);
          if (to_whole)
            std::memcpy(w, b, kSiteBytes);
          else
            std::memcpy(b, w, kSiteBytes);
        }
}

}  // namespace

Geometry make_geometry(const Coords& lattice, const comm::Grid4& grid, int rank) {
  comm::check_grid(lattice, grid);
  const comm::ProcessGrid pg(grid, rank);
  return Geometry(lattice, grid, pg.coords());
}

GaugeField scatter_gauge(const GaugeField& global_canonical, const Geometry& local) {
  const GaugeField& u = global_canonical;
  if (!u.params().canonical())
    throw InputError("scatter_gauge: expected a canonical whole-lattice field (double r18 site_major "
                     "host), found " + u.params().describe());
  if (!single_process(u.geometry()))
    throw InputError("scatter_gauge: expected a whole-lattice (single-process) field, found one with "
                     "process grid " + u.geometry().to_string() + " block");
  if (u.geometry().global_dims() != local.global_dims())
    throw InputError("scatter_gauge: lattice of the local geometry: expected " +
                     u.geometry().to_string() + " (the whole field's), found " + local.to_string());
  GaugeField out = GaugeField::canonical(local);
  GaugeField& whole = const_cast<GaugeField&>(u);  // only read (to_whole = false)
  copy_block(local, whole, static_cast<unsigned char*>(out.data()), false);
  return out;
}

GaugeField gather_gauge(const GaugeField& local, comm::Communicator& comm, int root) {
  const Geometry& g = local.geometry();
  const Coords& grid = g.grid();
  const int nranks = grid[0] * grid[1] * grid[2] * grid[3];
  if (comm.size() != nranks)
    throw InputError("gather_gauge: communicator size: expected " + std::to_string(nranks) +
                     " (the process grid's volume), found " + std::to_string(comm.size()));
  if (root < 0 || root >= comm.size())
    throw InputError("gather_gauge: root " + std::to_string(root) + " out of range 0.." +
                     std::to_string(comm.size() - 1));
  GaugeField canon;
  if (!local.params().canonical()) {
    GaugeFieldParams p;
    p.geometry = g;
    const runtime::Exec ex = local.params().space == runtime::MemSpace::device
                                 ? runtime::cuda_exec(local.params().device)
                                 : runtime::cpu_exec();
    canon = converted(local, p, ex);
  }
  const GaugeField& src = local.params().canonical() ? local : canon;
  const std::size_t bytes = static_cast<std::size_t>(g.volume()) * kSiteBytes;
  constexpr int tag = 7301;
  if (comm.rank() != root) {
    comm.send(src.data(), bytes, root, tag);
    return GaugeField{};
  }
  GaugeField whole = GaugeField::canonical(Geometry(g.global_dims()));
  std::vector<unsigned char> block(bytes);
  for (int r = 0; r < comm.size(); ++r) {
    const Geometry gr = make_geometry(g.global_dims(), grid, r);
    if (r == root) {
      copy_block(gr, whole, static_cast<unsigned char*>(const_cast<void*>(src.data())), true);
    } else {
      comm.recv(block.data(), bytes, r, tag);
      copy_block(gr, whole, block.data(), true);
    }
  }
  return whole;
}

}  // namespace gluon::qcd
