// The streaming copy kernel of qcd/bench/copy.h (compiled by nvcc in CUDA builds).
#include <cstdint>
#include <string>

#include "gluon/qcd/bench/copy.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/parallel.h"

namespace gluon::qcd::bench {

namespace {

struct alignas(16) Block16 {
  std::uint64_t a, b;
};

struct CopyF {
  static constexpr runtime::Tuning tuning = runtime::Tuning::idempotent;  // out-of-place
  Block16* out;
  const Block16* in;
  GLUON_HD void operator()(std::int64_t i) const { out[i] = in[i]; }
};

}  // namespace

void copy_kernel(const runtime::Exec& ex, void* out, const void* in, std::size_t bytes) {
  if (bytes % 16 != 0)
    throw InputError("copy_kernel: " + std::to_string(bytes) + " bytes is not a multiple of 16");
  parallel_for(ex, "bench_copy", static_cast<std::int64_t>(bytes / 16),
               CopyF{static_cast<Block16*>(out), static_cast<const Block16*>(in)});
}

}  // namespace gluon::qcd::bench
