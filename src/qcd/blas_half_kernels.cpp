// BLAS-1 kernels (qcd/blas.h) for half-precision spinor fields (16-bit components with one float
// norm per site; every written site is re-normalised by the accessor); see blas_kernels.h.
#include <cstdint>

#include "blas_kernels.h"

namespace gluon::qcd::blas::detail {

Sums run_half(Op op, const Args& args, const runtime::Exec& ex) {
  return run_store<std::int16_t>(op, args, ex);
}

}  // namespace gluon::qcd::blas::detail
