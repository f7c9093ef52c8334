// When the vector CPU kernels can run (cpu_simd.h).
#include "cpu_simd.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "gluon/qcd/dirac/dirac.h"
#include "gluon/qcd/field_layout.h"
#include "gluon/qcd/reconstruct.h"
#include "gluon/runtime/device_info.h"
#include "gluon/runtime/error.h"

namespace gluon::qcd::detail {

static_assert(kTileSites == kTiledSites, "the vector kernels' tile is the tiled order's");
static_assert(kSimdR8HalfSlot0Scale == kR8HalfSlot0Scale && kSimdR8HalfSlot1Scale == kR8HalfSlot1Scale,
              "the vector kernels read half r8 angle slots as reconstruct.h stores them");

int cpu_simd_lanes() { return kTileSites; }

CpuSimdIsa cpu_simd_isa() {
  static const CpuSimdIsa isa = [] {
    const char* e = std::getenv("GLUON_CPU_SIMD");
    if (e && std::strcmp(e, "0") == 0) return CpuSimdIsa::none;
    const bool avx2_only = e && std::strcmp(e, "avx2") == 0;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    if (!avx2_only && avx512::compiled() && __builtin_cpu_supports("avx512f") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512cd"))
      return CpuSimdIsa::avx512;
    if (avx2::compiled() && __builtin_cpu_supports("x86-64-v3")) return CpuSimdIsa::avx2;
#endif
    (void)avx2_only;
    return CpuSimdIsa::none;
  }();
  return isa;
}

const char* cpu_simd_isa_name(CpuSimdIsa isa) {
  switch (isa) {
    case CpuSimdIsa::avx512: return "avx512";
    case CpuSimdIsa::avx2: return "avx2";
    case CpuSimdIsa::none: break;
  }
  return "none";
}

bool cpu_simd_available() { return cpu_simd_isa() != CpuSimdIsa::none; }


bool cpu_simd_fits(const Geometry& g) {
  // (Any process grid: local extents are even and start at even global coordinates, so local
  // and global parities agree, and hops across a cut are the exterior kernels'.)
  const int half_tile = cpu_simd_lanes() / 2;
  // Every half tile in one x-row, and whole tiles in the parity (the tiled order's blocks).
  return (g.local_dims()[0] / 2) % half_tile == 0 && g.half_volume() % cpu_simd_lanes() == 0;
}

bool cpu_simd_stream_stores(double bytes, bool auto_by_default) {
  const char* e = std::getenv("GLUON_CPU_STREAM_STORES");  // read at each call (tests, bench --ab-env)
  if (!e || !*e) {
    if (!auto_by_default) return false;
  } else if (std::strcmp(e, "1") == 0) {
    return true;
  } else if (std::strcmp(e, "0") == 0) {
    return false;
  } else if (std::strcmp(e, "auto") != 0) {
    throw InputError(std::string("GLUON_CPU_STREAM_STORES: expected 0, 1 or auto, found '") + e + "'");
  }
  static const double llc = [] {
    const std::size_t b = runtime::host_info().last_level_cache;
    return b > 0 ? static_cast<double>(b) : 32.0 * 1024 * 1024;
  }();
  return bytes > llc;
}

CpuPrefetch cpu_simd_prefetch(CpuPrefetch unset) {
  const char* e = std::getenv("GLUON_CPU_PREFETCH");  // read at each call (bench dslash --ab-env)
  if (!e || !*e) return unset;
  if (std::strcmp(e, "ahead") == 0) return CpuPrefetch::ahead;
  if (std::strcmp(e, "all") == 0) return CpuPrefetch::all;
  if (std::strcmp(e, "spinors") == 0) return CpuPrefetch::spinors;
  if (std::strcmp(e, "none") == 0) return CpuPrefetch::none;
  throw InputError(std::string("GLUON_CPU_PREFETCH: expected all, spinors, ahead or none, found '") + e + "'");
}

int cpu_simd_prefetch_distance(int unset) {
  const char* e = std::getenv("GLUON_CPU_PREFETCH_DISTANCE");  // read at each call (bench dslash --ab-env)
  if (!e || !*e) return unset;
  char* end = nullptr;
  const long d = std::strtol(e, &end, 10);
  if (*end != '\0' || d < 1 || d > 64)
    throw InputError(std::string("GLUON_CPU_PREFETCH_DISTANCE: expected tiles ahead, 1 to 64, found '") + e + "'");
  return static_cast<int>(d);
}

bool cpu_simd_prefetch_l2() {
  const char* e = std::getenv("GLUON_CPU_PREFETCH_LEVEL");  // read at each call (bench dslash --ab-env)
  if (!e || !*e || std::strcmp(e, "l1") == 0) return false;
  if (std::strcmp(e, "l2") == 0) return true;
  throw InputError(std::string("GLUON_CPU_PREFETCH_LEVEL: expected l1 or l2, found '") + e + "'");
}

int cpu_simd_block_rows(int auto_rows) {
  const char* e = std::getenv("GLUON_CPU_BLOCK_ROWS");  // read at each call (bench dslash --ab-env)
  if (!e || !*e || std::strcmp(e, "auto") == 0) return auto_rows;
  char* end = nullptr;
  const long b = std::strtol(e, &end, 10);
  if (*end != '\0' || b < 0 || b > 65536)
    throw InputError(std::string("GLUON_CPU_BLOCK_ROWS: expected auto or y-rows a block, 0 (no blocks) to 65536, found '") +
                     e + "'");
  return static_cast<int>(b);
}

int cpu_simd_l2_block_rows(const int dims[4], double bytes_per_site, int threads) {
  static const double l2 = static_cast<double>(runtime::host_info().l2_cache);
  static const double llc = static_cast<double>(runtime::host_info().last_level_cache);
  if (l2 <= 0 || threads < 1) return 0;
  const double sites = static_cast<double>(dims[0]) * dims[1] * dims[2] * dims[3] / 2;
  if (llc > 0 && sites * bytes_per_site <= 2 * llc) return 0;  // much of it stays in the L3 anyway
  const std::int64_t yz = static_cast<std::int64_t>(dims[1]) * dims[2];
  std::int64_t planes = 1;  // the most z values one thread's rows span (the kernels' split of Y Z)
  for (std::int64_t id = 0; id < threads; ++id) {
    const std::int64_t q0 = yz * id / threads, q1 = yz * (id + 1) / threads;
    if (q1 > q0) planes = std::max(planes, (q1 - 1) / dims[1] - q0 / dims[1] + 1);
  }
  const double row_bytes = dims[0] / 2.0 * bytes_per_site;
  const double rows = std::floor(l2 / 4.0 / (static_cast<double>(planes) * row_bytes));
  return rows < 1 ? 1 : (rows >= dims[1] ? 0 : static_cast<int>(rows));
}

bool cpu_simd_tile_pairs(bool auto_default) {
  const char* e = std::getenv("GLUON_CPU_TILE_PAIRS");  // read at each call (tests, bench --ab-env)
  if (!e || !*e || std::strcmp(e, "auto") == 0) return auto_default;
  if (std::strcmp(e, "1") == 0) return true;
  if (std::strcmp(e, "0") == 0) return false;
  throw InputError(std::string("GLUON_CPU_TILE_PAIRS: expected 0, 1 or auto, found '") + e + "'");
}

namespace {
template <class T>
void fill_backward(GaugeField& b, const GaugeField& u, int dist) {
  const SiteIndexer idx = u.geometry().indexer();
  const FieldLayout& L = u.layout();
  const T* src = static_cast<const T*>(u.data());
  T* dst = static_cast<T*>(b.data());
  const int n = L.nreals;
#pragma omp parallel for schedule(static)
  for (std::int64_t s = 0; s < idx.volume; ++s)
    for (int mu = 0; mu < 4; ++mu) {
      const std::int64_t t = idx.neighbour(s, mu, -dist);
      for (int r = 0; r < n; ++r) dst[L.offset(s, mu, r)] = src[L.offset(t, mu, r)];
    }
}
}  // namespace

GaugeField backward_links(const GaugeField& u, int dist) {
  GaugeField b(u.params());
  if (u.params().precision == Precision::double_) fill_backward<double>(b, u, dist);
  else if (u.params().precision == Precision::single) fill_backward<float>(b, u, dist);
  else fill_backward<std::int16_t>(b, u, dist);  // half: the links carry no norms
  return b;
}

}  // namespace gluon::qcd::detail

namespace gluon::qcd {
const char* cpu_vector_isa() { return detail::cpu_simd_isa_name(detail::cpu_simd_isa()); }
}  // namespace gluon::qcd
