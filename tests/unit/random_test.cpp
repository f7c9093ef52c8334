// Random numbers: Philox-4x32-10 known answers, the exact:: math, SiteRng distributions, Haar and
// weak SU(3) draws, random spinor/gauge fields (moments, precisions, layouts, site subsets) and
// their independence of how the lattice is split.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>

#include "gluon/qcd/gauge_accessor.h"
#include "gluon/qcd/gauge_field.h"
#include "gluon/qcd/geometry.h"
#include "gluon/qcd/random.h"
#include "gluon/qcd/random_fields.h"
#include "gluon/qcd/spinor_field.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/exec.h"

using namespace gluon;
using namespace gluon::qcd;

namespace {

const runtime::Exec cpu = runtime::cpu_exec();

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

SpinorField make_spinor(const Geometry& g, Precision p = Precision::double_,
                        FieldOrder o = FieldOrder::site_major, int nspin = 4,
                        SiteSubset subset = SiteSubset::full) {
  SpinorFieldParams prm;
  prm.geometry = g;
  prm.precision = p;
  prm.order = o;
  prm.nspin = nspin;
  prm.subset = subset;
  prm.pad = o == FieldOrder::blocked ? 4 : 0;
  return SpinorField(prm);
}

// Real r of site s of any spinor field, decoded to double.
double spinor_real(const SpinorField& f, std::int64_t s, int r) {
  const auto off = f.layout().offset(s, 0, r);
  switch (f.params().precision) {
    case Precision::double_: return static_cast<const double*>(f.data())[off];
    case Precision::single: return static_cast<const float*>(f.data())[off];
    case Precision::half:
      return from_half(static_cast<const std::int16_t*>(f.data())[off], f.norms()[s]);
  }
  return 0;
}

}  // namespace

TEST(Philox, MatchesRandom123KnownAnswerVectors) {
  // Random123 kat_vectors, philox4x32 10: counter[4] key[2] -> output[4]
  struct Kat {
    std::uint32_t ctr[4], key[2], out[4];
  };
  const Kat kats[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
       {0xffffffff, 0xffffffff},
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
       {0xa4093822, 0x299f31d0},
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  for (const Kat& k : kats) {
    const Philox4x32 r =
        philox4x32_10(Philox4x32{{k.ctr[0], k.ctr[1], k.ctr[2], k.ctr[3]}}, k.key[0], k.key[1]);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(r.v[i], k.out[i]) << "word " << i;
  }
}

TEST(Philox, SiteRngUsesSeedSiteStreamAndDrawAsDocumented) {
  const std::uint64_t seed = 0x299f31d0a4093822ull, site = 0x85a308d3243f6a88ull;
  SiteRng rng(seed, site, 0x13198a2e);
  // first block: draw counter 0
  Philox4x32 b0 = philox4x32_10(Philox4x32{{0x243f6a88, 0x85a308d3, 0x13198a2e, 0}}, 0xa4093822,
                                0x299f31d0);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(rng.next_u32(), b0.v[i]);
  Philox4x32 b1 = philox4x32_10(Philox4x32{{0x243f6a88, 0x85a308d3, 0x13198a2e, 1}}, 0xa4093822,
                                0x299f31d0);
  EXPECT_EQ(rng.next_u32(), b1.v[0]);
  EXPECT_EQ(rng.blocks_drawn(), 2u);
}

TEST(ExactMath, LogMatchesTheLibraryToTheLastBits) {
  double worst = 0;
  SiteRng rng(1, 2, 3);
  for (int i = 0; i < 200000; ++i) {
    const double u = i < 100000 ? rng.uniform() : std::ldexp(rng.uniform(), -(i % 60));
    const double a = exact::log(u), b = std::log(u);
    worst = std::max(worst, std::abs(a - b) / std::max(std::abs(b), 1e-300));
  }
  for (double u : {1.0, 0.5, 2.0, 0.999999999, 1.0000001, 1e-300, 2.220446049250313e-16 * 0.5}) {
    const double b = std::log(u);
    EXPECT_NEAR(exact::log(u), b, 4e-16 * std::abs(b) + 1e-300) << u;
  }
  EXPECT_LT(worst, 4e-16);
}

TEST(ExactMath, SinCosOfTwoPiTMatchTheLibrary) {
  double worst = 0;
  SiteRng rng(4, 5, 6);
  for (int i = 0; i < 200000; ++i) {
    const double t = i == 0 ? 0.0 : i == 1 ? 1.0 : i == 2 ? 0.125 : i == 3 ? 0.375 : rng.uniform();
    double s, c;
    exact::sincos_2pi(t, s, c);
    const double x = 2 * M_PI * t;
    worst = std::max({worst, std::abs(s - std::sin(x)), std::abs(c - std::cos(x))});
  }
  EXPECT_LT(worst, 2e-15);  // std::sin(2*M_PI*t) itself carries ~1e-16 * x of argument error
}

TEST(SiteRng, UniformIsInTheOpenIntervalWithTheRightMoments) {
  double m1 = 0, m2 = 0, lo = 1, hi = 0;
  const int n = 400000;
  for (int site = 0; site < n / 100; ++site) {
    SiteRng rng(42, site, 0);
    for (int i = 0; i < 100; ++i) {
      const double u = rng.uniform();
      ASSERT_GT(u, 0.0);
      ASSERT_LT(u, 1.0);
      m1 += u;
      m2 += u * u;
      lo = std::min(lo, u);
      hi = std::max(hi, u);
    }
  }
  m1 /= n;
  m2 /= n;
  EXPECT_NEAR(m1, 0.5, 5 * std::sqrt(1.0 / 12 / n));
  EXPECT_NEAR(m2 - m1 * m1, 1.0 / 12, 2e-3);
  EXPECT_LT(lo, 1e-4);
  EXPECT_GT(hi, 1 - 1e-4);
}

TEST(SiteRng, GaussianAndComplexGaussianMoments) {
  const int n = 400000;
  double m1 = 0, m2 = 0, m4 = 0, c2 = 0, cre2 = 0, cim2 = 0, cross = 0;
  for (int site = 0; site < n / 100; ++site) {
    SiteRng rng(7, site, 1);
    for (int i = 0; i < 100; ++i) {
      const double g = rng.gaussian();
      m1 += g;
      m2 += g * g;
      m4 += g * g * g * g;
    }
    SiteRng crng(7, site, 2);
    for (int i = 0; i < 100; ++i) {
      const Complex<double> z = crng.complex_gaussian();
      c2 += norm2(z);
      cre2 += z.re * z.re;
      cim2 += z.im * z.im;
      cross += z.re * z.im;
    }
  }
  EXPECT_NEAR(m1 / n, 0.0, 5 / std::sqrt(n));
  EXPECT_NEAR(m2 / n, 1.0, 0.01);
  EXPECT_NEAR(m4 / n, 3.0, 0.05);
  EXPECT_NEAR(c2 / n, 1.0, 0.01);
  EXPECT_NEAR(cre2 / n, 0.5, 0.005);
  EXPECT_NEAR(cim2 / n, 0.5, 0.005);
  EXPECT_NEAR(cross / n, 0.0, 0.005);
}

TEST(SiteRng, Z2IsUnitModulusWithIndependentSigns) {
  SiteRng rng(9, 10, 11);
  int count[4] = {0, 0, 0, 0};
  const double h = 1 / std::sqrt(2.0);
  for (int i = 0; i < 40000; ++i) {
    const Complex<double> z = rng.z2();
    ASSERT_DOUBLE_EQ(std::abs(z.re), h);
    ASSERT_DOUBLE_EQ(std::abs(z.im), h);
    count[(z.re < 0) + 2 * (z.im < 0)]++;
  }
  for (int c : count) EXPECT_NEAR(c, 10000, 500);
}

TEST(SiteRng, StreamsSitesAndSeedsGiveDifferentNumbers) {
  std::set<std::uint32_t> first;
  for (std::uint64_t seed : {1ull, 2ull, 1ull << 32})
    for (std::uint64_t site : {0ull, 1ull, 1ull << 32})
      for (std::uint32_t stream : {0u, 1u}) first.insert(SiteRng(seed, site, stream).next_u32());
  EXPECT_EQ(first.size(), 18u);
  SiteRng a(3, 4, 5), b(3, 4, 5);
  for (int i = 0; i < 50; ++i) EXPECT_TRUE(same_bits(a.gaussian(), b.gaussian()));
}

TEST(HaarSU3, IsSU3WithTheHaarMoments) {
  // For Haar SU(3): E tr U = 0, E |tr U|^2 = 1, E |U_ij|^2 = 1/3, E tr(U)^3 = 1 (the one SU(3)
  // invariant U(3) lacks: E tr(U)^3 = 0 for Haar U(3)), E |tr U|^4 = 2.
  const int n = 40000;
  Complex<double> t1{}, t3{};
  double t2 = 0, t4 = 0, u00 = 0, worst = 0;
  for (int site = 0; site < n; ++site) {
    SiteRng rng(2024, site, 0);
    const SU3d u = haar_su3(rng);
    worst = std::max(worst, unitarity_deviation(u));
    const Complex<double> t = trace(u);
    t1 += t;
    t2 += norm2(t);
    t4 += norm2(t) * norm2(t);
    t3 += t * t * t;
    u00 += norm2(u.e[1][2]);
  }
  EXPECT_LT(worst, 1e-14);
  EXPECT_NEAR(t1.re / n, 0.0, 0.02);
  EXPECT_NEAR(t1.im / n, 0.0, 0.02);
  EXPECT_NEAR(t2 / n, 1.0, 0.03);
  EXPECT_NEAR(t4 / n, 2.0, 0.15);
  EXPECT_NEAR(u00 / n, 1.0 / 3, 0.01);
  EXPECT_NEAR(t3.re / n, 1.0, 0.1);
  EXPECT_NEAR(t3.im / n, 0.0, 0.1);
}

TEST(WeakSU3, IsSU3AndCloseToOne) {
  for (double eps : {0.0, 0.01, 0.1, 0.5}) {
    double dist = 0, worst = 0;
    for (int site = 0; site < 2000; ++site) {
      SiteRng rng(5, site, 0);
      const SU3d u = weak_su3(rng, eps);
      worst = std::max(worst, unitarity_deviation(u));
      dist += 1 - trace(u).re / 3;
    }
    EXPECT_LT(worst, 1e-14);
    if (eps == 0.0) EXPECT_EQ(dist, 0.0);
    else {
      EXPECT_GT(dist / 2000, 0.1 * eps * eps);
      EXPECT_LT(dist / 2000, 2.0 * eps * eps);
    }
  }
}

TEST(RandomFields, SpinorNoiseHasTheDocumentedDistribution) {
  const Geometry g({8, 8, 8, 8});  // 49152 complex numbers: 5 sigma of E|z|^2 is 0.023
  SpinorField psi = make_spinor(g);
  fill_gaussian(psi, 11, 0, cpu);
  double n2 = 0, re2 = 0;
  for (std::int64_t s = 0; s < g.volume(); ++s) {
    n2 += norm2(psi.site(s));
    for (int r = 0; r < 24; r += 2) re2 += spinor_real(psi, s, r) * spinor_real(psi, s, r);
  }
  EXPECT_NEAR(n2 / (12.0 * g.volume()), 1.0, 0.023);  // E|z|^2 = 1
  EXPECT_NEAR(re2 / (12.0 * g.volume()), 0.5, 0.016);
  fill_z2(psi, 11, 0, cpu);
  for (std::int64_t s = 0; s < g.volume(); ++s)
    for (int r = 0; r < 24; ++r) ASSERT_DOUBLE_EQ(std::abs(spinor_real(psi, s, r)), std::sqrt(0.5));
  fill_uniform(psi, 11, 0, cpu);
  double m = 0;
  for (std::int64_t s = 0; s < g.volume(); ++s)
    for (int r = 0; r < 24; ++r) {
      const double v = spinor_real(psi, s, r);
      ASSERT_GT(v, 0.0);
      ASSERT_LT(v, 1.0);
      m += v;
    }
  EXPECT_NEAR(m / (24.0 * g.volume()), 0.5, 0.01);
}

TEST(RandomFields, SpinorValuesAreTheSiteRngDrawsInTheDocumentedOrder) {
  const Geometry g({4, 2, 2, 2});
  SpinorField psi = make_spinor(g);
  fill_gaussian(psi, 99, 17, cpu);
  for (std::int64_t s = 0; s < g.volume(); ++s) {
    SiteRng rng(99, static_cast<std::uint64_t>(g.global_lex(g.coords(s))), 17);
    for (int sp = 0; sp < 4; ++sp)
      for (int c = 0; c < 3; ++c) {
        const Complex<double> z = rng.complex_gaussian();
        ASSERT_TRUE(same_bits(psi.site(s).s[sp].c[c].re, z.re));
        ASSERT_TRUE(same_bits(psi.site(s).s[sp].c[c].im, z.im));
      }
  }
}

TEST(RandomFields, PrecisionsLayoutsAndSubsetsHoldTheSameDraws) {
  const Geometry g({4, 4, 2, 6});
  SpinorField ref = make_spinor(g);
  fill_gaussian(ref, 5, 3, cpu);
  for (FieldOrder o : {FieldOrder::site_major, FieldOrder::blocked})
    for (Precision p : {Precision::double_, Precision::single, Precision::half}) {
      SCOPED_TRACE(to_string(p));
      SpinorField f = make_spinor(g, p, o);
      fill_gaussian(f, 5, 3, cpu);
      for (std::int64_t s = 0; s < g.volume(); ++s) {
        double norm = 0;
        for (int r = 0; r < 24; ++r) norm = std::max(norm, std::abs(spinor_real(ref, s, r)));
        if (p == Precision::half) ASSERT_EQ(f.norms()[s], static_cast<float>(norm));
        for (int r = 0; r < 24; ++r) {
          const double want = spinor_real(ref, s, r), got = spinor_real(f, s, r);
          if (p == Precision::double_) ASSERT_TRUE(same_bits(got, want));
          if (p == Precision::single) ASSERT_EQ(got, static_cast<double>(static_cast<float>(want)));
          if (p == Precision::half) ASSERT_NEAR(got, want, norm * 0.6 / 32767 + 1e-7 * norm);
        }
      }
    }
  // even and odd fields hold the values of their sites in the full field; staggered too
  for (SiteSubset sub : {SiteSubset::even, SiteSubset::odd}) {
    SpinorField f = make_spinor(g, Precision::double_, FieldOrder::site_major, 4, sub);
    fill_gaussian(f, 5, 3, cpu);
    const std::int64_t off = sub == SiteSubset::odd ? g.half_volume() : 0;
    for (std::int64_t s = 0; s < g.half_volume(); ++s)
      for (int r = 0; r < 24; ++r) ASSERT_TRUE(same_bits(spinor_real(f, s, r), spinor_real(ref, s + off, r)));
  }
  SpinorField st = make_spinor(g, Precision::double_, FieldOrder::site_major, 1);
  fill_gaussian(st, 5, 3, cpu);
  for (std::int64_t s = 0; s < g.volume(); ++s)
    for (int r = 0; r < 6; ++r) ASSERT_TRUE(same_bits(spinor_real(st, s, r), spinor_real(ref, s, r)));
  // another stream or seed gives other numbers
  SpinorField other = make_spinor(g);
  fill_gaussian(other, 5, 4, cpu);
  EXPECT_NE(other.site(0).s[0].c[0].re, ref.site(0).s[0].c[0].re);
  fill_gaussian(other, 6, 3, cpu);
  EXPECT_NE(other.site(0).s[0].c[0].re, ref.site(0).s[0].c[0].re);
}

TEST(RandomFields, DrawsDoNotDependOnHowTheLatticeIsSplit) {
  const Coords global{8, 8, 8, 8};
  const Geometry full(global);
  SpinorField psi = make_spinor(full);
  fill_gaussian(psi, 31, 2, cpu);
  GaugeField u = GaugeField::canonical(full);
  fill_haar(u, 31, 2, cpu);
  const Coords grid{1, 2, 1, 2};
  int blocks = 0;
  for (int by = 0; by < 2; ++by)
    for (int bt = 0; bt < 2; ++bt) {
      const Geometry part(global, grid, {0, by, 0, bt});
      SpinorField p = make_spinor(part);
      fill_gaussian(p, 31, 2, cpu);
      GaugeField v = GaugeField::canonical(part);
      fill_haar(v, 31, 2, cpu);
      for (std::int64_t s = 0; s < part.volume(); ++s) {
        const std::int64_t fs = full.eo_index(part.local_to_global(part.coords(s)));
        ASSERT_EQ(std::memcmp(&p.site(s), &psi.site(fs), sizeof(Spinor<double>)), 0) << s;
        for (int mu = 0; mu < 4; ++mu)
          ASSERT_EQ(std::memcmp(&v.link(s, mu), &u.link(fs, mu), sizeof(SU3d)), 0) << s << " " << mu;
      }
      ++blocks;
    }
  EXPECT_EQ(blocks, 4);
}

TEST(RandomFields, GaugeDrawsInAnyStorageHoldTheDoubleLinks) {
  const Geometry g({4, 4, 2, 2});
  GaugeField ref = GaugeField::canonical(g);
  fill_haar(ref, 8, 0, cpu);
  for (Precision p : {Precision::double_, Precision::single, Precision::half})
    for (Reconstruct r : {Reconstruct::r18, Reconstruct::r12}) {
      GaugeFieldParams prm;
      prm.geometry = g;
      prm.precision = p;
      prm.reconstruct = r;
      prm.order = FieldOrder::blocked;
      GaugeField f(prm);
      fill_haar(f, 8, 0, cpu);
      const double tol = p == Precision::double_ ? 1e-15 : p == Precision::single ? 1e-6 : 1e-4;
      dispatch_gauge(f, [&](auto acc) {
        for (std::int64_t s = 0; s < g.volume(); ++s)
          for (int mu = 0; mu < 4; ++mu) {
            const SU3d m = SU3d::from(acc.load(s, mu));
            for (int i = 0; i < 3; ++i)
              for (int j = 0; j < 3; ++j) {
                ASSERT_NEAR(m.e[i][j].re, ref.link(s, mu).e[i][j].re, tol);
                ASSERT_NEAR(m.e[i][j].im, ref.link(s, mu).e[i][j].im, tol);
              }
          }
      });
    }
}

TEST(RandomFields, ErrorPaths) {
  runtime::Exec cuda;
  cuda.backend = runtime::Backend::cuda;
  SpinorField psi = make_spinor(Geometry({2, 2, 2, 2}));
  EXPECT_THROW(fill_gaussian(psi, 1, 0, cuda), InputError);
  EXPECT_THROW(fill_z2(psi, 1, 0, cuda), InputError);
  GaugeField u = GaugeField::canonical(Geometry({2, 2, 2, 2}));
  EXPECT_THROW(fill_haar(u, 1, 0, cuda), InputError);
  EXPECT_THROW(fill_weak(u, 1, 0, -0.1, cpu), InputError);
  EXPECT_THROW(fill_weak(u, 1, 0, std::nan(""), cpu), InputError);
  SpinorField empty;
  EXPECT_THROW(fill_uniform(empty, 1, 0, cpu), InputError);
  GaugeField none;
  EXPECT_THROW(fill_haar(none, 1, 0, cpu), InputError);
}
