#pragma once
// sched::Pipeline: software pipelining of a queue of tasks, each input -> execute -> output
// (TianHe-1 Linpack paper, "software pipelining"), for work whose operands do not fit in device
// memory. Task t uses staging slot t % slots; its input may start once the output of task
// t - slots is done, so with 2 slots the transfers of task t+1 (in) and t-1 (out) overlap the
// execution of task t, and with 3 slots all three overlap.
//
//   plan(n, slots)        the order in which the host issues the stages (a valid sequential
//                         order too: output(t-2), execute(t-1), input(t) at step t). A CPU build
//                         runs the tasks in exactly this order.
//   Pipeline::run(tasks)  CPU: the plan in order. CUDA (streams = true): three streams
//                         (host->device, compute, device->host) ordered by events: input(t)
//                         waits output(t - slots), execute(t) waits input(t), output(t) waits
//                         execute(t). The callbacks get the slot and the stream (cudaStream_t as
//                         void*, nullptr on the CPU) and must only enqueue asynchronous work.
//   bounce_order(r, c)    the "bounce corner turn": tiles (i, j) of an r x c grid in serpentine
//                         order (row 0 left to right, row 1 right to left, ...), so consecutive
//                         tasks share the A row block or the B column block.
//   OperandCache          which of `slots` device buffers holds operand `key`; acquire() reuses a
//                         resident copy or names a buffer no task in flight uses (none of the
//                         last slots - 1 tasks) and says it must be loaded.
#include <functional>
#include <utility>
#include <vector>

namespace gluon::sched {

struct PipelineTask {
  std::function<void(int slot, void* stream)> input, execute, output;
};

struct PipelineStep {
  enum class Stage { input, execute, output };
  Stage stage;
  int task;
  int slot;
};

std::vector<PipelineStep> plan(int ntasks, int slots);
std::vector<std::pair<int, int>> bounce_order(int rows, int cols);

class OperandCache {
 public:
  explicit OperandCache(int slots);
  struct Use {
    int buffer;
    bool load;  // true: the caller must copy the operand into `buffer`
  };
  // Operand `key` for task `task` (tasks are numbered in issue order).
  Use acquire(long key, int task);
  int loads() const { return loads_; }
  int reuses() const { return reuses_; }

 private:
  int slots_;
  std::vector<long> key_;
  std::vector<int> last_task_;
  int loads_ = 0, reuses_ = 0;
};

class Pipeline {
 public:
  // streams: run on CUDA streams (DeviceError when the build has no CUDA).
  explicit Pipeline(int slots = 2, bool streams = false);
  ~Pipeline();
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  int slots() const { return slots_; }
  // Issues every task; returns when all are complete (synchronises the streams).
  void run(const std::vector<PipelineTask>& tasks) {
    issue(tasks);
    wait();
  }
  // issue() only enqueues (CPU: runs the tasks); wait() completes them. Between the two the host
  // is free (the hybrid update computes the CPU share there). The tasks must outlive wait().
  void issue(const std::vector<PipelineTask>& tasks);
  void wait();
  // The compute stream (cudaStream_t as void*; nullptr on the CPU), for work ordered after run().
  void* compute_stream() const { return streams_[1]; }
  // 0: host->device, 1: compute, 2: device->host (cudaStream_t as void*; nullptr on the CPU).
  void* stream(int i) const { return streams_[i]; }

 private:
  int slots_;
  bool cuda_;
  void* streams_[3] = {nullptr, nullptr, nullptr};
  std::vector<void*> events_;  // cudaEvent_t of the tasks in flight
};

}  // namespace gluon::sched
