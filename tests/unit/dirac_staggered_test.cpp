// Naive and improved staggered operators: the plain reference against physics identities (free
// field spectrum from momentum space, anti-hermiticity of D, gauge covariance), the fast kernels
// against the reference for every precision x layout x link compression, the even-odd algebra
// (spectrum of m^2 - D_eo D_oe, a CG solve that reconstructs the full solution), and error paths.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gluon/qcd/blas.h"
#include "gluon/qcd/dirac/dirac.h"
#include "gluon/qcd/dirac/reference_staggered.h"
#include "gluon/qcd/dirac/staggered.h"
#include "gluon/qcd/dirac/staggered_links.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/qcd/gauge_start.h"
#include "gluon/qcd/gauge_transform.h"
#include "gluon/qcd/random_fields.h"
#include "gluon/qcd/solvers/cg.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/scalar_slots.h"
#include "canonical_spinor.h"

using namespace gluon;
using namespace gluon::qcd;

namespace {

const runtime::Exec kCpu = runtime::cpu_exec();
const std::array<double, 4> kAntiT{1.0, 1.0, 1.0, -1.0};
constexpr double kPi = 3.14159265358979323846;

SpinorFieldParams vec_params(const Geometry& g, SiteSubset subset = SiteSubset::full) {
  SpinorFieldParams q;
  q.geometry = g;
  q.nspin = 1;
  q.subset = subset;
  return q;
}

SpinorField gaussian(const Geometry& g, std::uint64_t seed, SiteSubset subset = SiteSubset::full) {
  SpinorField f(vec_params(g, subset));
  fill_gaussian(f, seed, 7, kCpu);
  return f;
}

GaugeField hot(const Geometry& g, std::uint64_t seed) {
  GaugeField u = GaugeField::canonical(g);
  set_hot(u, seed, kCpu);
  return u;
}

// Non-unitary links with Gaussian entries of standard deviation `sigma` (entries beyond 1 occur).
GaugeField gaussian_links(const Geometry& g, std::uint64_t seed, double sigma) {
  GaugeField u = GaugeField::canonical(g);
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> n(0.0, sigma);
  auto* v = static_cast<double*>(u.data());
  for (std::int64_t i = 0; i < u.layout().size(); ++i) v[i] = n(rng);
  return u;
}

std::complex<double> inner(const SpinorField& a, const SpinorField& b) {
  std::complex<double> s = 0;
  for (std::int64_t i = 0; i < a.params().sites(); ++i)
    for (int c = 0; c < 3; ++c) {
      const auto& x = a.color_vector(i).c[c];
      const auto& y = b.color_vector(i).c[c];
      s += std::conj(std::complex<double>(x.re, x.im)) * std::complex<double>(y.re, y.im);
    }
  return s;
}

double norm2(const SpinorField& a) { return inner(a, a).real(); }

// max |a - b| over components, relative to max |b|.
double max_rel_diff(const SpinorField& a, const SpinorField& b) {
  double d = 0, m = 0;
  for (std::int64_t i = 0; i < a.params().sites(); ++i)
    for (int c = 0; c < 3; ++c) {
      const auto& x = a.color_vector(i).c[c];
      const auto& y = b.color_vector(i).c[c];
      d = std::fmax(d, std::fmax(std::fabs(x.re - y.re), std::fabs(x.im - y.im)));
      m = std::fmax(m, std::fmax(std::fabs(y.re), std::fabs(y.im)));
    }
  return d / m;
}

// The parity half of a full canonical field, as a single-parity canonical field.
SpinorField parity_part(const SpinorField& full, int parity) {
  const Geometry& g = full.geometry();
  SpinorField f(vec_params(g, parity == 0 ? SiteSubset::even : SiteSubset::odd));
  for (std::int64_t i = 0; i < g.half_volume(); ++i) f.color_vector(i) = full.color_vector(parity * g.half_volume() + i);
  return f;
}

DiracParams stag_params(bool improved, Precision prec, Reconstruct r, Reconstruct lr, bool even_odd, double mass) {
  DiracParams p;
  p.type = improved ? DiracType::improved_staggered : DiracType::staggered;
  p.mass = mass;
  p.boundary = kAntiT;
  p.even_odd = even_odd;
  p.precision = prec;
  p.reconstruct = r;
  p.long_reconstruct = lr;
  return p;
}

// Plane wave e^{i p.x} v with p_mu = 2 pi (n_mu + theta_mu) / L_mu (theta = 1/2 where antiperiodic).
SpinorField plane_wave(const Geometry& g, const std::array<int, 4>& n, const std::array<double, 4>& bnd,
                       std::array<double, 4>& p, SiteSubset subset = SiteSubset::full) {
  for (int mu = 0; mu < 4; ++mu)
    p[mu] = 2 * kPi * (n[mu] + (bnd[mu] < 0 ? 0.5 : 0.0)) / g.global_dims()[mu];
  SpinorField f(vec_params(g, subset));
  const std::int64_t base = subset == SiteSubset::odd ? g.half_volume() : 0;
  const std::complex<double> v[3] = {{0.3, -0.2}, {0.5, 0.1}, {-0.4, 0.7}};
  for (std::int64_t i = 0; i < f.params().sites(); ++i) {
    const Coords x = g.coords(base + i);
    double ph = 0;
    for (int mu = 0; mu < 4; ++mu) ph += p[mu] * x[mu];
    const std::complex<double> e = std::polar(1.0, ph);
    for (int c = 0; c < 3; ++c) {
      const std::complex<double> z = e * v[c];
      f.color_vector(i).c[c] = Complex<double>(z.real(), z.imag());
    }
  }
  return f;
}

// g(x) L_mu(x) g(x + dist mu)^+ on a canonical field.
void transform_links(GaugeField& u, const GaugeTransform& g, int dist) {
  const SiteIndexer idx = u.geometry().indexer();
  for (std::int64_t s = 0; s < idx.volume; ++s)
    for (int mu = 0; mu < 4; ++mu) u.link(s, mu) = g.at(s) * u.link(s, mu) * adj(g.at(idx.neighbour(s, mu, dist)));
}

SpinorField transform_vector(const SpinorField& f, const GaugeTransform& g) {
  SpinorField r(f.params());
  for (std::int64_t s = 0; s < f.params().sites(); ++s) r.color_vector(s) = g.at(s) * f.color_vector(s);
  return r;
}

GaugeField copy_of(const GaugeField& u) { return converted(u, u.params(), kCpu); }

const Geometry kG44({4, 4, 4, 4});
const Geometry kG48({4, 4, 4, 8});

}  // namespace

// ---------------------------------------------------------------- reference: physics identities

TEST(StaggeredReference, FreeFieldPlaneWavesDiagonaliseMinusDSquared) {
  // On the unit gauge, -D^2 = sum_mu sin^2(p_mu) on plane waves (the eta_mu anticommute, so the
  // cross terms cancel); with one-hop c1 U and three-hop c3 UUU it is sum (c1 sin p + c3 sin 3p)^2.
  GaugeField u = GaugeField::canonical(kG48);
  set_unit(u, kCpu);
  const auto links = unsmeared_improved_links(u, kCpu);
  for (const auto& n : {std::array<int, 4>{0, 0, 0, 0}, {1, 0, 2, 3}, {3, 1, 1, 5}, {2, 3, 0, 1}}) {
    std::array<double, 4> p{};
    SpinorField psi = plane_wave(kG48, n, kAntiT, p);
    SpinorField d1(psi.params()), d2(psi.params());
    for (bool improved : {false, true}) {
      double lam = 0, one = 0;
      for (int mu = 0; mu < 4; ++mu) {
        const double s = improved ? kNaikOneHop * std::sin(p[mu]) + kNaikThreeHop * std::sin(3 * p[mu])
                                  : std::sin(p[mu]);
        lam += s * s;
        one += std::sin(p[mu]) * std::sin(p[mu]);
      }
      const GaugeField& f = improved ? links.fat : u;
      const GaugeField* l = improved ? &links.longlinks : nullptr;
      reference_staggered_dslash(d1, psi, f, l, kAntiT);
      reference_staggered_dslash(d2, d1, f, l, kAntiT);
      double err = 0;
      for (std::int64_t s = 0; s < kG48.volume(); ++s)
        for (int c = 0; c < 3; ++c) {
          const auto a = d2.color_vector(s).c[c], b = psi.color_vector(s).c[c];
          err = std::fmax(err, std::abs(std::complex<double>(a.re + lam * b.re, a.im + lam * b.im)));
        }
      EXPECT_LT(err, 1e-13) << "n = " << n[0] << n[1] << n[2] << n[3] << " improved " << improved;
      // |D psi|^2 = lambda |psi|^2, and lambda differs between the two actions (non-trivial).
      EXPECT_NEAR(norm2(d1), lam * norm2(psi), 1e-11 * norm2(psi));
      if (improved && one > 0.1) EXPECT_GT(std::fabs(lam - one), 1e-3);
    }
  }
}

TEST(StaggeredReference, HoppingTermIsAntiHermitian) {
  const GaugeField u = hot(kG48, 11);
  const GaugeField fat = gaussian_links(kG48, 12, 0.5), lng = gaussian_links(kG48, 13, 0.1);
  const SpinorField chi = gaussian(kG48, 1), psi = gaussian(kG48, 2);
  SpinorField dchi(chi.params()), dpsi(psi.params());
  for (bool improved : {false, true}) {
    const GaugeField& f = improved ? fat : u;
    const GaugeField* l = improved ? &lng : nullptr;
    reference_staggered_dslash(dpsi, psi, f, l, kAntiT);
    reference_staggered_dslash(dchi, chi, f, l, kAntiT);
    const auto a = inner(chi, dpsi), b = inner(dchi, psi);
    EXPECT_LT(std::abs(a + b), 1e-12 * std::abs(a)) << "improved " << improved;
    EXPECT_GT(std::abs(a), 1.0);
  }
}

TEST(StaggeredReference, GaugeCovariant) {
  // D[U^g] (g psi) = g D[U] psi with F -> g F g(x+mu)^+, L -> g L g(x+3mu)^+.
  GaugeField fat = gaussian_links(kG48, 21, 0.5), lng = gaussian_links(kG48, 22, 0.1);
  const SpinorField psi = gaussian(kG48, 3);
  SpinorField d(psi.params()), dg(psi.params());
  reference_staggered_dslash(d, psi, fat, &lng, kAntiT);
  const GaugeTransform g = random_gauge_transform(kG48, 5, kCpu);
  transform_links(fat, g, 1);
  transform_links(lng, g, 3);
  reference_staggered_dslash(dg, transform_vector(psi, g), fat, &lng, kAntiT);
  EXPECT_LT(max_rel_diff(dg, transform_vector(d, g)), 1e-13);
  // A transformation of the long links with the wrong hop breaks it (the test can fail).
  transform_links(lng, g, 1);
  reference_staggered_dslash(dg, transform_vector(psi, g), fat, &lng, kAntiT);
  EXPECT_GT(max_rel_diff(dg, transform_vector(d, g)), 1e-3);
}

TEST(StaggeredReference, BoundaryPhaseOnlyAtTheBoundary) {
  // Flipping the t boundary phase changes D psi exactly on the sites whose hops wrap in t.
  const GaugeField u = hot(kG48, 31);
  const auto links = unsmeared_improved_links(u, kCpu);
  const SpinorField psi = gaussian(kG48, 4);
  SpinorField a(psi.params()), b(psi.params());
  reference_staggered_dslash(a, psi, links.fat, &links.longlinks, kAntiT);
  reference_staggered_dslash(b, psi, links.fat, &links.longlinks, {1, 1, 1, 1});
  for (std::int64_t s = 0; s < kG48.volume(); ++s) {
    const int t = kG48.coords(s)[3];
    const bool wraps = t <= 2 || t >= 8 - 3;  // three-hop wraps from t = 0,1,2 and 5,6,7
    double diff = 0;
    for (int c = 0; c < 3; ++c) diff += abs(a.color_vector(s).c[c] - b.color_vector(s).c[c]);
    if (wraps) EXPECT_GT(diff, 1e-6) << "t = " << t;
    else EXPECT_LT(diff, 1e-14) << "t = " << t;
  }
}

// ---------------------------------------------------------------- fast kernels vs reference

namespace {
double tolerance(Precision p, Reconstruct r) {
  if (p == Precision::double_) return 1e-13;
  if (p == Precision::single) return r == Reconstruct::r8 ? 2e-5 : 5e-6;
  return 5e-3;
}

// Compares the fast full-lattice M, Mdag and single-parity dslash/dagger with the reference.
void compare_with_reference(const StaggeredDirac& op, const GaugeField& fat, const GaugeField* lng, double tol) {
  const Geometry& g = fat.geometry();
  const double m = op.params().mass;
  const SpinorField psi = gaussian(g, 41);
  const SpinorField in = converted(psi, op.full_params(), kCpu);
  // Reference on the input as the operator stores it (so the input's rounding is not counted).
  const SpinorField psi_q = test::canonical_copy(in, kCpu);
  SpinorField ref(psi.params()), out(op.full_params());
  for (bool dagger : {false, true}) {
    reference_staggered_M(ref, psi_q, m, fat, lng, op.params().boundary, dagger);
    if (dagger) op.Mdag(out, in);
    else op.M(out, in);
    EXPECT_LT(max_rel_diff(test::canonical_copy(out, kCpu), ref), tol) << (dagger ? "Mdag" : "M");
  }
  reference_staggered_dslash(ref, psi_q, fat, lng, op.params().boundary);
  for (int parity : {0, 1}) {
    SpinorFieldParams pp = op.full_params(), pi = op.full_params();
    pp.subset = parity == 0 ? SiteSubset::even : SiteSubset::odd;
    pi.subset = parity == 0 ? SiteSubset::odd : SiteSubset::even;
    const SpinorField in_p = converted(parity_part(psi_q, 1 - parity), pi, kCpu);
    SpinorField o(pp);
    for (bool dagger : {false, true}) {
      op.dslash(o, in_p, parity, dagger);
      SpinorField expect = parity_part(ref, parity);
      if (dagger)
        for (std::int64_t i = 0; i < g.half_volume(); ++i)
          for (int c = 0; c < 3; ++c) expect.color_vector(i).c[c] = -expect.color_vector(i).c[c];
      EXPECT_LT(max_rel_diff(test::canonical_copy(o, kCpu), expect), tol) << "dslash parity " << parity << " dagger " << dagger;
    }
  }
}
}  // namespace

TEST(StaggeredFast, NaiveMatchesReferenceEveryPrecisionLayoutCompression) {
  const GaugeField u = hot(kG48, 51);
  for (Precision prec : {Precision::double_, Precision::single, Precision::half})
    for (FieldOrder order : {FieldOrder::site_major, FieldOrder::blocked})
      for (Reconstruct r : {Reconstruct::r18, Reconstruct::r12, Reconstruct::r8}) {
        SCOPED_TRACE(to_string(prec) + " " + to_string(r) + (order == FieldOrder::blocked ? " blocked" : " site_major"));
        const StaggeredDirac op(stag_params(false, prec, r, Reconstruct::r18, false, 0.13), u, kCpu, order);
        compare_with_reference(op, u, nullptr, tolerance(prec, r));
      }
}

// Antiperiodic in each direction alone and in all four: the other tests use t (and x on the SIMD
// path), so a boundary sign applied in the wrong direction, or to the one-hop but not the
// three-hop term, would pass them.
TEST(StaggeredFast, EveryBoundaryDirectionMatchesTheReference) {
  const GaugeField u = hot(kG48, 55);
  const auto links = unsmeared_improved_links(u, kCpu);
  const std::array<std::array<double, 4>, 5> boundaries{{{-1, 1, 1, 1}, {1, -1, 1, 1}, {1, 1, -1, 1}, {1, 1, 1, -1}, {-1, -1, -1, -1}}};
  for (const auto& bnd : boundaries)
    for (bool improved : {false, true})
      for (Precision prec : {Precision::double_, Precision::single}) {
        SCOPED_TRACE(std::to_string(bnd[0]) + "," + std::to_string(bnd[1]) + "," + std::to_string(bnd[2]) + "," +
                     std::to_string(bnd[3]) + (improved ? " improved " : " naive ") + to_string(prec));
        DiracParams p = stag_params(improved, prec, Reconstruct::r18, Reconstruct::r18, false, 0.1);
        p.boundary = bnd;
        const GaugeField& fat = improved ? links.fat : u;
        const StaggeredDirac op = improved ? StaggeredDirac(p, links.fat, links.longlinks, kCpu, FieldOrder::blocked)
                                           : StaggeredDirac(p, u, kCpu, FieldOrder::blocked);
        compare_with_reference(op, fat, improved ? &links.longlinks : nullptr, tolerance(prec, Reconstruct::r18));
      }
}

TEST(StaggeredFast, ImprovedMatchesReferenceEveryPrecisionLayoutCompression) {
  const GaugeField u = hot(kG48, 52);
  // Non-unitary fat links with entries beyond 1 (exercises the stored scale) and long links:
  // random (r18) or the unsmeared c W (r12).
  const GaugeField fat = gaussian_links(kG48, 53, 0.6);
  const GaugeField lng_random = gaussian_links(kG48, 54, 0.05);
  const auto unsmeared = unsmeared_improved_links(u, kCpu);
  for (Precision prec : {Precision::double_, Precision::single, Precision::half})
    for (FieldOrder order : {FieldOrder::site_major, FieldOrder::blocked})
      for (Reconstruct lr : {Reconstruct::r18, Reconstruct::r12}) {
        SCOPED_TRACE(to_string(prec) + " long " + to_string(lr) + (order == FieldOrder::blocked ? " blocked" : " site_major"));
        const GaugeField& lng = lr == Reconstruct::r12 ? unsmeared.longlinks : lng_random;
        const StaggeredDirac op(stag_params(true, prec, Reconstruct::r18, lr, false, 0.07), fat, lng, kCpu, order);
        if (lr == Reconstruct::r12) EXPECT_NEAR(op.long_scale(), kNaikThreeHop, 1e-14);
        compare_with_reference(op, fat, &lng, tolerance(prec, lr));
      }
}

TEST(StaggeredFast, DslashIsAntiHermitianBetweenParities) {
  // <chi_e, D_eo psi_o> = -<D_oe chi_e, psi_o>
  const GaugeField u = hot(kG44, 61);
  const auto links = unsmeared_improved_links(u, kCpu);
  const StaggeredDirac naive(stag_params(false, Precision::double_, Reconstruct::r12, Reconstruct::r18, true, 0.1), u, kCpu);
  const StaggeredDirac impr(stag_params(true, Precision::double_, Reconstruct::r18, Reconstruct::r12, true, 0.1),
                            links.fat, links.longlinks, kCpu);
  for (const StaggeredDirac* op : {&naive, &impr}) {
    const SpinorField chi = gaussian(kG44, 5, SiteSubset::even), psi = gaussian(kG44, 6, SiteSubset::odd);
    SpinorField dpsi(chi.params()), dchi(psi.params());
    op->dslash(dpsi, psi, 0);
    op->dslash(dchi, chi, 1);
    const auto a = inner(chi, dpsi), b = inner(dchi, psi);
    EXPECT_LT(std::abs(a + b), 1e-12 * std::abs(a));
    // dagger = -D
    SpinorField dd(chi.params());
    op->dslash(dd, psi, 0, true);
    for (std::int64_t i = 0; i < kG44.half_volume(); ++i)
      for (int c = 0; c < 3; ++c)
        EXPECT_EQ(dd.color_vector(i).c[c], -dpsi.color_vector(i).c[c]);
  }
}

TEST(StaggeredFast, ImprovedGaugeCovariantWithUnsmearedLinks) {
  GaugeField u = hot(kG48, 71);
  const SpinorField psi = gaussian(kG48, 8);
  const DiracParams p = stag_params(true, Precision::double_, Reconstruct::r18, Reconstruct::r12, false, 0.2);
  const auto links = unsmeared_improved_links(u, kCpu);
  const StaggeredDirac op(p, links.fat, links.longlinks, kCpu);
  SpinorField a(psi.params()), b(psi.params());
  op.M(a, psi);
  const GaugeTransform g = random_gauge_transform(kG48, 9, kCpu);
  apply_gauge_transform(u, g, kCpu);
  const auto links_g = unsmeared_improved_links(u, kCpu);  // L -> g(x) L g(x+3mu)^+ automatically
  const StaggeredDirac op_g(p, links_g.fat, links_g.longlinks, kCpu);
  op_g.M(b, transform_vector(psi, g));
  EXPECT_LT(max_rel_diff(b, transform_vector(a, g)), 1e-12);
}

// ---------------------------------------------------------------- even-odd

TEST(StaggeredEvenOdd, FreeSpectrumOfSchurComplement) {
  // On the unit gauge, (m^2 - D_eo D_oe) e^{ipx}|_even = (m^2 + sum_mu s_mu(p)^2) e^{ipx}|_even.
  GaugeField u = GaugeField::canonical(kG44);
  set_unit(u, kCpu);
  const auto links = unsmeared_improved_links(u, kCpu);
  const double m = 0.25;
  for (bool improved : {false, true}) {
    const DiracParams p = stag_params(improved, Precision::double_, Reconstruct::r18, Reconstruct::r12, true, m);
    const StaggeredDirac op = improved ? StaggeredDirac(p, links.fat, links.longlinks, kCpu) : StaggeredDirac(p, u, kCpu);
    EXPECT_TRUE(op.hermitian_positive());
    for (const auto& n : {std::array<int, 4>{0, 0, 0, 0}, {1, 2, 0, 3}, {3, 3, 1, 2}}) {
      std::array<double, 4> pm{};
      const SpinorField psi = plane_wave(kG44, n, kAntiT, pm, SiteSubset::even);
      double lam = m * m;
      for (int mu = 0; mu < 4; ++mu) {
        const double s = improved ? kNaikOneHop * std::sin(pm[mu]) + kNaikThreeHop * std::sin(3 * pm[mu])
                                  : std::sin(pm[mu]);
        lam += s * s;
      }
      SpinorField out(op.vector_params());
      op.M(out, psi);
      SpinorField expect(psi.params());
      for (std::int64_t i = 0; i < kG44.half_volume(); ++i)
        for (int c = 0; c < 3; ++c) expect.color_vector(i).c[c] = lam * psi.color_vector(i).c[c];
      EXPECT_LT(max_rel_diff(out, expect), 1e-13) << "improved " << improved;
    }
  }
}

namespace {
// Plain CG on the Hermitian positive M_ee (canonical double even fields); returns iterations.
int host_cg(const StaggeredDirac& op, SpinorField& x, const SpinorField& b, double tol) {
  const std::int64_t n = b.params().sites();
  SpinorField r(b.params()), p(b.params()), ap(b.params());
  for (std::int64_t i = 0; i < n; ++i) {
    x.color_vector(i) = ColorVector<double>{};
    r.color_vector(i) = b.color_vector(i);
    p.color_vector(i) = b.color_vector(i);
  }
  double rr = norm2(r);
  const double stop = tol * tol * norm2(b);
  for (int k = 1; k <= 500; ++k) {
    op.M(ap, p);
    const double alpha = rr / inner(p, ap).real();
    for (std::int64_t i = 0; i < n; ++i)
      for (int c = 0; c < 3; ++c) {
        x.color_vector(i).c[c] += alpha * p.color_vector(i).c[c];
        r.color_vector(i).c[c] -= alpha * ap.color_vector(i).c[c];
      }
    const double rr_new = norm2(r);
    if (rr_new < stop) return k;
    const double beta = rr_new / rr;
    rr = rr_new;
    for (std::int64_t i = 0; i < n; ++i)
      for (int c = 0; c < 3; ++c)
        p.color_vector(i).c[c] = r.color_vector(i).c[c] + beta * p.color_vector(i).c[c];
  }
  return -1;
}
}  // namespace

TEST(StaggeredEvenOdd, SolveReconstructsTheFullSolution) {
  const GaugeField u = hot(kG44, 81);
  const GaugeField fat = gaussian_links(kG44, 82, 0.3), lng = gaussian_links(kG44, 83, 0.05);
  const double m = 0.3;
  for (bool improved : {false, true}) {
    SCOPED_TRACE(improved ? "improved" : "naive");
    const DiracParams p = stag_params(improved, Precision::double_, Reconstruct::r18, Reconstruct::r18, true, m);
    const std::unique_ptr<DiracOperator> base =
        improved ? make_improved_staggered(p, fat, lng, kCpu) : make_dirac(p, u, kCpu);
    const auto& op = dynamic_cast<const StaggeredDirac&>(*base);
    const SpinorField b = gaussian(kG44, 10);
    SpinorField b_pc(op.vector_params()), x_pc(op.vector_params()), x(op.full_params());
    op.prepare(b_pc, b);
    const int iters = host_cg(op, x_pc, b_pc, 1e-12);
    ASSERT_GT(iters, 0) << "CG did not converge";
    op.reconstruct(x, x_pc, b);
    // Full M x = b with the reference.
    SpinorField mx(b.params());
    reference_staggered_M(mx, x, m, improved ? fat : u, improved ? &lng : nullptr, kAntiT);
    double rr = 0;
    for (std::int64_t s = 0; s < kG44.volume(); ++s)
      for (int c = 0; c < 3; ++c) rr += norm2(mx.color_vector(s).c[c] - b.color_vector(s).c[c]);
    EXPECT_LT(std::sqrt(rr / norm2(b)), 1e-10);
  }
}

// M_dot (the dot folded into the second hop's kernel) equals M followed by blas::re_dot, and the
// operators that do not fold it (full-lattice form) take the default path to the same result.
TEST(StaggeredEvenOdd, MDotEqualsMThenReDot) {
  const GaugeField u = hot(kG44, 84);
  const GaugeField fat = gaussian_links(kG44, 85, 0.3), lng = gaussian_links(kG44, 86, 0.05);
  for (bool improved : {false, true})
    for (bool eo : {true, false})
      for (Precision prec : {Precision::double_, Precision::single, Precision::half}) {
        SCOPED_TRACE(std::string(improved ? "improved " : "naive ") + (eo ? "even-odd " : "full ") + to_string(prec));
        const DiracParams p = stag_params(improved, prec, Reconstruct::r18, Reconstruct::r18, eo, 0.2);
        const std::unique_ptr<DiracOperator> op =
            improved ? make_improved_staggered(p, fat, lng, kCpu) : make_dirac(p, u, kCpu);
        SpinorField in(op->vector_params()), want(op->vector_params()), got(op->vector_params());
        fill_gaussian(in, 87, 0, kCpu);
        op->M(want, in);
        runtime::ScalarSlots slots(kCpu, 2);
        op->M_dot(got, in, {&slots, 1});
        const double dot = blas::re_dot(in, want, kCpu);
        blas::axpy(-1.0, want, got, kCpu);
        EXPECT_EQ(blas::norm2(got, kCpu), 0.0) << "M_dot's M is M's";
        // The fused dot sums the values before the store rounds them (single, half).
        const double tol = prec == Precision::double_ ? 1e-12 : prec == Precision::single ? 1e-5 : 2e-3;
        EXPECT_NEAR(slots.host(1), dot, tol * blas::norm2(in, kCpu) * 4);
      }
}

// CG's operator step with the residual update folded into the even-odd operator's two kernels
// (site_major order: the scalar kernel, as on the GPU; double and single) against the default,
// M_dot and then blas::cg_residual: the same p^dagger M p (here m^2 |p|^2 + |D_oe p|^2), residual
// and |r|^2, and M p never stored. Half takes M_dot and blas::cg_residual. With a shift (A =
// M + shift, multi-shift CG) the fold and half take it into the mass term, the default adds it by
// an axpy, and p^dagger A p is also checked against p^dagger M p + shift |p|^2 summed apart. Then
// CG, in double and double-half, on that operator.
TEST(StaggeredEvenOdd, CgResidualFoldEqualsMDotThenCgResidual) {
  const GaugeField u = hot(kG44, 88);
  const GaugeField fat = gaussian_links(kG44, 89, 0.3), lng = gaussian_links(kG44, 90, 0.05);
  auto make = [&](bool improved, Precision prec) {
    const DiracParams p = stag_params(improved, prec, Reconstruct::r18, Reconstruct::r18, true, 0.2);
    return improved ? std::make_unique<StaggeredDirac>(p, fat, lng, kCpu, FieldOrder::site_major)
                    : std::make_unique<StaggeredDirac>(p, u, kCpu, FieldOrder::site_major);
  };
  for (bool improved : {false, true}) {
    for (Precision prec : {Precision::double_, Precision::single, Precision::half})
    for (double shift : {0.0, 0.3}) {
      SCOPED_TRACE(std::string(improved ? "improved " : "naive ") + to_string(prec) + " shift " +
                   std::to_string(shift));
      const auto op = make(improved, prec);
      ASSERT_FALSE(op->vectorised());
      const SpinorFieldParams vp = op->vector_params();
      SpinorField p(vp), r0(vp), r_fold(vp), r_def(vp), ap_fold(vp), ap_def(vp);
      fill_gaussian(p, 91, 0, kCpu);
      fill_gaussian(r0, 92, 0, kCpu);
      blas::copy(r_fold, r0, kCpu);
      blas::copy(r_def, r0, kCpu);
      blas::zero(ap_fold, kCpu);
      runtime::ScalarSlots fold(kCpu, 4), def(kCpu, 4);
      const double r2 = blas::norm2(r0, kCpu);
      fold.set(0, r2);
      def.set(0, r2);
      op->M_cg_residual(ap_fold, p, r_fold, {&fold, 0}, {&fold, 1}, {&fold, 3}, shift);
      op->DiracOperator::M_cg_residual(ap_def, p, r_def, {&def, 0}, {&def, 1}, {&def, 3}, shift);
      const double tol = prec == Precision::double_ ? 1e-12 : prec == Precision::single ? 1e-5 : 2e-3;
      if (prec == Precision::half) {
        // (with a shift, (m^2 + shift) p - D D p in one kernel against M p + shift p in two)
        const double ap2 = blas::norm2(ap_def, kCpu);
        blas::axpy(-1.0, ap_def, ap_fold, kCpu);
        if (shift == 0.0) EXPECT_EQ(blas::norm2(ap_fold, kCpu), 0.0) << "half: the default's M p";
        else EXPECT_LT(std::sqrt(blas::norm2(ap_fold, kCpu) / ap2), tol) << "half: the default's A p";
      } else {
        EXPECT_EQ(blas::norm2(ap_fold, kCpu), 0.0) << "the fold stored A p";
      }
      EXPECT_NEAR(fold.host(1), def.host(1), tol * def.host(1)) << "p^dagger A p";
      {
        SpinorField mp(vp);
        op->M(mp, p);
        const double want = blas::re_dot(p, mp, kCpu) + shift * blas::norm2(p, kCpu);
        EXPECT_NEAR(def.host(1), want, tol * want) << "the default's p^dagger A p";
      }
      EXPECT_NEAR(fold.host(3), def.host(3), tol * def.host(3)) << "|r|^2";
      EXPECT_GT(std::fabs(def.host(3) - r2), 0.01 * r2) << "the update moved r";
      blas::axpy(-1.0, r_def, r_fold, kCpu);
      EXPECT_LT(std::sqrt(blas::norm2(r_fold, kCpu) / def.host(3)), tol) << "r";
    }
    const auto op = make(improved, Precision::double_);
    const auto sloppy = make(improved, Precision::half);
    const SpinorField b = gaussian(kG44, 93);
    SpinorField b_pc(op->vector_params()), x_pc(op->vector_params());
    op->prepare(b_pc, converted(b, op->full_params(), kCpu));
    for (const DiracOperator* s : {static_cast<const DiracOperator*>(nullptr), static_cast<const DiracOperator*>(sloppy.get())}) {
      SCOPED_TRACE(s ? "double-half" : "double");
      SolverParams sp;
      sp.tol = 1e-10;
      const SolverResult res = cg(*op, x_pc, b_pc, sp, s);
      ASSERT_TRUE(res.converged) << res.failure;
      SpinorField mx(op->vector_params());
      op->M(mx, x_pc);
      blas::axpy(-1.0, b_pc, mx, kCpu);
      EXPECT_LT(std::sqrt(blas::norm2(mx, kCpu) / blas::norm2(b_pc, kCpu)), 1e-10);
    }
  }
}

// normal_shifted_multi: the multi-vector kernel (site_major: the scalar kernel, as on the GPU)
// reads each link once for up to 4 vectors and gives each vector what M and the shift's axpy give
// it alone, and its p^dagger A p what blas::re_dot gives, term by term the same arithmetic: to the bit in double and single where the shift is
// 0, and to rounding otherwise (the shift joins the mass term, m^2 + shift, where the default adds
// it by an axpy). 1 to 6 vectors (two launches of 4 and 2), every link storage, naive and improved.
// On the CPU vector kernel's tiled vectors the default (one by one) runs. Refusals: sizes, and an
// output that is an input.
TEST(StaggeredEvenOdd, ShiftedMultiEqualsEachVectorAlone) {
  const GaugeField u = hot(kG44, 94);
  const GaugeField fat = gaussian_links(kG44, 95, 0.3), lng = gaussian_links(kG44, 96, 0.05);
  const auto unsmeared = unsmeared_improved_links(u, kCpu);
  struct Case {
    bool improved;
    Reconstruct r, lr;
  };
  const Case cases[] = {{false, Reconstruct::r18, Reconstruct::r18}, {false, Reconstruct::r12, Reconstruct::r18},
                        {false, Reconstruct::r8, Reconstruct::r18},  {true, Reconstruct::r18, Reconstruct::r18},
                        {true, Reconstruct::r18, Reconstruct::r12}};
  const double shifts_all[] = {0.0, 0.01, 0.3, 0.0, 2.5, 10.24};
  for (const Case& c : cases)
    for (Precision prec : {Precision::double_, Precision::single, Precision::half}) {
      SCOPED_TRACE(std::string(c.improved ? "improved " : "naive ") + to_string(c.r) + "/" + to_string(c.lr) + " " +
                   to_string(prec));
      const DiracParams p = stag_params(c.improved, prec, c.r, c.lr, true, 0.2);
      const GaugeField& f = c.improved ? (c.lr == Reconstruct::r12 ? unsmeared.fat : fat) : u;
      const GaugeField& l = c.lr == Reconstruct::r12 ? unsmeared.longlinks : lng;
      const StaggeredDirac op = c.improved ? StaggeredDirac(p, f, l, kCpu, FieldOrder::site_major)
                                           : StaggeredDirac(p, u, kCpu, FieldOrder::site_major);
      ASSERT_FALSE(op.vectorised());
      EXPECT_EQ(op.shifted_multi_width(), 4);
      const SpinorFieldParams vp = op.vector_params();
      for (std::size_t n : {1u, 3u, 4u, 6u}) {
        SCOPED_TRACE(std::to_string(n) + " vectors");
        std::vector<SpinorField> in, out;
        std::vector<SpinorField*> outs;
        std::vector<const SpinorField*> ins;
        for (std::size_t j = 0; j < n; ++j) {
          in.emplace_back(vp);
          out.emplace_back(vp);
          fill_gaussian(in.back(), 97 + j, 0, kCpu);
        }
        for (std::size_t j = 0; j < n; ++j) {
          outs.push_back(&out[j]);
          ins.push_back(&in[j]);
        }
        const std::span<const double> shifts(shifts_all, n);
        runtime::ScalarSlots dots(kCpu, 6);
        std::vector<blas::Slot> pap;
        for (std::size_t j = 0; j < n; ++j) pap.push_back({&dots, static_cast<int>(j)});
        op.normal_shifted_multi(outs, ins, shifts, pap);
        for (std::size_t j = 0; j < n; ++j) {
          SpinorField want(vp);
          op.M(want, in[j]);
          if (shifts[j] != 0.0) blas::axpy(shifts[j], in[j], want, kCpu);
          // The dot is summed from the values before the store rounds them (single, half).
          const double dot = blas::re_dot(in[j], want, kCpu);
          EXPECT_NEAR(dots.host(static_cast<int>(j)), dot,
                      (prec == Precision::double_ ? 1e-12 : prec == Precision::single ? 1e-5 : 2e-3) * std::fabs(dot))
              << "p^dagger A p of vector " << j;
          const double w2 = blas::norm2(want, kCpu);
          blas::axpy(-1.0, want, out[j], kCpu);
          const double d = std::sqrt(blas::norm2(out[j], kCpu) / w2);
          if (shifts[j] == 0.0 && prec != Precision::half) EXPECT_EQ(d, 0.0) << "vector " << j;
          else EXPECT_LT(d, prec == Precision::double_ ? 1e-14 : prec == Precision::single ? 1e-6 : 2e-3) << "vector " << j;
        }
      }
    }
  // The CPU vector kernel's operator (tiled) takes the default, with the same results.
  const StaggeredDirac tiled(stag_params(false, Precision::double_, Reconstruct::r18, Reconstruct::r18, true, 0.2), u, kCpu);
  const StaggeredDirac plain(stag_params(false, Precision::double_, Reconstruct::r18, Reconstruct::r18, true, 0.2), u, kCpu,
                             FieldOrder::site_major);
  SpinorField a(tiled.vector_params()), b(tiled.vector_params()), a0(plain.vector_params()), b0(plain.vector_params());
  fill_gaussian(a0, 120, 0, kCpu);
  a = converted(a0, tiled.vector_params(), kCpu);
  SpinorField* bo[] = {&b};
  const SpinorField* ai[] = {&a};
  const double sh[] = {0.5};
  tiled.normal_shifted_multi(bo, ai, sh);
  EXPECT_EQ(tiled.shifted_multi_width(), tiled.vectorised() ? 1 : 4);
  SpinorField* bo0[] = {&b0};
  const SpinorField* ai0[] = {&a0};
  plain.normal_shifted_multi(bo0, ai0, sh);
  const SpinorField bc = converted(b, plain.vector_params(), kCpu);
  SpinorField diff(plain.vector_params());
  blas::copy(diff, bc, kCpu);
  blas::axpy(-1.0, b0, diff, kCpu);
  EXPECT_LT(std::sqrt(blas::norm2(diff, kCpu) / blas::norm2(b0, kCpu)), 1e-14) << "tiled (default) against site_major";
  // Refusals.
  const double two[] = {0.0, 1.0};
  EXPECT_THROW(plain.normal_shifted_multi(bo0, ai0, two), InputError);
  runtime::ScalarSlots ds(kCpu, 2);
  const blas::Slot two_slots[] = {{&ds, 0}, {&ds, 1}};
  EXPECT_THROW(plain.normal_shifted_multi(bo0, ai0, sh, two_slots), InputError);
  SpinorField* self[] = {&a0};
  EXPECT_THROW(plain.normal_shifted_multi(self, ai0, sh), InputError);
}

// DiracOperator::hop (what `gluon bench dslash` times): D_oe on an even input, odd output, naive
// and improved, against the reference; refused for the full operator and the wrong subsets.
TEST(StaggeredEvenOdd, HopIsTheReferenceDoeOnTheOddSites) {
  const GaugeField u = hot(kG44, 88);
  const GaugeField fat = gaussian_links(kG44, 89, 0.3), lng = gaussian_links(kG44, 90, 0.05);
  const SpinorField even = gaussian(kG44, 91, SiteSubset::even);
  SpinorField in_full(vec_params(kG44));
  for (std::int64_t i = 0; i < kG44.half_volume(); ++i) in_full.color_vector(i) = even.color_vector(i);
  for (bool improved : {false, true}) {
    SpinorField d(vec_params(kG44));
    reference_staggered_dslash(d, in_full, improved ? fat : u, improved ? &lng : nullptr, kAntiT);
    const SpinorField want = parity_part(d, 1);
    for (Precision prec : {Precision::double_, Precision::single, Precision::half}) {
      SCOPED_TRACE(std::string(improved ? "improved " : "naive ") + to_string(prec));
      const DiracParams p = stag_params(improved, prec, Reconstruct::r18, Reconstruct::r18, true, 0.2);
      const std::unique_ptr<DiracOperator> op = improved ? make_improved_staggered(p, fat, lng, kCpu) : make_dirac(p, u, kCpu);
      SpinorField out(op->hop_params());
      const SpinorField in = converted(even, op->vector_params(), kCpu);
      op->hop(out, in);
      const double tol = prec == Precision::double_ ? 1e-13 : prec == Precision::single ? 1e-5 : 5e-3;
      EXPECT_LT(max_rel_diff(test::canonical_copy(out, kCpu), want), tol);
      EXPECT_DOUBLE_EQ(op->hop_flops(), kG44.half_volume() * (improved ? 1146.0 : 570.0));
      SpinorField even_out(op->vector_params());
      EXPECT_THROW(op->hop(even_out, in), InputError);
    }
  }
  const auto full = make_dirac(stag_params(false, Precision::double_, Reconstruct::r18, Reconstruct::r18, false, 0.2), u, kCpu);
  SpinorField fo(full->hop_params()), fi(full->vector_params());
  EXPECT_THROW(full->hop(fo, fi), InputError);
}

TEST(StaggeredEvenOdd, FullFormPrepareReconstructCopyAndFlopCounts) {
  const GaugeField u = hot(kG44, 91);
  const StaggeredDirac full(stag_params(false, Precision::double_, Reconstruct::r12, Reconstruct::r18, false, 0.1), u, kCpu);
  EXPECT_FALSE(full.hermitian_positive());
  EXPECT_EQ(full.vector_params().subset, SiteSubset::full);
  const SpinorField b = gaussian(kG44, 11);
  SpinorField b_pc(full.vector_params()), x(full.full_params());
  full.prepare(b_pc, b);
  EXPECT_EQ(max_rel_diff(b_pc, b), 0.0);
  full.reconstruct(x, b_pc, b);
  EXPECT_EQ(max_rel_diff(x, b), 0.0);
  // Flops: full M = two parities of (570 + 12); even-odd = 570 + 582 per even site.
  EXPECT_DOUBLE_EQ(full.flops_M(), 256.0 * 582.0);
  const StaggeredDirac eo(stag_params(false, Precision::double_, Reconstruct::r12, Reconstruct::r18, true, 0.1), u, kCpu);
  EXPECT_DOUBLE_EQ(eo.flops_M(), 128.0 * (570.0 + 582.0));
  EXPECT_DOUBLE_EQ(eo.dslash_flops(), 128.0 * 570.0);
  // Bytes: 4V links x 12 reals x 8 bytes + V/2 x (in + out) x 6 x 8.
  EXPECT_DOUBLE_EQ(eo.dslash_bytes(), 4.0 * 256 * 12 * 8 + 128.0 * 2 * 48);
  const auto links = unsmeared_improved_links(u, kCpu);
  const StaggeredDirac ih(stag_params(true, Precision::half, Reconstruct::r18, Reconstruct::r12, true, 0.1),
                          links.fat, links.longlinks, kCpu);
  EXPECT_DOUBLE_EQ(ih.dslash_flops(), 128.0 * 1146.0);
  EXPECT_DOUBLE_EQ(ih.dslash_bytes(true), 4.0 * 256 * (18 + 12) * 2 + 128.0 * 3 * (12 + 4));
  EXPECT_DOUBLE_EQ(ih.fat_scale(), 2.0);  // 9/8 -> next power of two
}

// ---------------------------------------------------------------- vector CPU kernel (tiled order)

namespace {
// X/2 = W = 8 puts one tile in each x-row (every tile's x hops wrap), X/2 = 16 two (the lane
// windows read the neighbouring tile); an extent of 2 makes the three-hop wrap twice. X/2 = 4 and
// 12 (4 mod 8) run half-tile tasks: one a row, or three, where tiles straddle two rows. In single
// they pair by default but naive r18 (a half tile and its partner T/2 slices on; the ctest runs
// unit_dirac_staggered_test_tile_pairs and _one_tile force either) where T % 4 == 0: T = 4 pairs t = 0, 1 with 2, 3, so that one group of a pair
// wraps in t where the other does not; T = 6 cannot pair. Antiperiodic in x and t, so that a
// boundary sign on the wrong lane or group shows.
const Geometry kSimdLattices[] = {Geometry({16, 4, 4, 6}), Geometry({32, 2, 4, 4}), Geometry({8, 4, 2, 4}),
                                  Geometry({24, 2, 2, 4}), Geometry({8, 2, 2, 6})};
const std::array<double, 4> kAntiXT{-1.0, 1.0, 1.0, -1.0};

// Half stores each site to 1/32767 of its largest component (errors up to 8e-5 here);
// tolerance()'s 5e-3 for half would let a wrong norm lane or boundary sign through.
double simd_tolerance(Precision p, Reconstruct r) { return p == Precision::half ? 5e-4 : tolerance(p, r); }

struct SimdLinks {
  GaugeField thin, fat, lng;
};
// Thin links for naive; for improved, non-unitary fat links with entries beyond 1 and long links
// random (r18) or c W (r12).
SimdLinks simd_links(const Geometry& g, Reconstruct long_recon) {
  SimdLinks l{hot(g, 61), gaussian_links(g, 62, 0.6), GaugeField()};
  l.lng = long_recon == Reconstruct::r12 ? unsmeared_improved_links(l.thin, kCpu).longlinks : gaussian_links(g, 63, 0.05);
  return l;
}
}  // namespace

TEST(StaggeredSimd, EveryFormMatchesTheReference) {
  for (const Geometry& g : kSimdLattices)
    for (Precision prec : {Precision::double_, Precision::single, Precision::half})
      for (bool improved : {false, true})
        for (Reconstruct r : {Reconstruct::r18, Reconstruct::r12, Reconstruct::r8}) {
          if (r == Reconstruct::r8 && improved) continue;  // r8: naive only
          SCOPED_TRACE(g.to_string() + " " + to_string(prec) + (improved ? " improved long " : " naive ") + to_string(r));
          const SimdLinks links = simd_links(g, r);
          DiracParams p = stag_params(improved, prec, improved ? Reconstruct::r18 : r, r, false, 0.11);
          p.boundary = kAntiXT;
          const StaggeredDirac op = improved ? StaggeredDirac(p, links.fat, links.lng, kCpu) : StaggeredDirac(p, links.thin, kCpu);
          if (!op.vectorised()) GTEST_SKIP() << "no vector path on this CPU (AVX2 or AVX-512 needed)";
          ASSERT_EQ(op.order(), FieldOrder::tiled);
          const GaugeField& fat = improved ? links.fat : links.thin;
          const GaugeField* lng = improved ? &links.lng : nullptr;
          const double tol = simd_tolerance(prec, r);
          const std::int64_t before = op.vector_launches();
          compare_with_reference(op, fat, lng, tol);  // M and Mdag on all sites, dslash per parity
          EXPECT_EQ(op.vector_launches() - before, 6) << "not every launch took the vector path";

          // a x + b D in on parity-subset fields
          const SpinorField psi = test::canonical_copy(converted(gaussian(g, 64), op.full_params(), kCpu), kCpu);
          const SpinorField chi = test::canonical_copy(converted(gaussian(g, 65), op.full_params(), kCpu), kCpu);
          SpinorField d(psi.params());
          reference_staggered_dslash(d, psi, fat, lng, p.boundary);
          for (int parity : {0, 1})
            for (bool dagger : {false, true}) {
              SpinorFieldParams po = op.full_params(), pi = op.full_params();
              po.subset = parity == 0 ? SiteSubset::even : SiteSubset::odd;
              pi.subset = parity == 0 ? SiteSubset::odd : SiteSubset::even;
              const SpinorField in_p = converted(parity_part(psi, 1 - parity), pi, kCpu);
              const SpinorField x_p = converted(parity_part(chi, parity), po, kCpu);
              SpinorField o(po);
              const double a = 0.7, b = -1.3;
              op.dslash_xpay(o, in_p, parity, dagger, x_p, a, b);
              SpinorField want = parity_part(chi, parity);
              const SpinorField dp = parity_part(d, parity);
              const double bb = dagger ? -b : b;
              for (std::int64_t i = 0; i < g.half_volume(); ++i)
                for (int c = 0; c < 3; ++c)
                  want.color_vector(i).c[c] = a * want.color_vector(i).c[c] + bb * dp.color_vector(i).c[c];
              EXPECT_LT(max_rel_diff(test::canonical_copy(o, kCpu), want), tol) << "xpay parity " << parity << " dagger " << dagger;
            }
          EXPECT_EQ(op.vector_launches() - before, 10);
        }
}

// The even-odd operator on tiled vectors: M_dot's fused dot, and a CG solve that reconstructs
// the full solution of M x = b; whole tiles and half tiles (X = 24: the dot's chunks count tasks).
TEST(StaggeredSimd, EvenOddMDotAndSolveOnTiledVectors) {
  for (const Geometry& g : {kSimdLattices[0], kSimdLattices[3]}) {
    const SimdLinks links = simd_links(g, Reconstruct::r18);
    for (bool improved : {false, true})
      for (Precision prec : {Precision::double_, Precision::single, Precision::half}) {
        SCOPED_TRACE(std::string(improved ? "improved " : "naive ") + to_string(prec));
        const DiracParams p = stag_params(improved, prec, Reconstruct::r18, Reconstruct::r18, true, 0.25);
        const std::unique_ptr<DiracOperator> base =
            improved ? make_improved_staggered(p, links.fat, links.lng, kCpu) : make_dirac(p, links.thin, kCpu);
        const auto& op = dynamic_cast<const StaggeredDirac&>(*base);
        if (!op.vectorised()) GTEST_SKIP() << "no vector path on this CPU (AVX2 or AVX-512 needed)";
        ASSERT_EQ(op.vector_params().order, FieldOrder::tiled);
        SpinorField in(op.vector_params()), want(op.vector_params()), got(op.vector_params());
        fill_gaussian(in, 66, 0, kCpu);
        const std::int64_t before = op.vector_launches();
        op.M(want, in);
        runtime::ScalarSlots slots(kCpu, 2);
        op.M_dot(got, in, {&slots, 1});
        EXPECT_EQ(op.vector_launches() - before, 4);
        const double dot = blas::re_dot(in, want, kCpu);
        blas::axpy(-1.0, want, got, kCpu);
        EXPECT_EQ(blas::norm2(got, kCpu), 0.0) << "M_dot's M is M's";
        const double tol = prec == Precision::double_ ? 1e-12 : prec == Precision::single ? 1e-5 : 1e-3;
        EXPECT_NEAR(slots.host(1), dot, tol * blas::norm2(in, kCpu) * 4);

        if (prec != Precision::double_) continue;
        const SpinorField b = gaussian(g, 67);
        const SpinorField bt = converted(b, op.full_params(), kCpu);
        SpinorField b_pc(op.vector_params()), x_pc(op.vector_params()), x(op.full_params());
        op.prepare(b_pc, bt);
        SolverParams sp;
        sp.tol = 1e-11;
        const SolverResult res = cg(op, x_pc, b_pc, sp);
        ASSERT_TRUE(res.converged) << res.failure;
        op.reconstruct(x, x_pc, bt);
        SpinorField mx(b.params());
        reference_staggered_M(mx, test::canonical_copy(x, kCpu), p.mass, improved ? links.fat : links.thin,
                              improved ? &links.lng : nullptr, p.boundary);
        double rr = 0;
        for (std::int64_t s = 0; s < g.volume(); ++s)
          for (int c = 0; c < 3; ++c) rr += norm2(mx.color_vector(s).c[c] - b.color_vector(s).c[c]);
        EXPECT_LT(std::sqrt(rr / norm2(b)), 1e-9);
      }
  }
}

// What the vector kernel does not take runs the scalar kernel: the default order is site_major
// there, and a tiled order given explicitly still gives the reference's result.
TEST(StaggeredSimd, WhatItCannotTakeRunsTheScalarKernel) {
  // X/2 = 6: no whole half tile in an x-row (every precision and compression fits otherwise).
  const GaugeField u12 = hot(Geometry({12, 4, 4, 4}), 71);
  for (auto [prec, r] : {std::pair{Precision::double_, Reconstruct::r18}, std::pair{Precision::half, Reconstruct::r8}}) {
    SCOPED_TRACE(to_string(prec) + " " + to_string(r));
    const DiracParams p = stag_params(false, prec, r, Reconstruct::r18, false, 0.1);
    EXPECT_EQ(StaggeredDirac(p, u12, kCpu).order(), FieldOrder::site_major);
    const StaggeredDirac tiled(p, u12, kCpu, FieldOrder::tiled);
    EXPECT_FALSE(tiled.vectorised());
    compare_with_reference(tiled, u12, nullptr, tolerance(prec, r));
    EXPECT_EQ(tiled.vector_launches(), 0);
  }
}

// Output written with non-temporal stores (GLUON_CPU_STREAM_STORES=1; off by default here,
// cpu_simd.h) holds the same bytes as with plain stores: naive and improved (whose two-pass
// kernels stream only in half, in one pass), every precision, plain and xpay; and so does every
// prefetch choice (GLUON_CPU_PREFETCH, a hint).
TEST(StaggeredSimd, StreamedStoresAndEveryPrefetchChoiceWriteWhatPlainStoresWrite) {
  const Geometry& g = kSimdLattices[1];
  const SimdLinks links = simd_links(g, Reconstruct::r12);
  const std::pair<const char*, const char*> modes[] = {{"GLUON_CPU_STREAM_STORES", "0"},
                                                       {"GLUON_CPU_STREAM_STORES", "1"},
                                                       {"GLUON_CPU_PREFETCH", "ahead"},
                                                       {"GLUON_CPU_PREFETCH", "spinors"},
                                                       {"GLUON_CPU_PREFETCH", "none"}};
  for (Precision prec : {Precision::double_, Precision::single, Precision::half})
    for (bool improved : {false, true}) {
      SCOPED_TRACE(to_string(prec) + (improved ? " improved" : " naive"));
      const DiracParams p = stag_params(improved, prec, Reconstruct::r18, Reconstruct::r12, false, 0.11);
      const StaggeredDirac op = improved ? StaggeredDirac(p, links.fat, links.lng, kCpu) : StaggeredDirac(p, links.thin, kCpu);
      if (!op.vectorised()) GTEST_SKIP() << "no vector path on this CPU (AVX2 or AVX-512 needed)";
      SpinorFieldParams po = op.full_params(), pi = op.full_params();
      po.subset = SiteSubset::even;
      pi.subset = SiteSubset::odd;
      const SpinorField in_p = converted(parity_part(test::canonical_copy(converted(gaussian(g, 66), op.full_params(), kCpu), kCpu), 1), pi, kCpu);
      const SpinorField x_p = converted(parity_part(test::canonical_copy(converted(gaussian(g, 67), op.full_params(), kCpu), kCpu), 0), po, kCpu);
      std::vector<std::vector<SpinorField>> outs;
      for (const auto& [var, value] : modes) {
        ::setenv(var, value, 1);
        auto& o = outs.emplace_back();
        o.emplace_back(po);
        o.emplace_back(po);
        op.dslash(o[0], in_p, 0, false);
        op.dslash_xpay(o[1], in_p, 0, true, x_p, 0.7, -1.3);
        ::unsetenv(var);
      }
      for (std::size_t m = 1; m < outs.size(); ++m)
        for (int f = 0; f < 2; ++f) {
          SCOPED_TRACE(std::string(modes[m].first) + "=" + modes[m].second + " form " + std::to_string(f));
          SpinorField &a = outs[0][f], &b = outs[m][f];
          ASSERT_EQ(a.buffer().bytes(), b.buffer().bytes());
          EXPECT_EQ(std::memcmp(a.data(), b.data(), a.buffer().bytes()), 0);
          if (prec == Precision::half) EXPECT_EQ(std::memcmp(a.norms(), b.norms(), a.norm_buffer().bytes()), 0) << "norms";
        }
    }
}

// ---------------------------------------------------------------- errors

TEST(StaggeredErrors, RefusesWhatItCannotDo) {
  const GaugeField u = hot(kG44, 101);
  const auto links = unsmeared_improved_links(u, kCpu);
  auto naive = [&](DiracParams p) { return StaggeredDirac(p, u, kCpu); };
  auto impr = [&](DiracParams p, const GaugeField& l) { return StaggeredDirac(p, links.fat, l, kCpu); };
  const DiracParams pn = stag_params(false, Precision::double_, Reconstruct::r18, Reconstruct::r18, true, 0.1);
  const DiracParams pi = stag_params(true, Precision::double_, Reconstruct::r18, Reconstruct::r18, true, 0.1);
  DiracParams q = pi;
  q.reconstruct = Reconstruct::r12;
  EXPECT_THROW(impr(q, links.longlinks), InputError);  // fat links not unitary
  q.reconstruct = Reconstruct::r8;
  EXPECT_THROW(impr(q, links.longlinks), InputError);
  q = pi;
  q.long_reconstruct = Reconstruct::r8;
  EXPECT_THROW(impr(q, links.longlinks), InputError);
  q.long_reconstruct = Reconstruct::r12;
  EXPECT_THROW(impr(q, gaussian_links(kG44, 5, 0.1)), InputError);  // not c x SU(3)
  EXPECT_NO_THROW(impr(q, links.longlinks));
  q = pn;
  q.boundary[3] = 0.5;
  EXPECT_THROW(naive(q), InputError);
  q = pn;
  q.mass = 0.0;
  EXPECT_THROW(naive(q), InputError);  // even-odd needs m != 0
  q.even_odd = false;
  EXPECT_NO_THROW(naive(q));
  q = pn;
  q.type = DiracType::wilson;
  EXPECT_THROW(naive(q), InputError);
  EXPECT_THROW(make_dirac(pi, u, kCpu), InputError);
  try {
    impr([] {
      DiracParams r = stag_params(true, Precision::double_, Reconstruct::r12, Reconstruct::r18, true, 0.1);
      return r;
    }(), links.longlinks);
    FAIL() << "fat r12 accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("reconstruct 18"), std::string::npos) << e.what();
  }

  const StaggeredDirac op = naive(pn);
  SpinorField e = gaussian(kG44, 1, SiteSubset::even), o = gaussian(kG44, 2, SiteSubset::odd);
  SpinorField e2(e.params());
  EXPECT_THROW(op.dslash(e, e2, 0), InputError);  // input has the wrong parity
  EXPECT_THROW(op.dslash(o, o, 1), InputError);   // wrong parity, and aliasing
  EXPECT_THROW(op.dslash(e, o, 2), InputError);
  EXPECT_THROW(op.M(e, e), InputError);  // output aliases input
  SpinorFieldParams dp = e.params();
  dp.nspin = 4;
  SpinorField dirac(dp);
  EXPECT_THROW(op.dslash(dirac, o, 0), InputError);
  SpinorFieldParams sp = e.params();
  sp.precision = Precision::single;
  SpinorField single(sp);
  EXPECT_THROW(op.dslash(single, o, 0), InputError);
  SpinorField other = gaussian(kG48, 3, SiteSubset::odd);
  EXPECT_THROW(op.dslash(e, other, 0), InputError);
  EXPECT_NO_THROW(op.dslash(e, o, 0));

  // The reference takes canonical full fields only.
  SpinorField full = gaussian(kG44, 4), full2(full.params());
  EXPECT_THROW(reference_staggered_dslash(e, o, u, nullptr, kAntiT), InputError);
  EXPECT_THROW(reference_staggered_dslash(full2, full, u, nullptr, {1, 1, 1, 0.5}), InputError);
  GaugeField us = converted(u, [&] {
    GaugeFieldParams g = u.params();
    g.precision = Precision::single;
    return g;
  }(), kCpu);
  EXPECT_THROW(reference_staggered_dslash(full2, full, us, nullptr, kAntiT), InputError);
}
