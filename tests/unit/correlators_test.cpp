// Sources, meson contractions (against a dense 12x12 evaluation) and propagator files.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "gluon/io/byte_order.h"
#include "gluon/io/lime.h"
#include "gluon/io/propagator_io.h"
#include "gluon/qcd/correlators.h"
#include "gluon/qcd/gamma.h"
#include "gluon/qcd/random_fields.h"
#include "gluon/qcd/sources.h"
#include "gluon/runtime/error.h"
#include "test_support.h"

using namespace gluon;
using namespace gluon::qcd;

namespace {

std::vector<SpinorField> random_columns(const Geometry& g, int nspin, std::uint64_t seed) {
  std::vector<SpinorField> cols;
  SpinorFieldParams p;
  p.geometry = g;
  p.nspin = nspin;
  for (int b = 0; b < source_columns(nspin); ++b) {
    cols.emplace_back(p);
    fill_gaussian(cols.back(), seed, static_cast<std::uint32_t>(b), runtime::cpu_exec());
  }
  return cols;
}

using C = Complex<double>;
using M12 = std::array<std::array<C, 12>, 12>;

M12 mul(const M12& a, const M12& b) {
  M12 c{};
  for (int i = 0; i < 12; ++i)
    for (int k = 0; k < 12; ++k)
      for (int j = 0; j < 12; ++j) c[i][j] += a[i][k] * b[k][j];
  return c;
}
M12 dagger(const M12& a) {
  M12 c{};
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j) c[i][j] = conj(a[j][i]);
  return c;
}
M12 spin_matrix(const Matrix4& g) {  // g (x) 1_colour
  M12 m{};
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b)
      for (int c = 0; c < 3; ++c) m[a * 3 + c][b * 3 + c] = g.e[a][b];
  return m;
}

}  // namespace

TEST(Sources, PointSourceIsOneAtItsSpinColourAndSite) {
  const Geometry g({4, 4, 4, 8});
  SourceSpec spec;
  spec.position = {1, 2, 3, 5};
  for (int col : {0, 4, 11}) {
    const SpinorField f = make_source(spec, g, 4, col);
    double total = 0;
    for (std::int64_t s = 0; s < g.volume(); ++s) total += norm2(f.site(s));
    EXPECT_EQ(total, 1.0);
    const Spinor<double>& v = f.site(g.eo_index({1, 2, 3, 5}));
    EXPECT_EQ(v.s[col / 3].c[col % 3].re, 1.0);
  }
  spec.position = {1, 2, 3, 8};
  EXPECT_THROW(make_source(spec, g, 4, 0), InputError);
  spec.position = {0, 0, 0, 0};
  EXPECT_THROW(make_source(spec, g, 4, 12), InputError);
  EXPECT_THROW(parse_source_type("gaussian"), InputError);
}

TEST(Sources, Z2WallIsUnitModulusNoiseOnOneTimesliceSharedByAllColumns) {
  const Geometry g({4, 4, 4, 8});
  SourceSpec spec;
  spec.type = SourceType::z2_wall;
  spec.position = {0, 0, 0, 3};
  spec.seed = 99;
  const SpinorField a = make_source(spec, g, 4, 0), b = make_source(spec, g, 4, 7);
  int nonzero = 0, plus = 0;
  for (std::int64_t s = 0; s < g.volume(); ++s) {
    const int t = g.coords(s)[3];
    const C za = a.site(s).s[0].c[0], zb = b.site(s).s[2].c[1];
    if (t != 3) {
      EXPECT_EQ(norm2(a.site(s)), 0.0);
      continue;
    }
    EXPECT_NEAR(norm2(za), 1.0, 1e-15);
    EXPECT_EQ(za, zb);  // the same noise in every column
    EXPECT_NEAR(norm2(a.site(s)), 1.0, 1e-15);
    ++nonzero;
    plus += za.re > 0;
  }
  EXPECT_EQ(nonzero, 64);
  EXPECT_GT(plus, 16);
  EXPECT_LT(plus, 48);
  spec.seed = 100;
  const SpinorField c = make_source(spec, g, 4, 0);
  bool differs = false;
  for (std::int64_t s = 0; s < g.volume(); ++s) differs |= !(c.site(s).s[0].c[0] == a.site(s).s[0].c[0]);
  EXPECT_TRUE(differs);
}

TEST(Correlators, PionAndRhoEqualADense12x12Evaluation) {
  const Geometry g({2, 2, 2, 6});
  const auto cols = random_columns(g, 4, 5);
  const int t0 = 2;
  const Correlators c = meson_correlators(cols, t0);
  ASSERT_EQ(c.pion.size(), 6u);
  ASSERT_EQ(c.rho.size(), 6u);
  std::vector<double> pion(6, 0.0), rho(6, 0.0);
  const M12 g5 = spin_matrix(gamma_matrix(kGamma5));
  for (std::int64_t s = 0; s < g.volume(); ++s) {
    M12 S{};
    for (int b = 0; b < 12; ++b)
      for (int a = 0; a < 12; ++a) S[a][b] = cols[b].site(s).s[a / 3].c[a % 3];
    const int tp = ((g.coords(s)[3] - t0) % 6 + 6) % 6;
    const M12 back = mul(mul(g5, dagger(S)), g5);  // S(0, x) by g5-hermiticity
    // pion: source and sink g5, Gbar = -g5: -tr[g5 S (-g5) back]
    const M12 p = mul(mul(mul(g5, S), g5), back);
    for (int i = 0; i < 12; ++i) pion[tp] += p[i][i].re;
    for (int k = 0; k < 3; ++k) {
      const M12 gk = spin_matrix(gamma_matrix(k));
      const M12 r = mul(mul(mul(gk, S), gk), back);  // -tr[G S Gbar back], Gbar = -g_k
      for (int i = 0; i < 12; ++i) rho[tp] += r[i][i].re / 3.0;
    }
  }
  for (int t = 0; t < 6; ++t) {
    EXPECT_NEAR(c.pion[t], pion[t], 1e-12 * std::abs(pion[t])) << t;
    EXPECT_NEAR(c.rho[t], rho[t], 1e-12 * (std::abs(pion[t]))) << t;
    EXPECT_GT(c.pion[t], 0.0);
  }
}

TEST(Correlators, StaggeredPionSumsSquaredColourEntries) {
  const Geometry g({2, 2, 2, 4});
  const auto cols = random_columns(g, 1, 8);
  const Correlators c = meson_correlators(cols, 1);
  EXPECT_TRUE(c.rho.empty());
  std::vector<double> want(4, 0.0);
  for (std::int64_t s = 0; s < g.volume(); ++s)
    for (const auto& col : cols)
      for (int a = 0; a < 3; ++a) want[((g.coords(s)[3] - 1) % 4 + 4) % 4] += norm2(col.color_vector(s).c[a]);
  for (int t = 0; t < 4; ++t) EXPECT_NEAR(c.pion[t], want[t], 1e-12 * want[t]);
  auto too_few = random_columns(g, 1, 9);
  too_few.pop_back();
  EXPECT_THROW(meson_correlators(too_few, 0), InputError);
}

// The binary record byte for byte as docs/file-formats.md describes it, read here without
// read_propagator: sites in global lexicographic order (x fastest), per site
// [spin_sink][spin_source][colour_sink][colour_source] complex (Dirac) or
// [colour_sink][colour_source] (staggered), big-endian doubles, (re, im). Every entry carries its
// own coordinates, so a swapped index shows.
TEST(PropagatorFile, BinaryRecordHasTheDocumentedLayout) {
  const std::string dir = gluon::test::scratch_dir();
  const Geometry g({2, 4, 2, 4});
  for (int nspin : {4, 1}) {
    SCOPED_TRACE(nspin);
    SpinorFieldParams p;
    p.geometry = g;
    p.nspin = nspin;
    const int ncol = source_columns(nspin);
    const auto value = [](std::int64_t lex, int spin, int colour, int column) {
      return static_cast<double>(lex * 1000 + (spin * 3 + colour) * 20 + column);
    };
    std::vector<SpinorField> cols;
    for (int b = 0; b < ncol; ++b) {
      cols.emplace_back(p);
      auto* v = static_cast<double*>(cols.back().data());
      for (std::int64_t s = 0; s < g.volume(); ++s) {
        const std::int64_t lex = g.global_lex(g.local_to_global(g.coords(s)));
        for (int a = 0; a < nspin; ++a)
          for (int c = 0; c < 3; ++c) {
            v[s * 6 * nspin + (a * 3 + c) * 2] = value(lex, a, c, b);
            v[s * 6 * nspin + (a * 3 + c) * 2 + 1] = -value(lex, a, c, b) - 0.5;
          }
      }
    }
    const std::string path = dir + "/layout" + std::to_string(nspin) + ".lime";
    io::write_propagator(path, cols, "<gluon/>", 64);
    std::string bytes;
    {
      std::ifstream in(path, std::ios::binary);
      bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    const auto records = io::lime_list(bytes, path);
    const io::LimeRecord* data = io::lime_find(records, "scidac-binary-data");
    ASSERT_NE(data, nullptr);
    const int per_site = nspin == 4 ? 144 : 9;  // complexes a site
    ASSERT_EQ(data->length, static_cast<std::uint64_t>(g.volume() * per_site * 16));
    const auto* base = reinterpret_cast<const unsigned char*>(bytes.data()) + data->data_offset;
    auto real_at = [&](std::int64_t offset) {
      const std::uint64_t w = io::load_be64(base + offset);
      double d;
      std::memcpy(&d, &w, 8);
      return d;
    };
    int mismatches = 0;
    for (std::int64_t lex = 0; lex < g.volume(); ++lex)
      for (int a = 0; a < nspin; ++a)
        for (int sb = 0; sb < nspin; ++sb)
          for (int c = 0; c < 3; ++c)
            for (int cb = 0; cb < 3; ++cb) {
              const int slot = nspin == 4 ? ((a * 4 + sb) * 3 + c) * 3 + cb : c * 3 + cb;
              const std::int64_t at = (lex * per_site + slot) * 16;
              const double want = value(lex, a, c, sb * 3 + cb);
              if (real_at(at) != want || real_at(at + 8) != -want - 0.5) ++mismatches;
            }
    EXPECT_EQ(mismatches, 0);
  }
}

TEST(PropagatorFile, RoundTripsBitExactAndRejectsDamage) {
  const std::string dir = gluon::test::scratch_dir();
  const Geometry g({2, 2, 4, 4});
  for (int nspin : {4, 1}) {
    const auto cols = random_columns(g, nspin, 3);
    const std::string path = dir + "/prop" + std::to_string(nspin) + ".lime";
    io::write_propagator(path, cols, "<gluon><test>1</test></gluon>", 64);
    io::PropagatorFileInfo info;
    const auto back = io::read_propagator(path, &info);
    EXPECT_EQ(info.datatype, nspin == 4 ? "QDP_D3_DiracPropagator" : "QDP_D3_ColorMatrix");
    ASSERT_EQ(back.size(), cols.size());
    for (std::size_t b = 0; b < cols.size(); ++b)
      EXPECT_EQ(std::memcmp(back[b].data(), cols[b].data(), static_cast<std::size_t>(g.volume()) * 6 * nspin * 8), 0);
    // 32-bit: equal to the float-rounded values
    io::write_propagator(path + ".f", cols, "<gluon/>", 32);
    const auto f = io::read_propagator(path + ".f");
    const double* a = static_cast<const double*>(cols[1].data());
    const double* r = static_cast<const double*>(f[1].data());
    for (std::int64_t i = 0; i < g.volume() * 6 * nspin; ++i) EXPECT_EQ(r[i], static_cast<double>(static_cast<float>(a[i])));
  }
  // A flipped byte in the binary data: checksum error naming the record.
  std::string bytes;
  {
    std::ifstream in(dir + "/prop4.lime", std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  bytes[bytes.size() / 2] ^= 0x10;
  std::ofstream(dir + "/bad.lime", std::ios::binary) << bytes;
  try {
    io::read_propagator(dir + "/bad.lime");
    ADD_FAILURE() << "no error for a damaged file";
  } catch (const FileFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("scidac-checksum"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("bad.lime"), std::string::npos) << e.what();
  }
  EXPECT_THROW(io::read_propagator(dir + "/missing.lime"), IoError);

  // Header values the data must agree with (same-length edits: the XML is not checksummed).
  std::string good;
  {
    std::ifstream in(dir + "/prop4.lime", std::ios::binary);
    good.assign(std::istreambuf_iterator<char>(in), {});
  }
  struct Edit {
    std::string from, to, field;
  };
  for (const Edit& e : {Edit{"<dims>2 2 4 4 ", "<dims>2 2 4 5 ", "<dims> entry 4"},
                        Edit{"<dims>2 2 4 4 ", "<dims>2 2 4 4x", "<dims>"},
                        Edit{"<dims>2 2 4 4 ", "<dims>2 2 4 0 ", "<dims> entry 4"},
                        Edit{"<typesize>2304<", "<typesize>2305<", "<typesize>"},
                        Edit{"<spins>4<", "<spins>1<", "<spins>"},
                        Edit{"<colors>3<", "<colors>2<", "<colors>"},
                        Edit{"<datacount>1<", "<datacount>7<", "<datacount>"}}) {
    SCOPED_TRACE(e.to);
    std::string b = good;
    const auto at = b.find(e.from);
    ASSERT_NE(at, std::string::npos);
    b.replace(at, e.from.size(), e.to);
    std::ofstream(dir + "/edit.lime", std::ios::binary) << b;
    try {
      io::read_propagator(dir + "/edit.lime");
      ADD_FAILURE() << "accepted";
    } catch (const FileFormatError& err) {
      EXPECT_NE(std::string(err.what()).find(e.field), std::string::npos) << err.what();
      EXPECT_NE(std::string(err.what()).find("edit.lime"), std::string::npos) << err.what();
    }
  }
}
