// The vector Wilson dslash in double precision with r8 links (wilson_simd_impl.h); compiled for
// x86-64-v4 with GLUON_AVX512_R8_FLAGS (cpu_simd_kernel.h's LinkSet says why).
#include "wilson_simd_impl.h"

namespace gluon::qcd::detail::avx512 {
#if defined(__AVX512F__)
bool wilson_simd_double_r8(const WilsonSimdArgs& a) { return run<double, double, LinkSet::r8>(a); }
#else
bool wilson_simd_double_r8(const WilsonSimdArgs&) { return false; }
#endif
}  // namespace gluon::qcd::detail::avx512
