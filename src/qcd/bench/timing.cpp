// Per-call timing on an Exec's stream (qcd/bench/timing.h).
#include "gluon/qcd/bench/timing.h"

#include "gluon/runtime/error.h"
#include "gluon/runtime/stream.h"

namespace gluon::qcd::bench {

std::vector<double> time_calls(const runtime::Exec& ex, int calls, const std::function<void()>& f) {
  if (calls < 1) throw InputError("benchmark: at least 1 timed call, found " + std::to_string(calls));
  std::vector<runtime::Event> marks(static_cast<std::size_t>(calls) + 1);
  marks[0].record(ex);
  for (int c = 0; c < calls; ++c) {
    f();
    marks[static_cast<std::size_t>(c) + 1].record(ex);
  }
  marks.back().synchronize();
  std::vector<double> ms(static_cast<std::size_t>(calls));
  for (int c = 0; c < calls; ++c)
    ms[static_cast<std::size_t>(c)] = runtime::elapsed_ms(marks[static_cast<std::size_t>(c)],
                                                          marks[static_cast<std::size_t>(c) + 1]);
  return ms;
}

double time_back_to_back(const runtime::Exec& ex, int calls, const std::function<void()>& f) {
  if (calls < 1) throw InputError("benchmark: at least 1 timed call, found " + std::to_string(calls));
  runtime::Event start, end;
  start.record(ex);
  for (int c = 0; c < calls; ++c) f();
  end.record(ex);
  end.synchronize();
  return runtime::elapsed_ms(start, end) / calls;
}

}  // namespace gluon::qcd::bench
