// MPI communicator (host buffers). Compiled to stubs that throw when the build has no MPI.
#include "gluon/comm/backends.h"
#include "gluon/runtime/error.h"

#if GLUON_HAVE_MPI
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <numeric>

#include "mpi_handle.h"
#endif

namespace gluon::comm {

#if GLUON_HAVE_MPI

void mpi_check(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(code, text, &len);
  throw Error(std::string("MPI: ") + what + " failed: " + std::string(text, len));
}

namespace {

// Messages above this are sent in pieces (MPI counts are int); same tag, so MPI's
// non-overtaking rule keeps the pieces in order.
constexpr std::size_t kChunk = std::size_t{1} << 30;

class MpiPending final : public Pending {
 public:
  std::vector<MPI_Request> requests;
  void wait() override {
    if (requests.empty()) return;
    mpi_check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE),
              "MPI_Waitall");
    requests.clear();
  }
  bool test() override {
    if (requests.empty()) return true;
    int flag = 0;
    mpi_check(MPI_Testall(static_cast<int>(requests.size()), requests.data(), &flag,
                          MPI_STATUSES_IGNORE),
              "MPI_Testall");
    if (flag) requests.clear();
    return flag != 0;
  }
  ~MpiPending() override {
    // A batch dropped without wait() would leave MPI writing into freed memory: complete it.
    if (!requests.empty())
      MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  }
};

}  // namespace

MpiCommunicator::MpiCommunicator(MPI_Comm comm) : comm_(comm) {
  mpi_check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
  mpi_check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
  MPI_Comm node;
  mpi_check(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node),
            "MPI_Comm_split_type");
  mpi_check(MPI_Comm_rank(node, &local_rank_), "MPI_Comm_rank");
  mpi_check(MPI_Comm_size(node, &local_size_), "MPI_Comm_size");
  MPI_Comm_free(&node);
}

MpiCommunicator::~MpiCommunicator() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

void MpiCommunicator::barrier() { mpi_check(MPI_Barrier(comm_), "MPI_Barrier"); }

void MpiCommunicator::allreduce_sum(double* data, std::size_t n, Order order) {
  if (n == 0) return;
  if (order == Order::fast) {
    mpi_check(MPI_Allreduce(MPI_IN_PLACE, data, static_cast<int>(n), MPI_DOUBLE, MPI_SUM, comm_),
              "MPI_Allreduce");
    return;
  }
  // Reproducible: every rank adds the same values in the same (rank) order.
  std::vector<double> all(n * static_cast<std::size_t>(size_));
  mpi_check(MPI_Allgather(data, static_cast<int>(n), MPI_DOUBLE, all.data(), static_cast<int>(n),
                          MPI_DOUBLE, comm_),
            "MPI_Allgather");
  for (std::size_t i = 0; i < n; ++i) {
    double s = 0;
    for (int r = 0; r < size_; ++r) s += all[static_cast<std::size_t>(r) * n + i];
    data[i] = s;
  }
}

void MpiCommunicator::allreduce_max(double* data, std::size_t n) {
  if (n)
    mpi_check(MPI_Allreduce(MPI_IN_PLACE, data, static_cast<int>(n), MPI_DOUBLE, MPI_MAX, comm_),
              "MPI_Allreduce");
}
void MpiCommunicator::allreduce_min(double* data, std::size_t n) {
  if (n)
    mpi_check(MPI_Allreduce(MPI_IN_PLACE, data, static_cast<int>(n), MPI_DOUBLE, MPI_MIN, comm_),
              "MPI_Allreduce");
}
void MpiCommunicator::allreduce_sum(std::int64_t* data, std::size_t n) {
  if (n)
    mpi_check(MPI_Allreduce(MPI_IN_PLACE, data, static_cast<int>(n), MPI_INT64_T, MPI_SUM, comm_),
              "MPI_Allreduce");
}
void MpiCommunicator::allreduce_max(std::int64_t* data, std::size_t n) {
  if (n)
    mpi_check(MPI_Allreduce(MPI_IN_PLACE, data, static_cast<int>(n), MPI_INT64_T, MPI_MAX, comm_),
              "MPI_Allreduce");
}

void MpiCommunicator::broadcast(void* data, std::size_t bytes, int root) {
  auto* p = static_cast<char*>(data);
  for (std::size_t off = 0; off < bytes; off += kChunk) {
    const int count = static_cast<int>(std::min(kChunk, bytes - off));
    mpi_check(MPI_Bcast(p + off, count, MPI_BYTE, root, comm_), "MPI_Bcast");
  }
}

void MpiCommunicator::allgather(const void* in, std::size_t bytes, void* out) {
  if (bytes > static_cast<std::size_t>(INT_MAX))
    throw InputError("MPI allgather: blocks above 2 GiB are not supported (asked " +
                     std::to_string(bytes) + " bytes)");
  mpi_check(MPI_Allgather(in, static_cast<int>(bytes), MPI_BYTE, out, static_cast<int>(bytes),
                          MPI_BYTE, comm_),
            "MPI_Allgather");
}

std::unique_ptr<Pending> MpiCommunicator::exchange(std::span<const Transfer> batch, void*) {
  auto pending = std::make_unique<MpiPending>();
  // Receives first, so that matching sends find them posted.
  for (int pass = 0; pass < 2; ++pass) {
    for (const Transfer& t : batch) {
      const bool is_recv = t.kind == Transfer::Kind::recv;
      if (is_recv != (pass == 0)) continue;
      if (t.peer < 0 || t.peer >= size_)
        throw InputError("MPI exchange: peer rank " + std::to_string(t.peer) + " outside 0.." +
                         std::to_string(size_ - 1));
      auto* p = static_cast<char*>(t.data);
      std::size_t off = 0;
      do {
        const int count = static_cast<int>(std::min(kChunk, t.bytes - off));
        MPI_Request req;
        if (is_recv)
          mpi_check(MPI_Irecv(p + off, count, MPI_BYTE, t.peer, t.tag, comm_, &req), "MPI_Irecv");
        else
          mpi_check(MPI_Isend(p + off, count, MPI_BYTE, t.peer, t.tag, comm_, &req), "MPI_Isend");
        pending->requests.push_back(req);
        off += static_cast<std::size_t>(count);
      } while (off < t.bytes);
    }
  }
  return pending;
}

std::unique_ptr<Communicator> MpiCommunicator::split(int colour, int key) {
  MPI_Comm child;
  mpi_check(MPI_Comm_split(comm_, colour, key, &child), "MPI_Comm_split");
  return std::make_unique<MpiCommunicator>(child);
}

std::unique_ptr<Communicator> make_mpi_world() {
  MPI_Comm dup;
  mpi_check(MPI_Comm_dup(MPI_COMM_WORLD, &dup), "MPI_Comm_dup");
  return std::make_unique<MpiCommunicator>(dup);
}

#else

std::unique_ptr<Communicator> make_mpi_world() {
  throw InputError("this gluon was built without MPI (configure with -DGLUON_MPI=ON, "
                   "needs libopenmpi-dev)");
}

#endif

}  // namespace gluon::comm
