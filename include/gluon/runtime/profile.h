#pragma once
// Kernel profile: with GLUON_PROFILE=1 in the environment, every GPU kernel launched through
// parallel_for / parallel_reduce (not the tuner's trial launches) is bracketed by two CUDA events
// on its stream. profile_report() sums the times per kernel label, with the idle time before each
// launch (from the end of the previous bracketed kernel on the same stream to its start: host
// latency, synchronisation, launch gaps; its mean, median and largest per label), and the span
// from the first event to the last.
//
// It answers "where does a solve's time go" on a machine without Nsight Systems. The events cost
// about a microsecond each on the host; the brackets are flushed (one synchronisation) every
// 4096 launches. Off, profile_begin/profile_end return at once.
#include <string>

#include "gluon/runtime/exec.h"

namespace gluon::runtime {

bool profiling();  // GLUON_PROFILE=1 (read once)
// Marks the start / end of one kernel launch on ex's stream (cuda only; no-op elsewhere or off).
void profile_begin(const Exec& ex, const char* label);
void profile_end(const Exec& ex);
// The table (empty when off or nothing was launched); waits for the outstanding events.
std::string profile_report();
// Forgets what was recorded so far (waits for it first): a benchmark calls it after its warm-up
// so that the table covers the measured part alone (tuning runs count as idle gaps otherwise).
void profile_reset();

}  // namespace gluon::runtime
