#pragma once
// Running a command over MPI ranks (mpirun -np N gluon solve|bench ... --grid X,Y,Z,T):
// the process grid (given or chosen by least surface), one GPU per rank
// (the node-local rank picks it), the halo policy flag, and "only rank 0 prints". This rank's
// block and its part of a whole-lattice field come from qcd::make_geometry / qcd::scatter_gauge.
#include <string>

#include "gluon/comm/process_grid.h"
#include "gluon/qcd/geometry.h"
#include "gluon/runtime/exec.h"

namespace gluon::apps {

// --backend for this rank: with several ranks on a CUDA backend, device = node-local rank, and
// more ranks on a node than GPUs is an InputError (the same on every rank: a collective error).
runtime::Exec exec_for_rank(const std::string& backend);
// --grid: "" or "auto" chooses the grid of world().size() ranks with the least surface; a given
// grid must divide the lattice and hold exactly world().size() ranks (InputError naming both).
comm::Grid4 grid_for(const qcd::Coords& lattice, const std::string& grid_flag);
// --halo auto|overlap|no-overlap: sets the default halo policy.
void apply_halo_flag(const std::string& policy);
bool is_root();
std::string grid_text(const comm::Grid4& g);

}  // namespace gluon::apps
