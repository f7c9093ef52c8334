// Whether the vector kernels were compiled in for avx512 (cpu_simd_kernel.h); compiled for x86-64-v4.
#include "cpu_simd_vector.h"  // GLUON_CPU_SIMD

namespace gluon::qcd::detail::avx512 {
#if defined(__AVX512F__)
bool compiled() { return true; }
#else
bool compiled() { return false; }
#endif
}  // namespace gluon::qcd::detail::avx512
