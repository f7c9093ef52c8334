// BLAS-1 kernels (qcd/blas.h) for single-precision spinor fields; see blas_kernels.h.
#include "blas_kernels.h"

namespace gluon::qcd::blas::detail {

Sums run_single(Op op, const Args& args, const runtime::Exec& ex) {
  return run_store<float>(op, args, ex);
}

}  // namespace gluon::qcd::blas::detail
