// gluon bench: the copy benchmark on the CPU end to end (JSON, --save), the flag errors of
// copy/dslash/solver, the dslash on a small lattice once the operators exist, and the library
// pieces: flop and minimum-traffic counts, median, the copy kernel.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

#include "gluon/qcd/bench/copy.h"
#include "gluon/qcd/bench/timing.h"
#include "gluon/qcd/bench/traffic.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/exec.h"
#include "gluon/runtime/device_info.h"
#include "test_support.h"

using gluon::test::gluon_binary;
using gluon::test::run_command;
using gluon::test::scratch_dir;
using namespace gluon;
using namespace gluon::qcd;
using namespace gluon::qcd::bench;

namespace {

nlohmann::json parse_or_fail(const std::string& out) {
  try {
    return nlohmann::json::parse(out);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not JSON: " << e.what() << "\n" << out;
    return {};
  }
}

}  // namespace

TEST(BenchCli, CopyOnTheCpuGivesAPositiveBandwidthAndSavesIt) {
  const std::string dir = scratch_dir();
  std::string out;
  const int rc = run_command(gluon_binary() + " bench copy --backend cpu --size-mib 8 --iterations 3 --json --save " + dir,
                             out);
  ASSERT_EQ(rc, 0) << out;
  const auto j = parse_or_fail(out);
  ASSERT_TRUE(j.contains("copy_gbs")) << out;
  EXPECT_GT(j["copy_gbs"].get<double>(), 0.0);
  EXPECT_LT(j["copy_gbs"].get<double>(), 1e5);  // 100 TB/s: not a CPU
  EXPECT_EQ(j["backend"], "cpu");
  EXPECT_EQ(j["bytes_per_buffer"], 8 << 20);
  EXPECT_EQ(j["calls"], 3);
  EXPECT_FALSE(j["commit"].get<std::string>().empty());
  EXPECT_FALSE(j["device"].get<std::string>().empty());
  EXPECT_EQ(j["memcpy_gbs"], 0.0);  // no device copy on the CPU
#if defined(__x86_64__)
  EXPECT_GT(j["nontemporal_copy_gbs"].get<double>(), 0.0);
  EXPECT_EQ(j["copy_gbs"], std::max(j["kernel_copy_gbs"].get<double>(), j["nontemporal_copy_gbs"].get<double>()));
#endif
  // --save: the same object under DIR/<device>/copy.json
  int files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    ++files;
    EXPECT_EQ(e.path().filename(), "copy.json");
    std::ifstream in(e.path());
    const auto saved = nlohmann::json::parse(in);
    EXPECT_EQ(saved["copy_gbs"], j["copy_gbs"]);
  }
  EXPECT_EQ(files, 1);

  // human-readable form
  ASSERT_EQ(run_command(gluon_binary() + " bench copy --backend cpu --size-mib 4 --iterations 2", out), 0) << out;
  EXPECT_NE(out.find("GB/s"), std::string::npos) << out;
}

// The CPU copy's default buffers follow STREAM's run rule: at least 4 times the last-level cache
// the host reports, at least 256 MiB, at most an eighth of the memory (docs/bench.md).
TEST(BenchCli, CpuCopyBuffersDefaultToFourTimesTheLastLevelCache) {
  std::string out;
  ASSERT_EQ(run_command(gluon_binary() + " bench copy --backend cpu --iterations 1 --json", out), 0) << out;
  const auto j = parse_or_fail(out);
  ASSERT_TRUE(j.contains("host") && j["host"].contains("last_level_cache_mib")) << out;
  const double llc = j["host"]["last_level_cache_mib"].get<double>() * 1048576.0;
  const double bytes = j["bytes_per_buffer"].get<double>();
  const auto h = gluon::runtime::host_info();
  EXPECT_EQ(llc, static_cast<double>(h.last_level_cache));
  EXPECT_GE(bytes, 256.0 * 1048576.0);
  const double cap = std::max(256.0 * 1048576.0, static_cast<double>(h.memory) / 8.0);
  EXPECT_NEAR(bytes, std::min(std::max(256.0 * 1048576.0, 4.0 * llc), cap), 1.0) << out;
}

TEST(BenchCli, FlagErrorsNameTheFlagAndValue) {
  struct Case {
    std::string args, expect;
  };
  const Case cases[] = {
      {"bench", "subcommand"},
      {"bench copy --size-mib -1 --backend cpu", "size-mib"},
      {"bench copy --iterations 0 --backend cpu", "iterations"},
      {"bench copy --backend gpu9", "gpu9"},
      {"bench dslash --operator overlap --backend cpu", "overlap"},
      {"bench dslash --precision quad --backend cpu", "quad"},
      {"bench dslash --recon 7 --backend cpu", "7"},
      {"bench dslash --lattice 4,4,5,4 --backend cpu", "5"},
      {"bench dslash --lattice 4,4,4 --backend cpu", "4,4,4"},
      {"bench dslash --iterations 0 --backend cpu", "iterations"},
      {"bench dslash --warmup -1 --backend cpu", "warmup"},
      {"bench dslash --operator improved-staggered --recon 8 --backend cpu", "long links"},
      {"bench dslash --no-such-flag", "no-such-flag"},
      {"bench solver --operator overlap --backend cpu", "overlap"},
      {"bench dslash --copy-iterations 0 --backend cpu", "--copy-iterations must be at least 1, found 0"},
      {"bench solver --precision single --backend cpu", "--tol 1.0e-10: below what --precision single can reach"},
      {"bench solver --sloppy-precision double --backend cpu", "the inner precision must be lower than --precision double"},
      {"bench solver --halo overlap --backend cpu", "--grid, --halo and --model are bench dslash's"},
      {"bench dslash --operator clover --clover-pc diagonal --backend cpu", "expected asymmetric or symmetric, found 'diagonal'"},
      {"bench solver --operator wilson --clover-pc symmetric --backend cpu", "--clover-pc symmetric is for --operator clover"},
      {"bench dslash --ab-env GLUON_CPU_STREAM_STORES --backend cpu", "--ab-env: expected NAME=value1,value2,..., found 'GLUON_CPU_STREAM_STORES'"},
      {"bench dslash --ab-env =0,1 --backend cpu", "--ab-env: expected NAME=value1,value2,..., found '=0,1'"},
      {"bench solver --ab-env GLUON_CPU_STREAM_STORES=0,1 --backend cpu", "ab-env"},
      {"bench solver --operator staggered --kappa 0.12 --backend cpu", "--kappa: --operator staggered takes --mass"},
      {"bench solver --operator wilson --csw 1.2 --backend cpu", "--csw: only --operator clover has a clover term"},
      {"bench solver --operator clover --mass 0.1 --backend cpu", "--mass: --operator clover takes --kappa here"},
      {"bench solver --operator wilson --kappa 0.3 --backend cpu", "--kappa: expected 0 < kappa < 0.25, found 0.3"},
  };
  for (const auto& c : cases) {
    std::string out;
    const int rc = run_command(gluon_binary() + " " + c.args, out);
    EXPECT_NE(rc, 0) << c.args << "\n" << out;
    EXPECT_NE(out.find(c.expect), std::string::npos) << c.args << "\n" << out;
    EXPECT_EQ(out.find("internal error"), std::string::npos) << c.args << "\n" << out;
  }
}

TEST(BenchCli, DslashOnASmallLatticeReportsTheRequiredKeys) {
  for (const char* op : {"wilson", "clover", "staggered", "improved-staggered"}) {
    SCOPED_TRACE(op);
    std::string out;
    const int rc = run_command(gluon_binary() + " bench dslash --backend cpu --lattice 4,4,4,8 --iterations 3 --warmup 1"
                                                " --precision single --recon 12 --copy-size-mib 4 --copy-iterations 2"
                                                " --json --operator " + op,
                               out);
    ASSERT_EQ(rc, 0) << out;
    const auto j = parse_or_fail(out);
    for (const char* key : {"gflops", "effective_gbs", "copy_gbs", "fraction_of_copy"}) {
      ASSERT_TRUE(j.contains(key)) << key << "\n" << out;
      EXPECT_GT(j[key].get<double>(), 0.0) << key;
    }
    EXPECT_NEAR(j["fraction_of_copy"].get<double>(),
                j["effective_gbs"].get<double>() / j["copy_gbs"].get<double>(), 1e-9);
    EXPECT_EQ(j["lattice"], nlohmann::json({4, 4, 4, 8}));
    EXPECT_EQ(j["operator"], op);
    EXPECT_EQ(j["precision"], "single");
    EXPECT_EQ(j["recon"], 12);
    const DslashCost c = dslash_cost(parse_dirac_type(op), Precision::single,
                                     std::string(op) == "improved-staggered" ? Reconstruct::r18 : Reconstruct::r12,
                                     Reconstruct::r12, 4 * 4 * 4 * 8);
    EXPECT_DOUBLE_EQ(j["bytes_per_dslash"].get<double>(), c.bytes);
    EXPECT_DOUBLE_EQ(j["bytes_per_operator"].get<double>(), c.operator_bytes);
    for (const char* key : {"dslash_ms", "dslash_back_to_back_ms", "back_to_back_fraction_of_copy", "operator_ms",
                            "operator_gflops", "operator_effective_gbs"})
      EXPECT_GT(j[key].get<double>(), 0.0) << key;
    EXPECT_NEAR(j["operator_fraction_of_copy"].get<double>(),
                j["operator_effective_gbs"].get<double>() / j["copy_gbs"].get<double>(), 1e-9);
    EXPECT_NE(j["method"].get<std::string>().find("one-parity hop"), std::string::npos);
#if defined(__linux__)
    // the process's memory while the fields were allocated, and the part in huge pages
    ASSERT_TRUE(j.contains("host_memory")) << out;
    const double anon = j["host_memory"]["anonymous_mib"].get<double>();
    const double huge = j["host_memory"]["huge_pages_mib"].get<double>();
    EXPECT_GT(anon, 0.0);
    EXPECT_GE(huge, 0.0);
    EXPECT_LE(huge, anon);
#endif
    EXPECT_NEAR(j["gflops"].get<double>() / j["effective_gbs"].get<double>(), c.flops / c.bytes, 1e-9 * c.flops / c.bytes);
  }
}

// --ab-env: after the plain measurement, the hop timed under each setting in one process,
// reported per setting in the given order; repeated, setting i takes every variable's i-th value.
TEST(BenchCli, DslashAbTimesEachSettingOfTheVariables) {
  std::string out;
  const int rc = run_command(gluon_binary() + " bench dslash --backend cpu --operator wilson --lattice 16,4,4,4"
                                              " --iterations 3 --warmup 1 --copy-size-mib 4 --copy-iterations 2 --json"
                                              " --ab-env GLUON_CPU_PREFETCH=all,ahead,none"
                                              " --ab-env GLUON_CPU_STREAM_STORES=0,1,auto",
                             out);
  ASSERT_EQ(rc, 0) << out;
  const auto j = parse_or_fail(out);
  ASSERT_TRUE(j.contains("ab")) << out;
  EXPECT_EQ(j["ab"]["variables"], nlohmann::json({"GLUON_CPU_PREFETCH", "GLUON_CPU_STREAM_STORES"}));
  const auto& runs = j["ab"]["runs"];
  ASSERT_EQ(runs.size(), 3u) << out;
  const nlohmann::json values[] = {{"all", "0"}, {"ahead", "1"}, {"none", "auto"}};
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(runs[i]["values"], values[i]);
    const double ms = runs[i]["dslash_ms"].get<double>();
    ASSERT_GT(ms, 0.0);
    EXPECT_NEAR(runs[i]["gflops"].get<double>(), j["flops_per_dslash"].get<double>() / (ms * 1e-3) / 1e9,
                1e-6 * runs[i]["gflops"].get<double>());
    EXPECT_NEAR(runs[i]["fraction_of_copy"].get<double>(), runs[i]["effective_gbs"].get<double>() / j["copy_gbs"].get<double>(),
                1e-9);
  }
  // Lists of different lengths are refused before any work; a value the vector kernel does not
  // know is its error, naming the variable (where that kernel runs).
  const std::string base = gluon_binary() + " bench dslash --backend cpu --operator wilson --lattice 16,4,4,4"
                                            " --iterations 2 --warmup 0 --copy-size-mib 4 --copy-iterations 2";
  EXPECT_NE(run_command(base + " --ab-env GLUON_CPU_PREFETCH=all,ahead --ab-env GLUON_CPU_STREAM_STORES=0", out), 0) << out;
  EXPECT_NE(out.find("GLUON_CPU_STREAM_STORES has 1 values, GLUON_CPU_PREFETCH has 2"), std::string::npos) << out;
  if (j["field_order"] == "tiled") {
    EXPECT_NE(run_command(base + " --ab-env GLUON_CPU_PREFETCH=all,links", out), 0) << out;
    EXPECT_NE(out.find("GLUON_CPU_PREFETCH: expected all, spinors, ahead or none, found 'links'"), std::string::npos) << out;
  }
}

TEST(BenchCli, SolverReportsItsRateAgainstTheBareOperator) {
  // The first is the default precision (double: the default tol 1e-10 is out of single's reach).
  for (const std::string args : {"--operator wilson", "--operator staggered --precision double --sloppy-precision single",
                                 "--operator clover --precision double --sloppy-precision half --solver cgnr",
                                 "--operator clover --clover-pc symmetric --solver cgnr"}) {
    SCOPED_TRACE(args);
    std::string out;
    const int rc = run_command(gluon_binary() + " bench solver --backend cpu --lattice 4,4,4,8 --iterations 3 --warmup 1"
                                                " --recon 12 --tol 1e-10 --json " + args,
                               out);
    ASSERT_EQ(rc, 0) << out;
    const auto j = parse_or_fail(out);
    EXPECT_GT(j["gflops"].get<double>(), 0.0);
    EXPECT_GT(j["operator_gflops"].get<double>(), 0.0);
    EXPECT_NEAR(j["fraction_of_operator"].get<double>(), j["gflops"].get<double>() / j["operator_gflops"].get<double>(), 1e-9);
    EXPECT_LT(j["true_residual"].get<double>(), 1e-10);
    EXPECT_GT(j["iterations"].get<int>(), 0);
    // --repeat (default 5) timed solves: the median one reported, every time listed
    const auto all = j["seconds_all"].get<std::vector<double>>();
    ASSERT_EQ(all.size(), 5u);
    EXPECT_EQ(j["repeat"].get<int>(), 5);
    std::vector<double> sorted = all;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(j["seconds"].get<double>(), sorted[2]);
    // (staggered CG: the CG family's single-sloppy delta)
    if (args.find("sloppy-precision single") != std::string::npos) EXPECT_EQ(j["reliable_delta"].get<double>(), 0.0001);
    else if (args.find("sloppy-precision half") != std::string::npos)  // (with --solver cgnr: the CG family's)
      EXPECT_EQ(j["reliable_delta"].get<double>(), 0.1);
    else EXPECT_FALSE(j.contains("reliable_delta"));
    // kappa for the Wilson family, mass for staggered, never both
    EXPECT_NE(j.contains("kappa"), j.contains("mass"));
    EXPECT_EQ(j.contains("mass"), args.find("operator staggered") != std::string::npos);
    if (args.find("operator clover") == std::string::npos) EXPECT_FALSE(j.contains("clover_pc"));
    else EXPECT_EQ(j["clover_pc"], args.find("clover-pc symmetric") != std::string::npos ? "symmetric" : "asymmetric");
  }
}

// --ab-delta: each delta's solve in every one of --repeat rounds of one process, reported per delta
// (the deltas as given, a smaller one never with more reliable updates); refused for a solve
// without reliable updates and for a delta outside (0, 1).
TEST(BenchCli, SolverAbDeltaTimesEachDeltaInOneProcess) {
  const std::string base = gluon_binary() + " bench solver --backend cpu --lattice 4,4,4,8 --iterations 3 --warmup 1"
                                            " --operator staggered --tol 1e-10 --repeat 3 --json";
  std::string out;
  ASSERT_EQ(run_command(base + " --sloppy-precision single --ab-delta 0.1,0.0001", out), 0) << out;
  const auto j = parse_or_fail(out);
  ASSERT_TRUE(j.contains("ab")) << out;
  EXPECT_EQ(j["ab"]["variable"], "delta");
  const auto& runs = j["ab"]["runs"];
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0]["delta"].get<double>(), 0.1);
  EXPECT_EQ(runs[1]["delta"].get<double>(), 0.0001);
  for (const auto& r : runs) {
    EXPECT_EQ(r["seconds_all"].size(), 3u);
    EXPECT_GT(r["seconds"].get<double>(), 0.0);
    EXPECT_LT(r["true_residual"].get<double>(), 1e-10);
    EXPECT_GT(r["fraction_of_operator"].get<double>(), 0.0);
  }
  EXPECT_GT(runs[0]["reliable_updates"].get<int>(), runs[1]["reliable_updates"].get<int>());
  EXPECT_NE(run_command(base + " --ab-delta 0.01", out), 0);
  EXPECT_NE(out.find("--ab-delta: reliable updates are mixed-precision solves'"), std::string::npos) << out;
  EXPECT_NE(run_command(base + " --sloppy-precision half --ab-delta 0.01,1.5", out), 0);
  EXPECT_NE(out.find("--ab-delta: expected deltas in (0, 1), found 1.5"), std::string::npos) << out;
}

// --solver multishift: every shift solved at once (the default 8 shifts, or --shifts with
// --shift-tols), each shift's true residual within its tolerance and reported, against the same
// bare operator; the shift flags are refused for another solver or with a wrong count.
TEST(BenchCli, SolverMultiShiftReportsEveryShift) {
  const std::string base = gluon_binary() + " bench solver --backend cpu --lattice 4,4,4,8 --iterations 3 --warmup 1"
                                            " --tol 1e-10 --repeat 3 --json --solver multishift";
  for (const std::string args : {"--operator staggered", "--operator staggered --sloppy-precision half --recon 12",
                                 "--operator wilson --shifts 0.02,0.3,4 --shift-tols 1e-10,1e-8,1e-6",
                                 "--operator staggered --multishift-window 1",
                                 "--operator staggered --sloppy-precision single --multishift-together on"}) {
    SCOPED_TRACE(args);
    std::string out;
    ASSERT_EQ(run_command(base + " " + args, out), 0) << out;
    const auto j = parse_or_fail(out);
    EXPECT_EQ(j["solver"], "multishift_cg");
    const auto shifts = j["shifts"].get<std::vector<double>>();
    const auto tols = j["shift_tolerances"].get<std::vector<double>>();
    const auto res = j["shift_true_residuals"].get<std::vector<double>>();
    ASSERT_EQ(shifts.size(), args.find("--shifts") != std::string::npos ? 3u : 8u);
    ASSERT_EQ(tols.size(), shifts.size());
    ASSERT_EQ(res.size(), shifts.size());
    for (std::size_t i = 0; i < shifts.size(); ++i) EXPECT_LE(res[i], tols[i]) << "shift " << shifts[i];
    EXPECT_EQ(j["shift_iterations"].size(), shifts.size());
    EXPECT_EQ(j["shift_refine_iterations"].size(), shifts.size());
    const auto rit = j["shift_refine_iterations"].get<std::vector<int>>();
    const auto rsec = j["shift_refine_seconds"].get<std::vector<double>>();
    ASSERT_EQ(rsec.size(), shifts.size());
    double refine_total = 0.0;
    for (std::size_t i = 0; i < shifts.size(); ++i) {
      if (rit[i] == 0) EXPECT_EQ(rsec[i], 0.0) << "shift " << shifts[i] << ": no refinement ran";
      else EXPECT_GT(rsec[i], 0.0) << "shift " << shifts[i];
      refine_total += rsec[i];
    }
    const bool together = args.find("--multishift-together on") != std::string::npos;
    EXPECT_EQ(j["refined_together"], together) << "auto: together only on a GPU (SolverParams::multishift_together -1)";
    const double phase = j["refine_seconds"].get<double>();
    EXPECT_GE(phase, 0.0);
    EXPECT_LT(phase, j["seconds"].get<double>());
    if (together) {  // the refinements overlap: each within the phase
      for (std::size_t i = 0; i < shifts.size(); ++i) EXPECT_LE(rsec[i], phase) << "shift " << shifts[i];
      EXPECT_GE(std::count_if(rit.begin(), rit.end(), [](int r) { return r > 0; }), 2) << "two refined together";
    } else {
      EXPECT_LT(refine_total, j["seconds"].get<double>());
    }
    if (args.find("--shift-tols") != std::string::npos) EXPECT_EQ(tols[2], 1e-6);
    EXPECT_GT(j["iterations"].get<int>(), 0);
    EXPECT_GT(j["fraction_of_operator"].get<double>(), 0.0);
    EXPECT_EQ(j["seconds_all"].size(), 3u);
    EXPECT_EQ(j["multishift_window"], args.find("--multishift-window 1") != std::string::npos ? 1 : 8);
    EXPECT_EQ(j["lookaheads"], 0) << "CG's look-ahead is for the GPU (SolverParams::cg_lookahead -1)";
  }
  std::string out;
  EXPECT_NE(run_command(gluon_binary() + " bench solver --backend cpu --lattice 4,4,4,8 --solver cg --operator staggered"
                                         " --shifts 0.1",
                        out),
            0);
  EXPECT_NE(out.find("--shifts and --shift-tols are for --solver multishift, found --solver cg"), std::string::npos) << out;
  EXPECT_NE(run_command(base + " --operator staggered --shifts 0.1,0.2 --shift-tols 1e-8", out), 0);
  EXPECT_NE(out.find("--shift-tols: expected one per shift (2), found 1"), std::string::npos) << out;
  EXPECT_NE(run_command(gluon_binary() + " bench solver --backend cpu --lattice 4,4,4,8 --solver cg --operator staggered"
                                         " --multishift-window 4",
                        out),
            0);
  EXPECT_NE(out.find("--multishift-window is for --solver multishift, found --solver cg"), std::string::npos) << out;
  EXPECT_NE(run_command(base + " --operator staggered --multishift-window 9", out), 0);
  EXPECT_NE(out.find("multishift_window: expected 1 to 8, found 9"), std::string::npos) << out;
  EXPECT_NE(run_command(base + " --operator staggered --multishift-together maybe", out), 0);
  EXPECT_NE(out.find("--multishift-together: expected auto, on or off, found 'maybe'"), std::string::npos) << out;
  EXPECT_NE(run_command(gluon_binary() + " bench solver --backend cpu --lattice 4,4,4,8 --solver cg --operator staggered"
                                         " --multishift-together on",
                        out),
            0);
  EXPECT_NE(out.find("--multishift-together is for --solver multishift, found --solver cg"), std::string::npos) << out;
}

TEST(BenchTraffic, MinimumTrafficPerSiteMatchesTheStatedFormula) {
  const std::int64_t V = 16 * 16 * 16 * 16;
  auto per_site = [&](DiracType t, Precision p, Reconstruct r, Reconstruct rl) {
    return dslash_cost(t, p, r, rl, V).bytes / (V / 2);
  };
  // Wilson double r12: 8 links x 12 x 8 + (in + out) 24 x 8 each
  EXPECT_DOUBLE_EQ(per_site(DiracType::wilson, Precision::double_, Reconstruct::r12, Reconstruct::r18), 1152.0);
  EXPECT_DOUBLE_EQ(per_site(DiracType::wilson, Precision::single, Reconstruct::r8, Reconstruct::r18), 8 * 8 * 4 + 2 * 96.0);
  // half: 2-byte reals plus a 4-byte norm per spinor read and written
  EXPECT_DOUBLE_EQ(per_site(DiracType::wilson, Precision::half, Reconstruct::r12, Reconstruct::r18), 192 + 2 * 52.0);
  // clover adds 72 reals per site (+ two norms in half)
  EXPECT_DOUBLE_EQ(per_site(DiracType::clover, Precision::half, Reconstruct::r12, Reconstruct::r18), 296 + 152.0);
  EXPECT_DOUBLE_EQ(per_site(DiracType::clover, Precision::double_, Reconstruct::r18, Reconstruct::r18),
                   8 * 18 * 8 + 2 * 192 + 576.0);
  // staggered: colour vectors of 6 reals; improved: fat and long links
  EXPECT_DOUBLE_EQ(per_site(DiracType::staggered, Precision::double_, Reconstruct::r18, Reconstruct::r18), 1152 + 96.0);
  EXPECT_DOUBLE_EQ(per_site(DiracType::improved_staggered, Precision::single, Reconstruct::r18, Reconstruct::r12),
                   8 * 30 * 4 + 48.0);
  // The check: QUDA's half Wilson r12 figure (10711 GFLOP/s) at 3.98 TB/s copy is ~60%.
  const auto w = dslash_cost(DiracType::wilson, Precision::half, Reconstruct::r12, Reconstruct::r18, V);
  EXPECT_NEAR(10711.0 / w.flops_per_site * (w.bytes / (V / 2)) / 3980.0, 0.60, 0.01);
  EXPECT_EQ(w.flops, 1320.0 * V / 2);
  EXPECT_EQ(flops_per_site(DiracType::clover), 1824.0);  // A^-1 D: 1320 + 504, no xpay
  // M: two hops and the xpay's read of M's input, (V/2) (24 w + n) more.
  EXPECT_DOUBLE_EQ(w.operator_bytes, 2 * w.bytes + (V / 2) * (24 * 2 + 4));
  EXPECT_EQ(flops_per_site(DiracType::staggered), 570.0);
  EXPECT_EQ(flops_per_site(DiracType::improved_staggered), 1146.0);
  EXPECT_NE(w.formula.find("+4"), std::string::npos) << w.formula;
}

TEST(BenchTraffic, MedianAndTheCopyKernel) {
  EXPECT_EQ(median({3, 1, 2}), 2.0);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(median({}), 0.0);
  const auto ex = runtime::cpu_exec();
  const auto ms = time_calls(ex, 4, [] {});
  EXPECT_EQ(ms.size(), 4u);
  for (double t : ms) EXPECT_GE(t, 0.0);
  EXPECT_THROW(time_calls(ex, 0, [] {}), InputError);
  int ran = 0;
  EXPECT_GE(time_back_to_back(ex, 5, [&] { ++ran; }), 0.0);
  EXPECT_EQ(ran, 5);
  EXPECT_THROW(time_back_to_back(ex, 0, [] {}), InputError);

  std::mt19937_64 rng(5);
  std::vector<std::uint64_t> a(4096), b(4096, 0);
  for (auto& x : a) x = rng();
  copy_kernel(ex, b.data(), a.data(), a.size() * 8);
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * 8), 0);
  EXPECT_THROW(copy_kernel(ex, b.data(), a.data(), 24), InputError);

  const auto r = measure_copy(ex, CopyBenchParams{1 << 20, 3});
  EXPECT_GT(r.copy_gbs, 0.0);
  EXPECT_EQ(r.memcpy_gbs, 0.0);  // no device copy on the CPU
#if defined(__x86_64__)
  EXPECT_GT(r.nontemporal_gbs, 0.0);  // (measure_copy checks the whole destination after it)
#endif
  EXPECT_EQ(r.copy_gbs, std::max(r.kernel_gbs, r.nontemporal_gbs));
  EXPECT_THROW(measure_copy(ex, CopyBenchParams{8, 3}), InputError);
}
