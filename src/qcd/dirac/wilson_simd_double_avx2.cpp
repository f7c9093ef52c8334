// The vector Wilson dslash in double precision (wilson_simd_impl.h); compiled for x86-64-v3.
#include "wilson_simd_impl.h"

namespace gluon::qcd::detail::avx2 {
#if defined(GLUON_CPU_SIMD)
bool wilson_simd_double(const WilsonSimdArgs& a) { return run<double>(a); }
#else
bool wilson_simd_double(const WilsonSimdArgs&) { return false; }
#endif
}  // namespace gluon::qcd::detail::avx2
