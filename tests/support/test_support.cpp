#include "test_support.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace gluon::test {

std::string testdata_dir() {
  if (const char* env = std::getenv("GLUON_TESTDATA")) return env;
  return GLUON_TESTDATA_DIR;
}

std::string gauge_file(const std::string& name) {
  const std::string path = testdata_dir() + "/gauge/" + name;
  if (!std::filesystem::exists(path)) {
    ADD_FAILURE() << "test data file missing: " << path
                  << " (set GLUON_TESTDATA to the folder holding gauge/)";
  }
  return path;
}

std::string gluon_binary() { return GLUON_BINARY; }

std::string scratch_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "scratch";
  for (char& c : name)
    if (c == '/') c = '_';
  const auto dir = std::filesystem::temp_directory_path() / "gluon-tests" / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

int run_command(const std::string& command, std::string& output) {
  output.clear();
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return -1;
  std::array<char, 4096> buf;
  while (std::size_t n = std::fread(buf.data(), 1, buf.size(), pipe)) output.append(buf.data(), n);
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace gluon::test
