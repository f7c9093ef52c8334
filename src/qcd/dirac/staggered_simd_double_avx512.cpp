// The vector staggered dslash in double precision (staggered_simd_impl.h); compiled for x86-64-v4.
#include "staggered_simd_impl.h"

namespace gluon::qcd::detail::avx512 {
#if defined(__AVX512F__)
bool staggered_simd_double(const StaggeredSimdArgs& a) { return run<double>(a); }
#else
bool staggered_simd_double(const StaggeredSimdArgs&) { return false; }
#endif
}  // namespace gluon::qcd::detail::avx512
