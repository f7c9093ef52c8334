#pragma once
// Private: the BLAS-1 site functors of qcd/blas.h and their launcher, templated on the spinor
// accessor. Each precision is instantiated in its own translation unit (blas_kernels.cpp: double
// and the host front end, blas_single_kernels.cpp, blas_half_kernels.cpp) so that nvcc compiles
// them in parallel. Operands are validated by the front end before these run.
//
// A functor loads each operand it reads once per site, computes in the accessor's compute type
// (Acc::real), stores each operand it writes once, and returns the site's contribution to the
// reductions in double (DoubleSums<nred>; nred = 0 means no reduction).
#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <utility>
#include <vector>

#include "gluon/qcd/blas.h"
#include "gluon/qcd/complex.h"
#include "gluon/qcd/spinor_accessor.h"
#include "gluon/runtime/exec.h"
#include "gluon/runtime/hd.h"
#include "gluon/runtime/parallel.h"
#include "bicgstab_coefficients.h"
#include "cg_coefficients.h"
#include "ops_support.h"

namespace gluon::qcd::blas::detail {

enum class Op {
  zero, scale, axpy, xpay, axpby, caxpy, caxpby, norm2, cdot, re_dot, axpy_norm2, caxpy_norm2,
  xmy_norm2, cg_update, axpy_zpbx, cdot_norm2, bicgstab_step, multishift, multishift_base, multishift_window,
  // coefficients from device slots (blas.h, "Device-resident scalars")
  cg_residual, cg_step, bicgstab_r0v, bicgstab_s, bicgstab_ts, bicgstab_step_slots,
  axpy_sum  // x += sum_i a_i v_i (Args::terms)
};

using Sums = qcd::detail::DoubleSums<kTsSums>;  // the most any op returns

struct Args {
  SpinorField* f[8] = {};  // operands, in the order of the functor's members
  complexd a, b, c;
  const std::vector<ShiftUpdate>* shifts = nullptr;
  const std::vector<ShiftWindow>* windows = nullptr;       // multishift_window; f[0..] its residuals
  int window_residuals = 0;
  const std::vector<AxpyTerm>* terms = nullptr;  // axpy_sum; cg_step's deferred terms (f[3] = x)
  int nspin = 4;
  std::int64_t sites = 0;
  // Device-resident scalars: the slots a kernel reads its coefficients from (cg_residual, cg_step:
  // |r|^2, p^dagger A p, the new |r|^2; BiCGstab: see blas.h), and where a queued reduction writes its sums (its first
  // double; the sums of one reduction occupy consecutive slots). Null: host coefficients, and a
  // reduction that returns its sums.
  const double* in[4] = {};
  // Where a reduction's finish() writes its {Re, Im} pairs, slot and mirror (bicgstab_r0v: alpha;
  // bicgstab_ts: omega, rho_next, beta).
  double* fin_out[3] = {};
  double* fin_mirror[3] = {};
  double* out_host = nullptr;
  double* out_device = nullptr;
};

// A named operand of one BLAS call. check_operands: every operand has the first one's nspin,
// site subset and geometry (and precision when same_precision), is allocated and is usable by
// ex; InputError "blas::<kernel>: operand <name>: ..." otherwise (blas_kernels.cpp).
using Operand = std::pair<const char*, const SpinorField*>;
void check_operands(const char* kernel, std::initializer_list<Operand> ops, const runtime::Exec& ex,
                    bool same_precision);

Sums run_double(Op op, const Args& args, const runtime::Exec& ex);
Sums run_single(Op op, const Args& args, const runtime::Exec& ex);
Sums run_half(Op op, const Args& args, const runtime::Exec& ex);

// ---- functors (Acc = SpinorAccessor<Store, nspin>) ----

// The type a reduction sums one site's products in before they join the double sum over sites:
// double, but float for half-precision operands. Their values carry 16 bits, so a site's 12-24
// products lose nothing in float, and converting each of them to double (F2F, a quarter of the
// FP32 rate on sm_90) and multiplying in double was most of the half cdot's instructions: it ran
// at 58% of the DRAM bandwidth, latency-bound at 24% occupancy (Nsight Compute, H100,
// bench/results/2026-11-26-half-blas-ncu/).
template <class Acc>
using SiteSum = std::conditional_t<is_half_store<typename Acc::store_type>, float, double>;

template <class Acc>
struct ZeroK {
  static constexpr int nred = 0;
  Acc x;
  GLUON_HD void operator()(std::int64_t s) const { x.store(s, typename Acc::value_type{}); }
};

template <class Acc>
struct ScaleK {
  static constexpr int nred = 0;
  using R = typename Acc::real;
  Acc x;
  R a;
  GLUON_HD void operator()(std::int64_t s) const {
    auto v = x.load(s);
    GLUON_UNROLL_FULL
    for (int r = 0; r < Acc::nreals; ++r) spinor_real(v, r) *= a;
    x.store(s, v);
  }
};

// y = a x + b y (axpy: b = 1, xpay: a = 1)
template <class Acc>
struct AxpbyK {
  static constexpr int nred = 0;
  using R = typename Acc::real;
  Acc x, y;
  R a, b;
  GLUON_HD void operator()(std::int64_t s) const {
    const auto vx = x.load(s);
    auto vy = y.load(s);
    GLUON_UNROLL_FULL
    for (int r = 0; r < Acc::nreals; ++r) spinor_real(vy, r) = a * spinor_real(vx, r) + b * spinor_real(vy, r);
    y.store(s, vy);
  }
};

template <class Acc>
struct AxpyK {
  static constexpr int nred = 0;
  using R = typename Acc::real;
  Acc x, y;
  R a;
  GLUON_HD void operator()(std::int64_t s) const {
    const auto vx = x.load(s);
    auto vy = y.load(s);
    GLUON_UNROLL_FULL
    for (int r = 0; r < Acc::nreals; ++r) spinor_real(vy, r) += a * spinor_real(vx, r);
    y.store(s, vy);
  }
};

template <class Acc>
struct XpayK {
  static constexpr int nred = 0;
  using R = typename Acc::real;
  Acc x, y;
  R a;
  GLUON_HD void operator()(std::int64_t s) const {
    const auto vx = x.load(s);
    auto vy = y.load(s);
    GLUON_UNROLL_FULL
    for (int r = 0; r < Acc::nreals; ++r) spinor_real(vy, r) = spinor_real(vx, r) + a * spinor_real(vy, r);
    y.store(s, vy);
  }
};

// y = a x + b y, a and b complex
template <class Acc>
struct CaxpbyK {
  static constexpr int nred = 0;
  using R = typename Acc::real;
  Acc x, y;
  Complex<R> a, b;
  GLUON_HD void operator()(std::int64_t s) const {
    const auto vx = x.load(s);
    auto vy = y.load(s);
    GLUON_UNROLL_FULL
    for (int c = 0; c < Acc::nreals / 2; ++c) {
      const Complex<R> zx(spinor_real(vx, 2 * c), spinor_real(vx, 2 * c + 1));
      const Complex<R> zy(spinor_real(vy, 2 * c), spinor_real(vy, 2 * c + 1));
      const Complex<R> z = a * zx + b * zy;
      spinor_real(vy, 2 * c) = z.re;
      spinor_real(vy, 2 * c + 1) = z.im;
    }
    y.store(s, vy);
  }
};

// Where a kernel's real coefficients a and b come from: values given by the host (Given), or CG's
// alpha and beta computed on the device from slots that earlier kernels wrote (CgSlots).
template <class R>
struct Given {
  R a_, b_;
  GLUON_HD R a() const { return a_; }
  GLUON_HD R b() const { return b_; }
};

// a() = sign alpha (cg_alpha, cg_coefficients.h); b() = beta = |r_new|^2 / |r|^2 (0 when
// |r|^2 = 0). Read per thread: each is one broadcast load from L1, against dozens of bytes of
// vector data per site.
template <class R>
struct CgSlots {
  const double *r2, *pAp, *r2_new;
  double sign;
  GLUON_HD R a() const { return static_cast<R>(sign * cg_alpha(*r2, *pAp)); }
  GLUON_HD R b() const {
    const double old = *r2;
    return static_cast<R>(old > 0.0 ? *r2_new / old : 0.0);
  }
};

// BiCGstab's complex coefficients: given by the host (GivenC), or read from device slots that the
// reductions producing them fill through their finish() (BicgCoef: a pointer to {Re, Im} of a, and
// of b). The finishers compute alpha = rho / <r0, v> and omega = <t, s> / |t|^2 once, in the
// reduction's last thread; a zero or non-finite quotient becomes 0 (x, r and p then keep their
// values where it enters) and the host, which reads the same slots after its one wait an
// iteration, reports the breakdown.
template <class R>
struct GivenC {
  Complex<R> a_, b_;
  GLUON_HD Complex<R> a() const { return a_; }
  GLUON_HD Complex<R> b() const { return b_; }
};

template <class R>
struct BicgCoef {
  const double *a_, *b_;
  double sign_a;
  GLUON_HD Complex<R> a() const { return Complex<R>(Complex<double>(sign_a * a_[0], sign_a * a_[1])); }
  GLUON_HD Complex<R> b() const { return b_ ? Complex<R>(Complex<double>(b_[0], b_[1])) : Complex<R>{}; }
};

// bicgstab_step's alpha, omega and beta: given by the host (GivenStep), or read from the slots
// that the ts reduction's finisher filled (StepSlots).
template <class R>
struct GivenStep {
  Complex<R> alpha_, omega_, beta_;
  GLUON_HD Complex<R> alpha() const { return alpha_; }
  GLUON_HD Complex<R> omega() const { return omega_; }
  GLUON_HD Complex<R> beta() const { return beta_; }
};

template <class R>
struct StepSlots {
  const double *alpha_, *omega_, *beta_;
  GLUON_HD Complex<R> alpha() const { return Complex<R>(Complex<double>(alpha_[0], alpha_[1])); }
  GLUON_HD Complex<R> omega() const { return Complex<R>(Complex<double>(omega_[0], omega_[1])); }
  GLUON_HD Complex<R> beta() const { return Complex<R>(Complex<double>(beta_[0], beta_[1])); }
};

// y += a x (complex a); optionally returns |y|^2
template <class Acc, bool norm, class Coef = GivenC<typename Acc::real>>
struct CaxpyK {
  static constexpr int nred = norm ? 1 : 0;
  using R = typename Acc::real;
  using Ret = std::conditional_t<norm, qcd::detail::DoubleSums<1>, void>;
  Acc x, y;
  Coef c;
  GLUON_HD Ret operator()(std::int64_t s) const {
    const auto vx = x.load(s);
    auto vy = y.load(s);
    const Complex<R> a = c.a();
    [[maybe_unused]] SiteSum<Acc> n2 = 0;
    GLUON_UNROLL_FULL
    for (int c = 0; c < Acc::nreals / 2; ++c) {
      const R xr = spinor_real(vx, 2 * c), xi = spinor_real(vx, 2 * c + 1);
      const R yr = spinor_real(vy, 2 * c) + (a.re * xr - a.im * xi);
      const R yi = spinor_real(vy, 2 * c + 1) + (a.re * xi + a.im * xr);
      spinor_real(vy, 2 * c) = yr;
      spinor_real(vy, 2 * c + 1) = yi;
      if constexpr (norm) n2 += static_cast<SiteSum<Acc>>(yr) * yr + static_cast<SiteSum<Acc>>(yi) * yi;
    }
    y.store(s, vy);
    if constexpr (norm) return {{n2}};
  }
};

template <class Acc>
struct Norm2K {
  static constexpr int nred = 1;
  static constexpr runtime::Tuning tuning = runtime::Tuning::idempotent;  // reads only: tuned by rerunning
  Acc x;
  GLUON_HD qcd::detail::DoubleSums<1> operator()(std::int64_t s) const {
    const auto v = x.load(s);
    SiteSum<Acc> n = 0;
    GLUON_UNROLL_FULL
    for (int r = 0; r < Acc::nreals; ++r) {
      const SiteSum<Acc> d = spinor_real(v, r);
      n += d * d;
    }
    return {{n}};
  }
};

// {Re <x,y>, Im <x,y>, |x|^2}
template <class Acc>
struct CdotK {
  static constexpr int nred = 3;
  static constexpr runtime::Tuning tuning = runtime::Tuning::idempotent;  // reads only: tuned by rerunning
  Acc x, y;
  GLUON_HD qcd::detail::DoubleSums<3> operator()(std::int64_t s) const {
    const auto vx = x.load(s);
    const auto vy = y.load(s);
    SiteSum<Acc> dr = 0, di = 0, n = 0;
    GLUON_UNROLL_FULL
    for (int c = 0; c < Acc::nreals / 2; ++c) {
      const SiteSum<Acc> xr = spinor_real(vx, 2 * c), xi = spinor_real(vx, 2 * c + 1);
      const SiteSum<Acc> yr = spinor_real(vy, 2 * c), yi = spinor_real(vy, 2 * c + 1);
      dr += xr * yr + xi * yi;
      di += xr * yi - xi * yr;
      n += xr * xr + xi * xi;
    }
    return {{dr, di, n}};
  }
};

template <class Acc>
struct ReDotK {
  static constexpr int nred = 1;
  static constexpr runtime::Tuning tuning = runtime::Tuning::idempotent;  // reads only: tuned by rerunning
  Acc x, y;
  GLUON_HD qcd::detail::DoubleSums<1> operator()(std::int64_t s) const {
    const auto vx = x.load(s);
    const auto vy = y.load(s);
    SiteSum<Acc> d = 0;
    GLUON_UNROLL_FULL
    for (int r = 0; r < Acc::nreals; ++r)
      d += static_cast<SiteSum<Acc>>(spinor_real(vx, r)) * static_cast<SiteSum<Acc>>(spinor_real(vy, r));
    return {{d}};
  }
};

// y += a x; |y|^2
template <class Acc, class Coef = Given<typename Acc::real>>
struct AxpyNormK {
  static constexpr int nred = 1;
  using R = typename Acc::real;
  Acc x, y;
  Coef c;
  GLUON_HD qcd::detail::DoubleSums<1> operator()(std::int64_t s) const {
    const auto vx = x.load(s);
    auto vy = y.load(s);
    const R a = c.a();
    SiteSum<Acc> n = 0;
    GLUON_UNROLL_FULL
    for (int r = 0; r < Acc::nreals; ++r) {
      const R v = spinor_real(vy, r) + a * spinor_real(vx, r);
      spinor_real(vy, r) = v;
      n += static_cast<SiteSum<Acc>>(v) * v;
    }
    y.store(s, vy);
    return {{n}};
  }
};

// y = x - y; |y|^2
template <class Acc>
struct XmyNormK {
  static constexpr int nred = 1;
  using R = typename Acc::real;
  Acc x, y;
  GLUON_HD qcd::detail::DoubleSums<1> operator()(std::int64_t s) const {
    const auto vx = x.load(s);
    auto vy = y.load(s);
    SiteSum<Acc> n = 0;
    GLUON_UNROLL_FULL
    for (int r = 0; r < Acc::nreals; ++r) {
      const R v = spinor_real(vx, r) - spinor_real(vy, r);
      spinor_real(vy, r) = v;
      n += static_cast<SiteSum<Acc>>(v) * v;
    }
    y.store(s, vy);
    return {{n}};
  }
};

// x += a p; r -= a Ap; |r|^2
template <class Acc>
struct CgUpdateK {
  static constexpr int nred = 1;
  using R = typename Acc::real;
  Acc p, ap, x, r;
  R a;
  GLUON_HD qcd::detail::DoubleSums<1> operator()(std::int64_t s) const {
    const auto vp = p.load(s);
    const auto vap = ap.load(s);
    auto vx = x.load(s);
    auto vr = r.load(s);
    SiteSum<Acc> n = 0;
    GLUON_UNROLL_FULL
    for (int k = 0; k < Acc::nreals; ++k) {
      spinor_real(vx, k) += a * spinor_real(vp, k);
      const R v = spinor_real(vr, k) - a * spinor_real(vap, k);
      spinor_real(vr, k) = v;
      n += static_cast<SiteSum<Acc>>(v) * v;
    }
    x.store(s, vx);
    r.store(s, vr);
    return {{n}};
  }
};

// x += a p; p = r + b p
template <class Acc, class Coef = Given<typename Acc::real>>
struct AxpyZpbxK {
  static constexpr int nred = 0;
  using R = typename Acc::real;
  Acc p, x, r;
  Coef c;
  GLUON_HD void operator()(std::int64_t s) const {
    auto vp = p.load(s);
    auto vx = x.load(s);
    const auto vr = r.load(s);
    const R a = c.a(), b = c.b();
    GLUON_UNROLL_FULL
    for (int k = 0; k < Acc::nreals; ++k) {
      const R pk = spinor_real(vp, k);
      spinor_real(vx, k) += a * pk;
      spinor_real(vp, k) = spinor_real(vr, k) + b * pk;
    }
    x.store(s, vx);
    p.store(s, vp);
  }
};

// {Re <t,s>, Im <t,s>, |t|^2, Re <r0,s>, Im <r0,s>, Re <r0,t>, Im <r0,t>} (kTsSums): omega and the
// next rho of BiCGstab in one pass over t, s and r0.
template <class Acc>
struct TsSumsK {
  static constexpr int nred = kTsSums;
  static constexpr runtime::Tuning tuning = runtime::Tuning::idempotent;  // reads only: tuned by rerunning
  Acc t, s_, r0;
  GLUON_HD qcd::detail::DoubleSums<kTsSums> operator()(std::int64_t s) const {
    const auto vt = t.load(s);
    const auto vs = s_.load(s);
    const auto v0 = r0.load(s);
    SiteSum<Acc> d[kTsSums] = {};
    GLUON_UNROLL_FULL
    for (int c = 0; c < Acc::nreals / 2; ++c) {
      const SiteSum<Acc> tr = spinor_real(vt, 2 * c), ti = spinor_real(vt, 2 * c + 1);
      const SiteSum<Acc> sr = spinor_real(vs, 2 * c), si = spinor_real(vs, 2 * c + 1);
      const SiteSum<Acc> ar = spinor_real(v0, 2 * c), ai = spinor_real(v0, 2 * c + 1);
      d[0] += tr * sr + ti * si;
      d[1] += tr * si - ti * sr;
      d[2] += tr * tr + ti * ti;
      d[3] += ar * sr + ai * si;
      d[4] += ar * si - ai * sr;
      d[5] += ar * tr + ai * ti;
      d[6] += ar * ti - ai * tr;
    }
    return {{d[0], d[1], d[2], d[3], d[4], d[5], d[6]}};
  }
};

// BiCGstab's vector updates of one iteration in one pass: x += alpha p + omega s; r = s - omega t,
// stored over s; p = r + beta (p - omega v); returns |r|^2. It streams 8 vectors, where x and r
// (with <r0, r>) and then p took 7 + 4: beta comes from the ts sums (next_rho), not from r.
// In three stages (x; r; p), each storing before the next loads: with all five spinors loaded
// first, the double kernel spilled (184 bytes a thread, ptxas) and ran at 2.5 TB/s on an H100,
// where the kernels it replaces ran at 2.9.
template <class Acc, class Coef>
struct BicgStepK {
  static constexpr int nred = 1;
  using R = typename Acc::real;
  Acc p, s_, t, v, x;
  Coef c;
  template <class V>
  GLUON_HD_INLINE static Complex<R> at(const V& a, int k) {
    return {spinor_real(a, 2 * k), spinor_real(a, 2 * k + 1)};
  }
  template <class V>
  GLUON_HD_INLINE static void put(V& a, int k, Complex<R> z) {
    spinor_real(a, 2 * k) = z.re;
    spinor_real(a, 2 * k + 1) = z.im;
  }
  GLUON_HD qcd::detail::DoubleSums<1> operator()(std::int64_t s) const {
    const Complex<R> alpha = c.alpha(), omega = c.omega(), beta = c.beta();
    auto vp = p.load(s);
    auto vs = s_.load(s);
    {
      auto vx = x.load(s);
      GLUON_UNROLL_FULL
      for (int k = 0; k < Acc::nreals / 2; ++k) put(vx, k, at(vx, k) + alpha * at(vp, k) + omega * at(vs, k));
      x.store(s, vx);
    }
    SiteSum<Acc> n = 0;
    {
      const auto vt = t.load(s);
      GLUON_UNROLL_FULL
      for (int k = 0; k < Acc::nreals / 2; ++k) {
        const Complex<R> zr = at(vs, k) - omega * at(vt, k);
        put(vs, k, zr);
        const SiteSum<Acc> rr = zr.re, ri = zr.im;
        n += rr * rr + ri * ri;
      }
      s_.store(s, vs);
    }
    const auto vv = v.load(s);
    GLUON_UNROLL_FULL
    for (int k = 0; k < Acc::nreals / 2; ++k) put(vp, k, at(vs, k) + beta * (at(vp, k) - omega * at(vv, k)));
    p.store(s, vp);
    return {{n}};
  }
};

// vx += sum_{i<n} c_i v_i at site s (CgStepK's and AxpySumK's deferred terms).
template <class Acc, class V, class R>
GLUON_HD_INLINE void add_terms(V& vx, const Acc* v, const R* c, int n, std::int64_t s) {
  for (int i = 0; i < n; ++i) {
    const auto vv = v[i].load(s);
    GLUON_UNROLL_FULL
    for (int k = 0; k < Acc::nreals; ++k) spinor_real(vx, k) += c[i] * spinor_real(vv, k);
  }
}

// p_next = r + b p (p_next may be p); with x: x += a p + sum_{i<n} c_i v_i. CG's step, its
// solution update done every iteration (cg_step: no terms) or deferred and batched
// (cg_step_batched: x only every few iterations, the waiting directions as the terms).
template <class Acc, class Coef>
struct CgStepK {
  static constexpr int nred = 0;
  using R = typename Acc::real;
  Acc p, p_next, r, x;
  Acc v[kMaxAxpyTerms - 1];
  R c[kMaxAxpyTerms - 1];
  int n;
  bool update_x;
  Coef cg;
  GLUON_HD void operator()(std::int64_t s) const {
    const auto vp = p.load(s);
    auto vn = r.load(s);
    const R b = cg.b();
    if (update_x) {
      auto vx = x.load(s);
      const R a = cg.a();
      GLUON_UNROLL_FULL
      for (int k = 0; k < Acc::nreals; ++k) spinor_real(vx, k) += a * spinor_real(vp, k);
      add_terms(vx, v, c, n, s);
      x.store(s, vx);
    }
    GLUON_UNROLL_FULL
    for (int k = 0; k < Acc::nreals; ++k) spinor_real(vn, k) += b * spinor_real(vp, k);
    p_next.store(s, vn);
  }
};

// x += sum_{i<n} c_i v_i
template <class Acc>
struct AxpySumK {
  static constexpr int nred = 0;
  using R = typename Acc::real;
  Acc x;
  Acc v[kMaxAxpyTerms];
  R c[kMaxAxpyTerms];
  int n;
  GLUON_HD void operator()(std::int64_t s) const {
    auto vx = x.load(s);
    add_terms(vx, v, c, n, s);
    x.store(s, vx);
  }
};

inline constexpr int kMaxShiftsPerLaunch = 8;

// For shifts k < n: x_k += alpha_k p_k; p_k = zeta_k r + beta_k p_k (r loaded once)
template <class Acc>
struct MultishiftK {
  static constexpr int nred = 0;
  using R = typename Acc::real;
  Acc r;
  Acc x[kMaxShiftsPerLaunch], p[kMaxShiftsPerLaunch];
  R alpha[kMaxShiftsPerLaunch], beta[kMaxShiftsPerLaunch], zeta[kMaxShiftsPerLaunch];
  int n;
  GLUON_HD void operator()(std::int64_t s) const {
    const auto vr = r.load(s);
    for (int i = 0; i < n; ++i) {
      auto vp = p[i].load(s);
      auto vx = x[i].load(s);
      GLUON_UNROLL_FULL
      for (int k = 0; k < Acc::nreals; ++k) {
        const R pk = spinor_real(vp, k);
        spinor_real(vx, k) += alpha[i] * pk;
        spinor_real(vp, k) = zeta[i] * spinor_real(vr, k) + beta[i] * pk;
      }
      x[i].store(s, vx);
      p[i].store(s, vp);
    }
  }
};

// Multi-shift CG's windowed base step: p_save = p (where save_p), p = r + beta p, r_copy = r.
template <class Acc>
struct MultishiftBaseK {
  static constexpr int nred = 0;
  using R = typename Acc::real;
  Acc r, p, r_copy, p_save;
  CgSlots<R> cg;  // beta = r2_new / r2
  bool save_p;
  GLUON_HD void operator()(std::int64_t s) const {
    const R beta = cg.b();
    const auto vr = r.load(s);
    auto vp = p.load(s);
    if (save_p) p_save.store(s, vp);
    r_copy.store(s, vr);
    GLUON_UNROLL_FULL
    for (int k = 0; k < Acc::nreals; ++k) spinor_real(vp, k) = spinor_real(vr, k) + beta * spinor_real(vp, k);
    p.store(s, vp);
  }
};

// For shifts i < n, the m iterations of a window (blas::ShiftWindow):
//   x_i += cx_i p_i + sum_j dx_ij r_j;  p_i = cp_i p_i + sum_j dp_ij r_j  (p_i stored where update_p).
// Each r_j is loaded once a shift, the later loads meant to hit in L1/L2 so that memory sees each
// vector once a window (not profiled: its DRAM bytes were not counted; the pass took 171-184 us
// a window in a 32^4 staggered double solve on an H200, bench/results/2026-11-28-multishift-window/).
template <class Acc>
struct MultishiftWindowK {
  static constexpr int nred = 0;
  using R = typename Acc::real;
  Acc r[kMaxShiftWindow];
  Acc x[kMaxShiftsPerLaunch], p[kMaxShiftsPerLaunch];
  R cx[kMaxShiftsPerLaunch], cp[kMaxShiftsPerLaunch];
  R dx[kMaxShiftsPerLaunch][kMaxShiftWindow], dp[kMaxShiftsPerLaunch][kMaxShiftWindow];
  bool update_p[kMaxShiftsPerLaunch];
  int n, m;
  GLUON_HD void operator()(std::int64_t s) const {
    for (int i = 0; i < n; ++i) {
      auto vp = p[i].load(s);
      auto vx = x[i].load(s);
      GLUON_UNROLL_FULL
      for (int k = 0; k < Acc::nreals; ++k) {
        spinor_real(vx, k) += cx[i] * spinor_real(vp, k);
        spinor_real(vp, k) *= cp[i];
      }
      for (int j = 0; j < m; ++j) {
        const auto vr = r[j].load(s);
        GLUON_UNROLL_FULL
        for (int k = 0; k < Acc::nreals; ++k) {
          spinor_real(vx, k) += dx[i][j] * spinor_real(vr, k);
          spinor_real(vp, k) += dp[i][j] * spinor_real(vr, k);
        }
      }
      x[i].store(s, vx);
      if (update_p[i]) p[i].store(s, vp);
    }
  }
};

// ---- launcher ----

template <class F>
Sums launch(const runtime::Exec& ex, const char* label, std::int64_t n, const F& f, const Args& a) {
  Sums out{};
  if constexpr (F::nred == 0) {
    runtime::parallel_for(ex, label, n, f);
  } else if (a.out_host != nullptr) {
    using T = qcd::detail::DoubleSums<F::nred>;
    runtime::parallel_reduce_into<T>(ex, label, n, f, reinterpret_cast<T*>(a.out_host),
                                     reinterpret_cast<T*>(a.out_device));
  } else {
    const auto r = runtime::parallel_reduce<qcd::detail::DoubleSums<F::nred>>(ex, label, n, f);
    for (int i = 0; i < F::nred; ++i) out.v[i] = r.v[i];
  }
  return out;
}

// Ops whose result does not depend on which stored reals form a site or a complex number: real
// coefficients, element-wise updates and sums of element-wise products.
constexpr bool pairing_free(Op op) {
  switch (op) {
    case Op::zero: case Op::scale: case Op::axpy: case Op::xpay: case Op::axpby: case Op::norm2:
    case Op::re_dot: case Op::axpy_norm2: case Op::xmy_norm2: case Op::cg_update: case Op::axpy_zpbx:
    case Op::multishift: case Op::multishift_base: case Op::multishift_window: case Op::cg_residual: case Op::cg_step:
    case Op::axpy_sum:
      return true;
    default:
      return false;
  }
}

// Whether every spinor operand of op (the fields, the shifts' x and p, the axpy terms) is stored in
// `order`; an absent one (nullptr) counts as such.
inline bool every_operand_in(Op op, const Args& a, FieldOrder order) {
  auto in = [order](const SpinorField* f) { return f == nullptr || f->layout().order == order; };
  for (const SpinorField* f : a.f)
    if (!in(f)) return false;
  if (op == Op::multishift)
    for (const ShiftUpdate& u : *a.shifts)
      if (!in(u.x) || !in(u.p)) return false;
  if (op == Op::multishift_window)
    for (const ShiftWindow& u : *a.windows)
      if (!in(u.x) || !in(u.p)) return false;
  if (a.terms != nullptr)
    for (const AxpyTerm& t : *a.terms)
      if (!in(t.v)) return false;
  return true;
}

// Tiled operands (field_layout.h) cost a strided load per real when read a site at a time (1.3-1.8x
// the time of site_major on the 2-core Zen 5 VM). When every operand is tiled, an op that is
// pairing_free runs on the storage viewed as site_major instead: the same reals in the same
// places, grouped into other "sites", which changes nothing but the order of a reduction's sum.
// Half precision keeps a norm per real site, so it never takes the view.
inline bool flat_view(Op op, const Args& a, bool half) {
  return !half && pairing_free(op) && every_operand_in(op, a, FieldOrder::tiled);
}

template <class Acc>
Sums run_acc(Op op, const Args& a, const runtime::Exec& ex) {
  using R = typename Acc::real;
  using C = Complex<R>;
  const bool flat = flat_view(op, a, is_half_store<typename Acc::store_type>);
  auto view = [flat](SpinorField& f) {
    auto x = make_spinor_accessor<typename Acc::store_type, Acc::spins, Acc::blocked_on_device>(f);
    if (flat) {
      x.layout.order = FieldOrder::site_major;
      x.layout.block = x.layout.nreals;
      x.layout.stride = x.layout.sites;
    }
    return x;
  };
  auto acc = [&](int k) { return view(*a.f[k]); };
  const C ca(static_cast<R>(a.a.re), static_cast<R>(a.a.im));
  const C cb(static_cast<R>(a.b.re), static_cast<R>(a.b.im));
  const R ra = static_cast<R>(a.a.re), rb = static_cast<R>(a.b.re);
  const std::int64_t n = a.sites;
  auto launch_op = [&](const char* label, std::int64_t count, const auto& f) { return launch(ex, label, count, f, a); };
  const CgSlots<R> cg{a.in[0], a.in[1], a.in[2], 1.0};
  auto fin = [&](int i) { return PairOut{a.fin_out[i], a.fin_mirror[i]}; };
  switch (op) {
    case Op::zero: return launch_op("blas_zero", n, ZeroK<Acc>{acc(0)});
    case Op::scale: return launch_op("blas_scale", n, ScaleK<Acc>{acc(0), ra});
    case Op::axpy: return launch_op("blas_axpy", n, AxpyK<Acc>{acc(0), acc(1), ra});
    case Op::xpay: return launch_op("blas_xpay", n, XpayK<Acc>{acc(0), acc(1), ra});
    case Op::axpby: return launch_op("blas_axpby", n, AxpbyK<Acc>{acc(0), acc(1), ra, rb});
    case Op::caxpy: return launch_op("blas_caxpy", n, CaxpyK<Acc, false>{acc(0), acc(1), {ca, C{}}});
    case Op::caxpby: return launch_op("blas_caxpby", n, CaxpbyK<Acc>{acc(0), acc(1), ca, cb});
    case Op::norm2: return launch_op("blas_norm2", n, Norm2K<Acc>{acc(0)});
    case Op::cdot:
    case Op::cdot_norm2: return launch_op("blas_cdot_norm2", n, CdotK<Acc>{acc(0), acc(1)});
    case Op::re_dot: return launch_op("blas_re_dot", n, ReDotK<Acc>{acc(0), acc(1)});
    case Op::axpy_norm2: return launch_op("blas_axpy_norm2", n, AxpyNormK<Acc>{acc(0), acc(1), {ra, 0}});
    case Op::caxpy_norm2: return launch_op("blas_caxpy_norm2", n, CaxpyK<Acc, true>{acc(0), acc(1), {ca, C{}}});
    case Op::xmy_norm2: return launch_op("blas_xmy_norm2", n, XmyNormK<Acc>{acc(0), acc(1)});
    case Op::cg_update:
      return launch_op("blas_cg_update", n, CgUpdateK<Acc>{acc(0), acc(1), acc(2), acc(3), ra});
    case Op::axpy_zpbx:
      return launch_op("blas_axpy_zpbx", n, AxpyZpbxK<Acc>{acc(0), acc(1), acc(2), {ra, rb}});
    case Op::bicgstab_step: {
      const C cc(static_cast<R>(a.c.re), static_cast<R>(a.c.im));
      return launch_op("blas_bicgstab_step", n,
                       BicgStepK<Acc, GivenStep<R>>{acc(0), acc(1), acc(2), acc(3), acc(4), {ca, cb, cc}});
    }
    case Op::cg_residual: {
      CgSlots<R> neg = cg;
      neg.sign = -1.0;
      return launch_op("blas_cg_residual", n, AxpyNormK<Acc, CgSlots<R>>{acc(0), acc(1), neg});
    }
    case Op::cg_step: {
      // f: p, p_next, r and x (null: p_next = r + beta p only); terms: the deferred ones.
      CgStepK<Acc, CgSlots<R>> k{};
      k.p = acc(0);
      k.p_next = acc(1);
      k.r = acc(2);
      k.update_x = a.f[3] != nullptr;
      k.x = k.update_x ? acc(3) : acc(1);
      k.n = 0;
      if (a.terms != nullptr)
        for (const AxpyTerm& t : *a.terms) {
          k.v[k.n] = view(*const_cast<SpinorField*>(t.v));
          k.c[k.n++] = static_cast<R>(t.a);
        }
      k.cg = cg;
      return launch_op(k.update_x ? "blas_cg_step" : "blas_cg_step_p", n, k);
    }
    case Op::axpy_sum: {
      const auto& terms = *a.terms;
      for (std::size_t first = 0; first < terms.size(); first += kMaxAxpyTerms) {
        AxpySumK<Acc> k{};
        k.x = acc(0);
        k.n = 0;
        for (std::size_t i = first; i < terms.size() && k.n < kMaxAxpyTerms; ++i, ++k.n) {
          k.v[k.n] = view(*const_cast<SpinorField*>(terms[i].v));
          k.c[k.n] = static_cast<R>(terms[i].a);
        }
        launch(ex, "blas_axpy_sum", n, k, a);
      }
      return Sums{};
    }
    case Op::bicgstab_s:
      return launch_op("blas_bicgstab_s", n,
                       CaxpyK<Acc, true, BicgCoef<R>>{acc(0), acc(1), {a.in[0], nullptr, -1.0}});
    case Op::bicgstab_step_slots:  // in: alpha, omega, beta
      return launch_op("blas_bicgstab_step", n,
                       BicgStepK<Acc, StepSlots<R>>{acc(0), acc(1), acc(2), acc(3), acc(4), {a.in[0], a.in[1], a.in[2]}});
    case Op::bicgstab_r0v:
      return launch_op("blas_cdot_norm2", n, Finished<CdotK<Acc>, AlphaFinish>{{acc(0), acc(1)}, {a.in[0], fin(0)}});
    case Op::bicgstab_ts:  // in: rho, alpha
      return launch_op("blas_bicgstab_ts", n,
                       Finished<TsSumsK<Acc>, OmegaFinish>{
                           {acc(0), acc(1), acc(2)},
                           {fin(0), a.in[0], a.in[1], fin(1), fin(2)}});
    case Op::multishift: {
      const auto& sh = *a.shifts;
      for (std::size_t first = 0; first < sh.size(); first += kMaxShiftsPerLaunch) {
        MultishiftK<Acc> k{};
        k.r = acc(0);
        k.n = 0;
        for (std::size_t i = first; i < sh.size() && k.n < kMaxShiftsPerLaunch; ++i, ++k.n) {
          k.x[k.n] = view(*sh[i].x);
          k.p[k.n] = view(*sh[i].p);
          k.alpha[k.n] = static_cast<R>(sh[i].alpha);
          k.beta[k.n] = static_cast<R>(sh[i].beta);
          k.zeta[k.n] = static_cast<R>(sh[i].zeta);
        }
        launch(ex, "blas_multishift_update", n, k, a);
      }
      return Sums{};
    }
    case Op::multishift_base: {
      // f: r, p, r_copy, p_save (null: no save)
      const bool save = a.f[3] != nullptr;
      return launch_op("blas_multishift_base", n,
                       MultishiftBaseK<Acc>{acc(0), acc(1), acc(2), save ? acc(3) : acc(1), cg, save});
    }
    case Op::multishift_window: {
      const auto& sh = *a.windows;
      for (std::size_t first = 0; first < sh.size(); first += kMaxShiftsPerLaunch) {
        MultishiftWindowK<Acc> k{};
        k.m = a.window_residuals;
        for (int j = 0; j < k.m; ++j) k.r[j] = acc(j);
        k.n = 0;
        for (std::size_t i = first; i < sh.size() && k.n < kMaxShiftsPerLaunch; ++i, ++k.n) {
          const ShiftWindow& w = sh[i];
          k.x[k.n] = view(*w.x);
          k.p[k.n] = view(*w.p);
          k.cx[k.n] = static_cast<R>(w.cx);
          k.cp[k.n] = static_cast<R>(w.cp);
          for (int j = 0; j < k.m; ++j) {
            k.dx[k.n][j] = static_cast<R>(w.dx[j]);
            k.dp[k.n][j] = static_cast<R>(w.dp[j]);
          }
          k.update_p[k.n] = w.update_p;
        }
        launch(ex, "blas_multishift_window", n, k, a);
      }
      return Sums{};
    }
  }
  return Sums{};
}

// Every operand (the shifts' too) in the blocked order: on the GPU the kernels then use accessors
// that assume it (BlockedOnDevice). The generic accessor also carries the site-major path, whose
// registers (68 for CG's axpy_norm2 in double, 84 for its x/p update: Nsight Compute on an H200)
// held those kernels to 37.5% occupancy and 2.2-3.2 TB/s.
inline bool all_blocked(Op op, const Args& a) { return every_operand_in(op, a, FieldOrder::blocked); }

template <class Store>
Sums run_store(Op op, const Args& a, const runtime::Exec& ex) {
#if GLUON_HAVE_CUDA
  if (ex.on_device() && all_blocked(op, a)) {
    if (a.nspin == 4) return run_acc<SpinorAccessor<Store, 4, true>>(op, a, ex);
    return run_acc<SpinorAccessor<Store, 1, true>>(op, a, ex);
  }
#endif
  if (a.nspin == 4) return run_acc<SpinorAccessor<Store, 4>>(op, a, ex);
  return run_acc<SpinorAccessor<Store, 1>>(op, a, ex);
}

}  // namespace gluon::qcd::blas::detail
