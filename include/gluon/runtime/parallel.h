#pragma once
// The one execution interface (DESIGN.md): every kernel is a GLUON_HD functor f(i) over an index
// range [0, n), launched by parallel_for or reduced by parallel_reduce. The CPU backend runs an
// OpenMP loop; the CUDA backend (only in translation units compiled by nvcc, i.e. *_kernels.cpp
// files of a GLUON_CUDA build) launches a generic kernel on ex.stream.
//
//   parallel_for(ex, label, n, f)          f(i) for i in [0, n)
//   parallel_reduce<T>(ex, label, n, f)    sum over i of f(i); T needs T{} == 0 and operator+=
//   parallel_reduce_into<T>(ex, label or spec, n, f, host, device)
//                                          the same sum, queued without waiting: written to
//                                          `host` (a ScalarSlots mirror: memory the host reads
//                                          after waiting for the stream) and to `device` (read
//                                          by later kernels on ex's stream); on the CPU both are
//                                          written before it returns. A functor with a member
//                                          `finish(const T& total) const` has it called once with
//                                          the total, on the device right after it is written
//                                          (one thread): scalars derived from the sum (a
//                                          solver's coefficients) are then ready for the next
//                                          kernel without a launch of their own
//   choose_variant<Key>(ex, spec, n, count, go)  the fastest of `count` launches go(v) (GPU,
//                                          tuned once, cached under Key's type; 0 on the CPU)
//   parallel_for(ex, spec, n, f), parallel_reduce<T>(ex, spec, n, f)
//                                          the same with an explicit runtime::TuneSpec: whether
//                                          the GPU launch may be autotuned and how (tune.h)
//
// GPU launch parameters: untuned launches use default_launch (256 threads); a launch is tuned on
// first use only when it allows it, through a TuneSpec or a declaration on the functor
// (`static constexpr Tuning tuning = Tuning::idempotent;` for out-of-place kernels and pure
// reductions, or Tuning::restore with tune_outputs() for in-place ones): see runtime/tune.h.
// On the CPU nothing is tuned.
//
// Reductions are deterministic: the CPU sums fixed chunks of kReduceChunk indices and then the
// chunk partials in order, so the result does not depend on the number of OpenMP threads; the GPU
// sums per-block partials in block order (the last block to finish adds them up), so it does
// not depend on scheduling either.
// Labels name the kernel in errors and in the tune cache.
#include <cstdint>
#include <vector>

#include "gluon/runtime/exec.h"
#include "gluon/runtime/hd.h"
#include "gluon/runtime/tune.h"

#if defined(__CUDACC__)
#include "gluon/runtime/cuda/launch.cuh"
#endif

namespace gluon::runtime {

inline constexpr std::int64_t kReduceChunk = 2048;

namespace detail {
// Thrown when a unit compiled without nvcc is asked to run on the GPU: a build-system mistake.
[[noreturn]] void kernel_not_compiled_for_cuda(const char* label);
}  // namespace detail

template <class F>
void parallel_for(const Exec& ex, const char* label, std::int64_t n, const F& f) {
  if (n <= 0) return;
  if (ex.backend == Backend::cuda) {
#if defined(__CUDACC__)
    cuda::launch_for(ex, label, n, f);
    return;
#else
    detail::kernel_not_compiled_for_cuda(label);
#endif
  }
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) f(i);
}

template <class F>
void parallel_for(const Exec& ex, const TuneSpec& spec, std::int64_t n, const F& f) {
  if (n <= 0) return;
  if (ex.backend == Backend::cuda) {
#if defined(__CUDACC__)
    cuda::launch_for(ex, spec, n, f);
    return;
#else
    detail::kernel_not_compiled_for_cuda(spec.label);
#endif
  }
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) f(i);
}

// Which of `count` variants of a launch to run (cuda::choose_variant: timed once, kept in the
// tune cache); 0 on the CPU, where variants that differ only in GPU launch bounds are the same.
template <class Key, class Go>
int choose_variant(const Exec& ex, const TuneSpec& spec, std::int64_t n, int count, const Go& go) {
#if defined(__CUDACC__)
  if (ex.backend == Backend::cuda && n > 0) return cuda::choose_variant<Key>(ex, spec, n, count, go);
#endif
  (void)ex, (void)spec, (void)n, (void)count, (void)go;
  return 0;
}

namespace detail {
template <class T, class F>
T reduce_on_cpu(std::int64_t n, const F& f) {
  const std::int64_t nchunks = (n + kReduceChunk - 1) / kReduceChunk;
  std::vector<T> partial(static_cast<std::size_t>(nchunks));
#pragma omp parallel for schedule(static)
  for (std::int64_t c = 0; c < nchunks; ++c) {
    T acc{};
    const std::int64_t end = (c + 1) * kReduceChunk < n ? (c + 1) * kReduceChunk : n;
    for (std::int64_t i = c * kReduceChunk; i < end; ++i) acc += f(i);
    partial[static_cast<std::size_t>(c)] = acc;
  }
  T total{};
  for (const T& p : partial) total += p;
  return total;
}
}  // namespace detail

template <class T, class F>
T parallel_reduce(const Exec& ex, const char* label, std::int64_t n, const F& f) {
  if (n <= 0) return T{};
  if (ex.backend == Backend::cuda) {
#if defined(__CUDACC__)
    return cuda::launch_reduce<T>(ex, label, n, f);
#else
    detail::kernel_not_compiled_for_cuda(label);
#endif
  }
  return detail::reduce_on_cpu<T>(n, f);
}

template <class T, class F>
T parallel_reduce(const Exec& ex, const TuneSpec& spec, std::int64_t n, const F& f) {
  if (n <= 0) return T{};
  if (ex.backend == Backend::cuda) {
#if defined(__CUDACC__)
    return cuda::launch_reduce<T>(ex, spec, n, f);
#else
    detail::kernel_not_compiled_for_cuda(spec.label);
#endif
  }
  return detail::reduce_on_cpu<T>(n, f);
}

template <class T, class F>
void parallel_reduce_into(const Exec& ex, const TuneSpec& spec, std::int64_t n, const F& f, T* host, T* device) {
  if (ex.backend == Backend::cuda) {
#if defined(__CUDACC__)
    cuda::enqueue_reduce<T>(ex, spec, n, f, host, device);
    return;
#else
    detail::kernel_not_compiled_for_cuda(spec.label);
#endif
  }
  const T total = n > 0 ? detail::reduce_on_cpu<T>(n, f) : T{};
  *host = total;
  *device = total;
  if constexpr (requires(const F& g, const T& t) { g.finish(t); }) f.finish(total);
}

template <class T, class F>
void parallel_reduce_into(const Exec& ex, const char* label, std::int64_t n, const F& f, T* host, T* device) {
#if defined(__CUDACC__)
  parallel_reduce_into<T>(ex, cuda::detail::spec_of(label, f), n, f, host, device);
#else
  TuneSpec spec;
  spec.label = label;
  parallel_reduce_into<T>(ex, spec, n, f, host, device);
#endif
}

}  // namespace gluon::runtime
