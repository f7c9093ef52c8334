#include "gluon/comm/environment.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "gluon/comm/backends.h"
#include "gluon/runtime/error.h"

#if GLUON_HAVE_MPI
#include <mpi.h>
#endif

namespace gluon::comm {

namespace {
std::unique_ptr<Communicator> g_world;
bool g_mpi_started = false;
#if GLUON_HAVE_MPI
MPI_Comm g_error_comm = MPI_COMM_NULL;  // private to fail_all, so it never meets user traffic
#endif
}  // namespace

bool mpi_compiled() { return GLUON_HAVE_MPI != 0; }
bool nccl_compiled() { return GLUON_HAVE_NCCL != 0 && GLUON_HAVE_MPI != 0; }

bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"})
    if (std::getenv(v) != nullptr) return true;
  return false;
}

Environment::Environment(int* argc, char*** argv, const std::string& backend) {
  if (backend != "auto" && backend != "single" && backend != "mpi")
    throw InputError("--comm: expected auto, single or mpi, found '" + backend + "'");
  const bool want_mpi = backend == "mpi" || (backend == "auto" && launched_by_mpi() && mpi_compiled());
  if (want_mpi) {
#if GLUON_HAVE_MPI
    int provided = 0;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    g_mpi_started = true;
    MPI_Comm_dup(MPI_COMM_WORLD, &g_error_comm);
    g_world = make_mpi_world();
#else
    (void)argc;
    (void)argv;
    throw InputError("--comm mpi: this gluon was built without MPI (configure with -DGLUON_MPI=ON)");
#endif
  } else {
    if (launched_by_mpi() && !mpi_compiled())
      std::fprintf(stderr,
                   "gluon: warning: started by an MPI launcher but built without MPI; every "
                   "process runs alone\n");
    g_world = make_single_communicator();
  }
}

Environment::~Environment() {
  g_world.reset();
#if GLUON_HAVE_MPI
  if (g_mpi_started) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) {
      if (g_error_comm != MPI_COMM_NULL) MPI_Comm_free(&g_error_comm);
      MPI_Finalize();
    }
    g_mpi_started = false;
  }
#endif
}

Communicator& Environment::world() { return comm::world(); }

Communicator& world() {
  if (!g_world) g_world = make_single_communicator();
  return *g_world;
}

void fail_all(const std::string& message, int status) {
  const int rank = g_world ? g_world->rank() : 0;
  const int size = g_world ? g_world->size() : 1;
  if (size == 1 || !g_mpi_started) {
    std::fprintf(stderr, "gluon: error: %s\n", message.c_str());
    std::exit(status);
  }
#if GLUON_HAVE_MPI
  if (rank == 0) std::fprintf(stderr, "gluon: error: %s\n", message.c_str());
  std::fflush(stderr);
  // Did every rank fail? Count failures with a non-blocking reduction on a private communicator,
  // giving the others a grace period to arrive.
  int one = 1, failed = 0;
  MPI_Request req;
  MPI_Iallreduce(&one, &failed, 1, MPI_INT, MPI_SUM, g_error_comm, &req);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  int done = 0;
  while (!done && std::chrono::steady_clock::now() < deadline) {
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (!done) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (done && failed == size) {  // a collective error: every rank knows; leave cleanly
    g_world.reset();
    MPI_Comm_free(&g_error_comm);
    MPI_Finalize();
    g_mpi_started = false;
    std::exit(status);
  }
  // Some rank did not fail (it may wait in a collective forever): say who failed, abort all.
  if (rank != 0) std::fprintf(stderr, "gluon: error on rank %d: %s\n", rank, message.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, status);
#endif
  std::exit(status);
}

}  // namespace gluon::comm
