#pragma once
// GLUON_HD marks functions callable from both host and device code. Physics kernels are written
// once as GLUON_HD site-local functors (DESIGN.md "One kernel source for CPU and GPU").
#if defined(__CUDACC__)
#define GLUON_HD __host__ __device__
#define GLUON_HD_INLINE __host__ __device__ __forceinline__
#else
#define GLUON_HD
#define GLUON_HD_INLINE inline
#endif

// True while compiling device code (nvcc's device pass); false in host passes and plain C++.
#if defined(__CUDA_ARCH__)
#define GLUON_DEVICE_PASS 1
#else
#define GLUON_DEVICE_PASS 0
#endif
