// Host and device timers (runtime/timer.h).
#include "gluon/runtime/timer.h"

namespace gluon::runtime {

void Timer::start() {
  if (running_) return;
  running_ = true;
  t0_ = clock::now();
}

void Timer::stop() {
  if (!running_) return;
  last_lap_s_ = std::chrono::duration<double>(clock::now() - t0_).count();
  total_s_ += last_lap_s_;
  ++laps_;
  running_ = false;
}

void Timer::reset() { *this = Timer{}; }

double Timer::elapsed_s() const {
  double t = total_s_;
  if (running_) t += std::chrono::duration<double>(clock::now() - t0_).count();
  return t;
}

void DeviceTimer::start() {
  if (running_) return;
  // Fold laps the device has finished, so that a long loop keeps few events alive.
  std::size_t done = 0;
  while (done < pending_.size() && pending_[done].stop.ready()) {
    total_ms_ += runtime::elapsed_ms(pending_[done].start, pending_[done].stop);
    ++done;
  }
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(done));
  pending_.emplace_back();
  pending_.back().start.record(ex_);
  running_ = true;
}

void DeviceTimer::stop() {
  if (!running_) return;
  pending_.back().stop.record(ex_);
  running_ = false;
  ++laps_;
}

void DeviceTimer::reset() {
  pending_.clear();
  running_ = false;
  total_ms_ = 0.0;
  laps_ = 0;
}

double DeviceTimer::elapsed_ms() {
  // Sum the finished laps; a running lap stays pending until it is stopped.
  const std::size_t done = running_ ? pending_.size() - 1 : pending_.size();
  for (std::size_t i = 0; i < done; ++i) total_ms_ += runtime::elapsed_ms(pending_[i].start, pending_[i].stop);
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(done));
  return total_ms_;
}

}  // namespace gluon::runtime
