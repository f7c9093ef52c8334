// Timers, streams and events on the CPU backend.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "gluon/runtime/error.h"
#include "gluon/runtime/stream.h"
#include "gluon/runtime/timer.h"

using namespace gluon;
using namespace gluon::runtime;
using namespace std::chrono_literals;

TEST(RuntimeTimer, MeasuresAndAccumulatesLaps) {
  Timer t;
  EXPECT_EQ(t.elapsed_s(), 0.0);
  EXPECT_FALSE(t.running());
  t.start();
  std::this_thread::sleep_for(20ms);
  t.stop();
  const double one = t.elapsed_s();
  EXPECT_GE(one, 0.020);
  EXPECT_LT(one, 2.0);
  EXPECT_EQ(t.laps(), 1);
  EXPECT_DOUBLE_EQ(t.last_lap_s(), one);
  std::this_thread::sleep_for(10ms);  // stopped: not counted
  EXPECT_EQ(t.elapsed_s(), one);
  t.stop();  // ignored
  {
    ScopedLap lap(t);
    std::this_thread::sleep_for(15ms);
    EXPECT_TRUE(t.running());
    EXPECT_GT(t.elapsed_s(), one);  // running lap included
  }
  EXPECT_EQ(t.laps(), 2);
  EXPECT_GE(t.elapsed_s(), one + 0.015);
  EXPECT_NEAR(t.elapsed_ms(), 1e3 * t.elapsed_s(), 1e-9);
  t.reset();
  EXPECT_EQ(t.laps(), 0);
  EXPECT_EQ(t.elapsed_s(), 0.0);
}

TEST(RuntimeTimer, DeviceTimerOnCpuFollowsTheWallClock) {
  DeviceTimer d(cpu_exec());
  for (int i = 0; i < 3; ++i) {
    d.start();
    std::this_thread::sleep_for(5ms);
    d.stop();
  }
  EXPECT_EQ(d.laps(), 3);
  const double ms = d.elapsed_ms();
  EXPECT_GE(ms, 15.0);
  EXPECT_LT(ms, 2000.0);
  EXPECT_EQ(d.elapsed_ms(), ms);  // summing twice does not double count
  d.start();                      // a running lap is not included
  std::this_thread::sleep_for(5ms);
  EXPECT_EQ(d.elapsed_ms(), ms);
  d.stop();
  EXPECT_GE(d.elapsed_ms(), ms + 5.0);
  d.reset();
  EXPECT_EQ(d.elapsed_ms(), 0.0);
}

TEST(RuntimeStream, CpuStreamIsInertAndEventsTime) {
  Stream s(cpu_exec());
  EXPECT_EQ(s.backend(), Backend::cpu);
  EXPECT_EQ(s.native(), nullptr);
  EXPECT_EQ(s.exec().backend, Backend::cpu);
  EXPECT_NO_THROW(s.synchronize());
  Stream moved(std::move(s));
  EXPECT_EQ(moved.exec().backend, Backend::cpu);

  Event a, b;
  EXPECT_FALSE(a.recorded());
  EXPECT_FALSE(a.ready());
  EXPECT_THROW(a.synchronize(), InputError);
  EXPECT_THROW(elapsed_ms(a, b), InputError);
  a.record(moved);
  std::this_thread::sleep_for(10ms);
  b.record(cpu_exec());
  EXPECT_TRUE(b.recorded());
  EXPECT_TRUE(b.ready());
  EXPECT_NO_THROW(b.synchronize());
  const double ms = elapsed_ms(a, b);
  EXPECT_GE(ms, 10.0);
  EXPECT_LT(ms, 2000.0);
  EXPECT_LT(elapsed_ms(b, a), 0.0);
  Event c(std::move(b));
  EXPECT_TRUE(c.recorded());
  EXPECT_FALSE(b.recorded());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(elapsed_ms(a, c), ms);
}

TEST(RuntimeStream, CudaStreamWithoutCuda) {
#if GLUON_HAVE_CUDA
  GTEST_SKIP() << "CUDA build: streams are tested in tests/gpu/runtime_test.cpp";
#else
  const Exec gpu{Backend::cuda, 0, nullptr};
  EXPECT_THROW(Stream{gpu}, DeviceError);
  Event e;
  EXPECT_THROW(e.record(gpu), DeviceError);
#endif
}
