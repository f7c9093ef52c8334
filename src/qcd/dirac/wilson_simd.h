#pragma once
// Private: the CPU Wilson dslash vectorised across sites (Grid's approach), for the tiled field
// order (field_layout.h) of the CPU Wilson operator; when it can run: cpu_simd.h.
//
// It reads every precision (double, single, and half: int16 with per-site norms, computed in
// single) and every link compression (r18, r12, and r8 rebuilt per lane, cpu_simd_r8.h).
//   try_wilson_simd(call)  runs the body of `call` with the vector kernel and returns true when
//                          it can: CPU backend, any epilogue
//                          (plain, xpay, clover, clover on x), on a cut lattice only the
//                          interior (view.mode 2: hops across a cut skipped), gauge field
//                          (and its backward copy, call.u_back), vectors and clover field in
//                          the tiled order of width W, and
//                          cpu_simd_available() and cpu_simd_fits(). Otherwise returns false and
//                          the caller runs the scalar kernel (which reads any order).
//
// The vector kernels live in wilson_simd_{double,single,half}_{avx512,avx2}.cpp (wilson_simd_impl.h),
// the double-precision r8 one in wilson_simd_double_r8_avx512.cpp (cpu_simd_kernel.h: LinkSet),
// and the single and half clover epilogues in wilson_simd_{single,half}_clover_*.cpp (FuseSet).
#include "cpu_simd.h"
#include "wilson_internal.h"
#include "wilson_simd_kernel.h"

namespace gluon::qcd::detail {

bool try_wilson_simd(const DslashCall& call);

}  // namespace gluon::qcd::detail
