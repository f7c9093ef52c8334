#pragma once
// Timers for host and device regions.
//
//   Timer        wall clock (steady_clock). start()/stop() bracket one lap; laps accumulate.
//                elapsed_s() is the total over finished laps plus the running one, laps() their
//                count, last_lap_s() the most recent finished lap. start() on a running timer and
//                stop() on a stopped one are ignored. ScopedLap starts a lap and stops it at scope
//                end.
//   DeviceTimer  the same for work queued on an Exec's stream, measured with Events: on cuda it
//                times the GPU's execution (not the host's queueing); on cpu it equals a Timer
//                because cpu work is synchronous. stop() does not wait; elapsed_ms() waits for the
//                last stop and sums all laps.
#include <chrono>
#include <vector>

#include "gluon/runtime/exec.h"
#include "gluon/runtime/stream.h"

namespace gluon::runtime {

class Timer {
 public:
  using clock = std::chrono::steady_clock;

  void start();
  void stop();
  void reset();
  bool running() const { return running_; }
  double elapsed_s() const;
  double elapsed_ms() const { return 1e3 * elapsed_s(); }
  double last_lap_s() const { return last_lap_s_; }
  int laps() const { return laps_; }

 private:
  bool running_ = false;
  clock::time_point t0_{};
  double total_s_ = 0.0, last_lap_s_ = 0.0;
  int laps_ = 0;
};

class ScopedLap {
 public:
  explicit ScopedLap(Timer& t) : t_(t) { t_.start(); }
  ~ScopedLap() { t_.stop(); }
  ScopedLap(const ScopedLap&) = delete;
  ScopedLap& operator=(const ScopedLap&) = delete;

 private:
  Timer& t_;
};

class DeviceTimer {
 public:
  explicit DeviceTimer(const Exec& ex) : ex_(ex) {}
  void start();
  void stop();
  void reset();
  bool running() const { return running_; }
  // Total over finished laps, in milliseconds; waits for the GPU to reach the last stop.
  double elapsed_ms();
  double elapsed_s() { return 1e-3 * elapsed_ms(); }
  int laps() const { return laps_; }
  const Exec& exec() const { return ex_; }

 private:
  struct Lap {
    Event start, stop;
  };
  Exec ex_;
  std::vector<Lap> pending_;  // finished laps not yet summed
  bool running_ = false;
  double total_ms_ = 0.0;
  int laps_ = 0;
};

}  // namespace gluon::runtime
