// Precisions: to_half/from_half rounding and saturation, parse/to_string of precision and
// reconstruct (with the error paths), RealCodec scales, and half-precision gauge accessors
// (r18/r12/r8) within ~1e-4 on Haar-random links.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "gluon/qcd/gauge_accessor.h"
#include "gluon/qcd/gauge_field.h"
#include "gluon/runtime/error.h"

using namespace gluon;
using namespace gluon::qcd;

namespace {
SU3d random_su3(std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  SU3d a;
  for (auto& row : a.e)
    for (auto& z : row) z = complexd(g(rng), g(rng));
  return reunitarize(a);
}
double max_diff(const Matrix3<float>& a, const SU3d& b) {
  double m = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      m = std::fmax(m, std::fmax(std::fabs(a.e[i][j].re - b.e[i][j].re), std::fabs(a.e[i][j].im - b.e[i][j].im)));
  return m;
}
}  // namespace

TEST(Precision, HalfRoundsToNearestStepAndSaturates) {
  EXPECT_EQ(to_half(1.0f, 1.0f), 32767);
  EXPECT_EQ(to_half(-1.0f, 1.0f), -32767);
  EXPECT_EQ(to_half(2.0f, 1.0f), 32767);
  EXPECT_EQ(to_half(-7.0f, 1.0f), -32767);
  EXPECT_EQ(to_half(0.5f, 0.5f), 8192);  // 0.25 * 32767 = 8191.75
  EXPECT_EQ(to_half(0.0f, 1.0f), 0);
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<float> u(-3.0f, 3.0f);
  for (int i = 0; i < 10000; ++i) {
    const float x = u(rng);
    EXPECT_LE(std::fabs(from_half(to_half(x, 1.0f / 3.0f), 3.0f) - x), 0.5f * 3.0f / 32767.0f * 1.01f);
  }
}

TEST(Precision, ParseAndPrint) {
  EXPECT_EQ(parse_precision("double"), Precision::double_);
  EXPECT_EQ(parse_precision("fp32"), Precision::single);
  EXPECT_EQ(parse_precision("half"), Precision::half);
  EXPECT_EQ(to_string(Precision::single), "single");
  EXPECT_EQ(parse_reconstruct("r8"), Reconstruct::r8);
  EXPECT_EQ(parse_reconstruct("12"), Reconstruct::r12);
  EXPECT_EQ(to_string(Reconstruct::r18), "r18");
  EXPECT_THROW(parse_precision("quad"), InputError);
  try {
    parse_reconstruct("9");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'9'"), std::string::npos);
  }
  EXPECT_EQ(bytes_per_real(Precision::half), 2);
  EXPECT_EQ(stored_reals(Reconstruct::r8), 8);
}

TEST(Precision, RealCodecScales) {
  EXPECT_EQ(RealCodec<std::int16_t>::encode(0.5, 2.0f), to_half(0.25f, 1.0f));
  EXPECT_FLOAT_EQ(RealCodec<std::int16_t>::decode(32767, 11.0f), 11.0f);
  EXPECT_EQ(RealCodec<float>::encode(0.1, 7.0f), 0.1f);
  EXPECT_EQ(RealCodec<double>::decode(0.1, 7.0f), 0.1);
}

template <Reconstruct R>
double half_error(const std::vector<SU3d>& links, std::vector<std::int16_t>& buf) {
  FieldLayout l = make_layout(FieldOrder::site_major, static_cast<std::int64_t>(links.size()), 0, 1,
                              stored_reals(R), 2);
  buf.assign(static_cast<std::size_t>(l.size()), 0);
  GaugeAccessor<std::int16_t, R> a{buf.data(), l};
  double worst = 0;
  for (std::size_t s = 0; s < links.size(); ++s) {
    a.store(static_cast<std::int64_t>(s), 0, Matrix3<float>::from(links[s]));
    worst = std::fmax(worst, max_diff(a.load(static_cast<std::int64_t>(s), 0), links[s]));
  }
  return worst;
}

TEST(Precision, HalfGaugeAccessorsWithinTolerance) {
  std::mt19937_64 rng(2);
  std::vector<SU3d> links;
  for (int i = 0; i < 5000; ++i) links.push_back(random_su3(rng));
  links.push_back(SU3d::identity());
  std::vector<std::int16_t> buf;
  const double e18 = half_error<Reconstruct::r18>(links, buf);
  const double e12 = half_error<Reconstruct::r12>(links, buf);
  const double e8 = half_error<Reconstruct::r8>(links, buf);
  EXPECT_LT(e18, 2e-5);
  EXPECT_LT(e12, 1e-4);
  EXPECT_LT(e8, 5e-4);
  EXPECT_GT(e8, 1e-6);  // really half
  // The unit link is exact in half r8 (degenerate encoding).
  std::vector<SU3d> one{SU3d::identity()};
  EXPECT_LT(half_error<Reconstruct::r8>(one, buf), 1e-7);
}

// The stencils' links: load_link_unscaled, times unscaled_factor and with_link_sign, acts as
// load_link's link, in U h and in U^+ h (half r18/r12: the raw integers; r8 in half and single:
// the pivoted link without its sign).
template <class Store, Reconstruct R>
void check_unscaled_links() {
  std::mt19937_64 rng(3);
  const int n = 64;
  FieldLayout l = make_layout(FieldOrder::site_major, n, 0, 1, stored_reals(R), sizeof(Store));
  std::vector<Store> buf(static_cast<std::size_t>(l.size()), 0);
  GaugeAccessor<Store, R> acc{buf.data(), l};
  int negative = 0;
  for (int s = 0; s < n; ++s) {
    acc.store(s, 0, Matrix3<float>::from(random_su3(rng)));
    const auto raw = acc.load_link_unscaled(s, 0);
    const auto ref = acc.load_link(s, 0);
    const float sc = with_link_sign(raw, GaugeAccessor<Store, R>::unscaled_factor);
    negative += sc < 0;
    ColorVector<float> e{};
    for (int c = 0; c < 3; ++c) e.c[c] = Complex<float>(1.0f - 0.3f * c, 0.5f + 0.2f * c);
    const ColorVector<float> a = raw * e, b = ref * e, aa = adj_mul(raw, e), bb = adj_mul(ref, e);
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(sc * a.c[k].re, b.c[k].re, 1e-6) << to_string(R) << " link " << s;
      EXPECT_NEAR(sc * a.c[k].im, b.c[k].im, 1e-6) << to_string(R) << " link " << s;
      EXPECT_NEAR(sc * aa.c[k].re, bb.c[k].re, 1e-6) << to_string(R) << " link " << s;
      EXPECT_NEAR(sc * aa.c[k].im, bb.c[k].im, 1e-6) << to_string(R) << " link " << s;
    }
    // adjoint_if(raw, adj) * e: the two-thread Wilson kernel's transport (r8: DirectedPivotedLink),
    // built where that kernel is, in double and single storage.
    if constexpr (!is_half_store<Store>) {
      const ColorVector<float> d = adjoint_if(raw, false) * e, da = adjoint_if(raw, true) * e;
      EXPECT_EQ(with_link_sign(adjoint_if(raw, true), 1.0f), with_link_sign(raw, 1.0f)) << to_string(R) << " link " << s;
      for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(sc * d.c[k].re, b.c[k].re, 1e-6) << to_string(R) << " link " << s << " adjoint_if(false)";
        EXPECT_NEAR(sc * d.c[k].im, b.c[k].im, 1e-6) << to_string(R) << " link " << s << " adjoint_if(false)";
        EXPECT_NEAR(sc * da.c[k].re, bb.c[k].re, 1e-6) << to_string(R) << " link " << s << " adjoint_if(true)";
        EXPECT_NEAR(sc * da.c[k].im, bb.c[k].im, 1e-6) << to_string(R) << " link " << s << " adjoint_if(true)";
      }
    }
  }
  if (R == Reconstruct::r8) EXPECT_GT(negative, 0) << "no link took the sign path";
}

TEST(Precision, UnscaledLinksMatchDecodedLinks) {
  check_unscaled_links<std::int16_t, Reconstruct::r18>();
  check_unscaled_links<std::int16_t, Reconstruct::r12>();
  check_unscaled_links<std::int16_t, Reconstruct::r8>();
  check_unscaled_links<float, Reconstruct::r8>();
  check_unscaled_links<float, Reconstruct::r12>();
}
