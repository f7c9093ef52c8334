// The vector staggered dslash in double precision (staggered_simd_impl.h); compiled for x86-64-v3.
#include "staggered_simd_impl.h"

namespace gluon::qcd::detail::avx2 {
#if defined(GLUON_CPU_SIMD)
bool staggered_simd_double(const StaggeredSimdArgs& a) { return run<double>(a); }
#else
bool staggered_simd_double(const StaggeredSimdArgs&) { return false; }
#endif
}  // namespace gluon::qcd::detail::avx2
