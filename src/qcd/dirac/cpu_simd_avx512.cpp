// Whether the vector kernels were compiled in (cpu_simd_kernel.h); compiled for x86-64-v4.
#include "cpu_simd_kernel.h"

namespace gluon::qcd::detail {
#if defined(__AVX512F__)
bool cpu_simd_compiled() { return true; }
#else
bool cpu_simd_compiled() { return false; }
#endif
}  // namespace gluon::qcd::detail
