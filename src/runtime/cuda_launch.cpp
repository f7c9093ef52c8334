// Host helpers behind runtime/cuda/launch.cuh (compiled only in CUDA builds).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <utility>
#include <string>
#include <vector>

#include "gluon/runtime/cuda/launch.cuh"
#include "gluon/runtime/env.h"
#include "gluon/runtime/error.h"

namespace gluon::runtime::cuda {

void check(cudaError_t err, const char* what, const char* label) {
  if (err == cudaSuccess) return;
  throw DeviceError(std::string(what) + " (" + (label ? label : "?") + "): " + cudaGetErrorString(err));
}

int multiprocessor_count(int device) {
  static std::mutex m;
  static std::vector<int> cache;
  std::lock_guard<std::mutex> lock(m);
  if (device >= static_cast<int>(cache.size())) cache.resize(device + 1, 0);
  if (cache[device] == 0) {
    int n = 0;
    check(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device),
          "cudaDeviceGetAttribute", "multiprocessor count");
    cache[device] = n;
  }
  return cache[device];
}

bool pdl_enabled() {
  static const bool on = !env_switched_off("GLUON_PDL");
  return on;
}

void set_device(const Exec& ex) {
  int current = -1;
  cudaGetDevice(&current);
  if (current != ex.device) check(cudaSetDevice(ex.device), "cudaSetDevice", "set_device");
}

ReduceScratch reduce_scratch(const Exec& ex, std::size_t bytes) {
  struct Entry {
    ReduceScratch s;
    std::size_t bytes = 0;
  };
  // Keyed by (device, stream); never freed (the driver reclaims it at exit, and a static
  // destructor would run after the CUDA runtime has shut down).
  static std::mutex m;
  static auto* entries = new std::map<std::pair<int, void*>, Entry>();
  constexpr std::size_t kResultBytes = 256;  // the largest reduced type is far smaller
  std::lock_guard<std::mutex> lock(m);
  Entry& e = (*entries)[{ex.device, ex.stream}];
  if (e.bytes < bytes) {
    const std::size_t want = std::max<std::size_t>(bytes, 64 * 1024);
    auto stream = static_cast<cudaStream_t>(ex.stream);
    // Nothing queued can still use the old buffers: every reduction waits for its result.
    check(cudaStreamSynchronize(stream), "reduction scratch", "synchronise before growing");
    if (e.s.device) cudaFree(e.s.device);
    if (e.s.result) cudaFreeHost(e.s.result);
    e = Entry{};
    // One allocation: the partials, then the ticket (zeroed once; each launch re-arms it).
    check(cudaMalloc(&e.s.device, want + 256), "cudaMalloc of reduction partials", "reduce");
    e.s.ticket = reinterpret_cast<unsigned int*>(static_cast<char*>(e.s.device) + want);
    check(cudaMemset(e.s.ticket, 0, sizeof(unsigned int)), "cudaMemset of the reduction ticket", "reduce");
    check(cudaHostAlloc(&e.s.result, kResultBytes, cudaHostAllocMapped | cudaHostAllocPortable), "cudaHostAlloc of the reduction result",
          "reduce");
    check(cudaHostGetDevicePointer(&e.s.result_device, e.s.result, 0), "cudaHostGetDevicePointer", "reduce");
    e.bytes = want;
  }
  return e.s;
}

}  // namespace gluon::runtime::cuda
