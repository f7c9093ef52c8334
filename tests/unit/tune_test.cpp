// The autotuner's host side: the tune cache file (round trip, atomic save merging with what is on
// disk, key mismatch by build/device ignored, malformed files), the settings (GLUON_TUNE=0,
// GLUON_TUNE_CACHE), and that tuned launches on the CPU backend are plain OpenMP loops.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gluon/runtime/error.h"
#include "gluon/runtime/exec.h"
#include "gluon/runtime/memory.h"
#include "gluon/runtime/selftest.h"
#include "gluon/runtime/tune.h"
#include "test_support.h"

using namespace gluon;
using namespace gluon::runtime;

namespace {

TuneEntry random_entry(std::mt19937_64& rng, const std::string& build) {
  std::uniform_int_distribution<int> block(2, 32), grid(1, 100000);
  TuneEntry e;
  e.kernel = "kernel_" + std::to_string(rng() % 1000) + " \"quoted\" \\ back";
  e.n = static_cast<std::int64_t>(rng() % (std::uint64_t{1} << 40));
  e.aux = rng() % 2 ? "single r12" : "";
  e.type = tune_hash(std::to_string(rng()).c_str());
  e.device = "NVIDIA H200 sm_90";
  e.build = build;
  e.config = LaunchConfig{32 * block(rng), grid(rng)};
  e.time_ms = 0.001 * static_cast<double>(rng() % 100000 + 1);
  e.default_time_ms = 0.001 * static_cast<double>(rng() % 100000 + 1);
  return e;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Restores the tuner's global settings after a test that changes them.
struct SettingsGuard {
  ~SettingsGuard() {
    unsetenv("GLUON_TUNE");
    unsetenv("GLUON_TUNE_CACHE");
    reload_tune_settings();
  }
};

}  // namespace

TEST(TuneCache, SaveLoadRoundTripKeepsEveryField) {
  const std::string path = test::scratch_dir() + "/sub/dir/tunecache.json";  // directories created
  std::mt19937_64 rng(2026);
  TuneCache c(path);
  std::vector<TuneEntry> written;
  for (int i = 0; i < 40; ++i) {
    written.push_back(random_entry(rng, "v0.1-abc123"));
    c.insert(written.back());
  }
  c.save();
  ASSERT_TRUE(std::filesystem::exists(path));
  for (const auto& f : std::filesystem::directory_iterator(std::filesystem::path(path).parent_path()))
    EXPECT_EQ(f.path().filename(), "tunecache.json") << "temporary file left behind";

  TuneCache d(path);
  d.load();
  ASSERT_EQ(d.size(), written.size());
  for (const auto& w : written) {
    const TuneEntry* e = d.find(w.kernel, w.n, w.aux, w.type, w.device, w.build);
    ASSERT_NE(e, nullptr) << w.kernel;
    EXPECT_EQ(e->config, w.config);
    EXPECT_NEAR(e->time_ms, w.time_ms, 1e-5 * w.time_ms);
    EXPECT_NEAR(e->default_time_ms, w.default_time_ms, 1e-5 * w.default_time_ms);
  }
}

TEST(TuneCache, KeyMismatchByBuildDeviceSizeOrAuxIsIgnored) {
  const std::string path = test::scratch_dir() + "/tunecache.json";
  std::mt19937_64 rng(7);
  const TuneEntry e = random_entry(rng, "old-build-1234");
  TuneCache c(path);
  c.insert(e);
  c.save();
  TuneCache d(path);
  d.load();
  EXPECT_NE(d.find(e.kernel, e.n, e.aux, e.type, e.device, e.build), nullptr);
  EXPECT_EQ(d.find(e.kernel, e.n, e.aux, e.type, e.device, "new-build-5678"), nullptr);
  EXPECT_EQ(d.find(e.kernel, e.n, e.aux, e.type, "NVIDIA H100 80GB HBM3 sm_90", e.build), nullptr);
  EXPECT_EQ(d.find(e.kernel, e.n + 1, e.aux, e.type, e.device, e.build), nullptr);
  EXPECT_EQ(d.find(e.kernel, e.n, e.aux + "x", e.type, e.device, e.build), nullptr);
  EXPECT_EQ(d.find(e.kernel, e.n, e.aux, "0000000000000000", e.device, e.build), nullptr);

  // The global cache, as the launcher uses it: an entry written by another build never matches
  // this binary, however it is keyed otherwise.
  SettingsGuard guard;
  set_tune_cache_path(path);
  EXPECT_FALSE(tune_lookup(e.kernel, e.n, e.aux, e.type, 0).has_value());
  TuneEntry mine = e;
  mine.build = build_signature();
  mine.device = device_signature(0);
  TuneCache c2(path);
  c2.load();
  c2.insert(mine);
  c2.save();
  set_tune_cache_path(path);  // reload
  const auto hit = tune_lookup(e.kernel, e.n, e.aux, e.type, 0);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(*hit, e.config);
  EXPECT_GE(tune_stats().hits, 1);
  EXPECT_EQ(tune_stats().entries, 2u);  // the other build's entry stays in the file
}

TEST(TuneCache, SaveMergesWithEntriesAnotherProcessWrote) {
  const std::string path = test::scratch_dir() + "/tunecache.json";
  std::mt19937_64 rng(11);
  TuneCache a(path), b(path);
  a.load();
  b.load();
  const TuneEntry ea = random_entry(rng, "b1"), eb = random_entry(rng, "b1");
  a.insert(ea);
  a.save();
  b.insert(eb);
  b.save();  // must not drop a's entry
  TuneCache c(path);
  c.load();
  EXPECT_EQ(c.size(), 2u);
  EXPECT_NE(c.find(ea.kernel, ea.n, ea.aux, ea.type, ea.device, ea.build), nullptr);
  EXPECT_NE(c.find(eb.kernel, eb.n, eb.aux, eb.type, eb.device, eb.build), nullptr);
  // replacing an entry keeps one copy
  TuneEntry ea2 = ea;
  ea2.config.block = 512;
  c.insert(ea2);
  c.save();
  TuneCache d(path);
  d.load();
  EXPECT_EQ(d.size(), 2u);
  EXPECT_EQ(d.find(ea.kernel, ea.n, ea.aux, ea.type, ea.device, ea.build)->config.block, 512);
}

TEST(TuneCache, MalformedFilesAreRejectedWithFileAndFieldAndLoadIgnoresThem) {
  const std::string dir = test::scratch_dir();
  const std::string good = TuneCache::serialize({TuneEntry{"k", 10, "", "t", "d", "b", {128, 4}, 1.0, 2.0}});
  EXPECT_EQ(TuneCache::parse(good, "x.json").size(), 1u);
  struct Bad {
    std::string text, field;
  };
  const Bad bad[] = {
      {"", "line 1"},
      {"[1,2]", "top level"},
      {"{\"format\": \"other\", \"version\": 1, \"entries\": []}", "format"},
      {"{\"format\": \"gluon-tunecache\", \"version\": 2, \"entries\": []}", "version"},
      {"{\"format\": \"gluon-tunecache\", \"version\": 1}", "entries"},
      {"{\"format\": \"gluon-tunecache\", \"version\": 1, \"entries\": [{\"kernel\": \"k\"}]}", "entries[0].n"},
      {std::string(good).replace(good.find("128"), 3, "100"), "entries[0].block"},
      {std::string(good).replace(good.find("\"grid\": 4"), 9, "\"grid\": 0"), "entries[0].grid"},
      {good.substr(0, good.size() / 2), "line"},
      {std::string(50000, '['), "nested at most 32 deep"},  // a recursive reader must not run out of stack
  };
  for (const auto& b : bad) {
    try {
      TuneCache::parse(b.text, "cache.json");
      ADD_FAILURE() << "accepted: " << b.text;
    } catch (const FileFormatError& e) {
      EXPECT_EQ(e.file(), "cache.json");
      EXPECT_NE(std::string(e.what()).find(b.field), std::string::npos) << e.what();
    }
  }
  const std::string path = dir + "/broken.json";
  std::ofstream(path) << "{ not json";
  TuneCache c(path);
  EXPECT_NO_THROW(c.load());
  EXPECT_EQ(c.size(), 0u);
  c.insert(TuneEntry{"k", 10, "", "t", "d", "b", {128, 4}, 1.0, 2.0});
  EXPECT_NO_THROW(c.save());  // writes a new cache and keeps the unreadable file aside, never overwritten
  EXPECT_EQ(TuneCache::parse(slurp(path), path).size(), 1u);
  int aside = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir))
    if (f.path().filename().string().rfind("broken.json.unreadable.", 0) == 0) {
      ++aside;
      EXPECT_EQ(slurp(f.path().string()), "{ not json");
    }
  EXPECT_EQ(aside, 1);
  // A directory where the file should be: load ignores it, save fails with the path named.
  TuneCache d(dir);
  EXPECT_NO_THROW(d.load());
  d.insert(TuneEntry{"k", 10, "", "t", "d", "b", {128, 4}, 1.0, 2.0});
  try {
    d.save();
    ADD_FAILURE() << "saved over a directory";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
  }
}

// One bad entry (a block size out of range, as an older build once wrote) costs that entry only:
// load() keeps the others, and save() writes them back without it.
TEST(TuneCache, AMalformedEntryIsLeftOutAndTheOthersKept) {
  const std::string dir = test::scratch_dir();
  const TuneEntry a{"k", 10, "", "t", "d", "b", {128, 4}, 1.0, 2.0}, c{"k", 30, "", "t", "d", "b", {256, 8}, 1.0, 2.0};
  std::string text = TuneCache::serialize({a, TuneEntry{"k", 20, "", "t", "d", "b", {96, 1}, 1.0, 2.0}, c});
  text.replace(text.find("\"block\": 96"), 11, "\"block\": 1");
  std::vector<std::string> skipped;
  EXPECT_EQ(TuneCache::parse(text, "t.json", &skipped).size(), 2u);
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_NE(skipped[0].find("entries[1].block"), std::string::npos) << skipped[0];
  EXPECT_THROW(TuneCache::parse(text, "t.json"), FileFormatError);  // strict without `skipped`
  const std::string path = dir + "/one-bad.json";
  std::ofstream(path) << text;
  TuneCache cache(path);
  EXPECT_NO_THROW(cache.load());
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.find("k", 30, "", "t", "d", "b")->config.block, 256);
  cache.insert(TuneEntry{"k", 40, "", "t", "d", "b", {64, 2}, 1.0, 2.0});
  cache.save();
  EXPECT_EQ(TuneCache::parse(slurp(path), path).size(), 3u);  // the bad entry is gone, the rest kept
}

TEST(TuneSettings, EnvironmentSwitchesTuningAndCachePath) {
  SettingsGuard guard;
  unsetenv("GLUON_TUNE");
  reload_tune_settings();
  EXPECT_TRUE(tuning_enabled());
  for (const char* off : {"0", "off", "false", "no"}) {
    setenv("GLUON_TUNE", off, 1);
    reload_tune_settings();
    EXPECT_FALSE(tuning_enabled()) << off;
  }
  setenv("GLUON_TUNE", "1", 1);
  reload_tune_settings();
  EXPECT_TRUE(tuning_enabled());
  set_tuning_enabled(false);
  EXPECT_FALSE(tuning_enabled());
  set_tuning_enabled(true);
  EXPECT_TRUE(tuning_enabled());

  const std::string path = test::scratch_dir() + "/env.json";
  setenv("GLUON_TUNE_CACHE", path.c_str(), 1);
  reload_tune_settings();
  EXPECT_EQ(tune_cache_path(), path);
  unsetenv("GLUON_TUNE_CACHE");
  const char* home = std::getenv("HOME");
  reload_tune_settings();
  if (home && *home) EXPECT_EQ(tune_cache_path(), std::string(home) + "/.cache/gluon/tunecache.json");
  set_tune_cache_path("");
  EXPECT_EQ(tune_cache_path(), "");
  EXPECT_FALSE(tune_lookup("nothing", 1, "", "t", 0).has_value());  // no file: empty, no error
}

TEST(TuneSettings, RecordWritesTheFileForThisBuildAndDevice) {
  SettingsGuard guard;
  const std::string path = test::scratch_dir() + "/global.json";
  set_tune_cache_path(path);
  tune_record("unit_kernel", 4096, "double", "abcd", 0, LaunchConfig{384, 12}, 0.25, 0.5);
  ASSERT_TRUE(std::filesystem::exists(path));
  TuneCache c(path);
  c.load();
  const TuneEntry* e = c.find("unit_kernel", 4096, "double", "abcd", device_signature(0), build_signature());
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->config, (LaunchConfig{384, 12}));
  set_tune_cache_path(path);  // a second run: starts tuned
  EXPECT_EQ(tune_lookup("unit_kernel", 4096, "double", "abcd", 0), (LaunchConfig{384, 12}));
  EXPECT_FALSE(build_signature().empty());
}

TEST(TuneSpecs, CpuLaunchesAreUntunedLoopsWithTheSameResult) {
  SettingsGuard guard;
  const std::string dir = test::scratch_dir();
  set_tune_cache_path(dir + "/cpu.json");
  const Exec cpu = cpu_exec();
  const std::int64_t n = 10007;
  Buffer x(MemSpace::host, n * sizeof(double), "x"), y(MemSpace::host, n * sizeof(double), "y");
  std::mt19937_64 rng(3);
  std::normal_distribution<double> g;
  auto* px = static_cast<double*>(x.data());
  auto* py = static_cast<double*>(y.data());
  std::vector<double> y0(n);
  for (std::int64_t i = 0; i < n; ++i) px[i] = g(rng), py[i] = y0[i] = g(rng);
  tune_selftest_axpy(cpu, y, x, 0.5, Tuning::restore);
  for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(py[i], y0[i] + 0.5 * px[i]) << i;  // applied once
  EXPECT_EQ(tune_selftest_sum(cpu, n, Tuning::idempotent), selftest_sum(cpu, n));
  EXPECT_EQ(tune_selftest_sum(cpu, n, Tuning::off), selftest_sum(cpu, n));
  EXPECT_FALSE(std::filesystem::exists(dir + "/cpu.json"));  // nothing tuned on the CPU

  TuneOutputs outs;
  for (int i = 0; i < TuneOutputs::kMax; ++i) outs.add(px, 8);
  EXPECT_EQ(outs.total_bytes(), 64u);
  EXPECT_THROW(outs.add(px, 8), InputError);
  Buffer small(MemSpace::host, 8 * sizeof(double), "small");
  EXPECT_THROW(tune_selftest_axpy(cpu, small, x, 1.0, Tuning::off), InputError);
  EXPECT_EQ(default_launch(1, 132), (LaunchConfig{256, 1}));
  EXPECT_EQ(default_launch(std::int64_t{1} << 30, 132), (LaunchConfig{256, 132 * 32}));
  EXPECT_EQ(to_string(Tuning::restore), "restore");
  EXPECT_EQ(tune_hash("abc"), tune_hash("abc"));
  EXPECT_NE(tune_hash("abc"), tune_hash("abd"));
  EXPECT_EQ(tune_hash("").size(), 16u);
}
