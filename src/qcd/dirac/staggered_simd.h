#pragma once
// Private: the CPU naive and improved staggered dslash vectorised across sites (Grid's
// approach), for the tiled field order (field_layout.h) of the CPU staggered operator; when it
// can run at all: cpu_simd.h.
//
//   staggered_simd_takes(p)          the precisions it reads: double, single and half (int16
//                                    with per-site norms, computed in single)
//   staggered_simd_links(fat, long)  the link compressions it reads: fat (thin) r18 or r12, or
//                                    naive r8 (rebuilt per lane, cpu_simd_r8.h); long
//                                    (improved only; nullopt for naive) r18 or r12 with fat r18
//   try_staggered_simd(launch, p)    runs the body launch (one parity, or the whole lattice)
//                                    with the vector kernel and returns true when it can: CPU
//                                    backend, staggered_simd_takes(p), hops on, no cut
//                                    dimension, links (and their backward copies) and vectors
//                                    in the tiled order of width W,
//                                    cpu_simd_available() and cpu_simd_fits(); the fused dot
//                                    (M_dot) included. Otherwise returns false and the caller
//                                    runs the scalar kernel (which reads any order).
//
// The vector kernels live in staggered_simd_{double,single,half}_avx512.cpp (staggered_simd_impl.h),
// the single-precision naive r8 one in staggered_simd_single_r8_avx512.cpp (cpu_simd_kernel.h: LinkSet).
#include <optional>

#include "cpu_simd.h"
#include "gluon/qcd/field_layout.h"
#include "staggered_dslash.h"
#include "staggered_simd_kernel.h"

namespace gluon::qcd::detail {

bool staggered_simd_takes(Precision p);
bool staggered_simd_links(Reconstruct fat, std::optional<Reconstruct> longlinks);
bool try_staggered_simd(const StaggeredLaunch& launch, Precision p);

}  // namespace gluon::qcd::detail
