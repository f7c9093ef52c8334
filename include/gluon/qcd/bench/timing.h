#pragma once
// Timing helpers shared by the benchmarks (`gluon bench`): per-call times on an Exec's stream and
// their median. Benchmarks are programs, never timed tests (DESIGN.md).
//
//   time_calls(ex, calls, f)  runs f() `calls` times, each bracketed by runtime::Events on ex
//                             (cuda: the GPU's execution time of the queued work; cpu: wall
//                             clock, the work being synchronous); returns the milliseconds of
//                             each call
//   time_back_to_back(ex, calls, f)  runs f() `calls` times between one pair of Events and
//                             returns the mean milliseconds a call: consecutive launches overlap
//                             as in a solver (and as QUDA's dslash test times them), which events
//                             between the calls prevent
//   median(v)                 the median of v (mean of the middle two for even sizes); 0 for an
//                             empty vector
#include <algorithm>
#include <functional>
#include <vector>

#include "gluon/runtime/exec.h"

namespace gluon::qcd::bench {

std::vector<double> time_calls(const runtime::Exec& ex, int calls, const std::function<void()>& f);
double time_back_to_back(const runtime::Exec& ex, int calls, const std::function<void()>& f);

inline double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

}  // namespace gluon::qcd::bench
