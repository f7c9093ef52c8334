// Gauge files: every file other codes wrote loads with its documented plaquette and passes its
// checksums; write -> read round trips are bit-exact in every format, precision and byte order;
// every damaged input gives a FileFormatError naming the field and both values; writes are atomic.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "gluon/io/atomic_file.h"
#include "gluon/io/gauge_io.h"
#include "gluon/io/lime.h"
#include "gluon/qcd/observables.h"
#include "gluon/runtime/error.h"
#include "test_support.h"

using namespace gluon;
using namespace gluon::io;
using gluon::qcd::GaugeField;

namespace {

const runtime::Exec cpu = runtime::cpu_exec();

// A random SU(3) matrix per link (Gaussian entries, re-unitarised).
GaugeField random_field(const qcd::Coords& dims, unsigned seed) {
  GaugeField u = GaugeField::canonical(qcd::Geometry(dims));
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> n;
  for (std::int64_t s = 0; s < u.geometry().volume(); ++s)
    for (int mu = 0; mu < 4; ++mu) {
      qcd::SU3d m;
      for (auto& row : m.e)
        for (auto& c : row) c = {n(rng), n(rng)};
      u.link(s, mu) = qcd::reunitarize(m);
    }
  return u;
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Runs f, expects a FileFormatError whose message contains every one of `parts`.
template <class F>
void expect_format_error(F&& f, std::initializer_list<std::string> parts) {
  try {
    f();
    ADD_FAILURE() << "no FileFormatError thrown";
  } catch (const FileFormatError& e) {
    for (const auto& p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
  }
}

// Bitwise equality of all links.
bool same_links(const GaugeField& a, const GaugeField& b) {
  if (a.geometry().global_dims() != b.geometry().global_dims()) return false;
  return std::memcmp(a.data(), b.data(), a.bytes()) == 0;
}

GaugeField float_rounded(const GaugeField& u) {
  GaugeField r = GaugeField::canonical(u.geometry());
  for (std::int64_t s = 0; s < u.geometry().volume(); ++s)
    for (int mu = 0; mu < 4; ++mu) r.link(s, mu) = qcd::SU3d::from(qcd::SU3f::from(u.link(s, mu)));
  return r;
}

std::string replace_once(std::string s, const std::string& from, const std::string& to) {
  const auto p = s.find(from);
  EXPECT_NE(p, std::string::npos) << from;
  if (p != std::string::npos) s.replace(p, from.size(), to);
  return s;
}

std::size_t nersc_data_offset(const std::string& bytes) {
  return bytes.find("END_HEADER\n") + 11;
}

}  // namespace

struct SampleFile {
  const char* name;
  GaugeFormat format;
  qcd::Coords dims;
  int bits;
  double plaquette;
  const char* check;  // a substring of checks_passed
};

class IoSampleFiles : public ::testing::TestWithParam<SampleFile> {};

TEST_P(IoSampleFiles, LoadWithTheDocumentedPlaquetteAndPassTheirChecksums) {
  const SampleFile& f = GetParam();
  const std::string path = test::gauge_file(f.name);
  EXPECT_EQ(detect_gauge_format(path), f.format);
  GaugeFileInfo info;
  const GaugeField u = read_gauge(path, {}, &info);
  EXPECT_EQ(info.format, f.format);
  EXPECT_EQ(info.dims, f.dims);
  EXPECT_EQ(info.precision_bits, f.bits);
  EXPECT_NEAR(qcd::plaquette(u, cpu).total, f.plaquette, 1e-6);
  bool found = false;
  for (const auto& c : info.checks_passed) found |= c.find(f.check) != std::string::npos;
  EXPECT_TRUE(found) << "no check '" << f.check << "' in " << ::testing::PrintToString(info.checks_passed);
  EXPECT_LT(info.max_unitarity_deviation, f.bits == 32 ? 1e-5 : 1e-12);
  EXPECT_FALSE(info.reunitarized);
}

INSTANTIATE_TEST_SUITE_P(
    TestData, IoSampleFiles,
    ::testing::Values(
        SampleFile{"lat.sample.l4444", GaugeFormat::milc, {4, 4, 4, 4}, 32, 0.5948502, "sum29 0x"},
        SampleFile{"lat.sample.l4444.ildg", GaugeFormat::ildg, {4, 4, 4, 4}, 32, 0.5948502, "suma 0x37affb9c"},
        SampleFile{"lat.sample.l4444.scidac", GaugeFormat::scidac, {4, 4, 4, 4}, 32, 0.5948502, "sumb 0x2fc07bbf"},
        SampleFile{"lat.sample.l4448", GaugeFormat::milc, {4, 4, 4, 8}, 32, 0.5690557, "sum31 0x"},
        SampleFile{"lat.sample.l8888", GaugeFormat::milc, {8, 8, 8, 8}, 32, 0.5935602, "sum29 0x4f9d000e"},
        SampleFile{"lat.sample.l8888.nersc", GaugeFormat::nersc, {8, 8, 8, 8}, 32, 0.5935602, "CHECKSUM 0x4a3bacff"},
        SampleFile{"t_nersc.cfg", GaugeFormat::nersc, {4, 4, 4, 4}, 32, 0.0382423, "CHECKSUM 0x717938df"},
        SampleFile{"weak_field.lime", GaugeFormat::ildg, {4, 4, 4, 8}, 64, 0.9948041, "suma 0xa2c41090"}),
    [](const auto& info) {
      std::string n = info.param.name;
      for (char& c : n)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      return n;
    });

TEST(IoGauge, NerscHeaderPlaquetteAndLinkTraceAreVerified) {
  GaugeFileInfo info;
  read_gauge(test::gauge_file("t_nersc.cfg"), {}, &info);
  ASSERT_TRUE(info.header_plaquette && info.header_link_trace);
  EXPECT_DOUBLE_EQ(*info.header_plaquette, 0.0382422893);
  EXPECT_DOUBLE_EQ(*info.header_link_trace, 0.4630322094);
  EXPECT_EQ(info.checks_passed.size(), 3u);
  EXPECT_EQ(info.format_detail, "NERSC 4D_SU3_GAUGE IEEE32BIG");
  read_gauge(test::gauge_file("lat.sample.l8888.nersc"), {}, &info);
  EXPECT_NE(info.format_detail.find("FLOATING_POINT absent"), std::string::npos);
  EXPECT_EQ(info.checks_passed.size(), 3u);
}

TEST(IoGauge, TheSameConfigurationInMilcIldgAndScidacGivesIdenticalLinks) {
  const GaugeField a = read_gauge(test::gauge_file("lat.sample.l4444"));
  const GaugeField b = read_gauge(test::gauge_file("lat.sample.l4444.ildg"));
  const GaugeField c = read_gauge(test::gauge_file("lat.sample.l4444.scidac"));
  EXPECT_TRUE(same_links(a, b));
  EXPECT_TRUE(same_links(a, c));
  // MILC's NERSC file of l8888 stores two rows of the same links.
  const GaugeField m = read_gauge(test::gauge_file("lat.sample.l8888"));
  const GaugeField n = read_gauge(test::gauge_file("lat.sample.l8888.nersc"));
  double worst_rows01 = 0, worst_row2 = 0;
  for (std::int64_t s = 0; s < m.geometry().volume(); ++s)
    for (int mu = 0; mu < 4; ++mu)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          const double d = qcd::abs(m.link(s, mu).e[i][j] - n.link(s, mu).e[i][j]);
          (i < 2 ? worst_rows01 : worst_row2) = std::max(i < 2 ? worst_rows01 : worst_row2, d);
        }
  // MILC re-unitarises on reading, before it wrote the NERSC file: equal to float precision.
  EXPECT_LT(worst_rows01, 1e-6);
  EXPECT_LT(worst_row2, 1e-6);
  EXPECT_GT(worst_rows01 + worst_row2, 0.0);
}

TEST(IoGauge, ReunitarisationIsOptionalAndReported) {
  GaugeFileInfo info;
  GaugeReadOptions ro;
  ro.reunitarize = true;
  const GaugeField u = read_gauge(test::gauge_file("lat.sample.l4444"), ro, &info);
  EXPECT_TRUE(info.reunitarized);
  EXPECT_GT(info.max_unitarity_deviation, 1e-9);  // float links
  EXPECT_LT(qcd::max_unitarity_deviation(u, cpu), 1e-14);
  EXPECT_NEAR(qcd::plaquette(u, cpu).total, 0.5948502, 1e-6);
}

struct RoundTrip {
  GaugeFormat format;
  int bits;
  bool two_rows;
  bool big;
};

class IoRoundTrip : public ::testing::TestWithParam<RoundTrip> {};

TEST_P(IoRoundTrip, WriteThenReadIsBitExact) {
  const RoundTrip& p = GetParam();
  const GaugeField u = random_field({4, 2, 4, 6}, 1234);
  const std::string dir = test::scratch_dir();
  const std::string path = dir + "/cfg";
  GaugeWriteOptions wo;
  wo.format = p.format;
  wo.precision_bits = p.bits;
  wo.nersc_two_rows = p.two_rows;
  wo.big_endian = p.big;
  write_gauge(path, u, wo);
  EXPECT_EQ(detect_gauge_format(path), p.format);
  GaugeFileInfo info;
  const GaugeField v = read_gauge(path, {}, &info);
  EXPECT_EQ(info.precision_bits, p.bits);
  EXPECT_EQ(info.dims, (qcd::Coords{4, 2, 4, 6}));
  if (p.format == GaugeFormat::nersc || p.format == GaugeFormat::milc) EXPECT_EQ(info.big_endian, p.big);
  EXPECT_GE(info.checks_passed.size(), 1u);
  const GaugeField want = p.bits == 32 ? float_rounded(u) : GaugeField::canonical(u.geometry());
  const GaugeField& ref = p.bits == 32 ? want : u;
  if (!p.two_rows) {
    EXPECT_TRUE(same_links(v, ref));
  } else {
    double worst = 0;
    for (std::int64_t s = 0; s < u.geometry().volume(); ++s)
      for (int mu = 0; mu < 4; ++mu) {
        EXPECT_EQ(std::memcmp(&v.link(s, mu).e[0][0], &ref.link(s, mu).e[0][0], 6 * sizeof(qcd::complexd)), 0);
        for (int j = 0; j < 3; ++j)
          worst = std::max(worst, qcd::abs(v.link(s, mu).e[2][j] - ref.link(s, mu).e[2][j]));
      }
    EXPECT_LT(worst, p.bits == 32 ? 1e-6 : 1e-14);
  }
  // Nothing but the file is left in the directory (no temporaries).
  int files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir))
    ++files;
  EXPECT_EQ(files, 1);
}

INSTANTIATE_TEST_SUITE_P(
    Formats, IoRoundTrip,
    ::testing::Values(RoundTrip{GaugeFormat::nersc, 64, false, true}, RoundTrip{GaugeFormat::nersc, 64, false, false},
                      RoundTrip{GaugeFormat::nersc, 32, false, true}, RoundTrip{GaugeFormat::nersc, 32, false, false},
                      RoundTrip{GaugeFormat::nersc, 64, true, true}, RoundTrip{GaugeFormat::nersc, 32, true, false},
                      RoundTrip{GaugeFormat::ildg, 64, false, true}, RoundTrip{GaugeFormat::ildg, 32, false, true},
                      RoundTrip{GaugeFormat::scidac, 64, false, true}, RoundTrip{GaugeFormat::scidac, 32, false, true},
                      RoundTrip{GaugeFormat::milc, 32, false, true}, RoundTrip{GaugeFormat::milc, 32, false, false}),
    [](const auto& info) {
      const RoundTrip& p = info.param;
      return to_string(p.format) + std::to_string(p.bits) + (p.two_rows ? "TwoRows" : "") +
             (p.big ? "Big" : "Little");
    });

TEST(IoGauge, ConversionsBetweenFormatsKeepTheLinks) {
  const std::string dir = test::scratch_dir();
  const GaugeField u = random_field({2, 4, 2, 4}, 99);
  GaugeWriteOptions wo;
  wo.format = GaugeFormat::nersc;
  wo.big_endian = false;
  write_gauge(dir + "/a.nersc", u, wo);
  const GaugeField a = read_gauge(dir + "/a.nersc");
  wo.format = GaugeFormat::ildg;
  write_gauge(dir + "/b.ildg", a, wo);
  const GaugeField b = read_gauge(dir + "/b.ildg");
  EXPECT_TRUE(same_links(u, b));
  // A real MILC file written as NERSC (2 rows, 32 bits) and as ILDG reads back identically.
  const GaugeField m = read_gauge(test::gauge_file("lat.sample.l4448"));
  wo.format = GaugeFormat::ildg;
  wo.precision_bits = 32;
  write_gauge(dir + "/m.ildg", m, wo);
  EXPECT_TRUE(same_links(m, read_gauge(dir + "/m.ildg")));
  wo.format = GaugeFormat::milc;
  write_gauge(dir + "/m.milc", m, wo);
  EXPECT_TRUE(same_links(m, read_gauge(dir + "/m.milc")));
  // The ILDG file we write has the record layout Chroma writes, and MILC's reader fields.
  const std::string bytes = read_file(dir + "/m.ildg");
  const auto recs = lime_list(bytes, "m.ildg");
  std::vector<std::string> types;
  for (const auto& r : recs) types.push_back(r.type);
  EXPECT_EQ(types, (std::vector<std::string>{"scidac-private-file-xml", "scidac-file-xml",
                                             "scidac-private-record-xml", "scidac-record-xml", "ildg-format",
                                             "ildg-binary-data", "scidac-checksum"}));
  EXPECT_EQ(xml_value(record_text(bytes, recs[2]), "datatype"), "QDP_F3_ColorMatrix");
}

TEST(IoGauge, NerscWriterHeaderHasEveryStandardKey) {
  const std::string path = test::scratch_dir() + "/h.nersc";
  GaugeWriteOptions wo;
  wo.ensemble_id = "test-ensemble";
  wo.sequence_number = 42;
  write_gauge(path, random_field({2, 2, 2, 2}, 5), wo);
  const std::string b = read_file(path);
  for (const char* key : {"HDR_VERSION = 1.0", "DATATYPE = 4D_SU3_GAUGE_3x3", "STORAGE_FORMAT", "DIMENSION_1 = 2",
                          "DIMENSION_4 = 2", "BOUNDARY_1 = PERIODIC", "BOUNDARY_4 = PERIODIC", "CHECKSUM = ",
                          "LINK_TRACE = ", "PLAQUETTE = ", "FLOATING_POINT = IEEE64BIG",
                          "ENSEMBLE_ID = test-ensemble", "SEQUENCE_NUMBER = 42", "CREATOR = gluon"})
    EXPECT_NE(b.find(key), std::string::npos) << key;
  GaugeFileInfo info;
  read_gauge(path, {}, &info);
  EXPECT_EQ(info.checks_passed.size(), 3u);
}

// ---- error paths ----

TEST(IoGaugeErrors, FlippedByteIsACheckSumMismatchNamingBothValues) {
  const std::string dir = test::scratch_dir();
  {
    std::string b = read_file(test::gauge_file("t_nersc.cfg"));
    b[nersc_data_offset(b) + 1000] ^= 0x01;
    write_bytes(dir + "/n", b);
    expect_format_error([&] { read_gauge(dir + "/n"); }, {dir + "/n", "CHECKSUM", "717938df", "computed"});
    // verify = false reads it anyway.
    GaugeReadOptions ro;
    ro.verify = false;
    GaugeFileInfo info;
    EXPECT_NO_THROW(read_gauge(dir + "/n", ro, &info));
    EXPECT_TRUE(info.checks_passed.empty());
  }
  for (const char* name : {"lat.sample.l4444.ildg", "weak_field.lime"}) {
    std::string b = read_file(test::gauge_file(name));
    const auto recs = lime_list(b, name);
    b[lime_find(recs, "ildg-binary-data")->data_offset + 777] ^= 0x40;
    write_bytes(dir + "/l", b);
    expect_format_error([&] { read_gauge(dir + "/l"); }, {"scidac-checksum <suma>", "computed"});
  }
  {
    std::string b = read_file(test::gauge_file("lat.sample.l4448"));
    b[96 + 5000] ^= 0x10;
    write_bytes(dir + "/m", b);
    expect_format_error([&] { read_gauge(dir + "/m"); }, {"MILC checksum sum29", "computed"});
  }
}

TEST(IoGaugeErrors, TruncatedFilesStateExpectedAndFoundBytes) {
  const std::string dir = test::scratch_dir();
  for (const char* name : {"t_nersc.cfg", "lat.sample.l4444", "lat.sample.l4444.ildg"}) {
    const std::string b = read_file(test::gauge_file(name));
    write_bytes(dir + "/t", b.substr(0, b.size() - 1000));
    expect_format_error([&] { read_gauge(dir + "/t"); }, {"bytes", "truncated"});
  }
  const std::string b = read_file(test::gauge_file("t_nersc.cfg"));
  write_bytes(dir + "/t", b.substr(0, b.size() - 4));
  expect_format_error([&] { read_gauge(dir + "/t"); },
                      {"49152 bytes", "49148 bytes", "binary data after END_HEADER"});
  write_bytes(dir + "/t", b.substr(0, 200));  // inside the header
  expect_format_error([&] { read_gauge(dir + "/t"); }, {"END_HEADER"});
  write_bytes(dir + "/t", read_file(test::gauge_file("lat.sample.l4444")).substr(0, 50));
  expect_format_error([&] { read_gauge(dir + "/t"); }, {"MILC header", "96 bytes", "50 bytes"});
}

TEST(IoGaugeErrors, WrongOrOddDimensions) {
  const std::string dir = test::scratch_dir();
  const std::string b = read_file(test::gauge_file("t_nersc.cfg"));
  write_bytes(dir + "/d", replace_once(b, "DIMENSION_3 = 4", "DIMENSION_3 = 5"));
  expect_format_error([&] { read_gauge(dir + "/d"); }, {"DIMENSION_3", "even", "5"});
  write_bytes(dir + "/d", replace_once(b, "DIMENSION_3 = 4", "DIMENSION_3 = 6"));
  expect_format_error([&] { read_gauge(dir + "/d"); }, {"73728 bytes", "49152 bytes"});
  write_bytes(dir + "/d", replace_once(b, "DIMENSION_3 = 4", "DIMENSION_3 = 1000000000"));
  expect_format_error([&] { read_gauge(dir + "/d"); }, {"DIMENSION_3"});
  write_bytes(dir + "/d", replace_once(b, "DIMENSION_3 = 4", "DIMENSION_3 = four"));
  expect_format_error([&] { read_gauge(dir + "/d"); }, {"DIMENSION_3", "an integer", "four"});
  // ILDG dims disagreeing with the SciDAC dims.
  std::string l = read_file(test::gauge_file("lat.sample.l4444.ildg"));
  l = replace_once(l, "<lt>4</lt>", "<lt>8</lt>");
  write_bytes(dir + "/d", l);
  expect_format_error([&] { read_gauge(dir + "/d"); }, {"scidac-private-file-xml <dims>", "4 4 4 8"});
  // MILC header with a zero extent.
  std::string m = read_file(test::gauge_file("lat.sample.l4444"));
  std::memset(&m[4], 0, 4);
  write_bytes(dir + "/d", m);
  expect_format_error([&] { read_gauge(dir + "/d"); }, {"nx", "0"});
}

TEST(IoGaugeErrors, MalformedNerscHeaders) {
  const std::string dir = test::scratch_dir();
  const std::string b = read_file(test::gauge_file("t_nersc.cfg"));
  write_bytes(dir + "/h", replace_once(b, "CREATOR = SZIN", "CREATOR SZIN"));
  expect_format_error([&] { read_gauge(dir + "/h"); }, {"header line", "KEY = VALUE", "CREATOR SZIN"});
  write_bytes(dir + "/h", replace_once(b, "DATATYPE = 4D_SU3_GAUGE", "DATATYPE = 4D_SU2_GAUGE"));
  expect_format_error([&] { read_gauge(dir + "/h"); }, {"DATATYPE", "4D_SU3_GAUGE_3x3", "4D_SU2_GAUGE"});
  write_bytes(dir + "/h", replace_once(b, "FLOATING_POINT = IEEE32BIG", "FLOATING_POINT = IEEE16"));
  expect_format_error([&] { read_gauge(dir + "/h"); }, {"FLOATING_POINT", "IEEE64BIG", "IEEE16"});
  write_bytes(dir + "/h", replace_once(b, "CHECKSUM = 717938df", "CHECKSUM = xyz"));
  expect_format_error([&] { read_gauge(dir + "/h"); }, {"CHECKSUM", "hexadecimal", "xyz"});
  write_bytes(dir + "/h", replace_once(b, "DATATYPE = 4D_SU3_GAUGE\n", ""));
  expect_format_error([&] { read_gauge(dir + "/h"); }, {"DATATYPE", "no DATATYPE line"});
  // FLOATING_POINT changed to little-endian: the data no longer verify.
  write_bytes(dir + "/h", replace_once(b, "FLOATING_POINT = IEEE32BIG", "FLOATING_POINT = IEEE32LITTLE"));
  expect_format_error([&] { read_gauge(dir + "/h"); }, {"CHECKSUM"});
  // Binary garbage before END_HEADER.
  std::string g = b;
  g[30] = '\x01';
  write_bytes(dir + "/h", g);
  expect_format_error([&] { read_gauge(dir + "/h"); }, {"header line", "printable"});
}

TEST(IoGaugeErrors, PlaquetteAndLinkTraceMismatches) {
  const std::string dir = test::scratch_dir();
  const std::string b = read_file(test::gauge_file("t_nersc.cfg"));
  write_bytes(dir + "/p", replace_once(b, "PLAQUETTE = 0.0382422893", "PLAQUETTE = 0.0382522893"));
  expect_format_error([&] { read_gauge(dir + "/p"); }, {"PLAQUETTE", "0.0382522893", "computed from the links"});
  write_bytes(dir + "/p", replace_once(b, "LINK_TRACE = 0.4630322094", "LINK_TRACE = 0.4630352094"));
  expect_format_error([&] { read_gauge(dir + "/p"); }, {"LINK_TRACE", "0.4630352094"});
  write_bytes(dir + "/p", replace_once(b, "PLAQUETTE = 0.0382422893", "PLAQUETTE = 0.03824x"));
  expect_format_error([&] { read_gauge(dir + "/p"); }, {"PLAQUETTE", "real number"});
}

TEST(IoGaugeErrors, MissingOrInconsistentLimeRecords) {
  const std::string dir = test::scratch_dir();
  const std::string b = read_file(test::gauge_file("lat.sample.l4444.ildg"));
  const auto recs = lime_list(b, "x");
  // Rebuild the file without its binary record.
  {
    AtomicFile f(dir + "/r");
    LimeWriter w(f);
    for (const auto& r : recs)
      if (r.type != "ildg-binary-data")
        w.record(r.type, b.data() + r.data_offset, r.length, r.message_begin, r.message_end);
    f.commit();
  }
  expect_format_error([&] { read_gauge(dir + "/r"); }, {"ildg-binary-data", "records: scidac-private-file-xml"});
  write_bytes(dir + "/r", replace_once(b, "<precision>32</precision>", "<precision>64</precision>"));
  expect_format_error([&] { read_gauge(dir + "/r"); }, {"<precision>"});
  write_bytes(dir + "/r", replace_once(b, "<field>su3gauge</field>", "<field>su2gauge</field>"));
  expect_format_error([&] { read_gauge(dir + "/r"); }, {"ildg-format <field>", "su3gauge", "su2gauge"});
  write_bytes(dir + "/r", replace_once(b, "<suma>37affb9c</suma>", "<suma>37affb9d</suma>"));
  expect_format_error([&] { read_gauge(dir + "/r"); }, {"suma", "37affb9d", "37affb9c"});
  const std::string s = read_file(test::gauge_file("lat.sample.l4444.scidac"));
  write_bytes(dir + "/r", replace_once(s, "QDP_F3_ColorMatrix", "QDP_F3_DiracFermio"));
  expect_format_error([&] { read_gauge(dir + "/r"); }, {"<datatype>", "QDP_F3_ColorMatrix", "QDP_F3_DiracFermio"});
}

TEST(IoGaugeErrors, UnknownFormatsAndMissingFiles) {
  const std::string dir = test::scratch_dir();
  std::string junk("\x12\x34\x56\x78 this is not a gauge field");  // 30 bytes: padded to 32 with zeros
  junk.resize(32, '\0');
  write_bytes(dir + "/g", junk);
  expect_format_error([&] { detect_gauge_format(dir + "/g"); }, {"format", "NERSC", "0x12345678"});
  expect_format_error([&] { read_gauge(dir + "/g"); }, {"format", "MILC"});
  write_bytes(dir + "/e", "");
  expect_format_error([&] { read_gauge(dir + "/e"); }, {"empty file"});
  EXPECT_THROW(read_gauge(dir + "/does-not-exist"), IoError);
  EXPECT_THROW(parse_gauge_format("lime"), InputError);
  EXPECT_EQ(parse_gauge_format("scidac"), GaugeFormat::scidac);
  // Random garbage with a valid-looking first word never crashes or hangs.
  std::mt19937 rng(3);
  const std::string base = read_file(test::gauge_file("lat.sample.l4444.scidac"));
  for (int trial = 0; trial < 200; ++trial) {
    std::string g = base.substr(0, 1 + rng() % base.size());
    for (int k = 0; k < 4; ++k) g[rng() % g.size()] = static_cast<char>(rng());
    g[0] = 0x45, g.size() > 3 ? (g[1] = 0x67, g[2] = char(0x89), g[3] = char(0xab)) : 0;
    write_bytes(dir + "/z", g);
    try {
      read_gauge(dir + "/z");
    } catch (const FileFormatError&) {
    }
  }
}

TEST(IoGaugeErrors, FailedWritesLeaveNoFile) {
  const std::string dir = test::scratch_dir();
  const GaugeField u = random_field({2, 2, 2, 2}, 8);
  GaugeWriteOptions wo;
  wo.precision_bits = 16;
  EXPECT_THROW(write_gauge(dir + "/a", u, wo), InputError);
  wo.precision_bits = 64;
  wo.format = GaugeFormat::milc;  // MILC files are float32
  EXPECT_THROW(write_gauge(dir + "/a", u, wo), InputError);
  wo.format = GaugeFormat::ildg;
  wo.ensemble_id = "bad<id>";
  EXPECT_THROW(write_gauge(dir + "/a", u, wo), InputError);
  wo.ensemble_id = "ok";
  EXPECT_THROW(write_gauge(dir + "/no-such-dir/a", u, wo), IoError);
  try {  // a writer that throws half way: the AtomicFile is destroyed without commit
    AtomicFile f(dir + "/partial");
    f.write(std::string(1000, 'x'));
    throw FileFormatError(dir + "/partial", "simulated failure");
  } catch (const FileFormatError&) {
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  // An existing file survives a failed overwrite untouched.
  write_gauge(dir + "/a", u, wo);
  const std::string before = read_file(dir + "/a");
  wo.precision_bits = 8;
  EXPECT_THROW(write_gauge(dir + "/a", u, wo), InputError);
  EXPECT_EQ(read_file(dir + "/a"), before);
  int files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 1);
}
