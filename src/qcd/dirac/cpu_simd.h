#pragma once
// Private: when the CPU kernels vectorised across sites (Grid's approach) can run, for the tiled
// field order (field_layout.h) of the CPU Wilson/clover and staggered operators.
//
//   cpu_simd_lanes()           W = 8, the sites one vector holds (8 doubles in a 512-bit
//                              register, 8 floats in a 256-bit one); the tiled order's tile
//   cpu_simd_isa()             which build of the vector kernels runs here: avx512 where they
//                              were compiled for x86-64-v4 and this CPU has AVX-512 F/BW/CD/DQ/VL,
//                              else avx2 where they were compiled for x86-64-v3 and this CPU is
//                              x86-64-v3 (AVX2, FMA, BMI1/2, ...), else none. GLUON_CPU_SIMD=0
//                              gives none (the scalar kernels, for comparison), =avx2 the avx2
//                              build on an AVX-512 CPU
//   cpu_simd_isa_name(isa)     "avx512", "avx2", "none"
//   cpu_simd_available()       cpu_simd_isa() != none
//   cpu_simd_fits(geometry)    the lattice allows the vector path: this rank's block has
//                              X/2 a multiple of W/2 = 4 (where it is 4 mod 8 the
//                              kernels take half-tile tasks: wilson_simd_impl.h's
//                              Tasks::half_tile; the precisions and link compressions each
//                              kernel takes: wilson_simd.h, staggered_simd.h)
//   cpu_simd_stream_stores(bytes, auto_by_default)
//                              whether a kernel that moves `bytes` (every field it reads and
//                              writes) writes its output with non-temporal stores: a plain store
//                              first reads the line it overwrites (write-allocate), a
//                              non-temporal one does not, but it holds a fill buffer until the
//                              line reaches memory and leaves nothing in the cache for the next
//                              kernel. GLUON_CPU_STREAM_STORES (read at each call): 1 on, 0 off,
//                              auto on where bytes exceed the last-level cache (HostInfo's;
//                              32 MiB when it says none); unset, auto for the Wilson kernel
//                              (auto_by_default) and off for the staggered ones. Compared inside
//                              one process on the 16-core Xeon host at 48^4, streaming made the
//                              Wilson/clover double and single dslash 3-12% faster and half
//                              -2..+2%, naive staggered +4%, improved staggered -3%
//                              (bench/results/2026-11-27-cpu-link-prefetch; across processes the
//                              host's spread had hidden it: 2026-11-26-cpu-stream-stores)
//   cpu_simd_prefetch(unset)   what the vector kernels prefetch (into L1) two tiles ahead
//                              (GLUON_CPU_PREFETCH, read at each call; `unset` when it is not
//                              set): all (every stream, the default before 2026-11-27), ahead
//                              (of the input only the row at t + d, which the sweep has not read
//                              yet; out and x), spinors (the input rows, out and x; the links and
//                              the clover field, read once in long runs, left to the hardware
//                              prefetchers) or none. Unset: ahead for Wilson and clover, and for
//                              staggered except naive staggered in double and single with
//                              r18/r12 links (all). Compared inside one process on the Xeon host
//                              (bench/results/2026-11-27-cpu-link-prefetch): Wilson/clover ahead
//                              2-16% faster than all in 22 of 26 comparisons; staggered 1-25%
//                              faster except naive double/single r12 (0.92-1.05 of all)
//   cpu_simd_prefetch_distance(unset), cpu_simd_prefetch_l2()
//                              how many tiles ahead the Wilson kernels prefetch
//                              (GLUON_CPU_PREFETCH_DISTANCE, 1-64; unset: `unset`, 2) and whether
//                              into L2 only (GLUON_CPU_PREFETCH_LEVEL=l2: prefetcht1) rather than
//                              L1 (l1, unset), both read at each call. On the Xeon host no
//                              setting beat 2 and l1 (0.97-1.02 inside one process at 48^4); on a
//                              Zen 4 VM l2 made Wilson half 1.13x faster
//                              (bench/results/2026-11-27-cpu-prefetch-level)
//   cpu_simd_tile_pairs(auto_default)
//                              whether the vector kernels take two tiles a task where T is a
//                              multiple of 4: the Wilson kernels in single and half precision
//                              two whole tiles (16 floats a vector) or two half tiles (8), the
//                              staggered ones in single two half tiles (wilson_simd_impl.h,
//                              staggered_simd_impl.h): GLUON_CPU_TILE_PAIRS (read at each call)
//                              1 on, 0 off, auto (or unset) the caller's auto_default
//                              (wilson_simd.cpp: whole-tile pairs only with the avx512 build,
//                              where 16 floats are one register, and half-tile pairs in single;
//                              staggered_simd.cpp: half-tile pairs in single)
//   cpu_simd_block_rows(auto_rows), cpu_simd_l2_block_rows(dims, bytes_per_site, threads)
//                              how many values of y a block of the Wilson kernels' sweep takes
//                              (wilson_simd_impl.h's SweepOrder): each thread sweeps its rows
//                              over t a block at a time, so that the input rows it reads again
//                              at t + 1 and t + 2 stay in its L2. GLUON_CPU_BLOCK_ROWS (read at
//                              each call): 0 no blocks (the thread's whole range each slice, the
//                              order before 2026-11-28), N rows, auto (or unset) auto_rows. The
//                              L2 rule: a block's rows of one slice move a quarter of one core's
//                              L2 (HostInfo's; 0, no blocks, when it is unknown), counting
//                              bytes_per_site for every site of the rows of all the z a thread
//                              spans (the most of any thread); no blocks where one call's bytes
//                              (bytes_per_site a site of one parity) are at most twice the
//                              last-level cache, which then serves the whole sweep's reuse
//   backward_links(u, d)       the links U_mu(x - d mu) stored at x, in u's storage (Grid's
//                              doubled gauge field): the vector kernels read a
//                              tile's backward links there, in one contiguous stream per
//                              direction, instead of from 4 (8) neighbouring rows. Twice the link
//                              memory, the same traffic a dslash (d = 1 Wilson and fat, 3 long)
//
// The kernels: wilson_simd.h, staggered_simd.h. Their *_avx512.cpp and *_avx2.cpp files are the
// only ones compiled for x86-64-v4 and x86-64-v3 (src/CMakeLists.txt): everything else stays
// baseline x86-64, so one binary runs on any x86-64 CPU, and the path is chosen at run time.
#include "cpu_simd_kernel.h"
#include "gluon/qcd/gauge_field.h"
#include "gluon/qcd/geometry.h"
#include "gluon/qcd/precision.h"

namespace gluon::qcd::detail {

int cpu_simd_lanes();
CpuSimdIsa cpu_simd_isa();
const char* cpu_simd_isa_name(CpuSimdIsa isa);
bool cpu_simd_available();
bool cpu_simd_fits(const Geometry& g);
bool cpu_simd_stream_stores(double bytes, bool auto_by_default);
CpuPrefetch cpu_simd_prefetch(CpuPrefetch unset);
int cpu_simd_prefetch_distance(int unset);
bool cpu_simd_prefetch_l2();
bool cpu_simd_tile_pairs(bool auto_default);
int cpu_simd_block_rows(int auto_rows);
int cpu_simd_l2_block_rows(const int dims[4], double bytes_per_site, int threads);
GaugeField backward_links(const GaugeField& u, int dist);

}  // namespace gluon::qcd::detail
