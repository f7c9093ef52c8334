// The gluon command end to end: `gluon gauge` on every shipped file, generation, conversion,
// TOML input with flag override, and the error paths (message + non-zero exit).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "gluon/runtime/device_info.h"
#include "test_support.h"

using gluon::test::gauge_file;
using gluon::test::gluon_binary;
using gluon::test::run_command;
using gluon::test::scratch_dir;

namespace {

nlohmann::json run_json(const std::string& args) {
  std::string out;
  const int rc = run_command(gluon_binary() + " " + args + " --json", out);
  EXPECT_EQ(rc, 0) << args << "\n" << out;
  try {
    return nlohmann::json::parse(out);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not JSON: " << e.what() << "\n" << out;
    return {};
  }
}

struct Shipped {
  const char* file;
  const char* format;
  std::array<int, 4> lattice;
  double plaquette;  // testdata/gauge/README.md
};

const Shipped kShipped[] = {
    {"lat.sample.l4444", "milc", {4, 4, 4, 4}, 0.5948502},
    {"lat.sample.l4444.ildg", "ildg", {4, 4, 4, 4}, 0.5948502},
    {"lat.sample.l4444.scidac", "scidac", {4, 4, 4, 4}, 0.5948502},
    {"lat.sample.l4448", "milc", {4, 4, 4, 8}, 0.5690557},
    {"lat.sample.l8888", "milc", {8, 8, 8, 8}, 0.5935602},
    {"lat.sample.l8888.nersc", "nersc", {8, 8, 8, 8}, 0.5935602},
    {"t_nersc.cfg", "nersc", {4, 4, 4, 4}, 0.0382423},
    {"weak_field.lime", "ildg", {4, 4, 4, 8}, 0.9948041},
};

}  // namespace

TEST(CliGauge, EveryShippedFileGivesItsDocumentedPlaquette) {
  for (const auto& s : kShipped) {
    SCOPED_TRACE(s.file);
    const auto j = run_json("gauge --load " + gauge_file(s.file));
    ASSERT_TRUE(j.contains("plaquette"));
    EXPECT_EQ(j["lattice"], nlohmann::json(s.lattice));
    EXPECT_EQ(j["format"], s.format);
    EXPECT_NEAR(j["plaquette"].get<double>(), s.plaquette, 6e-8);  // README gives 7 digits
    EXPECT_TRUE(j.contains("link_trace"));
    EXPECT_TRUE(j["polyakov_loop"].contains("re"));
    EXPECT_FALSE(j["checks_passed"].empty()) << "no checksum or header check was verified";
  }
}

TEST(CliGauge, UnitStartMeasuresOneEverywhere) {
  const auto j = run_json("gauge --start unit --lattice 4,4,4,8 --backend cpu");
  EXPECT_EQ(j["lattice"], nlohmann::json({4, 4, 4, 8}));
  EXPECT_DOUBLE_EQ(j["plaquette"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(j["rectangle"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(j["link_trace"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(j["polyakov_loop"]["re"].get<double>(), 1.0);
}

TEST(CliGauge, ConvertsMilcToNerscAndIldgKeepingThePlaquette) {
  const std::string dir = scratch_dir();
  const auto src = run_json("gauge --load " + gauge_file("lat.sample.l4448"));
  for (const std::string fmt : {"nersc", "ildg", "scidac"}) {
    SCOPED_TRACE(fmt);
    const std::string out = dir + "/converted." + fmt;
    const auto w = run_json("gauge --load " + gauge_file("lat.sample.l4448") + " --save " + out +
                            " --save-format " + fmt + " --save-precision 32");
    ASSERT_TRUE(std::filesystem::exists(out));
    const auto r = run_json("gauge --load " + out);
    EXPECT_EQ(r["format"], fmt);
    EXPECT_EQ(r["plaquette"].get<double>(), src["plaquette"].get<double>());
    EXPECT_EQ(r["link_trace"].get<double>(), src["link_trace"].get<double>());
  }
}

TEST(CliGauge, TomlInputWithFlagOverride) {
  const std::string dir = scratch_dir();
  const std::string toml = dir + "/weak.toml";
  std::ofstream(toml) << "[gauge]\nstart = \"weak\"\nlattice = [4, 4, 4, 8]\nseed = 11\nepsilon = 0.2\n"
                         "backend = \"cpu\"\n";
  const auto a = run_json("gauge --input " + toml);
  const auto b = run_json("gauge --start weak --lattice 4,4,4,8 --seed 11 --epsilon 0.2 --backend cpu");
  EXPECT_EQ(a["lattice"], nlohmann::json({4, 4, 4, 8}));
  EXPECT_EQ(a["plaquette"], b["plaquette"]);
  const auto c = run_json("gauge --input " + toml + " --seed 12");
  EXPECT_NE(a["plaquette"], c["plaquette"]);
  EXPECT_LT(a["plaquette"].get<double>(), 1.0);
  EXPECT_GT(a["plaquette"].get<double>(), 0.8);
}

TEST(CliGauge, ErrorsAreClearAndExitNonZero) {
  const std::string dir = scratch_dir();
  std::string out;
  EXPECT_NE(run_command(gluon_binary() + " gauge --load " + dir + "/missing.nersc", out), 0);
  EXPECT_NE(out.find("missing.nersc"), std::string::npos) << out;

  EXPECT_NE(run_command(gluon_binary() + " gauge --start hot --lattice 4,4,5,4", out), 0);
  EXPECT_NE(out.find("found 5"), std::string::npos) << out;

  EXPECT_NE(run_command(gluon_binary() + " gauge", out), 0);
  EXPECT_NE(out.find("--load"), std::string::npos) << out;

  // --lattice is for --start: with --load it must name the file's lattice.
  EXPECT_NE(run_command(gluon_binary() + " gauge --load " + gauge_file("t_nersc.cfg") + " --lattice 8,8,8,8", out), 0);
  EXPECT_NE(out.find("--lattice 8,8,8,8: " + gauge_file("t_nersc.cfg") + " holds a 4,4,4,4 lattice"), std::string::npos)
      << out;
  EXPECT_EQ(run_command(gluon_binary() + " gauge --load " + gauge_file("t_nersc.cfg") + " --lattice 4,4,4,4", out), 0)
      << out;

  // --seed and --epsilon shape a generated field: refused where they would change nothing.
  EXPECT_NE(run_command(gluon_binary() + " gauge --load " + gauge_file("t_nersc.cfg") + " --seed 3", out), 0);
  EXPECT_NE(out.find("--seed: seeds a generated field (--start hot|weak); the field comes from --load " +
                     gauge_file("t_nersc.cfg")),
            std::string::npos)
      << out;
  EXPECT_NE(run_command(gluon_binary() + " gauge --start unit --lattice 4,4,4,4 --seed 3", out), 0);
  EXPECT_NE(out.find("--seed: --start unit draws no random numbers (hot and weak do)"), std::string::npos) << out;
  EXPECT_NE(run_command(gluon_binary() + " gauge --start hot --lattice 4,4,4,4 --epsilon 0.2", out), 0);
  EXPECT_NE(out.find("--epsilon: the amplitude of --start weak, found --start hot"), std::string::npos) << out;

  EXPECT_NE(run_command(gluon_binary() + " gauge --start warm", out), 0);
  EXPECT_NE(out.find("warm"), std::string::npos) << out;

  const std::string bad_toml = dir + "/bad.toml";
  std::ofstream(bad_toml) << "[gauge]\nstart = \"unit\"\nlattice = [4, 4, 4, 4\n";
  EXPECT_NE(run_command(gluon_binary() + " gauge --input " + bad_toml, out), 0);
  EXPECT_NE(out.find("bad.toml"), std::string::npos) << out;

  // Mistakes in a TOML file: exit 1 and the file, line and column, as docs/cli.md promises
  // (CLI11 alone said "INI was not able to parse gauge.latice", exit 110, no file).
  struct TomlCase {
    std::string text, expect;
  };
  for (const TomlCase& c :
       {TomlCase{"[gauge]\nstart = \"unit\"\nlatice = [4, 4, 4, 4]\n", "typo.toml:3:10: unknown key 'latice' in [gauge]; its keys are: "},
        TomlCase{"[gauge]\nstart = \"weak\"\nepsilon = \"small\"\n",
                 "typo.toml:3:11: key 'epsilon' in [gauge]: expected a number for --epsilon, found string \"small\""},
        TomlCase{"[gauge]\nseed = 1.5\n", "typo.toml:2:8: key 'seed' in [gauge]: expected a non-negative integer for --seed, found number 1.5"},
        TomlCase{"[gauge]\njson = \"yes\"\n", "typo.toml:2:8: key 'json' in [gauge]: expected true or false for --json"},
        TomlCase{"[gauges]\nstart = \"unit\"\n", "typo.toml:2:9: unknown table [gauges]; the tables are the subcommands: "},
        TomlCase{"start = \"unit\"\n", "typo.toml:1:9: key 'start' outside a table"}}) {
    SCOPED_TRACE(c.text);
    const std::string typo_toml = dir + "/typo.toml";
    std::ofstream(typo_toml) << c.text;
    EXPECT_EQ(run_command(gluon_binary() + " gauge --input " + typo_toml, out), 1);
    EXPECT_NE(out.find(c.expect), std::string::npos) << out;
  }
  EXPECT_NE(out.find("gauge, solve"), std::string::npos) << out;  // the subcommands listed
  EXPECT_EQ(run_command(gluon_binary() + " gauge --input " + dir + "/none.toml", out), 1);
  EXPECT_NE(out.find(dir + "/none.toml: cannot read the --input file"), std::string::npos) << out;

  // A truncated file: the loader names the file and the byte counts.
  const std::string cut = dir + "/cut.nersc";
  {
    std::ifstream in(gauge_file("t_nersc.cfg"), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), {});
    std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() - 100);
  }
  EXPECT_NE(run_command(gluon_binary() + " gauge --load " + cut, out), 0);
  EXPECT_NE(out.find("cut.nersc"), std::string::npos) << out;
}

TEST(CliInfo, PrintsVersionBackendAndJson) {
  std::string out;
  ASSERT_EQ(run_command(gluon_binary() + " info", out), 0) << out;
  EXPECT_NE(out.find("gluon"), std::string::npos);
  EXPECT_NE(out.find("backend"), std::string::npos);
  const auto j = run_json("info");
  EXPECT_TRUE(j.contains("version"));
  EXPECT_TRUE(j.contains("devices"));
  EXPECT_TRUE(j["build"].contains("cuda"));
  // The caches the CPU kernels size their work by (one core's L2: the Wilson sweep's blocks; the
  // last-level cache: streamed stores, the copy reference's buffers), as the library reads them.
  const auto h = gluon::runtime::host_info();
  ASSERT_TRUE(j.contains("host") && j["host"].contains("l2_cache_bytes")) << j.dump();
  EXPECT_EQ(j["host"]["l2_cache_bytes"].get<std::size_t>(), h.l2_cache);
  EXPECT_EQ(j["host"]["last_level_cache_bytes"].get<std::size_t>(), h.last_level_cache);
  if (h.l2_cache > 0) EXPECT_NE(out.find(std::to_string(h.l2_cache / 1024) + " KiB a core"), std::string::npos) << out;
}
