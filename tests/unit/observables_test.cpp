// Observables: unit gauge values, plaquette/rectangle/Polyakov loop against plain independent
// loops over coordinates, precision/compression/layout variants, reunitarisation, error paths.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>

#include "gluon/qcd/gauge_accessor.h"
#include "gluon/qcd/gauge_field.h"
#include "gluon/qcd/geometry.h"
#include "gluon/qcd/observables.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/exec.h"

using namespace gluon;
using namespace gluon::qcd;

namespace {

const runtime::Exec cpu = runtime::cpu_exec();

// A random SU(3) matrix from std::mt19937 (independent of gluon's Philox): Gaussian entries,
// then MILC's reunitarisation. Not Haar, but generic, which is all these tests need.
SU3d random_su3(std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  SU3d m;
  for (auto& row : m.e)
    for (auto& z : row) z = {g(rng), g(rng)};
  return reunitarize(m);
}

GaugeField random_field(const Geometry& geo, unsigned seed) {
  GaugeField u = GaugeField::canonical(geo);
  std::mt19937_64 rng(seed);
  for (std::int64_t s = 0; s < geo.volume(); ++s)
    for (int mu = 0; mu < 4; ++mu) u.link(s, mu) = random_su3(rng);
  return u;
}

GaugeField unit_field(const Geometry& geo) {
  GaugeField u = GaugeField::canonical(geo);
  for (std::int64_t s = 0; s < geo.volume(); ++s)
    for (int mu = 0; mu < 4; ++mu) u.link(s, mu) = SU3d::identity();
  return u;
}

// Plain reference: link at global coordinates x (periodic), by coordinates, with std::complex.
using Cd = std::complex<double>;
using M = std::array<std::array<Cd, 3>, 3>;

M link_at(const GaugeField& u, Coords x, int mu) {
  const auto& d = u.geometry().global_dims();
  for (int i = 0; i < 4; ++i) x[i] = ((x[i] % d[i]) + d[i]) % d[i];
  const SU3d& l = u.link(u.geometry().eo_index(x), mu);
  M m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m[i][j] = Cd(l.e[i][j].re, l.e[i][j].im);
  return m;
}
M mul(const M& a, const M& b) {
  M c{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) c[i][j] += a[i][k] * b[k][j];
  return c;
}
M dag(const M& a) {
  M c;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) c[i][j] = std::conj(a[j][i]);
  return c;
}
Cd tr(const M& a) { return a[0][0] + a[1][1] + a[2][2]; }
Coords step(Coords x, int mu, int n) {
  x[mu] += n;
  return x;
}

template <class F>
void for_sites(const Geometry& g, F f) {
  const auto& d = g.global_dims();
  for (int t = 0; t < d[3]; ++t)
    for (int z = 0; z < d[2]; ++z)
      for (int y = 0; y < d[1]; ++y)
        for (int x = 0; x < d[0]; ++x) f(Coords{x, y, z, t});
}

struct RefObs {
  double plaq_s = 0, plaq_t = 0, rect = 0, link = 0;
  Cd poly{};
};

RefObs reference(const GaugeField& u) {
  const Geometry& g = u.geometry();
  RefObs r;
  const double v = static_cast<double>(g.volume());
  for_sites(g, [&](const Coords& x) {
    for (int mu = 0; mu < 4; ++mu) {
      r.link += tr(link_at(u, x, mu)).real() / (12 * v);
      for (int nu = 0; nu < 4; ++nu) {
        if (nu == mu) continue;
        if (mu < nu) {
          const M p = mul(mul(link_at(u, x, mu), link_at(u, step(x, mu, 1), nu)),
                          mul(dag(link_at(u, step(x, nu, 1), mu)), dag(link_at(u, x, nu))));
          (nu == 3 ? r.plaq_t : r.plaq_s) += tr(p).real() / (9 * v);
        }
        M w = link_at(u, x, mu);
        w = mul(w, link_at(u, step(x, mu, 1), mu));
        w = mul(w, link_at(u, step(x, mu, 2), nu));
        w = mul(w, dag(link_at(u, step(step(x, mu, 1), nu, 1), mu)));
        w = mul(w, dag(link_at(u, step(x, nu, 1), mu)));
        w = mul(w, dag(link_at(u, x, nu)));
        r.rect += tr(w).real() / (36 * v);
      }
    }
    if (x[3] == 0) {
      M p = link_at(u, x, 3);
      for (int t = 1; t < g.global_dims()[3]; ++t) p = mul(p, link_at(u, step(x, 3, t), 3));
      r.poly += tr(p) / (3.0 * v / g.global_dims()[3]);
    }
  });
  return r;
}

// A copy of a canonical field in another precision/compression/order, written through the
// accessor (independent of field_convert.h).
GaugeField copy_as(const GaugeField& src, Precision p, Reconstruct rc, FieldOrder o) {
  GaugeFieldParams prm;
  prm.geometry = src.geometry();
  prm.precision = p;
  prm.reconstruct = rc;
  prm.order = o;
  prm.pad = o == FieldOrder::blocked ? 6 : 0;
  GaugeField dst(prm);
  dispatch_gauge(dst, [&](auto acc) {
    using Mx = typename decltype(acc)::matrix;
    for (std::int64_t s = 0; s < src.geometry().volume(); ++s)
      for (int mu = 0; mu < 4; ++mu) acc.store(s, mu, Mx::from(src.link(s, mu)));
  });
  return dst;
}

}  // namespace

TEST(Observables, UnitGaugeGivesOneEverywhere) {
  const GaugeField u = unit_field(Geometry({4, 4, 4, 6}));
  const auto p = plaquette(u, cpu);
  EXPECT_DOUBLE_EQ(p.total, 1.0);
  EXPECT_DOUBLE_EQ(p.spatial, 1.0);
  EXPECT_DOUBLE_EQ(p.temporal, 1.0);
  EXPECT_DOUBLE_EQ(rectangle(u, cpu), 1.0);
  EXPECT_DOUBLE_EQ(link_trace(u, cpu), 1.0);
  const auto l = polyakov_loop(u, cpu);
  EXPECT_DOUBLE_EQ(l.re, 1.0);
  EXPECT_DOUBLE_EQ(l.im, 0.0);
  EXPECT_EQ(max_unitarity_deviation(u, cpu), 0.0);
}

TEST(Observables, MatchAPlainLoopOverCoordinatesOnARandomField) {
  for (const Coords dims : {Coords{4, 4, 4, 4}, Coords{2, 4, 6, 4}}) {
    const GaugeField u = random_field(Geometry(dims), 7);
    const RefObs r = reference(u);
    const auto p = plaquette(u, cpu);
    EXPECT_NEAR(p.spatial, r.plaq_s, 1e-14);
    EXPECT_NEAR(p.temporal, r.plaq_t, 1e-14);
    EXPECT_NEAR(p.total, 0.5 * (r.plaq_s + r.plaq_t), 1e-14);
    EXPECT_NEAR(rectangle(u, cpu), r.rect, 1e-14);
    EXPECT_NEAR(link_trace(u, cpu), r.link, 1e-14);
    const auto l = polyakov_loop(u, cpu);
    EXPECT_NEAR(l.re, r.poly.real(), 1e-14);
    EXPECT_NEAR(l.im, r.poly.imag(), 1e-14);
    // a random field is far from the unit one: the test can tell them apart
    EXPECT_LT(std::abs(p.total), 0.2);
    EXPECT_GT(std::abs(l.re) + std::abs(l.im) + std::abs(r.link), 1e-6);
  }
}

TEST(Observables, SpatialAndTemporalPlaquettesAreSeparated) {
  // Put a phase on every t-link: spatial plaquettes stay 1, temporal ones see the phase via
  // U_t(x) != U_t(x+mu) only where the phase varies, so vary it with x.
  const Geometry geo({4, 4, 4, 4});
  GaugeField u = unit_field(geo);
  for (std::int64_t s = 0; s < geo.volume(); ++s) {
    const auto x = geo.coords(s);
    const double phi = 0.3 * x[0];
    SU3d m = SU3d::identity();
    m.e[0][0] = {std::cos(phi), std::sin(phi)};
    m.e[1][1] = {std::cos(phi), -std::sin(phi)};
    u.link(s, 3) = m;
  }
  const auto p = plaquette(u, cpu);
  EXPECT_DOUBLE_EQ(p.spatial, 1.0);
  EXPECT_LT(p.temporal, 0.999);
  EXPECT_NEAR(p.total, 0.5 * (p.spatial + p.temporal), 1e-15);
  const RefObs r = reference(u);
  EXPECT_NEAR(p.temporal, r.plaq_t, 1e-14);
}

TEST(Observables, SingleHalfAndCompressedCopiesAgreeWithDouble) {
  const GaugeField u = random_field(Geometry({4, 4, 4, 4}), 11);
  const auto p = plaquette(u, cpu);
  const double rect = rectangle(u, cpu), lt = link_trace(u, cpu);
  const auto pl = polyakov_loop(u, cpu);
  struct Case {
    Precision p;
    Reconstruct r;
    FieldOrder o;
    double tol;
  };
  for (const Case c : {Case{Precision::double_, Reconstruct::r18, FieldOrder::blocked, 1e-15},
                       Case{Precision::double_, Reconstruct::r12, FieldOrder::site_major, 1e-14},
                       Case{Precision::double_, Reconstruct::r12, FieldOrder::blocked, 1e-14},
                       Case{Precision::double_, Reconstruct::r8, FieldOrder::blocked, 1e-13},
                       Case{Precision::single, Reconstruct::r18, FieldOrder::site_major, 1e-6},
                       Case{Precision::single, Reconstruct::r8, FieldOrder::site_major, 1e-5},
                       Case{Precision::single, Reconstruct::r12, FieldOrder::blocked, 1e-6},
                       Case{Precision::half, Reconstruct::r18, FieldOrder::blocked, 2e-4},
                       Case{Precision::half, Reconstruct::r12, FieldOrder::site_major, 2e-4}}) {
    SCOPED_TRACE(to_string(c.p) + " " + to_string(c.r));
    const GaugeField v = copy_as(u, c.p, c.r, c.o);
    const auto q = plaquette(v, cpu);
    EXPECT_NEAR(q.total, p.total, c.tol);
    EXPECT_NEAR(q.spatial, p.spatial, c.tol);
    EXPECT_NEAR(q.temporal, p.temporal, c.tol);
    EXPECT_NEAR(rectangle(v, cpu), rect, c.tol);
    EXPECT_NEAR(link_trace(v, cpu), lt, c.tol);
    const auto ql = polyakov_loop(v, cpu);
    EXPECT_NEAR(ql.re, pl.re, c.tol);
    EXPECT_NEAR(ql.im, pl.im, c.tol);
    const double dev = max_unitarity_deviation(v, cpu);
    EXPECT_LT(dev, c.p == Precision::double_ ? 1e-14 : c.p == Precision::single ? 1e-6 : 1e-3);
    if (c.p != Precision::double_) EXPECT_GT(dev, 1e-9);  // rounding is visible: not a tautology
  }
}

TEST(Observables, ReunitarizeRestoresSU3AndIsIdempotentOnSU3) {
  const Geometry geo({4, 4, 2, 2});
  GaugeField u = random_field(geo, 3);
  const double before = plaquette(u, cpu).total;
  // perturb: scale one row, add noise to another entry
  for (std::int64_t s = 0; s < geo.volume(); ++s)
    for (int mu = 0; mu < 4; ++mu) {
      SU3d& m = u.link(s, mu);
      m.e[0][0] *= 1.001;
      m.e[1][2] += Complex<double>(1e-3, -2e-3);
    }
  EXPECT_GT(max_unitarity_deviation(u, cpu), 1e-4);
  reunitarize(u, cpu);
  EXPECT_LT(max_unitarity_deviation(u, cpu), 1e-14);
  EXPECT_NEAR(plaquette(u, cpu).total, before, 1e-2);
  GaugeField w = copy_as(u, Precision::double_, Reconstruct::r18, FieldOrder::site_major);
  reunitarize(w, cpu);
  for (std::int64_t s = 0; s < geo.volume(); ++s)
    for (int mu = 0; mu < 4; ++mu)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          EXPECT_NEAR(w.link(s, mu).e[i][j].re, u.link(s, mu).e[i][j].re, 1e-15);
          EXPECT_NEAR(w.link(s, mu).e[i][j].im, u.link(s, mu).e[i][j].im, 1e-15);
        }
}

TEST(Observables, ReunitarizeWorksOnSinglePrecisionBlockedFields) {
  const GaugeField u = random_field(Geometry({4, 4, 2, 2}), 5);
  GaugeField v = copy_as(u, Precision::single, Reconstruct::r18, FieldOrder::blocked);
  // damage single links: scale entries by 1.01
  dispatch_gauge(v, [&](auto acc) {
    for (std::int64_t s = 0; s < u.geometry().volume(); ++s) {
      auto m = acc.load(s, 1);
      m *= 1.01f;
      acc.store(s, 1, m);
    }
  });
  EXPECT_GT(max_unitarity_deviation(v, cpu), 1e-2);
  reunitarize(v, cpu);
  EXPECT_LT(max_unitarity_deviation(v, cpu), 1e-6);
}

TEST(Observables, NaNLinkIsReportedByTheUnitarityCheck) {
  GaugeField u = unit_field(Geometry({2, 2, 2, 2}));
  u.link(5, 2).e[1][1].re = std::nan("");
  EXPECT_TRUE(std::isnan(max_unitarity_deviation(u, cpu)));
}

TEST(Observables, ErrorPaths) {
  // one block of a process grid measured by a single process: every observable is global now,
  // so it needs a communicator of the grid's size
  const Geometry block({4, 4, 4, 4}, {1, 1, 2, 1}, {0, 0, 1, 0});
  const GaugeField u = unit_field(block);
  EXPECT_THROW(plaquette(u, cpu), InputError);
  EXPECT_THROW(rectangle(u, cpu), InputError);
  EXPECT_THROW(polyakov_loop(u, cpu), InputError);
  EXPECT_THROW(link_trace(u, cpu), InputError);
  try {
    plaquette(u, cpu);
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("process grid"), std::string::npos) << e.what();
  }
  // host field with a cuda Exec (constructed directly: no device needed to see the mismatch)
  runtime::Exec cuda;
  cuda.backend = runtime::Backend::cuda;
  const GaugeField h = unit_field(Geometry({2, 2, 2, 2}));
  EXPECT_THROW(plaquette(h, cuda), InputError);
  EXPECT_THROW(link_trace(h, cuda), InputError);
  try {
    link_trace(h, cuda);
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("device memory"), std::string::npos) << e.what();
  }
  // an empty field
  const GaugeField empty;
  EXPECT_THROW(link_trace(empty, cpu), InputError);
}
