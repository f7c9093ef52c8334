// The vector staggered dslash in single precision (staggered_simd_impl.h); compiled for x86-64-v4.
#include "staggered_simd_impl.h"

namespace gluon::qcd::detail::avx512 {
#if defined(__AVX512F__)
bool staggered_simd_single(const StaggeredSimdArgs& a) { return run<float>(a); }
#else
bool staggered_simd_single(const StaggeredSimdArgs&) { return false; }
#endif
}  // namespace gluon::qcd::detail::avx512
