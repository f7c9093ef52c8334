// When the vector CPU kernels can run (cpu_simd.h).
#include "cpu_simd.h"

#include <cstdlib>
#include <cstring>

#include "gluon/qcd/field_layout.h"

namespace gluon::qcd::detail {

static_assert(kTileSites == kTiledSites, "the vector kernels' tile is the tiled order's");

int cpu_simd_lanes() { return kTileSites; }

bool cpu_simd_available() {
  static const bool ok = [] {
    if (const char* e = std::getenv("GLUON_CPU_SIMD"); e && std::strcmp(e, "0") == 0) return false;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (!cpu_simd_compiled()) return false;
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512cd");
#else
    return false;
#endif
  }();
  return ok;
}

bool cpu_simd_fits(const Geometry& g, Precision p) {
  if (p != Precision::double_ && p != Precision::single) return false;
  for (int mu = 0; mu < 4; ++mu)
    if (g.grid()[mu] != 1) return false;
  return (g.local_dims()[0] / 2) % cpu_simd_lanes() == 0;
}

}  // namespace gluon::qcd::detail
