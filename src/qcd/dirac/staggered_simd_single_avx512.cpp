// The vector staggered dslash in single precision (staggered_simd_impl.h); compiled for x86-64-v4.
// The r8 links: staggered_simd_single_r8_avx512.cpp.
#include "staggered_simd_impl.h"

namespace gluon::qcd::detail::avx512 {
#if defined(__AVX512F__)
bool staggered_simd_single(const StaggeredSimdArgs& a) { return run<float, float, LinkSet::not_r8>(a); }
#else
bool staggered_simd_single(const StaggeredSimdArgs&) { return false; }
#endif
}  // namespace gluon::qcd::detail::avx512
