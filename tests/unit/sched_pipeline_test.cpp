// sched::Pipeline on the CPU: the issue order is a valid schedule for every slot count (checked by
// running tasks that really share staging slots), the bounce corner turn and the operand cache.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <vector>

#include "gluon/runtime/error.h"
#include "gluon/sched/pipeline.h"

using namespace gluon::sched;

TEST(SchedPipeline, PlanOrdersStagesAndSlots) {
  for (int slots = 1; slots <= 3; ++slots)
    for (int n = 0; n <= 9; ++n) {
      const auto p = plan(n, slots);
      ASSERT_EQ(static_cast<int>(p.size()), 3 * n);
      std::map<std::pair<int, int>, int> pos;  // (task, stage) -> position
      for (int i = 0; i < static_cast<int>(p.size()); ++i) {
        EXPECT_EQ(p[i].slot, p[i].task % slots);
        pos[std::make_pair(p[i].task, static_cast<int>(p[i].stage))] = i;
      }
      auto at = [&](int t, int stage) { return pos.at(std::make_pair(t, stage)); };
      for (int t = 0; t < n; ++t) {
        EXPECT_LT(at(t, 0), at(t, 1));
        EXPECT_LT(at(t, 1), at(t, 2));
        if (t >= slots) EXPECT_GT(at(t, 0), at(t - slots, 2)) << "slot reused before its output";
        if (slots > 1 && t + 1 < n)  // overlap: task t+1's input is issued before task t's output
          EXPECT_LT(at(t + 1, 0), at(t, 2));
      }
    }
  EXPECT_THROW(plan(3, 0), gluon::InputError);
}

TEST(SchedPipeline, CpuRunComputesEveryTaskThroughSharedSlots) {
  for (int slots = 1; slots <= 3; ++slots) {
    const int n = 11;
    std::vector<double> in(n), out(n, 0.0), stage_in(slots), stage_out(slots);
    for (int t = 0; t < n; ++t) in[t] = 1.5 * t + 1;
    std::vector<PipelineTask> tasks(n);
    for (int t = 0; t < n; ++t) {
      tasks[t].input = [&, t](int s, void* stream) {
        EXPECT_EQ(stream, nullptr);
        stage_in[s] = in[t];
      };
      tasks[t].execute = [&](int s, void*) { stage_out[s] = stage_in[s] * stage_in[s]; };
      tasks[t].output = [&, t](int s, void*) { out[t] = stage_out[s]; };
    }
    Pipeline p(slots);
    p.run(tasks);
    for (int t = 0; t < n; ++t) EXPECT_DOUBLE_EQ(out[t], in[t] * in[t]) << "slots " << slots << " task " << t;
  }
#if !GLUON_HAVE_CUDA
  EXPECT_THROW(Pipeline(2, true), gluon::DeviceError);
#endif
}

TEST(SchedPipeline, BounceCornerTurn) {
  // The paper's example: 2 x 2 tiles run T0 T1 T3 T2, i.e. (0,0) (0,1) (1,1) (1,0).
  const auto o = bounce_order(2, 2);
  ASSERT_EQ(o.size(), 4u);
  EXPECT_EQ(o[0], std::make_pair(0, 0));
  EXPECT_EQ(o[1], std::make_pair(0, 1));
  EXPECT_EQ(o[2], std::make_pair(1, 1));
  EXPECT_EQ(o[3], std::make_pair(1, 0));
  for (int r = 1; r <= 4; ++r)
    for (int c = 1; c <= 5; ++c) {
      const auto v = bounce_order(r, c);
      std::set<std::pair<int, int>> seen(v.begin(), v.end());
      EXPECT_EQ(seen.size(), static_cast<std::size_t>(r * c));
      for (std::size_t i = 1; i < v.size(); ++i)
        EXPECT_TRUE(v[i].first == v[i - 1].first || v[i].second == v[i - 1].second)
            << "consecutive tiles share no operand";
    }
}

TEST(SchedPipeline, OperandCacheReusesAndNeverEvictsInFlight) {
  const int slots = 2, rows = 3, cols = 4;
  OperandCache a(slots), b(slots);
  const auto order = bounce_order(rows, cols);
  std::vector<int> abuf(order.size()), bbuf(order.size());
  for (int t = 0; t < static_cast<int>(order.size()); ++t) {
    abuf[t] = a.acquire(order[t].first, t).buffer;
    bbuf[t] = b.acquire(order[t].second, t).buffer;
    // The buffer of task t is not the one of tasks t-1 .. t-slots+1 unless it holds the same operand.
    for (int u = std::max(0, t - slots + 1); u < t; ++u) {
      if (order[u].first != order[t].first) EXPECT_NE(abuf[u], abuf[t]);
      if (order[u].second != order[t].second) EXPECT_NE(bbuf[u], bbuf[t]);
    }
  }
  // A row blocks load once per row; at each turn the last `slots` B column blocks are still
  // resident, so only the others load again.
  EXPECT_EQ(a.loads(), rows);
  EXPECT_EQ(a.reuses(), rows * cols - rows);
  EXPECT_EQ(b.loads(), cols + (rows - 1) * (cols - slots));
  EXPECT_EQ(b.reuses(), (rows - 1) * slots);
}

#if GLUON_HAVE_CUDA
#include <cuda_runtime.h>

#include "gluon/runtime/exec.h"

// On a GPU: the three streams and their events keep every task's data apart through the shared
// device slots (copies only: in -> slot, slot -> result slot on the compute stream, -> out).
TEST(SchedPipeline, CudaStreamsKeepTasksApart) {
  if (!gluon::runtime::cuda_available()) GTEST_SKIP() << "no CUDA device: gpu part not run";
  const int n = 16, len = 1 << 16, slots = 2;
  double *host = nullptr, *dev_in = nullptr, *dev_out = nullptr;
  ASSERT_EQ(cudaMallocHost(reinterpret_cast<void**>(&host), sizeof(double) * 2 * n * len), cudaSuccess);
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&dev_in), sizeof(double) * slots * len), cudaSuccess);
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&dev_out), sizeof(double) * slots * len), cudaSuccess);
  for (int t = 0; t < n; ++t)
    for (int i = 0; i < len; ++i) host[t * len + i] = t * 1000.0 + i, host[(n + t) * len + i] = -1.0;
  std::vector<PipelineTask> tasks(n);
  const std::size_t bytes = sizeof(double) * len;
  for (int t = 0; t < n; ++t) {
    tasks[t].input = [=](int s, void* st) {
      cudaMemcpyAsync(dev_in + s * len, host + t * len, bytes, cudaMemcpyHostToDevice, static_cast<cudaStream_t>(st));
    };
    tasks[t].execute = [=](int s, void* st) {
      cudaMemcpyAsync(dev_out + s * len, dev_in + s * len, bytes, cudaMemcpyDeviceToDevice, static_cast<cudaStream_t>(st));
    };
    tasks[t].output = [=](int s, void* st) {
      cudaMemcpyAsync(host + (n + t) * len, dev_out + s * len, bytes, cudaMemcpyDeviceToHost, static_cast<cudaStream_t>(st));
    };
  }
  Pipeline p(slots, true);
  p.run(tasks);
  for (int t = 0; t < n; ++t)
    for (int i = 0; i < len; i += 997) ASSERT_EQ(host[(n + t) * len + i], t * 1000.0 + i) << "task " << t;
  cudaFreeHost(host);
  cudaFree(dev_in);
  cudaFree(dev_out);
}
#endif
