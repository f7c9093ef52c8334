#pragma once
// Start-up and shut-down of the communication layer, and the world communicator.
//
// `auto` (the default) uses MPI when the process was started by an MPI launcher (mpirun/srun set
// OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK) and the build has MPI, else the single-process
// communicator: a plain `gluon ...` never touches MPI. `mpi` forces MPI (InputError when not
// built with it). NCCL communicators are made per device from the MPI world (nccl.h).
//
// Errors: fail_all() is what main() calls when a rank catches an error. Rank 0 prints the message;
// if every rank fails within a short grace period (the error was collective, e.g. a grid that does
// not divide the lattice) all ranks finalize cleanly and exit 1; otherwise the job is aborted so
// that no rank hangs in a collective the failed rank never reaches.
#include <string>

#include "gluon/comm/communicator.h"

namespace gluon::comm {

bool mpi_compiled();
bool nccl_compiled();
// True when an MPI launcher started this process (environment variables, see above).
bool launched_by_mpi();

class Environment {
 public:
  // backend: "auto", "single" or "mpi".
  Environment(int* argc, char*** argv, const std::string& backend = "auto");
  ~Environment();
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

  Communicator& world();
};

// The world communicator: the Environment's if one exists, else a single-process one.
Communicator& world();

// Reports `message` (rank 0 prints it; other ranks print it only when rank 0 did not fail too)
// and ends the process with a non-zero status on every rank, never hanging. Does not return.
[[noreturn]] void fail_all(const std::string& message, int status = 1);

}  // namespace gluon::comm
