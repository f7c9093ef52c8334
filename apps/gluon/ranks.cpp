#include "ranks.h"

#include <fmt/format.h>

#include "gluon/comm/environment.h"
#include "gluon/qcd/dirac/halo.h"
#include "gluon/runtime/error.h"

namespace gluon::apps {

runtime::Exec exec_for_rank(const std::string& backend) {
  runtime::Exec ex = runtime::exec_from_name(backend);
  comm::Communicator& w = comm::world();
  if (!ex.on_device() || w.size() == 1) return ex;
  const int ndev = runtime::cuda_device_count();
  if (w.local_size() > ndev)
    throw InputError(fmt::format("{} ranks run on this node but it has {} GPU{}: start one rank per GPU, "
                                 "or use --backend cpu",
                                 w.local_size(), ndev, ndev == 1 ? "" : "s"));
  return runtime::cuda_exec(w.local_rank());
}

std::string grid_text(const comm::Grid4& g) { return comm::ProcessGrid(g, 0).to_string(); }

comm::Grid4 grid_for(const qcd::Coords& lattice, const std::string& grid_flag) {
  const comm::Grid4 lat{lattice[0], lattice[1], lattice[2], lattice[3]};
  const int n = comm::world().size();
  if (grid_flag.empty() || grid_flag == "auto") return comm::choose_grid(lat, n);
  const comm::Grid4 g = comm::parse_grid(grid_flag);
  if (g[0] * g[1] * g[2] * g[3] != n)
    throw InputError(fmt::format("--grid {} has {} blocks, but {} rank{} run (mpirun -np)", grid_text(g),
                                 g[0] * g[1] * g[2] * g[3], n, n == 1 ? "" : "s"));
  comm::check_grid(lat, g);
  return g;
}

void apply_halo_flag(const std::string& policy) { qcd::set_default_halo_policy(qcd::halo_policy_from_name(policy)); }

bool is_root() { return comm::world().rank() == 0; }

}  // namespace gluon::apps
