#pragma once
// Progress lines for long loops (DESIGN.md: "long runs print progress with rates and an ETA").
//
//   Progress p("thermalise", 1000, "traj");     // label, total steps (<= 0: unknown), unit name
//   for (...) { ...; p.update(i + 1); }          // prints at most every interval_s seconds
//   p.finish();                                  // prints the final line unless already printed
//
// A line reads
//   "thermalise: 420/1000 traj (42.0%), 3.50 traj/s, elapsed 2m00s, ETA 2m46s"
// (without total: "thermalise: 420 traj, 3.50 traj/s, elapsed 2m00s"). The first update and the
// one reaching the total always print; others only when interval_s has passed since the last
// printed line. The rate is the average since construction. Options choose the stream (stderr
// by default), the interval, silence, and a clock in seconds (tests pass a fake one).
// Not thread-safe: call update from one thread.
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>

namespace gluon::runtime {

class Progress {
 public:
  struct Options {
    double interval_s = 5.0;             // minimum seconds between lines
    std::ostream* out = nullptr;         // nullptr = std::cerr
    bool silent = false;                 // compute, print nothing
    std::function<double()> clock;       // seconds, monotonic; empty = steady_clock
  };

  Progress(std::string label, std::int64_t total, std::string unit = "steps");
  Progress(std::string label, std::int64_t total, std::string unit, Options options);

  // Record that `done` steps are complete (monotone in normal use); may print a line.
  void update(std::int64_t done);
  // Prints the last state if it was not printed yet.
  void finish();

  double elapsed_s() const;
  double rate() const;   // steps per second so far (0 before any time has passed)
  double eta_s() const;  // seconds left at the current rate; < 0 when unknown
  std::int64_t done() const { return done_; }
  std::int64_t total() const { return total_; }
  int lines_printed() const { return lines_; }
  // The line that update would print now (no newline).
  std::string line() const;

  // "0.42s", "12.3s", "4m05s", "2h07m"
  static std::string format_duration(double seconds);

 private:
  double now() const;
  void print();

  std::string label_, unit_;
  std::int64_t total_ = 0, done_ = 0;
  Options opt_;
  double t0_ = 0.0, last_print_ = 0.0;
  bool printed_current_ = false;
  int lines_ = 0;
};

}  // namespace gluon::runtime
