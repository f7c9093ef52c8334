// The tune cache and the tuner's settings (runtime/tune.h). Host code compiled by the C++
// compiler; the timing loop that fills the cache is in runtime/cuda/launch.cuh.
//
// File format (JSON, one entry per line so that diffs stay readable):
//   {"format": "gluon-tunecache", "version": 1, "entries": [
//    {"kernel": "...", "n": 123, "aux": "...", "type": "...", "device": "...", "build": "...",
//     "block": 256, "grid": 528, "time_ms": 0.0123, "default_time_ms": 0.0150},
//    ...]}
// The runtime layer cannot use the io layer or nlohmann/json, so the small writer, reader and the
// temporary-name-and-rename write are here.
#include "gluon/runtime/tune.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "gluon/build_info.h"
#include "gluon/runtime/device_info.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/log.h"

namespace gluon::runtime {

std::string to_string(Tuning t) {
  switch (t) {
    case Tuning::off: return "off";
    case Tuning::idempotent: return "idempotent";
    case Tuning::restore: return "restore";
  }
  return "?";
}

void TuneOutputs::add(void* ptr, std::size_t bytes) {
  if (count >= kMax)
    throw InputError("TuneOutputs: at most " + std::to_string(kMax) + " output ranges per kernel");
  buffers[static_cast<std::size_t>(count++)] = TuneBuffer{ptr, bytes};
}

std::size_t TuneOutputs::total_bytes() const {
  std::size_t s = 0;
  for (int i = 0; i < count; ++i) s += buffers[static_cast<std::size_t>(i)].bytes;
  return s;
}

// ---------------------------------------------------------------------------------------------
// JSON text: writer and a small reader for what the writer produces (any valid JSON of the same
// shape is accepted: whitespace, key order and extra keys do not matter).
namespace {

std::string quote(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\t': o += "\\t"; break;
      case '\r': o += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          o += buf;
        } else {
          o += c;
        }
    }
  }
  return o + "\"";
}

std::string number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

struct Value {
  enum Kind { null, boolean, num, str, arr, obj } kind = null;
  double number = 0.0;
  std::string text;
  std::vector<Value> items;
  std::vector<std::pair<std::string, Value>> members;
  const Value* get(const std::string& key) const {
    for (const auto& [k, v] : members)
      if (k == key) return &v;
    return nullptr;
  }
};

class Reader {
 public:
  Reader(const std::string& text, const std::string& file) : s_(text), file_(file) {}

  Value document() {
    Value v = value();
    skip();
    if (p_ != s_.size()) fail("end of file", "more text");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& expected, const std::string& found) {
    std::size_t line = 1;
    for (std::size_t i = 0; i < p_ && i < s_.size(); ++i) line += s_[i] == '\n';
    throw FileFormatError(file_, "line " + std::to_string(line), expected, found);
  }
  void skip() {
    while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\n' || s_[p_] == '\t' || s_[p_] == '\r')) ++p_;
  }
  std::string here() const {
    if (p_ >= s_.size()) return "end of file";
    std::string q(3, '\'');
    q[1] = s_[p_];
    return q;
  }
  void expect(char c) {
    skip();
    if (p_ >= s_.size() || s_[p_] != c) fail(std::string("'") + c + "'", here());
    ++p_;
  }
  bool literal(const char* word) {
    const std::size_t n = std::strlen(word);
    if (s_.compare(p_, n, word) != 0) return false;
    p_ += n;
    return true;
  }
  std::string string() {
    expect('"');
    std::string o;
    while (true) {
      if (p_ >= s_.size()) fail("closing '\"'", "end of file");
      const char c = s_[p_++];
      if (c == '"') return o;
      if (c != '\\') {
        o += c;
        continue;
      }
      if (p_ >= s_.size()) fail("escape", "end of file");
      const char e = s_[p_++];
      switch (e) {
        case '"': o += '"'; break;
        case '\\': o += '\\'; break;
        case '/': o += '/'; break;
        case 'n': o += '\n'; break;
        case 't': o += '\t'; break;
        case 'r': o += '\r'; break;
        case 'b': o += '\b'; break;
        case 'f': o += '\f'; break;
        case 'u': {
          if (p_ + 4 > s_.size()) fail("4 hex digits", "end of file");
          const unsigned long cp = std::strtoul(s_.substr(p_, 4).c_str(), nullptr, 16);
          p_ += 4;
          o += cp < 0x80 ? static_cast<char>(cp) : '?';  // keys are ASCII
          break;
        }
        default: fail("a JSON escape", std::string("\\") + e);
      }
    }
  }
  // The format nests 3 deep; anything far deeper is not a tune cache, and a recursive reader
  // must not run out of stack on it (50000 '[' crashed it).
  static constexpr int kMaxDepth = 32;
  Value value() {
    skip();
    if (p_ >= s_.size()) fail("a value", "end of file");
    if (depth_ >= kMaxDepth) fail("values nested at most " + std::to_string(kMaxDepth) + " deep", "deeper nesting");
    struct Nest {
      int& d;
      explicit Nest(int& x) : d(x) { ++d; }
      ~Nest() { --d; }
    } nest(depth_);
    Value v;
    const char c = s_[p_];
    if (c == '{') {
      v.kind = Value::obj;
      ++p_;
      skip();
      if (p_ < s_.size() && s_[p_] == '}') {
        ++p_;
        return v;
      }
      while (true) {
        std::string k = string();
        expect(':');
        v.members.emplace_back(std::move(k), value());
        skip();
        if (p_ < s_.size() && s_[p_] == ',') {
          ++p_;
          continue;
        }
        expect('}');
        return v;
      }
    }
    if (c == '[') {
      v.kind = Value::arr;
      ++p_;
      skip();
      if (p_ < s_.size() && s_[p_] == ']') {
        ++p_;
        return v;
      }
      while (true) {
        v.items.push_back(value());
        skip();
        if (p_ < s_.size() && s_[p_] == ',') {
          ++p_;
          continue;
        }
        expect(']');
        return v;
      }
    }
    if (c == '"') {
      v.kind = Value::str;
      v.text = string();
      return v;
    }
    if (literal("true")) {
      v.kind = Value::boolean;
      v.number = 1;
      return v;
    }
    if (literal("false")) {
      v.kind = Value::boolean;
      return v;
    }
    if (literal("null")) return v;
    const char* begin = s_.c_str() + p_;
    char* end = nullptr;
    v.number = std::strtod(begin, &end);
    if (end == begin) fail("a value", here());
    v.kind = Value::num;
    p_ += static_cast<std::size_t>(end - begin);
    return v;
  }

  const std::string& s_;
  std::string file_;
  std::size_t p_ = 0;
  int depth_ = 0;
};

bool same_key(const TuneEntry& a, const TuneEntry& b) {
  return a.kernel == b.kernel && a.n == b.n && a.aux == b.aux && a.type == b.type && a.device == b.device &&
         a.build == b.build;
}

void write_atomically(const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  std::error_code ec;
  if (p.has_parent_path()) {
    fs::create_directories(p.parent_path(), ec);
    if (ec) throw IoError(path + ": cannot create directory " + p.parent_path().string() + ": " + ec.message());
  }
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw IoError(path + ": cannot create temporary file " + tmp + ": " + std::strerror(errno));
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size() && std::fflush(f) == 0 &&
                  (::fsync(::fileno(f)) == 0 || errno == EINVAL);  // on disk before the rename publishes it
  const int err = errno;
  if (std::fclose(f) != 0 || !ok) {
    std::remove(tmp.c_str());
    throw IoError(path + ": write of " + tmp + " failed: " + std::strerror(err));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e2 = errno;
    std::remove(tmp.c_str());
    throw IoError(path + ": rename from " + tmp + " failed: " + std::strerror(e2));
  }
}

std::string read_text(const std::string& path, bool& exists) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw IoError(path + ": is a directory, expected a tune cache file");
  std::ifstream in(path, std::ios::binary);
  exists = static_cast<bool>(in);
  if (!in) return {};
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw IoError(path + ": read failed");
  return ss.str();
}

}  // namespace

std::string TuneCache::serialize(const std::vector<TuneEntry>& entries) {
  std::string o = "{\"format\": \"gluon-tunecache\", \"version\": 1, \"entries\": [\n";
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& e = entries[i];
    o += " {\"kernel\": " + quote(e.kernel) + ", \"n\": " + std::to_string(e.n) + ", \"aux\": " + quote(e.aux) +
         ", \"type\": " + quote(e.type) + ", \"device\": " + quote(e.device) + ", \"build\": " + quote(e.build) +
         ", \"block\": " + std::to_string(e.config.block) + ", \"grid\": " + std::to_string(e.config.grid) +
         ", \"time_ms\": " + number(e.time_ms) + ", \"default_time_ms\": " + number(e.default_time_ms) + "}";
    o += i + 1 < entries.size() ? ",\n" : "\n";
  }
  return o + "]}\n";
}

std::vector<TuneEntry> TuneCache::parse(const std::string& text, const std::string& file,
                                        std::vector<std::string>* skipped) {
  const Value doc = Reader(text, file).document();
  if (doc.kind != Value::obj) throw FileFormatError(file, "top level", "a JSON object", "another value");
  const Value* fmt = doc.get("format");
  if (!fmt || fmt->kind != Value::str || fmt->text != "gluon-tunecache")
    throw FileFormatError(file, "format", "\"gluon-tunecache\"", fmt && fmt->kind == Value::str ? fmt->text : "none");
  const Value* ver = doc.get("version");
  if (!ver || ver->kind != Value::num || ver->number != 1)
    throw FileFormatError(file, "version", "1", ver && ver->kind == Value::num ? number(ver->number) : "none");
  const Value* list = doc.get("entries");
  if (!list || list->kind != Value::arr) throw FileFormatError(file, "entries", "an array", "none");
  std::vector<TuneEntry> out;
  for (std::size_t i = 0; i < list->items.size(); ++i) {
    const Value& v = list->items[i];
    const std::string where = "entries[" + std::to_string(i) + "]";
    try {
      if (v.kind != Value::obj) throw FileFormatError(file, where, "an object", "another value");
      auto str = [&](const char* k) {
        const Value* x = v.get(k);
        if (!x || x->kind != Value::str) throw FileFormatError(file, where + "." + k, "a string", "none");
        return x->text;
      };
      auto num = [&](const char* k, bool required) {
        const Value* x = v.get(k);
        if (!x || x->kind != Value::num) {
          if (required) throw FileFormatError(file, where + "." + k, "a number", "none");
          return 0.0;
        }
        return x->number;
      };
      TuneEntry e;
      e.kernel = str("kernel");
      e.n = static_cast<std::int64_t>(num("n", true));
      e.aux = str("aux");
      e.type = str("type");
      e.device = str("device");
      e.build = str("build");
      e.config.block = static_cast<int>(num("block", true));
      e.config.grid = static_cast<int>(num("grid", true));
      e.time_ms = num("time_ms", false);
      e.default_time_ms = num("default_time_ms", false);
      if (e.config.block < 32 || e.config.block > 1024 || e.config.block % 32 != 0)
        throw FileFormatError(file, where + ".block", "a multiple of 32 in [32, 1024]", std::to_string(e.config.block));
      if (e.config.grid < 1) throw FileFormatError(file, where + ".grid", "at least 1", std::to_string(e.config.grid));
      out.push_back(std::move(e));
    } catch (const FileFormatError& err) {
      if (!skipped) throw;
      skipped->push_back(err.what());
    }
  }
  return out;
}

void TuneCache::load() {
  entries_.clear();
  if (path_.empty()) return;
  try {
    bool exists = false;
    const std::string text = read_text(path_, exists);
    if (!exists) return;
    std::vector<std::string> skipped;
    entries_ = parse(text, path_, &skipped);
    if (!skipped.empty())
      log::warn("tune cache: left out " + std::to_string(skipped.size()) + " malformed entr" +
                (skipped.size() == 1 ? "y" : "ies") + " (kept " + std::to_string(entries_.size()) +
                "; they are retuned), the first: " + skipped.front());
  } catch (const Error& e) {
    log::warn(std::string("tune cache ignored (every kernel will be retuned): ") + e.what());
    entries_.clear();
  }
}

void TuneCache::save() {
  if (path_.empty()) return;
  std::vector<TuneEntry> merged;
  bool exists = false;
  const std::string text = read_text(path_, exists);  // IoError: not saved (tune_record warns)
  try {
    std::vector<std::string> skipped;  // malformed entries are dropped from the file
    if (exists) merged = parse(text, path_, &skipped);
  } catch (const FileFormatError& e) {
    // Not a tune cache this build can read (damaged, another version, or some other file the
    // path names by mistake): moved aside, never overwritten, and a new cache written.
    const std::string aside = path_ + ".unreadable." + std::to_string(::getpid());
    if (std::rename(path_.c_str(), aside.c_str()) != 0)
      throw IoError(path_ + ": cannot read it as a tune cache (" + e.what() + ") nor move it aside to " + aside + ": " +
                    std::strerror(errno));
    log::warn("tune cache: " + path_ + " could not be read (" + e.what() + "); it was moved to " + aside +
              " and a new cache written");
    merged.clear();
  }
  for (const auto& e : entries_) {
    bool replaced = false;
    for (auto& m : merged)
      if (same_key(m, e)) {
        m = e;
        replaced = true;
      }
    if (!replaced) merged.push_back(e);
  }
  write_atomically(path_, serialize(merged));
  // adopt what other processes added meanwhile
  for (const auto& m : merged) {
    bool have = false;
    for (const auto& e : entries_) have = have || same_key(m, e);
    if (!have) entries_.push_back(m);
  }
}

const TuneEntry* TuneCache::find(const std::string& kernel, std::int64_t n, const std::string& aux,
                                 const std::string& type, const std::string& device, const std::string& build) const {
  for (const auto& e : entries_)
    if (e.n == n && e.kernel == kernel && e.aux == aux && e.type == type && e.device == device && e.build == build)
      return &e;
  return nullptr;
}

void TuneCache::insert(const TuneEntry& e) {
  for (auto& x : entries_)
    if (same_key(x, e)) {
      x = e;
      return;
    }
  entries_.push_back(e);
}

// ---------------------------------------------------------------------------------------------
// Global state: settings, the loaded cache and a fast index into it.
namespace {

bool env_tuning_enabled() {
  const char* v = std::getenv("GLUON_TUNE");
  if (!v) return true;
  const std::string s(v);
  return !(s == "0" || s == "off" || s == "OFF" || s == "false" || s == "no");
}

std::string env_cache_path() {
  if (const char* p = std::getenv("GLUON_TUNE_CACHE")) return p;
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.cache/gluon/tunecache.json";
  return {};
}

struct Global {
  std::mutex m;
  bool settings_read = false;
  bool enabled = true;
  std::string path;
  bool loaded = false;
  TuneCache cache;
  // (kernel, n, aux, type, device ordinal) -> config, for the current build
  std::map<std::string, LaunchConfig> index;
  std::vector<std::string> device_names;
  std::atomic<std::int64_t> hits{0}, tuned{0}, untuned{0};
  std::atomic<int> enabled_fast{-1};  // -1: settings not read yet

  void read_settings() {
    if (settings_read) return;
    enabled = env_tuning_enabled();
    path = env_cache_path();
    settings_read = true;
    enabled_fast.store(enabled ? 1 : 0);
  }
  void ensure_loaded() {
    read_settings();
    if (loaded) return;
    cache = TuneCache(path);
    cache.load();
    index.clear();
    loaded = true;
  }
};

Global& global() {
  static Global g;
  return g;
}

std::string index_key(const std::string& kernel, std::int64_t n, const std::string& aux, const std::string& type,
                      int device) {
  return kernel + '\x1f' + std::to_string(n) + '\x1f' + aux + '\x1f' + type + '\x1f' + std::to_string(device);
}

std::string signature_locked(Global& g, int device) {
  if (g.device_names.empty()) {
    for (const auto& d : list_devices()) {
      if (d.ordinal >= static_cast<int>(g.device_names.size())) g.device_names.resize(d.ordinal + 1, "cpu");
      g.device_names[d.ordinal] = d.name + " sm_" + std::to_string(d.cc_major) + std::to_string(d.cc_minor);
    }
    if (g.device_names.empty()) g.device_names.push_back("cpu");
  }
  if (device < 0 || device >= static_cast<int>(g.device_names.size())) return "cpu";
  return g.device_names[static_cast<std::size_t>(device)];
}

std::atomic<int> g_forced_variant{-1};  // set_forced_variant

}  // namespace

void set_forced_variant(int v) { g_forced_variant.store(v < 0 ? -1 : v, std::memory_order_relaxed); }
int forced_variant() { return g_forced_variant.load(std::memory_order_relaxed); }

bool tuning_enabled() {
  auto& g = global();
  if (const int fast = g.enabled_fast.load(std::memory_order_relaxed); fast >= 0) return fast == 1;
  std::lock_guard<std::mutex> lock(g.m);
  g.read_settings();
  return g.enabled;
}

void set_tuning_enabled(bool on) {
  auto& g = global();
  std::lock_guard<std::mutex> lock(g.m);
  g.read_settings();
  g.enabled = on;
  g.enabled_fast.store(on ? 1 : 0);
}

std::string tune_cache_path() {
  auto& g = global();
  std::lock_guard<std::mutex> lock(g.m);
  g.read_settings();
  return g.path;
}

void set_tune_cache_path(const std::string& path) {
  auto& g = global();
  std::lock_guard<std::mutex> lock(g.m);
  g.read_settings();
  g.path = path;
  g.loaded = false;
  g.index.clear();
}

void reload_tune_settings() {
  auto& g = global();
  std::lock_guard<std::mutex> lock(g.m);
  g.settings_read = false;
  g.enabled_fast.store(-1);
  g.read_settings();
  g.loaded = false;
  g.index.clear();
}

std::string device_signature(int device) {
  auto& g = global();
  std::lock_guard<std::mutex> lock(g.m);
  return signature_locked(g, device);
}

std::string build_signature() { return std::string("code ") + build::code; }

std::string tune_hash(const char* text) {
  std::uint64_t h = 1469598103934665603ull;
  for (const char* p = text; p && *p; ++p) {
    h ^= static_cast<unsigned char>(*p);
    h *= 1099511628211ull;
  }
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::optional<LaunchConfig> tune_lookup(const std::string& kernel, std::int64_t n, const std::string& aux,
                                        const std::string& type, int device) {
  auto& g = global();
  std::lock_guard<std::mutex> lock(g.m);
  g.ensure_loaded();
  const std::string key = index_key(kernel, n, aux, type, device);
  if (auto it = g.index.find(key); it != g.index.end()) {
    ++g.hits;
    return it->second;
  }
  const TuneEntry* e = g.cache.find(kernel, n, aux, type, signature_locked(g, device), build_signature());
  if (!e) return std::nullopt;
  g.index.emplace(key, e->config);
  ++g.hits;
  return e->config;
}

void tune_record(const std::string& kernel, std::int64_t n, const std::string& aux, const std::string& type,
                 int device, const LaunchConfig& config, double time_ms, double default_time_ms) {
  auto& g = global();
  std::lock_guard<std::mutex> lock(g.m);
  g.ensure_loaded();
  TuneEntry e;
  e.kernel = kernel;
  e.n = n;
  e.aux = aux;
  e.type = type;
  e.device = signature_locked(g, device);
  e.build = build_signature();
  e.config = config;
  e.time_ms = time_ms;
  e.default_time_ms = default_time_ms;
  g.cache.insert(e);
  g.index[index_key(kernel, n, aux, type, device)] = config;
  if (log::enabled(log::Level::debug)) {
    char buf[160];
    std::snprintf(buf, sizeof buf, " n=%lld: block %d grid %d, %.4g ms (default %.4g ms)",
                  static_cast<long long>(n), config.block, config.grid, time_ms, default_time_ms);
    log::debug("tuned " + kernel + (aux.empty() ? "" : " [" + aux + "]") + buf);
  }
  try {
    g.cache.save();
  } catch (const Error& err) {
    static bool warned = false;
    if (!warned) log::warn(std::string("tune cache not saved (tuned in memory only): ") + err.what());
    warned = true;
  }
}

void tune_note_default_launch() { global().untuned.fetch_add(1, std::memory_order_relaxed); }

void tune_note_tuned() { global().tuned.fetch_add(1, std::memory_order_relaxed); }

TuneStats tune_stats() {
  auto& g = global();
  std::lock_guard<std::mutex> lock(g.m);
  TuneStats s;
  s.hits = g.hits.load();
  s.tuned = g.tuned.load();
  s.untuned = g.untuned.load();
  s.entries = g.loaded ? g.cache.size() : 0;
  return s;
}

}  // namespace gluon::runtime
