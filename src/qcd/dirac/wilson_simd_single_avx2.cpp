// The vector Wilson dslash in single precision (wilson_simd_impl.h); compiled for x86-64-v3.
#include "wilson_simd_impl.h"

namespace gluon::qcd::detail::avx2 {
#if defined(GLUON_CPU_SIMD)
bool wilson_simd_single(const WilsonSimdArgs& a) { return run<float>(a); }
#else
bool wilson_simd_single(const WilsonSimdArgs&) { return false; }
#endif
}  // namespace gluon::qcd::detail::avx2
