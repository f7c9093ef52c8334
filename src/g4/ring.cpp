// The ring driver (ring.h): sub-rings, R independent rings, double-buffered transfers overlapped
// with the update, the sum across sub-rings, gather to rank 0 or one file per slice.
#include "gluon/g4/ring.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <utility>

#include "gluon/comm/backends.h"
#include "gluon/comm/environment.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/memory.h"
#include "gluon/runtime/stream.h"
#include "gluon/runtime/timer.h"

namespace gluon::g4 {

namespace {

using C = std::complex<double>;
using runtime::Buffer;
using runtime::MemSpace;

std::string human_bytes(double b) {
  char text[64];
  const char* unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (b >= 1024.0 && u < 4) {
    b /= 1024.0;
    ++u;
  }
  std::snprintf(text, sizeof text, "%.2f %s", b, unit[u]);
  return text;
}

int ring_size_of(const comm::Communicator& world, const RingOptions& o) {
  const int p = world.size();
  const int s = o.ring_size == 0 ? p : o.ring_size;
  if (s < 1 || s > p || p % s != 0)
    throw InputError("--ring-size: expected a divisor of the number of ranks " + std::to_string(p) +
                     " (0 = all), found " + std::to_string(o.ring_size));
  return s;
}

void check_options(const RingOptions& o) {
  if (o.rings < 1 || o.rings > 64)
    throw InputError("--rings: expected 1..64, found " + std::to_string(o.rings));
  if (o.measurements < 1)
    throw InputError("--measurements: expected at least 1, found " + std::to_string(o.measurements));
  if (o.calibration_rounds < 0)
    throw InputError("calibration rounds: expected at least 0, found " +
                     std::to_string(o.calibration_rounds));
  if (o.peer_repeats < 1)
    throw InputError("peer repeats: expected at least 1, found " + std::to_string(o.peer_repeats));
}

// The slice of the stacked G4 held by ring rank r, converted to complex<double> on the host.
std::vector<C> slice_to_host(const Buffer& g4, Precision p, std::int64_t n) {
  std::vector<C> out(static_cast<std::size_t>(n));
  if (n == 0) return out;
  if (p == Precision::double_) {
    runtime::copy_bytes(out.data(), MemSpace::host, g4.data(), g4.space(), g4.bytes());
  } else {
    std::vector<std::complex<float>> tmp(static_cast<std::size_t>(n));
    runtime::copy_bytes(tmp.data(), MemSpace::host, g4.data(), g4.space(), g4.bytes());
    for (std::int64_t i = 0; i < n; ++i) out[i] = C(tmp[i].real(), tmp[i].imag());
  }
  return out;
}

void zero(Buffer& b, const runtime::Exec& ex) {
  runtime::fill_bytes(b, 0);
  runtime::synchronize(runtime::Exec{ex.backend, ex.device, nullptr});
}

// Binary slice file: docs/g4.md "Slice files".
struct SliceHeader {
  char magic[8] = {'G', 'L', 'U', 'O', 'N', 'G', '4', '\0'};
  std::uint32_t version = 1;
  std::uint32_t complex_bytes = 16;  // complex<double>, little endian
  std::uint64_t entries_total = 0, begin = 0, count = 0;
  std::int32_t bands = 0, lx = 0, ly = 0, frequencies = 0, transfers = 0, channel_count = 0;
  std::int32_t channels[kChannelCount] = {-1, -1, -1, -1};
  std::int32_t ring_rank = 0, ring_size = 0;
};

static_assert(sizeof(SliceHeader) == 88, "slice header layout (docs/g4.md)");

std::string write_slice(const std::string& dir, const Layout& layout, const Slice& s, int r,
                        int size, const std::vector<C>& values) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw IoError(dir + ": cannot create directory: " + ec.message());
  SliceHeader h;
  const Params& p = layout.params();
  h.entries_total = static_cast<std::uint64_t>(layout.entries_total());
  h.begin = static_cast<std::uint64_t>(s.begin);
  h.count = static_cast<std::uint64_t>(s.size());
  h.bands = p.bands;
  h.lx = p.cluster.lx;
  h.ly = p.cluster.ly;
  h.frequencies = p.frequencies;
  h.transfers = p.transfers;
  h.channel_count = static_cast<std::int32_t>(p.channels.size());
  for (std::size_t i = 0; i < p.channels.size(); ++i) h.channels[i] = static_cast<int>(p.channels[i]);
  h.ring_rank = r;
  h.ring_size = size;
  const std::string path =
      (std::filesystem::path(dir) / ("g4-slice-" + std::to_string(r) + "-of-" + std::to_string(size) + ".bin")).string();
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) throw IoError(tmp + ": cannot open for writing");
    f.write(reinterpret_cast<const char*>(&h), sizeof h);
    f.write(reinterpret_cast<const char*>(values.data()),
            static_cast<std::streamsize>(values.size() * sizeof(C)));
    if (!f) throw IoError(tmp + ": write failed");
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw IoError(tmp + ": cannot rename to " + path + ": " + ec.message());
  return path;
}

// One ring's transfer state: its communicator, stream, and the two G buffers.
// One ring's state: its communicator(s) and stream, three G buffers and which holds what.
// GPU without NCCL: staged through pinned host buffers over MPI (`stage_send`, `stage_recv`).
struct RingLane {
  std::unique_ptr<comm::Communicator> host;    // split of the ring (MPI or single)
  std::unique_ptr<comm::Communicator> device;  // NCCL over `host` (GPU, S > 1)
  runtime::Stream stream;
  Buffer buf[3];
  Buffer stage_send, stage_recv;
  std::unique_ptr<comm::Pending> pending;
  int into = -1;  // the buffer the pending transfer receives into
  // cur: the G sent and updated at this step; left: the last G of the previous measurement (its
  // update rides along with this measurement's first step); held: the next measurement's G.
  int cur = -1, left = -1, held = -1;
  int count = 0;  // measurements of this ring
  comm::Communicator& transfers() { return device ? *device : *host; }
  bool staged() const { return !stage_send.empty(); }
  int free_buffer(int also_taken = -1) const {
    for (int i = 0; i < 3; ++i)
      if (i != cur && i != left && i != held && i != also_taken) return i;
    throw Error("g4 ring: no free G buffer (internal error)");
  }
};

// Work queued on the compute stream in one step: an update with a G buffer, or generating one.
struct Task {
  bool generate;
  int lane, buffer;
  std::uint64_t id;
};

// A fingerprint of the global inputs, to check that every rank was given the same.
std::int64_t fingerprint(const Layout& layout, const RingOptions& o) {
  std::uint64_t h = 1469598103934665603ULL;
  auto add = [&h](std::uint64_t v) { h = (h ^ v) * 1099511628211ULL; };
  const Params& p = layout.params();
  for (std::uint64_t v : {std::uint64_t(p.bands), std::uint64_t(p.cluster.lx), std::uint64_t(p.cluster.ly),
                          std::uint64_t(p.frequencies), std::uint64_t(p.transfers), std::uint64_t(o.ring_size),
                          std::uint64_t(o.rings), std::uint64_t(o.measurements), o.seed,
                          std::uint64_t(o.precision == Precision::double_), std::uint64_t(o.memory_limit),
                          std::uint64_t(o.calibration_rounds), std::uint64_t(o.gather),
                          std::uint64_t(o.exec.backend == runtime::Backend::cuda)})
    add(v);
  for (Channel c : p.channels) add(std::uint64_t(c) + 100);
  return static_cast<std::int64_t>(h >> 2);
}

}  // namespace

MemoryReport memory_report(const Layout& layout, const RingOptions& o, int ring_size) {
  MemoryReport m;
  const std::size_t cb = complex_bytes(o.precision);
  m.g_bytes = static_cast<std::size_t>(2 * layout.g_elements_per_spin()) * cb;
  m.g4_bytes_total = static_cast<std::size_t>(layout.entries_total()) * cb;
  m.g4_bytes_per_rank = static_cast<std::size_t>(slice_of(layout.entries_total(), 0, ring_size).size()) * cb;
  m.ring_buffer_bytes = (ring_size > 1 ? 3 : 1) * static_cast<std::size_t>(o.rings) * m.g_bytes;
  if (o.memory_limit > 0 && m.g4_bytes_per_rank + m.ring_buffer_bytes > o.memory_limit)
    throw InputError("--memory-limit: the per-rank share does not fit: G4 slice " +
                     human_bytes(double(m.g4_bytes_per_rank)) + " (1/" + std::to_string(ring_size) +
                     " of " + human_bytes(double(m.g4_bytes_total)) + ") + ring buffers " +
                     human_bytes(double(m.ring_buffer_bytes)) + " = " +
                     human_bytes(double(m.g4_bytes_per_rank + m.ring_buffer_bytes)) +
                     " per rank, limit " + human_bytes(double(o.memory_limit)) +
                     "; use a larger ring (--ring-size, more ranks) or fewer --rings");
  return m;
}

RingResult run_ring(comm::Communicator& world, const Layout& layout, const RingOptions& o) {
  // Global inputs: every rank must have the same (checked before anything else is collective).
  const std::int64_t print = fingerprint(layout, o);
  if (world.any(world.max(print) != print))
    throw InputError("g4: the ranks were given different problems or ring options (every rank must "
                     "get the same flags)");
  check_options(o);
  const int S = ring_size_of(world, o);
  const int P = world.size(), me = world.rank();
  const int R = o.rings;
  const runtime::Exec ex = o.exec;
  RingResult res;
  res.world_size = P;
  res.ring_size = S;
  res.subrings = P / S;
  res.rings = R;
  res.memory = memory_report(layout, o, S);

  // Communicators: the sub-ring, the ranks of equal ring rank across sub-rings, one per ring.
  auto ring = world.split(me / S, me);
  auto across = world.split(me % S, me);
  const int r = ring->rank();
  res.ring_rank = r;
  const int right = (r + 1) % S, left = (r + S - 1) % S;
  const Slice mine = slice_of(layout.entries_total(), r, S);
  res.slice = mine;
  res.memory.g4_bytes_per_rank = static_cast<std::size_t>(mine.size()) * complex_bytes(o.precision);

  const MemSpace space = runtime::memspace_for(ex);
  const std::size_t gb = res.memory.g_bytes;
  Buffer g4(space, res.memory.g4_bytes_per_rank, "G4 slice", ex.device);
  zero(g4, ex);
  runtime::Stream compute(ex);
  const runtime::Exec cex = compute.exec();
  std::vector<RingLane> lanes(static_cast<std::size_t>(R));
  for (int i = 0; i < R; ++i) {
    RingLane& L = lanes[static_cast<std::size_t>(i)];
    L.host = ring->split(0, r);
    if (ex.on_device() && S > 1) {
      if (comm::nccl_compiled()) {
        L.device = comm::make_nccl_communicator(*L.host, ex.device);
      } else {
        L.stage_send = Buffer(MemSpace::pinned, gb, "ring staging buffer (send)");
        L.stage_recv = Buffer(MemSpace::pinned, gb, "ring staging buffer (receive)");
      }
    }
    L.stream = runtime::Stream(ex);
    for (int k = 0; k < (S > 1 ? 3 : 1); ++k) L.buf[k] = Buffer(space, gb, "ring buffer (G)", ex.device);
    L.count = i < o.measurements ? (o.measurements - i + R - 1) / R : 0;
  }
  res.transport = S == 1 ? "none (ring of one)"
                  : lanes[0].device ? "nccl (device buffers)"
                  : lanes[0].staged() ? "mpi, staged through pinned host memory (no NCCL in this build)"
                                      : comm::to_string(ring->backend()) + " (host buffers)";

  const bool cpu = !ex.on_device();
  // Posts lane L's step: send buffer `out` right, receive into buffer `in` from the left.
  auto post = [&](RingLane& L, int out, int in) {
    void* send_ptr = L.buf[out].data();
    void* recv_ptr = L.buf[in].data();
    L.into = in;
    if (L.staged()) {
      runtime::copy_bytes_async(L.stage_send.data(), MemSpace::pinned, send_ptr, space, gb, L.stream.exec());
      L.stream.synchronize();
      send_ptr = L.stage_send.data();
      recv_ptr = L.stage_recv.data();
    }
    const comm::Transfer batch[2] = {comm::Transfer::recv(recv_ptr, gb, left),
                                     comm::Transfer::send(send_ptr, gb, right)};
    L.pending = L.transfers().exchange(batch, L.stream.native());
  };
  // Completes a lane's transfer (the staged path copies the received G to the device).
  auto finish = [&](RingLane& L) {
    L.pending->wait();
    L.pending.reset();
    if (L.staged()) {
      runtime::copy_bytes_async(L.buf[L.into].data(), space, L.stage_recv.data(), MemSpace::pinned, gb,
                                L.stream.exec());
      L.stream.synchronize();
    }
  };
  auto poll = [&] {
    for (RingLane& M : lanes)
      if (M.pending) M.pending->test();
  };
  // Runs one step's compute on the compute stream while the transfers are in flight. On the CPU
  // updates are cut into chunks between which the transfers are tested (MPI progresses only
  // inside MPI calls); on the GPU the host tests them until the kernels are done.
  auto run_tasks = [&](const std::vector<Task>& tasks) {
    bool any_pending = false;
    for (const RingLane& L : lanes) any_pending = any_pending || L.pending;
    const std::int64_t n = mine.size();
    // Up to 256 chunks of at least 4096 entries: frequent enough for the shared-memory transport's
    // fragments to keep moving, few enough for the OpenMP start-up to stay small.
    const int chunks =
        cpu && any_pending ? static_cast<int>(std::clamp<std::int64_t>(n / 4096, 1, 256)) : 1;
    for (const Task& t : tasks) {
      RingLane& L = lanes[static_cast<std::size_t>(t.lane)];
      if (t.generate) {
        generate_g(cex, layout, o.precision, L.buf[t.buffer].data(), o.seed, t.id);
        if (cpu && any_pending) poll();
        continue;
      }
      for (int c = 0; c < chunks; ++c) {
        const std::int64_t a = mine.begin + n * c / chunks, b = mine.begin + n * (c + 1) / chunks;
        accumulate(cex, layout, o.precision, L.buf[t.buffer].data(), g4.data(), mine.begin, a, b);
        if (chunks > 1) poll();
      }
    }
    if (!cpu && any_pending) {
      runtime::Event done;
      done.record(cex);
      while (!done.ready()) poll();
    }
    compute.synchronize();
  };

  // Peer bandwidth: one-way |G| transfers from ring rank 0 to 1 over ring 0's communicator.
  if (o.peer_bandwidth && S > 1) {
    RingLane& L = lanes[0];
    double t = 0;
    for (int rep = -1; rep < o.peer_repeats; ++rep) {
      ring->barrier();
      runtime::Timer tm;
      tm.start();
      if (r == 0 || r == 1) {
        void* buf = L.staged() ? (r == 0 ? L.stage_send.data() : L.stage_recv.data())
                               : (r == 0 ? L.buf[0].data() : L.buf[1].data());
        const comm::Transfer x = r == 0 ? comm::Transfer::send(buf, gb, 1) : comm::Transfer::recv(buf, gb, 0);
        L.transfers().exchange(std::span<const comm::Transfer>(&x, 1), L.stream.native())->wait();
      }
      tm.stop();
      if (rep >= 0 && r == 1) t += tm.elapsed_s();
    }
    const double bw = r == 1 ? double(gb) * o.peer_repeats / t / 1e9 : 0.0;
    res.peer_bandwidth_gbs = world.max(bw);
  }

  // Calibration: one step of R transfers alone, one of R updates alone (then G4 is zeroed again).
  if (S > 1 && o.calibration_rounds > 0) {
    std::vector<Task> gen, upd;
    for (int i = 0; i < R; ++i) {
      gen.push_back(Task{true, i, 0, ~std::uint64_t{0} - static_cast<std::uint64_t>(i)});
      upd.push_back(Task{false, i, 0, 0});
    }
    run_tasks(gen);
    ring->barrier();
    runtime::Timer tt;
    tt.start();
    for (int c = 0; c < o.calibration_rounds; ++c) {
      for (RingLane& L : lanes) post(L, 0, 1);
      for (RingLane& L : lanes) finish(L);
    }
    tt.stop();
    ring->barrier();
    runtime::Timer tu;
    tu.start();
    for (int c = 0; c < o.calibration_rounds; ++c) run_tasks(upd);
    tu.stop();
    res.transfer_round_s = world.max(tt.elapsed_s() / o.calibration_rounds);
    res.update_round_s = world.max(tu.elapsed_s() / o.calibration_rounds);
    res.transfer_bandwidth_gbs = double(R) * double(gb) / res.transfer_round_s / 1e9;
    zero(g4, ex);
  }

  // The measurement loop. Lane i takes local measurements m = i, i + R, ...; round t is the
  // t-th measurement of every lane. Per measurement S - 1 steps of (post, compute, wait); the
  // last G of a measurement (received at its last step) is updated during the next
  // measurement's first step, and the next measurement's G is generated then too, so that no
  // compute waits outside a transfer (three G buffers per ring).
  runtime::Timer ring_timer, update_timer, wait_timer, gen_timer;
  double comm_alone_s = 0;
  const int rounds = lanes[0].count;
  auto id_of = [&](int lane, int t) { return measurement_id(me, t * R + lane); };
  ring->barrier();
  ring_timer.start();
  if (S == 1) {
    for (int t = 0; t < rounds; ++t) {
      std::vector<Task> tasks;
      for (int i = 0; i < R; ++i)
        if (t < lanes[static_cast<std::size_t>(i)].count) {
          tasks.push_back(Task{true, i, 0, id_of(i, t)});
          tasks.push_back(Task{false, i, 0, 0});
        }
      update_timer.start();
      run_tasks(tasks);
      update_timer.stop();
    }
  } else {
    gen_timer.start();
    std::vector<Task> first;
    for (int i = 0; i < R; ++i) {
      RingLane& L = lanes[static_cast<std::size_t>(i)];
      if (L.count == 0) continue;
      L.cur = 0;
      first.push_back(Task{true, i, 0, id_of(i, 0)});
    }
    run_tasks(first);
    gen_timer.stop();
    for (int t = 0; t < rounds; ++t) {
      std::vector<int> active;
      for (int i = 0; i < R; ++i)
        if (t < lanes[static_cast<std::size_t>(i)].count) active.push_back(i);
      for (int j = 0; j < S - 1; ++j) {
        std::vector<Task> tasks;
        for (int i : active) {
          RingLane& L = lanes[static_cast<std::size_t>(i)];
          post(L, L.cur, L.free_buffer());
          if (L.left >= 0) tasks.push_back(Task{false, i, L.left, 0});
          tasks.push_back(Task{false, i, L.cur, 0});
          if (j == 0 && t + 1 < L.count) {
            const int g = L.left >= 0 ? L.left : L.free_buffer(L.into);
            tasks.push_back(Task{true, i, g, id_of(i, t + 1)});
            L.held = g;
          }
          L.left = -1;
        }
        update_timer.start();
        run_tasks(tasks);
        update_timer.stop();
        wait_timer.start();
        for (int i : active) {
          RingLane& L = lanes[static_cast<std::size_t>(i)];
          finish(L);
          if (j == S - 2) {
            L.left = L.into;
            L.cur = L.held;
            L.held = -1;
          } else {
            L.cur = L.into;
          }
        }
        wait_timer.stop();
        comm_alone_s += res.transfer_round_s * double(active.size()) / R;
      }
    }
    std::vector<Task> last;
    for (int i = 0; i < R; ++i) {
      RingLane& L = lanes[static_cast<std::size_t>(i)];
      if (L.left >= 0) last.push_back(Task{false, i, L.left, 0});
      L.left = -1;
    }
    update_timer.start();
    run_tasks(last);
    update_timer.stop();
  }
  ring_timer.stop();
  res.ring_s = world.max(ring_timer.elapsed_s());
  res.update_s = world.max(update_timer.elapsed_s());
  res.exposed_wait_s = world.max(wait_timer.elapsed_s());
  res.generate_s = world.max(gen_timer.elapsed_s());
  res.bytes_moved_per_rank = double(o.measurements) * (S - 1) * double(gb);
  res.ring_bandwidth_gbs = res.ring_s > 0 ? res.bytes_moved_per_rank / res.ring_s / 1e9 : 0;
  if (comm_alone_s > 0)
    res.hidden_fraction = std::clamp(1.0 - res.exposed_wait_s / world.max(comm_alone_s), 0.0, 1.0);
  res.update_bytes_per_entry = bytes_per_update(layout, o.precision, mine.begin, mine.end);
  if (res.update_round_s > 0)
    res.update_alone_gbs =
        world.max(res.update_bytes_per_entry * double(mine.size()) * R) / res.update_round_s / 1e9;
  const double counted = res.update_bytes_per_entry * double(mine.size()) * o.measurements * S;
  // Per-rank rate: the busiest rank's counted bytes over its update time (generation included).
  res.update_gbs = res.update_s > 0 ? world.max(counted) / res.update_s / 1e9 : 0;

  // Sum across sub-rings, then gather or write.
  runtime::Timer red;
  red.start();
  std::vector<C> values = slice_to_host(g4, o.precision, mine.size());
  if (across->size() > 1)
    across->allreduce_sum(reinterpret_cast<double*>(values.data()), 2 * values.size());
  const bool first_subring = me / S == 0;
  double local_sum = 0;
  if (first_subring)
    for (const C& v : values) local_sum += v.real() + v.imag();
  res.checksum = world.sum(local_sum, comm::Order::reproducible);
  if (!o.output_dir.empty() && first_subring)
    res.files.push_back(write_slice(o.output_dir, layout, mine, r, S, values));
  if (o.gather && first_subring) {
    if (r == 0) {
      res.full.resize(static_cast<std::size_t>(layout.entries_total()));
      std::copy(values.begin(), values.end(), res.full.begin());
      for (int q = 1; q < S; ++q) {
        const Slice s = slice_of(layout.entries_total(), q, S);
        ring->recv(res.full.data() + s.begin, static_cast<std::size_t>(s.size()) * sizeof(C), q, 77);
      }
    } else {
      ring->send(values.data(), values.size() * sizeof(C), 0, 77);
    }
  }
  world.barrier();
  red.stop();
  res.reduce_s = world.max(red.elapsed_s());
  return res;
}

std::vector<C> single_device_g4(const Layout& layout, Precision precision,
                                const runtime::Exec& exec, std::uint64_t seed, int ranks,
                                int measurements) {
  const std::int64_t n = layout.entries_total();
  const MemSpace space = runtime::memspace_for(exec);
  Buffer g4(space, static_cast<std::size_t>(n) * complex_bytes(precision), "single-device G4",
            exec.device);
  zero(g4, exec);
  Buffer g(space, static_cast<std::size_t>(2 * layout.g_elements_per_spin()) * complex_bytes(precision),
           "single-device G", exec.device);
  for (int w = 0; w < ranks; ++w)
    for (int m = 0; m < measurements; ++m) {
      generate_g(exec, layout, precision, g.data(), seed, measurement_id(w, m));
      accumulate(exec, layout, precision, g.data(), g4.data(), 0, 0, n);
    }
  runtime::synchronize(exec);
  return slice_to_host(g4, precision, n);
}

}  // namespace gluon::g4
