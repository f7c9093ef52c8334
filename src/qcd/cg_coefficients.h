#pragma once
// Private: CG's step length computed on the device from device-resident scalars (blas.h,
// "Device-resident scalars"). Shared by the BLAS kernels (blas_kernels.h) and the staggered
// dslash, whose even-odd M can fold CG's residual update into its last kernel (staggered_dslash.h).
#include "gluon/runtime/hd.h"

namespace gluon::qcd::blas::detail {

// alpha = |r|^2 / p^dagger A p when that is positive and finite, else 0: a breakdown leaves x and r
// as they were, and the host, which reads p^dagger A p from the slot's mirror, reports it.
GLUON_HD_INLINE double cg_alpha(double r2, double pAp) {
  return (pAp > 0.0 && pAp <= 1.7976931348623157e308) ? r2 / pAp : 0.0;
}

}  // namespace gluon::qcd::blas::detail
