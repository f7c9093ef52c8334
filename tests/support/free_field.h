#pragma once
// Free-field propagators and meson correlators summed in momentum space from the conventions of
// docs/conventions.md alone (the gamma matrices typed in from that page, not taken from gamma.h),
// and the gluon pipeline that must reproduce them (point source, even-odd solve, reconstruction,
// contraction) on the unit gauge field: tests/unit/free_field_correlators_test.cpp (CPU) and
// tests/gpu/free_field_test.cpp (the pipeline on the GPU).
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <memory>
#include <numbers>
#include <vector>

#include <gtest/gtest.h>

#include "gluon/qcd/correlators.h"
#include "gluon/qcd/dirac/dirac.h"
#include "gluon/qcd/dirac/staggered_links.h"
#include "gluon/qcd/gauge_start.h"
#include "gluon/qcd/propagator.h"
#include "gluon/runtime/exec.h"

namespace gluon::test::free_field {

using namespace gluon::qcd;

using cd = std::complex<double>;
using M4 = std::array<std::array<cd, 4>, 4>;
constexpr cd I{0.0, 1.0};

// DeGrand-Rossi, as docs/conventions.md prints them: g[0..3] = g1..g4, g[4] = g5.
inline std::array<M4, 5> degrand_rossi() {
  std::array<M4, 5> g{};
  g[0] = {{{0, 0, 0, I}, {0, 0, I, 0}, {0, -I, 0, 0}, {-I, 0, 0, 0}}};
  g[1] = {{{0, 0, 0, -1.0}, {0, 0, 1.0, 0}, {0, 1.0, 0, 0}, {-1.0, 0, 0, 0}}};
  g[2] = {{{0, 0, I, 0}, {0, 0, 0, -I}, {-I, 0, 0, 0}, {0, I, 0, 0}}};
  g[3] = {{{0, 0, 1.0, 0}, {0, 0, 0, 1.0}, {1.0, 0, 0, 0}, {0, 1.0, 0, 0}}};
  g[4] = {{{1.0, 0, 0, 0}, {0, 1.0, 0, 0}, {0, 0, -1.0, 0}, {0, 0, 0, -1.0}}};
  return g;
}

inline M4 mul(const M4& a, const M4& b) {
  M4 c{};
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < 4; ++k)
      for (int j = 0; j < 4; ++j) c[i][j] += a[i][k] * b[k][j];
  return c;
}
inline M4 dagger(const M4& a) {
  M4 c{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) c[i][j] = std::conj(a[j][i]);
  return c;
}
inline cd trace(const M4& a) { return a[0][0] + a[1][1] + a[2][2] + a[3][3]; }

// The allowed momenta of direction mu: p = (2 pi n + theta) / L, theta = 0 (periodic) or pi
// (antiperiodic), so that e^{i p L} is the boundary phase.
inline std::vector<double> momenta(int L, double boundary) {
  std::vector<double> p(L);
  const double theta = boundary > 0 ? 0.0 : std::numbers::pi;
  for (int n = 0; n < L; ++n) p[n] = (2 * std::numbers::pi * n + theta) / L;
  return p;
}

struct Lattice {
  std::array<int, 4> dims;
  std::array<double, 4> boundary;
  int volume() const { return dims[0] * dims[1] * dims[2] * dims[3]; }
  // Calls f(p) for every momentum of the lattice.
  template <class F>
  void for_each_momentum(F&& f) const {
    std::array<std::vector<double>, 4> ps;
    for (int mu = 0; mu < 4; ++mu) ps[mu] = momenta(dims[mu], boundary[mu]);
    for (double p3 : ps[3])
      for (double p2 : ps[2])
        for (double p1 : ps[1])
          for (double p0 : ps[0]) f(std::array<double, 4>{p0, p1, p2, p3});
  }
};

inline double phase_angle(const std::array<double, 4>& p, const std::array<int, 4>& d) {
  return p[0] * d[0] + p[1] * d[1] + p[2] * d[2] + p[3] * d[3];
}

// Wilson in hopping normalisation, M = 1 - kappa D with D's forward hop (1 - g_mu) U_mu(x) psi(x+mu):
// on e^{ipx}, M = A + i sum_mu g_mu B_mu with A = 1 - 2 kappa sum cos p_mu, B_mu = 2 kappa sin p_mu,
// so M^-1 = (A - i sum g B) / (A^2 + sum B^2) and S(x, x0) = (1/V) sum_p e^{ip(x - x0)} M^-1(p)
// (colour: the identity). d = x - x0 unreduced: e^{ipd} carries the boundary phase.
struct FreeWilson {
  Lattice lat;
  double kappa;
  std::vector<std::array<double, 4>> ps;
  std::vector<M4> inv;
  FreeWilson(const Lattice& l, double k) : lat(l), kappa(k) {
    const auto g = degrand_rossi();
    lat.for_each_momentum([&](const std::array<double, 4>& p) {
      double A = 1.0, den = 0.0;
      std::array<double, 4> B{};
      for (int mu = 0; mu < 4; ++mu) {
        A -= 2 * kappa * std::cos(p[mu]);
        B[mu] = 2 * kappa * std::sin(p[mu]);
        den += B[mu] * B[mu];
      }
      den += A * A;
      M4 m{};
      for (int i = 0; i < 4; ++i) {
        m[i][i] += A / den;
        for (int mu = 0; mu < 4; ++mu)
          for (int j = 0; j < 4; ++j) m[i][j] += -I * B[mu] * g[mu][i][j] / den;
      }
      ps.push_back(p);
      inv.push_back(m);
    });
  }
  M4 S(const std::array<int, 4>& d) const {
    M4 s{};
    for (std::size_t k = 0; k < ps.size(); ++k) {
      const cd e = std::exp(I * phase_angle(ps[k], d)) / static_cast<double>(lat.volume());
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) s[i][j] += e * inv[k][i][j];
    }
    return s;
  }
};

// The site loop of a correlator: f(x, d = x - x0) for every site, summed into C[(t - t0) mod T].
template <class F>
std::vector<double> correlator(const Lattice& lat, const std::array<int, 4>& x0, F&& f) {
  const auto& L = lat.dims;
  std::vector<double> c(L[3], 0.0);
  for (int t = 0; t < L[3]; ++t)
    for (int z = 0; z < L[2]; ++z)
      for (int y = 0; y < L[1]; ++y)
        for (int x = 0; x < L[0]; ++x) {
          const std::array<int, 4> s{x, y, z, t};
          const std::array<int, 4> d{x - x0[0], y - x0[1], z - x0[2], t - x0[3]};
          c[((t - x0[3]) % L[3] + L[3]) % L[3]] += f(s, d);
        }
  return c;
}

// pion = sum_x sum_{a,b} |S_ab|^2, rho = (1/3) sum_k sum_x Re tr[g_k S g_k g5 S^+ g5]; the traces
// run over spin and colour, and colour is the identity here: a factor 3 on both.
inline void wilson_correlators(const FreeWilson& w, const std::array<int, 4>& x0, std::vector<double>& pion,
                        std::vector<double>& rho) {
  const auto g = degrand_rossi();
  pion = correlator(w.lat, x0, [&](const std::array<int, 4>&, const std::array<int, 4>& d) {
    const M4 s = w.S(d);
    double sum = 0;
    for (const auto& row : s)
      for (const cd& e : row) sum += std::norm(e);
    return 3.0 * sum;
  });
  rho = correlator(w.lat, x0, [&](const std::array<int, 4>&, const std::array<int, 4>& d) {
    const M4 s = w.S(d);
    const M4 back = mul(g[4], mul(dagger(s), g[4]));
    double sum = 0;
    for (int k = 0; k < 3; ++k) sum += trace(mul(mul(g[k], s), mul(g[k], back))).real();
    return 3.0 * sum / 3.0;
  });
}

// Staggered M = m + D with D = 1/2 sum_mu eta_mu(x) [c1 (T_mu - T_-mu) + c3 (T_3mu - T_-3mu)] on the
// unit field (naive: c1 = 1, c3 = 0; tree-level Naik: 9/8, -1/24). The phases make D^2
// translation invariant, -D^2 = sum_mu s_mu(p)^2 with s = c1 sin p + c3 sin 3p, so
// M^-1 = (m - D) K with K(d) = (1/V) sum_p e^{ipd} / (m^2 + sum s^2).
struct FreeStaggered {
  Lattice lat;
  double mass, c1, c3;
  std::vector<std::array<double, 4>> ps;
  std::vector<double> kp;
  FreeStaggered(const Lattice& l, double m, double one, double three) : lat(l), mass(m), c1(one), c3(three) {
    lat.for_each_momentum([&](const std::array<double, 4>& p) {
      double den = mass * mass;
      for (int mu = 0; mu < 4; ++mu) {
        const double s = c1 * std::sin(p[mu]) + c3 * std::sin(3 * p[mu]);
        den += s * s;
      }
      ps.push_back(p);
      kp.push_back(1.0 / den);
    });
  }
  cd K(const std::array<int, 4>& d) const {
    cd k = 0;
    for (std::size_t i = 0; i < ps.size(); ++i) k += std::exp(I * phase_angle(ps[i], d)) * kp[i];
    return k / static_cast<double>(lat.volume());
  }
  // G(x, x0) = m K(d) - 1/2 sum_mu eta_mu(x) [c1 (K(d + mu) - K(d - mu)) + c3 (K(d + 3mu) - K(d - 3mu))]
  cd G(const std::array<int, 4>& x, const std::array<int, 4>& d) const {
    cd g = mass * K(d);
    int eta_sum = 0;  // x_0 + ... + x_{mu-1}
    for (int mu = 0; mu < 4; ++mu) {
      const double eta = (eta_sum % 2 == 0) ? 1.0 : -1.0;
      auto shifted = [&](int n) {
        std::array<int, 4> e = d;
        e[mu] += n;
        return K(e);
      };
      g -= 0.5 * eta * (c1 * (shifted(1) - shifted(-1)) + c3 * (shifted(3) - shifted(-3)));
      eta_sum += x[mu];
    }
    return g;
  }
};

// The Goldstone pion sum_x sum_{a,b} |G_ab|^2 = 3 |G|^2 (colour the identity) of FreeStaggered.
inline std::vector<double> staggered_pion(const Lattice& lat, double mass, double c1, double c3,
                                          const std::array<int, 4>& x0) {
  const FreeStaggered f(lat, mass, c1, c3);
  return correlator(lat, x0, [&](const std::array<int, 4>& x, const std::array<int, 4>& d) {
    return 3.0 * std::norm(f.G(x, d));
  });
}

inline std::unique_ptr<DiracOperator> operator_on_unit_field(const DiracParams& p, const Lattice& lat,
                                                            const runtime::Exec& ex) {
  const Geometry geom(lat.dims);
  GaugeField u = GaugeField::canonical(geom);
  set_start(u, GaugeStart::unit, 1, 0.0, runtime::cpu_exec());
  if (p.type != DiracType::improved_staggered) return make_dirac(p, u, ex);
  const auto links = unsmeared_improved_links(u, runtime::cpu_exec());
  return make_improved_staggered(p, links.fat, links.longlinks, ex);
}

// sloppy: a sloppy precision for a mixed solve (double = none).
inline Correlators pipeline(const DiracParams& p, const Lattice& lat, const std::array<int, 4>& x0, SolverType solver,
                            const runtime::Exec& ex, Precision sloppy = Precision::double_) {
  const auto op = operator_on_unit_field(p, lat, ex);
  std::unique_ptr<DiracOperator> sl;
  if (sloppy != Precision::double_) {
    DiracParams ps = p;
    ps.precision = sloppy;
    sl = operator_on_unit_field(ps, lat, ex);
  }
  SourceSpec src;
  src.position = {x0[0], x0[1], x0[2], x0[3]};
  SolverParams sp;
  sp.tol = 1e-13;
  const PropagatorResult prop = compute_propagator(*op, sl.get(), src, solver, sp, false);
  // Every column also solves the unpreconditioned system (DiracOperator::M_full): tol 1e-13 on
  // the preconditioned one is at most about 1e-12 there (staggered divides by the mass).
  EXPECT_EQ(prop.full_residuals.size(), prop.columns.size());
  EXPECT_LT(prop.max_full_residual, 1e-11);
  return meson_correlators(prop.columns, source_time(src));
}

// Relative to the largest |C(t')|: the free staggered pion vanishes at t' = T/2 (the reference
// reads 1e-29 there, the solve 1e-32).
inline void expect_relative(const std::vector<double>& got, const std::vector<double>& want, double rel, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  double scale = 0;
  for (double v : want) scale = std::max(scale, std::abs(v));
  ASSERT_GT(scale, 0.0) << what;
  for (std::size_t t = 0; t < want.size(); ++t) EXPECT_NEAR(got[t], want[t], rel * scale) << what << " t' = " << t;
}

inline const std::array<int, 4> kSource{1, 2, 3, 5};  // t0 = 5: C is indexed by t' = (t - 5) mod T

}  // namespace gluon::test::free_field
