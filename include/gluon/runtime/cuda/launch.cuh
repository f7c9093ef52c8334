#pragma once
// CUDA side of parallel.h. Included only by nvcc. Generic grid-stride kernels; block size fixed
// at 256 until the autotuner (Dirac-solver issue) chooses per kernel.
#include <cuda_runtime.h>

#include <cstdint>
#include <new>
#include <vector>

#include "gluon/runtime/exec.h"

namespace gluon::runtime::cuda {

// Throws DeviceError "<what> (<label>): <cuda error string>" when err != cudaSuccess.
void check(cudaError_t err, const char* what, const char* label);
// Number of multiprocessors of the current device (cached).
int multiprocessor_count(int device);
// Makes ex.device current for the calling thread.
void set_device(const Exec& ex);

inline constexpr int kBlock = 256;

// The kernels and launchers below need nvcc; the host helpers above are also declared for the
// C++ compiler, which builds src/runtime/cuda_launch.cpp.
#if defined(__CUDACC__)

template <class F>
__global__ void for_kernel(std::int64_t n, F f) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    f(i);
}

template <class T, class F>
__global__ void reduce_kernel(std::int64_t n, F f, T* block_partials) {
  // Raw storage: a __shared__ array of T may not have a constructor, and T{} with default member
  // initialisers (e.g. a min/max identity) has one. T must be trivially copyable.
  __shared__ alignas(T) unsigned char storage[kBlock * sizeof(T)];
  T* shared = reinterpret_cast<T*>(storage);
  T acc{};
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    acc += f(i);
  new (&shared[threadIdx.x]) T(acc);
  __syncthreads();
  for (int s = kBlock / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) shared[threadIdx.x] += shared[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) block_partials[blockIdx.x] = shared[0];
}

inline int grid_for(const Exec& ex, std::int64_t n) {
  const std::int64_t want = (n + kBlock - 1) / kBlock;
  const std::int64_t cap = static_cast<std::int64_t>(multiprocessor_count(ex.device)) * 32;
  return static_cast<int>(want < cap ? want : cap);
}

template <class F>
void launch_for(const Exec& ex, const char* label, std::int64_t n, const F& f) {
  set_device(ex);
  auto stream = static_cast<cudaStream_t>(ex.stream);
  for_kernel<<<grid_for(ex, n), kBlock, 0, stream>>>(n, f);
  check(cudaGetLastError(), "kernel launch", label);
}

template <class T, class F>
T launch_reduce(const Exec& ex, const char* label, std::int64_t n, const F& f) {
  set_device(ex);
  auto stream = static_cast<cudaStream_t>(ex.stream);
  const int grid = grid_for(ex, n);
  T* partials = nullptr;
  check(cudaMallocAsync(reinterpret_cast<void**>(&partials), sizeof(T) * grid, stream),
        "cudaMallocAsync of reduction partials", label);
  reduce_kernel<T><<<grid, kBlock, 0, stream>>>(n, f, partials);
  check(cudaGetLastError(), "kernel launch", label);
  std::vector<T> host(static_cast<std::size_t>(grid));
  check(cudaMemcpyAsync(host.data(), partials, sizeof(T) * grid, cudaMemcpyDeviceToHost, stream),
        "copy of reduction partials", label);
  check(cudaFreeAsync(partials, stream), "cudaFreeAsync", label);
  check(cudaStreamSynchronize(stream), "kernel execution", label);
  T total{};
  for (const T& p : host) total += p;
  return total;
}

#endif  // __CUDACC__

}  // namespace gluon::runtime::cuda
