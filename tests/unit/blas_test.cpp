// BLAS-1 on spinor fields (qcd/blas.h): every kernel against a plain double loop over the reals of
// the same (already rounded) inputs, for double, single and half storage, Dirac and staggered
// fields, site_major and blocked layouts, full and even-parity fields; the operand checks.
#include "gluon/qcd/blas.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "gluon/qcd/field_convert.h"
#include "gluon/qcd/random_fields.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/exec.h"

using namespace gluon;
using namespace gluon::qcd;
using cd = std::complex<double>;
using Reals = std::vector<double>;

namespace {

const Geometry kGeom({4, 4, 4, 6});
const runtime::Exec kCpu = runtime::cpu_exec();

struct Case {
  Precision prec;
  int nspin;
  FieldOrder order;
  SiteSubset subset;
  std::string name() const {
    return to_string(prec) + " nspin " + std::to_string(nspin) +
           " " + qcd::to_string(order) +
           (subset == SiteSubset::even ? " even" : " full");
  }
};

std::vector<Case> setups() {
  std::vector<Case> out;
  for (Precision p : {Precision::double_, Precision::single, Precision::half}) {
    out.push_back({p, 4, FieldOrder::site_major, SiteSubset::full});
    out.push_back({p, 1, FieldOrder::blocked, SiteSubset::full});
    out.push_back({p, 4, FieldOrder::blocked, SiteSubset::even});
    out.push_back({p, 4, FieldOrder::tiled, SiteSubset::even});  // the CPU Wilson operator's vectors
    out.push_back({p, 1, FieldOrder::tiled, SiteSubset::full});
  }
  return out;
}

SpinorFieldParams canonical_params(const Case& s) {
  SpinorFieldParams p;
  p.geometry = kGeom;
  p.nspin = s.nspin;
  p.subset = s.subset;
  return p;
}

SpinorFieldParams target_params(const Case& s) {
  SpinorFieldParams p = canonical_params(s);
  p.precision = s.prec;
  p.order = s.order;
  p.pad = s.order == FieldOrder::blocked ? 3 : 0;
  return p;
}

SpinorField make(const Case& s, std::uint64_t seed) {
  SpinorField c(canonical_params(s));
  fill_gaussian(c, seed, 0, kCpu);
  return converted(c, target_params(s), kCpu);
}

Reals reals(const SpinorField& f) {
  SpinorFieldParams p = f.params();
  p.precision = Precision::double_;
  p.order = FieldOrder::site_major;
  p.pad = 0;
  SpinorField c = converted(f, p, kCpu);
  const auto* d = static_cast<const double*>(c.data());
  return Reals(d, d + c.layout().size());
}

double tol(Precision p) { return p == Precision::double_ ? 1e-14 : p == Precision::single ? 1e-6 : 2e-4; }

double nrm(const Reals& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

// |got - want| / scale
double rel_diff(const Reals& got, const Reals& want, double scale) {
  EXPECT_EQ(got.size(), want.size());
  double s = 0;
  for (std::size_t i = 0; i < got.size(); ++i) s += (got[i] - want[i]) * (got[i] - want[i]);
  return std::sqrt(s) / scale;
}

cd at(const Reals& v, std::size_t c) { return {v[2 * c], v[2 * c + 1]}; }
void put(Reals& v, std::size_t c, cd z) {
  v[2 * c] = z.real();
  v[2 * c + 1] = z.imag();
}

const double kA = 0.7, kB = -1.3;
const cd kCA(0.7, -0.3), kCB(-0.4, 0.9);
complexd C(cd z) { return {z.real(), z.imag()}; }

}  // namespace

TEST(Blas, ZeroAndScale) {
  for (const Case& s : setups()) {
    SCOPED_TRACE(s.name());
    SpinorField x = make(s, 1);
    const Reals rx = reals(x);
    blas::scale(kB, x, kCpu);
    Reals want = rx;
    for (double& v : want) v *= kB;
    EXPECT_LT(rel_diff(reals(x), want, nrm(want)), tol(s.prec));
    blas::zero(x, kCpu);
    for (double v : reals(x)) ASSERT_EQ(v, 0.0);
    EXPECT_EQ(blas::norm2(x, kCpu), 0.0);
  }
}

TEST(Blas, RealAxpyFamily) {
  for (const Case& s : setups()) {
    SCOPED_TRACE(s.name());
    for (int kind = 0; kind < 3; ++kind) {
      SpinorField x = make(s, 2), y = make(s, 3);
      const Reals rx = reals(x), ry = reals(y);
      Reals want(ry.size());
      if (kind == 0) {
        blas::axpy(kA, x, y, kCpu);
        for (std::size_t i = 0; i < want.size(); ++i) want[i] = ry[i] + kA * rx[i];
      } else if (kind == 1) {
        blas::xpay(x, kA, y, kCpu);
        for (std::size_t i = 0; i < want.size(); ++i) want[i] = rx[i] + kA * ry[i];
      } else {
        blas::axpby(kA, x, kB, y, kCpu);
        for (std::size_t i = 0; i < want.size(); ++i) want[i] = kA * rx[i] + kB * ry[i];
      }
      SCOPED_TRACE(kind);
      EXPECT_LT(rel_diff(reals(y), want, nrm(rx) + nrm(ry)), tol(s.prec));
      EXPECT_EQ(reals(x), rx);  // x untouched
    }
  }
}

TEST(Blas, ComplexAxpyFamily) {
  for (const Case& s : setups()) {
    SCOPED_TRACE(s.name());
    for (int kind = 0; kind < 3; ++kind) {
      SpinorField x = make(s, 4), y = make(s, 5);
      const Reals rx = reals(x), ry = reals(y);
      Reals want(ry.size());
      double got_norm = 0;
      if (kind == 0) blas::caxpy(C(kCA), x, y, kCpu);
      if (kind == 1) blas::caxpby(C(kCA), x, C(kCB), y, kCpu);
      if (kind == 2) got_norm = blas::caxpy_norm2(C(kCA), x, y, kCpu);
      for (std::size_t c = 0; c < want.size() / 2; ++c)
        put(want, c, kind == 1 ? kCA * at(rx, c) + kCB * at(ry, c) : at(ry, c) + kCA * at(rx, c));
      SCOPED_TRACE(kind);
      EXPECT_LT(rel_diff(reals(y), want, nrm(rx) + nrm(ry)), tol(s.prec));
      if (kind == 2) EXPECT_NEAR(got_norm, nrm(want) * nrm(want), tol(s.prec) * nrm(want) * nrm(want));
    }
  }
}

TEST(Blas, ReductionsAreDoubleSumsOfTheStoredValues) {
  for (const Case& s : setups()) {
    SCOPED_TRACE(s.name());
    SpinorField x = make(s, 6), y = make(s, 7);
    const Reals rx = reals(x), ry = reals(y);
    double n2 = 0, rd = 0;
    cd dot = 0;
    for (std::size_t i = 0; i < rx.size(); ++i) {
      n2 += rx[i] * rx[i];
      rd += rx[i] * ry[i];
    }
    for (std::size_t c = 0; c < rx.size() / 2; ++c) dot += std::conj(at(rx, c)) * at(ry, c);
    // The loads decode exactly what the conversion to double decodes: only the summation order
    // differs, and for half operands the rounding of each site's sum, which is taken in float
    // (blas_kernels.h, SiteSum): within 1e-6 then, 1e-12 otherwise.
    const double e = s.prec == Precision::half ? 1e-6 : 1e-12;
    EXPECT_NEAR(blas::norm2(x, kCpu), n2, e * n2);
    EXPECT_NEAR(blas::re_dot(x, y, kCpu), rd, e * n2);
    const complexd d = blas::cdot(x, y, kCpu);
    EXPECT_NEAR(d.re, dot.real(), e * n2);
    EXPECT_NEAR(d.im, dot.imag(), e * n2);
    EXPECT_NEAR(d.re, blas::re_dot(x, y, kCpu), e * n2);
    const blas::DotNorm dn = blas::cdot_norm2(x, y, kCpu);
    EXPECT_NEAR(dn.dot.re, dot.real(), e * n2);
    EXPECT_NEAR(dn.dot.im, dot.imag(), e * n2);
    EXPECT_NEAR(dn.norm2, n2, e * n2);
    // <x, x> is real.
    EXPECT_NEAR(blas::cdot(x, x, kCpu).im, 0.0, e * n2);
    // A reduction over a random field is not zero: the test could fail.
    EXPECT_GT(std::fabs(dot.imag()), 1e-3);
  }
}

TEST(Blas, FusedNormKernels) {
  for (const Case& s : setups()) {
    SCOPED_TRACE(s.name());
    {
      SpinorField x = make(s, 8), y = make(s, 9);
      const Reals rx = reals(x), ry = reals(y);
      const double got = blas::axpy_norm2(kA, x, y, kCpu);
      Reals want(ry.size());
      for (std::size_t i = 0; i < want.size(); ++i) want[i] = ry[i] + kA * rx[i];
      EXPECT_LT(rel_diff(reals(y), want, nrm(want)), tol(s.prec));
      EXPECT_NEAR(got, nrm(want) * nrm(want), 2 * tol(s.prec) * nrm(want) * nrm(want));
    }
    {
      SpinorField x = make(s, 10), y = make(s, 11);
      const Reals rx = reals(x), ry = reals(y);
      const double got = blas::xmy_norm2(x, y, kCpu);
      Reals want(ry.size());
      for (std::size_t i = 0; i < want.size(); ++i) want[i] = rx[i] - ry[i];
      EXPECT_LT(rel_diff(reals(y), want, nrm(want)), tol(s.prec));
      EXPECT_NEAR(got, nrm(want) * nrm(want), 2 * tol(s.prec) * nrm(want) * nrm(want));
    }
  }
}

TEST(Blas, CgKernels) {
  for (const Case& s : setups()) {
    SCOPED_TRACE(s.name());
    {
      SpinorField p = make(s, 12), ap = make(s, 13), x = make(s, 14), r = make(s, 15);
      const Reals rp = reals(p), rap = reals(ap), rx = reals(x), rr = reals(r);
      const double got = blas::cg_update(kA, p, ap, x, r, kCpu);
      Reals wx(rx.size()), wr(rr.size());
      for (std::size_t i = 0; i < wx.size(); ++i) {
        wx[i] = rx[i] + kA * rp[i];
        wr[i] = rr[i] - kA * rap[i];
      }
      EXPECT_LT(rel_diff(reals(x), wx, nrm(wx)), tol(s.prec));
      EXPECT_LT(rel_diff(reals(r), wr, nrm(wr)), tol(s.prec));
      EXPECT_NEAR(got, nrm(wr) * nrm(wr), 2 * tol(s.prec) * nrm(wr) * nrm(wr));
      EXPECT_EQ(reals(p), rp);
      EXPECT_EQ(reals(ap), rap);
    }
    {
      SpinorField p = make(s, 16), x = make(s, 17), r = make(s, 18);
      const Reals rp = reals(p), rx = reals(x), rr = reals(r);
      blas::axpy_zpbx(kA, p, x, r, kB, kCpu);
      Reals wx(rx.size()), wp(rp.size());
      for (std::size_t i = 0; i < wx.size(); ++i) {
        wx[i] = rx[i] + kA * rp[i];
        wp[i] = rr[i] + kB * rp[i];
      }
      EXPECT_LT(rel_diff(reals(x), wx, nrm(wx)), tol(s.prec));
      EXPECT_LT(rel_diff(reals(p), wp, nrm(wp)), tol(s.prec));
    }
  }
}

// The device-resident CG kernels (coefficients read from slots) against the host-coefficient
// kernels with alpha = r2 / pAp and beta = r2_new / r2 computed here.
TEST(Blas, CgSlotKernelsEqualTheHostCoefficientKernels) {
  for (const Case& s : setups()) {
    SCOPED_TRACE(s.name());
    runtime::ScalarSlots slots(kCpu, 4);
    const double r2 = 3.5, pAp = 1.75;
    slots.set(0, r2);
    SpinorField p = make(s, 40), ap = make(s, 41), x = make(s, 42), r = make(s, 43);
    blas::re_dot(p, ap, {&slots, 1}, kCpu);
    EXPECT_EQ(slots.host(1), blas::re_dot(p, ap, kCpu));
    slots.set(1, pAp);
    SpinorField r_want = make(s, 43);
    const double n_want = blas::axpy_norm2(-(r2 / pAp), ap, r_want, kCpu);
    blas::cg_residual({&slots, 0}, {&slots, 1}, ap, r, {&slots, 2}, kCpu);
    EXPECT_EQ(reals(r), reals(r_want));
    EXPECT_EQ(slots.host(2), n_want);
    SpinorField p_want = make(s, 40), x_want = make(s, 42);
    blas::axpy_zpbx(r2 / pAp, p_want, x_want, r, n_want / r2, kCpu);
    blas::cg_step({&slots, 0}, {&slots, 1}, {&slots, 2}, p, x, r, kCpu);
    EXPECT_EQ(reals(p), reals(p_want));
    EXPECT_EQ(reals(x), reals(x_want));
  }
}

// CG's batched solution update: cg_step_batched without x only forms p_next = r + beta p (p, r,
// and x untouched); with x it adds alpha p and every term, as a plain double loop computes it;
// p_next may be p; axpy_sum adds any number of terms (several passes beyond kMaxAxpyTerms).
TEST(Blas, BatchedCgStepAndAxpySumEqualAPlainLoop) {
  for (const Case& s : setups()) {
    SCOPED_TRACE(s.name());
    runtime::ScalarSlots slots(kCpu, 3);
    const double r2 = 3.5, pAp = 1.75, r2_new = 0.6;
    const double alpha = r2 / pAp, beta = r2_new / r2;
    slots.set(0, r2);
    slots.set(1, pAp);
    slots.set(2, r2_new);
    SpinorField p = make(s, 90), pn = make(s, 91), r = make(s, 92), x = make(s, 93);
    std::vector<SpinorField> v;
    for (int i = 0; i < blas::kMaxAxpyTerms + 3; ++i) v.push_back(make(s, 100 + i));
    const Reals rp = reals(p), rr = reals(r), rx = reals(x);
    // No x: p_next only.
    blas::cg_step_batched({&slots, 0}, {&slots, 1}, {&slots, 2}, p, pn, r, nullptr, {}, kCpu);
    Reals wp(rp.size());
    for (std::size_t i = 0; i < wp.size(); ++i) wp[i] = rr[i] + beta * rp[i];
    EXPECT_LT(rel_diff(reals(pn), wp, nrm(wp)), tol(s.prec));
    EXPECT_EQ(reals(p), rp);
    EXPECT_EQ(reals(r), rr);
    EXPECT_EQ(reals(x), rx);
    // With x and the largest number of terms.
    std::vector<blas::AxpyTerm> terms;
    Reals wx = rx;
    for (std::size_t i = 0; i < wx.size(); ++i) wx[i] += alpha * rp[i];
    for (int t = 0; t < blas::kMaxAxpyTerms - 1; ++t) {
      const double a = 0.3 - 0.17 * t;
      terms.push_back({&v[t], a});
      const Reals rv = reals(v[t]);
      for (std::size_t i = 0; i < wx.size(); ++i) wx[i] += a * rv[i];
    }
    blas::cg_step_batched({&slots, 0}, {&slots, 1}, {&slots, 2}, p, pn, r, &x, terms, kCpu);
    EXPECT_LT(rel_diff(reals(pn), wp, nrm(wp)), tol(s.prec));
    EXPECT_LT(rel_diff(reals(x), wx, nrm(wx)), 4 * tol(s.prec));
    // In place (p_next = p), no terms: cg_step's update.
    SpinorField p2 = make(s, 90), x2 = make(s, 93);
    blas::cg_step_batched({&slots, 0}, {&slots, 1}, {&slots, 2}, p2, p2, r, &x2, {}, kCpu);
    SpinorField p3 = make(s, 90), x3 = make(s, 93);
    blas::cg_step({&slots, 0}, {&slots, 1}, {&slots, 2}, p3, x3, r, kCpu);
    EXPECT_EQ(reals(p2), reals(p3));
    EXPECT_EQ(reals(x2), reals(x3));
    // axpy_sum over more terms than one pass takes.
    std::vector<blas::AxpyTerm> all;
    SpinorField y = make(s, 94);
    Reals wy = reals(y);
    for (std::size_t t = 0; t < v.size(); ++t) {
      const double a = -0.2 + 0.11 * static_cast<double>(t);
      all.push_back({&v[t], a});
      const Reals rv = reals(v[t]);
      for (std::size_t i = 0; i < wy.size(); ++i) wy[i] += a * rv[i];
    }
    blas::axpy_sum(all, y, kCpu);
    EXPECT_LT(rel_diff(reals(y), wy, nrm(wy)), 4 * tol(s.prec));
  }
}

TEST(Blas, BatchedCgStepRefusesAliasedOrTooManyTerms) {
  const Case s{Precision::double_, 4, FieldOrder::site_major, SiteSubset::full};
  runtime::ScalarSlots slots(kCpu, 3);
  SpinorField p = make(s, 1), pn = make(s, 2), r = make(s, 3), x = make(s, 4), v = make(s, 5);
  const blas::Slot a{&slots, 0}, b{&slots, 1}, c{&slots, 2};
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([&] { blas::cg_step_batched(a, b, c, p, pn, r, nullptr, {{&v, 1.0}}, kCpu); })
                .find("terms given without x"),
            std::string::npos);
  EXPECT_NE(message([&] { blas::cg_step_batched(a, b, c, p, pn, r, &x, {{&pn, 1.0}}, kCpu); })
                .find("term v[0]: a term's vector must not be one the call writes"),
            std::string::npos);
  EXPECT_NE(message([&] { blas::cg_step_batched(a, b, c, p, pn, r, &pn, {}, kCpu); }).find("x must be a vector of its own"),
            std::string::npos);
  EXPECT_NE(message([&] { blas::axpy_sum({{&x, 1.0}}, x, kCpu); }).find("must not be one the call writes"),
            std::string::npos);
  std::vector<blas::AxpyTerm> many(blas::kMaxAxpyTerms, blas::AxpyTerm{&v, 1.0});
  EXPECT_NE(message([&] { blas::cg_step_batched(a, b, c, p, pn, r, &x, many, kCpu); }).find("at most 7 terms, found 8"),
            std::string::npos);
  const Case other{Precision::single, 4, FieldOrder::site_major, SiteSubset::full};
  SpinorField w = make(other, 6);
  EXPECT_NE(message([&] { blas::axpy_sum({{&w, 1.0}}, x, kCpu); }).find("precision"), std::string::npos);
}

// p^dagger A p <= 0, NaN or Inf: alpha is 0, so x and r keep their values (the solver reports the
// breakdown from the slot); |r|^2 = 0 makes beta 0 rather than NaN.
TEST(Blas, CgSlotKernelsLeaveXAndRAloneOnABreakdown) {
  const Case s{Precision::double_, 4, FieldOrder::site_major, SiteSubset::full};
  runtime::ScalarSlots slots(kCpu, 3);
  for (double bad : {0.0, -2.0, std::nan(""), static_cast<double>(INFINITY)}) {
    SCOPED_TRACE(bad);
    slots.set(0, 2.0);
    slots.set(1, bad);
    SpinorField p = make(s, 50), ap = make(s, 51), x = make(s, 52), r = make(s, 53);
    const Reals rx = reals(x), rr = reals(r), rp = reals(p);
    blas::cg_residual({&slots, 0}, {&slots, 1}, ap, r, {&slots, 2}, kCpu);
    EXPECT_EQ(reals(r), rr);
    EXPECT_EQ(slots.host(2), blas::norm2(r, kCpu));
    blas::cg_step({&slots, 0}, {&slots, 1}, {&slots, 2}, p, x, r, kCpu);
    EXPECT_EQ(reals(x), rx);
  }
  slots.set(0, 0.0);
  slots.set(1, 1.0);
  slots.set(2, 5.0);
  SpinorField p = make(s, 54), x = make(s, 55), r = make(s, 56);
  blas::cg_step({&slots, 0}, {&slots, 1}, {&slots, 2}, p, x, r, kCpu);
  EXPECT_EQ(reals(p), reals(r));  // beta = 0
}

// BiCGstab's slot kernels, queued as the solver queues them, against the host-coefficient kernels
// with alpha = rho / <r0, v>, omega = <t, s> / |t|^2, rho_next = <r0, s> - omega <r0, t> and
// beta = (rho_next / rho)(alpha / omega) computed here from the same sums.
TEST(Blas, BicgstabSlotKernelsEqualTheHostCoefficientKernels) {
  const cd rho(0.8, -0.3);
  for (const Case& s : setups()) {
    SCOPED_TRACE(s.name());
    runtime::ScalarSlots sl(kCpu, 24);
    // 0-1 rho, 2-4 r0v, 5-6 alpha, 7 s2, 8-14 ts, 15-16 omega, 17 r2, 18-19 rho_next, 20-21 beta
    sl.set(0, rho.real());
    sl.set(1, rho.imag());
    SpinorField r0 = make(s, 70), v = make(s, 71), r = make(s, 72), p = make(s, 73), t = make(s, 74), x = make(s, 75);
    SpinorField r_h = make(s, 72), p_h = make(s, 73), x_h = make(s, 75);
    blas::bicgstab_r0v(r0, v, {&sl, 0}, {&sl, 2}, {&sl, 5}, kCpu);
    const complexd d = blas::cdot(r0, v, kCpu);
    EXPECT_EQ(sl.host(2), d.re);
    EXPECT_EQ(sl.host(3), d.im);
    const cd alpha = rho / cd(d.re, d.im);
    const double e = 4 * tol(s.prec);  // the device divides complex numbers by its own formula
    EXPECT_NEAR(sl.host(5), alpha.real(), 1e-14 * std::abs(alpha));
    EXPECT_NEAR(sl.host(6), alpha.imag(), 1e-14 * std::abs(alpha));
    blas::bicgstab_s({&sl, 5}, v, r, {&sl, 7}, kCpu);
    const double s2 = blas::caxpy_norm2(C(-alpha), v, r_h, kCpu);
    EXPECT_LT(rel_diff(reals(r), reals(r_h), nrm(reals(r_h))), e);
    EXPECT_NEAR(sl.host(7), s2, e * s2);
    blas::bicgstab_ts(t, r, r0, {{&sl, 0}, {&sl, 5}, {&sl, 8}, {&sl, 15}, {&sl, 18}, {&sl, 20}}, kCpu);
    const blas::DotNorm ts = blas::cdot_norm2(t, r, kCpu);
    const complexd r0s = blas::cdot(r0, r, kCpu), r0t = blas::cdot(r0, t, kCpu);
    const double sr0 = std::sqrt(blas::norm2(r0, kCpu));
    const double sc = std::sqrt(ts.norm2 * blas::norm2(r, kCpu));
    EXPECT_NEAR(sl.host(8), ts.dot.re, 1e-13 * sc);
    EXPECT_NEAR(sl.host(9), ts.dot.im, 1e-13 * sc);
    EXPECT_NEAR(sl.host(10), ts.norm2, 1e-13 * ts.norm2);
    EXPECT_NEAR(sl.host(11), r0s.re, 1e-13 * sr0 * std::sqrt(s2));
    EXPECT_NEAR(sl.host(12), r0s.im, 1e-13 * sr0 * std::sqrt(s2));
    EXPECT_NEAR(sl.host(13), r0t.re, 1e-13 * sr0 * std::sqrt(ts.norm2));
    EXPECT_NEAR(sl.host(14), r0t.im, 1e-13 * sr0 * std::sqrt(ts.norm2));
    const cd omega = cd(ts.dot.re, ts.dot.im) / ts.norm2;
    EXPECT_NEAR(sl.host(15), omega.real(), 1e-13 * std::abs(omega));
    EXPECT_NEAR(sl.host(16), omega.imag(), 1e-13 * std::abs(omega));
    const cd rho_next = cd(sl.host(11), sl.host(12)) - omega * cd(sl.host(13), sl.host(14));
    const cd beta = (rho_next / rho) * (alpha / omega);
    EXPECT_NEAR(sl.host(18), rho_next.real(), 1e-12 * std::abs(rho_next));
    EXPECT_NEAR(sl.host(19), rho_next.imag(), 1e-12 * std::abs(rho_next));
    EXPECT_NEAR(sl.host(20), beta.real(), 1e-12 * std::abs(beta));
    EXPECT_NEAR(sl.host(21), beta.imag(), 1e-12 * std::abs(beta));
    blas::bicgstab_step({&sl, 5}, {&sl, 15}, {&sl, 20}, p, r, t, v, x, {&sl, 17}, kCpu);
    const double r2 = blas::bicgstab_step(C(alpha), C(omega), C(beta), p_h, r_h, t, v, x_h, kCpu);
    EXPECT_LT(rel_diff(reals(r), reals(r_h), nrm(reals(r_h))), e);
    EXPECT_LT(rel_diff(reals(x), reals(x_h), nrm(reals(x_h))), e);
    EXPECT_LT(rel_diff(reals(p), reals(p_h), nrm(reals(p_h))), e);
    EXPECT_NEAR(sl.host(17), r2, e * r2);
    // rho_next is <r0, r> of the new r, up to r's rounding in storage.
    const complexd r0r = blas::cdot(r0, r, kCpu);
    EXPECT_NEAR(sl.host(18), r0r.re, 4 * e * sr0 * std::sqrt(s2));
    EXPECT_NEAR(sl.host(19), r0r.im, 4 * e * sr0 * std::sqrt(s2));
  }
}

// <r0, v> = 0 or |t|^2 = 0: alpha or omega is 0 instead of Inf/NaN, so the vectors stay finite and
// the solver reports the breakdown from the slots.
TEST(Blas, BicgstabSlotKernelsZeroACoefficientThatWouldBeInfinite) {
  const Case s{Precision::double_, 4, FieldOrder::site_major, SiteSubset::full};
  runtime::ScalarSlots sl(kCpu, 24);
  sl.set(0, 1.0);
  SpinorField r0 = make(s, 80), v = make(s, 81), r = make(s, 82), p = make(s, 83), t = make(s, 84), x = make(s, 85);
  blas::zero(v, kCpu);
  blas::zero(t, kCpu);
  const Reals rr = reals(r), rx = reals(x);
  blas::bicgstab_r0v(r0, v, {&sl, 0}, {&sl, 2}, {&sl, 5}, kCpu);  // <r0, 0> = 0
  EXPECT_EQ(sl.host(5), 0.0);
  EXPECT_EQ(sl.host(6), 0.0);
  blas::bicgstab_ts(t, r, r0, {{&sl, 0}, {&sl, 5}, {&sl, 8}, {&sl, 15}, {&sl, 18}, {&sl, 20}}, kCpu);  // |t|^2 = 0
  EXPECT_EQ(sl.host(15), 0.0);
  EXPECT_EQ(sl.host(16), 0.0);
  blas::bicgstab_s({&sl, 5}, v, r, {&sl, 7}, kCpu);
  blas::bicgstab_step({&sl, 5}, {&sl, 15}, {&sl, 20}, p, r, t, v, x, {&sl, 17}, kCpu);
  EXPECT_EQ(reals(x), rx);
  EXPECT_EQ(reals(r), rr);
  EXPECT_EQ(sl.host(20), 0.0);  // beta: alpha / omega with omega = 0
  EXPECT_EQ(sl.host(21), 0.0);
  EXPECT_EQ(reals(p), rr);  // beta = 0: p = r
}

TEST(Blas, SlotArgumentsAreChecked) {
  const Case s{Precision::double_, 4, FieldOrder::site_major, SiteSubset::full};
  SpinorField a = make(s, 60), b = make(s, 61);
  runtime::ScalarSlots slots(kCpu, 2);
  auto message = [&](auto&& call) {
    try {
      call();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([&] { blas::re_dot(a, b, {&slots, 2}, kCpu); }).find("blas::re_dot: slot out: index 2"),
            std::string::npos);
  EXPECT_NE(message([&] { blas::re_dot(a, b, {nullptr, 0}, kCpu); }).find("no ScalarSlots given"), std::string::npos);
  EXPECT_NE(message([&] { blas::cg_residual({&slots, 0}, {&slots, -1}, a, b, {&slots, 1}, kCpu); })
                .find("blas::cg_residual: slot pAp: index -1"),
            std::string::npos);
  EXPECT_THROW(runtime::ScalarSlots(kCpu, 0), InputError);
}

TEST(Blas, BicgstabKernels) {
  for (const Case& s : setups()) {
    SCOPED_TRACE(s.name());
    {
      SpinorField t = make(s, 20), sv = make(s, 21), r0 = make(s, 22);
      const Reals rt = reals(t), rs = reals(sv), r0v = reals(r0);
      runtime::ScalarSlots sl(kCpu, 17);  // ts 0-6, omega 7-8, rho 9-10, alpha 11-12, rho_next 13-14, beta 15-16
      sl.set(9, 1.0);
      blas::bicgstab_ts(t, sv, r0, {{&sl, 9}, {&sl, 11}, {&sl, 0}, {&sl, 7}, {&sl, 13}, {&sl, 15}}, kCpu);
      cd ts = 0, tt = 0, r0s = 0, r0t = 0;
      for (std::size_t c = 0; c < rt.size() / 2; ++c) {
        ts += std::conj(at(rt, c)) * at(rs, c);
        tt += std::norm(at(rt, c));
        r0s += std::conj(at(r0v, c)) * at(rs, c);
        r0t += std::conj(at(r0v, c)) * at(rt, c);
      }
      const double e = 2 * tol(s.prec) * std::sqrt(nrm(rt) * nrm(rt) + nrm(rs) * nrm(rs)) *
                       std::max(nrm(r0v), nrm(rt));
      const double want[7] = {ts.real(), ts.imag(), tt.real(), r0s.real(), r0s.imag(), r0t.real(), r0t.imag()};
      for (int i = 0; i < 7; ++i) EXPECT_NEAR(sl.host(i), want[i], e) << i;
      EXPECT_EQ(reals(t), rt);
      EXPECT_EQ(reals(sv), rs);
    }
    {
      SpinorField p = make(s, 23), sv = make(s, 24), t = make(s, 25), v = make(s, 26), x = make(s, 27);
      const Reals rp = reals(p), rs = reals(sv), rt = reals(t), rv = reals(v), rx = reals(x);
      const cd beta(0.45, -0.35);
      const double got = blas::bicgstab_step(C(kCA), C(kCB), C(beta), p, sv, t, v, x, kCpu);
      Reals wx(rx.size()), wr(rs.size()), wp(rp.size());
      for (std::size_t c = 0; c < wx.size() / 2; ++c) {
        put(wx, c, at(rx, c) + kCA * at(rp, c) + kCB * at(rs, c));
        const cd r = at(rs, c) - kCB * at(rt, c);
        put(wr, c, r);
        put(wp, c, r + beta * (at(rp, c) - kCB * at(rv, c)));
      }
      const double n = nrm(wr);
      EXPECT_LT(rel_diff(reals(x), wx, nrm(wx)), tol(s.prec));
      EXPECT_LT(rel_diff(reals(sv), wr, n), tol(s.prec));
      EXPECT_LT(rel_diff(reals(p), wp, nrm(wp)), tol(s.prec));
      EXPECT_NEAR(got, n * n, 2 * tol(s.prec) * n * n);
      EXPECT_EQ(reals(t), rt);
      EXPECT_EQ(reals(v), rv);
    }
  }
}

TEST(Blas, MultishiftUpdateOverMoreShiftsThanOneLaunch) {
  for (const Case& s : setups()) {
    SCOPED_TRACE(s.name());
    const int n = 11;  // more than one launch of 8
    SpinorField r = make(s, 30);
    const Reals rr = reals(r);
    std::vector<SpinorField> xs, ps;
    std::vector<Reals> rx, rp;
    for (int i = 0; i < n; ++i) {
      xs.push_back(make(s, 100 + i));
      ps.push_back(make(s, 200 + i));
      rx.push_back(reals(xs.back()));
      rp.push_back(reals(ps.back()));
    }
    std::vector<blas::ShiftUpdate> up;
    for (int i = 0; i < n; ++i) up.push_back({&xs[i], &ps[i], 0.1 * (i + 1), -0.05 * i, 1.0 / (1 + i)});
    blas::multishift_update(r, up, kCpu);
    for (int i = 0; i < n; ++i) {
      SCOPED_TRACE(i);
      Reals wx(rr.size()), wp(rr.size());
      for (std::size_t k = 0; k < rr.size(); ++k) {
        wx[k] = rx[i][k] + up[i].alpha * rp[i][k];
        wp[k] = up[i].zeta * rr[k] + up[i].beta * rp[i][k];
      }
      EXPECT_LT(rel_diff(reals(xs[i]), wx, nrm(wx)), tol(s.prec));
      EXPECT_LT(rel_diff(reals(ps[i]), wp, nrm(wp)), tol(s.prec));
    }
  }
}

// multishift_window: x_i += cx_i p_i + sum_j dx_ij r_j, p_i = cp_i p_i + sum_j dp_ij r_j over more
// shifts than one launch takes, p_i left alone where update_p is false; and the windowed base
// step, p_save = p, p = r + beta p, r_copy = r (and without p_save).
TEST(Blas, MultishiftWindowAppliesItsCoefficients) {
  for (const Case& s : setups()) {
    SCOPED_TRACE(s.name());
    const int n = 11, m = 5;
    std::vector<SpinorField> rs, xs, ps;
    std::vector<Reals> rr, rx, rp;
    for (int j = 0; j < m; ++j) {
      rs.push_back(make(s, 300 + j));
      rr.push_back(reals(rs.back()));
    }
    for (int i = 0; i < n; ++i) {
      xs.push_back(make(s, 100 + i));
      ps.push_back(make(s, 200 + i));
      rx.push_back(reals(xs.back()));
      rp.push_back(reals(ps.back()));
    }
    std::vector<blas::ShiftWindow> w(n);
    std::vector<const SpinorField*> rptr;
    for (const SpinorField& f : rs) rptr.push_back(&f);
    for (int i = 0; i < n; ++i) {
      w[i].x = &xs[i];
      w[i].p = &ps[i];
      w[i].cx = 0.1 * (i + 1);
      w[i].cp = 0.9 - 0.05 * i;
      for (int j = 0; j < m; ++j) {
        w[i].dx[j] = 0.01 * (j + 1) * (i % 3 == 0 ? -1 : 1);
        w[i].dp[j] = 1.0 / (1 + i + j);
      }
      w[i].update_p = i != 4;
    }
    blas::multishift_window(rptr, w, kCpu);
    for (int i = 0; i < n; ++i) {
      SCOPED_TRACE(i);
      Reals wx(rx[i].size()), wp(rx[i].size());
      for (std::size_t k = 0; k < wx.size(); ++k) {
        wx[k] = rx[i][k] + w[i].cx * rp[i][k];
        wp[k] = w[i].cp * rp[i][k];
        for (int j = 0; j < m; ++j) {
          wx[k] += w[i].dx[j] * rr[j][k];
          wp[k] += w[i].dp[j] * rr[j][k];
        }
      }
      EXPECT_LT(rel_diff(reals(xs[i]), wx, nrm(wx)), 2 * tol(s.prec));
      if (w[i].update_p) {
        EXPECT_LT(rel_diff(reals(ps[i]), wp, nrm(wp)), 2 * tol(s.prec));
      } else {
        EXPECT_EQ(reals(ps[i]), rp[i]);
      }
    }
    for (int j = 0; j < m; ++j) EXPECT_EQ(reals(rs[j]), rr[j]);

    SpinorField r = make(s, 30), copy = make(s, 31), save = make(s, 32), pv = make(s, 33);
    const Reals r0 = reals(r), p0 = reals(pv);
    Reals want(p0.size());
    for (std::size_t k = 0; k < want.size(); ++k) want[k] = r0[k] + 0.25 * p0[k];
    // beta = r2_new / r2 from the slots: 1 / 4, then 3 / 2, then 0 where r2 is 0.
    runtime::ScalarSlots slots(kCpu, 2);
    slots.set(0, 4.0);
    slots.set(1, 1.0);
    blas::multishift_base_step({&slots, 0}, {&slots, 1}, r, pv, copy, &save, kCpu);
    EXPECT_EQ(reals(copy), r0);
    EXPECT_EQ(reals(r), r0);
    EXPECT_LT(rel_diff(reals(save), p0, nrm(p0)), tol(s.prec));
    EXPECT_LT(rel_diff(reals(pv), want, nrm(want)), tol(s.prec));
    const Reals p1 = reals(pv), saved = reals(save);
    for (std::size_t k = 0; k < want.size(); ++k) want[k] = r0[k] + 1.5 * p1[k];
    slots.set(0, 2.0);
    slots.set(1, 3.0);
    blas::multishift_base_step({&slots, 0}, {&slots, 1}, r, pv, copy, nullptr, kCpu);
    EXPECT_EQ(reals(save), saved);
    EXPECT_LT(rel_diff(reals(pv), want, nrm(want)), tol(s.prec));
    slots.set(0, 0.0);
    blas::multishift_base_step({&slots, 0}, {&slots, 1}, r, pv, copy, nullptr, kCpu);
    EXPECT_LT(rel_diff(reals(pv), r0, nrm(r0)), tol(s.prec)) << "beta 0 where r2 is 0";
  }
}

TEST(Blas, CopyChangesPrecisionAndLayout) {
  const Case d{Precision::double_, 4, FieldOrder::site_major, SiteSubset::full};
  SpinorField x = make(d, 40);
  const Reals rx = reals(x);
  for (const Case& s : setups()) {
    if (s.nspin != 4 || s.subset != SiteSubset::full) continue;
    SCOPED_TRACE(s.name());
    SpinorField y(target_params(s));
    blas::copy(y, x, kCpu);
    EXPECT_LT(rel_diff(reals(y), rx, nrm(rx)), tol(s.prec));
    SpinorField back(x.params());
    blas::copy(back, y, kCpu);
    EXPECT_EQ(reals(back), reals(y));
  }
  blas::copy(x, x, kCpu);  // self copy: no-op
  EXPECT_EQ(reals(x), rx);
}

TEST(Blas, AliasedOperandsActElementwise) {
  const Case s{Precision::double_, 4, FieldOrder::site_major, SiteSubset::full};
  SpinorField x = make(s, 41);
  const Reals rx = reals(x);
  const double n = blas::axpy_norm2(1.0, x, x, kCpu);  // x = 2 x
  EXPECT_NEAR(n, 4 * nrm(rx) * nrm(rx), 1e-12 * n);
}

TEST(Blas, OperandMismatchesAreInputErrors) {
  const Case d{Precision::double_, 4, FieldOrder::site_major, SiteSubset::full};
  SpinorField x = make(d, 50);
  SpinorField xs = make({Precision::single, 4, FieldOrder::site_major, SiteSubset::full}, 51);
  SpinorField x1 = make({Precision::double_, 1, FieldOrder::site_major, SiteSubset::full}, 52);
  SpinorField xe = make({Precision::double_, 4, FieldOrder::site_major, SiteSubset::even}, 53);
  SpinorFieldParams og = x.params();
  og.geometry = Geometry({4, 4, 4, 4});
  SpinorField xg(og);
  try {
    blas::axpy(1.0, x, xs, kCpu);
    FAIL() << "precision mismatch not detected";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("axpy"), std::string::npos) << m;
    EXPECT_NE(m.find("precision"), std::string::npos) << m;
    EXPECT_NE(m.find("single"), std::string::npos) << m;
  }
  EXPECT_THROW(blas::cdot(x, x1, kCpu), InputError);
  EXPECT_THROW(blas::norm2(x, kCpu) + blas::re_dot(x, xe, kCpu), InputError);
  EXPECT_THROW(blas::xpay(x, 1.0, xg, kCpu), InputError);
  EXPECT_THROW(blas::cg_update(1.0, x, x, x, xs, kCpu), InputError);
  std::vector<blas::ShiftUpdate> up{{&x, &xs, 1, 1, 1}};
  EXPECT_THROW(blas::multishift_update(x, up, kCpu), InputError);
  std::vector<blas::ShiftUpdate> bad{{&x, nullptr, 1, 1, 1}};
  EXPECT_THROW(blas::multishift_update(x, bad, kCpu), InputError);
  SpinorField y = make(d, 54), z = make(d, 55);
  runtime::ScalarSlots ms(kCpu, 2);
  EXPECT_THROW(blas::multishift_base_step({&ms, 0}, {&ms, 1}, x, y, x, nullptr, kCpu), InputError);
  EXPECT_THROW(blas::multishift_base_step({&ms, 0}, {&ms, 1}, x, y, z, &y, kCpu), InputError);
  EXPECT_THROW(blas::multishift_base_step({&ms, 0}, {&ms, 1}, x, y, xs, nullptr, kCpu), InputError);
  EXPECT_THROW(blas::multishift_base_step({&ms, 0}, {&ms, 2}, x, y, z, nullptr, kCpu), InputError);
  std::vector<blas::ShiftWindow> win(1);
  win[0].x = &y;
  win[0].p = &xs;
  EXPECT_THROW(blas::multishift_window({&x}, win, kCpu), InputError);
  win[0].p = &y;
  EXPECT_THROW(blas::multishift_window({}, win, kCpu), InputError);
  EXPECT_THROW(blas::multishift_window(std::vector<const SpinorField*>(blas::kMaxShiftWindow + 1, &x), win, kCpu),
               InputError);
  EXPECT_THROW(blas::multishift_window({&x, &xe}, win, kCpu), InputError);
  if (!runtime::cuda_available()) EXPECT_THROW(blas::norm2(x, runtime::Exec{runtime::Backend::cuda, 0, nullptr}), Error);
}

// Across precisions (reliable updates): every outer x sloppy precision pair, on each layout and
// subset of setups(), and one pair whose layouts differ; half outer takes the unfused sequence.
TEST(Blas, AccumulateAndXmyNorm2CopyAcrossPrecisions) {
  for (const Case& o : setups()) {
    for (Precision sp : {Precision::double_, Precision::single, Precision::half}) {
      for (bool other_order : {false, true}) {
        Case s = o;
        s.prec = sp;
        if (other_order) s.order = o.order == FieldOrder::blocked ? FieldOrder::site_major : FieldOrder::blocked;
        SCOPED_TRACE(o.name() + " with sloppy " + s.name());
        SpinorField x = make(o, 60), xs = make(s, 61);
        Reals want = reals(x);
        const Reals rxs = reals(xs);
        for (std::size_t i = 0; i < want.size(); ++i) want[i] += rxs[i];
        blas::accumulate(x, xs, kCpu);
        EXPECT_LT(rel_diff(reals(x), want, nrm(want)), tol(o.prec));
        EXPECT_EQ(nrm(reals(xs)), 0.0);

        SpinorField b = make(o, 62), r = make(o, 63), rs = make(s, 64);
        Reals res = reals(b);
        const Reals rr = reals(r);
        for (std::size_t i = 0; i < res.size(); ++i) res[i] -= rr[i];
        const double n = blas::xmy_norm2_copy(b, r, rs, kCpu);
        EXPECT_NEAR(n, nrm(res) * nrm(res), 2 * tol(o.prec) * n);  // |b - r|^2 as computed
        EXPECT_LT(rel_diff(reals(r), res, nrm(res)), tol(o.prec));
        EXPECT_LT(rel_diff(reals(rs), res, nrm(res)), tol(o.prec) + tol(sp));
      }
    }
  }
}

TEST(Blas, AcrossPrecisionOperandsAreChecked) {
  SpinorField x = make({Precision::double_, 4, FieldOrder::site_major, SiteSubset::full}, 70);
  SpinorField xs = make({Precision::single, 4, FieldOrder::site_major, SiteSubset::full}, 71);
  SpinorField x1 = make({Precision::single, 1, FieldOrder::site_major, SiteSubset::full}, 72);
  SpinorField xe = make({Precision::single, 4, FieldOrder::site_major, SiteSubset::even}, 73);
  EXPECT_THROW(blas::accumulate(x, x, kCpu), InputError);
  EXPECT_THROW(blas::accumulate(x, x1, kCpu), InputError);
  EXPECT_THROW(blas::accumulate(x, xe, kCpu), InputError);
  SpinorField b = make({Precision::double_, 4, FieldOrder::site_major, SiteSubset::full}, 74);
  try {
    blas::xmy_norm2_copy(b, xs, x, kCpu);  // r in single, b in double
    FAIL() << "precision mismatch of b and r not detected";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("xmy_norm2_copy"), std::string::npos) << m;
    EXPECT_NE(m.find("single"), std::string::npos) << m;
  }
  EXPECT_THROW(blas::xmy_norm2_copy(b, x, x, kCpu), InputError);
}
