// The vector Wilson dslash in double precision (wilson_simd_impl.h); compiled for x86-64-v4. The r8
// links: wilson_simd_double_r8_avx512.cpp.
#include "wilson_simd_impl.h"

namespace gluon::qcd::detail::avx512 {
#if defined(__AVX512F__)
bool wilson_simd_double(const WilsonSimdArgs& a) { return run<double, double, LinkSet::not_r8>(a); }
#else
bool wilson_simd_double(const WilsonSimdArgs&) { return false; }
#endif
}  // namespace gluon::qcd::detail::avx512
