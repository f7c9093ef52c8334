// Field conversions: gauge fields through every precision x reconstruct x order and back to the
// canonical field (exact or to the precision's rounding), double -> single -> double equal to
// rounding each real to float, site_major <-> blocked round trips bit-exact, the unit field exact
// in every form, spinors (Dirac and staggered, full and parity subsets) in half precision within
// ~1e-4 of the site norm with norms = max |component|, and the error paths.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <type_traits>

#include "gluon/qcd/field_convert.h"
#include "gluon/qcd/gauge_start.h"
#include "gluon/qcd/spinor_accessor.h"
#include "gluon/runtime/error.h"

using namespace gluon;
using namespace gluon::qcd;

namespace {

const Geometry kGeom({4, 4, 4, 6});
const runtime::Exec kCpu = runtime::cpu_exec();

GaugeField hot_field() {
  GaugeField u = GaugeField::canonical(kGeom);
  set_hot(u, 1234, kCpu);
  return u;
}

GaugeFieldParams params(Precision p, Reconstruct r, FieldOrder o, std::int64_t pad = 0) {
  GaugeFieldParams q;
  q.geometry = kGeom;
  q.precision = p;
  q.reconstruct = r;
  q.order = o;
  q.pad = pad;
  return q;
}

double max_link_diff(const GaugeField& a, const GaugeField& b) {
  double m = 0;
  for (std::int64_t s = 0; s < kGeom.volume(); ++s)
    for (int mu = 0; mu < 4; ++mu)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          const auto& x = a.link(s, mu).e[i][j];
          const auto& y = b.link(s, mu).e[i][j];
          m = std::fmax(m, std::fmax(std::fabs(x.re - y.re), std::fabs(x.im - y.im)));
        }
  return m;
}

double tolerance(Precision p, Reconstruct r) {
  if (p == Precision::double_) return r == Reconstruct::r18 ? 0.0 : 1e-14;
  if (p == Precision::single) return r == Reconstruct::r8 ? 1.5e-6 : 1e-6;
  return r == Reconstruct::r18 ? 2e-5 : r == Reconstruct::r12 ? 1e-4 : 5e-4;
}

const Precision kPrecisions[] = {Precision::double_, Precision::single, Precision::half};
const Reconstruct kRecons[] = {Reconstruct::r18, Reconstruct::r12, Reconstruct::r8};

SpinorField random_spinor(int nspin, SiteSubset subset, std::uint64_t seed) {
  SpinorFieldParams p;
  p.geometry = kGeom;
  p.nspin = nspin;
  p.subset = subset;
  SpinorField f(p);
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g;
  auto* d = static_cast<double*>(f.data());
  for (std::int64_t i = 0; i < f.layout().size(); ++i) d[i] = g(rng) * (1 + (i / (6 * nspin)) % 7);
  return f;
}

}  // namespace

TEST(FieldConvert, GaugeEveryFormRoundTripsToCanonical) {
  const GaugeField u = hot_field();
  for (Precision p : kPrecisions)
    for (Reconstruct r : kRecons)
      for (FieldOrder o : {FieldOrder::site_major, FieldOrder::blocked, FieldOrder::tiled}) {
        SCOPED_TRACE(params(p, r, o).describe());
        GaugeField x = converted(u, params(p, r, o, o == FieldOrder::blocked ? 3 : 0), kCpu);
        GaugeField back = GaugeField::canonical(kGeom);
        convert(x, back, kCpu);
        const double err = max_link_diff(u, back);
        EXPECT_LE(err, tolerance(p, r));
        if (p != Precision::double_) EXPECT_GT(err, 1e-9);  // really reduced precision
        // Through the other compressions of the same precision as well.
        if (o == FieldOrder::blocked)
        for (Reconstruct r2 : kRecons) {
          GaugeField y = converted(x, params(p, r2, FieldOrder::blocked), kCpu);
          GaugeField back2 = converted(y, params(Precision::double_, Reconstruct::r18, FieldOrder::site_major), kCpu);
          EXPECT_LE(max_link_diff(u, back2), 2.5 * std::max(tolerance(p, r), tolerance(p, r2)))
              << "via " << to_string(r2);
        }
      }
}

TEST(FieldConvert, DoubleSingleDoubleEqualsRoundingEachReal) {
  const GaugeField u = hot_field();
  for (Reconstruct r : {Reconstruct::r18, Reconstruct::r12}) {
    GaugeField d1 = converted(u, params(Precision::double_, r, FieldOrder::site_major), kCpu);
    GaugeField f = converted(d1, params(Precision::single, r, FieldOrder::blocked), kCpu);
    GaugeField d2 = converted(f, params(Precision::double_, r, FieldOrder::site_major), kCpu);
    const auto* a = static_cast<const double*>(d1.data());
    const auto* b = static_cast<const double*>(d2.data());
    for (std::int64_t i = 0; i < d1.layout().size(); ++i)
      ASSERT_EQ(b[i], static_cast<double>(static_cast<float>(a[i]))) << i;
  }
}

TEST(FieldConvert, SiteMajorBlockedRoundTripsAreBitExact) {
  const GaugeField u = hot_field();
  for (Precision p : kPrecisions)
    for (Reconstruct r : kRecons) {
      GaugeField a = converted(u, params(p, r, FieldOrder::site_major), kCpu);
      GaugeField b = converted(a, params(p, r, FieldOrder::blocked, 5), kCpu);
      GaugeField c = converted(b, params(p, r, FieldOrder::site_major), kCpu);
      ASSERT_EQ(a.bytes(), c.bytes());
      EXPECT_EQ(std::memcmp(a.data(), c.data(), a.bytes()), 0) << params(p, r, FieldOrder::blocked).describe();
      // and the blocked field really is reordered
      GaugeField b0 = converted(a, params(p, r, FieldOrder::blocked), kCpu);
      EXPECT_NE(std::memcmp(a.data(), b0.data(), a.bytes()), 0);
      // the same through the tiled order, and from tiled to blocked directly
      GaugeField t = converted(a, params(p, r, FieldOrder::tiled), kCpu);
      EXPECT_NE(std::memcmp(a.data(), t.data(), a.bytes()), 0);
      GaugeField c2 = converted(converted(t, params(p, r, FieldOrder::blocked, 2), kCpu), params(p, r, FieldOrder::site_major), kCpu);
      EXPECT_EQ(std::memcmp(a.data(), c2.data(), a.bytes()), 0) << params(p, r, FieldOrder::tiled).describe();
    }
}

TEST(FieldConvert, UnitFieldIsExactInEveryForm) {
  GaugeField one = GaugeField::canonical(kGeom);
  set_unit(one, kCpu);
  for (Precision p : kPrecisions)
    for (Reconstruct r : kRecons) {
      GaugeField x = converted(one, params(p, r, FieldOrder::blocked), kCpu);
      GaugeField back = converted(x, params(Precision::double_, Reconstruct::r18, FieldOrder::site_major), kCpu);
      EXPECT_LE(max_link_diff(one, back), 1e-7) << params(p, r, FieldOrder::blocked).describe();
    }
}

TEST(FieldConvert, PinnedAndHostAreBothHostMemory) {
  const GaugeField u = hot_field();
  GaugeFieldParams p = params(Precision::single, Reconstruct::r12, FieldOrder::blocked);
  p.space = runtime::MemSpace::pinned;
  GaugeField x = converted(u, p, kCpu);
  GaugeField back = GaugeField::canonical(kGeom);
  convert(x, back, kCpu);
  EXPECT_LE(max_link_diff(u, back), 1e-6);
}

TEST(FieldConvert, SpinorsInEveryPrecisionAndOrder) {
  for (int nspin : {4, 1})
    for (SiteSubset sub : {SiteSubset::full, SiteSubset::even, SiteSubset::odd}) {
      const SpinorField src = random_spinor(nspin, sub, 10 + nspin);
      const std::int64_t n = src.params().sites();
      const int nr = 6 * nspin;
      const auto* x = static_cast<const double*>(src.data());
      for (Precision p : kPrecisions)
        for (FieldOrder o : {FieldOrder::site_major, FieldOrder::blocked, FieldOrder::tiled}) {
          SpinorFieldParams q = src.params();
          q.precision = p;
          q.order = o;
          q.pad = o == FieldOrder::blocked ? 2 : 0;
          SCOPED_TRACE(q.describe());
          SpinorField y = converted(src, q, kCpu);
          SpinorField back = converted(y, src.params(), kCpu);
          const auto* z = static_cast<const double*>(back.data());
          double worst = 0;
          for (std::int64_t s = 0; s < n; ++s) {
            double mx = 0;
            for (int r = 0; r < nr; ++r) mx = std::fmax(mx, std::fabs(x[s * nr + r]));
            if (p == Precision::half) EXPECT_EQ(y.norms()[s], static_cast<float>(mx));
            for (int r = 0; r < nr; ++r)
              worst = std::fmax(worst, std::fabs(z[s * nr + r] - x[s * nr + r]) / mx);
          }
          if (p == Precision::double_) EXPECT_EQ(worst, 0.0);
          if (p == Precision::single) EXPECT_LE(worst, 1.2e-7);
          if (p == Precision::half) {
            EXPECT_LE(worst, 2e-5);  // half a step of 1/32767 of the site norm
            EXPECT_GT(worst, 1e-7);
          }
          // Order round trip in the same precision is bit-exact (norms included).
          SpinorFieldParams sm = q;
          sm.order = FieldOrder::site_major;
          sm.pad = 0;
          SpinorField a = converted(src, sm, kCpu);
          SpinorFieldParams bl = sm;
          bl.order = FieldOrder::blocked;
          bl.pad = 3;
          SpinorField c = converted(converted(a, bl, kCpu), sm, kCpu);
          const std::size_t bytes = static_cast<std::size_t>(a.layout().size()) * bytes_per_real(p);
          EXPECT_EQ(std::memcmp(a.data(), c.data(), bytes), 0);
          SpinorFieldParams ti = sm;
          ti.order = FieldOrder::tiled;
          SpinorField c3 = converted(converted(converted(a, ti, kCpu), bl, kCpu), sm, kCpu);
          EXPECT_EQ(std::memcmp(a.data(), c3.data(), bytes), 0);
          if (p == Precision::half)
            EXPECT_EQ(std::memcmp(a.norms(), c3.norms(), static_cast<std::size_t>(n) * sizeof(float)), 0);
          if (p == Precision::half)
            EXPECT_EQ(std::memcmp(a.norms(), c.norms(), static_cast<std::size_t>(n) * sizeof(float)), 0);
        }
    }
}

TEST(FieldConvert, SpinorAccessorHalfZeroSiteAndDispatch) {
  SpinorFieldParams p;
  p.geometry = kGeom;
  p.precision = Precision::half;
  p.order = FieldOrder::blocked;
  SpinorField f(p);
  auto acc = make_spinor_accessor<std::int16_t, 4>(f);
  acc.store(3, Spinor<double>{});
  EXPECT_EQ(f.norms()[3], 0.0f);
  const Spinor<float> z = acc.load(3);
  EXPECT_EQ(norm2(z), 0.0f);
  Spinor<double> v{};
  v.s[2].c[1] = complexd(-4.0, 1.0);
  acc.store(4, v);
  EXPECT_EQ(f.norms()[4], 4.0f);
  EXPECT_EQ(acc.load(4).s[2].c[1].re, -4.0f);
  // A NaN component cannot be an int16: the site's norm becomes NaN and the site reads back NaN.
  v.s[0].c[0] = complexd(std::nan(""), 0.0);
  acc.store(5, v);
  EXPECT_TRUE(std::isnan(f.norms()[5]));
  const Spinor<float> n = acc.load(5);
  EXPECT_TRUE(std::isnan(n.s[2].c[1].re));
  EXPECT_TRUE(std::isnan(n.s[0].c[0].re));
  const int spins = dispatch_spinor(f, [](auto a) { return decltype(a)::spins * 10 + int(sizeof(typename decltype(a)::store_type)); });
  EXPECT_EQ(spins, 42);
}

TEST(FieldConvert, ErrorsNameWhatIsWrong) {
  const GaugeField u = hot_field();
  GaugeFieldParams other = params(Precision::single, Reconstruct::r12, FieldOrder::blocked);
  other.geometry = Geometry({4, 4, 4, 8});
  GaugeField w(other);
  try {
    convert(u, w, kCpu);
    FAIL() << "no error for a geometry mismatch";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("4x4x4x6"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("4x4x4x8"), std::string::npos) << e.what();
  }
  GaugeField same = GaugeField::canonical(kGeom);
  EXPECT_THROW(convert(same, same, kCpu), InputError);

  const SpinorField d = random_spinor(4, SiteSubset::full, 1);
  SpinorFieldParams q = d.params();
  q.nspin = 1;
  SpinorField st(q);
  EXPECT_THROW(convert(d, st, kCpu), InputError);
  q = d.params();
  q.subset = SiteSubset::even;
  SpinorField ev(q);
  EXPECT_THROW(convert(d, ev, kCpu), InputError);
  q = d.params();
  q.geometry = Geometry({4, 4, 4, 8});
  SpinorField big(q);
  EXPECT_THROW(convert(d, big, kCpu), InputError);
}

// load_chiral / store_chiral (the two-thread GPU Wilson kernel's half sites): spins 2h, 2h + 1 of
// the site as load/store see them, in every order and pad; a store of one half leaves the other.
template <class Store>
void check_chiral_halves(FieldOrder order, int pad) {
  SpinorFieldParams p;
  p.geometry = kGeom;
  p.subset = SiteSubset::odd;
  p.precision = std::is_same_v<Store, double> ? Precision::double_ : Precision::single;
  p.order = order;
  p.pad = pad;
  SpinorField f(p);
  auto acc = make_spinor_accessor<Store, 4>(f);
  using real = typename decltype(acc)::real;
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  const std::int64_t n = kGeom.half_volume();
  auto random_spinor = [&] {
    Spinor<double> v;
    for (auto& s : v.s)
      for (auto& c : s.c) c = complexd(dist(gen), dist(gen));
    return v;
  };
  for (std::int64_t s = 0; s < n; ++s) acc.store(s, random_spinor());
  for (std::int64_t s : {std::int64_t{0}, std::int64_t{5}, n - 1})
    for (int h = 0; h < 2; ++h) {
      const Spinor<real> all = acc.load(s);
      const ChiralHalf<real> half = acc.load_chiral(s, h);
      for (int sp = 0; sp < 2; ++sp)
        for (int c = 0; c < 3; ++c) {
          EXPECT_EQ(half.s[sp].c[c].re, all.s[2 * h + sp].c[c].re) << to_string(order) << " site " << s;
          EXPECT_EQ(half.s[sp].c[c].im, all.s[2 * h + sp].c[c].im) << to_string(order) << " site " << s;
        }
      const Spinor<double> w = random_spinor();
      acc.store_chiral(s, h, ChiralHalf<double>{{w.s[0], w.s[1]}});
      const Spinor<real> after = acc.load(s);
      for (int sp = 0; sp < 4; ++sp)
        for (int c = 0; c < 3; ++c) {
          const bool mine = sp / 2 == h;
          const Complex<real> want = mine ? Complex<real>(static_cast<real>(w.s[sp % 2].c[c].re),
                                                          static_cast<real>(w.s[sp % 2].c[c].im))
                                          : all.s[sp].c[c];
          EXPECT_EQ(after.s[sp].c[c].re, want.re) << to_string(order) << " site " << s << " half " << h;
          EXPECT_EQ(after.s[sp].c[c].im, want.im) << to_string(order) << " site " << s << " half " << h;
        }
    }
}

TEST(FieldConvert, SpinorAccessorChiralHalvesAreTheSpinPairs) {
  for (FieldOrder order : {FieldOrder::site_major, FieldOrder::blocked, FieldOrder::tiled}) {
    check_chiral_halves<double>(order, order == FieldOrder::blocked ? 3 : 0);
    check_chiral_halves<float>(order, order == FieldOrder::blocked ? 3 : 0);
  }
}
