#pragma once
// Private: the entry points of the vector staggered kernels (staggered_simd.h says when they
// run). Plain data only, and no library header (cpu_simd_kernel.h says why).
#include <cstdint>

#include "cpu_simd_kernel.h"

namespace gluon::qcd::detail {

// Tasks whose Re <x, out> one partial sum holds (the dot of M_dot): fixed, so that the sum does
// not depend on the number of threads.
inline constexpr int kStaggeredDotChunk = 16;

// Sites a task: a whole tile, or half a tile where X/2 = 4 mod 8 (the *_narrow entry points).
constexpr int kStaggeredLanes(bool half_tiles) { return half_tiles ? kTileSites / 2 : kTileSites; }

// One parity of out = c_fat D_fat in + c_long D_long in (+ beta x) (staggered_kernels.h's
// formula). Site indices are even-odd indices (geometry.h); a shift is subtracted from a site's
// index to find it in a field that holds one parity only.
struct StaggeredSimdArgs {
  const void* fat = nullptr;   // tiled one-hop links of the whole lattice (thin for naive)
  const void* lng = nullptr;   // tiled three-hop links, nullptr for naive
  // The backward links stored at the site they act on: fat_back(x, mu) = fat(x - mu, mu),
  // long_back(x, mu) = long(x - 3 mu, mu) (Grid's doubled gauge field). A tile's 8 (16) links
  // are then 2 (4) contiguous streams instead of 5 (10) spread over the neighbouring rows; the
  // traffic of a one-parity dslash is the same. Required.
  const void* fat_back = nullptr;
  const void* long_back = nullptr;
  void* out = nullptr;         // tiled colour vectors (6 reals)
  const void* in = nullptr;
  const void* x = nullptr;     // xpay term, or nullptr
  // Half precision: the vectors' per-site norms.
  float* out_norm = nullptr;
  const float* in_norm = nullptr;
  const float* x_norm = nullptr;
  int fat_nreals = 18;         // 18 or 12
  int long_nreals = 18;        // 18 or 12 (improved only)
  int dims[4] = {0, 0, 0, 0};
  int parity = 0;              // of the output sites
  std::int64_t half = 0;
  std::int64_t out_shift = 0, in_shift = 0, x_shift = 0;  // 0 (full field) or half (one parity)
  double c_fat = 0.5, c_long = 0.5, beta = 0.0;
  int origin_parity[4] = {0, 0, 0, 0};  // eta_mu(x) from local coordinates (staggered_dslash.h)
  int antiperiodic[4] = {0, 0, 0, 0};
  // Dimensions cut between ranks: a hop that wraps around one is skipped (the exterior kernels
  // add the ghosts' hops).
  int cut[4] = {0, 0, 0, 0};
  // With x: Re <x, out> of tasks [c kStaggeredDotChunk, (c + 1) kStaggeredDotChunk) into
  // dot_partials[c], in double from the values before the store rounds them; nullptr: no dot.
  double* dot_partials = nullptr;
  // Half-tile tasks in single precision: two a task, a half tile and its partner T/2 slices on,
  // where T % 4 == 0 (staggered_simd_impl.h's Pair; cpu_simd_tile_pairs). The tasks are then
  // half / kTileSites (dot_partials' chunks count them).
  bool tile_pairs = false;
  bool stream_out = false;  // write out with non-temporal stores (cpu_simd_stream_stores)
  int prefetch = 0;         // CpuPrefetch (cpu_simd_prefetch)
};

// Defined in the x86-64-v4 (avx512) and x86-64-v3 (avx2) files; they return false when that
// file was compiled without its instruction set (a non-x86 build) or for arguments they do not
// take, so callers need no build flag.
namespace avx512 {
bool staggered_simd_double(const StaggeredSimdArgs& a);
bool staggered_simd_single(const StaggeredSimdArgs& a);     // fat r18, r12, improved
bool staggered_simd_single_r8(const StaggeredSimdArgs& a);  // naive r8 (LinkSet)
bool staggered_simd_half(const StaggeredSimdArgs& a);  // int16 storage, computed in float
}  // namespace avx512
namespace avx2 {
bool staggered_simd_double(const StaggeredSimdArgs& a);
bool staggered_simd_single(const StaggeredSimdArgs& a);
bool staggered_simd_half(const StaggeredSimdArgs& a);
// Half-tile tasks, where X/2 = 4 mod 8 (kStaggeredLanes), every link set.
bool staggered_simd_double_narrow(const StaggeredSimdArgs& a);
bool staggered_simd_single_narrow(const StaggeredSimdArgs& a);
bool staggered_simd_half_narrow(const StaggeredSimdArgs& a);
}  // namespace avx2

}  // namespace gluon::qcd::detail
