#pragma once
// Private: the CPU Wilson dslash vectorised across sites (Grid's approach), for the tiled field
// order (field_layout.h) of the CPU Wilson operator.
//
//   wilson_simd_lanes()           W = 8, the sites one vector holds (8 doubles in a 512-bit
//                                 register, 8 floats in a 256-bit one); the tiled order's tile
//   wilson_simd_available()       the vector kernels are compiled in (an x86-64 build whose
//                                 compiler knows x86-64-v4: wilson_simd_compiled) and this CPU
//                                 runs them (AVX-512 F/BW/CD/DQ/VL = x86-64-v4), and
//                                 GLUON_CPU_SIMD=0 is not set (the scalar kernel for comparison)
//   wilson_simd_fits(geometry, p) the lattice and precision allow the vector path: double or
//                                 single, one process along every dimension, X/2 a multiple of W
//   try_wilson_simd(call)         runs the body of `call` with the vector kernel and returns true
//                                 when it can: CPU backend, double or single, r18 or r12, any
//                                 epilogue (plain, xpay, clover, clover on x), no cut dimension,
//                                 gauge field, vectors and clover field in the tiled order of
//                                 width W. Otherwise returns false and the caller runs the
//                                 scalar kernel (which reads any order).
//
// The vector kernels live in wilson_simd_{double,single}_avx512.cpp, the only files compiled
// for x86-64-v4 (src/CMakeLists.txt): everything else stays baseline x86-64, so one binary runs
// on any x86-64 CPU, and the path is chosen at run time.
#include <cstdint>

#include "gluon/qcd/geometry.h"
#include "gluon/qcd/precision.h"
#include "wilson_internal.h"
#include "wilson_simd_kernel.h"

namespace gluon::qcd::detail {

int wilson_simd_lanes();
bool wilson_simd_available();
bool wilson_simd_fits(const Geometry& g, Precision p);
bool try_wilson_simd(const DslashCall& call);

}  // namespace gluon::qcd::detail
