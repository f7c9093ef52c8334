// gluon hpl [FILE]: HPL 2.3-compatible Linpack (docs/hpl.md). Reads HPL.dat, runs every listed
// combination on a P x Q grid of the MPI ranks, prints HPL's output (T/V line, residual PASSED or
// FAILED) and exits non-zero when any run FAILED. With a GPU and P = 1 the GPU LU runs, with [A b]
// in device memory when it fits, else (Q = 1) out of core (--placement). Otherwise the host LU
// runs and the trailing update goes to the CPU (OpenBLAS), or is split between cuBLAS and the CPU
// by an adaptive split table (--backend hybrid), or to the GPU only (--backend cuda);
// --gpu-memory-limit caps the device memory used.
#include <fmt/format.h>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "commands.h"
#include "gluon/build_info.h"
#include "gluon/comm/environment.h"
#include "gluon/hpl/dat.h"
#include "gluon/hpl/dgemm_rate.h"
#include "gluon/hpl/lu.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/device_info.h"
#include "gluon/runtime/exec.h"

namespace gluon::apps {

namespace {

struct HplOptions {
  std::string file = "HPL.dat";
  std::string backend = "auto";
  std::string split_table;
  std::string placement = "auto";
  std::string json;
  std::size_t gpu_memory_limit = 0;
  double gpu_fraction = -1.0;
  double progress_s = 5.0;
  int device = -1;
  std::string dgemm;  // "M,N,K": measure the DGEMM rate first
  bool corrupt = false;
};

const char* kRule = "================================================================================";
const char* kDash = "--------------------------------------------------------------------------------";

std::string fact_name(hpl::Fact f) { return f == hpl::Fact::left ? "Left" : f == hpl::Fact::crout ? "Crout" : "Right"; }

template <class T, class F>
std::string list(const std::vector<T>& v, F f) {
  std::string s;
  for (const auto& x : v) s += fmt::format(" {:>7}", f(x));
  return s;
}

std::string header(const hpl::HplDat& d) {
  std::ostringstream o;
  o << kRule << "\n"
    << "HPLinpack 2.3  --  High-Performance Linpack benchmark  --   December 2, 2018\n"
    << "Reimplemented in gluon " << build::version << " (" << build::git << "): output and input as HPL 2.3\n"
    << kRule << "\n\n"
    << "An explanation of the input/output parameters follows:\n"
    << "T/V    : Wall time / encoded variant.\n"
    << "N      : The order of the coefficient matrix A.\n"
    << "NB     : The partitioning blocking factor.\n"
    << "P      : The number of process rows.\n"
    << "Q      : The number of process columns.\n"
    << "Time   : Time in seconds to solve the linear system.\n"
    << "Gflops : Rate of execution for solving the linear system.\n\n"
    << "The following parameter values will be used:\n\n";
  auto id = [](auto x) { return fmt::format("{}", x); };
  o << "N      :" << list(d.ns, id) << "\n";
  o << "NB     :" << list(d.nbs, id) << "\n";
  o << "PMAP   : " << (d.column_major ? "Column-major" : "Row-major") << " process mapping\n";
  o << "P      :" << list(d.ps, id) << "\n";
  o << "Q      :" << list(d.qs, id) << "\n";
  o << "PFACT  :" << list(d.pfacts, fact_name) << "\n";
  o << "NBMIN  :" << list(d.nbmins, id) << "\n";
  o << "NDIV   :" << list(d.ndivs, id) << "\n";
  o << "RFACT  :" << list(d.rfacts, fact_name) << "\n";
  o << "BCAST  :" << list(d.bcasts, hpl::bcast_name) << "\n";
  o << "DEPTH  :" << list(d.depths, id) << "\n";
  o << "SWAP   : "
    << (d.swap == hpl::Swap::bin_exch ? "Binary-exchange"
        : d.swap == hpl::Swap::spread_roll ? "Spread-roll (long)"
                                           : fmt::format("Mix (threshold = {})", d.swap_threshold))
    << "\n";
  o << "L1     : " << (d.l1_form == 0 ? "transposed" : "no-transposed") << " form\n";
  o << "U      : " << (d.u_form == 0 ? "transposed" : "no-transposed") << " form\n";
  o << "EQUIL  : " << (d.equilibration ? "yes" : "no") << "\n";
  o << "ALIGN  : " << d.alignment << " double precision words\n\n";
  o << kDash << "\n\n"
    << "- The matrix A is randomly generated for each test.\n"
    << "- The following scaled residual check will be computed:\n"
    << "      ||Ax-b||_oo / ( eps * ( || x ||_oo * || A ||_oo + || b ||_oo ) * N )\n"
    << fmt::format("- The relative machine precision (eps) is taken to be {:>20.6e}\n", std::ldexp(1.0, -53))
    << fmt::format("- Computational tests pass if scaled residuals are less than {:>18.1f}\n\n", d.threshold);
  return o.str();
}

std::string now_text(std::time_t t) {
  char buf[64];
  std::string s = ctime_r(&t, buf) ? buf : "?\n";
  return s;
}

void run(const HplOptions& o) {
  auto& world = comm::world();
  const hpl::HplDat dat = hpl::read_hpl_dat(o.file);
  const auto runs = hpl::expand(dat);
  const bool speaker = world.rank() == 0;
  // HPL's device out: 6 stdout, 7 stderr, otherwise the output file. With --json - the text goes
  // to stderr so that stdout is the JSON.
  std::ofstream file;
  std::ostream* out = &std::cout;
  if (dat.device_out == 7 || o.json == "-") {
    out = &std::cerr;
  } else if (dat.device_out != 6 && speaker) {
    file.open(dat.output_file);
    if (!file) throw IoError(dat.output_file + ": cannot open HPL's output file (HPL.dat line 3)");
    out = &file;
  }
  std::string backend = o.backend;
  if (backend == "auto") backend = runtime::cuda_available() ? "hybrid" : "cpu";
  if (backend != "cpu" && backend != "cuda" && backend != "hybrid")
    throw InputError("hpl: --backend must be auto, cpu, cuda or hybrid, found '" + o.backend + "'");
  std::unique_ptr<hpl::UpdateEngine> engine;
  int device = 0;
  if (backend == "cpu") {
    if (o.gpu_memory_limit > 0 || !o.split_table.empty() || o.gpu_fraction >= 0 || o.placement != "auto")
      throw InputError(
          "hpl: --gpu-memory-limit, --split-table, --gpu-fraction and --placement need --backend cuda or hybrid");
    engine = hpl::make_cpu_engine();
  } else {
    hpl::CudaEngineOptions co;
    const int ndev = static_cast<int>(runtime::list_devices().size());
    device = o.device >= 0 ? o.device : (ndev > 0 ? world.local_rank() % ndev : 0);
    co.device = device;
    co.mode = backend == "cuda" ? "gpu" : "hybrid";
    co.fixed_fraction = o.gpu_fraction;
    co.split_table = o.split_table;
    co.memory_limit = o.gpu_memory_limit;
    co.placement = o.placement;
    // One table per rank when several ranks share a file name.
    if (!co.split_table.empty() && world.size() > 1) co.split_table += fmt::format(".rank{}", world.rank());
    engine = hpl::make_cuda_engine(co);
  }

  nlohmann::ordered_json js;
  js["version"] = build::version;
  js["commit"] = build::git;
  js["file"] = o.file;
  js["ranks"] = world.size();
  js["engine"] = engine->name();
  if (!o.dgemm.empty()) {
    long m = 0, n = 0, k = 0;
    if (std::sscanf(o.dgemm.c_str(), "%ld,%ld,%ld", &m, &n, &k) != 3)
      throw InputError("hpl: --dgemm expects M,N,K (e.g. 16384,16384,1024), found '" + o.dgemm + "'");
    const auto r = hpl::measure_dgemm(backend == "cpu" ? "cpu" : "cuda", m, n, k, 3, device);
    if (speaker)
      *out << fmt::format("DGEMM rate ({}, {}x{}x{}): {:.1f} GFLOP/s\n", r.backend, m, n, k, r.gflops);
    js["dgemm"] = {{"backend", r.backend}, {"m", m}, {"n", n}, {"k", k}, {"gflops", r.gflops}};
  }
  if (speaker) *out << header(dat) << std::flush;

  int passed = 0, failed = 0, skipped = 0;
  std::set<std::pair<int, int>> reported;  // grids already reported as too large
  js["runs"] = nlohmann::ordered_json::array();
  for (const auto& r : runs) {
    if (r.p * r.q > world.size()) {
      ++skipped;
      if (speaker && reported.insert({r.p, r.q}).second)
        *out << fmt::format("HPL ERROR: grid {} x {} needs {} processes, {} present: its runs are skipped\n", r.p, r.q,
                            r.p * r.q, world.size());
      continue;
    }
    auto grid = hpl::make_grid(world, r.p, r.q, r.column_major);
    hpl::RunResult res;
    const std::time_t t_start = std::time(nullptr);
    if (grid) {
      hpl::RunOptions ro;
      ro.engine = engine.get();
      ro.corrupt_solution = o.corrupt;
      ro.progress_interval_s = o.progress_s;
      res = hpl::run_hpl(r, *grid, ro);
    }
    const std::time_t t_end = std::time(nullptr);
    double flag = res.passed ? 1.0 : 0.0;
    world.broadcast(&flag, sizeof flag, 0);
    res.passed = flag != 0.0;
    res.passed ? ++passed : ++failed;
    if (speaker) {
      *out << kRule << "\n"
           << "T/V                N    NB     P     Q               Time                 Gflops\n"
           << kDash << "\n"
           << fmt::format("{}{:>12} {:>5} {:>5} {:>5} {:>18.2f}    {:>19.4e}\n", hpl::variant_code(r).substr(0, 8),
                          r.n, r.nb, r.p, r.q, res.time_s, res.gflops)
           << "HPL_pdgesv() start time " << now_text(t_start) << "\n"
           << "HPL_pdgesv() end time   " << now_text(t_end) << "\n"
           << kDash << "\n"
           << fmt::format("||Ax-b||_oo/(eps*(||A||_oo*||x||_oo+||b||_oo)*N)= {:>16.8e} ...... {}\n", res.resid,
                          res.passed ? "PASSED" : "FAILED")
           << std::flush;
      if (!res.breakdown.empty()) std::cerr << "hpl: N=" << r.n << " NB=" << r.nb << " " << res.breakdown << std::endl;
      js["runs"].push_back({{"tv", hpl::variant_code(r)},
                            {"n", r.n},
                            {"nb", r.nb},
                            {"p", r.p},
                            {"q", r.q},
                            {"pfact", std::string(1, hpl::fact_letter(r.pfact))},
                            {"rfact", std::string(1, hpl::fact_letter(r.rfact))},
                            {"nbmin", r.nbmin},
                            {"ndiv", r.ndiv},
                            {"bcast", hpl::bcast_name(r.bcast)},
                            {"depth", r.depth},
                            {"swap", hpl::swap_name(r.swap)},
                            {"time_s", res.time_s},
                            {"gflops", res.gflops},
                            {"resid", res.resid},
                            {"norm_a", res.norm_a},
                            {"norm_x", res.norm_x},
                            {"norm_b", res.norm_b},
                            {"placement", res.placement},
                            {"breakdown", res.breakdown},
                            {"passed", res.passed}});
    }
  }
  if (speaker) {
    const std::string summary = engine->summary();
    if (!summary.empty()) *out << kDash << "\nUpdate engine: " << engine->name() << "\n" << summary;
    *out << kRule << "\n\n"
         << fmt::format("Finished {:>6} tests with the following results:\n", passed + failed)
         << fmt::format("         {:>6} tests completed and passed residual checks,\n", passed)
         << fmt::format("         {:>6} tests completed and failed residual checks,\n", failed)
         << fmt::format("         {:>6} tests skipped because of illegal input values.\n", skipped) << kDash
         << "\n\nEnd of Tests.\n"
         << kRule << "\n"
         << std::flush;
    js["passed"] = passed, js["failed"] = failed, js["skipped"] = skipped;
    js["engine_summary"] = summary;
    if (o.json == "-") {
      std::cout << js.dump(2) << "\n";
    } else if (!o.json.empty()) {
      std::ofstream jf(o.json);
      if (!jf) throw IoError(o.json + ": cannot write the JSON summary");
      jf << js.dump(2) << "\n";
    }
  }
  if (failed > 0)
    throw NumericalError(fmt::format("hpl: {} of {} runs FAILED the residual check", failed, passed + failed));
  if (passed == 0) throw InputError("hpl: no run fits the " + std::to_string(world.size()) + " processes present");
}

void register_hpl(CLI::App& app) {
  auto o = std::make_shared<HplOptions>();
  auto* c = app.add_subcommand("hpl", "HPL 2.3-compatible Linpack: hybrid CPU+GPU LU of HPL.dat's problems");
  c->add_option("file", o->file, "HPL.dat input (HPL 2.3's 31 lines)")->capture_default_str();
  c->add_option("--backend", o->backend, "auto|cpu|cuda|hybrid (auto: hybrid when a GPU is present)")->capture_default_str();
  c->add_option("--split-table", o->split_table, "adaptive split table file: loaded when present, saved at the end");
  c->add_option("--gpu-memory-limit", o->gpu_memory_limit,
                "device memory (bytes) a run may use: the resident matrix, or the streamed tiles");
  c->add_option("--placement", o->placement,
                "auto|resident|out-of-core|streamed: the GPU LU with [A b] in device memory (P = 1, when it fits) or "
                "in host memory in windows (P = Q = 1), or the host LU streaming the update's tiles (auto: in that "
                "order, the first possible)")
      ->capture_default_str();
  c->add_option("--gpu-fraction", o->gpu_fraction, "fixed GPU share of the update instead of the adaptive split (0..1)");
  c->add_option("--device", o->device, "CUDA device (default: local rank modulo the devices)");
  c->add_option("--json", o->json, "also write a JSON summary to this file ('-': stdout, HPL text on stderr)");
  c->add_option("--progress", o->progress_s, "seconds between progress lines on stderr (0: none)")->capture_default_str();
  c->add_option("--dgemm", o->dgemm, "M,N,K: first measure the DGEMM rate of the backend (reference rate)");
  c->add_flag("--test-corrupt-solution", o->corrupt, "test hook: perturb x before the check (the run must FAIL)")
      ->group("");
  c->callback([o] { run(*o); });
}

const CommandRegistration reg{"hpl", register_hpl};

}  // namespace

}  // namespace gluon::apps
