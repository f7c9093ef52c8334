// Progress reporter (runtime/progress.h).
#include "gluon/runtime/progress.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <utility>

namespace gluon::runtime {

Progress::Progress(std::string label, std::int64_t total, std::string unit)
    : Progress(std::move(label), total, std::move(unit), Options{}) {}

Progress::Progress(std::string label, std::int64_t total, std::string unit, Options options)
    : label_(std::move(label)), unit_(std::move(unit)), total_(total), opt_(std::move(options)) {
  t0_ = now();
}

double Progress::now() const {
  if (opt_.clock) return opt_.clock();
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double Progress::elapsed_s() const { return now() - t0_; }

double Progress::rate() const {
  const double t = elapsed_s();
  return t > 0.0 ? static_cast<double>(done_) / t : 0.0;
}

double Progress::eta_s() const {
  if (total_ <= 0) return -1.0;
  if (done_ >= total_) return 0.0;
  const double r = rate();
  if (r <= 0.0) return -1.0;
  return static_cast<double>(total_ - done_) / r;
}

std::string Progress::format_duration(double s) {
  char buf[32];
  if (!(s >= 0.0) || !std::isfinite(s)) return "?";
  if (s < 10.0) {
    std::snprintf(buf, sizeof buf, "%.2fs", s);
  } else if (s < 60.0) {
    std::snprintf(buf, sizeof buf, "%.1fs", s);
  } else if (s < 3600.0) {
    const auto total = static_cast<long long>(s);
    std::snprintf(buf, sizeof buf, "%lldm%02llds", total / 60, total % 60);
  } else {
    const auto minutes = static_cast<long long>(s / 60.0);
    std::snprintf(buf, sizeof buf, "%lldh%02lldm", minutes / 60, minutes % 60);
  }
  return buf;
}

std::string Progress::line() const {
  const double t = elapsed_s();
  const double r = t > 0.0 ? static_cast<double>(done_) / t : 0.0;
  std::string s = label_ + ": ";
  char buf[96];
  if (total_ > 0) {
    std::snprintf(buf, sizeof buf, "%lld/%lld ", static_cast<long long>(done_),
                  static_cast<long long>(total_));
    s += buf + unit_;
    std::snprintf(buf, sizeof buf, " (%.1f%%)",
                  100.0 * static_cast<double>(done_) / static_cast<double>(total_));
    s += buf;
  } else {
    std::snprintf(buf, sizeof buf, "%lld ", static_cast<long long>(done_));
    s += buf + unit_;
  }
  // Three significant digits for the rate, whatever its size.
  if (r >= 100.0)
    std::snprintf(buf, sizeof buf, ", %.0f ", r);
  else if (r >= 10.0)
    std::snprintf(buf, sizeof buf, ", %.1f ", r);
  else if (r >= 1.0)
    std::snprintf(buf, sizeof buf, ", %.2f ", r);
  else
    std::snprintf(buf, sizeof buf, ", %.3g ", r);
  s += buf + unit_ + "/s, elapsed " + format_duration(t);
  if (total_ > 0) {
    double eta = -1.0;
    if (done_ >= total_)
      eta = 0.0;
    else if (r > 0.0)
      eta = static_cast<double>(total_ - done_) / r;
    s += ", ETA " + format_duration(eta);
  }
  return s;
}

void Progress::print() {
  last_print_ = now();
  printed_current_ = true;
  ++lines_;
  if (opt_.silent) return;
  std::ostream& out = opt_.out ? *opt_.out : std::cerr;
  out << line() << '\n';
  out.flush();
}

void Progress::update(std::int64_t done) {
  const bool changed = done != done_;
  done_ = done;
  if (changed) printed_current_ = false;
  const bool first = lines_ == 0;
  const bool last = total_ > 0 && done_ >= total_;
  if (printed_current_) return;  // this state is already on screen
  if (first || last || now() - last_print_ >= opt_.interval_s) print();
}

void Progress::finish() {
  if (!printed_current_) print();
}

}  // namespace gluon::runtime
