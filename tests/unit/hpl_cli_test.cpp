// gluon hpl end to end: HPL 2.3's output for every combination of the sample HPL.dat, a FAILED
// residual with a non-zero exit, parse errors naming the line, the JSON summary.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "test_support.h"

namespace {

std::string sample_path() {
  std::string f = __FILE__;
  return f.substr(0, f.rfind("/unit/")) + "/data/hpl/HPL.dat";
}

int count(const std::string& text, const std::regex& re) {
  return static_cast<int>(std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
}

std::string hpl(const std::string& args, int& rc) {
  std::string out;
  rc = gluon::test::run_command("OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 " + gluon::test::gluon_binary() + " hpl " + args, out);
  return out;
}

}  // namespace

TEST(HplCli, PrintsHplOutputForEveryCombination) {
  int rc = 0;
  const std::string out = hpl(sample_path() + " --progress 0", rc);
  EXPECT_EQ(rc, 0) << out;
  // 2 N x 2 NB x 3 PFACT x 2 NBMIN x 1 NDIV x 3 RFACT x 1 BCAST x 2 DEPTH = 144 runs.
  EXPECT_EQ(count(out, std::regex(R"(\nW[RC][01][0-5][LCR]\d[LCR]\d +\d+ +\d+ +1 +1 +\d+\.\d\d +\d\.\d{4}e[+-]\d\d\n)")), 144) << out.substr(0, 3000);
  EXPECT_EQ(count(out, std::regex(R"(\|\|Ax-b\|\|_oo/\(eps\*\(\|\|A\|\|_oo\*\|\|x\|\|_oo\+\|\|b\|\|_oo\)\*N\)= +\d\.\d{8}e[+-]\d\d \.\.\.\.\.\. PASSED)")), 144);
  EXPECT_NE(out.find("T/V                N    NB     P     Q               Time                 Gflops"), std::string::npos);
  EXPECT_NE(out.find("WR01C2R4          61     8     1     1"), std::string::npos) << "variant code or columns";
  EXPECT_NE(out.find("144 tests completed and passed residual checks"), std::string::npos);
  EXPECT_NE(out.find("End of Tests."), std::string::npos);
}

TEST(HplCli, FailedResidualExitsNonZero) {
  int rc = 0;
  const std::string out = hpl(sample_path() + " --progress 0 --test-corrupt-solution", rc);
  EXPECT_NE(rc, 0);
  EXPECT_NE(out.find("...... FAILED"), std::string::npos) << out.substr(0, 2000);
  EXPECT_EQ(out.find("...... PASSED"), std::string::npos);
  EXPECT_NE(out.find("FAILED the residual check"), std::string::npos);
}

TEST(HplCli, BadInputNamesTheLine) {
  const std::string dir = gluon::test::scratch_dir();
  std::ifstream in(sample_path());
  std::ostringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  text.replace(text.find("8 32         NBs"), 16, "8 zz         NBs");
  {
    std::ofstream f(dir + "/HPL.dat");
    f << text;
  }
  int rc = 0;
  std::string out = hpl(dir + "/HPL.dat", rc);
  EXPECT_NE(rc, 0);
  EXPECT_NE(out.find("line 8 (NBs)"), std::string::npos) << out;
  out = hpl(dir + "/missing.dat", rc);
  EXPECT_NE(rc, 0);
  EXPECT_NE(out.find("missing.dat"), std::string::npos) << out;
#if !GLUON_HAVE_CUDA
  out = hpl(sample_path() + " --backend cuda", rc);
  EXPECT_NE(rc, 0);
  EXPECT_NE(out.find("without CUDA"), std::string::npos) << out;
#endif
  out = hpl(sample_path() + " --backend cpu --gpu-memory-limit 1000", rc);
  EXPECT_NE(rc, 0);
  EXPECT_NE(out.find("--gpu-memory-limit"), std::string::npos) << out;
}

TEST(HplCli, JsonSummary) {
  const std::string dir = gluon::test::scratch_dir();
  std::ifstream in(sample_path());
  std::ostringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  text.replace(text.find("2            # of problems sizes"), 1, "1");
  text.replace(text.find("2            # of NBs"), 1, "1");
  {
    std::ofstream f(dir + "/HPL.dat");
    f << text;
  }
  int rc = 0;
  const std::string out = hpl(dir + "/HPL.dat --progress 0 --backend cpu --json " + dir + "/s.json", rc);
  ASSERT_EQ(rc, 0) << out;
  std::ifstream jf(dir + "/s.json");
  const auto j = nlohmann::json::parse(jf);
  EXPECT_EQ(j["passed"], 36);
  EXPECT_EQ(j["failed"], 0);
  ASSERT_EQ(j["runs"].size(), 36u);
  EXPECT_EQ(j["runs"][0]["n"], 61);
  EXPECT_TRUE(j["runs"][0]["passed"].get<bool>());
  EXPECT_LT(j["runs"][0]["resid"].get<double>(), 16.0);
}
