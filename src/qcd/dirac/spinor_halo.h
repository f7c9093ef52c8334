#pragma once
// Private: the halo machinery shared by the Wilson/clover and staggered dslash (public view:
// include/gluon/qcd/dirac/halo.h). A SpinorHalo owns, per cut dimension, the two send faces and
// the two ghost faces (and pinned host mirrors when MPI carries device data), the communicator
// and a second stream, and runs one dslash under a policy through three operator callbacks.
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <type_traits>

#include "gluon/comm/communicator.h"
#include "gluon/comm/peer_exchange.h"
#include "gluon/comm/process_grid.h"
#include "gluon/qcd/dirac/halo.h"
#include "gluon/qcd/geometry.h"
#include "gluon/runtime/exec.h"
#include "gluon/runtime/memory.h"
#include "gluon/runtime/stream.h"

namespace gluon::qcd::detail {

// What kernels see: ghost pointers (compute-precision reals) and per-direction boundary phases.
// mode 0: no dimension is cut (every wrap is local); 1: wraps across cut dimensions read the
// ghosts; 2: they are skipped (interior kernel of the overlap policy).
struct HaloView {
  int mode = 0;
  int cut[4] = {0, 0, 0, 0};
  void* ghost_fwd[4] = {nullptr, nullptr, nullptr, nullptr};  // from the +mu neighbour
  void* ghost_bwd[4] = {nullptr, nullptr, nullptr, nullptr};  // from the -mu neighbour
  // Phase of a hop that crosses the rank's +mu / -mu edge: the fermion boundary phase where that
  // edge is the lattice's, 1 elsewhere.
  double phase_fwd[4] = {1, 1, 1, 1};
  double phase_bwd[4] = {1, 1, 1, 1};
};

struct HaloOps {
  // Fill send_bwd (for the -mu neighbour) and send_fwd (for the +mu neighbour) of dimension mu.
  std::function<void(int mu, void* send_bwd, void* send_fwd, const runtime::Exec&)> pack;
  // The dslash over all output sites with view.mode as given.
  std::function<void(const HaloView&, const runtime::Exec&)> body;
  // Add the ghost hops of dimension mu to the boundary sites.
  std::function<void(int mu, const HaloView&, const runtime::Exec&)> exterior;
};

// The three callbacks for an operator whose launch description `Call` has the fields op (body /
// pack / exterior, as Call::body etc.), mu, send_bwd, send_fwd and view, and whose `launch(call)`
// runs it (DslashCall for Wilson/clover, StaggeredLaunch for staggered).
template <class Call, class Launch>
HaloOps make_halo_ops(const Call& call, Launch launch) {
  HaloOps ops;
  ops.pack = [call, launch](int mu, void* sb, void* sf, const runtime::Exec& ex) {
    Call c = call;
    if constexpr (std::is_pointer_v<decltype(c.ex)>) c.ex = &ex;  // the stream the caller chose
    else c.ex = ex;
    c.op = Call::pack;
    c.mu = mu;
    c.send_bwd = sb;
    c.send_fwd = sf;
    launch(c);
  };
  ops.body = [call, launch](const HaloView& v, const runtime::Exec&) {
    Call c = call;
    c.view = v;
    launch(c);
  };
  ops.exterior = [call, launch](int mu, const HaloView& v, const runtime::Exec&) {
    Call c = call;
    c.op = Call::exterior;
    c.mu = mu;
    c.view = v;
    launch(c);
  };
  return ops;
}

// The exterior launches of every dimension `call.view` cuts, each through launch(call) with op
// exterior and mu set: what a body that read the ghosts inline (view.mode 1) leaves to them once
// the interior ran instead (the CPU vector kernels, wilson.cpp and staggered.cpp).
template <class Call, class Launch>
void launch_exteriors(const Call& call, Launch launch) {
  for (int mu = 0; mu < 4; ++mu) {
    if (!call.view.cut[mu]) continue;
    Call e = call;
    e.op = Call::exterior;
    e.mu = mu;
    launch(e);
  }
}

class SpinorHalo {
 public:
  // fwd_reals / bwd_reals: reals per face message entry count, as multiples of half_face(mu):
  // the face to the -mu neighbour holds fwd_units * half_face(mu) reals (it becomes that rank's
  // forward ghost); the one to the +mu neighbour bwd_units * half_face(mu).
  SpinorHalo(const Geometry& g, const std::array<double, 4>& boundary, const runtime::Exec& ex,
             int real_bytes, int fwd_units, int bwd_units, const std::string& name);
  ~SpinorHalo();

  bool active() const { return any_cut_; }
  const HaloView& local_view() const { return view_; }  // mode 0, phases of a single process
  const HaloView& cut_view() const { return ghost_view_[0]; }  // which dimensions are cut
  // "cpu", "nccl", "mpi (staged through pinned host memory)", "cuda-ipc", ...: how faces travel.
  const std::string& transport() const { return transport_; }
  void run(const HaloOps& ops) const;
  // One dslash described by `call` (see make_halo_ops). With no cut dimension it is launched
  // directly, so a single process builds no callbacks on the hot path.
  template <class Call, class Launch>
  void run(const Call& call, Launch launch) const {
    if (!any_cut_) {
      Call c = call;
      c.view = view_;
      launch(c);
      return;
    }
    run(make_halo_ops(call, launch));
  }
  // Pack and exchange only (no dslash), for gluon bench's communication timing.
  void exchange_only(const HaloOps& ops) const;
  const HaloStats& stats() const { return stats_; }
  double bytes_per_call() const;

 private:
  void pack_all(const HaloOps& ops, const runtime::Exec& ex) const;
  void move_faces(const runtime::Event& packed) const;
  void run_peer(const HaloOps& ops, HaloPolicy p, bool body) const;
  void connect_peers();
  std::unique_ptr<comm::Pending> post_host_exchange() const;
  HaloPolicy choose() const;
  void run_policy(const HaloOps& ops, HaloPolicy p) const;

  Geometry geom_;
  runtime::Exec ex_;
  std::string name_;
  bool any_cut_ = false;
  comm::Communicator* comm_ = nullptr;  // world, or the NCCL world on CUDA
  comm::ProcessGrid pgrid_;
  HaloView view_;                        // mode 0 with the single-process phases
  HaloView ghost_view_[2];               // ghost pointers (of ghost slot 0 / 1) and per-rank phases
  std::array<std::size_t, 4> bytes_to_bwd_{}, bytes_to_fwd_{};
  // Device (or host on cpu) buffers: send_bwd, send_fwd per mu; ghost_fwd, ghost_bwd per slot
  // and mu (slot 1 only with the peer exchange, which alternates between the two).
  mutable std::array<runtime::Buffer, 4> send_bwd_, send_fwd_;
  mutable std::array<runtime::Buffer, 4> ghost_fwd_[2], ghost_bwd_[2];
  std::unique_ptr<comm::PeerExchange> peer_;  // CUDA IPC between the ranks of one node
  std::string transport_;
  mutable std::int64_t exchanges_ = 0;         // picks the ghost slot of the peer exchange
  // Pinned mirrors when MPI carries device data.
  mutable std::array<runtime::Buffer, 4> h_send_bwd_, h_send_fwd_, h_ghost_fwd_, h_ghost_bwd_;
  bool staged_ = false;
  std::unique_ptr<runtime::Stream> comm_stream_;
  mutable runtime::Event packed_, done_, start_;  // reused every call (no event creation per dslash)
  mutable HaloStats stats_;
  mutable HaloPolicy chosen_ = HaloPolicy::auto_;
  mutable int trial_ = 0;
  mutable double trial_ms_[2] = {0, 0};
};

// The communicator halos use on this Exec: comm::world() on cpu; on cuda the NCCL communicator
// over the world (made once per process and device) when the build has NCCL and the world has
// more than one rank, else the world.
comm::Communicator& halo_communicator(const runtime::Exec& ex);

}  // namespace gluon::qcd::detail
