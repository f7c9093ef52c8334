#pragma once
// The autotuner (QUDA's Tunable idea, STYLE.md): the launch parameters (threads per block, number
// of blocks) of each GPU kernel launched through parallel_for / parallel_reduce are chosen by
// timing candidates on first use, and kept in a tune cache file so that the next run starts tuned.
// On the CPU backend nothing is tuned: OpenMP runs the loop with its static schedule.
// Host API only (no CUDA headers): the timing loop lives in runtime/cuda/launch.cuh (nvcc), the
// cache and its file in src/runtime/tune.cpp (g++). Details and the file format: docs/bench.md.
//
//   LaunchConfig    {block, grid}. default_launch(n, sms) is the untuned choice: 256 threads,
//                   grid ceil(n/256) capped at 32 blocks per multiprocessor.
//   Tuning          whether and how a launch may be tuned. Tuning runs the kernel many times, so
//                   a kernel that updates memory in place (y += a x) would be applied many times:
//                     off         never tuned, default_launch (the default for every kernel that
//                                 declares nothing)
//                     idempotent  running it again leaves the same memory as running it once
//                                 (pure out-of-place writes such as a dslash out != in, or a pure
//                                 reduction): tuned by running it repeatedly
//                     restore     it writes memory it also reads: the device ranges it writes,
//                                 declared in TuneOutputs, are copied aside before tuning and
//                                 copied back afterwards (QUDA's preTune/postTune); then it runs
//                                 once for real
//   TuneOutputs     up to 8 device ranges {ptr, bytes} backed up for Tuning::restore
//   TuneSpec        the explicit form: parallel_for(ex, TuneSpec{label, tuning, aux, outputs}, n, f)
//                   Kernels may instead declare it on the functor (all optional, host side):
//                     static constexpr gluon::runtime::Tuning tuning = Tuning::idempotent;
//                     gluon::runtime::TuneOutputs tune_outputs() const;   // for restore
//                     std::string tune_aux() const;      // e.g. "single r12": part of the key
//                   and parallel_for(ex, label, n, f) picks them up.
//   TuneEntry/TuneCache  the cache: entries keyed by (kernel label, n, aux, functor type, device
//                   name + compute capability, build: the id of the code compiled, build::code).
//                   load() reads a file (missing: empty; unreadable or malformed: a warning and
//                   empty; a malformed entry:
//                   a warning, that entry left out), find() looks an entry
//                   up, insert() adds or replaces one, save() merges with what is on disk now
//                   (another process may have added entries) and writes the file atomically
//                   (temporary name + rename). Entries of other builds or devices stay in the
//                   file but never match: a rebuilt binary retunes.
//   Global settings tuning_enabled() — false when $GLUON_TUNE is 0/off/false/no, or after
//                   set_tuning_enabled(false); tune_cache_path() — $GLUON_TUNE_CACHE, else
//                   $HOME/.cache/gluon/tunecache.json, else "" (no file: tuned in memory only);
//                   set_tune_cache_path(p) overrides it ("" = no file) and drops the loaded cache;
//                   reload_tune_settings() re-reads both variables (tests, after setenv).
//                   set_forced_variant(v) makes every GPU choose_variant launch with at least
//                   v + 1 variants run variant v, untimed (tests of each variant; -1, the
//                   default: off).
//   tune_lookup / tune_record  the global cache (loaded from tune_cache_path() on first use) as
//                   the launcher uses it: for the current build and the device ordinal; record
//                   saves the file. tune_stats() counts lookups that hit, kernels tuned, and
//                   launches that used the default because tuning was off or unsafe.
//   tune_selftest_* small tuned kernels (src/runtime/tune_kernels.cpp) for the gpu tests:
//                   axpy y += a x in place (Tuning::restore), an exact sum (idempotent reduction).
//
// Note on reductions: the rounding of a floating-point parallel_reduce depends on block and grid.
// A given tune cache gives reproducible results; GLUON_TUNE=0 gives the default launch's.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gluon/runtime/exec.h"
#include "gluon/runtime/memory.h"

namespace gluon::runtime {

struct LaunchConfig {
  int block = 256;
  int grid = 1;
  bool operator==(const LaunchConfig&) const = default;
};

inline constexpr int kDefaultBlock = 256;
inline constexpr int kDefaultBlocksPerSm = 32;

inline LaunchConfig default_launch(std::int64_t n, int multiprocessors) {
  const std::int64_t want = (n + kDefaultBlock - 1) / kDefaultBlock;
  const std::int64_t cap = static_cast<std::int64_t>(multiprocessors) * kDefaultBlocksPerSm;
  const std::int64_t g = want < cap ? want : cap;
  return LaunchConfig{kDefaultBlock, static_cast<int>(g < 1 ? 1 : g)};
}

enum class Tuning { off, idempotent, restore };
std::string to_string(Tuning t);

struct TuneBuffer {
  void* ptr = nullptr;
  std::size_t bytes = 0;
};

struct TuneOutputs {
  static constexpr int kMax = 8;
  std::array<TuneBuffer, kMax> buffers{};
  int count = 0;
  // Adds a device range the kernel writes; InputError beyond kMax ranges.
  void add(void* ptr, std::size_t bytes);
  std::size_t total_bytes() const;
};

struct TuneSpec {
  const char* label = "kernel";
  Tuning tuning = Tuning::off;
  std::string aux;
  TuneOutputs outputs;
};

struct TuneEntry {
  std::string kernel;   // launch label
  std::int64_t n = 0;   // index range
  std::string aux;      // caller's extra key (precision, recon, ...)
  std::string type;     // hash of the functor's type: two instantiations sharing a label differ
  std::string device;   // "NVIDIA H200 sm_90"
  std::string build;    // build_signature(): "code <id>", the code the binary was compiled from
  LaunchConfig config;
  double time_ms = 0.0;          // per launch with config
  double default_time_ms = 0.0;  // per launch with default_launch (0 when not measured)
};

class TuneCache {
 public:
  TuneCache() = default;
  explicit TuneCache(std::string path) : path_(std::move(path)) {}

  const std::string& path() const { return path_; }
  // Reads path() (no path or no file: empty). Malformed or unreadable: warning, entries cleared.
  void load();
  // Merges with the file as it is now (entries in memory win) and writes it atomically (fsync,
  // then rename). A file there that is not a readable tune cache is moved aside to
  // path() + ".unreadable.<pid>" first, never overwritten. IoError when the directory cannot be
  // created, the path is a directory, or the file cannot be written or moved aside.
  void save();
  const TuneEntry* find(const std::string& kernel, std::int64_t n, const std::string& aux,
                        const std::string& type, const std::string& device,
                        const std::string& build) const;
  void insert(const TuneEntry& e);
  std::size_t size() const { return entries_.size(); }
  const std::vector<TuneEntry>& entries() const { return entries_; }

  // The file text for `entries` and back (JSON, docs/bench.md); parse throws FileFormatError.
  static std::string serialize(const std::vector<TuneEntry>& entries);
  // With `skipped`, a malformed entry is left out and its error appended there instead (the
  // file's framing must still be right): load() and save() keep the good entries of a file.
  static std::vector<TuneEntry> parse(const std::string& text, const std::string& file,
                                      std::vector<std::string>* skipped = nullptr);

 private:
  std::string path_;
  std::vector<TuneEntry> entries_;
};

bool tuning_enabled();
void set_tuning_enabled(bool on);
std::string tune_cache_path();
void set_tune_cache_path(const std::string& path);
void reload_tune_settings();
void set_forced_variant(int v);
int forced_variant();

// "NVIDIA H200 sm_90" for a CUDA device ordinal ("cpu" in CPU-only builds or without a device).
std::string device_signature(int device);
// The build key of this binary: "code " + build::code (cmake/build_stamp.cmake), which changes
// with the sources compiled, not with the docs or the tests.
std::string build_signature();
// FNV-1a 64 of a string as 16 hex digits (functor type names in the key).
std::string tune_hash(const char* text);

std::optional<LaunchConfig> tune_lookup(const std::string& kernel, std::int64_t n, const std::string& aux,
                                        const std::string& type, int device);
// Stores the result in the global cache and saves the file (a failed save is a warning).
void tune_record(const std::string& kernel, std::int64_t n, const std::string& aux, const std::string& type,
                 int device, const LaunchConfig& config, double time_ms, double default_time_ms);
// Counted by the launcher: a tuned launch that did not find its key and was tuned; an untuned one.
void tune_note_default_launch();
void tune_note_tuned();

struct TuneStats {
  std::int64_t hits = 0, tuned = 0, untuned = 0;
  std::size_t entries = 0;  // in the global cache (all builds and devices)
};
TuneStats tune_stats();

// gpu-test kernels. y, x: device buffers of n doubles (memspace_for(ex)).
void tune_selftest_axpy(const Exec& ex, Buffer& y, const Buffer& x, double a, Tuning tuning);
double tune_selftest_sum(const Exec& ex, std::int64_t n, Tuning tuning);

}  // namespace gluon::runtime
