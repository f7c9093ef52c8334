// The vector Wilson dslash in half precision: int16 storage with per-site norms, computed in
// single precision (wilson_simd_impl.h), the plain
// hop (the clover epilogues: wilson_simd_half_clover_avx2.cpp); compiled for x86-64-v3.
#include "wilson_simd_impl.h"

namespace gluon::qcd::detail::avx2 {
#if defined(GLUON_CPU_SIMD)
bool wilson_simd_half(const WilsonSimdArgs& a) { return run<float, std::int16_t, LinkSet::all, FuseSet::plain>(a); }
#else
bool wilson_simd_half(const WilsonSimdArgs&) { return false; }
#endif
}  // namespace gluon::qcd::detail::avx2
