// NCCL communicator: device buffers, bootstrapped over MPI. Stubs that throw without NCCL.
#include "gluon/comm/backends.h"
#include "gluon/runtime/error.h"

#if GLUON_HAVE_NCCL && GLUON_HAVE_MPI
#include <cuda_runtime.h>
#include <nccl.h>

#include "mpi_handle.h"
#endif

namespace gluon::comm {

#if GLUON_HAVE_NCCL && GLUON_HAVE_MPI

namespace {

void nccl_check(ncclResult_t r, const char* what) {
  if (r != ncclSuccess)
    throw DeviceError(std::string("NCCL: ") + what + " failed: " + ncclGetErrorString(r));
}
void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw DeviceError(std::string("CUDA: ") + what + " failed: " + cudaGetErrorString(e));
}

class NcclPending final : public Pending {
 public:
  NcclPending(void* stream, int device) {
    cuda_check(cudaSetDevice(device), "cudaSetDevice");
    cuda_check(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming), "cudaEventCreate");
    cuda_check(cudaEventRecord(event_, static_cast<cudaStream_t>(stream)), "cudaEventRecord");
  }
  // Dropping the handle does not wait: the transfers stay ordered on their stream, and CUDA
  // releases a recorded event once it completes. (Waiting here would stall the host, and with it
  // the launch of the next kernels, on every halo exchange.)
  ~NcclPending() override {
    if (event_) cudaEventDestroy(event_);
  }
  void wait() override { cuda_check(cudaEventSynchronize(event_), "cudaEventSynchronize"); }
  bool test() override {
    const cudaError_t e = cudaEventQuery(event_);
    if (e == cudaErrorNotReady) return false;
    cuda_check(e, "cudaEventQuery");
    return true;
  }

 private:
  cudaEvent_t event_ = nullptr;
};

class NcclCommunicator final : public Communicator {
 public:
  NcclCommunicator(std::unique_ptr<Communicator> host, int device)
      : host_(std::move(host)), device_(device) {
    auto& mpi = dynamic_cast<MpiCommunicator&>(*host_);
    ncclUniqueId id;
    if (mpi.rank() == 0) nccl_check(ncclGetUniqueId(&id), "ncclGetUniqueId");
    mpi.broadcast(&id, sizeof id, 0);
    cuda_check(cudaSetDevice(device_), "cudaSetDevice");
    nccl_check(ncclCommInitRank(&comm_, mpi.size(), id, mpi.rank()), "ncclCommInitRank");
  }
  ~NcclCommunicator() override {
    if (comm_) ncclCommDestroy(comm_);
  }

  CommBackend backend() const override { return CommBackend::nccl; }
  int rank() const override { return host_->rank(); }
  int size() const override { return host_->size(); }
  int local_rank() const override { return host_->local_rank(); }
  int local_size() const override { return host_->local_size(); }
  bool device_buffers() const override { return true; }

  void barrier() override { host_->barrier(); }
  void allreduce_sum(double* d, std::size_t n, Order o) override { host_->allreduce_sum(d, n, o); }
  void allreduce_max(double* d, std::size_t n) override { host_->allreduce_max(d, n); }
  void allreduce_min(double* d, std::size_t n) override { host_->allreduce_min(d, n); }
  void allreduce_sum(std::int64_t* d, std::size_t n) override { host_->allreduce_sum(d, n); }
  void allreduce_max(std::int64_t* d, std::size_t n) override { host_->allreduce_max(d, n); }
  void broadcast(void* d, std::size_t b, int root) override { host_->broadcast(d, b, root); }
  void allgather(const void* in, std::size_t b, void* out) override { host_->allgather(in, b, out); }

  void device_allreduce_sum(double* data, std::size_t n, void* stream) override {
    nccl_check(ncclAllReduce(data, data, n, ncclDouble, ncclSum, comm_,
                             static_cast<cudaStream_t>(stream)),
               "ncclAllReduce");
  }
  void device_allreduce_sum(float* data, std::size_t n, void* stream) override {
    nccl_check(ncclAllReduce(data, data, n, ncclFloat, ncclSum, comm_,
                             static_cast<cudaStream_t>(stream)),
               "ncclAllReduce");
  }

  void device_broadcast(void* data, std::size_t bytes, int root, void* stream) override {
    nccl_check(ncclBroadcast(data, data, bytes, ncclChar, root, comm_, static_cast<cudaStream_t>(stream)),
               "ncclBroadcast");
  }

  std::unique_ptr<Pending> exchange(std::span<const Transfer> batch, void* stream) override {
    cuda_check(cudaSetDevice(device_), "cudaSetDevice");
    auto s = static_cast<cudaStream_t>(stream);
    nccl_check(ncclGroupStart(), "ncclGroupStart");
    for (const Transfer& t : batch) {
      if (t.peer < 0 || t.peer >= size())
        throw InputError("NCCL exchange: peer rank " + std::to_string(t.peer) + " outside 0.." +
                         std::to_string(size() - 1));
      if (t.kind == Transfer::Kind::send)
        nccl_check(ncclSend(t.data, t.bytes, ncclChar, t.peer, comm_, s), "ncclSend");
      else
        nccl_check(ncclRecv(t.data, t.bytes, ncclChar, t.peer, comm_, s), "ncclRecv");
    }
    nccl_check(ncclGroupEnd(), "ncclGroupEnd");
    return std::make_unique<NcclPending>(stream, device_);
  }

  std::unique_ptr<Communicator> split(int colour, int key) override {
    return std::make_unique<NcclCommunicator>(host_->split(colour, key), device_);
  }

 private:
  std::unique_ptr<Communicator> host_;
  int device_;
  ncclComm_t comm_ = nullptr;
};

}  // namespace

std::unique_ptr<Communicator> make_nccl_communicator(Communicator& mpi, int device) {
  if (mpi.backend() != CommBackend::mpi)
    throw InputError("NCCL is bootstrapped over an mpi communicator; found " +
                     to_string(mpi.backend()));
  return std::make_unique<NcclCommunicator>(mpi.split(0, mpi.rank()), device);
}

#else

std::unique_ptr<Communicator> make_nccl_communicator(Communicator&, int) {
  throw InputError("this gluon was built without NCCL (needs the CUDA build, MPI and libnccl)");
}

#endif

}  // namespace gluon::comm
