// The vector naive staggered dslash in single precision with r8 links (staggered_simd_impl.h);
// compiled for x86-64-v4 with GLUON_AVX512_R8_FLAGS (cpu_simd_kernel.h's LinkSet says why).
#include "staggered_simd_impl.h"

namespace gluon::qcd::detail::avx512 {
#if defined(__AVX512F__)
bool staggered_simd_single_r8(const StaggeredSimdArgs& a) { return run<float, float, LinkSet::r8>(a); }
#else
bool staggered_simd_single_r8(const StaggeredSimdArgs&) { return false; }
#endif
}  // namespace gluon::qcd::detail::avx512
