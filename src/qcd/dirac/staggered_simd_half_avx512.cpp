// The vector staggered dslash in half precision: int16 storage with per-site norms, computed in
// single precision (staggered_simd_impl.h); compiled for x86-64-v4.
#include "staggered_simd_impl.h"

namespace gluon::qcd::detail::avx512 {
#if defined(__AVX512F__)
bool staggered_simd_half(const StaggeredSimdArgs& a) { return run<float, std::int16_t>(a); }
#else
bool staggered_simd_half(const StaggeredSimdArgs&) { return false; }
#endif
}  // namespace gluon::qcd::detail::avx512
