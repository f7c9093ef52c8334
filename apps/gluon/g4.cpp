// gluon g4: ring-distributed two-particle (G4) accumulation on seeded synthetic G (docs/g4.md).
// Run under mpirun for several ranks (one GPU per rank with --backend cuda). Prints the times,
// the effective ring bandwidth ((S-1)|G| moved per rank per measurement over the loop time), the
// fraction of the communication hidden behind the update, and with --verify the L1/L2 relative
// errors against a single-device accumulation of the same measurements.
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "commands.h"
#include "gluon/comm/environment.h"
#include "gluon/g4/layout.h"
#include "gluon/g4/reference.h"
#include "gluon/g4/ring.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/exec.h"

namespace gluon::apps {

namespace {

using json = nlohmann::ordered_json;

struct G4Options {
  int bands = 1;
  std::string cluster = "4x4";
  int frequencies = 8;
  int transfers = 1;
  std::string channels = "pp";
  int measurements = 4;
  int ring_size = 0;
  int rings = 1;
  std::string precision = "double";
  std::uint64_t seed = 1;
  std::string backend = "auto";
  std::string memory_limit = "0";
  int calibration_rounds = 2;
  int peer_repeats = 10;
  bool verify = false, json = false, peer_bandwidth = false, gather = false;
  std::string output;
};

std::size_t parse_bytes(const std::string& text) {
  // Plain bytes, or with a K/M/G/T suffix (powers of 1024).
  std::size_t pos = 0;
  double v = -1;
  try {
    v = std::stod(text, &pos);
  } catch (const std::exception&) {
    pos = 0;
  }
  double scale = 1;
  if (pos + 1 == text.size()) {
    const char c = text[pos];
    scale = c == 'K' || c == 'k' ? 1024.0
            : c == 'M' || c == 'm' ? 1048576.0
            : c == 'G' || c == 'g' ? 1073741824.0
            : c == 'T' || c == 't' ? 1099511627776.0
                                   : -1;
    ++pos;
  }
  if (text.empty() || pos != text.size() || v < 0 || scale < 0)
    throw InputError("--memory-limit: expected bytes (e.g. 1000000, 512M, 80G), found '" + text + "'");
  return static_cast<std::size_t>(v * scale);
}

std::string gib(double b) {
  if (b >= 1073741824.0) return fmt::format("{:.3f} GiB", b / 1073741824.0);
  if (b >= 1048576.0) return fmt::format("{:.3f} MiB", b / 1048576.0);
  return fmt::format("{:.3f} KiB", b / 1024.0);
}

void run_g4(const G4Options& o) {
  auto& world = comm::world();
  g4::Params p;
  p.bands = o.bands;
  p.cluster = g4::parse_cluster(o.cluster);
  p.frequencies = o.frequencies;
  p.transfers = o.transfers;
  p.channels = g4::parse_channels(o.channels);
  const g4::Layout layout(p);

  g4::RingOptions ro;
  ro.ring_size = o.ring_size;
  ro.rings = o.rings;
  ro.measurements = o.measurements;
  ro.seed = o.seed;
  ro.precision = g4::precision_from_name(o.precision);
  ro.exec = runtime::exec_from_name(o.backend);
  if (ro.exec.on_device()) {
    const int n = runtime::cuda_device_count();
    ro.exec = runtime::cuda_exec(n > 0 ? world.local_rank() % n : 0);
  }
  ro.memory_limit = parse_bytes(o.memory_limit);
  ro.calibration_rounds = o.calibration_rounds;
  ro.peer_bandwidth = o.peer_bandwidth;
  ro.peer_repeats = o.peer_repeats;
  ro.gather = o.gather || o.verify;
  ro.output_dir = o.output;

  const g4::RingResult r = g4::run_ring(world, layout, ro);

  std::optional<g4::RelativeErrors> err;
  if (o.verify) {
    // The reference on rank 0's device when the whole G4 fits the memory limit, else the host.
    double e[2] = {0, 0};
    if (world.rank() == 0) {
      const bool fits = ro.memory_limit == 0 || r.memory.g4_bytes_total + r.memory.g_bytes <= ro.memory_limit;
      const auto ref = g4::single_device_g4(layout, ro.precision, fits ? ro.exec : runtime::cpu_exec(),
                                            ro.seed, world.size(), ro.measurements);
      const auto re = g4::relative_errors(r.full, ref);
      e[0] = re.l1;
      e[1] = re.l2;
    }
    world.broadcast(e, sizeof e, 0);
    err = g4::RelativeErrors{e[0], e[1]};
  }
  if (world.rank() != 0) return;

  const double hidden_pct = 100.0 * r.hidden_fraction;
  if (o.json) {
    json j;
    j["command"] = "g4";
    j["backend"] = runtime::to_string(ro.exec.backend);
    j["precision"] = o.precision;
    j["bands"] = p.bands;
    j["cluster"] = g4::to_string(p.cluster);
    j["frequencies"] = p.frequencies;
    j["transfers"] = p.transfers;
    json ch = json::array();
    for (auto c : p.channels) ch.push_back(g4::to_string(c));
    j["channels"] = ch;
    j["measurements_per_rank"] = o.measurements;
    j["ranks"] = r.world_size;
    j["ring_size"] = r.ring_size;
    j["subrings"] = r.subrings;
    j["rings"] = r.rings;
    j["transport"] = r.transport;
    j["g4_entries"] = layout.entries_total();
    j["g4_bytes_total"] = r.memory.g4_bytes_total;
    j["g4_bytes_per_rank"] = r.memory.g4_bytes_per_rank;
    j["g_bytes"] = r.memory.g_bytes;
    j["ring_buffer_bytes_per_rank"] = r.memory.ring_buffer_bytes;
    j["memory_limit"] = ro.memory_limit;
    j["ring_s"] = r.ring_s;
    j["update_s"] = r.update_s;
    j["exposed_wait_s"] = r.exposed_wait_s;
    j["generate_s"] = r.generate_s;
    j["reduce_s"] = r.reduce_s;
    j["bytes_moved_per_rank"] = r.bytes_moved_per_rank;
    j["ring_bandwidth_gbs"] = r.ring_bandwidth_gbs;
    j["transfer_round_s"] = r.transfer_round_s;
    j["update_round_s"] = r.update_round_s;
    j["transfer_bandwidth_gbs"] = r.transfer_bandwidth_gbs;
    j["hidden_fraction"] = r.hidden_fraction;
    j["update_bytes_per_entry"] = r.update_bytes_per_entry;
    j["update_gbs"] = r.update_gbs;
    j["update_alone_gbs"] = r.update_alone_gbs;
    if (o.peer_bandwidth) {
      j["peer_bandwidth_gbs"] = r.peer_bandwidth_gbs;
      j["transfer_over_peer"] = r.peer_bandwidth_gbs > 0 ? r.transfer_bandwidth_gbs / r.peer_bandwidth_gbs : 0.0;
    }
    j["checksum"] = r.checksum;
    j["l1_error"] = err ? json(err->l1) : json(nullptr);
    j["l2_error"] = err ? json(err->l2) : json(nullptr);
    if (err) j["verified"] = err->l1 < 5e-7 && err->l2 < 5e-7;
    if (!r.files.empty()) j["slice_files_rank0"] = r.files;
    fmt::print("{}\n", j.dump(2));
    return;
  }
  std::string chs;
  for (auto c : p.channels) chs += (chs.empty() ? "" : ",") + g4::to_string(c);
  fmt::print("g4           {} bands, cluster {} ({} sites), 2F = {}, N_q = {}, channels {}, {}\n", p.bands,
             g4::to_string(p.cluster), p.cluster.sites(), 2 * p.frequencies, p.transfers, chs, o.precision);
  fmt::print("ranks        {} = {} sub-ring(s) of {}, {} ring(s), {} measurement(s) per rank, {}\n", r.world_size,
             r.subrings, r.ring_size, r.rings, o.measurements, runtime::to_string(ro.exec.backend));
  fmt::print("transport    {}\n", r.transport);
  fmt::print("memory       G4 {} total, {} per rank; G {}; ring buffers {} per rank\n", gib(double(r.memory.g4_bytes_total)),
             gib(double(r.memory.g4_bytes_per_rank)), gib(double(r.memory.g_bytes)), gib(double(r.memory.ring_buffer_bytes)));
  fmt::print("time         ring {:.4f} s (update {:.4f} s, exposed wait {:.4f} s, generate {:.4f} s), reduce {:.4f} s\n",
             r.ring_s, r.update_s, r.exposed_wait_s, r.generate_s, r.reduce_s);
  fmt::print("ring         {:.3f} GB/s effective ((S-1)|G| per rank over the loop); transfers alone {:.3f} GB/s\n",
             r.ring_bandwidth_gbs, r.transfer_bandwidth_gbs);
  if (o.peer_bandwidth) fmt::print("peer         {:.3f} GB/s one-way\n", r.peer_bandwidth_gbs);
  if (r.ring_size == 1)
    fmt::print("overlap      no transfers (rings of one rank)\n");
  else
    fmt::print("overlap      {:.1f}% of the communication hidden (transfer round {:.5f} s, update round {:.5f} s)\n",
               hidden_pct, r.transfer_round_s, r.update_round_s);
  fmt::print("update       {:.3f} GB/s in the loop, {:.3f} GB/s alone, counting {:.0f} bytes per entry\n", r.update_gbs,
             r.update_alone_gbs, r.update_bytes_per_entry);
  fmt::print("checksum     {:.17g}\n", r.checksum);
  for (const auto& f : r.files) fmt::print("wrote        {}\n", f);
  if (err)
    fmt::print("verify       L1 {:.3e}, L2 {:.3e} against a single-device accumulation: {}\n", err->l1, err->l2,
               err->l1 < 5e-7 && err->l2 < 5e-7 ? "PASSED" : "FAILED");
}

}  // namespace

void register_g4(CLI::App& app) {
  auto o = std::make_shared<G4Options>();
  auto* cmd = app.add_subcommand("g4", "Ring-distributed two-particle (G4) accumulation on synthetic G");
  cmd->add_option("--bands", o->bands, "Bands n_b")->capture_default_str();
  cmd->add_option("--cluster", o->cluster, "Cluster: sites (1-D) or LxxLy")->capture_default_str();
  cmd->add_option("--frequencies", o->frequencies, "F: G4 holds 2F fermionic frequencies")->capture_default_str();
  cmd->add_option("--transfers", o->transfers, "N_q exchanged (momentum, frequency) pairs")->capture_default_str();
  cmd->add_option("--channels", o->channels, "pp, ph_transverse, ph_charge, ph_magnetic (comma list) or all")
      ->capture_default_str();
  cmd->add_option("--measurements", o->measurements, "Measurements per rank")->capture_default_str();
  cmd->add_option("--ring-size", o->ring_size, "Sub-ring size S (0 = all ranks)")->capture_default_str();
  cmd->add_option("--rings", o->rings, "Independent rings R, each with its own measurements")->capture_default_str();
  cmd->add_option("--precision", o->precision, "double or single")->capture_default_str();
  cmd->add_option("--seed", o->seed, "Seed of the synthetic G")->check(non_negative_integer())->capture_default_str();
  cmd->add_option("--backend", o->backend, "auto, cpu or cuda")->capture_default_str();
  cmd->add_option("--memory-limit", o->memory_limit, "Per-rank cap on G4 slice + ring buffers (bytes, K/M/G suffix; 0 = none)")
      ->capture_default_str();
  cmd->add_option("--calibration-rounds", o->calibration_rounds, "Rounds of transfers alone and updates alone timed first")
      ->capture_default_str();
  cmd->add_option("--peer-repeats", o->peer_repeats, "One-way transfers timed by --peer-bandwidth")->capture_default_str();
  cmd->add_flag("--peer-bandwidth", o->peer_bandwidth, "Also time one-way |G| transfers ring rank 0 -> 1");
  cmd->add_flag("--gather", o->gather, "Gather the whole G4 to rank 0");
  cmd->add_option("--output", o->output, "Each rank of the first sub-ring writes its slice to this directory");
  cmd->add_flag("--verify", o->verify, "Compare with a single-device accumulation (L1/L2 relative error)");
  cmd->add_flag("--json", o->json, "Print one JSON object");
  cmd->callback([o] { run_g4(*o); });
}

namespace {
const CommandRegistration reg{"g4", register_g4};
}

}  // namespace gluon::apps
