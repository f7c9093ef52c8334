// Streams and events (runtime/stream.h). CUDA host API only, compiled by the C++ compiler.
#include "gluon/runtime/stream.h"

#include <string>
#include <utility>

#include "gluon/runtime/error.h"

#if GLUON_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace gluon::runtime {

namespace {
#if GLUON_HAVE_CUDA
void check(cudaError_t err, const std::string& what) {
  if (err != cudaSuccess) throw DeviceError(what + ": " + cudaGetErrorString(err));
}
void use_device(int device) {
  int current = -1;
  if (cudaGetDevice(&current) != cudaSuccess || current != device)
    check(cudaSetDevice(device), "cudaSetDevice(" + std::to_string(device) + ")");
}
#else
[[noreturn]] void no_cuda(const char* what) {
  throw DeviceError(std::string(what) +
                    " on the cuda backend in a build without CUDA (configure with the 'cuda' "
                    "preset: cmake --preset cuda)");
}
#endif
}  // namespace

// ---------------------------------------------------------------- Stream

Stream::Stream(const Exec& ex, bool non_blocking, bool high_priority)
    : backend_(ex.backend), device_(ex.device) {
  if (backend_ != Backend::cuda) return;
#if GLUON_HAVE_CUDA
  use_device(device_);
  int least = 0, greatest = 0;
  check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange");
  cudaStream_t s = nullptr;
  check(cudaStreamCreateWithPriority(&s, non_blocking ? cudaStreamNonBlocking : cudaStreamDefault,
                                     high_priority ? greatest : least),
        "cudaStreamCreate on device " + std::to_string(device_));
  handle_ = s;
#else
  (void)non_blocking;
  (void)high_priority;
  no_cuda("stream creation");
#endif
}

void Stream::release() noexcept {
#if GLUON_HAVE_CUDA
  if (handle_) {
    int current = -1;
    cudaGetDevice(&current);
    if (current != device_) cudaSetDevice(device_);
    cudaStreamDestroy(static_cast<cudaStream_t>(handle_));
  }
#endif
  handle_ = nullptr;
}

Stream::~Stream() { release(); }

Stream::Stream(Stream&& o) noexcept
    : backend_(o.backend_), device_(o.device_), handle_(std::exchange(o.handle_, nullptr)) {
  o.backend_ = Backend::cpu;
}

Stream& Stream::operator=(Stream&& o) noexcept {
  if (this != &o) {
    release();
    backend_ = std::exchange(o.backend_, Backend::cpu);
    device_ = o.device_;
    handle_ = std::exchange(o.handle_, nullptr);
  }
  return *this;
}

void Stream::synchronize() const { runtime::synchronize(exec()); }

// ---------------------------------------------------------------- Event

void Event::release() noexcept {
#if GLUON_HAVE_CUDA
  if (handle_) {
    int current = -1;
    cudaGetDevice(&current);
    if (current != device_) cudaSetDevice(device_);
    cudaEventDestroy(static_cast<cudaEvent_t>(handle_));
  }
#endif
  handle_ = nullptr;
  recorded_ = false;
}

Event::~Event() { release(); }

Event::Event(Event&& o) noexcept
    : recorded_(std::exchange(o.recorded_, false)), backend_(o.backend_), device_(o.device_),
      handle_(std::exchange(o.handle_, nullptr)), time_(o.time_) {}

Event& Event::operator=(Event&& o) noexcept {
  if (this != &o) {
    release();
    recorded_ = std::exchange(o.recorded_, false);
    backend_ = o.backend_;
    device_ = o.device_;
    handle_ = std::exchange(o.handle_, nullptr);
    time_ = o.time_;
  }
  return *this;
}

void Event::record(const Exec& ex) {
  if (ex.backend != Backend::cuda) {
    if (handle_) release();  // a cuda event re-used on cpu
    backend_ = Backend::cpu;
    time_ = std::chrono::steady_clock::now();
    recorded_ = true;
    return;
  }
#if GLUON_HAVE_CUDA
  if (handle_ && device_ != ex.device) release();  // events belong to one device
  backend_ = Backend::cuda;
  device_ = ex.device;
  use_device(device_);
  if (!handle_) {
    cudaEvent_t e = nullptr;
    check(cudaEventCreate(&e), "cudaEventCreate on device " + std::to_string(device_));
    handle_ = e;
  }
  check(cudaEventRecord(static_cast<cudaEvent_t>(handle_), static_cast<cudaStream_t>(ex.stream)),
        "cudaEventRecord");
  recorded_ = true;
#else
  no_cuda("event record");
#endif
}

void Event::synchronize() const {
  if (!recorded_) throw InputError("Event::synchronize: the event was never recorded");
#if GLUON_HAVE_CUDA
  if (backend_ == Backend::cuda)
    check(cudaEventSynchronize(static_cast<cudaEvent_t>(handle_)), "cudaEventSynchronize");
#endif
}

void Event::make_wait(const Exec& ex) const {
  if (!recorded_) throw InputError("Event::make_wait: the event was never recorded");
#if GLUON_HAVE_CUDA
  if (backend_ == Backend::cuda && ex.backend == Backend::cuda) {
    use_device(ex.device);
    check(cudaStreamWaitEvent(static_cast<cudaStream_t>(ex.stream), static_cast<cudaEvent_t>(handle_), 0),
          "cudaStreamWaitEvent");
  }
#else
  (void)ex;
#endif
}

bool Event::ready() const {
  if (!recorded_) return false;
#if GLUON_HAVE_CUDA
  if (backend_ == Backend::cuda) {
    const cudaError_t err = cudaEventQuery(static_cast<cudaEvent_t>(handle_));
    if (err == cudaErrorNotReady) return false;
    check(err, "cudaEventQuery");
  }
#endif
  return true;
}

double elapsed_ms(const Event& start, const Event& stop) {
  if (!start.recorded_ || !stop.recorded_)
    throw InputError(std::string("elapsed_ms: the ") + (start.recorded_ ? "stop" : "start") +
                     " event was never recorded");
  if (start.backend_ != stop.backend_ ||
      (start.backend_ == Backend::cuda && start.device_ != stop.device_))
    throw InputError("elapsed_ms: events recorded on different backends or devices (" +
                     to_string(start.backend_) + " " + std::to_string(start.device_) + " vs " +
                     to_string(stop.backend_) + " " + std::to_string(stop.device_) + ")");
  if (start.backend_ == Backend::cpu)
    return std::chrono::duration<double, std::milli>(stop.time_ - start.time_).count();
#if GLUON_HAVE_CUDA
  stop.synchronize();
  float ms = 0.0f;
  check(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(start.handle_),
                             static_cast<cudaEvent_t>(stop.handle_)),
        "cudaEventElapsedTime");
  return static_cast<double>(ms);
#else
  no_cuda("elapsed_ms");
#endif
}

}  // namespace gluon::runtime
