#pragma once
// Factories of the communicators that need optional libraries. Each throws InputError naming the
// missing library when the build lacks it (mpi_compiled() / nccl_compiled() in environment.h).
#include <memory>

#include "gluon/comm/communicator.h"

namespace gluon::comm {

// MPI_COMM_WORLD (duplicated). MPI must be initialised (comm::Environment does it).
std::unique_ptr<Communicator> make_mpi_world();

// An NCCL communicator over the ranks of `mpi` (an mpi communicator), on CUDA device `device`
// (made current). Collective over `mpi`. Host collectives of the result go over a duplicate of
// `mpi`; exchange() takes device buffers and orders the batch on the given stream. NCCL has no
// tags: transfers between one pair of ranks are matched in posting order.
std::unique_ptr<Communicator> make_nccl_communicator(Communicator& mpi, int device);

}  // namespace gluon::comm
