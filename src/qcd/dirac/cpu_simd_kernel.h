#pragma once
// Private: what the CPU kernels vectorised across sites (the *_avx512.cpp files) and their
// baseline callers share. Plain declarations only, and no library header: the files that define
// these are compiled for x86-64-v4, and an inline library function instantiated there could be
// picked by the linker for baseline callers.

namespace gluon::qcd::detail {

// Sites per tile of FieldOrder::tiled (field_layout.h's kTiledSites, not included here): one
// 512-bit vector of doubles, one 256-bit vector of floats.
inline constexpr int kTileSites = 8;

// Whether the *_avx512.cpp files were compiled with AVX-512 (else their kernels only return
// false: a non-x86 build, or a compiler without x86-64-v4).
bool cpu_simd_compiled();

}  // namespace gluon::qcd::detail
