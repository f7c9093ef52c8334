#pragma once
// The communication layer (DESIGN.md "Communication"): one interface, three implementations.
//
//   single  one process, no dependency. Point-to-point messages to oneself are matched by tag
//           and copied (host or device memory alike); collectives are identities.
//   mpi     host buffers over MPI (the GPU machine's OpenMPI is not CUDA-aware: stage device
//           data through pinned host memory, or use nccl).
//   nccl    device buffers over NCCL, bootstrapped over MPI; host collectives still go over MPI.
//
// Two kinds of operations:
//   host collectives   barrier, allreduce (sum/max/min) of doubles/int64, broadcast, allgather,
//                      on host memory, blocking, every rank calls them in the same order.
//   transfers          exchange(): a batch of sends and receives posted together and completed by
//                      wait() on the returned handle. With device_buffers() true (nccl) the
//                      buffers are device memory and the batch is ordered on `stream`; otherwise
//                      they are host memory. Every ring pass (G4) and halo exchange (qcd) is one
//                      exchange() per step. Blocking send()/recv() wrap it for code (Linpack)
//                      that wants them.
//
// Reproducible sums: allreduce_sum(..., Order::reproducible) gathers every rank's values and adds
// them in rank order on every rank, so the result does not depend on MPI's reduction tree.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace gluon::comm {

enum class CommBackend { single, mpi, nccl };
std::string to_string(CommBackend b);
// "single", "mpi", "nccl"; InputError naming the text otherwise.
CommBackend comm_backend_from_name(const std::string& name);

enum class Order { fast, reproducible };

// One message of an exchange() batch. `peer` is the destination (send) or source (receive).
struct Transfer {
  enum class Kind { send, recv };
  Kind kind;
  void* data;  // const for sends; the interface keeps one pointer type
  std::size_t bytes;
  int peer;
  int tag = 0;

  static Transfer send(const void* data, std::size_t bytes, int dest, int tag = 0) {
    return Transfer{Kind::send, const_cast<void*>(data), bytes, dest, tag};
  }
  static Transfer recv(void* data, std::size_t bytes, int source, int tag = 0) {
    return Transfer{Kind::recv, data, bytes, source, tag};
  }
};

// Completion of one exchange() batch.
class Pending {
 public:
  virtual ~Pending() = default;
  // Blocks until every transfer of the batch is complete (for nccl: complete on the device).
  virtual void wait() = 0;
  // True when complete; never blocks.
  virtual bool test() = 0;
};

class Communicator {
 public:
  virtual ~Communicator() = default;

  virtual CommBackend backend() const = 0;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Rank among the processes on this node, and their number (chooses the GPU).
  virtual int local_rank() const = 0;
  virtual int local_size() const = 0;
  // True when exchange() takes device pointers (nccl).
  virtual bool device_buffers() const { return false; }
  // "mpi rank 3 of 8" and the like, for messages.
  std::string describe() const;

  // ---- host collectives ----
  virtual void barrier() = 0;
  virtual void allreduce_sum(double* data, std::size_t n, Order order = Order::fast) = 0;
  virtual void allreduce_max(double* data, std::size_t n) = 0;
  virtual void allreduce_min(double* data, std::size_t n) = 0;
  virtual void allreduce_sum(std::int64_t* data, std::size_t n) = 0;
  virtual void allreduce_max(std::int64_t* data, std::size_t n) = 0;
  virtual void broadcast(void* data, std::size_t bytes, int root) = 0;
  // out receives size() * bytes: rank r's block at r * bytes.
  virtual void allgather(const void* in, std::size_t bytes, void* out) = 0;

  double sum(double v, Order order = Order::fast) {
    allreduce_sum(&v, 1, order);
    return v;
  }
  double max(double v) {
    allreduce_max(&v, 1);
    return v;
  }
  std::int64_t sum(std::int64_t v) {
    allreduce_sum(&v, 1);
    return v;
  }
  std::int64_t max(std::int64_t v) {
    allreduce_max(&v, 1);
    return v;
  }
  // True on every rank when `flag` is true on any rank (for collective error handling).
  bool any(bool flag) { return max(std::int64_t{flag ? 1 : 0}) != 0; }

  // ---- device collectives (nccl only; DeviceError elsewhere) ----
  // In-place sum over ranks of n doubles/floats in device memory, ordered on `stream`
  // (cudaStream_t; nullptr = legacy default stream).
  virtual void device_allreduce_sum(double* data, std::size_t n, void* stream);
  virtual void device_allreduce_sum(float* data, std::size_t n, void* stream);
  // `bytes` of device memory from `root` to every rank, in place, ordered on `stream`.
  virtual void device_broadcast(void* data, std::size_t bytes, int root, void* stream);

  // ---- transfers ----
  // Posts every transfer of the batch; wait() on the result completes them. `stream` orders
  // device transfers (nccl) and is ignored otherwise.
  virtual std::unique_ptr<Pending> exchange(std::span<const Transfer> batch,
                                            void* stream = nullptr) = 0;
  void send(const void* data, std::size_t bytes, int dest, int tag = 0);
  void recv(void* data, std::size_t bytes, int source, int tag = 0);
  // Send to `dest` and receive from `source` at once (the step of a ring or a halo exchange).
  void sendrecv(const void* send_data, std::size_t send_bytes, int dest, void* recv_data,
                std::size_t recv_bytes, int source, int tag = 0);

  // ---- sub-communicators ----
  // Ranks with equal colour form a new communicator, ordered by key (then by rank). Collective.
  // The child has this communicator's backend (an nccl parent gives an nccl child).
  virtual std::unique_ptr<Communicator> split(int colour, int key) = 0;
};

// A communicator of one process (always available).
std::unique_ptr<Communicator> make_single_communicator();

}  // namespace gluon::comm
