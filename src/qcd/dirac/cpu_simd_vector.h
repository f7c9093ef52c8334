#pragma once
// Private: the vector type of the CPU kernels vectorised across the W sites of a tile
// (FieldOrder::tiled, field_layout.h): Simd<T>, with loads, stores, lane windows and complex
// arithmetic on W complex numbers at once. Included only by the *_avx512.cpp and *_avx2.cpp kernels
// (through wilson_simd_impl.h, staggered_simd_impl.h), so everything here has internal linkage and
// includes no header with inline functions: those files are compiled for x86-64-v4 and x86-64-v3,
// and an inline function instantiated there could be picked by the linker for baseline callers.
//
// The code is written once in GCC's generic vectors. With AVX-512 (x86-64-v4) a vector of 8
// doubles is one zmm register and 8 floats one ymm; with AVX2 and FMA (x86-64-v3) the compiler
// splits the 8 doubles into two ymm registers, of which there are 16, not 32 (the Wilson kernel
// therefore takes half tiles in double there: Simd's L). GLUON_CPU_SIMD says that the file's
// target has at least x86-64-v3; the few intrinsics below pick their instruction by __AVX512F__.
#include <cstdint>

#include "cpu_simd_kernel.h"  // kTileSites

#if defined(__AVX2__) && defined(__FMA__)
#define GLUON_CPU_SIMD 1
#endif

#if defined(GLUON_CPU_SIMD)

#include <immintrin.h>  // always-inline intrinsics only: nothing the linker could pick

#define GLUON_SIMD_INLINE inline __attribute__((always_inline))

namespace gluon::qcd::detail {
namespace {

// L lanes of T, the integer mask of the same shape, and L int16 and L int32 (half precision).
// (Spelled out per L: GCC takes no vector_size that depends on a template parameter.)
template <class T, int L> struct VecOf;
template <> struct VecOf<double, 8> {
  typedef double type __attribute__((vector_size(64)));
  typedef long long mask __attribute__((vector_size(64)));
  typedef short i16 __attribute__((vector_size(16)));
  typedef int i32 __attribute__((vector_size(32)));
};
template <> struct VecOf<double, 4> {
  typedef double type __attribute__((vector_size(32)));
  typedef long long mask __attribute__((vector_size(32)));
  typedef short i16 __attribute__((vector_size(8)));
  typedef int i32 __attribute__((vector_size(16)));
};
template <> struct VecOf<float, 8> {
  typedef float type __attribute__((vector_size(32)));
  typedef int mask __attribute__((vector_size(32)));
  typedef short i16 __attribute__((vector_size(16)));
  typedef int i32 __attribute__((vector_size(32)));
};
// 4 floats: half a tile, for kernels whose x-rows hold X/2 = 4 mod 8 sites (wilson_simd_impl.h's
// half-tile tasks).
template <> struct VecOf<float, 4> {
  typedef float type __attribute__((vector_size(16)));
  typedef int mask __attribute__((vector_size(16)));
  typedef short i16 __attribute__((vector_size(8)));
  typedef int i32 __attribute__((vector_size(16)));
};
// 16 floats: two tiles at once, for arithmetic only (cpu_simd_r8.h's pair rebuild; one zmm
// register with AVX-512).
template <> struct VecOf<float, 16> {
  typedef float type __attribute__((vector_size(64)));
  typedef int mask __attribute__((vector_size(64)));
  typedef short i16 __attribute__((vector_size(32)));
  typedef int i32 __attribute__((vector_size(64)));
};

// W = L sites a vector. By default a whole tile (kTileSites = 8 in either precision); a kernel
// may take W = 4, half a tile, where 8 doubles would need two registers each (AVX2) or where an
// x-row is no whole number of tiles: real r of the W sites from site s is then at tile(s) +
// r kStride + s % kStride, still one aligned load.
template <class T, int L = kTileSites>
struct Simd {
  using V = typename VecOf<T, L>::type;
  using M = typename VecOf<T, L>::mask;
  static constexpr int W = L;
  static constexpr int kStride = kTileSites;  // between reals of a tile in memory (the tiled order)
  // (W = 2 kStride: two tiles at once, for arithmetic on values already loaded.)
  static_assert(sizeof(V) == W * sizeof(T) && (kStride % W == 0 || W == 2 * kStride));

  struct C {  // W complex numbers
    V re, im;
  };
  // 0, 1, .., W - 1
  static constexpr M iota() {
    if constexpr (W == 8) return M{0, 1, 2, 3, 4, 5, 6, 7};
    else return M{0, 1, 2, 3};
  }

  static GLUON_SIMD_INLINE V load(const T* p) {
    V v;
    __builtin_memcpy(&v, __builtin_assume_aligned(p, sizeof(V)), sizeof(V));
    return v;
  }
  static GLUON_SIMD_INLINE void store(T* p, V v) {
    __builtin_memcpy(__builtin_assume_aligned(p, sizeof(V)), &v, sizeof(V));
  }
  // The same store, non-temporal: the line is written to memory without being read into the
  // cache first (a plain store's write-allocate reads every output line it then overwrites).
  // Whole tiles only (store(p, v, nt) with W = kStride): a tile's reals fill whole lines, written
  // one after another.
  // The caller fences (stream_fence) before another thread may read the data.
  static GLUON_SIMD_INLINE void store_nt(T* p, V v) {
    static_assert(W == kStride, "a whole tile: 8 doubles (64 bytes) or 8 floats (32 bytes)");
    if constexpr (sizeof(T) == 8) {
#if defined(__AVX512F__)
      __m512d x;
      __builtin_memcpy(&x, &v, sizeof x);
      _mm512_stream_pd(static_cast<double*>(__builtin_assume_aligned(p, 64)), x);
#else
      __m256d x[2];
      __builtin_memcpy(x, &v, sizeof x);
      _mm256_stream_pd(static_cast<double*>(__builtin_assume_aligned(p, 32)), x[0]);
      _mm256_stream_pd(static_cast<double*>(__builtin_assume_aligned(p + 4, 32)), x[1]);
#endif
    } else {
      __m256 x;
      __builtin_memcpy(&x, &v, sizeof x);
      _mm256_stream_ps(static_cast<float*>(__builtin_assume_aligned(p, 32)), x);
    }
  }
  static GLUON_SIMD_INLINE void store(T* p, V v, bool nt) {
    if constexpr (W == kStride) {
      if (nt) return store_nt(p, v);
    }
    store(p, v);
  }
  // Half precision storage (precision.h): W int16 of W consecutive sites, as reals (exact; the
  // caller applies the scale).
  static GLUON_SIMD_INLINE V load(const std::int16_t* p) { return real(load_int(p)); }
  // Half precision as integers: W int32 lanes (exact sums of stored integers, no rounding), so
  // that sums of two stored values are taken before the conversion to reals.
  using VI = typename VecOf<T, L>::i32;
  struct CI {  // W complex integers
    VI re, im;
  };
  static GLUON_SIMD_INLINE VI load_int(const std::int16_t* p) {
    if constexpr (sizeof(VI) == 32) {
      // One vpmovsxwd from memory. GCC 12 lowers __builtin_convertvector of 8 int16 to 8 int32
      // as two 4-lane halves (load, byte shift, two vpmovsxwd, vinserti128), and to 8 floats
      // with two conversions and a vinsertf128 on top: a fifth of the half Wilson kernel's
      // instructions (bench/results/2026-11-26-cpu-half-loads/).
      const auto* q = static_cast<const __m128i*>(__builtin_assume_aligned(p, 16));
      const __m256i i = _mm256_cvtepi16_epi32(_mm_load_si128(q));
      VI v;
      __builtin_memcpy(&v, &i, sizeof v);
      return v;
    } else {
      typename VecOf<T, L>::i16 h;
      __builtin_memcpy(&h, __builtin_assume_aligned(p, 2 * W), 2 * W);
      return __builtin_convertvector(h, VI);
    }
  }
  static GLUON_SIMD_INLINE V real(VI v) { return __builtin_convertvector(v, V); }
  static GLUON_SIMD_INLINE C real(CI z) { return {real(z.re), real(z.im)}; }
  static GLUON_SIMD_INLINE C real(C z) { return z; }
  // v (already in [-32767, 32767]) rounded to the nearest integer, ties to even (round_to_half:
  // lrintf in the default rounding mode; a NaN stores 0 as there), as W int16. Single only.
  static GLUON_SIMD_INLINE void store(std::int16_t* p, V v, bool nt = false) {
    static_assert(sizeof(T) == 4, "half storage is computed in single precision");
    if constexpr (W == 4) {
      // Half a tile: 4 lanes, 8 bytes (no streaming store of 8 bytes; store_nt's whole tiles only).
      __m128 f;
      __builtin_memcpy(&f, &v, sizeof f);
      const __m128i i = _mm_cvtps_epi32(f);  // a NaN converts to 0x80000000
      // The low 2 bytes of each lane (vpmovdw with AVX-512; a saturating pack would store a NaN
      // as -32768, not 0).
      const __m128i h = _mm_shuffle_epi8(i, _mm_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1));
      _mm_storel_epi64(static_cast<__m128i*>(__builtin_assume_aligned(p, 8)), h);
      return;
    }
    __m256 f;
    __builtin_memcpy(&f, &v, sizeof f);
    const __m256i i = _mm256_cvtps_epi32(f);  // a NaN converts to 0x80000000
#if defined(__AVX512F__)
    const __m128i h = _mm256_cvtepi32_epi16(i);  // the low 16 bits of each lane (vpmovdw)
#else
    // The same truncation in AVX2: the low 2 bytes of each 32-bit lane, within each 128-bit
    // half, then the two halves' low 64 bits together (a saturating pack would store a NaN as
    // -32768, not 0).
    const __m256i lo16 = _mm256_shuffle_epi8(
        i, _mm256_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1,  //
                            0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1));
    const __m128i h = _mm256_castsi256_si128(_mm256_permute4x64_epi64(lo16, 0x08));  // qwords 0, 2
#endif
    if (nt) _mm_stream_si128(static_cast<__m128i*>(__builtin_assume_aligned(p, 16)), h);
    else _mm_store_si128(static_cast<__m128i*>(__builtin_assume_aligned(p, 16)), h);
  }
  // Two tiles a vector (W = 2 kStride, floats; a kernel's tile pairs): lanes 0-7 are those of
  // tile a, lanes 8-15 those of tile b, which lie anywhere. Loads and stores take the two
  // 256-bit (half: 128-bit) halves from or to their own addresses; with AVX-512 the halves join
  // with one insert (vinsertf32x8, vinserti128) and the pair is one zmm register. The same for
  // two half tiles a vector (W = kStride: lanes 0-3 and 4-7).
  static constexpr int kHalfW = W >= kStride ? W / 2 : kStride;  // lanes of each half (W >= kStride)
  using VH = typename VecOf<T, kHalfW>::type;
  static GLUON_SIMD_INLINE V join(VH lo, VH hi) {
    static_assert(W == 2 * kStride || W == kStride);
    if constexpr (W == 2 * kStride)
      return __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    else return __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7);
  }
  static GLUON_SIMD_INLINE VH low(V v) {
    if constexpr (W == 2 * kStride) return __builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7);
    else return __builtin_shufflevector(v, v, 0, 1, 2, 3);
  }
  static GLUON_SIMD_INLINE VH high(V v) {
    if constexpr (W == 2 * kStride) return __builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15);
    else return __builtin_shufflevector(v, v, 4, 5, 6, 7);
  }
  static GLUON_SIMD_INLINE V load2(const T* a, const T* b) {
    return join(Simd<T, kHalfW>::load(a), Simd<T, kHalfW>::load(b));
  }
  static GLUON_SIMD_INLINE void store2(T* a, T* b, V v, bool nt) {
    Simd<T, kHalfW>::store(a, low(v), nt);
    Simd<T, kHalfW>::store(b, high(v), nt);
  }
  static GLUON_SIMD_INLINE VI load_int2(const std::int16_t* a, const std::int16_t* b) {
    static_assert((W == 2 * kStride || W == kStride) && sizeof(T) == 4);
    if constexpr (W == kStride) {
      const auto lo = Simd<T, kHalfW>::load_int(a), hi = Simd<T, kHalfW>::load_int(b);
      return __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7);
    } else {
#if defined(__AVX512F__)
    const __m128i lo = _mm_load_si128(static_cast<const __m128i*>(__builtin_assume_aligned(a, 16)));
    const __m128i hi = _mm_load_si128(static_cast<const __m128i*>(__builtin_assume_aligned(b, 16)));
    // (The zero-masked forms with every lane on: GCC 12's plain ones merge into an undefined
    // vector, which -Wmaybe-uninitialized reports at every inlined call; see sqrt below.)
    const __m512i i =
        _mm512_maskz_cvtepi16_epi32(__mmask16(0xffff), _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1));
    VI v;
    __builtin_memcpy(&v, &i, sizeof v);
    return v;
#else
    const auto lo = Simd<T, kStride>::load_int(a), hi = Simd<T, kStride>::load_int(b);
    return __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
#endif
    }
  }
  static GLUON_SIMD_INLINE V load2(const std::int16_t* a, const std::int16_t* b) { return real(load_int2(a, b)); }
  // v (in [-32767, 32767]) as int16, rounded as store(std::int16_t*, ...) rounds, lanes 0-7 to
  // a and 8-15 to b.
  static GLUON_SIMD_INLINE void store2(std::int16_t* a, std::int16_t* b, V v, bool nt) {
    static_assert((W == 2 * kStride || W == kStride) && sizeof(T) == 4);
    if constexpr (W == kStride) {
      Simd<T, kHalfW>::store(a, low(v), nt);
      Simd<T, kHalfW>::store(b, high(v), nt);
    } else {
#if defined(__AVX512F__)
    __m512 f;
    __builtin_memcpy(&f, &v, sizeof f);
    const __m512i i = _mm512_maskz_cvtps_epi32(__mmask16(0xffff), f);  // a NaN: 0x80000000
    const __m256i h = _mm512_maskz_cvtepi32_epi16(__mmask16(0xffff), i);  // low 16 bits: 0
    const __m128i lo = _mm256_castsi256_si128(h), hi = _mm256_extracti128_si256(h, 1);
    auto* pa = static_cast<__m128i*>(__builtin_assume_aligned(a, 16));
    auto* pb = static_cast<__m128i*>(__builtin_assume_aligned(b, 16));
    if (nt) {
      _mm_stream_si128(pa, lo);
      _mm_stream_si128(pb, hi);
    } else {
      _mm_store_si128(pa, lo);
      _mm_store_si128(pb, hi);
    }
#else
    Simd<T, kStride>::store(a, low(v), nt);
    Simd<T, kStride>::store(b, high(v), nt);
#endif
    }
  }
  static GLUON_SIMD_INLINE V splat(T x) { return V{} + x; }
  // f applied to each native register (Native: __m256d, __m512, ...) that v spans.
  template <class Native, class F>
  static GLUON_SIMD_INLINE V per_register(V v, F f) {
    Native x[sizeof(V) / sizeof(Native)];
    __builtin_memcpy(x, &v, sizeof x);
    for (auto& y : x) y = f(y);
    __builtin_memcpy(&v, x, sizeof x);
    return v;
  }
  // Square root on every lane. AVX-512 through the masked intrinsic with every lane on: GCC 12's
  // _mm512_sqrt_pd/_ps pass _mm512_undefined_*() as the merge source, which -Wmaybe-uninitialized
  // reports at every inlined call (960 warnings a build).
  static GLUON_SIMD_INLINE V sqrt(V v) {
    if constexpr (sizeof(T) == 8) {
#if defined(__AVX512F__)
      if constexpr (sizeof(V) == 64)
        return per_register<__m512d>(v, [](__m512d y) __attribute__((always_inline)) { return _mm512_mask_sqrt_pd(y, __mmask8(0xff), y); });
#endif
      return per_register<__m256d>(v, [](__m256d y) __attribute__((always_inline)) { return _mm256_sqrt_pd(y); });
    } else {
#if defined(__AVX512F__)
      if constexpr (sizeof(V) == 64)
        return per_register<__m512>(v, [](__m512 y) __attribute__((always_inline)) { return _mm512_mask_sqrt_ps(y, __mmask16(0xffff), y); });
#endif
      if constexpr (sizeof(V) == 16) return per_register<__m128>(v, [](__m128 y) __attribute__((always_inline)) { return _mm_sqrt_ps(y); });
      else return per_register<__m256>(v, [](__m256 y) __attribute__((always_inline)) { return _mm256_sqrt_ps(y); });
    }
  }

  // Single precision: 1/sqrt(v) and 1/v to the hardware estimate's accuracy (AVX-512's rsqrt14 and
  // rcp14: 2^-14 relative; AVX2's rsqrt and rcp: 1.5 2^-12), for a Newton step to refine: a few
  // fused multiply-adds where vsqrtps and vdivps wait on the divider (cpu_simd_r8.h).
  static GLUON_SIMD_INLINE V rsqrt_estimate(V v) {
    static_assert(sizeof(T) == 4, "single precision only");
#if defined(__AVX512F__)
    if constexpr (sizeof(V) == 64)
      return per_register<__m512>(v, [](__m512 y) __attribute__((always_inline)) { return _mm512_mask_rsqrt14_ps(y, __mmask16(0xffff), y); });
    else if constexpr (sizeof(V) == 16)
      return per_register<__m128>(v, [](__m128 y) __attribute__((always_inline)) { return _mm_mask_rsqrt14_ps(y, __mmask8(0xf), y); });
    else return per_register<__m256>(v, [](__m256 y) __attribute__((always_inline)) { return _mm256_mask_rsqrt14_ps(y, __mmask8(0xff), y); });
#else
    if constexpr (sizeof(V) == 16) return per_register<__m128>(v, [](__m128 y) __attribute__((always_inline)) { return _mm_rsqrt_ps(y); });
    else return per_register<__m256>(v, [](__m256 y) __attribute__((always_inline)) { return _mm256_rsqrt_ps(y); });
#endif
  }
  static GLUON_SIMD_INLINE V rcp_estimate(V v) {
    static_assert(sizeof(T) == 4, "single precision only");
#if defined(__AVX512F__)
    if constexpr (sizeof(V) == 64)
      return per_register<__m512>(v, [](__m512 y) __attribute__((always_inline)) { return _mm512_mask_rcp14_ps(y, __mmask16(0xffff), y); });
    else if constexpr (sizeof(V) == 16)
      return per_register<__m128>(v, [](__m128 y) __attribute__((always_inline)) { return _mm_mask_rcp14_ps(y, __mmask8(0xf), y); });
    else return per_register<__m256>(v, [](__m256 y) __attribute__((always_inline)) { return _mm256_mask_rcp14_ps(y, __mmask8(0xff), y); });
#else
    if constexpr (sizeof(V) == 16) return per_register<__m128>(v, [](__m128 y) __attribute__((always_inline)) { return _mm_rcp_ps(y); });
    else return per_register<__m256>(v, [](__m256 y) __attribute__((always_inline)) { return _mm256_rcp_ps(y); });
#endif
  }

  // Whether any lane of m is set (m: the all-ones / all-zeros lanes of a comparison).
  static GLUON_SIMD_INLINE bool any(M m) {
    if constexpr (sizeof(M) == 16) {
      __m128i x;
      __builtin_memcpy(&x, &m, sizeof x);
      return !_mm_testz_si128(x, x);
    } else {
      __m256i x[sizeof(M) / 32];
      __builtin_memcpy(x, &m, sizeof m);
      __m256i o = x[0];
      for (unsigned i = 1; i < sizeof(M) / 32; ++i) o = _mm256_or_si256(o, x[i]);
      return !_mm256_testz_si256(o, o);
    }
  }

  // N reals of the W sites of a tile (v[r]: real r) stored in half precision at p (real r at
  // p + r kStride), with each site's norm at norm[0 .. W): spinor_accessor.h's encoding, norm = the
  // site's largest |real| (a NaN kept, so the site reads back NaN; below 1e-30 the site stores
  // zero), each real rounded from v * 32767 / norm.
  // The largest |real| is taken on the bit patterns: with the sign bit cleared, the integer order
  // of floats is their order, and a NaN's pattern lies above infinity's, so an integer maximum
  // keeps a NaN: two instructions a real (an and, vpmaxsd), where compares and a select on the
  // floats took six, in a loop through the stack (bench/results/2026-11-26-cpu-half-loads/).
  template <int N>
  static GLUON_SIMD_INLINE void store_half(std::int16_t* p, float* norm, const V* v, bool nt = false) {
    V k;
    store(norm, half_norm<N>(v, k), nt);
#pragma GCC unroll 32
    for (int r = 0; r < N; ++r) store(p + r * kStride, v[r] * k, nt);
  }
  // The same for two tiles a vector (W = 2 kStride): lanes 0-7 to tile a (reals at pa, norms at
  // na), 8-15 to tile b; or two half tiles (W = kStride), lanes 0-3 and 4-7.
  template <int N>
  static GLUON_SIMD_INLINE void store_half2(std::int16_t* pa, std::int16_t* pb, float* na, float* nb, const V* v,
                                            bool nt) {
    V k;
    store2(na, nb, half_norm<N>(v, k), nt);
#pragma GCC unroll 32
    for (int r = 0; r < N; ++r) store2(pa + r * kStride, pb + r * kStride, v[r] * k, nt);
  }
  // store_half's norms of each lane (the largest |v[r]|, a NaN kept, 0 below 1e-30) and k, the
  // factor from value to stored integer (32767 / norm, 0 where the norm is 0).
  template <int N>
  static GLUON_SIMD_INLINE V half_norm(const V* v, V& k) {
    static_assert(sizeof(T) == 4 && sizeof(M) == sizeof(V), "half is computed in single precision");
    M mxi{};
#pragma GCC unroll 32
    for (int r = 0; r < N; ++r) {
      M b;
      __builtin_memcpy(&b, &v[r], sizeof b);
      b &= 0x7fffffff;
      mxi = b > mxi ? b : mxi;
    }
    V mx;
    __builtin_memcpy(&mx, &mxi, sizeof mx);
    mx = mx < splat(T(1e-30)) ? V{} : mx;
    k = mx > V{} ? T(32767) / mx : V{};
    return mx;
  }

  // [a_n .. a_{W-1}, b_0 .. b_{n-1}]: lanes n .. n + W - 1 of the pair (a, b), 0 < n < W. With a,
  // b consecutive tiles, the sites n to the right; with n = W - m, the sites m to the left of b.
  // (Also on integer lanes, VI.)
  template <int n, class Vec>
  static GLUON_SIMD_INLINE Vec window(Vec a, Vec b) {
    static_assert(n > 0 && n < W);
    constexpr M idx = iota() + n;
    return __builtin_shuffle(a, b, idx);
  }
  // [a_1 .. a_{W-1}, b_0]: the sites one to the right, the last from the next tile.
  template <class Vec>
  static GLUON_SIMD_INLINE Vec shift_up(Vec a, Vec b) { return window<1>(a, b); }
  // [a_{W-1}, b_0 .. b_{W-2}]: the sites one to the left, the first from the previous tile.
  template <class Vec>
  static GLUON_SIMD_INLINE Vec shift_down(Vec a, Vec b) { return window<W - 1>(a, b); }

  // i^p z (Z: C or CI)
  template <class Z>
  static GLUON_SIMD_INLINE Z ipow(Z z, int p) {
    switch (p & 3) {
      case 0: return z;
      case 1: return {-z.im, z.re};
      case 2: return {-z.re, -z.im};
      default: return {z.im, -z.re};
    }
  }
  template <class Z>
  static GLUON_SIMD_INLINE Z add(Z a, Z b) { return {a.re + b.re, a.im + b.im}; }
  template <class Z>
  static GLUON_SIMD_INLINE Z sub(Z a, Z b) { return {a.re - b.re, a.im - b.im}; }
  static GLUON_SIMD_INLINE C mul(C a, C b) {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  }
  static GLUON_SIMD_INLINE C conj_mul(C a, C b) {  // conj(a) b
    return {a.re * b.re + a.im * b.im, a.re * b.im - a.im * b.re};
  }
  // c + a b and c + conj(a) b, written so that each real is two fused multiply-adds into c (the
  // compiler contracts a product only into a sum it is an operand of: add(c, mul(a, b)) takes a
  // multiply, a fused one and an add a real).
  static GLUON_SIMD_INLINE C mul_add(C a, C b, C c) {
    return {c.re + a.re * b.re - a.im * b.im, c.im + a.re * b.im + a.im * b.re};
  }
  static GLUON_SIMD_INLINE C conj_mul_add(C a, C b, C c) {
    return {c.re + a.re * b.re + a.im * b.im, c.im + a.re * b.im - a.im * b.re};
  }
  // a b - c d (the r12 row rebuild): one multiply and three fused ones a real, where
  // sub(mul(a, b), mul(c, d)) takes five instructions.
  static GLUON_SIMD_INLINE C mul_sub(C a, C b, C c, C d) {
    return {a.re * b.re - a.im * b.im - c.re * d.re + c.im * d.im,  //
            a.re * b.im + a.im * b.re - c.re * d.im - c.im * d.re};
  }

  // Software prefetch of n bytes from p into L1, or (l2) into L2 only (write: for a store).
  template <class P>
  static GLUON_SIMD_INLINE void prefetch_bytes(const P* p, int n, bool write = false, bool l2 = false) {
    const char* c = reinterpret_cast<const char*>(p);
    for (int b = 0; b < n; b += 64) {
      if (write) l2 ? __builtin_prefetch(c + b, 1, 2) : __builtin_prefetch(c + b, 1, 3);
      else l2 ? __builtin_prefetch(c + b, 0, 2) : __builtin_prefetch(c + b, 0, 3);
    }
  }
};

// Orders a thread's non-temporal stores before what follows (the parallel region's barrier,
// after which other threads read the field).
GLUON_SIMD_INLINE void stream_fence() { _mm_sfence(); }

// A task's lane groups in the vector kernels (wilson_simd_impl.h, staggered_simd_impl.h): with
// Pair two, lanes [0, W/2) and [W/2, W), each covering kStep sites of its own x-row (a tile or
// half tile and its partner T/2 slices on) and loaded from its own address; else one group, the
// whole vector. The kernels derive from it.
template <class T, int W, bool Pair>
struct LaneGroups {
  using S = Simd<T, W>;
  using V = typename S::V;
  static constexpr int kStep = Pair ? W / 2 : W;  // sites of one x-row a group covers
  static constexpr int kGroups = W / kStep;       // 2 with Pair, else 1
  // The first eo site of each group (b is a without Pair, so that the compiler has nothing of
  // b's to compute), and pointers to real 0 of each group in a field.
  struct Sites {
    std::int64_t a, b;
    static Sites of(std::int64_t a, std::int64_t b) { return {a, Pair ? b : a}; }
    Sites operator+(std::int64_t d) const { return {a + d, b + d}; }
    Sites operator-(std::int64_t d) const { return {a - d, b - d}; }
  };
  template <class P>
  struct Ptr {
    P* a;
    P* b;
    Ptr operator+(std::int64_t d) const { return {a + d, b + d}; }
  };
  // W reals (or, half, stored integers) at p, each group's lanes from its own pointer.
  template <class P>
  static GLUON_SIMD_INLINE V load(Ptr<P> p) {
    if constexpr (Pair) return S::load2(p.a, p.b);
    else return S::load(p.a);
  }
  // x_a in the first group's lanes, x_b in the second's (x_a everywhere without Pair).
  static GLUON_SIMD_INLINE V per_group(T x_a, T x_b) {
    if constexpr (Pair) return S::join(Simd<T, kStep>::splat(x_a), Simd<T, kStep>::splat(x_b));
    else return S::splat(x_a);
  }
};

// Where tile `tile` of output parity `parity` lies (the tiled order of an even-odd field, x
// fastest, X/2 a multiple of W; tiles of W sites, W = kTileSites or a kernel's half tile): x-row `row` with y, z, t = c[1..3], its first half-row index k0,
// and the x parity o = (parity + y + z + t) % 2 of all its sites (x = 2k + o).
struct TilePos {
  std::int64_t i0, row;  // index of lane 0 within the parity; row index
  int Xh, k0, o;
  int c[4];  // c[0] unused
};
template <int W = kTileSites>
GLUON_SIMD_INLINE TilePos tile_pos(std::int64_t tile, const int* dims, int parity) {
  TilePos t;
  t.i0 = tile * W;
  t.Xh = dims[0] / 2;
  t.row = t.i0 / t.Xh;
  t.k0 = static_cast<int>(t.i0 - t.row * t.Xh);
  std::int64_t r = t.row;
  for (int mu = 1; mu < 3; ++mu) {
    t.c[mu] = static_cast<int>(r % dims[mu]);
    r /= dims[mu];
  }
  t.c[3] = static_cast<int>(r);
  t.c[0] = 0;
  t.o = (parity + t.c[1] + t.c[2] + t.c[3]) & 1;
  return t;
}

}  // namespace
}  // namespace gluon::qcd::detail

#endif  // GLUON_CPU_SIMD
