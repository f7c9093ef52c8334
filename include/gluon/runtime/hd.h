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
