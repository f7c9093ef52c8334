#pragma once
// The MPI communicator class, shared by the MPI and NCCL implementations (private to src/comm).
#include <mpi.h>

#include "gluon/comm/communicator.h"

namespace gluon::comm {

// Throws Error with MPI's text for `code` unless it is MPI_SUCCESS.
void mpi_check(int code, const char* what);

class MpiCommunicator final : public Communicator {
 public:
  explicit MpiCommunicator(MPI_Comm comm);  // takes ownership (freed on destruction)
  ~MpiCommunicator() override;

  CommBackend backend() const override { return CommBackend::mpi; }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_rank() const override { return local_rank_; }
  int local_size() const override { return local_size_; }
  MPI_Comm native() const { return comm_; }

  void barrier() override;
  void allreduce_sum(double* data, std::size_t n, Order order) override;
  void allreduce_max(double* data, std::size_t n) override;
  void allreduce_min(double* data, std::size_t n) override;
  void allreduce_sum(std::int64_t* data, std::size_t n) override;
  void allreduce_max(std::int64_t* data, std::size_t n) override;
  void broadcast(void* data, std::size_t bytes, int root) override;
  void allgather(const void* in, std::size_t bytes, void* out) override;
  std::unique_ptr<Pending> exchange(std::span<const Transfer> batch, void* stream) override;
  std::unique_ptr<Communicator> split(int colour, int key) override;

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
};

}  // namespace gluon::comm
