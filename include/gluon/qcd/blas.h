#pragma once
// BLAS-1 on spinor fields: the vector operations of the Krylov solvers, written once as GLUON_HD
// site functors (src/qcd/blas_kernels*.cpp) and run on the CPU (OpenMP) or the GPU (CUDA) by the
// Exec passed in. Every operand of one call must share precision, nspin, site subset and geometry
// (InputError naming the kernel and the operand otherwise); layouts (site_major / blocked, pad)
// may differ. The fields' memory must be usable by ex (host/pinned for cpu, device memory of
// ex.device for cuda). Arithmetic runs in the storage's compute type (double for double, float for
// single and half); every reduction is accumulated in double over sites, and per site in double too except
// for half-precision operands (float: 16-bit values lose nothing there; blas_kernels.h, SiteSum) (the
// parallel_reduce order is fixed, so results do not depend on the thread count). Half-precision
// operands are decoded with their per-site norms and every written site is re-normalised (new
// norm = max |component|, accessor store). Complex inner products are cdot(x, y) = sum conj(x) y.
//
// Plain kernels
//   zero(x)                  x = 0
//   copy(dst, src)           dst = src; may change precision, layout and memory space
//                            (qcd::convert); nspin and subset must match; a no-op when dst is src
//   scale(a, x)              x = a x
//   axpy(a, x, y)            y += a x
//   xpay(x, a, y)            y = x + a y
//   axpby(a, x, b, y)        y = a x + b y
//   caxpy(a, x, y)           y += a x            (a complex)
//   caxpby(a, x, b, y)       y = a x + b y       (a, b complex)
//   norm2(x)                 |x|^2
//   cdot(x, y)               <x, y> = sum conj(x) y
//   re_dot(x, y)             Re <x, y>
//
// Fused kernels (each vector is streamed once per call; the solver loops are built from these)
//   axpy_norm2(a, x, y)          y += a x; returns |y|^2               (CG: r -= alpha A p)
//   caxpy_norm2(a, x, y)         y += a x (a complex); returns |y|^2   (BiCGstab: s = r - alpha v)
//   xmy_norm2(x, y)              y = x - y; returns |y|^2              (true residual b - A x)
//   cg_update(a, p, Ap, x, r)    x += a p; r -= a Ap; returns |r|^2
//   axpy_zpbx(a, p, x, r, b)     x += a p; p = r + b p                 (CG, after axpy_norm2)
//   cdot_norm2(x, y)             {<x, y>, |x|^2}                       (BiCGstab: omega = <t,s>/|t|^2)
//   bicgstab_step(alpha, omega, beta, p, s, t, v, x)
//                                x += alpha p + omega s; s = s - omega t (s becomes the new r);
//                                p = r + beta (p - omega v); returns |r|^2 (BiCGstab's updates of
//                                one iteration in one pass)
//   multishift_update(r, shifts) for every shift i: x_i += alpha_i p_i; p_i = zeta_i r + beta_i p_i
//                                (multi-shift CG; r is read once for all shifts)
//   multishift_window(r_0..r_m-1, shifts)
//                                m iterations of those updates in one pass, given as coefficients
//                                of the iterations' residuals (ShiftWindow): each x_i and p_i is
//                                read and written once a window instead of once an iteration
//   axpy_sum(terms, x)           x += sum_i a_i v_i over the terms {v_i, a_i} (x is read and written
//                                once per kMaxAxpyTerms terms; CG's deferred solution update)
//
// Across precisions (reliable updates): nspin, site subset and geometry must match, the
// precisions may differ (blas_mixed_kernels.cpp; one pass each where the outer precision is double
// or single and, on the GPU, the fields are in the blocked order; otherwise the same result from
// the unfused sequence)
//   accumulate(x, xs)            x += xs; xs = 0     (x: solution, xs: the sloppy correction)
//   xmy_norm2_copy(b, r, rs)     r = b - r; rs = r in rs's precision; returns |r|^2 (b, r share a
//                                precision; the true residual and its sloppy copy)
//
// Device-resident scalars (runtime/scalar_slots.h): CG and BiCGstab without a host wait per
// reduction. A Slot names one double of a ScalarSlots made on ex's backend, device and stream;
// these calls are queued on ex's stream and return at once on the GPU (the host reads a result from the slot's mirror
// after ScalarSlots::wait()); on the CPU they complete before returning. On a lattice split over
// ranks a queued reduction is summed over the world before it returns (which waits).
//   re_dot(x, y, out)                   out = Re <x, y>
//   cg_residual(r2, pAp, Ap, r, r2_new) r -= alpha Ap; r2_new = |r|^2
//   cg_step(r2, pAp, r2_new, p, x, r)   x += alpha p; p = r + beta p
//   cg_step_batched(r2, pAp, r2_new, p, p_next, r, x, terms)
//                                       p_next = r + beta p (p_next may be p); and when x is given,
//                                       x += alpha p + sum_i a_i v_i over the terms (at most
//                                       kMaxAxpyTerms - 1; none of them p_next or x). CG with its
//                                       solution update batched: the earlier directions wait in
//                                       their own vectors and x is streamed once per batch.
//   multishift_base_step(r2, r2_new, r, p, r_copy, p_save)
//                                       p_save = p (if given); p = r + beta p; r_copy = r, in one
//                                       pass: multi-shift CG's base step under a window
//                                       (multishift_window records its x update), queued before
//                                       the host reads the iteration's scalars.
// with alpha = r2 / pAp when pAp is positive and finite, else 0 (x and r then stay as they were;
// the caller sees the breakdown in pAp's mirror), and beta = r2_new / r2 (0 unless r2 > 0).
// BiCGstab's, where rho, rho_next, alpha, omega and beta name {Re, Im} pairs, r0v the triple
// {Re <r0, v>, Im <r0, v>, |r0|^2} and ts the kTsSums = 7 sums {Re <t, s>, Im <t, s>, |t|^2,
// Re <r0, s>, Im <r0, s>, Re <r0, t>, Im <r0, t>}. Each reduction also writes the coefficient the
// next kernels need, computed once on the device from its sums:
//   bicgstab_r0v(r0, v, rho, r0v, alpha)   r0v = <r0, v>; alpha = rho / <r0, v>
//   bicgstab_s(alpha, v, r, s2)            r -= alpha v; s2 = |r|^2
//   bicgstab_ts(t, s, r0, {rho, alpha, ts, omega, rho_next, beta})
//                                          ts = the 7 sums; omega = <t, s> / |t|^2;
//                                          rho_next = <r0, s> - omega <r0, t> (<r0, r> of the r
//                                          below, but for r's rounding); beta = (rho_next / rho)
//                                          (alpha / omega)
//   bicgstab_step(alpha, omega, beta, p, s, t, v, x, r2)
//                                          x += alpha p + omega s; s -= omega t (the new r);
//                                          p = r + beta (p - omega v); r2 = |r|^2
// A zero or non-finite quotient is written as 0 (the caller reads the slots and reports it).
//
// Flop counts (per real component of one operand) used for solver GFLOP/s are in kFlops*.
#include <string>
#include <vector>

#include "gluon/qcd/complex.h"
#include "gluon/qcd/spinor_field.h"
#include "gluon/runtime/exec.h"
#include "gluon/runtime/scalar_slots.h"

namespace gluon::qcd::blas {

void zero(SpinorField& x, const runtime::Exec& ex);
void copy(SpinorField& dst, const SpinorField& src, const runtime::Exec& ex);
void scale(double a, SpinorField& x, const runtime::Exec& ex);
void axpy(double a, const SpinorField& x, SpinorField& y, const runtime::Exec& ex);
void xpay(const SpinorField& x, double a, SpinorField& y, const runtime::Exec& ex);
void axpby(double a, const SpinorField& x, double b, SpinorField& y, const runtime::Exec& ex);
void caxpy(complexd a, const SpinorField& x, SpinorField& y, const runtime::Exec& ex);
void caxpby(complexd a, const SpinorField& x, complexd b, SpinorField& y, const runtime::Exec& ex);

double norm2(const SpinorField& x, const runtime::Exec& ex);
complexd cdot(const SpinorField& x, const SpinorField& y, const runtime::Exec& ex);
double re_dot(const SpinorField& x, const SpinorField& y, const runtime::Exec& ex);

double axpy_norm2(double a, const SpinorField& x, SpinorField& y, const runtime::Exec& ex);
double caxpy_norm2(complexd a, const SpinorField& x, SpinorField& y, const runtime::Exec& ex);
double xmy_norm2(const SpinorField& x, SpinorField& y, const runtime::Exec& ex);
double cg_update(double a, const SpinorField& p, const SpinorField& Ap, SpinorField& x, SpinorField& r,
                 const runtime::Exec& ex);
void axpy_zpbx(double a, SpinorField& p, SpinorField& x, const SpinorField& r, double b,
               const runtime::Exec& ex);

void accumulate(SpinorField& x, SpinorField& xs, const runtime::Exec& ex);
double xmy_norm2_copy(const SpinorField& b, SpinorField& r, SpinorField& rs, const runtime::Exec& ex);

struct DotNorm {
  complexd dot;  // <x, y>
  double norm2;  // |x|^2
};
DotNorm cdot_norm2(const SpinorField& x, const SpinorField& y, const runtime::Exec& ex);

double bicgstab_step(complexd alpha, complexd omega, complexd beta, SpinorField& p, SpinorField& s,
                     const SpinorField& t, const SpinorField& v, SpinorField& x, const runtime::Exec& ex);

// One shift of multishift_update: x += alpha p; p = zeta r + beta p.
struct ShiftUpdate {
  SpinorField* x;
  SpinorField* p;
  double alpha, beta, zeta;
};
void multishift_update(const SpinorField& r, const std::vector<ShiftUpdate>& shifts,
                       const runtime::Exec& ex);

// One shift of multishift_window: the updates of up to kMaxShiftWindow iterations in one pass,
// written in the shift's p at the window's start and the residuals r_j of those iterations
// (oldest first):
//   x += cx p + sum_j dx[j] r_j;   p = cp p + sum_j dp[j] r_j   (p only where update_p).
inline constexpr int kMaxShiftWindow = 8;
struct ShiftWindow {
  SpinorField* x = nullptr;
  SpinorField* p = nullptr;
  double cx = 0.0, cp = 1.0;
  double dx[kMaxShiftWindow] = {}, dp[kMaxShiftWindow] = {};
  bool update_p = true;
};
void multishift_window(const std::vector<const SpinorField*>& r, const std::vector<ShiftWindow>& shifts,
                       const runtime::Exec& ex);

// One term of a deferred solution update, x += a v (axpy_sum, cg_step_batched).
struct AxpyTerm {
  const SpinorField* v;
  double a;
};
inline constexpr int kMaxAxpyTerms = 8;  // vectors one pass adds into x (p and the terms)
void axpy_sum(const std::vector<AxpyTerm>& terms, SpinorField& x, const runtime::Exec& ex);

struct Slot {
  runtime::ScalarSlots* slots = nullptr;
  int index = 0;
};
// The address of slot s (its mirror's, as kernels see it, when `mirror`) after checking that s
// names `count` slots of a ScalarSlots made for ex's backend, device and stream (InputError
// "<who>: slot <name>: ..." otherwise).
double* slot_address(const std::string& who, const char* name, Slot s, const runtime::Exec& ex, bool mirror,
                     int count = 1);
void re_dot(const SpinorField& x, const SpinorField& y, Slot out, const runtime::Exec& ex);
void cg_residual(Slot r2, Slot pAp, const SpinorField& Ap, SpinorField& r, Slot r2_new, const runtime::Exec& ex);
void cg_step(Slot r2, Slot pAp, Slot r2_new, SpinorField& p, SpinorField& x, const SpinorField& r,
             const runtime::Exec& ex);
void cg_step_batched(Slot r2, Slot pAp, Slot r2_new, const SpinorField& p, SpinorField& p_next,
                     const SpinorField& r, SpinorField* x, const std::vector<AxpyTerm>& terms,
                     const runtime::Exec& ex);
void multishift_base_step(Slot r2, Slot r2_new, const SpinorField& r, SpinorField& p, SpinorField& r_copy,
                          SpinorField* p_save, const runtime::Exec& ex);
void bicgstab_r0v(const SpinorField& r0, const SpinorField& v, Slot rho, Slot r0v, Slot alpha,
                  const runtime::Exec& ex);
void bicgstab_s(Slot alpha, const SpinorField& v, SpinorField& r, Slot s2, const runtime::Exec& ex);
// The slots of BiCGstab's ts reduction (bicgstab_ts, DiracOperator::M_ts): it reads rho and alpha
// and writes ts (kTsSums values), omega, rho_next and beta.
struct TsSlots {
  Slot rho, alpha, ts, omega, rho_next, beta;
};
void bicgstab_ts(const SpinorField& t, const SpinorField& s, const SpinorField& r0, const TsSlots& slots,
                 const runtime::Exec& ex);
void bicgstab_step(Slot alpha, Slot omega, Slot beta, SpinorField& p, SpinorField& s, const SpinorField& t,
                   const SpinorField& v, SpinorField& x, Slot r2, const runtime::Exec& ex);

// Nominal floating-point operations per real component (solver GFLOP/s bookkeeping).
inline constexpr double kFlopsAxpy = 2.0;     // axpy, xpay, scale+add
inline constexpr double kFlopsNorm = 2.0;     // norm2, re_dot
inline constexpr double kFlopsCdot = 4.0;     // complex dot (per real: 2 mul + 2 add, halved pairs)
inline constexpr double kFlopsCaxpy = 4.0;    // complex axpy

}  // namespace gluon::qcd::blas
