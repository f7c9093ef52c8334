// gluon bench copy|dslash|solver: benchmarks (programs, never timed tests; docs/bench.md).
//   copy    streaming copy bandwidth (read + write) of a large buffer where the backend runs
//   dslash  one-parity dslash of an operator: GFLOP/s by the stated flop count, effective GB/s by
//           the minimum traffic, and the fraction of the copy bandwidth measured in the same run
//   solver  a solve with the Krylov solvers of qcd/solvers, against the bare operator
// --json prints one object; --save DIR also writes it to DIR/<device>/<name>.json (atomically).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <memory>
#include <numeric>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.h"
#include "solver_settings.h"
#include "gluon/build_info.h"
#include "gluon/io/atomic_file.h"
#include "gluon/qcd/bench/copy.h"
#include "gluon/comm/environment.h"
#include "gluon/qcd/bench/dslash_bench.h"
#include "ranks.h"
#include "gluon/qcd/bench/traffic.h"
#include "gluon/qcd/dirac/dirac.h"
#include "gluon/qcd/dirac/staggered_links.h"
#include "gluon/qcd/field_layout.h"
#include "gluon/qcd/gauge_start.h"
#include "gluon/qcd/random_fields.h"
#include "gluon/qcd/solvers/multishift_cg.h"
#include "gluon/qcd/solvers/solver.h"
#include "gluon/runtime/profile.h"
#include "gluon/qcd/geometry.h"
#include "gluon/qcd/precision.h"
#include "gluon/runtime/device_info.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/exec.h"
#include "gluon/runtime/tune.h"

namespace gluon::apps {

namespace {

using json = nlohmann::ordered_json;

struct CommonOptions {
  std::string backend = "auto";
  bool json = false;
  std::string save;
};

struct CopyOptions {
  double size_mib = 0;  // 0: auto (copy_bytes_for)
  int iterations = 50;
};

struct DslashOptions {
  std::string op = "wilson", precision = "single", recon = "12", lattice = "32,32,32,32";
  int iterations = 100, warmup = 10;
  std::uint64_t seed = 2026;
  CopyOptions copy{0, 20};
  std::string grid, halo = "auto";
  bool model = false;
  std::string clover_pc = "asymmetric";
  std::vector<std::string> ab_env;  // bench dslash --ab-env NAME=v1,v2,... (repeatable)
};

std::string device_name(const runtime::Exec& ex) {
  if (ex.on_device()) {
    for (const auto& d : runtime::list_devices())
      if (d.ordinal == ex.device) return d.name;
    return "cuda device " + std::to_string(ex.device);
  }
  const auto h = runtime::host_info();
  return fmt::format("CPU {} ({} threads)", h.cpu_model, h.threads);
}

std::string slug(const std::string& s) {
  std::string o;
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) {
      o += static_cast<char>(std::tolower(u));
    } else if (!o.empty() && o.back() != '-') {
      o += '-';
    }
  }
  while (!o.empty() && o.back() == '-') o.pop_back();
  return o.empty() ? "unknown" : o;
}

std::string lattice_text(const qcd::Coords& d) { return fmt::format("{}x{}x{}x{}", d[0], d[1], d[2], d[3]); }

json context(const runtime::Exec& ex) {
  json j;
  j["device"] = device_name(ex);
  j["backend"] = runtime::to_string(ex.backend);
  j["commit"] = build::git;
  j["version"] = build::version;
  const auto h = runtime::host_info();
  j["host"] = {{"hostname", h.hostname}, {"cpu", h.cpu_model}, {"omp_threads", h.threads},
               {"cpu_vector_isa", qcd::cpu_vector_isa()},
               {"l2_cache_kib", static_cast<double>(h.l2_cache) / 1024.0},
               {"last_level_cache_mib", static_cast<double>(h.last_level_cache) / (1024.0 * 1024.0)}};
  j["tuning"] = ex.on_device() ? (runtime::tuning_enabled() ? "on" : "off (GLUON_TUNE=0)") : "none on the CPU (OpenMP)";
  return j;
}

void add_tune_stats(json& j, const runtime::Exec& ex) {
  if (!ex.on_device()) return;
  const auto s = runtime::tune_stats();
  j["tune_cache"] = {{"path", runtime::tune_cache_path()}, {"hits", s.hits}, {"tuned_now", s.tuned},
                     {"entries", s.entries}};
}

void emit(const json& j, const CommonOptions& c, const std::string& file_name, const std::string& text) {
  if (!is_root()) return;  // over MPI, rank 0 reports (the numbers are already reduced)
  if (c.json)
    fmt::print("{}\n", j.dump(2));
  else
    fmt::print("{}", text);
  if (!c.save.empty()) {
    const std::filesystem::path dir = std::filesystem::path(c.save) / slug(j.value("device", std::string("unknown")));
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw IoError(dir.string() + ": cannot create directory: " + ec.message());
    const std::string path = (dir / (file_name + ".json")).string();
    io::AtomicFile f(path);
    f.write(j.dump(2) + "\n");
    f.commit();
    if (!c.json) fmt::print("saved        {}\n", path);
  }
}

// The copy's buffer size: size_mib, or by default 1024 MiB on a GPU (L2 50-60 MiB) and on the
// CPU as STREAM's run rule asks, each buffer at least 4 times the last-level cache, so that the
// copy streams from memory as a 48^4 dslash does: at least 256 MiB, at most an eighth of the
// memory. On the GPU machine's Xeon host (300 MiB of L3) the non-temporal copy read 123-196 GB/s
// with 64 MiB buffers, 95-126 with 256 MiB (the default before 2026-11-28) and 91-103 with
// 4096 MiB (bench/results/2026-11-28-cpu-copy-size/).
std::size_t copy_bytes_for(const runtime::Exec& ex, double size_mib) {
  constexpr double kMiB = 1024.0 * 1024.0;
  if (size_mib > 0) return static_cast<std::size_t>(size_mib * kMiB);
  if (ex.on_device()) return static_cast<std::size_t>(1024.0 * kMiB);
  const auto h = runtime::host_info();
  double bytes = std::max(256.0 * kMiB, 4.0 * static_cast<double>(h.last_level_cache));
  if (h.memory > 0) bytes = std::min(bytes, std::max(256.0 * kMiB, static_cast<double>(h.memory) / 8.0));
  return static_cast<std::size_t>(bytes);
}

// flag: how the options are spelled on this command ("--" for bench copy, "--copy-" where the copy
// is measured alongside a dslash), for the messages.
qcd::bench::CopyBenchResult copy_result(const runtime::Exec& ex, const CopyOptions& o, const std::string& flag) {
  if (o.iterations < 1)
    throw InputError(fmt::format("bench: {}iterations must be at least 1, found {}", flag, o.iterations));
  if (o.size_mib < 0) throw InputError(fmt::format("bench: {}size-mib must be positive, found {}", flag, o.size_mib));
  qcd::bench::CopyBenchParams p;
  p.bytes = copy_bytes_for(ex, o.size_mib);
  p.calls = o.iterations;
  return qcd::bench::measure_copy(ex, p);
}

json copy_json(const qcd::bench::CopyBenchResult& r) {
  json j;
  j["copy_gbs"] = r.copy_gbs;
  j["kernel_copy_gbs"] = r.kernel_gbs;
  j["memcpy_gbs"] = r.memcpy_gbs;
  j["nontemporal_copy_gbs"] = r.nontemporal_gbs;
  j["bytes_per_buffer"] = r.bytes;
  j["calls"] = r.calls;
  j["kernel_ms"] = r.kernel_ms;
  j["memcpy_ms"] = r.memcpy_ms;
  j["bytes_counted"] = "read + write: 2 x bytes_per_buffer per call; 1 GB = 1e9 bytes; median over calls";
  return j;
}

std::string copy_line(const qcd::bench::CopyBenchResult& r, const runtime::Exec& ex) {
  std::string s = fmt::format("copy         {:.1f} GB/s (read + write; {:.1f} MiB buffers, median of {})\n", r.copy_gbs,
                              static_cast<double>(r.bytes) / (1024.0 * 1024.0), r.calls);
  s += fmt::format("             kernel {:.1f} GB/s{}\n", r.kernel_gbs,
                   ex.on_device() ? fmt::format(", cudaMemcpy {:.1f} GB/s", r.memcpy_gbs)
                                   : fmt::format(" (OpenMP), non-temporal stores {:.1f} GB/s", r.nontemporal_gbs));
  return s;
}

void run_copy(const CommonOptions& c, const CopyOptions& o) {
  const runtime::Exec ex = runtime::exec_from_name(c.backend);
  const auto r = copy_result(ex, o, "--");
  json j;
  j["benchmark"] = "copy";
  j.update(context(ex));
  j.update(copy_json(r));
  add_tune_stats(j, ex);
  std::string text = fmt::format("device       {} ({})\n", device_name(ex), runtime::to_string(ex.backend));
  text += copy_line(r, ex);
  emit(j, c, "copy", text);
}

// Checks the flags that need no operator, so that mistakes are reported before any work.
struct DslashSetup {
  qcd::DiracType type;
  qcd::Precision precision;
  qcd::Reconstruct recon;
  qcd::Coords lattice;
  qcd::CloverPreconditioning clover_pc;
};

DslashSetup parse_dslash(const DslashOptions& o) {
  if (o.clover_pc != "asymmetric" && o.clover_pc != "symmetric")
    throw InputError(fmt::format("bench: --clover-pc: expected asymmetric or symmetric, found '{}'", o.clover_pc));
  DslashSetup s{qcd::parse_dirac_type(o.op), qcd::parse_precision(o.precision), qcd::parse_reconstruct(o.recon),
                qcd::parse_lattice(o.lattice),
                o.clover_pc == "symmetric" ? qcd::CloverPreconditioning::symmetric : qcd::CloverPreconditioning::asymmetric};
  if (s.type != qcd::DiracType::clover && s.clover_pc != qcd::CloverPreconditioning::asymmetric)
    throw InputError(fmt::format("bench: --clover-pc {} is for --operator clover, found --operator {}", o.clover_pc, o.op));
  const qcd::Geometry g(s.lattice);  // validates the extents
  (void)g;
  if (o.iterations < 1) throw InputError(fmt::format("bench: --iterations must be at least 1, found {}", o.iterations));
  if (o.warmup < 0) throw InputError(fmt::format("bench: --warmup must be >= 0, found {}", o.warmup));
  if (s.type == qcd::DiracType::improved_staggered && s.recon == qcd::Reconstruct::r8)
    throw InputError("bench dslash: improved staggered: --recon sets the long links, which are stored r18 or r12 "
                     "(fat links are always r18); found 8");
  return s;
}

// --ab-env NAME=v1,v2,... (repeatable): the variables and their lists, of one length.
struct AbSettings {
  std::vector<std::string> variables;
  std::vector<std::vector<std::string>> values;
};
AbSettings parse_ab_env(const std::vector<std::string>& specs) {
  AbSettings ab;
  for (const std::string& spec : specs) {
    const auto eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
      throw InputError(fmt::format("bench dslash: --ab-env: expected NAME=value1,value2,..., found '{}'", spec));
    ab.variables.push_back(spec.substr(0, eq));
    auto& values = ab.values.emplace_back();
    const std::string rest = spec.substr(eq + 1);
    for (std::size_t a = 0;;) {
      const std::size_t b = rest.find(',', a);
      values.push_back(rest.substr(a, b == std::string::npos ? std::string::npos : b - a));
      if (b == std::string::npos) break;
      a = b + 1;
    }
  }
  if (!ab.variables.empty()) qcd::bench::check_ab_settings(ab.variables, ab.values);
  return ab;
}

void run_dslash(const CommonOptions& c, const DslashOptions& o) {
  const DslashSetup s = parse_dslash(o);
  const AbSettings ab = parse_ab_env(o.ab_env);
  apply_halo_flag(o.halo);
  const comm::Grid4 grid = grid_for(s.lattice, o.grid);
  const runtime::Exec ex = exec_for_rank(c.backend);
  const auto copy = copy_result(ex, o.copy, "--copy-");

  qcd::bench::DslashBenchParams p;
  p.type = s.type;
  p.precision = s.precision;
  p.recon = s.recon;
  p.lattice = s.lattice;
  p.exec = ex;
  p.calls = o.iterations;
  p.warmup = o.warmup;
  p.seed = o.seed;
  p.clover_pc = s.clover_pc;
  p.grid = {grid[0], grid[1], grid[2], grid[3]};
  p.ab_variables = ab.variables;
  p.ab_values = ab.values;
  const auto r = qcd::bench::run_dslash_bench(p);
  // The copy bandwidth of all ranks together, for the aggregate fraction.
  const double copy_total = comm::world().sum(copy.copy_gbs);
  const double fraction = copy_total > 0 ? r.effective_gbs / copy_total : 0.0;
  const double operator_fraction = copy_total > 0 ? r.operator_effective_gbs / copy_total : 0.0;
  const double back_to_back_fraction =
      copy_total > 0 && r.dslash_back_to_back_ms > 0 ? r.cost.bytes / (r.dslash_back_to_back_ms * 1e-3) / 1e9 / copy_total
                                                     : 0.0;
  const bool improved = s.type == qcd::DiracType::improved_staggered;
  const std::string recon_text = improved ? fmt::format("fat 18, long {}", static_cast<int>(s.recon))
                                          : std::to_string(static_cast<int>(s.recon));

  json j;
  j["benchmark"] = "dslash";
  j["gflops"] = r.gflops;
  j["effective_gbs"] = r.effective_gbs;
  j["copy_gbs"] = copy.copy_gbs;
  j["fraction_of_copy"] = fraction;
  j.update(context(ex));
  j["operator"] = qcd::to_string(s.type);
  j["precision"] = qcd::to_string(s.precision);
  j["recon"] = static_cast<int>(s.recon);
  if (improved) j["fat_recon"] = 18;
  if (s.type == qcd::DiracType::clover) j["clover_pc"] = o.clover_pc;
  j["lattice"] = {s.lattice[0], s.lattice[1], s.lattice[2], s.lattice[3]};
  j["volume"] = qcd::Geometry(s.lattice).volume();
  j["calls"] = o.iterations;
  j["warmup"] = o.warmup;
  j["seed"] = o.seed;
  j["method"] = r.method;
  j["field_order"] = r.field_order;
  if (!ex.on_device() && r.memory.anon_bytes >= 0)
    j["host_memory"] = {{"anonymous_mib", r.memory.anon_bytes / 1048576.0},
                        {"huge_pages_mib", r.memory.huge_page_bytes / 1048576.0}};
  j["dslash_ms"] = r.dslash_ms;
  if (r.dslash_back_to_back_ms > 0) {
    j["dslash_back_to_back_ms"] = r.dslash_back_to_back_ms;
    j["back_to_back_fraction_of_copy"] = back_to_back_fraction;
  }
  j["flops_per_site"] = r.cost.flops_per_site;
  j["flops_per_dslash"] = r.cost.flops;
  j["bytes_per_dslash"] = r.cost.bytes;
  j["bytes_formula"] = r.cost.formula;
  j["operator_ms"] = r.operator_ms;
  j["operator_gflops"] = r.operator_gflops;
  j["bytes_per_operator"] = r.cost.operator_bytes;
  j["operator_effective_gbs"] = r.operator_effective_gbs;
  j["operator_fraction_of_copy"] = operator_fraction;
  j["copy"] = copy_json(copy);
  if (!r.ab.empty()) {
    json runs = json::array();
    for (const auto& a : r.ab)
      runs.push_back({{"values", a.values},
                      {"dslash_ms", a.dslash_ms},
                      {"gflops", a.gflops},
                      {"effective_gbs", a.effective_gbs},
                      {"fraction_of_copy", copy_total > 0 ? a.effective_gbs / copy_total : 0.0}});
    j["ab"] = {{"variables", p.ab_variables},
               {"method", ex.on_device()
                              ? "the hop launched 3 times per setting (values[i] of every variable) in each of `calls` "
                                "rounds, the last 2 timed (queued behind the first), order reversed every other round; "
                                "median per setting"
                              : "the hop timed once per setting (values[i] of every variable) in each of `calls` rounds, "
                                "order reversed every other round; median per setting"},
               {"runs", runs}};
  }
  add_tune_stats(j, ex);
  j["ranks"] = r.ranks;
  j["grid"] = {grid[0], grid[1], grid[2], grid[3]};
  if (r.split) {
    j["copy_gbs_all_ranks"] = copy_total;
    j["per_rank_gflops"] = r.rank_gflops;
    j["aggregate_gflops"] = r.gflops;
    j["halo_policy"] = r.policy;
    j["halo_transport"] = r.transport;
    j["local_dslash_ms"] = r.local_dslash_ms;
    j["exchange_ms"] = r.exchange_ms;
    j["exposed_comm_ms"] = r.exposed_ms;
    j["hidden_fraction"] = r.hidden_fraction;
    j["model"] = {{"face_bytes_per_dslash", r.model.face_bytes},
                  {"interior_us", r.model.interior_us},
                  {"needed_gbs", r.model.needed_gbs},
                  {"measured_exchange_gbs", r.model.measured_gbs},
                  {"slides_wilson_gbs", r.model.slides_wilson_gbs},
                  {"formula", "needed = face bytes / (local flops / MF); slides: MB = 0.364 MF / L"}};
  }

  std::string text = fmt::format("device       {} ({}){}\n", device_name(ex), runtime::to_string(ex.backend),
                                 r.ranks > 1 ? fmt::format(" x {} ranks, grid {}", r.ranks, grid_text(grid))
                                             : std::string());
  text += copy_line(copy, ex);
  text += fmt::format("dslash       {} {} recon {} on {}: {:.4f} ms per one-parity dslash ({}, median of {})\n",
                      qcd::to_string(s.type), qcd::to_string(s.precision), recon_text, lattice_text(s.lattice),
                      r.dslash_ms, r.method, o.iterations);
  const bool cpu_vector = !ex.on_device() && r.field_order == "tiled";
  // X/2 = 4 mod 8: half-tile tasks, which only the x86-64-v3 build has (conventions.md, "CPU, tiled").
  const bool half_tiles = cpu_vector && (s.lattice[0] / 2) % qcd::kTiledSites != 0;
  text += fmt::format("             {:.1f} GFLOP/s ({} flops/site), {} vectors{}\n", r.gflops, r.cost.flops_per_site,
                      r.field_order,
                      half_tiles   ? std::string(" (avx2 kernel, half tiles)")
                      : cpu_vector ? fmt::format(" ({} kernel)", qcd::cpu_vector_isa())
                                   : std::string());
  text += fmt::format("             {:.1f} GB/s effective = {:.1f}% of copy (minimum traffic {:.4g} bytes: {})\n",
                      r.effective_gbs, 100.0 * fraction, r.cost.bytes, r.cost.formula);
  if (r.dslash_back_to_back_ms > 0)
    text += fmt::format("             back to back: {:.4f} ms a call = {:.1f}% of copy (one event pair around {} calls, as a "
                        "solver and QUDA's dslash test run them)\n",
                        r.dslash_back_to_back_ms, 100.0 * back_to_back_fraction, o.iterations);
  text += fmt::format("operator     M (even-odd): {:.4f} ms, {:.1f} GFLOP/s, {:.1f} GB/s effective = {:.1f}% of copy "
                      "(two hops and the xpay's read: {:.4g} bytes)\n",
                      r.operator_ms, r.operator_gflops, r.operator_effective_gbs, 100.0 * operator_fraction,
                      r.cost.operator_bytes);
  for (const auto& a : r.ab) {
    std::string setting;
    for (std::size_t v = 0; v < a.values.size(); ++v)
      setting += fmt::format("{}{}={}", v ? " " : "", p.ab_variables[v], a.values[v]);
    text += fmt::format("A/B          {}: {:.4f} ms, {:.1f} GFLOP/s, {:.1f}% of copy (median of {}, interleaved)\n", setting,
                        a.dslash_ms, a.gflops, copy_total > 0 ? 100.0 * a.effective_gbs / copy_total : 0.0,
                        o.iterations);
  }
  if (r.split) {
    text += fmt::format("ranks        {} on grid {}: {:.1f} GFLOP/s per rank, {:.1f} aggregate (halo {}, faces over {})\n", r.ranks,
                        grid_text(grid), r.rank_gflops, r.gflops, r.policy, r.transport);
    text += fmt::format("             block alone {:.4f} ms, exchange alone {:.4f} ms, exposed {:.4f} ms: "
                        "{:.0f}% of the exchange hidden\n",
                        r.local_dslash_ms, r.exchange_ms, r.exposed_ms, 100.0 * r.hidden_fraction);
    if (o.model)
      text += fmt::format("model        {:.3g} MB of faces per dslash; interior {:.1f} us at the measured rate, so "
                          "hiding them needs {:.1f} GB/s (measured exchange {:.1f} GB/s; slides' Wilson 0.364 MF/L "
                          "= {:.1f} GB/s)\n",
                          r.model.face_bytes / 1e6, r.model.interior_us, r.model.needed_gbs, r.model.measured_gbs,
                          r.model.slides_wilson_gbs);
  }
  const std::string name = fmt::format("dslash-{}-{}-r{}-{}{}", slug(qcd::to_string(s.type)), qcd::to_string(s.precision),
                                       static_cast<int>(s.recon), lattice_text(s.lattice),
                                       r.ranks > 1 ? "-grid" + grid_text(grid) : std::string());
  emit(j, c, name, text);
}

struct SolverBenchOptions {
  std::string solver = "auto", sloppy = "none";
  double tol = 1e-10, kappa = 0.12, mass = 0.05, csw = 1.0, epsilon = 0.1, delta = 0.0;
  int max_iter = 10000;
  int x_update_batch = qcd::SolverParams{}.x_update_batch;
  int repeat = 5;  // timed solves; the median one is reported
  std::vector<double> ab_delta;  // --ab-delta: these reliable-update deltas, interleaved in one process
  bool kappa_given = false, mass_given = false, csw_given = false;  // on the command line or in the TOML input
  std::vector<double> shifts, shift_tols;  // --solver multishift
  int multishift_window = 0;               // --solver multishift; 0: SolverParams' default
  std::string multishift_together;         // --solver multishift: auto|on|off; empty: auto
};

// --solver multishift without --shifts: 8 shifts spaced by 4 from 0, the span of an RHMC rational
// approximation's poles on a light quark's spectrum.
const std::vector<double> kDefaultShifts = {0.0, 0.0025, 0.01, 0.04, 0.16, 0.64, 2.56, 10.24};

std::vector<double> seconds_of(const std::vector<qcd::SolverResult>& runs) {
  std::vector<double> t;
  for (const auto& run : runs) t.push_back(run.seconds);
  return t;
}
// The index of the median of `times` (the upper one of an even count).
std::size_t median_index(const std::vector<double>& times) {
  std::vector<std::size_t> order(times.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return times[a] < times[b]; });
  return order[order.size() / 2];
}

// A solve on a weak-field configuration (a solvable field, unlike a hot one at these parameters),
// Gaussian right-hand side on the preconditioned system, against the bare operator timed as in
// `bench dslash` in the precision the iterations run in (the sloppy one for mixed solves).
void run_solver(const CommonOptions& c, const DslashOptions& o, const SolverBenchOptions& so) {
  const DslashSetup s = parse_dslash(o);
  check_solver_settings(o.precision, so.sloppy, so.tol);
  if (!o.grid.empty() || o.halo != "auto" || o.model)
    throw InputError("bench solver: --grid, --halo and --model are bench dslash's, for a split lattice; the solver "
                     "benchmark runs on one process");
  const runtime::Exec ex = runtime::exec_from_name(c.backend);
  const bool mixed = so.sloppy != "none";
  if (!so.ab_delta.empty() && !mixed)
    throw InputError("bench solver: --ab-delta: reliable updates are mixed-precision solves' (give --sloppy-precision "
                     "single or half)");
  for (double d : so.ab_delta)
    if (!(d > 0.0 && d < 1.0))
      throw InputError(fmt::format("bench solver: --ab-delta: expected deltas in (0, 1), found {}", d));
  const qcd::Precision inner = mixed ? qcd::parse_precision(so.sloppy) : s.precision;
  const bool multishift = so.solver == "multishift";
  if (!multishift && (!so.shifts.empty() || !so.shift_tols.empty()))
    throw InputError(fmt::format("bench solver: --shifts and --shift-tols are for --solver multishift, found --solver {}",
                                 so.solver));
  if (!multishift && so.multishift_window != 0)
    throw InputError(fmt::format("bench solver: --multishift-window is for --solver multishift, found --solver {}",
                                 so.solver));
  if (!multishift && !so.multishift_together.empty())
    throw InputError(fmt::format("bench solver: --multishift-together is for --solver multishift, found --solver {}",
                                 so.solver));
  const std::vector<double> shifts = so.shifts.empty() ? kDefaultShifts : so.shifts;
  if (multishift && !so.shift_tols.empty() && so.shift_tols.size() != shifts.size())
    throw InputError(fmt::format("bench solver: --shift-tols: expected one per shift ({}), found {}", shifts.size(),
                                 so.shift_tols.size()));
  check_operator_parameters({o.op, so.kappa, so.mass, so.kappa_given, so.mass_given, so.csw_given}, false);

  qcd::bench::DslashBenchParams bp;
  bp.type = s.type;
  bp.precision = inner;
  bp.recon = s.recon;
  bp.lattice = s.lattice;
  bp.exec = ex;
  bp.calls = o.iterations;
  bp.warmup = o.warmup;
  bp.seed = o.seed;
  bp.clover_pc = s.clover_pc;
  const auto bare = qcd::bench::run_dslash_bench(bp);

  const qcd::Geometry g(s.lattice);
  qcd::GaugeField u = qcd::GaugeField::canonical(g);
  qcd::set_weak(u, o.seed, so.epsilon, runtime::cpu_exec());
  const bool improved = s.type == qcd::DiracType::improved_staggered;
  qcd::DiracParams dp;
  dp.type = s.type;
  dp.kappa = so.kappa;
  dp.mass = so.mass;
  dp.csw = so.csw;
  dp.clover_pc = s.clover_pc;
  dp.precision = s.precision;
  if (improved) dp.long_reconstruct = s.recon;
  else dp.reconstruct = s.recon;
  std::optional<qcd::ImprovedStaggeredLinks> links;
  if (improved) links = qcd::unsmeared_improved_links(u, runtime::cpu_exec());
  auto make = [&](const qcd::DiracParams& q) {
    return improved ? qcd::make_improved_staggered(q, links->fat, links->longlinks, ex) : qcd::make_dirac(q, u, ex);
  };
  const auto op = make(dp);
  std::unique_ptr<qcd::DiracOperator> sloppy;
  if (mixed) {
    qcd::DiracParams q = dp;
    q.precision = inner;
    sloppy = make(q);
  }
  // multishift: CG's family (the shifts' iterations are CG's on A = M or M^+ M).
  const qcd::SolverType type = so.solver == "auto"
                                   ? (op->hermitian_positive() ? qcd::SolverType::cg : qcd::SolverType::bicgstab)
                                   : multishift ? qcd::SolverType::cg : qcd::parse_solver_type(so.solver);
  qcd::SpinorField b(op->vector_params()), x(op->vector_params());
  qcd::fill_gaussian(b, o.seed, 0x77, ex);
  qcd::SolverParams sp;
  sp.tol = so.tol;
  sp.max_iter = so.max_iter;
  sp.delta = so.delta;
  sp.x_update_batch = so.x_update_batch;
  if (so.multishift_window != 0) sp.multishift_window = so.multishift_window;
  if (so.multishift_together == "on") sp.multishift_together = 1;
  else if (so.multishift_together == "off") sp.multishift_together = 0;
  else if (!so.multishift_together.empty() && so.multishift_together != "auto")
    throw InputError("bench solver: --multishift-together: expected auto, on or off, found '" + so.multishift_together +
                     "'");
  // One solve: of the chosen solver, or (multishift) every shift at once, whose whole solve is
  // reported (its per-shift results in ms_runs, one per call).
  std::vector<qcd::SpinorField> xs;
  std::vector<qcd::MultiShiftResult> ms_runs;
  auto solve_once = [&](const qcd::SolverParams& q) {
    if (!multishift) return qcd::solve(type, *op, x, b, q, sloppy.get());
    ms_runs.push_back(qcd::multishift_cg(*op, xs, b, shifts, so.shift_tols, q, sloppy.get()));
    return ms_runs.back().total;
  };
  {  // warm-up: the same solve, untimed, so that every kernel the timed one launches is tuned first.
     // (A 20-iteration warm-up left the reliable updates' kernels, which a mixed solve first runs
     // later than that with delta 0.01, to be tuned inside the timed solve: staggered CG
     // double-single once read 0.056 s against 0.025 s; H200, bench/results/2026-11-25-cgnr-fold-h200.)
    qcd::SolverParams w = sp;
    w.throw_on_failure = false;
    solve_once(w);
    ms_runs.clear();
  }
  runtime::profile_reset();  // GLUON_PROFILE=1: the table covers the timed (and --ab-delta) solves
  // The same solve `repeat` times (each from x = 0), the median one reported and every time
  // listed: one solve of a 32^4 lattice on a GPU takes 20-60 ms, and with one timed solve a
  // process one row read 0.822 and 0.840 of its operator in two processes (H200,
  // bench/results/2026-11-27-half-delta/); 5 solves of one process spread by 0.1-1%
  // (bench/results/2026-11-28-single-delta/).
  std::vector<qcd::SolverResult> runs;
  for (int k = 0; k < so.repeat; ++k) runs.push_back(solve_once(sp));
  const std::vector<double> times = seconds_of(runs);
  const std::size_t med = median_index(times);
  const qcd::SolverResult& r = runs[med];
  const double ratio = bare.operator_gflops > 0 ? r.gflops / bare.operator_gflops : 0.0;
  // --ab-delta: the same solve at each delta, `repeat` rounds, the order reversed every other
  // round, so that the settings share this process's operator, memory and spell of the machine
  // (between processes one setting's solves differed by up to 3.5%: H200,
  // bench/results/2026-11-28-single-delta/).
  std::vector<std::vector<qcd::SolverResult>> ab(so.ab_delta.size());
  for (int k = 0; k < so.repeat && !ab.empty(); ++k)
    for (std::size_t i = 0; i < ab.size(); ++i) {
      const std::size_t d = k % 2 == 0 ? i : ab.size() - 1 - i;
      qcd::SolverParams q = sp;
      q.delta = so.ab_delta[d];
      ab[d].push_back(solve_once(q));
    }

  json j;
  j["benchmark"] = "solver";
  j["gflops"] = r.gflops;
  j["operator_gflops"] = bare.operator_gflops;
  j["fraction_of_operator"] = ratio;
  j.update(context(ex));
  j["operator"] = qcd::to_string(s.type);
  j["solver"] = r.solver;
  j["precision"] = r.precision;
  j["recon"] = static_cast<int>(s.recon);
  j["lattice"] = {s.lattice[0], s.lattice[1], s.lattice[2], s.lattice[3]};
  j["tolerance"] = so.tol;
  j["iterations"] = r.iterations;
  if (type != qcd::SolverType::bicgstab && !multishift) j["x_update_batch"] = sp.x_update_batch;
  j["true_residual"] = r.true_residual;
  if (multishift) {
    const qcd::MultiShiftResult& ms = ms_runs[med];
    j["shifts"] = shifts;
    j["shift_tolerances"] = so.shift_tols.empty() ? std::vector<double>(shifts.size(), so.tol) : so.shift_tols;
    j["shift_true_residuals"] = ms.true_residual;
    j["shift_iterations"] = ms.shift_iterations;
    j["shift_refine_iterations"] = ms.refine_iterations;
    j["shift_refine_seconds"] = ms.refine_seconds;
    j["refine_seconds"] = ms.refine_wall_seconds;
    j["refined_together"] = ms.refined_together;
    j["multishift_window"] = sp.multishift_window;
  }
  j["reliable_updates"] = r.reliable_updates;
  if (mixed) j["reliable_delta"] = r.reliable_delta;
  if (type != qcd::SolverType::bicgstab) {  // CG's look-ahead (SolverParams::cg_lookahead)
    j["lookaheads"] = r.lookaheads;
    j["lookaheads_void"] = r.lookaheads_void;
  }
  j["seconds"] = r.seconds;
  j["repeat"] = so.repeat;
  j["seconds_all"] = times;
  j["flops"] = r.flops;
  j["gauge"] = fmt::format("weak start, seed {}, epsilon {}", o.seed, so.epsilon);
  if (s.type == qcd::DiracType::wilson || s.type == qcd::DiracType::clover) j["kappa"] = so.kappa;
  else j["mass"] = so.mass;
  if (s.type == qcd::DiracType::clover) j["clover_pc"] = o.clover_pc;
  std::string ab_text;
  if (!ab.empty()) {
    json runs_j = json::array();
    for (std::size_t d = 0; d < ab.size(); ++d) {
      const std::vector<double> t = seconds_of(ab[d]);
      const qcd::SolverResult& m = ab[d][median_index(t)];
      const double f = bare.operator_gflops > 0 ? m.gflops / bare.operator_gflops : 0.0;
      runs_j.push_back({{"delta", m.reliable_delta}, {"seconds", m.seconds}, {"seconds_all", t},
                        {"iterations", m.iterations}, {"reliable_updates", m.reliable_updates},
                        {"true_residual", m.true_residual}, {"gflops", m.gflops}, {"fraction_of_operator", f}});
      ab_text += fmt::format("ab           delta {}: {:.4f} s (median of {}), {} iterations, {} reliable updates, "
                             "{:.1f}% of the operator\n",
                             m.reliable_delta, m.seconds, t.size(), m.iterations, m.reliable_updates, 100.0 * f);
    }
    j["ab"] = {{"variable", "delta"},
               {"method", "each delta's solve once a round for `repeat` rounds, the order reversed every other "
                          "round; median per delta"},
               {"runs", runs_j}};
  }
  add_tune_stats(j, ex);
  std::string text = fmt::format("device       {} ({})\n", device_name(ex), runtime::to_string(ex.backend));
  text += fmt::format("solver       {} {} in {} precision on {}: {} iterations, true residual {:.3e}, {:.4f} s "
                      "(median of {} solves, {:.4f} to {:.4f} s)\n",
                      qcd::to_string(s.type), r.solver, r.precision, lattice_text(s.lattice), r.iterations,
                      r.true_residual, r.seconds, so.repeat, *std::min_element(times.begin(), times.end()),
                      *std::max_element(times.begin(), times.end()));
  if (multishift) {
    const qcd::MultiShiftResult& ms = ms_runs[med];
    text += fmt::format("             {} shifts {}, refinement iterations {} ({}, {:.4f} s of the solve)\n",
                        shifts.size(), fmt::join(shifts, ","), fmt::join(ms.refine_iterations, ","),
                        ms.refined_together ? "together" : "one by one", ms.refine_wall_seconds);
  }
  if (mixed)
    text += fmt::format("             {} reliable updates (delta {})\n", r.reliable_updates, r.reliable_delta);
  text += fmt::format("             {:.1f} GFLOP/s = {:.1f}% of the bare operator's {:.1f} GFLOP/s ({})\n", r.gflops,
                      100.0 * ratio, bare.operator_gflops, qcd::to_string(inner));
  text += ab_text;
  const std::string name = fmt::format("solver-{}-{}-{}-r{}-{}", slug(qcd::to_string(s.type)), r.solver,
                                       slug(r.precision), static_cast<int>(s.recon), lattice_text(s.lattice));
  emit(j, c, name, text);
}

void add_common(CLI::App* cmd, CommonOptions& c) {
  cmd->add_option("--backend", c.backend, "auto, cpu or cuda")->capture_default_str();
  cmd->add_flag("--json", c.json, "Print one JSON object");
  cmd->add_option("--save", c.save, "Also write the JSON to DIR/<device>/<benchmark>.json");
}

void add_operator_flags(CLI::App* cmd, DslashOptions& o) {
  cmd->add_option("--operator", o.op, "wilson, clover, staggered or improved-staggered")->capture_default_str();
  cmd->add_option("--precision", o.precision, "double, single or half")->capture_default_str();
  cmd->add_option("--recon", o.recon, "Link compression 18, 12 or 8 (improved staggered: the long links)")
      ->capture_default_str();
  cmd->add_option("--lattice", o.lattice, "Lattice X,Y,Z,T (even extents)")->capture_default_str();
  cmd->add_option("--iterations", o.iterations, "Timed calls (the median is reported)")->capture_default_str();
  cmd->add_option("--warmup", o.warmup, "Untimed calls first (they also tune the GPU kernels)")->capture_default_str();
  cmd->add_option("--seed", o.seed, "Seed of the random gauge field and source")->check(non_negative_integer())->capture_default_str();
  cmd->add_option("--copy-size-mib", o.copy.size_mib, "Buffer size of the copy measured alongside (0: auto)")
      ->capture_default_str();
  cmd->add_option("--copy-iterations", o.copy.iterations, "Timed calls of that copy")->capture_default_str();
  cmd->add_option("--grid", o.grid, "Process grid X,Y,Z,T under mpirun (default: least surface)");
  cmd->add_option("--halo", o.halo, "Halo policy on a split lattice: auto, overlap, no-overlap")->capture_default_str();
  cmd->add_flag("--model", o.model, "Print the slides' communication model beside the measurement");
  cmd->add_option("--clover-pc", o.clover_pc, "Clover even-odd preconditioning: asymmetric or symmetric")
      ->capture_default_str();
}

}  // namespace

void register_bench(CLI::App& app) {
  auto* bench = app.add_subcommand("bench", "Benchmarks: copy bandwidth, dslash, solver (docs/bench.md)");
  bench->require_subcommand(1);

  auto common_copy = std::make_shared<CommonOptions>();
  auto copy_opts = std::make_shared<CopyOptions>();
  auto* copy = bench->add_subcommand("copy", "Streaming copy bandwidth (read + write) where the backend runs");
  add_common(copy, *common_copy);
  copy->add_option("--size-mib", copy_opts->size_mib, "Bytes per buffer in MiB (0: 1024 on a GPU; on the CPU 4 times the last-level cache, at least 256)")
      ->capture_default_str();
  copy->add_option("--iterations", copy_opts->iterations, "Timed calls (the median is reported)")->capture_default_str();
  copy->callback([common_copy, copy_opts] { run_copy(*common_copy, *copy_opts); });

  auto common_dslash = std::make_shared<CommonOptions>();
  auto dslash_opts = std::make_shared<DslashOptions>();
  auto* dslash = bench->add_subcommand("dslash", "One-parity dslash: GFLOP/s, effective GB/s, fraction of copy");
  add_common(dslash, *common_dslash);
  add_operator_flags(dslash, *dslash_opts);
  dslash->add_option("--ab-env", dslash_opts->ab_env,
                     "NAME=v1,v2,...: then time the hop with the environment variable NAME set to each value in "
                     "turn, interleaved in one process (kernel knobs read at each call, e.g. GLUON_CPU_PREFETCH). "
                     "Repeated: setting i takes the i-th value of each");
  dslash->callback([common_dslash, dslash_opts] { run_dslash(*common_dslash, *dslash_opts); });

  auto common_solver = std::make_shared<CommonOptions>();
  auto solver_opts = std::make_shared<DslashOptions>();
  solver_opts->precision = "double";  // the outer precision (single could not reach the default tol 1e-10)
  auto solve_opts = std::make_shared<SolverBenchOptions>();
  auto* solver = bench->add_subcommand("solver", "A Krylov solve against the bare operator");
  add_common(solver, *common_solver);
  add_operator_flags(solver, *solver_opts);
  solver->add_option("--solver", solve_opts->solver, "auto, cg, cgnr, cgne, bicgstab, multishift")->capture_default_str();
  solver->add_option("--shifts", solve_opts->shifts,
                     fmt::format("--solver multishift: the shifts sigma_i of (A + sigma_i) x_i = b, comma list "
                                 "(default {})",
                                 fmt::join(kDefaultShifts, ",")))
      ->delimiter(',');
  solver->add_option("--shift-tols", solve_opts->shift_tols,
                     "--solver multishift: each shift's relative tolerance, comma list (default --tol for all)")
      ->delimiter(',');
  solver->add_option("--sloppy-precision", solve_opts->sloppy, "none, single or half (mixed precision)")->capture_default_str();
  solver->add_option("--tol", solve_opts->tol, "Relative true residual")->capture_default_str();
  solver->add_option("--max-iter", solve_opts->max_iter, "Iteration limit")->capture_default_str();
  solver->add_option("--delta", solve_opts->delta,
                     "Reliable-update threshold (mixed); 0: by the sloppy precision and solver, single 0.001 BiCGstab, 0.0001 CG family; half 0.02 BiCGstab, 0.1 CG family")
      ->capture_default_str();
  solver->add_option("--x-update-batch", solve_opts->x_update_batch,
                     "CG/CGNR/CGNE: iterations whose solution updates are applied in one pass (1 to 8)")
      ->capture_default_str();
  solver->add_option("--multishift-window", solve_opts->multishift_window,
                     fmt::format("--solver multishift: iterations whose shift updates are applied in one pass "
                                 "(1 to 8; default {})",
                                 qcd::SolverParams{}.multishift_window));
  solver->add_option("--multishift-together", solve_opts->multishift_together,
                     "--solver multishift: refine the shifts together (on), one by one (off), or together where "
                     "the sloppy operator runs on a GPU and applies several vectors in one pass (auto, the default)");
  solver->add_option("--repeat", solve_opts->repeat, "Timed solves after the warm-up; the median one is reported")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  solver->add_option("--ab-delta", solve_opts->ab_delta,
                     "Mixed solves: also time these reliable-update deltas (comma list), interleaved over --repeat "
                     "rounds in this process")
      ->delimiter(',');
  auto* kappa = solver->add_option("--kappa", solve_opts->kappa, "Wilson/clover hopping parameter")->capture_default_str();
  auto* csw = solver->add_option("--csw", solve_opts->csw, "Clover coefficient (clover)")->capture_default_str();
  auto* mass = solver->add_option("--mass", solve_opts->mass, "Staggered mass")->capture_default_str();
  solver->add_option("--epsilon", solve_opts->epsilon, "Weak-field amplitude of the gauge field")->capture_default_str();
  solver->callback([common_solver, solver_opts, solve_opts, kappa, csw, mass] {
    solve_opts->kappa_given = kappa->count() > 0;
    solve_opts->csw_given = csw->count() > 0;
    solve_opts->mass_given = mass->count() > 0;
    run_solver(*common_solver, *solver_opts, *solve_opts);
  });
}

}  // namespace gluon::apps
