// gluon solve end to end on small lattices: conventions that must agree between solver paths
// (even-odd or not, BiCGstab or CGNR, double or mixed precision), correlator properties, files,
// TOML input and error messages.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "gluon/io/gauge_io.h"
#include "gluon/io/propagator_io.h"
#include "gluon/qcd/correlators.h"
#include "gluon/qcd/dirac/staggered_links.h"
#include "gluon/qcd/gauge_start.h"
#include "test_support.h"

using gluon::test::gauge_file;
using gluon::test::gluon_binary;
using gluon::test::run_command;
using gluon::test::scratch_dir;

namespace {

nlohmann::json solve_json(const std::string& args) {
  std::string out;
  const int rc = run_command(gluon_binary() + " solve --backend cpu --quiet --json " + args, out);
  EXPECT_EQ(rc, 0) << args << "\n" << out;
  try {
    return nlohmann::json::parse(out);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not JSON: " << e.what() << "\n" << out;
    return nlohmann::json::object();
  }
}

void expect_close(const nlohmann::json& a, const nlohmann::json& b, double rel, const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (std::size_t t = 0; t < a.size(); ++t)
    EXPECT_NEAR(a[t].get<double>(), b[t].get<double>(), rel * std::abs(b[t].get<double>())) << what << " t=" << t;
}

const std::string kWeak = "--start weak --lattice 4,4,4,8 --seed 3 --epsilon 0.2 --tol 1e-11 ";

}  // namespace

TEST(CliSolve, WilsonPropagatorGivesPositiveCorrelatorsAndAgreesAcrossSolverPaths) {
  const auto a = solve_json(kWeak + "--operator wilson --kappa 0.11 --source 1,2,3,4");
  ASSERT_TRUE(a.contains("correlators"));
  EXPECT_EQ(a["normalization"], "kappa");
  EXPECT_EQ(a["lattice"], nlohmann::json({4, 4, 4, 8}));
  EXPECT_GT(a["iterations"].get<int>(), 0);
  EXPECT_LT(a["true_residual"].get<double>(), 1e-11);
  // The source site is even, so the prepared source is the source and the two residuals agree.
  EXPECT_NEAR(a["full_residual"].get<double>(), a["true_residual"].get<double>(), 1e-2 * a["true_residual"].get<double>());
  EXPECT_LE(a["columns"][0]["full_residual"].get<double>(), a["full_residual"].get<double>());
  const auto& pion = a["correlators"]["pion"];
  const auto& rho = a["correlators"]["rho"];
  ASSERT_EQ(pion.size(), 8u);
  for (std::size_t t = 0; t < 8; ++t) {
    EXPECT_GT(pion[t].get<double>(), 0.0) << t;
    EXPECT_GT(rho[t].get<double>(), 0.0) << t;  // the vector correlator is positive (sign convention)
  }
  // Time-reflection symmetry of zero-momentum meson correlators: C(t) ~ C(T - t) (exact on
  // average; on one weak configuration to a few percent).
  EXPECT_NEAR(pion[1].get<double>(), pion[7].get<double>(), 0.2 * pion[1].get<double>());
  EXPECT_GT(pion[0].get<double>(), pion[4].get<double>());  // decays to the middle

  const auto b = solve_json(kWeak + "--operator wilson --kappa 0.11 --source 1,2,3,4 --no-even-odd");
  expect_close(b["correlators"]["pion"], pion, 1e-8, "no even-odd, pion");
  expect_close(b["correlators"]["rho"], rho, 1e-8, "no even-odd, rho");
  const auto c = solve_json(kWeak + "--operator wilson --kappa 0.11 --source 1,2,3,4 --solver cgnr");
  expect_close(c["correlators"]["pion"], pion, 1e-8, "cgnr");
  const auto cn = solve_json(kWeak + "--operator wilson --kappa 0.11 --source 1,2,3,4 --solver cgne");
  expect_close(cn["correlators"]["pion"], pion, 1e-8, "cgne");
  expect_close(cn["correlators"]["rho"], rho, 1e-8, "cgne, rho");
  const auto d = solve_json(kWeak + "--operator wilson --kappa 0.11 --source 1,2,3,4 --sloppy-precision single");
  expect_close(d["correlators"]["pion"], pion, 1e-8, "double-single");
  EXPECT_EQ(d["precision"], "double-single");
  EXPECT_LT(d["true_residual"].get<double>(), 1e-11);
  EXPECT_EQ(d["reliable_delta"].get<double>(), 0.001);  // single's default
  const auto h = solve_json(kWeak + "--operator wilson --kappa 0.11 --source 1,2,3,4 --sloppy-precision half --recon 12");
  expect_close(h["correlators"]["pion"], pion, 1e-8, "double-half");
  EXPECT_EQ(h["precision"], "double-half");
  EXPECT_LT(h["true_residual"].get<double>(), 1e-11);
  EXPECT_EQ(h["reliable_delta"].get<double>(), 0.02);  // half's default in BiCGstab (Wilson's default solver)
  const auto e = solve_json(kWeak + "--operator wilson --kappa 0.11 --source 1,2,3,4 --sloppy-precision single --delta 0.2");
  EXPECT_EQ(e["reliable_delta"].get<double>(), 0.2);
  expect_close(e["correlators"]["pion"], pion, 1e-8, "double-single, delta 0.2");
  EXPECT_FALSE(a.contains("reliable_delta"));  // not mixed
}

// CG needs a hermitian positive M. On any other operator solve(cg) runs on M^+ M with the source
// as right-hand side, a converged solve of the wrong system ((M^+ M)^-1 b, pion(0) 21.1 instead
// of 14.4 here): the propagator refuses it and names the solvers that give M^-1 b.
TEST(CliSolve, CgIsRefusedWhereMIsNotHermitianPositive) {
  for (const std::string args : {"--operator wilson --kappa 0.11", "--operator clover --kappa 0.11 --csw 1.5",
                                 "--operator staggered --mass 0.2 --no-even-odd"}) {
    SCOPED_TRACE(args);
    std::string out;
    EXPECT_NE(run_command(gluon_binary() + " solve --backend cpu --quiet --json " + kWeak + args + " --solver cg", out), 0);
    EXPECT_NE(out.find("solver cg solves M^+ M x = b"), std::string::npos) << out;
    EXPECT_NE(out.find("use cgnr"), std::string::npos) << out;
  }
  const auto s = solve_json(kWeak + "--operator staggered --mass 0.2 --solver cg");  // M_ee: hermitian positive
  const auto n = solve_json(kWeak + "--operator staggered --mass 0.2 --no-even-odd --solver cgne");
  expect_close(n["correlators"]["pion"], s["correlators"]["pion"], 1e-8, "staggered cgne on M vs cg on M_ee");
}

// Settings that cannot work together and outputs that cannot be written are refused before the
// gauge field is read or anything solved (with --max-iter 3 a late check would report the
// iteration limit instead), with the flag, the value and what was expected.
TEST(CliSolve, ImpossibleSettingsAndUnwritableOutputsFailBeforeSolving) {
  const std::string dir = scratch_dir();
  const std::string base = gluon_binary() + " solve --backend cpu --quiet --start weak --lattice 4,4,4,8 --max-iter 3 ";
  struct Case {
    std::string args, expect;
  };
  for (const Case& c : {Case{"--precision single", "--tol 1.0e-10: below what --precision single can reach"},
                        Case{"--precision single --sloppy-precision double --tol 1e-5",
                             "--sloppy-precision double: the inner precision must be lower than --precision single"},
                        Case{"--tol 0", "--tol: expected a relative residual 0 < tol < 1, found 0"},
                        Case{"--sloppy-precision double", "--sloppy-precision double: the inner precision must be lower"},
                        Case{"--sloppy-recon 12", "--sloppy-recon 12: there is no sloppy operator"},
                        Case{"--propagator-precision 16 --save-propagator " + dir + "/p.lime",
                             "--propagator-precision: expected 32 or 64 bits, found 16"},
                        Case{"--source-type z2-wall --source 1,0,0,2", "a z2-wall source uses only t"},
                        Case{"--save-propagator " + dir + "/missing/prop.lime", dir + "/missing/prop.lime: cannot create"},
                        Case{"--save-correlators " + dir, dir + ": is a directory"},
                        // A parameter the operator does not take is refused, not dropped.
                        Case{"--operator staggered --kappa 0.12", "--kappa: --operator staggered takes --mass"},
                        Case{"--kappa 0.12 --mass 0.1", "--kappa and --mass: give one"},
                        Case{"--csw 1.5", "--csw: only --operator clover has a clover term, found --operator wilson"},
                        Case{"--operator improved-staggered --clover-pc symmetric",
                             "--clover-pc: only --operator clover has a clover term"},
                        Case{"--mass -3", "--mass: the Wilson mass form needs m > -2"},
                        Case{"--operator clover --no-even-odd --clover-pc symmetric",
                             "--clover-pc symmetric: the form of the even-odd preconditioning, which --no-even-odd turns off"},
                        Case{"--x-update-batch 9", "--x-update-batch: expected 1 to 8, found 9"}}) {
    SCOPED_TRACE(c.args);
    std::string out;
    EXPECT_NE(run_command(base + c.args, out), 0);
    EXPECT_NE(out.find(c.expect), std::string::npos) << out;
    EXPECT_EQ(out.find("max_iter"), std::string::npos) << out;
  }
  // --seed and --epsilon shape a generated field: refused where they would change nothing.
  const std::string file = gauge_file("t_nersc.cfg");
  for (const Case& c : {Case{"--gauge " + file + " --seed 5", "--seed: seeds a generated field (--start hot|weak); the field comes from --gauge " + file},
                        Case{"--gauge " + file + " --epsilon 0.3", "--epsilon: the amplitude of --start weak; the field comes from --gauge " + file},
                        Case{"--start unit --lattice 4,4,4,8 --seed 5", "--seed: --start unit draws no random numbers"},
                        Case{"--start hot --lattice 4,4,4,8 --epsilon 0.3", "--epsilon: the amplitude of --start weak, found --start hot"}}) {
    SCOPED_TRACE(c.args);
    std::string out;
    EXPECT_NE(run_command(gluon_binary() + " solve --backend cpu --quiet --max-iter 3 " + c.args, out), 0);
    EXPECT_NE(out.find(c.expect), std::string::npos) << out;
    EXPECT_EQ(out.find("max_iter"), std::string::npos) << out;
  }
  std::string out;
  EXPECT_NE(run_command(gluon_binary() + " solve --backend cpu --start weak --lattice 4,4,4,8 --max-iter 0", out), 0);
  EXPECT_NE(out.find("--max-iter: expected at least 1, found 0"), std::string::npos) << out;
  // A failed solve names the propagator column.
  EXPECT_NE(run_command(base, out), 0);
  EXPECT_NE(out.find("propagator column 0 of 12 (source spin 0, colour 0): bicgstab"), std::string::npos) << out;
}

// A Z2 wall source: reproducible from its seed, another seed gives another estimate, and the
// correlator estimates the SUM over the slice's X Y Z = 64 point sources, not their mean
// (docs/conventions.md). One noise vector carries the cross terms of the 64 sources with random
// signs (here 0.23 to 0.92 times 64 x the point-source value), so the bounds are loose: far above
// one point source, below twice the sum.
TEST(CliSolve, Z2WallSourceIsReproducibleAndEstimatesTheSumOverTheSlice) {
  const std::string w = kWeak + "--operator wilson --kappa 0.11 --source-type z2-wall --source 0,0,0,2 ";
  const auto a = solve_json(w + "--source-seed 5");
  const auto b = solve_json(w + "--source-seed 5");
  const auto c = solve_json(w + "--source-seed 6");
  EXPECT_EQ(a["correlators"]["pion"], b["correlators"]["pion"]);
  EXPECT_NE(a["correlators"]["pion"], c["correlators"]["pion"]);
  EXPECT_EQ(a["source"]["type"], "z2-wall");
  EXPECT_EQ(a["source"]["seed"], 5);
  EXPECT_EQ(a["correlators"]["t0"], 2);
  const auto p = solve_json(kWeak + "--operator wilson --kappa 0.11 --source 1,2,3,2");
  for (std::size_t t = 0; t < 8; ++t) {
    const double wall = a["correlators"]["pion"][t].get<double>(), point = p["correlators"]["pion"][t].get<double>();
    EXPECT_GT(wall, 0.0) << t;
    EXPECT_GT(wall, 8 * point) << t;
    EXPECT_LT(wall, 2.0 * 64 * point) << t;
  }
}

TEST(CliSolve, CloverBothPreconditioningsAgreeAndCloverDiffersFromWilson) {
  const auto w = solve_json(kWeak + "--operator wilson --kappa 0.11");
  const auto a = solve_json(kWeak + "--operator clover --kappa 0.11 --csw 1.5");
  const auto s = solve_json(kWeak + "--operator clover --kappa 0.11 --csw 1.5 --clover-pc symmetric");
  const auto n = solve_json(kWeak + "--operator clover --kappa 0.11 --csw 1.5 --no-even-odd");
  expect_close(s["correlators"]["pion"], a["correlators"]["pion"], 1e-8, "symmetric vs asymmetric");
  expect_close(n["correlators"]["pion"], a["correlators"]["pion"], 1e-8, "unpreconditioned vs asymmetric");
  EXPECT_GT(std::abs(a["correlators"]["pion"][3].get<double>() / w["correlators"]["pion"][3].get<double>() - 1), 1e-4);
  const auto zero = solve_json(kWeak + "--operator clover --kappa 0.11 --csw 0");
  expect_close(zero["correlators"]["pion"], w["correlators"]["pion"], 1e-8, "c_sw = 0 is Wilson");
}

TEST(CliSolve, StaggeredGoldstonePionAndEvenOddAgreement) {
  for (const std::string op : {"staggered", "improved-staggered"}) {
    SCOPED_TRACE(op);
    const auto a = solve_json(kWeak + "--operator " + op + " --mass 0.2");
    EXPECT_EQ(a["normalization"], "mass");
    EXPECT_EQ(a["solver"], "cg");
    EXPECT_FALSE(a["correlators"].contains("rho"));
    const auto& pion = a["correlators"]["pion"];
    for (std::size_t t = 0; t < pion.size(); ++t) EXPECT_GT(pion[t].get<double>(), 0.0);
    const auto b = solve_json(kWeak + "--operator " + op + " --mass 0.2 --no-even-odd --solver cgnr");
    expect_close(b["correlators"]["pion"], pion, 1e-8, "staggered full vs even-odd");
  }
}

// Improved staggered links given as files (asqtad/HISQ codes hand over smeared links, with their
// coefficients inside): the tree-level links of kWeak's field, written as NERSC (fat) and ILDG
// (long), give the correlators that --operator improved-staggered builds from the field itself;
// scaled long links give others. Misuse is refused.
TEST(CliSolve, ImprovedStaggeredFromFatAndLongLinkFiles) {
  using namespace gluon;
  const std::string dir = scratch_dir();
  qcd::GaugeField u = qcd::GaugeField::canonical(qcd::Geometry({4, 4, 4, 8}));
  qcd::set_start(u, qcd::GaugeStart::weak, 3, 0.2, runtime::cpu_exec());
  auto links = qcd::unsmeared_improved_links(u, runtime::cpu_exec());
  io::GaugeWriteOptions nersc, ildg;
  ildg.format = io::GaugeFormat::ildg;
  io::write_gauge(dir + "/fat.nersc", links.fat, nersc);
  io::write_gauge(dir + "/long.ildg", links.longlinks, ildg);
  auto* l = static_cast<double*>(links.longlinks.data());
  for (std::size_t i = 0; i < links.longlinks.bytes() / sizeof(double); ++i) l[i] *= 2;
  io::write_gauge(dir + "/long2.ildg", links.longlinks, ildg);

  const std::string op = "--operator improved-staggered --mass 0.2 --tol 1e-11 ";
  const auto a = solve_json("--start weak --lattice 4,4,4,8 --seed 3 --epsilon 0.2 " + op);
  const auto b = solve_json(op + "--fat-links " + dir + "/fat.nersc --long-links " + dir + "/long.ildg");
  expect_close(b["correlators"]["pion"], a["correlators"]["pion"], 1e-9, "links from files");
  EXPECT_NE(b["gauge"].get<std::string>().find("long.ildg"), std::string::npos);
  EXPECT_FALSE(b.contains("plaquette"));
  const auto c = solve_json(op + "--recon 12 --fat-links " + dir + "/fat.nersc --long-links " + dir + "/long.ildg");
  expect_close(c["correlators"]["pion"], a["correlators"]["pion"], 1e-9, "long links r12");
  const auto d = solve_json(op + "--fat-links " + dir + "/fat.nersc --long-links " + dir + "/long2.ildg");
  EXPECT_GT(std::abs(d["correlators"]["pion"][2].get<double>() / a["correlators"]["pion"][2].get<double>() - 1), 1e-3);

  std::string out;
  const std::string cmd = gluon_binary() + " solve --backend cpu --quiet ";
  EXPECT_EQ(run_command(cmd + op + "--fat-links " + dir + "/fat.nersc", out), 1);
  EXPECT_NE(out.find("--fat-links and --long-links go together"), std::string::npos) << out;
  EXPECT_EQ(run_command(cmd + "--operator staggered --fat-links " + dir + "/fat.nersc --long-links " + dir + "/long.ildg", out), 1);
  EXPECT_NE(out.find("links of --operator improved-staggered, found --operator staggered"), std::string::npos) << out;
  EXPECT_EQ(run_command(cmd + op + "--start weak --fat-links " + dir + "/fat.nersc --long-links " + dir + "/long.ildg", out), 1);
  EXPECT_NE(out.find("replace --gauge/--start"), std::string::npos) << out;
  // --lattice is for --start: with link files it must name their lattice.
  const std::string files = "--fat-links " + dir + "/fat.nersc --long-links " + dir + "/long.ildg";
  EXPECT_EQ(run_command(cmd + op + "--lattice 4,4,4,4 " + files, out), 1);
  EXPECT_NE(out.find("--lattice 4,4,4,4: " + dir + "/fat.nersc holds a 4,4,4,8 lattice"), std::string::npos) << out;
  EXPECT_EQ(run_command(cmd + op + "--lattice 4,4,4,8 " + files, out), 0) << out;
  // Two stored rows would rebuild the third as for SU(3): refused for links that are not.
  io::GaugeWriteOptions two_rows;
  two_rows.nersc_two_rows = true;
  io::write_gauge(dir + "/fat2.nersc", links.fat, two_rows);
  EXPECT_EQ(run_command(cmd + op + "--fat-links " + dir + "/fat2.nersc --long-links " + dir + "/long.ildg", out), 1);
  EXPECT_NE(out.find("--fat-links " + dir + "/fat2.nersc: NERSC 4D_SU3_GAUGE IEEE64BIG stores two rows of each link"),
            std::string::npos)
      << out;
}

TEST(CliSolve, SavedPropagatorReproducesTheCorrelators) {
  const std::string dir = scratch_dir();
  const auto a = solve_json(kWeak + "--operator wilson --kappa 0.1 --save-propagator " + dir +
                            "/prop.lime --save-correlators " + dir + "/corr.json");
  const auto cols = gluon::io::read_propagator(dir + "/prop.lime");
  const auto c = gluon::qcd::meson_correlators(cols, 0);
  for (std::size_t t = 0; t < c.pion.size(); ++t) EXPECT_DOUBLE_EQ(c.pion[t], a["correlators"]["pion"][t].get<double>());
  std::ifstream in(dir + "/corr.json");
  const auto saved = nlohmann::json::parse(in);
  EXPECT_EQ(saved["correlators"]["pion"], a["correlators"]["pion"]);
  EXPECT_TRUE(saved["correlators"].contains("normalization"));
}

// --mass with Wilson/clover is the mass form (4 + m) - D/2 = M / (2 kappa): kappa = 1/(2 (4 + m)),
// and the propagator 2 kappa M^-1, so the correlators are (2 kappa)^2 times those of --kappa
// (docs/conventions.md); the saved propagator is the mass-normalised one.
TEST(CliSolve, WilsonMassFormReportsTheMassNormalisation) {
  const std::string dir = scratch_dir();
  const double m = 0.2, kappa = 1.0 / (2.0 * (4.0 + m));
  const std::string op = "--operator clover --csw 1.2 --source 1,2,3,4 ";
  const auto a = solve_json(kWeak + op + "--mass 0.2 --save-propagator " + dir + "/prop.lime");
  const auto k = solve_json(kWeak + op + "--kappa " + nlohmann::json(kappa).dump());  // round-trip digits
  EXPECT_EQ(a["normalization"], "mass");
  EXPECT_EQ(k["normalization"], "kappa");
  EXPECT_EQ(a["mass"].get<double>(), m);
  EXPECT_FALSE(k.contains("mass"));
  EXPECT_NEAR(a["kappa"].get<double>(), kappa, 1e-16);
  EXPECT_NE(a["correlators"]["normalization"].get<std::string>().find("mass normalisation"), std::string::npos);
  const double f = (2 * kappa) * (2 * kappa);
  for (const char* c : {"pion", "rho"}) {
    nlohmann::json scaled = k["correlators"][c];
    for (auto& v : scaled) v = f * v.get<double>();
    expect_close(a["correlators"][c], scaled, 1e-12, c);
  }
  const auto cols = gluon::io::read_propagator(dir + "/prop.lime");
  const auto c = gluon::qcd::meson_correlators(cols, 4);
  for (std::size_t t = 0; t < c.pion.size(); ++t) EXPECT_DOUBLE_EQ(c.pion[t], a["correlators"]["pion"][t].get<double>());
}

TEST(CliSolve, TomlInputAndErrors) {
  const std::string dir = scratch_dir();
  std::ofstream(dir + "/solve.toml") << "[solve]\nstart = \"weak\"\nlattice = [4, 4, 4, 8]\nseed = 3\n"
                                        "epsilon = 0.2\noperator = \"wilson\"\nkappa = 0.11\ntol = 1e-11\n";
  const auto t = solve_json("--input " + dir + "/solve.toml");
  const auto f = solve_json(kWeak + "--operator wilson --kappa 0.11");
  EXPECT_EQ(t["correlators"]["pion"], f["correlators"]["pion"]);

  std::string out;
  // A gauge file's lattice against --lattice (here from the TOML input): the same, or an error.
  using namespace gluon;
  qcd::GaugeField u = qcd::GaugeField::canonical(qcd::Geometry({4, 4, 4, 8}));
  qcd::set_start(u, qcd::GaugeStart::weak, 3, 0.2, runtime::cpu_exec());
  io::write_gauge(dir + "/u.nersc", u, io::GaugeWriteOptions{});
  std::ofstream(dir + "/file.toml") << "[solve]\ngauge = \"" + dir + "/u.nersc\"\nlattice = [8, 8, 8, 8]\n";
  EXPECT_NE(run_command(gluon_binary() + " solve --backend cpu --quiet --input " + dir + "/file.toml", out), 0);
  EXPECT_NE(out.find("--lattice 8,8,8,8: " + dir + "/u.nersc holds a 4,4,4,8 lattice"), std::string::npos) << out;
  const auto same = solve_json("--gauge " + dir + "/u.nersc --lattice 4,4,4,8 --kappa 0.11");
  EXPECT_EQ(same["correlators"]["pion"].size(), 8u);
  // A key from the file counts as given: a kappa for a staggered operator is refused there too.
  std::ofstream(dir + "/stag.toml") << "[solve]\nstart = \"weak\"\nlattice = [4, 4, 4, 8]\noperator = \"staggered\"\n"
                                       "kappa = 0.11\n";
  EXPECT_NE(run_command(gluon_binary() + " solve --backend cpu --quiet --input " + dir + "/stag.toml", out), 0);
  EXPECT_NE(out.find("--kappa: --operator staggered takes --mass"), std::string::npos) << out;
  EXPECT_NE(run_command(gluon_binary() + " solve --start weak --lattice 4,4,4,8 --kappa 0.3", out), 0);
  EXPECT_NE(out.find("kappa"), std::string::npos) << out;
  EXPECT_NE(run_command(gluon_binary() + " solve --start weak --lattice 4,4,4,8 --source 0,0,0,8", out), 0);
  EXPECT_NE(out.find("source position t"), std::string::npos) << out;
  EXPECT_NE(run_command(gluon_binary() + " solve --start weak --lattice 4,4,4,8 --boundary 1,1,1,2", out), 0);
  EXPECT_NE(out.find("--boundary"), std::string::npos) << out;
  EXPECT_NE(run_command(gluon_binary() + " solve --start weak --lattice 4,4,4,8 --operator overlap", out), 0);
  EXPECT_NE(out.find("overlap"), std::string::npos) << out;
  // No convergence within the iteration limit: a clear error, not a hang.
  EXPECT_NE(run_command(gluon_binary() + " solve --start weak --lattice 4,4,4,8 --max-iter 3 --quiet", out), 0);
  EXPECT_NE(out.find("max_iter"), std::string::npos) << out;
}
