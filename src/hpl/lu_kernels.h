#pragma once
// CUDA kernels of the device-resident LU (cuda_device_lu.cpp; docs/hpl.md "Device-resident LU").
// All pointers are device memory; matrices are column-major with leading dimension ld. Every
// call is asynchronous on `stream`.
//
//   PivotScratch        per-call workspace of the pivot search: one (|value|, row) pair per
//                       block, a ticket counter (the last block to finish reduces the pairs), and
//                       the signed pivot value handed from one column's kernel to the next.
//   pivot_search        column k of an m x jb panel: the row p >= k of largest |a(p, k)| (ties:
//                       the smallest row), swapped with row k across all jb columns; ipiv[k] =
//                       row0 + p (a global row number, as a double, as the host LU keeps it).
//   eliminate           column k: scales a(k+1:m, k) by the pivot and updates a(k+1:m, k+1:kend);
//                       when next is true, the same launch finishes the pivot search of column
//                       k+1 (the leaf of the panel factorisation is one launch per column).
//   apply_row_moves     rows dst[s] := old rows src[s] (s < count, a permutation of a set of
//                       rows, local row numbers) in each of nc columns: the row interchanges of a
//                       panel applied to the trailing columns in one pass.
#include <cuda_runtime.h>

#include <cstddef>

namespace gluon::hpl::kernels {

struct PivotScratch {
  double* pairs = nullptr;      // 2 x max_blocks
  unsigned* ticket = nullptr;   // one counter, zero between calls
  double* pivot = nullptr;      // the signed pivot of the column last searched
  int max_blocks = 0;
};
// Allocates (and zeroes) the scratch for panels of up to `max_rows` rows.
PivotScratch make_pivot_scratch(long max_rows);
void free_pivot_scratch(PivotScratch& s);

void pivot_search(double* a, long ld, long m, int k, int jb, long row0, double* ipiv, const PivotScratch& s,
                  cudaStream_t stream);
void eliminate(double* a, long ld, long m, int k, int kend, int jb, long row0, double* ipiv, bool next,
               const PivotScratch& s, cudaStream_t stream);
void apply_row_moves(double* a, long ld, long nc, const long* dst, const long* src, int count, cudaStream_t stream);

}  // namespace gluon::hpl::kernels
