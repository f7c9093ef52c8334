// The vector Wilson dslash in half precision: int16 storage with per-site norms,
// computed in single precision with the clover epilogues (the clover
// term applied to the hop, or to x; wilson_simd_impl.h), apart from the plain hop
// (wilson_simd_half_avx512.cpp) so that the two compile in parallel; compiled for x86-64-v4.
#include "wilson_simd_impl.h"

namespace gluon::qcd::detail::avx512 {
#if defined(__AVX512F__)
bool wilson_simd_half_clover(const WilsonSimdArgs& a) { return run<float, std::int16_t, LinkSet::all, FuseSet::clover>(a); }
#else
bool wilson_simd_half_clover(const WilsonSimdArgs&) { return false; }
#endif
}  // namespace gluon::qcd::detail::avx512
