#pragma once
// Streaming copy bandwidth: the reference that dslash bandwidth is compared with
// (`gluon bench copy`, and the copy_gbs of `gluon bench dslash`).
//
//   CopyBenchParams    bytes per buffer (two buffers are allocated, where ex runs), calls timed
//                      (after 3 warm-up calls, which also tune the GPU kernel)
//   CopyBenchResult    medians over the calls; GB/s count read + write: 2 x bytes / time (1 GB =
//                      1e9 bytes). kernel_gbs: a parallel_for of 16-byte elements (CUDA: tuned
//                      grid-stride kernel; CPU: OpenMP loop over all threads); memcpy_gbs: the
//                      runtime's device-to-device copy (cudaMemcpyAsync), 0 on the CPU;
//                      nontemporal_gbs (CPU only, x86-64): the OpenMP loop with non-temporal
//                      stores, which write each destination line without reading it first (a
//                      plain store's write-allocate reads it: 3 bytes moved for the 2 counted);
//                      copy_gbs = the largest: the bandwidth a streaming kernel can get.
//   measure_copy(ex, p) runs it; OutOfMemoryError when the buffers do not fit, InputError for
//                      fewer than 16 bytes or no calls.
#include <cstddef>

#include "gluon/runtime/exec.h"

namespace gluon::qcd::bench {

struct CopyBenchParams {
  std::size_t bytes = std::size_t{1} << 30;
  int calls = 50;
};

struct CopyBenchResult {
  std::size_t bytes = 0;  // per buffer
  int calls = 0;
  double kernel_ms = 0.0, kernel_gbs = 0.0;
  double memcpy_ms = 0.0, memcpy_gbs = 0.0;
  double nontemporal_ms = 0.0, nontemporal_gbs = 0.0;
  double copy_gbs = 0.0;
};

CopyBenchResult measure_copy(const runtime::Exec& ex, const CopyBenchParams& p);

// The kernel copy alone (out = in, 16-byte elements, `bytes` a multiple of 16): used by
// measure_copy, exposed for tests.
void copy_kernel(const runtime::Exec& ex, void* out, const void* in, std::size_t bytes);

}  // namespace gluon::qcd::bench
