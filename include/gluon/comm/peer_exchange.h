#pragma once
// Face exchange between the processes of one node by CUDA IPC and the copy engines.
//
// Why: an NCCL send/recv is a kernel. Queued beside a dslash that fills every SM, its blocks
// start only as the dslash's blocks drain, so the transfer ends up after the kernel it was to
// hide behind (measured on two H200s: 0% of the exchange hidden). A cudaMemcpyAsync into a
// peer's memory runs on a copy engine over NVLink or PCIe and takes no SM. QUDA's peer-to-peer
// halo policy works the same way.
//
// Set up once, collectively, for a fixed list of transfers (the halo's faces). Each receive has
// `slots` buffers (double buffering: with one buffer a sender could overwrite a face its peer is
// still reading). A send of slot s copies into the peer's buffer s on a stream and records an
// interprocess event there; a host message then tells the peer that the record is queued, and
// the peer makes its own stream wait for that event. Only the device waits for the data; the
// host waits only for the peer's host to have queued its copies.
//
// Tags match sends to receives as in Communicator::exchange (equal tag, the pair of ranks).
// A transfer to this rank itself (a single process that treats a dimension as cut) is a local
// device-to-device copy.
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "gluon/comm/communicator.h"

namespace gluon::comm {

class PeerExchange {
 public:
  virtual ~PeerExchange() = default;
  // Queues every send of `slot` on `stream` (cudaStream_t) and tells the peers.
  virtual void post(int slot, void* stream) = 0;
  // Waits (host) for the peers' messages of `slot`, then makes `stream` wait (device) for
  // their copies into this rank's buffers of `slot`.
  virtual void wait(int slot, void* stream) = 0;
  virtual int slots() const = 0;
};

// slot_batches[s]: the transfers with the receive buffers of slot s (the sends are taken from
// slot 0; every slot lists the same transfers in the same order, only receive pointers differ).
// Collective over `host`. Returns nullptr on every rank, with the reason in *why, when any rank
// cannot take part: a build without CUDA, ranks on more than one node, devices without peer
// access, or IPC refused by the driver.
std::unique_ptr<PeerExchange> make_peer_exchange(Communicator& host,
                                                 const std::vector<std::vector<Transfer>>& slot_batches,
                                                 int device, std::string* why);

}  // namespace gluon::comm
