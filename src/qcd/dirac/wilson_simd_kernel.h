#pragma once
// Private: the entry points of the vector Wilson kernels (wilson_simd.h says when they run).
// Plain data only, and no library header: the files that define these functions are compiled for
// x86-64-v4, and an inline library function instantiated there could be picked by the linker for
// baseline callers.
#include <cstdint>

#include "cpu_simd_kernel.h"

namespace gluon::qcd::detail {

// What a vector kernel needs. Site indices are even-odd indices (geometry.h); a shift is
// subtracted from a site's index to find it in a field that holds one parity only.
struct WilsonSimdArgs {
  const void* u = nullptr;       // tiled links of the whole lattice (4 objects of nreals)
  const void* u_back = nullptr;  // the same layout: u_back(x, mu) = u(x - mu, mu)
  void* out = nullptr;           // tiled spinors (24 reals)
  const void* in = nullptr;
  const void* x = nullptr;       // xpay term, or nullptr
  const void* clover = nullptr;  // tiled clover field (2 blocks of 36 reals), for fuse 1 and 2
  // Half precision: the fields' per-site norms (clover: per site and block, [2 s + b]).
  float* out_norm = nullptr;
  const float* in_norm = nullptr;
  const float* x_norm = nullptr;
  const float* clover_norm = nullptr;
  int fuse = 0;                  // DslashFuse (wilson_internal.h)
  int nreals = 18;               // 18 or 12
  int dims[4] = {0, 0, 0, 0};
  int parity = 0;
  std::int64_t half = 0;
  std::int64_t out_shift = 0, in_shift = 0, x_shift = 0;  // 0 (full field) or half (one parity)
  double a = 1.0;
  bool dagger = false;
  bool stream_out = false;  // write out with non-temporal stores (cpu_simd_stream_stores)
  int prefetch = 0;         // CpuPrefetch (cpu_simd_prefetch)
  int prefetch_distance = 2;  // tiles ahead (cpu_simd_prefetch_distance)
  bool prefetch_l2 = false;   // prefetch into L2 only (cpu_simd_prefetch_l2)
  bool tile_pairs = false;  // single and half: two tiles a task where T % 4 == 0 (cpu_simd_tile_pairs)
  int block_rows = 0;       // y-rows a block of each thread's sweep over t; 0: all (cpu_simd_block_rows)
  double phase_f[4] = {1, 1, 1, 1}, phase_b[4] = {1, 1, 1, 1};
};

// Defined in the x86-64-v4 (avx512) and x86-64-v3 (avx2) files; they return false when that
// file was compiled without its instruction set (a non-x86 build), so callers need no build flag.
namespace avx512 {
bool wilson_simd_double(const WilsonSimdArgs& a);     // r18, r12
bool wilson_simd_double_r8(const WilsonSimdArgs& a);  // r8 (LinkSet)
bool wilson_simd_single(const WilsonSimdArgs& a);         // the plain hop (fuse 0)
bool wilson_simd_single_clover(const WilsonSimdArgs& a);  // fuse 1 and 2
bool wilson_simd_half(const WilsonSimdArgs& a);  // int16 storage, computed in float; fuse 0
bool wilson_simd_half_clover(const WilsonSimdArgs& a);
}  // namespace avx512
namespace avx2 {
bool wilson_simd_double(const WilsonSimdArgs& a);
bool wilson_simd_single(const WilsonSimdArgs& a);
bool wilson_simd_single_clover(const WilsonSimdArgs& a);
bool wilson_simd_half(const WilsonSimdArgs& a);
bool wilson_simd_half_clover(const WilsonSimdArgs& a);
// Half-tile tasks, every epilogue and link compression, where X/2 = 4 mod 8 (in double the
// x86-64-v3 kernel's tasks are half tiles already: wilson_simd_double).
bool wilson_simd_single_narrow(const WilsonSimdArgs& a);
bool wilson_simd_half_narrow(const WilsonSimdArgs& a);
}  // namespace avx2

}  // namespace gluon::qcd::detail
