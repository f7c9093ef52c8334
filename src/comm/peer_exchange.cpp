// CUDA IPC face exchange (comm/peer_exchange.h).
#include "gluon/comm/peer_exchange.h"

#include <algorithm>
#include <cstring>

#include "gluon/runtime/error.h"

#if GLUON_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace gluon::comm {

#if GLUON_HAVE_CUDA

namespace {

constexpr int kMaxSlots = 4;
// Tags of this exchange's own messages (on a communicator split off for it): setup messages
// 2 tag (receiver -> sender: buffer handles) and 2 tag + 1 (sender -> receiver: event handles),
// then per post one note of the slot at kNoteTag + tag.
constexpr int kNoteTag = 1 << 14;

// One transfer's setup message. The raw pointers serve a transfer to this process itself, for
// which CUDA refuses to open its own IPC handles.
struct Handles {
  cudaIpcMemHandle_t mem[kMaxSlots];
  cudaIpcEventHandle_t event[kMaxSlots];
  void* ptr[kMaxSlots];
  void* event_ptr[kMaxSlots];
};

std::string cuda_what(cudaError_t e, const char* what) {
  return std::string(what) + ": " + cudaGetErrorString(e);
}
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw DeviceError("CUDA IPC face exchange: " + cuda_what(e, what));
}

class IpcExchange final : public PeerExchange {
 public:
  IpcExchange(std::unique_ptr<Communicator> host, int device, int slots)
      : host_(std::move(host)), device_(device), slots_(slots) {}

  ~IpcExchange() override {
    cudaSetDevice(device_);
    try {
      for (auto& p : pending_) p->wait();
    } catch (...) {
    }
    for (Send& s : sends_)
      for (int k = 0; k < slots_; ++k) {
        if (s.opened[k]) cudaIpcCloseMemHandle(s.dst[k]);
        if (s.event[k]) cudaEventDestroy(s.event[k]);
      }
    for (Recv& r : recvs_)
      for (int k = 0; k < slots_; ++k)
        if (r.imported[k] && r.event[k]) cudaEventDestroy(r.event[k]);
  }

  int slots() const override { return slots_; }

  // Setup in two steps, each returning an empty string on success, else what failed; the caller
  // agrees on the outcome across ranks after each (no rank may be left waiting in connect()).
  // prepare: this rank's events and buffer handles.
  std::string prepare(const std::vector<std::vector<Transfer>>& slot_batches) {
    check(cudaSetDevice(device_), "cudaSetDevice");
    const std::vector<Transfer>& first = slot_batches.front();
    for (std::size_t i = 0; i < first.size(); ++i) {
      const Transfer& t = first[i];
      if (t.kind == Transfer::Kind::send) {
        Send s;
        s.data = t.data;
        s.bytes = t.bytes;
        s.peer = t.peer;
        s.tag = t.tag;
        sends_.push_back(s);
      } else {
        Recv r;
        r.peer = t.peer;
        r.tag = t.tag;
        for (int k = 0; k < slots_; ++k) {
          const Transfer& tk = slot_batches[static_cast<std::size_t>(k)][i];
          if (tk.kind != Transfer::Kind::recv || tk.peer != t.peer || tk.tag != t.tag)
            throw InputError("peer exchange: slot " + std::to_string(k) + " lists other transfers than slot 0");
          r.data[k] = tk.data;
        }
        recvs_.push_back(r);
      }
    }
    // Our half of each setup message.
    out_s_.resize(sends_.size());
    out_r_.resize(recvs_.size());
    auto& out_s = out_s_;
    auto& out_r = out_r_;
    for (std::size_t i = 0; i < sends_.size(); ++i) {
      Send& s = sends_[i];
      std::memset(&out_s[i], 0, sizeof(Handles));
      for (int k = 0; k < slots_; ++k) {
        check(cudaEventCreateWithFlags(&s.event[k], cudaEventDisableTiming | cudaEventInterprocess),
              "cudaEventCreate(interprocess)");
        check(cudaIpcGetEventHandle(&out_s[i].event[k], s.event[k]), "cudaIpcGetEventHandle");
        out_s[i].event_ptr[k] = s.event[k];
      }
    }
    for (std::size_t j = 0; j < recvs_.size(); ++j) {
      std::memset(&out_r[j], 0, sizeof(Handles));
      for (int k = 0; k < slots_; ++k) {
        check(cudaIpcGetMemHandle(&out_r[j].mem[k], recvs_[j].data[k]), "cudaIpcGetMemHandle");
        out_r[j].ptr[k] = recvs_[j].data[k];
      }
    }
    return {};
  }

  // connect: swap the setup messages with the peers and open their buffers and events.
  std::string connect() {
    check(cudaSetDevice(device_), "cudaSetDevice");
    const int me = host_->rank();
    const auto& out_s = out_s_;
    const auto& out_r = out_r_;
    std::vector<Handles> in_s(sends_.size()), in_r(recvs_.size());
    std::vector<Transfer> batch;
    for (std::size_t i = 0; i < sends_.size(); ++i) {
      batch.push_back(Transfer::recv(&in_s[i], sizeof(Handles), sends_[i].peer, 2 * sends_[i].tag));
      batch.push_back(Transfer::send(&out_s[i], sizeof(Handles), sends_[i].peer, 2 * sends_[i].tag + 1));
    }
    for (std::size_t j = 0; j < recvs_.size(); ++j) {
      batch.push_back(Transfer::recv(&in_r[j], sizeof(Handles), recvs_[j].peer, 2 * recvs_[j].tag + 1));
      batch.push_back(Transfer::send(&out_r[j], sizeof(Handles), recvs_[j].peer, 2 * recvs_[j].tag));
    }
    host_->exchange(batch)->wait();
    // Open the peers' buffers and events.
    for (std::size_t i = 0; i < sends_.size(); ++i) {
      Send& s = sends_[i];
      for (int k = 0; k < slots_; ++k) {
        if (s.peer == me) {
          s.dst[k] = in_s[i].ptr[k];
          continue;
        }
        const cudaError_t e = cudaIpcOpenMemHandle(&s.dst[k], in_s[i].mem[k], cudaIpcMemLazyEnablePeerAccess);
        if (e != cudaSuccess) {
          cudaGetLastError();
          return cuda_what(e, "cudaIpcOpenMemHandle of a peer's face buffer");
        }
        s.opened[k] = true;
      }
    }
    for (std::size_t j = 0; j < recvs_.size(); ++j) {
      Recv& r = recvs_[j];
      for (int k = 0; k < slots_; ++k) {
        if (r.peer == me) {
          r.event[k] = static_cast<cudaEvent_t>(in_r[j].event_ptr[k]);
          continue;
        }
        const cudaError_t e = cudaIpcOpenEventHandle(&r.event[k], in_r[j].event[k]);
        if (e != cudaSuccess) {
          cudaGetLastError();
          return cuda_what(e, "cudaIpcOpenEventHandle of a peer's event");
        }
        r.imported[k] = true;
      }
    }
    note_out_.assign(sends_.size(), 0);
    note_in_.assign(recvs_.size(), 0);
    return {};
  }

  void post(int slot, void* stream) override {
    check_slot(slot);
    check(cudaSetDevice(device_), "cudaSetDevice");
    auto st = static_cast<cudaStream_t>(stream);
    std::vector<Transfer> notes;
    for (std::size_t i = 0; i < sends_.size(); ++i) {
      Send& s = sends_[i];
      check(cudaMemcpyAsync(s.dst[slot], s.data, s.bytes, cudaMemcpyDeviceToDevice, st), "cudaMemcpyAsync to a peer");
      check(cudaEventRecord(s.event[slot], st), "cudaEventRecord");
      if (s.peer == host_->rank()) continue;  // this process waits on its own event, in order
      note_out_[i] = slot;
      notes.push_back(Transfer::send(&note_out_[i], sizeof(int), s.peer, kNoteTag + s.tag));
    }
    if (!notes.empty()) pending_.push_back(host_->exchange(notes));
  }

  void wait(int slot, void* stream) override {
    check_slot(slot);
    std::vector<Transfer> notes;
    for (std::size_t j = 0; j < recvs_.size(); ++j)
      if (recvs_[j].peer != host_->rank())
        notes.push_back(Transfer::recv(&note_in_[j], sizeof(int), recvs_[j].peer, kNoteTag + recvs_[j].tag));
    if (!notes.empty()) host_->exchange(notes)->wait();
    for (auto& p : pending_) p->wait();  // our notes of the last post (eager: already gone)
    pending_.clear();
    check(cudaSetDevice(device_), "cudaSetDevice");
    for (std::size_t j = 0; j < recvs_.size(); ++j) {
      if (recvs_[j].peer != host_->rank() && note_in_[j] != slot)
        throw Error("peer exchange: rank " + std::to_string(recvs_[j].peer) + " posted slot " +
                    std::to_string(note_in_[j]) + " while this rank waits for slot " + std::to_string(slot) +
                    " (the ranks ran different numbers of exchanges)");
      check(cudaStreamWaitEvent(static_cast<cudaStream_t>(stream), recvs_[j].event[slot], 0), "cudaStreamWaitEvent");
    }
  }

 private:
  struct Send {
    const void* data = nullptr;
    std::size_t bytes = 0;
    int peer = 0, tag = 0;
    void* dst[kMaxSlots] = {};
    bool opened[kMaxSlots] = {};
    cudaEvent_t event[kMaxSlots] = {};
  };
  struct Recv {
    int peer = 0, tag = 0;
    void* data[kMaxSlots] = {};
    cudaEvent_t event[kMaxSlots] = {};
    bool imported[kMaxSlots] = {};
  };
  void check_slot(int slot) const {
    if (slot < 0 || slot >= slots_)
      throw Error("peer exchange: slot " + std::to_string(slot) + " outside 0.." + std::to_string(slots_ - 1));
  }

  std::unique_ptr<Communicator> host_;
  int device_;
  int slots_;
  std::vector<Send> sends_;
  std::vector<Recv> recvs_;
  std::vector<Handles> out_s_, out_r_;  // this rank's setup messages
  std::vector<int> note_out_, note_in_;
  std::vector<std::unique_ptr<Pending>> pending_;
};

// Empty when every peer of `batch` is on this node and reachable from `device` by peer access.
std::string reachable(Communicator& host, const std::vector<Transfer>& batch, int device) {
  if (host.local_size() != host.size()) return "the ranks run on more than one node";
  std::vector<int> devices(static_cast<std::size_t>(host.size()));
  host.allgather(&device, sizeof(int), devices.data());
  for (const Transfer& t : batch) {
    const int peer_device = devices[static_cast<std::size_t>(t.peer)];
    if (peer_device == device) continue;
    int can = 0;
    if (cudaDeviceCanAccessPeer(&can, device, peer_device) != cudaSuccess || !can) {
      cudaGetLastError();
      return "device " + std::to_string(device) + " has no peer access to device " + std::to_string(peer_device);
    }
  }
  return {};
}

}  // namespace

std::unique_ptr<PeerExchange> make_peer_exchange(Communicator& host,
                                                 const std::vector<std::vector<Transfer>>& slot_batches,
                                                 int device, std::string* why) {
  const int slots = static_cast<int>(slot_batches.size());
  if (slots < 1 || slots > kMaxSlots)
    throw InputError("peer exchange: 1 to " + std::to_string(kMaxSlots) + " slots, found " + std::to_string(slots));
  std::string reason = reachable(host, slot_batches.front(), device);
  if (host.any(!reason.empty())) {
    if (why) *why = reason.empty() ? "another rank cannot reach its peers by CUDA IPC" : reason;
    return nullptr;
  }
  auto x = std::make_unique<IpcExchange>(host.split(0, host.rank()), device, slots);
  for (int step = 0; step < 2; ++step) {
    try {
      reason = step == 0 ? x->prepare(slot_batches) : x->connect();
    } catch (const std::exception& e) {
      reason = e.what();
    }
    if (host.any(!reason.empty())) {
      if (why) *why = reason.empty() ? "CUDA IPC failed on another rank" : reason;
      return nullptr;
    }
  }
  return x;
}

#else

std::unique_ptr<PeerExchange> make_peer_exchange(Communicator&, const std::vector<std::vector<Transfer>>&, int,
                                                 std::string* why) {
  if (why) *why = "this gluon was built without CUDA";
  return nullptr;
}

#endif

}  // namespace gluon::comm
