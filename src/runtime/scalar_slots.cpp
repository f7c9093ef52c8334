// Device-resident scalars with a host mirror (runtime/scalar_slots.h). CUDA host API only.
#include "gluon/runtime/scalar_slots.h"

#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "gluon/runtime/error.h"
#include "gluon/runtime/memory.h"

#if GLUON_HAVE_CUDA
#include <cuda_runtime.h>

#include "gluon/runtime/cuda/launch.cuh"
#endif

namespace gluon::runtime {

#if GLUON_HAVE_CUDA
// The runtime's CUDA host helpers: cuda::check (DeviceError "<what> (<label>): <cuda error>") and
// cuda::set_device.
using cuda::check;
constexpr const char* kLabel = "ScalarSlots";

namespace {
// The allocations of released slots, kept for the next ScalarSlots of the same size on the same
// device: every solve makes one, and cudaMalloc, cudaHostAlloc (page-locking) and their frees
// were host time at its start and end that the GPU waited through (as the device blocks of
// runtime::Buffer, memory.cpp). A release has synchronised its stream first.
struct SlotBlock {
  double *device = nullptr, *mirror = nullptr, *mirror_device = nullptr;
  void* event = nullptr;
};
class SlotPool {
 public:
  bool take(int device, int n, SlotBlock& b) {
    std::lock_guard<std::mutex> lock(m_);
    auto it = free_.find({device, n});
    if (it == free_.end()) return false;
    b = it->second;
    free_.erase(it);
    return true;
  }
  void give(int device, int n, const SlotBlock& b) {
    std::lock_guard<std::mutex> lock(m_);
    free_.emplace(std::make_pair(device, n), b);
  }

 private:
  std::mutex m_;
  std::multimap<std::pair<int, int>, SlotBlock> free_;
};
SlotPool& slot_pool() {
  static SlotPool* p = new SlotPool;  // never destroyed: slots may be released at exit
  return *p;
}
}  // namespace
#endif

ScalarSlots::ScalarSlots(const Exec& ex, int n) : ex_(ex), n_(n) {
  if (n <= 0) throw InputError("ScalarSlots: n: expected > 0, found " + std::to_string(n));
  const std::size_t bytes = sizeof(double) * static_cast<std::size_t>(n);
  if (ex.backend != Backend::cuda) {
    device_ = new double[static_cast<std::size_t>(n)]();
    mirror_ = mirror_device_ = device_;
    return;
  }
#if GLUON_HAVE_CUDA
  cuda::set_device(ex);
  if (SlotBlock b; device_cache_enabled() && slot_pool().take(ex.device, n, b)) {
    device_ = b.device, mirror_ = b.mirror, mirror_device_ = b.mirror_device, event_ = b.event;
    check(cudaMemsetAsync(device_, 0, bytes, static_cast<cudaStream_t>(ex.stream)), "cudaMemsetAsync", kLabel);
    for (int i = 0; i < n; ++i) mirror_[i] = 0.0;
    return;
  }
  try {
    check(cudaMalloc(reinterpret_cast<void**>(&device_), bytes), "cudaMalloc of the slots", kLabel);
    check(cudaMemset(device_, 0, bytes), "cudaMemset", kLabel);
    check(cudaHostAlloc(reinterpret_cast<void**>(&mirror_), bytes, cudaHostAllocMapped | cudaHostAllocPortable),
          "cudaHostAlloc of the host mirror", kLabel);
    for (int i = 0; i < n; ++i) mirror_[i] = 0.0;
    check(cudaHostGetDevicePointer(reinterpret_cast<void**>(&mirror_device_), mirror_, 0), "cudaHostGetDevicePointer", kLabel);
    cudaEvent_t e = nullptr;
    check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate", kLabel);
    event_ = e;
  } catch (...) {
    release();
    throw;
  }
#else
  (void)bytes;
  throw DeviceError("ScalarSlots on the cuda backend in a build without CUDA (configure with the 'cuda' preset)");
#endif
}

void ScalarSlots::release() noexcept {
  if (ex_.backend != Backend::cuda) {
    delete[] device_;
  } else {
#if GLUON_HAVE_CUDA
    int current = -1;
    cudaGetDevice(&current);
    if (current != ex_.device) cudaSetDevice(ex_.device);
    // Kernels queued on the stream may still write the slots.
    if (device_ || mirror_) cudaStreamSynchronize(static_cast<cudaStream_t>(ex_.stream));
    if (device_ && mirror_ && event_ && device_cache_enabled()) {
      cudaGetLastError();
      slot_pool().give(ex_.device, n_, SlotBlock{device_, mirror_, mirror_device_, event_});
      device_ = mirror_ = mirror_device_ = nullptr;
      event_ = nullptr;
      return;
    }
    if (device_) cudaFree(device_);
    if (mirror_) cudaFreeHost(mirror_);
    if (event_) cudaEventDestroy(static_cast<cudaEvent_t>(event_));
#endif
  }
  device_ = mirror_ = mirror_device_ = nullptr;
  event_ = nullptr;
}

ScalarSlots::~ScalarSlots() { release(); }

ScalarSlots::ScalarSlots(ScalarSlots&& o) noexcept
    : ex_(o.ex_), n_(std::exchange(o.n_, 0)), device_(std::exchange(o.device_, nullptr)),
      mirror_(std::exchange(o.mirror_, nullptr)), mirror_device_(std::exchange(o.mirror_device_, nullptr)),
      event_(std::exchange(o.event_, nullptr)) {}

ScalarSlots& ScalarSlots::operator=(ScalarSlots&& o) noexcept {
  if (this != &o) {
    release();
    ex_ = o.ex_;
    n_ = std::exchange(o.n_, 0);
    device_ = std::exchange(o.device_, nullptr);
    mirror_ = std::exchange(o.mirror_, nullptr);
    mirror_device_ = std::exchange(o.mirror_device_, nullptr);
    event_ = std::exchange(o.event_, nullptr);
  }
  return *this;
}

void ScalarSlots::check_index(int i, const char* what) const {
  if (i < 0 || i >= n_)
    throw InputError(std::string("ScalarSlots::") + what + ": slot " + std::to_string(i) + " out of range [0, " +
                     std::to_string(n_) + ")");
}

double* ScalarSlots::device(int i) const {
  check_index(i, "device");
  return device_ + i;
}

double* ScalarSlots::mirror(int i) const {
  check_index(i, "mirror");
  return mirror_device_ + i;
}

double ScalarSlots::host(int i) const {
  check_index(i, "host");
  return static_cast<volatile const double*>(mirror_)[i];
}

void ScalarSlots::set(int i, double v) {
  check_index(i, "set");
  if (ex_.backend != Backend::cuda) {
    device_[i] = v;
    return;
  }
#if GLUON_HAVE_CUDA
  cuda::set_device(ex_);
  auto stream = static_cast<cudaStream_t>(ex_.stream);
  // Earlier kernels may still read the slot: write it in stream order, from a value that outlives
  // the copy (the stream is synchronised before returning).
  check(cudaMemcpyAsync(device_ + i, &v, sizeof v, cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync", kLabel);
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize after set", kLabel);
  mirror_[i] = v;
#endif
}

void ScalarSlots::record() {
  if (ex_.backend != Backend::cuda) return;
#if GLUON_HAVE_CUDA
  cuda::set_device(ex_);
  check(cudaEventRecord(static_cast<cudaEvent_t>(event_), static_cast<cudaStream_t>(ex_.stream)), "cudaEventRecord", kLabel);
#endif
}

void ScalarSlots::wait() const {
  if (ex_.backend != Backend::cuda) return;
#if GLUON_HAVE_CUDA
  check(cudaEventSynchronize(static_cast<cudaEvent_t>(event_)), "waiting for the slots' reductions", kLabel);
#endif
}

}  // namespace gluon::runtime
