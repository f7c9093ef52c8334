#pragma once
// Private: BiCGstab's coefficients computed on the device, once, by the last thread of the
// reduction that produces their inputs (parallel_reduce_into with a finish(); blas.h,
// "Device-resident scalars"). Shared by the BLAS kernels (blas_kernels.h) and the Wilson-family
// dslash, whose even-odd M folds <r0, A p> and <t, s>, |t|^2 into its last kernel.
// A zero or non-finite quotient is written as 0; the host, which reads the same slots after its
// one wait an iteration, reports the breakdown.
#include "gluon/qcd/complex.h"
#include "gluon/runtime/hd.h"
#include "ops_support.h"

namespace gluon::qcd::blas::detail {

GLUON_HD_INLINE Complex<double> finite_or_zero(Complex<double> z) {
  const double big = 1.7976931348623157e308;
  return (z.re >= -big && z.re <= big && z.im >= -big && z.im <= big) ? z : Complex<double>(0.0, 0.0);
}
GLUON_HD_INLINE Complex<double> cquot(Complex<double> num, Complex<double> den) {
  return den.re == 0.0 && den.im == 0.0 ? Complex<double>(0.0, 0.0) : finite_or_zero(num / den);
}

// Where a finisher writes its {Re, Im}: the slot (device memory) and its mirror (host-visible).
struct PairOut {
  double *slot, *mirror;
  GLUON_HD void write(Complex<double> z) const {
    slot[0] = mirror[0] = z.re;
    slot[1] = mirror[1] = z.im;
  }
};
// finish() of cdot(r0, v): alpha = rho / <r0, v>.
struct AlphaFinish {
  const double* rho;
  PairOut alpha;
  GLUON_HD void finish(const qcd::detail::DoubleSums<3>& r0v) const {
    alpha.write(cquot({rho[0], rho[1]}, {r0v.v[0], r0v.v[1]}));
  }
};
// finish() of cdot(t, s): omega = <t, s> / |t|^2.
struct OmegaFinish {
  PairOut omega;
  GLUON_HD void finish(const qcd::detail::DoubleSums<3>& ts) const {
    omega.write(cquot({ts.v[0], ts.v[1]}, {ts.v[2], 0.0}));
  }
};
// finish() of bicgstab_update, whose sums are {|r|^2, <r0, r>}: beta = (<r0, r> / rho)(alpha / omega).
struct BetaFinish {
  const double *rho, *alpha, *omega;
  PairOut beta;
  GLUON_HD void finish(const qcd::detail::DoubleSums<3>& u) const {
    const Complex<double> w(omega[0], omega[1]);
    beta.write(finite_or_zero(cquot({u.v[1], u.v[2]}, {rho[0], rho[1]}) * cquot({alpha[0], alpha[1]}, w)));
  }
};
// A reduction functor K with a finisher.
template <class K, class Fin>
struct Finished : K {
  Fin fin;
  template <class T>
  GLUON_HD void finish(const T& total) const { fin.finish(total); }
};

}  // namespace gluon::qcd::blas::detail
