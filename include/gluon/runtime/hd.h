#pragma once
// GLUON_HD marks functions callable from both host and device code. Physics kernels are written
// once as GLUON_HD site-local functors (DESIGN.md "One kernel source for CPU and GPU").
#if defined(__CUDACC__)
#define GLUON_HD __host__ __device__
#define GLUON_HD_INLINE __host__ __device__ __forceinline__
#else
#define GLUON_HD
// Forced on the CPU too: GCC's heuristics left the stencil kernels' pieces (spin projection,
// field loads, link decoding) as calls with every Spinor passed through memory.
#if defined(__GNUC__)
#define GLUON_HD_INLINE inline __attribute__((always_inline))
#else
#define GLUON_HD_INLINE inline
#endif
#endif

// True while compiling device code (nvcc's device pass); false in host passes and plain C++.
#if defined(__CUDA_ARCH__)
#define GLUON_DEVICE_PASS 1
#else
#define GLUON_DEVICE_PASS 0
#endif

// Full unrolling of a loop with a compile-time trip count, for the host compiler: GCC leaves
// loops of 24 (a spinor's reals) rolled, and then keeps Spinors in memory with run-time indices.
// nvcc unrolls such loops by itself; its passes see nothing.
#if !defined(__CUDACC__) && defined(__GNUC__) && !defined(__clang__)
#define GLUON_UNROLL _Pragma("GCC unroll 72")
#else
#define GLUON_UNROLL
#endif

// Full unrolling for the device compiler as well. nvcc unrolls most loops of 24 by itself, but
// not all: the BLAS-1 kernels with three or four Dirac spinors (CG's x/p step, CG's update,
// multi-shift CG's step) kept theirs rolled, so their Spinors lived in local memory (288-768
// bytes of stack) and CG's x/p step on a double Wilson vector took 328 us where its 5 vectors'
// traffic allows 120 (H200, bench/results/2026-11-25-cgnr-fold-h200). ptxas -v shows it.
#if defined(__CUDACC__)
#define GLUON_UNROLL_FULL _Pragma("unroll")
#else
#define GLUON_UNROLL_FULL GLUON_UNROLL
#endif
