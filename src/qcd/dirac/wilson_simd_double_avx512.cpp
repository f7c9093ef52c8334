// The vector Wilson dslash in double precision (wilson_simd_impl.h); compiled for x86-64-v4.
#include "wilson_simd_impl.h"

namespace gluon::qcd::detail::avx512 {
#if defined(__AVX512F__)
bool wilson_simd_double(const WilsonSimdArgs& a) { return run<double>(a); }
#else
bool wilson_simd_double(const WilsonSimdArgs&) { return false; }
#endif
}  // namespace gluon::qcd::detail::avx512
