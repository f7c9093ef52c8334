#include "gluon/hpl/dgemm_rate.h"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "gluon/runtime/error.h"

#if GLUON_HAVE_CUDA
#include <cublas_v2.h>
#include <cuda_runtime.h>
#endif

namespace gluon::hpl {

#if GLUON_HAVE_CUDA
namespace {
void ck(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw DeviceError(std::string("dgemm rate: ") + what + ": " + cudaGetErrorString(e));
}
void ck(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw DeviceError(std::string("dgemm rate: ") + what + ": cuBLAS status " + std::to_string(static_cast<int>(s)));
}
}  // namespace
#endif

DgemmRate measure_dgemm(const std::string& backend, long m, long n, long k, int reps, int device) {
  if (m < 1 || n < 1 || k < 1 || reps < 1) throw InputError("dgemm rate: m, n, k and reps must be positive");
  DgemmRate r;
  r.m = m, r.n = n, r.k = k, r.backend = backend;
  const double flops = 2.0 * m * n * k;
  double best = 1e300;
  if (backend == "cpu") {
    std::vector<double> a(static_cast<std::size_t>(m * k), 0.5), b(static_cast<std::size_t>(k * n), 0.25),
        c(static_cast<std::size_t>(m * n), 1.0);
    for (int i = 0; i < reps + 1; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, -1.0, a.data(), m, b.data(), k, 1.0, c.data(), m);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (i > 0) best = std::min(best, s);  // the first call warms up
    }
  } else if (backend == "cuda") {
#if GLUON_HAVE_CUDA
    ck(cudaSetDevice(device), "cudaSetDevice");
    double *a = nullptr, *b = nullptr, *c = nullptr;
    ck(cudaMalloc(reinterpret_cast<void**>(&a), sizeof(double) * m * k), "cudaMalloc");
    ck(cudaMalloc(reinterpret_cast<void**>(&b), sizeof(double) * k * n), "cudaMalloc");
    ck(cudaMalloc(reinterpret_cast<void**>(&c), sizeof(double) * m * n), "cudaMalloc");
    cublasHandle_t h = nullptr;
    cudaEvent_t e0 = nullptr, e1 = nullptr;
    try {
      ck(cudaMemset(a, 0, sizeof(double) * m * k), "cudaMemset");
      ck(cudaMemset(b, 0, sizeof(double) * k * n), "cudaMemset");
      ck(cudaMemset(c, 0, sizeof(double) * m * n), "cudaMemset");
      ck(cublasCreate(&h), "cublasCreate");
      ck(cudaEventCreate(&e0), "cudaEventCreate");
      ck(cudaEventCreate(&e1), "cudaEventCreate");
      const double alpha = -1.0, beta = 1.0;
      for (int i = 0; i < reps + 1; ++i) {
        ck(cudaEventRecord(e0), "cudaEventRecord");
        ck(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, a, m, b, k, &beta, c, m), "cublasDgemm");
        ck(cudaEventRecord(e1), "cudaEventRecord");
        ck(cudaEventSynchronize(e1), "cudaEventSynchronize");
        float ms = 0;
        ck(cudaEventElapsedTime(&ms, e0, e1), "cudaEventElapsedTime");
        if (i > 0) best = std::min(best, 1e-3 * ms);
      }
    } catch (...) {
      cudaFree(a), cudaFree(b), cudaFree(c);
      if (h) cublasDestroy(h);
      throw;
    }
    cudaFree(a), cudaFree(b), cudaFree(c);
    cublasDestroy(h);
    cudaEventDestroy(e0), cudaEventDestroy(e1);
#else
    (void)device;
    throw DeviceError("dgemm rate: cuda asked for, but this gluon was built without CUDA");
#endif
  } else {
    throw InputError("dgemm rate: backend must be cpu or cuda, found '" + backend + "'");
  }
  r.seconds = best;
  r.gflops = flops / best * 1e-9;
  return r;
}

}  // namespace gluon::hpl
