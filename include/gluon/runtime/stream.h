#pragma once
// Streams and events: the ordering and timing primitives of a backend. Host API only (no CUDA
// headers here); the CUDA calls live in src/runtime/stream.cpp under GLUON_HAVE_CUDA.
//
//   Stream   an owned queue of work. Stream(ex) on a cuda Exec creates a cudaStream_t on
//            ex.device (non-blocking with respect to the legacy default stream unless asked
//            otherwise); on cpu it is inert (work runs synchronously). exec() returns an Exec bound
//            to it, to pass to parallel_for, copy_bytes_async, ...; synchronize() waits for it.
//            Move-only; destroying it waits for nothing (queued work still completes).
//   Event    a point in a stream. record(ex) marks the current end of ex's stream (cuda: a
//            cudaEvent_t created on first record, timing enabled; cpu: the steady_clock time now,
//            which is exact because cpu work is synchronous). synchronize() waits until it is
//            reached, ready() asks without blocking. Move-only.
//   elapsed_ms(a, b)  milliseconds from a to b; waits for b. Both must be recorded, on the same
//            backend (and device): InputError otherwise.
#include "gluon/runtime/exec.h"

#include <chrono>

namespace gluon::runtime {

class Stream {
 public:
  // An inert cpu stream.
  Stream() = default;
  // cpu: inert. cuda: a new stream on ex.device (DeviceError when creation fails). A
  // high-priority stream's blocks are scheduled before those of normal streams as SMs free up
  // (halo transfers use one, so that they are not queued behind a kernel filling the GPU).
  explicit Stream(const Exec& ex, bool non_blocking = true, bool high_priority = false);
  ~Stream();
  Stream(Stream&& other) noexcept;
  Stream& operator=(Stream&& other) noexcept;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  // An Exec of this stream's backend and device whose work goes to this stream.
  Exec exec() const { return Exec{backend_, device_, handle_}; }
  void synchronize() const;
  Backend backend() const { return backend_; }
  int device() const { return device_; }
  void* native() const { return handle_; }  // cudaStream_t (nullptr on cpu)

 private:
  void release() noexcept;
  Backend backend_ = Backend::cpu;
  int device_ = 0;
  void* handle_ = nullptr;
};

class Event {
 public:
  Event() = default;
  ~Event();
  Event(Event&& other) noexcept;
  Event& operator=(Event&& other) noexcept;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  // Marks the current end of ex's stream.
  void record(const Exec& ex);
  void record(const Stream& s) { record(s.exec()); }
  // Waits until the recorded point is reached (no-op on cpu). InputError when never recorded.
  void synchronize() const;
  // True when the recorded point has been reached (never blocks; always true on cpu once recorded).
  bool ready() const;
  // Makes later work on ex's stream wait (on the device, not the host) until this event is
  // reached. No-op on cpu. InputError when never recorded.
  void make_wait(const Exec& ex) const;
  bool recorded() const { return recorded_; }
  Backend backend() const { return backend_; }

  friend double elapsed_ms(const Event& start, const Event& stop);

 private:
  void release() noexcept;
  bool recorded_ = false;
  Backend backend_ = Backend::cpu;
  int device_ = 0;
  void* handle_ = nullptr;  // cudaEvent_t
  std::chrono::steady_clock::time_point time_{};
};

double elapsed_ms(const Event& start, const Event& stop);

}  // namespace gluon::runtime
