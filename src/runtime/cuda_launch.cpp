// Host helpers behind runtime/cuda/launch.cuh (compiled only in CUDA builds).
#include <cuda_runtime.h>

#include <mutex>
#include <string>
#include <vector>

#include "gluon/runtime/cuda/launch.cuh"
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

void set_device(const Exec& ex) {
  int current = -1;
  cudaGetDevice(&current);
  if (current != ex.device) check(cudaSetDevice(ex.device), "cudaSetDevice", "set_device");
}

}  // namespace gluon::runtime::cuda
