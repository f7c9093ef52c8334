#pragma once
// Private: what the CPU kernels vectorised across sites (the *_avx512.cpp and *_avx2.cpp files)
// and their baseline callers share. Plain declarations only, and no library header: the files
// that define these are compiled for x86-64-v4 and x86-64-v3, and an inline library function
// instantiated there could be picked by the linker for baseline callers.

namespace gluon::qcd::detail {

// Sites per tile of FieldOrder::tiled (field_layout.h's kTiledSites, not included here): one
// 512-bit vector of doubles, one 256-bit vector of floats.
inline constexpr int kTileSites = 8;

// The instruction sets the vector kernels are built for. Every kernel file is there twice, from
// one source: *_avx512.cpp compiled for x86-64-v4 (AVX-512) into namespace avx512, *_avx2.cpp
// for x86-64-v3 (AVX2 and FMA) into namespace avx2; cpu_simd.h's cpu_simd_isa() picks one at run
// time.
enum class CpuSimdIsa { none, avx2, avx512 };
// The link compressions one file's instantiation of a vector kernel takes: every one, or the r8
// links apart. The AVX-512 Wilson double and staggered single kernels with r8 links are in files
// of their own (*_r8_avx512.cpp), which GCC compiles with its register-pressure-aware scheduling
// before register allocation and Sapphire Rapids tuning (GLUON_AVX512_R8_FLAGS, CMakeLists.txt):
// inside one process on the Xeon host of the GPU machine at 48^4 they ran 1.055-1.076x (Wilson
// double r8) and 1.133-1.140x (naive staggered single r8) as fast, in every round, while most of
// the other kernels built so ran slower (Wilson half r12 0.90-0.94x; bench/results/2026-11-28-cpu-mtune).
enum class LinkSet { all, not_r8, r8 };
// What the Wilson vector kernel prefetches ahead of a tile (cpu_simd.h: cpu_simd_prefetch).
enum class CpuPrefetch { all = 0, spinors = 1, ahead = 2, none = 3 };

// Whether that namespace's files were compiled for their target (else their kernels only return
// false: a non-x86 build, or a compiler without x86-64-v4 / x86-64-v3).
namespace avx512 {
bool compiled();
}
namespace avx2 {
bool compiled();
}

// Half r8 links: the value of angle slots 0 and 1 is int16 / 32767 times these (reconstruct.h's
// kR8HalfSlot0Scale and kR8HalfSlot1Scale, which cpu_simd.cpp checks they equal).
inline constexpr float kSimdR8HalfSlot0Scale = 8.0f + 3.14159274f;
inline constexpr float kSimdR8HalfSlot1Scale = 4.0f + 3.14159274f;

}  // namespace gluon::qcd::detail
