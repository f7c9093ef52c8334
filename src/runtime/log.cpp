// Levelled logging (runtime/log.h).
#include "gluon/runtime/log.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <sstream>

#include "gluon/runtime/error.h"

namespace gluon::runtime::log {

namespace {

struct State {
  std::mutex mutex;
  std::ostream* sink = nullptr;  // nullptr = std::cerr
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

State& state() {
  static State s;
  return s;
}

// The level is read on every call: keep it atomic and initialise it from the environment once.
std::atomic<int>& level_store() {
  static std::atomic<int> l{-1};
  return l;
}

Level env_level() {
  const char* env = std::getenv("GLUON_LOG_LEVEL");
  if (!env || !*env) return Level::info;
  try {
    return level_from_name(env);
  } catch (const InputError& e) {
    std::cerr << "gluon: GLUON_LOG_LEVEL: " << e.what() << "; using info\n";
    return Level::info;
  }
}

Level current() {
  auto& l = level_store();
  int v = l.load(std::memory_order_relaxed);
  if (v < 0) {
    int expected = -1;
    const int fresh = static_cast<int>(env_level());
    if (!l.compare_exchange_strong(expected, fresh)) return static_cast<Level>(expected);
    v = fresh;
  }
  return static_cast<Level>(v);
}

const char* tag(Level l) {
  switch (l) {
    case Level::error: return "ERROR";
    case Level::warn: return "WARN ";
    case Level::info: return "INFO ";
    case Level::debug: return "DEBUG";
    case Level::trace: return "TRACE";
  }
  return "?    ";
}

}  // namespace

void set_level(Level l) { level_store().store(static_cast<int>(l)); }
Level level() { return current(); }
bool enabled(Level l) { return static_cast<int>(l) <= static_cast<int>(current()); }
void init_from_env() { level_store().store(static_cast<int>(env_level())); }

Level level_from_name(const std::string& name) {
  std::string s = name;
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  if (s == "error" || s == "0") return Level::error;
  if (s == "warn" || s == "warning" || s == "1") return Level::warn;
  if (s == "info" || s == "2") return Level::info;
  if (s == "debug" || s == "3") return Level::debug;
  if (s == "trace" || s == "4") return Level::trace;
  throw InputError("log level: expected one of error, warn, info, debug, trace (or 0..4); found '" +
                   name + "'");
}

std::string to_string(Level l) {
  switch (l) {
    case Level::error: return "error";
    case Level::warn: return "warn";
    case Level::info: return "info";
    case Level::debug: return "debug";
    case Level::trace: return "trace";
  }
  return "?";
}

void set_sink(std::ostream* sink) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.sink = sink;
}

void write(Level l, const std::string& message) {
  if (!enabled(l)) return;
  State& s = state();
  const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - s.start).count();
  char prefix[48];
  std::snprintf(prefix, sizeof prefix, "[gluon %9.3fs %s] ", t, tag(l));
  // Build the whole text first so that one locked write emits it.
  std::string text;
  text.reserve(message.size() + 48);
  std::size_t pos = 0;
  do {
    const std::size_t nl = message.find('\n', pos);
    const std::size_t end = nl == std::string::npos ? message.size() : nl;
    text += prefix;
    text.append(message, pos, end - pos);
    text += '\n';
    pos = nl == std::string::npos ? std::string::npos : nl + 1;
  } while (pos != std::string::npos && pos < message.size());
  std::lock_guard<std::mutex> lock(s.mutex);
  std::ostream& out = s.sink ? *s.sink : std::cerr;
  out << text;
  out.flush();
}

}  // namespace gluon::runtime::log
