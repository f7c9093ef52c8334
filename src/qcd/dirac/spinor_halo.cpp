#include "spinor_halo.h"

#include <chrono>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "gluon/comm/backends.h"
#include "gluon/comm/environment.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/log.h"

namespace gluon::qcd {

namespace {
HaloPolicy g_default_policy = HaloPolicy::auto_;
bool g_default_from_env_done = false;
}  // namespace

std::string to_string(HaloPolicy p) {
  switch (p) {
    case HaloPolicy::auto_: return "auto";
    case HaloPolicy::no_overlap: return "no-overlap";
    case HaloPolicy::overlap: return "overlap";
  }
  return "?";
}

HaloPolicy halo_policy_from_name(const std::string& name) {
  if (name == "auto") return HaloPolicy::auto_;
  if (name == "overlap") return HaloPolicy::overlap;
  if (name == "no-overlap" || name == "no_overlap") return HaloPolicy::no_overlap;
  throw InputError("halo policy: expected auto, overlap or no-overlap, found '" + name + "'");
}

void set_default_halo_policy(HaloPolicy p) {
  g_default_policy = p;
  g_default_from_env_done = true;
}

HaloPolicy default_halo_policy() {
  if (!g_default_from_env_done) {
    g_default_from_env_done = true;
    if (const char* e = std::getenv("GLUON_HALO_POLICY")) g_default_policy = halo_policy_from_name(e);
  }
  return g_default_policy;
}

namespace detail {

namespace {

std::array<bool, 4> forced_cuts() {
  // GLUON_HALO_FORCE_CUT=0,0,1,1 treats those dimensions as cut even when the grid does not cut
  // them: the rank exchanges faces with itself. Tests and one-GPU benchmarks use it to run the
  // whole halo path without a second rank.
  std::array<bool, 4> f{false, false, false, false};
  if (const char* e = std::getenv("GLUON_HALO_FORCE_CUT")) {
    std::string s(e);
    int mu = 0;
    for (char ch : s)
      if (ch == '0' || ch == '1') {
        if (mu < 4) f[mu] = ch == '1';
        ++mu;
      }
    if (mu != 4)
      throw InputError("GLUON_HALO_FORCE_CUT: expected four 0/1 flags like 0,0,1,1, found '" + s + "'");
  }
  return f;
}

struct PolicyKey {
  std::string name;
  std::int64_t volume;
  bool operator<(const PolicyKey& o) const {
    return name != o.name ? name < o.name : volume < o.volume;
  }
};
std::map<PolicyKey, HaloPolicy>& policy_cache() {
  static std::map<PolicyKey, HaloPolicy> m;
  return m;
}

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

comm::Communicator& halo_communicator(const runtime::Exec& ex) {
  comm::Communicator& w = comm::world();
  if (!ex.on_device() || w.size() == 1 || w.backend() != comm::CommBackend::mpi ||
      !comm::nccl_compiled())
    return w;
  if (const char* t = std::getenv("GLUON_HALO_TRANSPORT"); t && std::string(t) == "mpi") return w;
  static std::mutex m;
  static std::map<int, std::unique_ptr<comm::Communicator>> by_device;
  std::lock_guard<std::mutex> lock(m);
  auto& c = by_device[ex.device];
  if (!c) c = comm::make_nccl_communicator(w, ex.device);
  return *c;
}

static std::vector<comm::Transfer> make_batch(const comm::ProcessGrid& pg, const int* cut,
                                              const std::array<runtime::Buffer, 4>& sb,
                                              const std::array<runtime::Buffer, 4>& sf,
                                              std::array<runtime::Buffer, 4>& gf,
                                              std::array<runtime::Buffer, 4>& gb);

SpinorHalo::SpinorHalo(const Geometry& g, const std::array<double, 4>& boundary,
                       const runtime::Exec& ex, int real_bytes, int fwd_units, int bwd_units,
                       const std::string& name)
    : geom_(g), ex_(ex), name_(name) {
  for (int mu = 0; mu < 4; ++mu) {
    view_.phase_fwd[mu] = view_.phase_bwd[mu] = boundary[mu];
  }
  const std::array<bool, 4> forced = forced_cuts();
  for (int mu = 0; mu < 4; ++mu) any_cut_ = any_cut_ || g.grid()[mu] > 1 || forced[mu];
  if (!any_cut_) return;

  comm_ = &halo_communicator(ex);
  comm::Communicator& w = comm::world();
  const Coords& gr = g.grid();
  if (gr[0] * gr[1] * gr[2] * gr[3] != w.size())
    throw InputError(name + ": the lattice is split over a " + comm::ProcessGrid({gr[0], gr[1], gr[2], gr[3]}, 0).to_string() +
                     " grid of " + std::to_string(gr[0] * gr[1] * gr[2] * gr[3]) + " ranks, but " +
                     std::to_string(w.size()) + " ranks run");
  pgrid_ = comm::ProcessGrid({gr[0], gr[1], gr[2], gr[3]}, w.rank());
  for (int mu = 0; mu < 4; ++mu)
    if (pgrid_.coords()[mu] != g.grid_coords()[mu])
      throw InputError(name + ": rank " + std::to_string(w.rank()) +
                       " holds the block at grid coordinates that differ from the process grid's "
                       "(ranks are numbered x fastest)");
  staged_ = ex.on_device() && !comm_->device_buffers();
  const runtime::MemSpace space = ex.on_device() ? runtime::MemSpace::device : runtime::MemSpace::host;
  ghost_view_[0] = view_;
  HaloView& gv = ghost_view_[0];
  const SiteIndexer& idx = g.indexer();
  for (int mu = 0; mu < 4; ++mu) {
    const bool cut = gr[mu] > 1 || forced[mu];
    gv.cut[mu] = cut ? 1 : 0;
    if (!cut) continue;
    gv.phase_fwd[mu] = pgrid_.coords()[mu] == gr[mu] - 1 ? boundary[mu] : 1.0;
    gv.phase_bwd[mu] = pgrid_.coords()[mu] == 0 ? boundary[mu] : 1.0;
    const std::int64_t hf = idx.volume / idx.dims[mu] / 2;
    bytes_to_bwd_[mu] = static_cast<std::size_t>(fwd_units * hf * real_bytes);
    bytes_to_fwd_[mu] = static_cast<std::size_t>(bwd_units * hf * real_bytes);
    const std::string l = name + " halo " + "xyzt"[mu];
    send_bwd_[mu] = runtime::Buffer(space, bytes_to_bwd_[mu], l + " send-", ex.device);
    ghost_fwd_[0][mu] = runtime::Buffer(space, bytes_to_bwd_[mu], l + " ghost+", ex.device);
    send_fwd_[mu] = runtime::Buffer(space, bytes_to_fwd_[mu], l + " send+", ex.device);
    ghost_bwd_[0][mu] = runtime::Buffer(space, bytes_to_fwd_[mu], l + " ghost-", ex.device);
    gv.ghost_fwd[mu] = ghost_fwd_[0][mu].data();
    gv.ghost_bwd[mu] = ghost_bwd_[0][mu].data();
    if (staged_) {
      h_send_bwd_[mu] = runtime::Buffer(runtime::MemSpace::pinned, bytes_to_bwd_[mu], l + " send- (host)", ex.device);
      h_ghost_fwd_[mu] = runtime::Buffer(runtime::MemSpace::pinned, bytes_to_bwd_[mu], l + " ghost+ (host)", ex.device);
      h_send_fwd_[mu] = runtime::Buffer(runtime::MemSpace::pinned, bytes_to_fwd_[mu], l + " send+ (host)", ex.device);
      h_ghost_bwd_[mu] = runtime::Buffer(runtime::MemSpace::pinned, bytes_to_fwd_[mu], l + " ghost- (host)", ex.device);
    }
  }
  ghost_view_[1] = gv;
  transport_ = !ex.on_device() ? comm::to_string(comm_->backend()) : staged_ ? comm::to_string(comm_->backend()) + " (staged through pinned host memory)"
                                                  : comm::to_string(comm_->backend());
  if (ex.on_device()) {
    comm_stream_ = std::make_unique<runtime::Stream>(ex, true, /*high_priority=*/true);
    connect_peers();
  }
  stats_.transport = transport_;
}

// CUDA IPC (comm/peer_exchange.h) when every rank is on this node and the devices reach each
// other: chosen by default with more than one rank, forced by GLUON_HALO_TRANSPORT=ipc (also in
// one process, where the faces go to the rank itself), refused by =nccl or =mpi. The peer
// exchange alternates between two ghost slots; the second set is allocated here.
void SpinorHalo::connect_peers() {
  const char* env = std::getenv("GLUON_HALO_TRANSPORT");
  const std::string want = env ? env : "";
  if (!want.empty() && want != "ipc" && want != "nccl" && want != "mpi")
    throw InputError("GLUON_HALO_TRANSPORT: expected ipc, nccl or mpi, found '" + want + "'");
  if (want == "nccl" || want == "mpi" || (want.empty() && comm::world().size() == 1)) return;
  const runtime::MemSpace space = runtime::MemSpace::device;
  HaloView& gv = ghost_view_[1];
  for (int mu = 0; mu < 4; ++mu) {
    if (!gv.cut[mu]) continue;
    const std::string l = name_ + " halo " + "xyzt"[mu];
    ghost_fwd_[1][mu] = runtime::Buffer(space, bytes_to_bwd_[mu], l + " ghost+ (slot 1)", ex_.device);
    ghost_bwd_[1][mu] = runtime::Buffer(space, bytes_to_fwd_[mu], l + " ghost- (slot 1)", ex_.device);
    gv.ghost_fwd[mu] = ghost_fwd_[1][mu].data();
    gv.ghost_bwd[mu] = ghost_bwd_[1][mu].data();
  }
  std::vector<std::vector<comm::Transfer>> slots;
  for (int k = 0; k < 2; ++k)
    slots.push_back(make_batch(pgrid_, gv.cut, send_bwd_, send_fwd_, ghost_fwd_[k], ghost_bwd_[k]));
  std::string why;
  peer_ = comm::make_peer_exchange(comm::world(), slots, ex_.device, &why);
  if (peer_) {
    transport_ = "cuda-ipc";
    return;
  }
  if (want == "ipc") throw InputError(name_ + ": GLUON_HALO_TRANSPORT=ipc, but CUDA IPC is not possible: " + why);
  if (comm::world().rank() == 0) runtime::log::debug(name_ + ": halo faces over " + transport_ + " (CUDA IPC: " + why + ")");
  for (int mu = 0; mu < 4; ++mu) ghost_fwd_[1][mu] = runtime::Buffer(), ghost_bwd_[1][mu] = runtime::Buffer();
  ghost_view_[1] = ghost_view_[0];
}

SpinorHalo::~SpinorHalo() = default;

double SpinorHalo::bytes_per_call() const {
  double b = 0;
  for (int mu = 0; mu < 4; ++mu) b += static_cast<double>(bytes_to_bwd_[mu] + bytes_to_fwd_[mu]);
  return b;
}

// Posts the exchange of every cut dimension. Order per dimension (the same on every rank, which
// NCCL needs since it has no tags): receive from +mu, receive from -mu, send to -mu, send to +mu;
// tag 2 mu travels backwards, 2 mu + 1 forwards (MPI and the single communicator match by tag,
// which also keeps the two messages apart when both neighbours are one rank).
static std::vector<comm::Transfer> make_batch(const comm::ProcessGrid& pg, const int* cut,
                                              const std::array<runtime::Buffer, 4>& sb,
                                              const std::array<runtime::Buffer, 4>& sf,
                                              std::array<runtime::Buffer, 4>& gf,
                                              std::array<runtime::Buffer, 4>& gb) {
  std::vector<comm::Transfer> batch;
  for (int mu = 0; mu < 4; ++mu) {
    if (!cut[mu]) continue;
    const int up = pg.neighbour(mu, +1), down = pg.neighbour(mu, -1);
    batch.push_back(comm::Transfer::recv(gf[mu].data(), gf[mu].bytes(), up, 2 * mu));
    batch.push_back(comm::Transfer::recv(gb[mu].data(), gb[mu].bytes(), down, 2 * mu + 1));
    batch.push_back(comm::Transfer::send(sb[mu].data(), sb[mu].bytes(), down, 2 * mu));
    batch.push_back(comm::Transfer::send(sf[mu].data(), sf[mu].bytes(), up, 2 * mu + 1));
  }
  return batch;
}

// Moves the packed faces into the ghosts, after `packed` (recorded on ex_ after the pack), and
// records done_ when they are in place; the caller makes ex_ wait for done_ where it needs them. NCCL: queued on the comm stream, the host goes on at
// once. MPI with device data: device -> pinned on the comm stream, the host waits for it and for
// MPI (while kernels queued earlier on ex_ run), then pinned -> device.
void SpinorHalo::move_faces(const runtime::Event& packed) const {
  auto& self = const_cast<SpinorHalo&>(*this);
  const runtime::Exec cs = comm_stream_->exec();
  packed.make_wait(cs);
  if (!staged_) {
    auto batch = make_batch(pgrid_, ghost_view_[0].cut, send_bwd_, send_fwd_, self.ghost_fwd_[0], self.ghost_bwd_[0]);
    comm_->exchange(batch, cs.stream);
  } else {
    using runtime::MemSpace;
    for (int mu = 0; mu < 4; ++mu) {
      if (!ghost_view_[0].cut[mu]) continue;
      runtime::copy_bytes_async(self.h_send_bwd_[mu].data(), MemSpace::pinned, send_bwd_[mu].data(),
                                MemSpace::device, bytes_to_bwd_[mu], cs);
      runtime::copy_bytes_async(self.h_send_fwd_[mu].data(), MemSpace::pinned, send_fwd_[mu].data(),
                                MemSpace::device, bytes_to_fwd_[mu], cs);
    }
    comm_stream_->synchronize();
    auto batch = make_batch(pgrid_, ghost_view_[0].cut, h_send_bwd_, h_send_fwd_, self.h_ghost_fwd_, self.h_ghost_bwd_);
    comm_->exchange(batch)->wait();
    for (int mu = 0; mu < 4; ++mu) {
      if (!ghost_view_[0].cut[mu]) continue;
      runtime::copy_bytes_async(self.ghost_fwd_[0][mu].data(), MemSpace::device, h_ghost_fwd_[mu].data(),
                                MemSpace::pinned, bytes_to_bwd_[mu], cs);
      runtime::copy_bytes_async(self.ghost_bwd_[0][mu].data(), MemSpace::device, h_ghost_bwd_[mu].data(),
                                MemSpace::pinned, bytes_to_fwd_[mu], cs);
    }
  }
  done_.record(cs);
}

// cpu: posts the exchange of host buffers; the caller waits.
std::unique_ptr<comm::Pending> SpinorHalo::post_host_exchange() const {
  auto& self = const_cast<SpinorHalo&>(*this);
  auto batch = make_batch(pgrid_, ghost_view_[0].cut, send_bwd_, send_fwd_, self.ghost_fwd_[0], self.ghost_bwd_[0]);
  return comm_->exchange(batch);
}

void SpinorHalo::pack_all(const HaloOps& ops, const runtime::Exec& ex) const {
  for (int mu = 0; mu < 4; ++mu)
    if (ghost_view_[0].cut[mu]) ops.pack(mu, send_bwd_[mu].data(), send_fwd_[mu].data(), ex);
}

// The peer exchange (CUDA IPC). The faces are packed on the comm stream, and with overlap beside
// the interior kernel, which is queued first (the comm stream has high priority: the pack's few
// blocks take SMs as the interior's drain); a copy engine moves them into the peers' ghosts of
// this call's slot. The main stream waits for the peers' copies before the body (no overlap) or
// the exterior kernels (overlap). Order: the comm stream starts after the work queued on ex_
// before this call (which wrote `in`), and ex_'s later work follows the wait, hence the pack. Two slots suffice: a rank's copy into slot s
// of call k + 2 follows (through its own stream) its wait for the peer's call k + 1, which the
// peer posted after its exterior of call k, the last reader of slot s.
void SpinorHalo::run_peer(const HaloOps& ops, HaloPolicy p, bool body) const {
  const int slot = static_cast<int>(exchanges_++ % 2);
  const runtime::Exec cs = comm_stream_->exec();
  HaloView v = ghost_view_[slot];
  v.mode = p == HaloPolicy::no_overlap ? 1 : 2;
  const bool overlap = body && p == HaloPolicy::overlap;
  start_.record(ex_);
  if (overlap) ops.body(v, ex_);  // first: the interior starts at once; the pack joins it
  start_.make_wait(cs);
  pack_all(ops, cs);
  peer_->post(slot, cs.stream);
  peer_->wait(slot, ex_.stream);
  if (!body) return;
  if (!overlap) {
    ops.body(v, ex_);
    return;
  }
  for (int mu = 0; mu < 4; ++mu)
    if (v.cut[mu]) ops.exterior(mu, v, ex_);
}

void SpinorHalo::exchange_only(const HaloOps& ops) const {
  if (peer_) return run_peer(ops, HaloPolicy::no_overlap, false);
  pack_all(ops, ex_);
  if (!ex_.on_device()) {
    post_host_exchange()->wait();
    return;
  }
  packed_.record(ex_);
  move_faces(packed_);
  done_.make_wait(ex_);
}

void SpinorHalo::run_policy(const HaloOps& ops, HaloPolicy p) const {
  ++stats_.calls;
  stats_.bytes_sent += bytes_per_call();
  stats_.policy_used = p;
  if (peer_) return run_peer(ops, p, true);
  pack_all(ops, ex_);
  HaloView v = ghost_view_[0];
  v.mode = p == HaloPolicy::no_overlap ? 1 : 2;
  if (!ex_.on_device()) {
    // cpu: the messages travel (MPI progresses eager sizes in the background, the rest at the
    // wait) while the OpenMP interior kernel runs; no_overlap waits first.
    auto pending = post_host_exchange();
    if (p == HaloPolicy::no_overlap) pending->wait();
    ops.body(v, ex_);
    pending->wait();
  } else {
    packed_.record(ex_);
    if (p == HaloPolicy::no_overlap) {
      move_faces(packed_);
      done_.make_wait(ex_);
      ops.body(v, ex_);
    } else if (!staged_) {
      // NCCL: the transfer is queued (on the high-priority comm stream) before the interior
      // kernel, so that its blocks hold SMs before the interior kernel fills the rest; queued
      // after it, it would wait for it to finish.
      move_faces(packed_);
      ops.body(v, ex_);
      done_.make_wait(ex_);
    } else {
      ops.body(v, ex_);  // staged through the host: queued first, it runs while the host moves faces
      move_faces(packed_);
      done_.make_wait(ex_);
    }
  }
  if (p == HaloPolicy::overlap)
    for (int mu = 0; mu < 4; ++mu)
      if (v.cut[mu]) ops.exterior(mu, v, ex_);
}

HaloPolicy SpinorHalo::choose() const {
  const HaloPolicy forced = default_halo_policy();
  if (forced != HaloPolicy::auto_) return forced;
  if (chosen_ != HaloPolicy::auto_) return chosen_;
  const PolicyKey key{name_, geom_.volume()};
  if (auto it = policy_cache().find(key); it != policy_cache().end()) return chosen_ = it->second;
  // Trials: calls 0-2 no_overlap, 3-5 overlap; the first of each is a warm-up (tuning, first
  // touch), the other two are timed. Every rank must decide alike: the times are maxed over ranks.
  return trial_ < 3 ? HaloPolicy::no_overlap : HaloPolicy::overlap;
}

void SpinorHalo::run(const HaloOps& ops) const {
  if (!any_cut_) {
    ops.body(view_, ex_);
    return;
  }
  const HaloPolicy p = choose();
  const bool timing = default_halo_policy() == HaloPolicy::auto_ && chosen_ == HaloPolicy::auto_;
  if (!timing) {
    run_policy(ops, p);
    return;
  }
  runtime::synchronize(ex_);
  const double t0 = now_ms();
  run_policy(ops, p);
  runtime::synchronize(ex_);
  const double dt = now_ms() - t0;
  if (trial_ % 3 != 0) trial_ms_[trial_ < 3 ? 0 : 1] += dt;
  if (++trial_ == 6) {
    double t[2] = {trial_ms_[0], trial_ms_[1]};
    comm::world().allreduce_max(t, 2);
    chosen_ = t[1] < t[0] ? HaloPolicy::overlap : HaloPolicy::no_overlap;
    policy_cache()[PolicyKey{name_, geom_.volume()}] = chosen_;
    if (comm::world().rank() == 0) runtime::log::debug(name_ + ": halo policy " + to_string(chosen_) + " (no-overlap " +
                      std::to_string(t[0] / 2) + " ms, overlap " + std::to_string(t[1] / 2) +
                      " ms per call)");
  }
}

}  // namespace detail
}  // namespace gluon::qcd
