// Kernel profile (runtime/profile.h).
#include "gluon/runtime/profile.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <vector>

#if GLUON_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace gluon::runtime {

bool profiling() {
  static const bool on = [] {
    const char* e = std::getenv("GLUON_PROFILE");
    return e && std::string(e) != "0" && std::string(e) != "";
  }();
  return on;
}

#if GLUON_HAVE_CUDA

namespace {

struct Bracket {
  std::string label;
  void* stream;
  cudaEvent_t start, stop;
};

struct Totals {
  long calls = 0;
  double ms = 0, idle_ms = 0;
  std::vector<float> gaps_us;  // each launch's idle gap: whether a mean is a few long waits or many short ones
};

double median(std::vector<float> v) {
  if (v.empty()) return 0;
  auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

class Profile {
 public:
  void begin(void* stream, const char* label) {
    std::lock_guard<std::mutex> lock(m_);
    if (open_.size() >= kFlushEvery) flush_locked();
    Bracket b{label, stream, take(), take()};
    cudaEventRecord(b.start, static_cast<cudaStream_t>(stream));
    open_.push_back(std::move(b));
    pending_ = &open_.back();
  }
  void end(void* stream) {
    std::lock_guard<std::mutex> lock(m_);
    if (!pending_ || pending_->stream != stream) return;
    cudaEventRecord(pending_->stop, static_cast<cudaStream_t>(stream));
    pending_ = nullptr;
  }
  void reset() {
    std::lock_guard<std::mutex> lock(m_);
    flush_locked();
    for (auto& [stream, e] : last_stop_)
      if (e != first_) free_.push_back(e);
    if (first_) free_.push_back(first_);
    last_stop_.clear();
    by_label_.clear();
    first_ = nullptr;
    span_ms_ = 0;
    launches_ = 0;
  }
  std::string report() {
    std::lock_guard<std::mutex> lock(m_);
    flush_locked();
    if (launches_ == 0) return {};
    std::vector<std::pair<std::string, Totals>> rows(by_label_.begin(), by_label_.end());
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.ms > b.second.ms; });
    double busy = 0, idle = 0;
    for (const auto& r : rows) busy += r.second.ms, idle += r.second.idle_ms;
    std::string out;
    char line[512];
    std::snprintf(line, sizeof line,
                  "profile: %ld kernel launches; kernels %.3f ms, idle gaps before them %.3f ms (same stream), "
                  "span %.3f ms\n  %-44s %8s %11s %9s %11s %9s %9s %9s\n",
                  launches_, busy, idle, span_ms_, "kernel", "calls", "total ms", "mean us", "idle ms", "idle us",
                  "median", "max");
    out += line;
    for (const auto& [label, t] : rows) {
      const double max_gap = t.gaps_us.empty() ? 0.0 : *std::max_element(t.gaps_us.begin(), t.gaps_us.end());
      std::snprintf(line, sizeof line, "  %-44s %8ld %11.3f %9.2f %11.3f %9.2f %9.2f %9.1f\n", label.substr(0, 44).c_str(),
                    t.calls, t.ms, 1e3 * t.ms / static_cast<double>(t.calls), t.idle_ms,
                    1e3 * t.idle_ms / static_cast<double>(t.calls), median(t.gaps_us), max_gap);
      out += line;
    }
    return out;
  }

 private:
  static constexpr std::size_t kFlushEvery = 4096;
  cudaEvent_t take() {
    if (free_.empty()) {
      cudaEvent_t e;
      cudaEventCreate(&e);
      pool_.push_back(e);
      return e;
    }
    cudaEvent_t e = free_.back();
    free_.pop_back();
    return e;
  }
  void flush_locked() {
    pending_ = nullptr;
    for (Bracket& b : open_) {
      if (cudaEventSynchronize(b.stop) != cudaSuccess) {
        cudaGetLastError();
        continue;
      }
      float ms = 0, gap = 0;
      cudaEventElapsedTime(&ms, b.start, b.stop);
      Totals& t = by_label_[b.label];
      ++t.calls;
      t.ms += ms;
      auto last = last_stop_.find(b.stream);
      if (last != last_stop_.end() && cudaEventElapsedTime(&gap, last->second, b.start) == cudaSuccess && gap > 0)
        t.idle_ms += gap;
      if (last != last_stop_.end()) t.gaps_us.push_back(1e3f * std::max(gap, 0.0f));
      if (first_) {
        float span = 0;
        if (cudaEventElapsedTime(&span, first_, b.stop) == cudaSuccess) span_ms_ = std::max(span_ms_, double(span));
      } else {
        first_ = b.start;
      }
      if (last != last_stop_.end() && last->second != first_) free_.push_back(last->second);
      last_stop_[b.stream] = b.stop;
      if (b.start != first_) free_.push_back(b.start);
      ++launches_;
    }
    open_.clear();
  }

  std::mutex m_;
  std::vector<cudaEvent_t> pool_, free_;
  std::vector<Bracket> open_;
  Bracket* pending_ = nullptr;
  std::map<std::string, Totals> by_label_;
  std::map<void*, cudaEvent_t> last_stop_;
  cudaEvent_t first_ = nullptr;
  double span_ms_ = 0;
  long launches_ = 0;
};

Profile& profile() {
  static Profile* p = new Profile;  // never destroyed: reports may come from exit paths
  return *p;
}

}  // namespace

void profile_begin(const Exec& ex, const char* label) {
  if (profiling() && ex.on_device()) profile().begin(ex.stream, label);
}
void profile_end(const Exec& ex) {
  if (profiling() && ex.on_device()) profile().end(ex.stream);
}
std::string profile_report() { return profiling() ? profile().report() : std::string(); }
void profile_reset() {
  if (profiling()) profile().reset();
}

#else

void profile_begin(const Exec&, const char*) {}
void profile_end(const Exec&) {}
std::string profile_report() { return {}; }
void profile_reset() {}

#endif

}  // namespace gluon::runtime
