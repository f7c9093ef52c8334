// The vector Wilson dslash in half precision (int16 storage, computed in float) in half-tile
// tasks, for lattices whose x-rows hold X/2 = 4 mod 8 sites (wilson_simd_impl.h's
// Tasks::half_tile): every link compression and epilogue; compiled for x86-64-v3 and run on
// AVX-512 CPUs too.
#include "wilson_simd_impl.h"

namespace gluon::qcd::detail::avx2 {
#if defined(GLUON_CPU_SIMD)
bool wilson_simd_half_narrow(const WilsonSimdArgs& a) {
  return run<float, std::int16_t, LinkSet::all, FuseSet::all, true>(a);
}
#else
bool wilson_simd_half_narrow(const WilsonSimdArgs&) { return false; }
#endif
}  // namespace gluon::qcd::detail::avx2
