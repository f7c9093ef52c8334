#include "gluon/sched/pipeline.h"

#include <string>

#include "gluon/runtime/error.h"

#if GLUON_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace gluon::sched {

std::vector<PipelineStep> plan(int ntasks, int slots) {
  if (slots < 1) throw InputError("Pipeline: slots must be at least 1, found " + std::to_string(slots));
  std::vector<PipelineStep> p;
  using S = PipelineStep::Stage;
  if (slots == 1) {  // one staging buffer: nothing can overlap
    for (int t = 0; t < ntasks; ++t) p.insert(p.end(), {{S::input, t, 0}, {S::execute, t, 0}, {S::output, t, 0}});
    return p;
  }
  for (int t = 0; t < ntasks + 2; ++t) {
    if (t >= 2 && t - 2 < ntasks) p.push_back({S::output, t - 2, (t - 2) % slots});
    if (t >= 1 && t - 1 < ntasks) p.push_back({S::execute, t - 1, (t - 1) % slots});
    if (t < ntasks) p.push_back({S::input, t, t % slots});
  }
  return p;
}

std::vector<std::pair<int, int>> bounce_order(int rows, int cols) {
  std::vector<std::pair<int, int>> o;
  o.reserve(static_cast<std::size_t>(rows > 0 && cols > 0 ? rows * cols : 0));
  for (int i = 0; i < rows; ++i)
    for (int k = 0; k < cols; ++k) o.emplace_back(i, i % 2 == 0 ? k : cols - 1 - k);
  return o;
}

OperandCache::OperandCache(int slots) : slots_(slots), key_(slots, -1), last_task_(slots, -1000000) {
  if (slots < 1) throw InputError("OperandCache: slots must be at least 1, found " + std::to_string(slots));
}

OperandCache::Use OperandCache::acquire(long key, int task) {
  for (int b = 0; b < slots_; ++b)
    if (key_[b] == key) {
      last_task_[b] = task;
      ++reuses_;
      return {b, false};
    }
  // The least recently used buffer: with `slots` buffers, the last slots-1 tasks use at most
  // slots-1 of them, so the least recently used one is free once task - slots is done.
  int best = 0;
  for (int b = 1; b < slots_; ++b)
    if (last_task_[b] < last_task_[best]) best = b;
  key_[best] = key;
  last_task_[best] = task;
  ++loads_;
  return {best, true};
}

#if GLUON_HAVE_CUDA
namespace {
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw DeviceError(std::string("Pipeline: ") + what + ": " + cudaGetErrorString(e));
}
}  // namespace
#endif

Pipeline::Pipeline(int slots, bool streams) : slots_(slots), cuda_(streams) {
  if (slots < 1) throw InputError("Pipeline: slots must be at least 1, found " + std::to_string(slots));
  if (!streams) return;
#if GLUON_HAVE_CUDA
  for (auto& s : streams_) {
    cudaStream_t st = nullptr;
    check(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking), "cudaStreamCreate");
    s = st;
  }
#else
  throw DeviceError("Pipeline: CUDA streams asked for, but this build has no CUDA (configure with the cuda preset)");
#endif
}

Pipeline::~Pipeline() {
#if GLUON_HAVE_CUDA
  for (auto s : streams_)
    if (s) cudaStreamSynchronize(static_cast<cudaStream_t>(s));
  for (auto e : events_) cudaEventDestroy(static_cast<cudaEvent_t>(e));
  for (auto s : streams_)
    if (s) cudaStreamDestroy(static_cast<cudaStream_t>(s));
#endif
}

void Pipeline::issue(const std::vector<PipelineTask>& tasks) {
  const int n = static_cast<int>(tasks.size());
  const auto steps = plan(n, slots_);
  using S = PipelineStep::Stage;
  if (!cuda_) {
    for (const auto& s : steps) {
      const auto& t = tasks[s.task];
      const auto& f = s.stage == S::input ? t.input : s.stage == S::execute ? t.execute : t.output;
      if (f) f(s.slot, nullptr);
    }
    return;
  }
#if GLUON_HAVE_CUDA
  if (!events_.empty()) wait();
  events_.assign(static_cast<std::size_t>(3 * n), nullptr);
  for (auto& e : events_) {
    cudaEvent_t ev = nullptr;
    check(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming), "cudaEventCreate");
    e = ev;
  }
  auto ev = [&](int kind, int t) { return static_cast<cudaEvent_t>(events_[3 * t + kind]); };
  auto h2d = static_cast<cudaStream_t>(streams_[0]);
  auto comp = static_cast<cudaStream_t>(streams_[1]);
  auto d2h = static_cast<cudaStream_t>(streams_[2]);
  for (const auto& s : steps) {
    const auto& t = tasks[s.task];
    switch (s.stage) {
      case S::input:
        if (s.task >= slots_) check(cudaStreamWaitEvent(h2d, ev(2, s.task - slots_), 0), "cudaStreamWaitEvent");
        if (t.input) t.input(s.slot, h2d);
        check(cudaEventRecord(ev(0, s.task), h2d), "cudaEventRecord");
        break;
      case S::execute:
        check(cudaStreamWaitEvent(comp, ev(0, s.task), 0), "cudaStreamWaitEvent");
        if (t.execute) t.execute(s.slot, comp);
        check(cudaEventRecord(ev(1, s.task), comp), "cudaEventRecord");
        break;
      case S::output:
        check(cudaStreamWaitEvent(d2h, ev(1, s.task), 0), "cudaStreamWaitEvent");
        if (t.output) t.output(s.slot, d2h);
        check(cudaEventRecord(ev(2, s.task), d2h), "cudaEventRecord");
        break;
    }
  }
#endif
}

void Pipeline::wait() {
#if GLUON_HAVE_CUDA
  if (!cuda_) return;
  cudaError_t first = cudaSuccess;
  for (auto s : streams_) {
    const cudaError_t e = cudaStreamSynchronize(static_cast<cudaStream_t>(s));
    if (first == cudaSuccess) first = e;
  }
  for (auto e : events_) cudaEventDestroy(static_cast<cudaEvent_t>(e));
  events_.clear();
  check(first, "cudaStreamSynchronize");
#endif
}

}  // namespace gluon::sched
