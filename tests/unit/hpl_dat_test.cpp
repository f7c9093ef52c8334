// HPL.dat: the 31 lines, the expansion into runs, HPL's variant code, errors that name the line.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "gluon/hpl/dat.h"
#include "gluon/runtime/error.h"

using namespace gluon::hpl;

namespace {
std::string sample_path() {
  std::string f = __FILE__;
  return f.substr(0, f.rfind("/unit/")) + "/data/hpl/HPL.dat";
}
std::string sample() {
  std::ifstream f(sample_path());
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}
std::string replace_line(const std::string& text, int lineno, const std::string& line) {
  std::istringstream in(text);
  std::string out, l;
  for (int i = 1; std::getline(in, l); ++i) out += (i == lineno ? line : l) + "\n";
  return out;
}
}  // namespace

TEST(HplDat, ParsesTheSample) {
  const HplDat d = read_hpl_dat(sample_path());
  EXPECT_EQ(d.output_file, "HPL.out");
  EXPECT_EQ(d.device_out, 6);
  EXPECT_EQ(d.ns, (std::vector<long>{61, 100}));
  EXPECT_EQ(d.nbs, (std::vector<int>{8, 32}));
  EXPECT_FALSE(d.column_major);
  EXPECT_EQ(d.ps, std::vector<int>{1});
  EXPECT_DOUBLE_EQ(d.threshold, 16.0);
  EXPECT_EQ(d.pfacts.size(), 3u);
  EXPECT_EQ(d.nbmins, (std::vector<int>{2, 4}));
  EXPECT_EQ(d.ndivs, std::vector<int>{2});
  EXPECT_EQ(d.rfacts.size(), 3u);
  EXPECT_EQ(d.bcasts, std::vector<Bcast>{Bcast::ring1m});
  EXPECT_EQ(d.depths, (std::vector<int>{0, 1}));
  EXPECT_EQ(d.swap, Swap::mix);
  EXPECT_EQ(d.swap_threshold, 64);
  EXPECT_EQ(d.alignment, 8);
  const auto runs = expand(d);
  EXPECT_EQ(runs.size(), 2u * 2 * 1 * 3 * 2 * 1 * 3 * 1 * 2);
}

TEST(HplDat, VariantCodeAsHpl) {
  HplRunParams r;
  r.depth = 1, r.bcast = Bcast::ring1m, r.rfact = Fact::crout, r.ndiv = 2, r.pfact = Fact::right, r.nbmin = 4;
  EXPECT_EQ(variant_code(r), "WR11C2R4");
  r.column_major = true, r.depth = 0, r.bcast = Bcast::lngm, r.rfact = Fact::left, r.ndiv = 3, r.pfact = Fact::crout,
  r.nbmin = 8;
  EXPECT_EQ(variant_code(r), "WC05L3C8");
}

TEST(HplDat, ErrorsNameTheLine) {
  const std::string s = sample();
  auto expect_error = [&](const std::string& text, const std::string& where) {
    try {
      parse_hpl_dat(text, "my.dat");
      FAIL() << "accepted bad input at " << where;
    } catch (const gluon::FileFormatError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("my.dat"), std::string::npos) << m;
      EXPECT_NE(m.find(where), std::string::npos) << m;
    }
  };
  expect_error(replace_line(s, 6, "61 x      Ns"), "line 6 (Ns)");
  expect_error(replace_line(s, 15, "0 1 7        PFACTs"), "line 15");
  expect_error(replace_line(s, 23, "9   BCASTs"), "line 23");
  expect_error(replace_line(s, 25, "0 2   DEPTHs"), "line 25");
  expect_error(replace_line(s, 9, "3   PMAP"), "line 9");
  expect_error(s.substr(0, s.find("2            SWAP")), "line 26");
  EXPECT_THROW(read_hpl_dat("/nonexistent/HPL.dat"), gluon::IoError);
}
