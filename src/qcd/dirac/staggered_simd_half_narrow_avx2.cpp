// The vector naive and improved staggered dslash in half precision (int16 storage, computed in float) in half-tile tasks, for
// lattices whose x-rows hold X/2 = 4 mod 8 sites (staggered_simd_impl.h); every link set;
// compiled for x86-64-v3 and run on AVX-512 CPUs too.
#include "staggered_simd_impl.h"

namespace gluon::qcd::detail::avx2 {
#if defined(GLUON_CPU_SIMD)
bool staggered_simd_half_narrow(const StaggeredSimdArgs& a) { return run<float, std::int16_t, LinkSet::all, true>(a); }
#else
bool staggered_simd_half_narrow(const StaggeredSimdArgs&) { return false; }
#endif
}  // namespace gluon::qcd::detail::avx2
