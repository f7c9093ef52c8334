#pragma once
// Where real number r of object `obj` at site s lives in a field's storage.
//
//   FieldOrder::site_major  CPU layout: all reals of a site together (array of structures),
//                           offset = (s * nobj + obj) * nreals + r. The colour/spin loops of a site
//                           run over contiguous memory, which is what the compiler vectorises.
//   FieldOrder::blocked     GPU layout (QUDA paper V-B): structure of arrays of short vectors.
//                           The reals of an object are cut into blocks of `block` reals (16 bytes
//                           where that tiles the object exactly, else 8, else 4: float4, double2,
//                           short8 / float2, short4 / short2), and block b of all sites is
//                           contiguous, so consecutive threads (sites) load consecutive 16-byte
//                           words: offset = ((obj * nblocks + b) * stride + s) * block + r % block.
//                           stride = sites + pad; the pad is where ghost zones will be appended.
//   FieldOrder::tiled       CPU layout for code vectorised across sites (Grid's approach; the CPU
//                           Wilson and staggered dslash, dirac/cpu_simd.h): sites in tiles of W = `block` =
//                           kTiledSites = 8 consecutive sites, and inside a tile real r of object
//                           obj of the W sites contiguous (one 512-bit vector of doubles, one
//                           256-bit vector of floats): offset = ((s / W) * nobj * nreals
//                           + obj * nreals + r) * W + s % W. The number of sites must be a
//                           multiple of W (make_layout checks); no pad. One site's reals are W
//                           apart: site-at-a-time code (load_reals) reads them with a strided loop.
//
// For gauge fields obj = mu (4 objects a site), nreals = 18/12/8; for spinors obj = 0 and
// nreals = 24 (Dirac) or 6 (staggered colour vector).
#include <cstdint>
#include <cstring>

#include "gluon/runtime/hd.h"

namespace gluon::qcd {

enum class FieldOrder { site_major, blocked, tiled };

inline constexpr int kTiledSites = 8;  // W of FieldOrder::tiled

struct FieldLayout {
  FieldOrder order = FieldOrder::site_major;
  std::int64_t sites = 0;   // body sites
  std::int64_t stride = 0;  // sites + pad (blocked only)
  int nobj = 1;             // objects per site
  int nreals = 0;           // stored reals per object
  int block = 1;            // reals per block (blocked); nreals (site_major); W (tiled)

  GLUON_HD_INLINE int nblocks() const { return nreals / block; }
  GLUON_HD_INLINE std::int64_t offset(std::int64_t s, int obj, int r) const {
    if (order == FieldOrder::site_major) return (s * nobj + obj) * nreals + r;
#if !defined(__CUDA_ARCH__)
    // Host only (fields in device memory are never tiled: the field constructors refuse it): in
    // device code this branch's 64-bit division is a subroutine call, and its presence in every
    // kernel's never-taken per-real path turned the dslash's loads into generic LDs (H200, trip
    // 5 of bench/results/2026-11-24-dslash-solver-h200: Wilson single 6582 -> 3276 GFLOP/s).
    if (order == FieldOrder::tiled) {
      const std::int64_t t = s / block;
      return ((t * nobj + obj) * nreals + r) * block + (s - t * block);
    }
#endif
    const int b = r / block;
    return ((static_cast<std::int64_t>(obj) * nblocks() + b) * stride + s) * block + (r - b * block);
  }
  // Number of reals the storage holds (including the pad).
  GLUON_HD_INLINE std::int64_t size() const {
    return (order == FieldOrder::blocked ? stride : sites) * nobj * static_cast<std::int64_t>(nreals);
  }
};

// Reads / writes the N reals of object `obj` at site s. In the blocked order a block is one
// 16-, 8- or 4-byte word: it moves as one vector load/store (ld.global.v4 and friends on the GPU)
// instead of one instruction per real. Site-major stays a plain loop (the CPU compiler
// vectorises it).
//
// Every caller passes N == L.nreals (the accessors are dispatched on the field's own precision,
// reconstruct and spin count), so a blocked layout's block is a function of Store and N alone
// (make_layout's rule, blocked_block below). Device code relies on that: it has exactly one
// blocked path, with the block known at compile time and a 32-bit block index (make_layout
// refuses a blocked field of 2^32 blocks or more), besides the contiguous site-major loop (the
// BLAS kernels' flat view). Stencil kernels drop that loop too (BlockedOnDevice = true; their
// launchers check that the fields are blocked). Each never-taken path in a stencil kernel
// costs: a per-real path with an integer division per real made the Wilson kernels 26k SASS
// instructions, and other such paths turned their loads generic
// (bench/results/2026-11-24-dslash-solver-h200, -one-load-path-h200).
template <class Store, int K>
struct alignas(sizeof(Store) * K) RealBlock {
  Store v[K];
};

// The blocked order's block (reals) for objects of nreals reals of bytes_per_real bytes: the
// widest of 16, 8, 4 bytes that tiles nreals exactly, else one real. make_layout's rule, and at
// compile time (blocked_block) the block device code assumes.
constexpr int blocked_block_reals(int nreals, int bytes_per_real) {
  for (int bytes : {16, 8, 4}) {
    const int per = bytes / bytes_per_real;
    if (per >= 1 && nreals % per == 0) return per;
  }
  return 1;
}
template <class Store, int N>
constexpr int blocked_block() {
  return blocked_block_reals(N, static_cast<int>(sizeof(Store)));
}

#ifdef __CUDA_ARCH__
// One block loaded with the evict-first hint (ld.global.cs): for data a kernel reads once, so that
// it does not push data read again (a stencil's neighbour spinors) out of L1 and L2.
template <class B>
__device__ __forceinline__ B load_evict_first(const B* p) {
  B w;
  if constexpr (sizeof(B) == 16) {
    const int4 v = __ldcs(reinterpret_cast<const int4*>(p));
    memcpy(&w, &v, sizeof w);
  } else if constexpr (sizeof(B) == 8) {
    const int2 v = __ldcs(reinterpret_cast<const int2*>(p));
    memcpy(&w, &v, sizeof w);
  } else if constexpr (sizeof(B) == 4) {
    const int v = __ldcs(reinterpret_cast<const int*>(p));
    memcpy(&w, &v, sizeof w);
  } else {
    static_assert(sizeof(B) == 2, "blocks are 16, 8, 4 or 2 bytes");
    const short v = __ldcs(reinterpret_cast<const short*>(p));
    memcpy(&w, &v, sizeof w);
  }
  return w;
}
#endif

#ifdef __CUDA_ARCH__
// One block stored with the streaming hint (st.global.cs): output the kernel never reads again,
// kept from pushing its inputs (a stencil's neighbour spinors) out of L2. Its callers
// (SpinorAccessor::store_streaming, store_chiral) store Dirac spinors, whose blocks are 16 bytes
// in every precision (blocked_block).
template <class B>
__device__ __forceinline__ void store_evict_first(B* p, const B& w) {
  static_assert(sizeof(B) == 16, "streaming stores are for 16-byte blocks");
  int4 v;
  memcpy(&v, &w, sizeof v);
  __stcs(reinterpret_cast<int4*>(p), v);
}
#endif

// ReadOnce (device code): load with the evict-first hint (load_evict_first).
template <class Store, int N, int K, bool ReadOnce = false>
GLUON_HD_INLINE void load_blocks(const Store* data, const FieldLayout& L, std::int64_t s, int obj, Store* out) {
  static_assert(N % K == 0, "a block must tile the object");
#ifdef __CUDA_ARCH__
  using B = RealBlock<Store, K>;
  const B* base = reinterpret_cast<const B*>(data);
  const unsigned stride = static_cast<unsigned>(L.stride);
  const unsigned first = static_cast<unsigned>(obj) * (N / K) * stride + static_cast<unsigned>(s);
  GLUON_UNROLL
  for (int b = 0; b < N / K; ++b) {
    B w;
    if constexpr (ReadOnce) w = load_evict_first(base + first + b * stride);
    else w = base[first + b * stride];
    for (int k = 0; k < K; ++k) out[b * K + k] = w.v[k];
  }
#else
  for (int b = 0; b < N / K; ++b) {
    const Store* p = data + ((static_cast<std::int64_t>(obj) * (N / K) + b) * L.stride + s) * K;
    std::memcpy(out + b * K, p, sizeof(Store) * K);  // no type punning on the host
  }
#endif
}
// Streaming (device code): store with the evict-first hint (store_evict_first).
template <class Store, int N, int K, bool Streaming = false>
GLUON_HD_INLINE void store_blocks(Store* data, const FieldLayout& L, std::int64_t s, int obj, const Store* in) {
  static_assert(N % K == 0, "a block must tile the object");
#ifdef __CUDA_ARCH__
  using B = RealBlock<Store, K>;
  B* base = reinterpret_cast<B*>(data);
  const unsigned stride = static_cast<unsigned>(L.stride);
  const unsigned first = static_cast<unsigned>(obj) * (N / K) * stride + static_cast<unsigned>(s);
  GLUON_UNROLL
  for (int b = 0; b < N / K; ++b) {
    B w;
    for (int k = 0; k < K; ++k) w.v[k] = in[b * K + k];
    if constexpr (Streaming) store_evict_first(base + first + b * stride, w);
    else base[first + b * stride] = w;
  }
#else
  for (int b = 0; b < N / K; ++b) {
    Store* p = data + ((static_cast<std::int64_t>(obj) * (N / K) + b) * L.stride + s) * K;
    std::memcpy(p, in + b * K, sizeof(Store) * K);
  }
#endif
}

template <class Store, int N, bool BlockedOnDevice = false, bool ReadOnce = false>
GLUON_HD_INLINE void load_reals(const Store* data, const FieldLayout& L, std::int64_t s, int obj, Store* out) {
#ifdef __CUDA_ARCH__
  // Device fields are blocked or site-major (require_host_order refuses tiled), N == L.nreals.
  if (BlockedOnDevice || L.order == FieldOrder::blocked)
    return load_blocks<Store, N, blocked_block<Store, N>(), ReadOnce>(data, L, s, obj, out);
  const Store* p = data + (s * L.nobj + obj) * N;
  GLUON_UNROLL
  for (int r = 0; r < N; ++r) out[r] = p[r];
#else
  if (L.order == FieldOrder::blocked && L.block == blocked_block<Store, N>()) {
    return load_blocks<Store, N, blocked_block<Store, N>()>(data, L, s, obj, out);
  } else if (L.order == FieldOrder::tiled) {  // the object's N reals are W apart
    const std::int64_t t = s / L.block;
    const Store* p = data + ((t * L.nobj + obj) * L.nreals) * L.block + (s - t * L.block);
    GLUON_UNROLL
    for (int r = 0; r < N; ++r) out[r] = p[r * L.block];
    return;
  } else if (L.order == FieldOrder::site_major && L.nreals == N) {  // the object's N reals are contiguous
    const Store* p = data + (s * L.nobj + obj) * N;
    GLUON_UNROLL
    for (int r = 0; r < N; ++r) out[r] = p[r];
    return;
  }
  for (int r = 0; r < N; ++r) out[r] = data[L.offset(s, obj, r)];
#endif
}
template <class Store, int N, bool BlockedOnDevice = false, bool Streaming = false>
GLUON_HD_INLINE void store_reals(Store* data, const FieldLayout& L, std::int64_t s, int obj, const Store* in) {
#ifdef __CUDA_ARCH__
  if (BlockedOnDevice || L.order == FieldOrder::blocked)
    return store_blocks<Store, N, blocked_block<Store, N>(), Streaming>(data, L, s, obj, in);
  Store* p = data + (s * L.nobj + obj) * N;
  GLUON_UNROLL
  for (int r = 0; r < N; ++r) p[r] = in[r];
#else
  if (L.order == FieldOrder::blocked && L.block == blocked_block<Store, N>()) {
    return store_blocks<Store, N, blocked_block<Store, N>()>(data, L, s, obj, in);
  } else if (L.order == FieldOrder::tiled) {
    const std::int64_t t = s / L.block;
    Store* p = data + ((t * L.nobj + obj) * L.nreals) * L.block + (s - t * L.block);
    GLUON_UNROLL
    for (int r = 0; r < N; ++r) p[r * L.block] = in[r];
    return;
  } else if (L.order == FieldOrder::site_major && L.nreals == N) {
    Store* p = data + (s * L.nobj + obj) * N;
    GLUON_UNROLL
    for (int r = 0; r < N; ++r) p[r] = in[r];
    return;
  }
  for (int r = 0; r < N; ++r) data[L.offset(s, obj, r)] = in[r];
#endif
}

// The Count reals [first, first + Count) of object obj (N reals) at site s, `first` a multiple of
// Count (a run-time value: which of a pair of threads sharing a site, for kernels that split a
// site over two threads). Device code assumes the blocked order: there the span is object
// (obj N + first) / Count of Count reals, whose blocks (of the N-real object's width) are its
// blocks, moved by store_blocks / load_blocks. The host takes any order, real by real.
template <class Store, int N, int Count, bool Streaming = false>
GLUON_HD_INLINE void store_reals_span(Store* data, const FieldLayout& L, std::int64_t s, int obj, int first,
                                      const Store* in) {
  static_assert(N % Count == 0, "a span must tile the object");
#ifdef __CUDA_ARCH__
  store_blocks<Store, Count, blocked_block<Store, N>(), Streaming>(data, L, s, (obj * N + first) / Count, in);
#else
  for (int r = 0; r < Count; ++r) data[L.offset(s, obj, first + r)] = in[r];
#endif
}
template <class Store, int N, int Count>
GLUON_HD_INLINE void load_reals_span(const Store* data, const FieldLayout& L, std::int64_t s, int obj, int first,
                                     Store* out) {
  static_assert(N % Count == 0, "a span must tile the object");
#ifdef __CUDA_ARCH__
  load_blocks<Store, Count, blocked_block<Store, N>()>(data, L, s, (obj * N + first) / Count, out);
#else
  for (int r = 0; r < Count; ++r) out[r] = data[L.offset(s, obj, first + r)];
#endif
}

// Builds a layout; for blocked, the block is blocked_block_reals (InputError at 2^32 blocks or
// more); for tiled, W = kTiledSites (InputError when `sites` is not a multiple of W).
FieldLayout make_layout(FieldOrder order, std::int64_t sites, std::int64_t pad, int nobj, int nreals,
                        int bytes_per_real);

// InputError naming `what` when a field in device memory asks for the tiled order (a CPU layout,
// which device code does not read). Called by the field constructors.
void require_host_order(FieldOrder order, bool device_memory, const char* what);

// InputError naming `what` unless the layout is blocked: the stencil kernels' device code reads the
// blocked order only (BlockedOnDevice accessors); their launchers call this on the GPU.
void require_blocked(const FieldLayout& layout, const char* what);

// "site_major", "blocked", "tiled" (host)
const char* to_string(FieldOrder order);

}  // namespace gluon::qcd
