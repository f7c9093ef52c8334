#pragma once
// CUDA side of parallel.h. Included only by nvcc. Generic grid-stride kernels whose launch
// parameters come from the autotuner (runtime/tune.h) when the launch allows tuning, else
// default_launch (256 threads, grid capped at 32 blocks per multiprocessor).
//
// Tuning a launch (first use of a key; later launches look the key up in the tune cache):
//   1. Tuning::restore: copy the declared output ranges aside (device to device).
//   2. Block sizes 64..1024 in steps of 64,
//      limited by the kernel's register use (cudaFuncGetAttributes) and, for reductions, by 48 KiB
//      of shared memory, each at grid min(ceil(n/block), 32 x multiprocessors); then, at the best
//      block size, grids of 1, 2, 4, ... 64 blocks per multiprocessor and the full ceil(n/block).
//      Each candidate runs once as warm-up, then enough times for ~0.5 ms, timed with CUDA events
//      on the launch's stream; a candidate that fails to launch is skipped.
//   3. Tuning::restore: copy the outputs back. The caller's launch then runs once with the best.
// When device memory for the backup is short, the launch runs untuned (and is retried next time).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "gluon/runtime/exec.h"
#include "gluon/runtime/profile.h"
#include "gluon/runtime/tune.h"

namespace gluon::runtime::cuda {

// Throws DeviceError "<what> (<label>): <cuda error string>" when err != cudaSuccess.
void check(cudaError_t err, const char* what, const char* label);
// Number of multiprocessors of the current device (cached).
int multiprocessor_count(int device);
// Makes ex.device current for the calling thread.
void set_device(const Exec& ex);

// Scratch of parallel_reduce on one stream: device memory for the block partials (at least
// `bytes`), a ticket counter, and mapped pinned host memory for the total, kept for the process's
// life and grown on demand. A cudaMallocAsync, a copy into pageable memory and a cudaFreeAsync
// around every reduction cost tens of microseconds of latency, and a Krylov iteration synchronises
// on two to four reductions. Valid until the next call for the same stream (reductions on one
// stream run one after the other: each waits for its result before returning).
struct ReduceScratch {
  void* device = nullptr;          // block partials
  unsigned int* ticket = nullptr;  // device: blocks done (zero between launches)
  void* result = nullptr;          // mapped pinned host memory: the total, written by the last block
  void* result_device = nullptr;   // the same memory, as the device sees it
};
ReduceScratch reduce_scratch(const Exec& ex, std::size_t bytes);

inline constexpr int kBlock = kDefaultBlock;

// Programmatic dependent launch (sm_90): the generic kernels below are launched with the
// programmatic-stream-serialization attribute, so that the next kernel on the stream is launched,
// and its blocks placed on the multiprocessors the previous kernel's last wave leaves idle,
// before that kernel ends. Each of those kernels waits (griddepcontrol.wait, the first thing it
// does) until the previous one has finished and its writes are visible, so the overlap covers
// launch latency and the tail only, never data. $GLUON_PDL = 0 launches them plainly (read once).
bool pdl_enabled();

// The kernels and launchers below need nvcc; the host helpers above are also declared for the
// C++ compiler, which builds src/runtime/cuda_launch.cpp.
#if defined(__CUDACC__)

// The start of every kernel launched with launch_kernel: wait for the previous kernel on the
// stream (a no-op when launched plainly), then let the next one launch.
__device__ __forceinline__ void pdl_start() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}
// kernel<<<grid, block, shared, stream>>>(args...), with the programmatic-stream-serialization
// attribute when pdl_enabled() (the kernel must start with pdl_start()).
template <class... P, class... A>
void launch_kernel(void (*kernel)(P...), int grid, int block, std::size_t shared, cudaStream_t stream, A&&... args) {
  if (!pdl_enabled()) {
    kernel<<<grid, block, shared, stream>>>(std::forward<A>(args)...);
    return;
  }
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(static_cast<unsigned>(grid));
  cfg.blockDim = dim3(static_cast<unsigned>(block));
  cfg.dynamicSmemBytes = shared;
  cfg.stream = stream;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, kernel, std::forward<A>(args)...);  // errors: cudaGetLastError, as <<<>>>
}

// The functor is a __grid_constant__ parameter: read in place from the constant bank. Without it
// a member function call takes the functor's address and nvcc copies it to a local stack frame
// (hundreds of bytes for a stencil kernel), so every member read becomes a local-memory load.
template <class F>
__device__ __forceinline__ void grid_stride(std::int64_t n, const F& f) {
  pdl_start();
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    f(i);
}
template <class F>
__global__ void for_kernel(std::int64_t n, const __grid_constant__ F f) {
  grid_stride(n, f);
}

// Occupancy floor: a functor declaring `static constexpr int min_blocks_per_sm = B;` (B > 0) runs
// with __launch_bounds__(128, B), so ptxas keeps its registers at or below 65536 / (128 B): more
// warps in flight for latency-bound stencils, at the risk of spills (measure: choose_variant).
// (__maxnreg__ caps registers more finely, but ptxas spilled far more under it: Wilson single
// at 80 registers, 256 bytes against 28 under __launch_bounds__(128, 6).)
template <class F>
constexpr int min_blocks_of() {
  if constexpr (requires { F::min_blocks_per_sm; }) return F::min_blocks_per_sm;
  else return 0;
}
inline constexpr int kBoundedBlock = 128;
template <class F>
__global__ void __launch_bounds__(kBoundedBlock, min_blocks_of<F>() > 0 ? min_blocks_of<F>() : 1)
    for_kernel_bounded(std::int64_t n, const __grid_constant__ F f) {
  grid_stride(n, f);
}
template <class F>
constexpr auto for_kernel_of() {
  if constexpr (min_blocks_of<F>() > 0) return &for_kernel_bounded<F>;
  else return &for_kernel<F>;
}

// v from the lane `delta` above (a T of whole 32-bit words, moved word by word).
template <class T>
__device__ __forceinline__ T shfl_down(const T& v, unsigned delta) {
  unsigned int w[sizeof(T) / 4];
  memcpy(w, &v, sizeof(T));
  for (unsigned k = 0; k < sizeof(T) / 4; ++k) w[k] = __shfl_down_sync(0xffffffffu, w[k], delta);
  T out;
  memcpy(&out, w, sizeof(T));
  return out;
}

// Sum of one value per thread, returned to thread 0; blockDim.x a multiple of 32 (<= 1024).
// Warps sum by shuffles, their totals go through shared[0 .. blockDim.x / 32) and the first warp
// sums those: one barrier, where a shared-memory tree took log2(blockDim.x). The order of the
// additions depends on the block size only.
template <class T>
__device__ __forceinline__ T block_sum(T* shared, T mine) {
  for (unsigned d = 16; d > 0; d >>= 1) mine += shfl_down(mine, d);
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) new (&shared[warp]) T(mine);
  __syncthreads();
  if (warp == 0) {
    mine = lane < blockDim.x / 32 ? shared[lane] : T{};
    for (unsigned d = 16; d > 0; d >>= 1) mine += shfl_down(mine, d);
  }
  return mine;
}

// blockDim.x a multiple of 32; dynamic shared memory of at least blockDim.x / 32 * sizeof(T) bytes.
// Each block writes its partial; the last block to finish (a ticket counter) sums the partials
// in block order, strided over its threads and then by the same tree, so the total depends on
// the launch shape only, never on which block ran when, and writes it to `total` (mapped host
// memory: no copy is queued after the kernel) and, when not null, to `total_device` (device
// memory that later kernels on the stream read), then re-arms the ticket. No system-scope fence:
// the host reads `total` only after synchronising with the kernel's completion, which makes its
// writes visible.
template <class T, class F>
__device__ __forceinline__ void reduce_body(std::int64_t n, const F& f, T* block_partials, unsigned int* ticket,
                                            T* total, T* total_device) {
  // Raw storage: a __shared__ array of T may not have a constructor, and T{} with default member
  // initialisers (e.g. a min/max identity) has one. T must be trivially copyable.
  static_assert(alignof(T) <= 16, "parallel_reduce: reduced type aligned beyond 16 bytes");
  static_assert(sizeof(T) % 4 == 0 && sizeof(T) <= 256, "parallel_reduce: reduced type of whole 32-bit words");
  extern __shared__ __align__(16) unsigned char gluon_reduce_storage[];
  T* shared = reinterpret_cast<T*>(gluon_reduce_storage);
  __shared__ bool last;
  pdl_start();
  T acc{};
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    acc += f(i);
  acc = block_sum(shared, acc);
  if (threadIdx.x == 0) {
    block_partials[blockIdx.x] = acc;
    __threadfence();
    last = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  T sum{};
#pragma unroll 4  // independent loads in flight: the partials come from L2
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) {
    // Written by other blocks: loaded from L2 (ld.global.cg), past this SM's L1.
    const unsigned int* src = reinterpret_cast<const unsigned int*>(&block_partials[b]);
    unsigned int words[sizeof(T) / 4];
    for (unsigned k = 0; k < sizeof(T) / 4; ++k) words[k] = __ldcg(src + k);
    T v;
    memcpy(&v, words, sizeof(T));
    sum += v;
  }
  __syncthreads();  // shared[] is reused
  sum = block_sum(shared, sum);
  if (threadIdx.x == 0) {
    *total = sum;
    if (total_device) *total_device = sum;
    if constexpr (requires(const F& g, const T& t) { g.finish(t); }) f.finish(sum);
    *ticket = 0;
  }
}
template <class T, class F>
__global__ void reduce_kernel(std::int64_t n, const __grid_constant__ F f, T* block_partials, unsigned int* ticket,
                              T* total, T* total_device) {
  reduce_body(n, f, block_partials, ticket, total, total_device);
}
// A reduction functor with an occupancy floor (min_blocks_per_sm, as for_kernel_bounded).
template <class T, class F>
__global__ void __launch_bounds__(kBoundedBlock, min_blocks_of<F>() > 0 ? min_blocks_of<F>() : 1)
    reduce_kernel_bounded(std::int64_t n, const __grid_constant__ F f, T* block_partials, unsigned int* ticket,
                          T* total, T* total_device) {
  reduce_body(n, f, block_partials, ticket, total, total_device);
}
template <class T, class F>
constexpr auto reduce_kernel_of() {
  if constexpr (min_blocks_of<F>() > 0) return &reduce_kernel_bounded<T, F>;
  else return &reduce_kernel<T, F>;
}

inline int grid_for(const Exec& ex, std::int64_t n) {
  return default_launch(n, multiprocessor_count(ex.device)).grid;
}

namespace detail {

// Functor declarations (runtime/tune.h): tuning, tune_outputs(), tune_aux().
template <class F>
TuneSpec spec_of(const char* label, const F& f) {
  TuneSpec s;
  s.label = label;
  if constexpr (requires { F::tuning; }) s.tuning = F::tuning;
  if constexpr (requires(const F& g) { g.tune_outputs(); }) s.outputs = f.tune_outputs();
  if constexpr (requires(const F& g) { g.tune_aux(); }) s.aux = f.tune_aux();
  return s;
}

// The kernel's largest block (its register use limits it), asked of the driver once per kernel:
// cudaFuncGetAttributes on every launch is host time the GPU waits for after each synchronising
// reduction of a solver iteration. The same on every device of one build (one architecture).
template <class K>
int max_threads_per_block(K* kernel) {
  static const int limit = [kernel] {
    cudaFuncAttributes attr{};
    if (cudaFuncGetAttributes(&attr, kernel) != cudaSuccess) {
      cudaGetLastError();
      return 1024;
    }
    return attr.maxThreadsPerBlock;
  }();
  return limit;
}

// A reduction's untuned launch: 256 threads a block and one wave of blocks, as many as the device
// holds at once (the occupancy API, asked once per kernel), each thread striding over the range.
// The block sums and the last block's pass over the partials are then paid once per resident
// block. default_launch's one site a thread made CG's in-place axpy_norm2 (never tuned) run 2048
// blocks through their sums at 2.2 TB/s (Nsight Compute, H200, 32^4 staggered, double).
template <class K>
LaunchConfig one_wave(K* kernel, std::int64_t n, int sms, int max_grid, int block, std::size_t smem) {
  static const int per_sm = [kernel, block, smem] {
    int b = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, kernel, block, smem) != cudaSuccess || b < 1) {
      cudaGetLastError();
      b = 1;
    }
    return b;
  }();
  const std::int64_t want = (n + block - 1) / block;
  std::int64_t g = std::min<std::int64_t>(want, static_cast<std::int64_t>(per_sm) * sms);
  g = std::min<std::int64_t>(g, max_grid);
  return LaunchConfig{block, static_cast<int>(g < 1 ? 1 : g)};
}

template <class F>
const std::string& type_key() {
  static const std::string key = tune_hash(typeid(F).name());
  return key;
}

// Device copies of the output ranges of a Tuning::restore launch.
class Backup {
 public:
  Backup(const TuneOutputs& outs, cudaStream_t stream) : outs_(outs), stream_(stream) {
    const std::size_t bytes = outs.total_bytes();
    if (bytes == 0) {
      ok_ = true;
      return;
    }
    if (cudaMallocAsync(&copy_, bytes, stream) != cudaSuccess) {
      cudaGetLastError();
      copy_ = nullptr;
      return;
    }
    char* p = static_cast<char*>(copy_);
    for (int i = 0; i < outs.count; ++i) {
      const auto& b = outs.buffers[static_cast<std::size_t>(i)];
      check(cudaMemcpyAsync(p, b.ptr, b.bytes, cudaMemcpyDeviceToDevice, stream), "tune backup", "copy");
      p += b.bytes;
    }
    ok_ = true;
  }
  void restore() {
    char* p = static_cast<char*>(copy_);
    for (int i = 0; i < outs_.count && copy_; ++i) {
      const auto& b = outs_.buffers[static_cast<std::size_t>(i)];
      check(cudaMemcpyAsync(b.ptr, p, b.bytes, cudaMemcpyDeviceToDevice, stream_), "tune restore", "copy");
      p += b.bytes;
    }
  }
  ~Backup() {
    if (copy_) cudaFreeAsync(copy_, stream_);
  }
  bool ok() const { return ok_; }
  Backup(const Backup&) = delete;
  Backup& operator=(const Backup&) = delete;

 private:
  TuneOutputs outs_;
  cudaStream_t stream_;
  void* copy_ = nullptr;
  bool ok_ = false;
};

// Milliseconds per launch of `go(config)`, or a negative number when it does not launch.
template <class Go>
double time_candidate(const Go& go, const LaunchConfig& c, cudaStream_t stream) {
  cudaGetLastError();
  go(c);
  if (cudaGetLastError() != cudaSuccess) return -1.0;
  cudaEvent_t a, b;
  check(cudaEventCreate(&a), "cudaEventCreate", "tune");
  check(cudaEventCreate(&b), "cudaEventCreate", "tune");
  auto timed = [&](int reps) {
    cudaEventRecord(a, stream);
    for (int r = 0; r < reps; ++r) go(c);
    cudaEventRecord(b, stream);
    check(cudaEventSynchronize(b), "kernel execution while tuning", "tune");
    float ms = 0.f;
    cudaEventElapsedTime(&ms, a, b);
    return static_cast<double>(ms) / reps;
  };
  double t = timed(1);
  int reps = 50;  // enough launches for ~0.5 ms, between 2 and 50
  if (t > 0.0 && 0.5 / t < 50.0) reps = 0.5 / t < 2.0 ? 2 : static_cast<int>(0.5 / t);
  t = timed(reps);
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return t;
}

// Chooses the launch config for one (spec, n, type) on ex: cached, tuned now, or the default
// `def`. `go(config)` launches the kernel; `max_block` is the kernel's limit; candidates with more
// than `max_grid` blocks are skipped.
template <class Go>
LaunchConfig choose(const Exec& ex, const TuneSpec& spec, std::int64_t n, const std::string& type, int max_block,
                    int max_grid, const LaunchConfig& def, const Go& go) {
  const int sms = multiprocessor_count(ex.device);
  if (spec.tuning == Tuning::off || !tuning_enabled()) {
    tune_note_default_launch();
    return def;
  }
  if (auto hit = tune_lookup(spec.label, n, spec.aux, type, ex.device)) return *hit;

  auto stream = static_cast<cudaStream_t>(ex.stream);
  Backup backup(spec.tuning == Tuning::restore ? spec.outputs : TuneOutputs{}, stream);
  if (!backup.ok()) {
    tune_note_default_launch();
    return def;
  }
  auto capped = [&](int block, std::int64_t per_sm) {
    const std::int64_t want = (n + block - 1) / block;
    const std::int64_t cap = per_sm > 0 ? per_sm * sms : want;
    const std::int64_t g = want < cap ? want : cap;
    return LaunchConfig{block, static_cast<int>(g < 1 ? 1 : (g > 0x7fffffff ? 0x7fffffff : g))};
  };
  const double t_def = time_candidate(go, def, stream);
  LaunchConfig best = def;
  double t_best = t_def > 0 ? t_def : 1e300;
  for (int block = 64; block <= 1024 && block <= max_block; block += 64) {
    const LaunchConfig c = capped(block, kDefaultBlocksPerSm);
    if (c == def || c.grid > max_grid) continue;
    const double t = time_candidate(go, c, stream);
    if (t > 0 && t < t_best) {
      t_best = t;
      best = c;
    }
  }
  for (std::int64_t per_sm : {1, 2, 4, 8, 16, 64, 0}) {
    const LaunchConfig c = capped(best.block, per_sm);
    if (c == best || c.grid > max_grid) continue;
    const double t = time_candidate(go, c, stream);
    if (t > 0 && t < t_best) {
      t_best = t;
      best = c;
    }
  }
  backup.restore();
  cudaGetLastError();
  tune_note_tuned();
  tune_record(spec.label, n, spec.aux, type, ex.device, best, t_best, t_def);
  return best;
}

}  // namespace detail

template <class F>
void launch_for(const Exec& ex, const TuneSpec& spec, std::int64_t n, const F& f) {
  set_device(ex);
  auto stream = static_cast<cudaStream_t>(ex.stream);
  constexpr auto kernel = for_kernel_of<F>();
  int max_block = min_blocks_of<F>() > 0 ? kBoundedBlock : 1024;
  if (spec.tuning != Tuning::off) max_block = detail::max_threads_per_block(kernel);
  LaunchConfig c = detail::choose(ex, spec, n, detail::type_key<F>(), max_block, 0x7fffffff,
                                  default_launch(n, multiprocessor_count(ex.device)),
                                  [&](const LaunchConfig& k) { launch_kernel(kernel, k.grid, k.block, 0, stream, n, f); });
  if (c.block > max_block || c.block % 32 != 0) {
    c = default_launch(n, multiprocessor_count(ex.device));
    if (c.block > max_block) c = LaunchConfig{max_block, static_cast<int>(std::min<std::int64_t>((n + max_block - 1) / max_block, 0x7fffffff))};
  }
  profile_begin(ex, spec.label);
  launch_kernel(kernel, c.grid, c.block, 0, stream, n, f);
  profile_end(ex);
  check(cudaGetLastError(), "kernel launch", spec.label);
}

// Which of `count` variants of one launch (e.g. with and without an occupancy floor) is fastest:
// the tune cache's answer under label "<spec.label>/variant" and the type Key (the variant-0
// functor), or, when tuning is on and the launch allows it (idempotent, or restore: its declared
// outputs copied aside first and back after), each variant launched once (so that its own launch
// is tuned) and then timed; the winner is recorded as block = 32 (v + 1), grid = 1 (a launch
// shape the cache validates). Variant 0 when tuning is off; forced_variant() when set and below
// count (tune.h). A reduction's variants: reduce_kernel_bounded, as for_kernel_bounded.
// go(v) launches variant v.
template <class Key, class Go>
int choose_variant(const Exec& ex, const TuneSpec& spec, std::int64_t n, int count, const Go& go) {
  if (const int f = forced_variant(); f >= 0 && f < count) return f;
  if (count < 2 || spec.tuning == Tuning::off || !tuning_enabled()) return 0;
  const std::string label = std::string(spec.label) + "/variant";
  const std::string& type = detail::type_key<Key>();
  if (auto hit = tune_lookup(label, n, spec.aux, type, ex.device)) {
    const int v = hit->block / 32 - 1;
    return v >= 0 && v < count ? v : 0;
  }
  auto stream = static_cast<cudaStream_t>(ex.stream);
  // Tuning::restore: the variants' runs update the declared outputs, copied back after the timing.
  detail::Backup backup(spec.tuning == Tuning::restore ? spec.outputs : TuneOutputs{}, stream);
  if (!backup.ok()) return 0;
  int best = 0;
  double t_best = 1e300, t0 = 0;
  for (int v = 0; v < count; ++v) {
    const double t = detail::time_candidate([&](const LaunchConfig&) { go(v); }, LaunchConfig{}, stream);
    if (v == 0) t0 = t;
    if (t > 0 && t < t_best) t_best = t, best = v;
  }
  backup.restore();
  tune_record(label, n, spec.aux, type, ex.device, LaunchConfig{32 * (best + 1), 1}, t_best, t0);
  return best;
}

template <class F>
void launch_for(const Exec& ex, const char* label, std::int64_t n, const F& f) {
  launch_for(ex, detail::spec_of(label, f), n, f);
}

// Queues the reduction on ex's stream without waiting: the total lands in `host_total` (memory
// the device can write and the host read: mapped pinned memory, as its device address) and, when
// not null, in `device_total`. Returns the host address of the scratch result when host_total is
// null (launch_reduce's path), else nullptr.
template <class T, class F>
const T* enqueue_reduce(const Exec& ex, const TuneSpec& spec, std::int64_t n, const F& f, T* host_total,
                        T* device_total) {
  set_device(ex);
  auto stream = static_cast<cudaStream_t>(ex.stream);
  const int sms = multiprocessor_count(ex.device);
  constexpr auto kernel = reduce_kernel_of<T, F>();
  int max_block = min_blocks_of<F>() > 0 ? kBoundedBlock : 1024;
  while (max_block > 64 && max_block * sizeof(T) > 48 * 1024) max_block /= 2;
  if (spec.tuning != Tuning::off) {
    const int limit = detail::max_threads_per_block(kernel);
    if (limit < max_block) max_block = limit;
  }
  // Room for the largest grid a tuning candidate may use (64 blocks per multiprocessor of 64).
  const std::int64_t want64 = (n + 63) / 64, cap64 = static_cast<std::int64_t>(sms) * 64;
  const int grid_room = static_cast<int>(want64 < cap64 ? want64 : cap64);
  const ReduceScratch scratch = reduce_scratch(ex, sizeof(T) * static_cast<std::size_t>(grid_room));
  T* partials = static_cast<T*>(scratch.device);
  T* scratch_total = static_cast<T*>(scratch.result_device);
  const int wave_block = std::min(kDefaultBlock, max_block);
  if (n <= 0) {  // an empty sum still writes its zero
    launch_kernel(kernel, 1, 64, 64 * sizeof(T), stream, std::int64_t{0}, f, partials, scratch.ticket,
                  host_total ? host_total : scratch_total, device_total);
    check(cudaGetLastError(), "kernel launch", spec.label);
    return host_total ? nullptr : static_cast<const T*>(scratch.result);
  }
  const LaunchConfig wave = detail::one_wave(kernel, n, sms, grid_room, wave_block, wave_block * sizeof(T));
  // Tuning candidates write the scratch result only: the caller's slots see the real launch.
  LaunchConfig c = detail::choose(ex, spec, n, detail::type_key<T(F)>(), max_block, grid_room, wave,
                                  [&](const LaunchConfig& k) {
                                    launch_kernel(kernel, k.grid, k.block, k.block * sizeof(T), stream, n, f, partials,
                                                  scratch.ticket, scratch_total, static_cast<T*>(nullptr));
                                  });
  if (c.grid > grid_room || c.block % 32 != 0 || c.block > max_block) c = wave;  // an edited cache entry: stay in bounds
  profile_begin(ex, spec.label);
  launch_kernel(kernel, c.grid, c.block, c.block * sizeof(T), stream, n, f, partials, scratch.ticket,
                host_total ? host_total : scratch_total, device_total);
  profile_end(ex);
  check(cudaGetLastError(), "kernel launch", spec.label);
  return host_total ? nullptr : static_cast<const T*>(scratch.result);
}

template <class T, class F>
T launch_reduce(const Exec& ex, const TuneSpec& spec, std::int64_t n, const F& f) {
  const T* result = enqueue_reduce<T>(ex, spec, n, f, nullptr, nullptr);
  check(cudaStreamSynchronize(static_cast<cudaStream_t>(ex.stream)), "kernel execution", spec.label);
  T out;
  std::memcpy(&out, result, sizeof(T));
  return out;
}

template <class T, class F>
T launch_reduce(const Exec& ex, const char* label, std::int64_t n, const F& f) {
  return launch_reduce<T>(ex, detail::spec_of(label, f), n, f);
}

#endif  // __CUDACC__

}  // namespace gluon::runtime::cuda
