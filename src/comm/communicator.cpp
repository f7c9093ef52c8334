#include "gluon/comm/communicator.h"

#include <algorithm>
#include <cstring>
#include <deque>

#include "gluon/runtime/error.h"
#include "gluon/runtime/memory.h"

namespace gluon::comm {

std::string to_string(CommBackend b) {
  switch (b) {
    case CommBackend::single: return "single";
    case CommBackend::mpi: return "mpi";
    case CommBackend::nccl: return "nccl";
  }
  return "?";
}

CommBackend comm_backend_from_name(const std::string& name) {
  if (name == "single") return CommBackend::single;
  if (name == "mpi") return CommBackend::mpi;
  if (name == "nccl") return CommBackend::nccl;
  throw InputError("communicator: expected single, mpi or nccl, found '" + name + "'");
}

std::string Communicator::describe() const {
  return to_string(backend()) + " rank " + std::to_string(rank()) + " of " + std::to_string(size());
}

void Communicator::device_allreduce_sum(double*, std::size_t, void*) {
  throw DeviceError("device_allreduce_sum needs the nccl communicator; this one is " +
                    to_string(backend()));
}
void Communicator::device_allreduce_sum(float*, std::size_t, void*) {
  throw DeviceError("device_allreduce_sum needs the nccl communicator; this one is " +
                    to_string(backend()));
}

void Communicator::device_broadcast(void*, std::size_t, int, void*) {
  throw DeviceError("device_broadcast needs the nccl communicator; this one is " + to_string(backend()));
}

void Communicator::send(const void* data, std::size_t bytes, int dest, int tag) {
  const Transfer t = Transfer::send(data, bytes, dest, tag);
  exchange(std::span<const Transfer>(&t, 1))->wait();
}

void Communicator::recv(void* data, std::size_t bytes, int source, int tag) {
  const Transfer t = Transfer::recv(data, bytes, source, tag);
  exchange(std::span<const Transfer>(&t, 1))->wait();
}

void Communicator::sendrecv(const void* send_data, std::size_t send_bytes, int dest,
                            void* recv_data, std::size_t recv_bytes, int source, int tag) {
  const Transfer t[2] = {Transfer::recv(recv_data, recv_bytes, source, tag),
                         Transfer::send(send_data, send_bytes, dest, tag)};
  exchange(std::span<const Transfer>(t, 2))->wait();
}

namespace {

class DonePending final : public Pending {
 public:
  explicit DonePending(void* stream) : stream_(stream) {}
  void wait() override {
    // Device copies were queued on the stream: complete means complete on the device.
    if (stream_ != nullptr || runtime::cuda_available()) runtime::synchronize(exec_of(stream_));
  }
  bool test() override {
    wait();
    return true;
  }

 private:
  static runtime::Exec exec_of(void* stream) {
    runtime::Exec ex = runtime::cuda_available() ? runtime::cuda_exec() : runtime::cpu_exec();
    ex.stream = stream;
    return ex;
  }
  void* stream_;
};

// One process: a message to oneself is matched with a receive of the same tag, in posting order.
// A send with no receive waiting is copied into a mailbox (so send(); recv(); works).
class SingleCommunicator final : public Communicator {
 public:
  CommBackend backend() const override { return CommBackend::single; }
  int rank() const override { return 0; }
  int size() const override { return 1; }
  int local_rank() const override { return 0; }
  int local_size() const override { return 1; }
  bool device_buffers() const override { return runtime::cuda_available(); }

  void barrier() override {}
  void allreduce_sum(double*, std::size_t, Order) override {}
  void allreduce_max(double*, std::size_t) override {}
  void allreduce_min(double*, std::size_t) override {}
  void allreduce_sum(std::int64_t*, std::size_t) override {}
  void allreduce_max(std::int64_t*, std::size_t) override {}
  void broadcast(void*, std::size_t, int root) override { check_peer(root, "broadcast root"); }
  void allgather(const void* in, std::size_t bytes, void* out) override {
    if (in != out && bytes) std::memmove(out, in, bytes);
  }
  void device_allreduce_sum(double*, std::size_t, void*) override {}
  void device_allreduce_sum(float*, std::size_t, void*) override {}
  void device_broadcast(void*, std::size_t, int, void*) override {}

  std::unique_ptr<Pending> exchange(std::span<const Transfer> batch, void* stream) override {
    std::vector<const Transfer*> recvs;
    for (const Transfer& t : batch) {
      check_peer(t.peer, t.kind == Transfer::Kind::send ? "send destination" : "receive source");
      if (t.kind == Transfer::Kind::recv) recvs.push_back(&t);
    }
    // Receives are served first from earlier unmatched sends, then from this batch's sends.
    std::vector<bool> used(recvs.size(), false);
    for (std::size_t i = 0; i < recvs.size(); ++i) {
      auto it = std::find_if(mailbox_.begin(), mailbox_.end(),
                             [&](const Mail& m) { return m.tag == recvs[i]->tag; });
      if (it == mailbox_.end()) continue;
      deliver(it->data.data(), it->data.size(), *recvs[i], stream);
      mailbox_.erase(it);
      used[i] = true;
    }
    for (const Transfer& t : batch) {
      if (t.kind != Transfer::Kind::send) continue;
      bool matched = false;
      for (std::size_t i = 0; i < recvs.size() && !matched; ++i) {
        if (used[i] || recvs[i]->tag != t.tag) continue;
        deliver(t.data, t.bytes, *recvs[i], stream);
        used[i] = matched = true;
      }
      if (!matched) {
        Mail m{t.tag, std::vector<unsigned char>(t.bytes)};
        runtime::copy_bytes_any_async(m.data.data(), t.data, t.bytes, stream);
        DonePending(stream).wait();
        mailbox_.push_back(std::move(m));
      }
    }
    for (std::size_t i = 0; i < recvs.size(); ++i)
      if (!used[i])
        throw InputError("single communicator: a receive (tag " + std::to_string(recvs[i]->tag) +
                         ") has no matching send; with one process every message goes to oneself");
    return std::make_unique<DonePending>(stream);
  }

  std::unique_ptr<Communicator> split(int, int) override {
    return std::make_unique<SingleCommunicator>();
  }

 private:
  struct Mail {
    int tag;
    std::vector<unsigned char> data;
  };
  static void check_peer(int peer, const char* what) {
    if (peer != 0)
      throw InputError(std::string("single communicator: ") + what + ": expected rank 0, found " +
                       std::to_string(peer));
  }
  static void deliver(const void* src, std::size_t bytes, const Transfer& r, void* stream) {
    if (bytes > r.bytes)
      throw InputError("single communicator: message of " + std::to_string(bytes) +
                       " bytes into a receive of " + std::to_string(r.bytes));
    runtime::copy_bytes_any_async(r.data, src, bytes, stream);
  }
  std::deque<Mail> mailbox_;
};

}  // namespace

std::unique_ptr<Communicator> make_single_communicator() {
  return std::make_unique<SingleCommunicator>();
}

}  // namespace gluon::comm
