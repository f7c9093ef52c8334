// Copy bandwidth measurement (qcd/bench/copy.h).
#include "gluon/qcd/bench/copy.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "gluon/qcd/bench/timing.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/memory.h"

#if defined(__x86_64__) || defined(__SSE2__)
#include <emmintrin.h>
#define GLUON_COPY_NONTEMPORAL 1
#endif

namespace gluon::qcd::bench {

namespace {
#if defined(GLUON_COPY_NONTEMPORAL)
// The CPU copy with non-temporal stores (16 bytes each; the write-combining buffers fill whole
// lines), on all OpenMP threads, each a contiguous range.
void copy_nontemporal(void* out, const void* in, std::size_t bytes) {
  auto* o = static_cast<__m128i*>(out);
  const auto* i = static_cast<const __m128i*>(in);
  const auto n = static_cast<std::int64_t>(bytes / 16);
#pragma omp parallel
  {
#pragma omp for schedule(static) nowait
    for (std::int64_t k = 0; k < n; ++k) _mm_stream_si128(o + k, _mm_load_si128(i + k));
    _mm_sfence();
  }
}
#endif
}  // namespace

CopyBenchResult measure_copy(const runtime::Exec& ex, const CopyBenchParams& p) {
  if (p.bytes < 16) throw InputError("bench copy: buffer size must be at least 16 bytes, found " + std::to_string(p.bytes));
  if (p.calls < 1) throw InputError("bench copy: at least 1 call, found " + std::to_string(p.calls));
  const std::size_t bytes = p.bytes / 16 * 16;
  const auto space = runtime::memspace_for(ex);
  runtime::Buffer a(space, bytes, "copy benchmark source", ex.device);
  runtime::Buffer b(space, bytes, "copy benchmark destination", ex.device);
  runtime::fill_bytes(a, 0x5a);  // touch every page (first-touch on the CPU)
  runtime::fill_bytes(b, 0);

  CopyBenchResult r;
  r.bytes = bytes;
  r.calls = p.calls;
  const double moved = 2.0 * static_cast<double>(bytes);
  auto kernel = [&] { copy_kernel(ex, b.data(), a.data(), bytes); };
  for (int w = 0; w < 3; ++w) kernel();  // warm-up (tunes the GPU kernel on first use)
  r.kernel_ms = median(time_calls(ex, p.calls, kernel));
  r.kernel_gbs = r.kernel_ms > 0 ? moved / (r.kernel_ms * 1e-3) / 1e9 : 0.0;
  if (ex.on_device()) {
    auto memcpy_call = [&] {
      runtime::copy_bytes_async(b.data(), space, a.data(), space, bytes, ex);
    };
    memcpy_call();
    r.memcpy_ms = median(time_calls(ex, p.calls, memcpy_call));
    r.memcpy_gbs = r.memcpy_ms > 0 ? moved / (r.memcpy_ms * 1e-3) / 1e9 : 0.0;
  }
#if defined(GLUON_COPY_NONTEMPORAL)
  if (!ex.on_device()) {
    runtime::fill_bytes(b, 0);
    auto nt_call = [&] { copy_nontemporal(b.data(), a.data(), bytes); };
    for (int w = 0; w < 3; ++w) nt_call();
    r.nontemporal_ms = median(time_calls(ex, p.calls, nt_call));
    r.nontemporal_gbs = r.nontemporal_ms > 0 ? moved / (r.nontemporal_ms * 1e-3) / 1e9 : 0.0;
  }
#endif
  runtime::synchronize(ex);
  // the copy really happened
  unsigned char probe[16];
  runtime::copy_bytes(probe, runtime::MemSpace::host, static_cast<const unsigned char*>(b.data()) + bytes - 16,
                      space, 16);
  for (unsigned char c : probe)
    if (c != 0x5a) throw Error("bench copy: destination does not hold the source after the copy");
  if (!ex.on_device() && std::memcmp(a.data(), b.data(), bytes) != 0)  // the last copy timed, whole
    throw Error("bench copy: destination does not hold the source after the copy");
  r.copy_gbs = std::max({r.kernel_gbs, r.memcpy_gbs, r.nontemporal_gbs});
  return r;
}

}  // namespace gluon::qcd::bench
