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

// The sums bicgstab_ts (or the operator's fold) leaves in its slots: <t, s>, |t|^2 and the shadow
// residual's dots with s and t, {Re <t,s>, Im <t,s>, |t|^2, Re <r0,s>, Im <r0,s>, Re <r0,t>, Im <r0,t>}.
inline constexpr int kTsSums = 7;

// The next rho, <r0, r> of r = s - omega t, from the ts sums: <r0, s> - omega <r0, t>. It needs
// neither r nor another pass over r0, so p's update can join x's and r's in one kernel
// (bicgstab_step); it differs from <r0, r> of the stored r by r's rounding only.
GLUON_HD_INLINE Complex<double> next_rho(const double* ts, Complex<double> omega) {
  return Complex<double>(ts[3], ts[4]) - omega * Complex<double>(ts[5], ts[6]);
}

// finish() of the ts sums: omega = <t, s> / |t|^2, the next rho and beta = (rho_next / rho)
// (alpha / omega) (0 where a quotient is not finite), so that the kernel after it reads all three
// (computed in every thread, the quotients made BiCGstab's update kernel 20% slower:
// bench/results/2026-11-24-cg-device-scalars-h200/, trip 6).
struct OmegaFinish {
  PairOut omega;
  const double *rho, *alpha;
  PairOut rho_next, beta;
  GLUON_HD void finish(const qcd::detail::DoubleSums<kTsSums>& ts) const {
    const Complex<double> w = cquot({ts.v[0], ts.v[1]}, {ts.v[2], 0.0});
    omega.write(w);
    const Complex<double> rn = next_rho(ts.v, w);
    rho_next.write(rn);
    beta.write(finite_or_zero(cquot(rn, {rho[0], rho[1]}) * cquot({alpha[0], alpha[1]}, w)));
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
