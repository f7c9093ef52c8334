// The device-resident LU's own kernels (lu_kernels.h): the leaf of the panel factorisation and
// the row interchanges of the trailing columns. cuBLAS does the rest (DTRSM, DGEMM).
//
// The pivot search is one launch: every block reduces its rows to one (|value|, row) pair, and
// the last block to finish (a ticket counter, after a fence) reduces the pairs and swaps the
// pivot row into place across the whole panel. Reads of values written by other blocks in the
// same launch go through L2 (__ldcg), never the SM's own L1.
#include <algorithm>
#include <string>

#include "gluon/runtime/error.h"
#include "lu_kernels.h"

namespace gluon::hpl::kernels {

namespace {

constexpr int kThreads = 256;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw DeviceError(std::string("hpl device LU: ") + what + ": " + cudaGetErrorString(e));
}

// (|v|, row) ordering: larger |v| first, then the smaller row; "none" is (-1, -1). NaN never
// wins (as in the host LU, where v > best fails for NaN).
__device__ inline bool better(double v, long r, double bv, long br) {
  return v > bv || (v == bv && r >= 0 && (br < 0 || r < br));
}

// Block-wide arg-max of (v, r); the result is valid in thread 0.
__device__ void block_argmax(double& v, long& r) {
  __shared__ double sv[kThreads / 32];
  __shared__ long sr[kThreads / 32];
  for (int off = 16; off > 0; off >>= 1) {
    const double ov = __shfl_down_sync(0xffffffffu, v, off);
    const long orow = __shfl_down_sync(0xffffffffu, r, off);
    if (better(ov, orow, v, r)) v = ov, r = orow;
  }
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) sv[warp] = v, sr[warp] = r;
  __syncthreads();
  if (warp == 0) {
    v = lane < kThreads / 32 ? sv[lane] : -1.0;
    r = lane < kThreads / 32 ? sr[lane] : -1;
    for (int off = 16; off > 0; off >>= 1) {
      const double ov = __shfl_down_sync(0xffffffffu, v, off);
      const long orow = __shfl_down_sync(0xffffffffu, r, off);
      if (better(ov, orow, v, r)) v = ov, r = orow;
    }
  }
}

// Every block: its candidate (v, r) for column k. The last block: the pivot, the swap of rows k
// and p over the jb columns, ipiv[k] and the signed pivot for the next launch.
__device__ void finish_pivot(double* a, long ld, int k, int jb, long row0, double* ipiv, double v, long r,
                             double* pairs, unsigned* ticket, double* pivot) {
  __shared__ bool last;
  __shared__ long prow;
  __threadfence();  // this launch's writes to `a` (eliminate) reach L2 before the ticket is taken
  block_argmax(v, r);
  if (threadIdx.x == 0) {
    pairs[2 * blockIdx.x] = v;
    pairs[2 * blockIdx.x + 1] = static_cast<double>(r);
    __threadfence();
    last = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  double bv = -1.0;
  long br = -1;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) {
    const double ov = __ldcg(pairs + 2 * b);
    const long orow = static_cast<long>(__ldcg(pairs + 2 * b + 1));
    if (better(ov, orow, bv, br)) bv = ov, br = orow;
  }
  block_argmax(bv, br);
  if (threadIdx.x == 0) {
    // A zero (or NaN-only) column keeps its row: the pivot is then 0 and nothing is scaled.
    prow = br >= 0 && bv > 0.0 ? br : k;
    *pivot = __ldcg(a + prow + k * ld);
    ipiv[k] = static_cast<double>(row0 + prow);
    *ticket = 0u;
  }
  __syncthreads();
  const long p = prow;
  if (p != k)
    for (int c = threadIdx.x; c < jb; c += blockDim.x) {
      const double x = __ldcg(a + k + c * ld), y = __ldcg(a + p + c * ld);
      a[k + c * ld] = y;
      a[p + c * ld] = x;
    }
}

__global__ void pivot_search_kernel(double* a, long ld, long m, int k, int jb, long row0, double* ipiv, double* pairs,
                                    unsigned* ticket, double* pivot) {
  double v = -1.0;
  long r = -1;
  const double* col = a + k * ld;
  for (long i = k + blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; i < m;
       i += static_cast<long>(gridDim.x) * blockDim.x) {
    const double x = fabs(col[i]);
    if (better(x, i, v, r)) v = x, r = i;
  }
  finish_pivot(a, ld, k, jb, row0, ipiv, v, r, pairs, ticket, pivot);
}

__global__ void eliminate_kernel(double* a, long ld, long m, int k, int kend, int jb, long row0, double* ipiv, bool next,
                                 double* pairs, unsigned* ticket, double* pivot) {
  extern __shared__ double urow[];  // a(k, k+1 : kend)
  const int w = kend - k - 1;
  for (int c = threadIdx.x; c < w; c += blockDim.x) urow[c] = a[k + (k + 1 + c) * ld];
  __syncthreads();
  const double pv = *pivot;
  const bool scale = pv != 0.0;
  const double inv = scale ? 1.0 / pv : 1.0;
  double v = -1.0;
  long r = -1;
  for (long i = k + 1 + blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; i < m;
       i += static_cast<long>(gridDim.x) * blockDim.x) {
    const double l = a[i + k * ld] * inv;
    a[i + k * ld] = l;
    for (int c = 0; c < w; ++c) {
      double* x = a + i + (k + 1 + c) * ld;
      const double y = *x - l * urow[c];
      *x = y;
      if (c == 0 && next) {
        const double ay = fabs(y);
        if (better(ay, i, v, r)) v = ay, r = i;
      }
    }
  }
  if (next) finish_pivot(a, ld, k + 1, jb, row0, ipiv, v, r, pairs, ticket, pivot);
}

__global__ void row_moves_kernel(double* a, long ld, long nc, const long* dst, const long* src, int count) {
  extern __shared__ double rows[];
  for (long c = blockIdx.x; c < nc; c += gridDim.x) {
    double* col = a + c * ld;
    for (int s = threadIdx.x; s < count; s += blockDim.x) rows[s] = col[src[s]];
    __syncthreads();
    for (int s = threadIdx.x; s < count; s += blockDim.x) col[dst[s]] = rows[s];
    __syncthreads();
  }
}

int blocks_for(long rows, int max_blocks) {
  const long b = (rows + kThreads - 1) / kThreads;
  return static_cast<int>(std::max<long>(1, std::min<long>(b, max_blocks)));
}

}  // namespace

PivotScratch make_pivot_scratch(long max_rows) {
  int dev = 0, sms = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "cudaDeviceGetAttribute");
  PivotScratch s;
  s.max_blocks = blocks_for(max_rows, 2 * sms);
  check(cudaMalloc(reinterpret_cast<void**>(&s.pairs), 2 * sizeof(double) * s.max_blocks), "cudaMalloc (pivot pairs)");
  check(cudaMalloc(reinterpret_cast<void**>(&s.ticket), sizeof(unsigned)), "cudaMalloc (pivot ticket)");
  check(cudaMalloc(reinterpret_cast<void**>(&s.pivot), sizeof(double)), "cudaMalloc (pivot value)");
  check(cudaMemset(s.ticket, 0, sizeof(unsigned)), "cudaMemset (pivot ticket)");
  check(cudaMemset(s.pivot, 0, sizeof(double)), "cudaMemset (pivot value)");
  // cudaMemset runs on the legacy default stream, which the LU's non-blocking streams do not
  // wait for: finish it here, or the first pivot search may count from a stale ticket.
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (pivot scratch)");
  return s;
}

void free_pivot_scratch(PivotScratch& s) {
  if (s.pairs) cudaFree(s.pairs);
  if (s.ticket) cudaFree(s.ticket);
  if (s.pivot) cudaFree(s.pivot);
  s = PivotScratch{};
}

void pivot_search(double* a, long ld, long m, int k, int jb, long row0, double* ipiv, const PivotScratch& s,
                  cudaStream_t stream) {
  pivot_search_kernel<<<blocks_for(m - k, s.max_blocks), kThreads, 0, stream>>>(a, ld, m, k, jb, row0, ipiv, s.pairs,
                                                                                 s.ticket, s.pivot);
  check(cudaGetLastError(), "pivot_search launch");
}

void eliminate(double* a, long ld, long m, int k, int kend, int jb, long row0, double* ipiv, bool next,
               const PivotScratch& s, cudaStream_t stream) {
  const std::size_t shared = sizeof(double) * static_cast<std::size_t>(std::max(1, kend - k - 1));
  eliminate_kernel<<<blocks_for(m - k - 1, s.max_blocks), kThreads, shared, stream>>>(a, ld, m, k, kend, jb, row0, ipiv,
                                                                                      next, s.pairs, s.ticket, s.pivot);
  check(cudaGetLastError(), "eliminate launch");
}

void apply_row_moves(double* a, long ld, long nc, const long* dst, const long* src, int count, cudaStream_t stream) {
  if (nc <= 0 || count <= 0) return;
  const std::size_t shared = sizeof(double) * static_cast<std::size_t>(count);
  static bool raised = false;  // the dynamic shared-memory limit, raised once for large NB
  if (!raised) {
    check(cudaFuncSetAttribute(row_moves_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 160 * 1024),
          "cudaFuncSetAttribute (row moves)");
    raised = true;
  }
  if (shared > 160 * 1024)
    throw InputError("hpl device LU: a panel moves " + std::to_string(count) +
                     " rows, more than the row-interchange kernel holds (20480); use NB <= 10240");
  const int blocks = static_cast<int>(std::min<long>(nc, 65535));
  row_moves_kernel<<<blocks, kThreads, shared, stream>>>(a, ld, nc, dst, src, count);
  check(cudaGetLastError(), "apply_row_moves launch");
}

}  // namespace gluon::hpl::kernels
