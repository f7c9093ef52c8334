// Whether the vector kernels were compiled in for avx2 (cpu_simd_kernel.h); compiled for x86-64-v3.
#include "cpu_simd_vector.h"  // GLUON_CPU_SIMD

namespace gluon::qcd::detail::avx2 {
#if defined(GLUON_CPU_SIMD)
bool compiled() { return true; }
#else
bool compiled() { return false; }
#endif
}  // namespace gluon::qcd::detail::avx2
