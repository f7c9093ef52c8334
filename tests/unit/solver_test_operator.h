#pragma once
// Test-only DiracOperator for the solver tests (no dependence on the real Wilson/staggered code):
// a random, well-conditioned nearest-neighbour operator on the full lattice,
//
//   M psi(x) = d psi(x) - kappa sum_mu [ (U_mu(x) (x) S_mu) psi(x+mu) + (U_mu(x-mu)^+ (x) T_mu) psi(x-mu) ]
//
// with Haar-random links U and random complex 4x4 spin matrices S_mu, T_mu of Frobenius norm 1
// (so |hop| <= 8 kappa and M is invertible for 8 kappa < d; in practice the random phases make
// |hop| about 2.5, and kappa = 0.5 still gives a well-posed, non-trivial solve). Options:
// hermitian (T_mu = S_mu^+, so M = M^+; hermitian_positive() then returns true: the caller keeps
// kappa |hop| < d, e.g. kappa = 0.3, for M to be positive definite),
// coefficients rounded to float (a "sloppy" copy of the same operator), a NaN injected after a
// given number of applications, and the zero operator (breakdown tests).
//
// The operator is applied in double on the host (plain loops): fields of any precision, layout
// or memory space are converted to canonical host fields, multiplied, and converted back. So the
// same operator serves CPU and GPU solver tests; vectors carry the requested precision.
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>

#include "gluon/qcd/dirac/dirac.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/qcd/gauge_field.h"
#include "gluon/qcd/random_fields.h"
#include "gluon/qcd/spinor_field.h"
#include "gluon/runtime/exec.h"

namespace gluon::test {

struct TestOperatorOptions {
  double kappa = 0.1;
  double diag = 1.0;
  bool hermitian = false;
  bool float_coefficients = false;  // round links and spin matrices to float
  int nan_after = -1;               // >= 0: applications after this many return a NaN
  bool zero = false;                // M = 0
};

class TestDirac : public qcd::DiracOperator {
 public:
  using cd = std::complex<double>;

  TestDirac(const qcd::Geometry& g, std::uint64_t seed, const TestOperatorOptions& opt,
            qcd::Precision vector_precision, const runtime::Exec& ex,
            qcd::FieldOrder order = qcd::FieldOrder::site_major)
      : DiracOperator(make_params(vector_precision), ex), geom_(g), opt_(opt), order_(order),
        links_(qcd::GaugeField::canonical(g)) {
    qcd::fill_haar(links_, seed, 7, runtime::cpu_exec());
    std::mt19937_64 rng(seed * 7919 + 1);
    std::normal_distribution<double> nd;
    for (int mu = 0; mu < 4; ++mu) {
      double ns = 0, nt = 0;
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b) {
          S_[mu][a][b] = cd(nd(rng), nd(rng));
          T_[mu][a][b] = cd(nd(rng), nd(rng));
          ns += std::norm(S_[mu][a][b]);
          nt += std::norm(T_[mu][a][b]);
        }
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b) {
          S_[mu][a][b] /= std::sqrt(ns);
          T_[mu][a][b] /= std::sqrt(nt);
        }
    }
    if (opt.hermitian)
      for (int mu = 0; mu < 4; ++mu)
        for (int a = 0; a < 4; ++a)
          for (int b = 0; b < 4; ++b) T_[mu][a][b] = std::conj(S_[mu][b][a]);
    if (opt.float_coefficients) {
      auto rf = [](double v) { return static_cast<double>(static_cast<float>(v)); };
      for (int mu = 0; mu < 4; ++mu)
        for (int a = 0; a < 4; ++a)
          for (int b = 0; b < 4; ++b) {
            S_[mu][a][b] = cd(rf(S_[mu][a][b].real()), rf(S_[mu][a][b].imag()));
            T_[mu][a][b] = cd(rf(T_[mu][a][b].real()), rf(T_[mu][a][b].imag()));
          }
      for (std::int64_t s = 0; s < g.volume(); ++s)
        for (int mu = 0; mu < 4; ++mu)
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
              auto& z = links_.link(s, mu).e[i][j];
              z = qcd::complexd(rf(z.re), rf(z.im));
            }
    }
  }

  qcd::SpinorFieldParams vector_params() const override {
    qcd::SpinorFieldParams p;
    p.geometry = geom_;
    p.nspin = 4;
    p.subset = qcd::SiteSubset::full;
    p.precision = params_.precision;
    p.order = order_;
    p.space = exec_.on_device() ? runtime::MemSpace::device : runtime::MemSpace::host;
    p.device = exec_.device;
    return p;
  }
  qcd::SpinorFieldParams full_params() const override { return vector_params(); }

  void M(qcd::SpinorField& out, const qcd::SpinorField& in) const override { apply(out, in, false); }
  void Mdag(qcd::SpinorField& out, const qcd::SpinorField& in) const override { apply(out, in, true); }
  void M_full(qcd::SpinorField& out, const qcd::SpinorField& in) const override { apply(out, in, false); }
  bool hermitian_positive() const override { return opt_.hermitian; }

  void prepare(qcd::SpinorField& b_pc, const qcd::SpinorField& b_full) const override {
    qcd::convert(b_full, b_pc, exec_);
  }
  void reconstruct(qcd::SpinorField& x_full, const qcd::SpinorField& x_pc,
                   const qcd::SpinorField&) const override {
    qcd::convert(x_pc, x_full, exec_);
  }
  // Per site: 8 hops of (3x3 colour on 4 spins: 4 * 66) + (4x4 spin on 3 colours: 3 * 4 * 4 * 8)
  // + axpy; a nominal count for GFLOP/s bookkeeping only.
  double flops_M() const override { return static_cast<double>(geom_.volume()) * (8 * (264 + 384) + 48); }

  int applications() const { return applications_; }

  // out = M in (or M^+ in) on canonical host fields, in double.
  void apply_canonical(qcd::SpinorField& out, const qcd::SpinorField& in, bool dagger) const {
    const auto& idx = geom_.indexer();
    for (std::int64_t s = 0; s < geom_.volume(); ++s) {
      qcd::Spinor<double> acc{};
      if (!opt_.zero) {
        const auto& v = in.site(s);
        for (int a = 0; a < 4; ++a)
          for (int c = 0; c < 3; ++c) acc.s[a].c[c] = opt_.diag * v.s[a].c[c];
        for (int mu = 0; mu < 4; ++mu) {
          const std::int64_t fwd = idx.neighbour(s, mu, 1), bwd = idx.neighbour(s, mu, -1);
          const qcd::SU3d& uf = links_.link(s, mu);
          const qcd::SU3d& ub = links_.link(bwd, mu);
          // M:     + U(x) S psi(x+mu) + U(x-mu)^+ T psi(x-mu)
          // M^+:   + U(x-mu)^+ S^+ psi(x-mu) + U(x) T^+ psi(x+mu)
          hop(acc, uf, false, dagger ? T_[mu] : S_[mu], dagger, in.site(fwd));
          hop(acc, ub, true, dagger ? S_[mu] : T_[mu], dagger, in.site(bwd));
        }
      }
      out.site(s) = acc;
    }
  }

 private:
  static qcd::DiracParams make_params(qcd::Precision p) {
    qcd::DiracParams d;
    d.even_odd = false;
    d.precision = p;
    return d;
  }

  // acc -= kappa (U or U^+) (x) (S or S^+) psi
  void hop(qcd::Spinor<double>& acc, const qcd::SU3d& u, bool adj_u, const cd (&S)[4][4], bool adj_s,
           const qcd::Spinor<double>& psi) const {
    qcd::ColorVector<double> up[4];
    for (int b = 0; b < 4; ++b) up[b] = adj_u ? qcd::adj_mul(u, psi.s[b]) : u * psi.s[b];
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) {
        const cd m = adj_s ? std::conj(S[b][a]) : S[a][b];
        const qcd::complexd k(-opt_.kappa * m.real(), -opt_.kappa * m.imag());
        for (int c = 0; c < 3; ++c) acc.s[a].c[c] += k * up[b].c[c];
      }
  }

  void apply(qcd::SpinorField& out, const qcd::SpinorField& in, bool dagger) const {
    qcd::SpinorFieldParams cp;
    cp.geometry = geom_;
    cp.nspin = 4;
    cp.subset = qcd::SiteSubset::full;
    qcd::SpinorField hin = qcd::converted(in, cp, exec_);
    qcd::SpinorField hout(cp);
    apply_canonical(hout, hin, dagger);
    ++applications_;
    if (opt_.nan_after >= 0 && applications_ > opt_.nan_after)
      hout.site(geom_.volume() / 2).s[1].c[2].im = std::numeric_limits<double>::quiet_NaN();
    qcd::convert(hout, out, exec_);
  }

  qcd::Geometry geom_;
  TestOperatorOptions opt_;
  qcd::FieldOrder order_;
  qcd::GaugeField links_;
  cd S_[4][4][4], T_[4][4][4];
  mutable int applications_ = 0;
};

}  // namespace gluon::test
