// LIME record layer: listing the records of files other codes wrote, writing and re-reading
// records (flags, padding), and rejecting damaged containers without crashing.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "gluon/io/atomic_file.h"
#include "gluon/io/lime.h"
#include "gluon/runtime/error.h"
#include "test_support.h"

using namespace gluon;
using namespace gluon::io;

TEST(IoLime, ListsTheRecordsOfMilcsIldgFile) {
  const std::string path = test::gauge_file("lat.sample.l4444.ildg");
  const std::string bytes = read_file(path);
  const auto r = lime_list(bytes, path);
  ASSERT_EQ(r.size(), 8u);
  EXPECT_EQ(r[0].type, "scidac-private-file-xml");
  EXPECT_TRUE(r[0].message_begin);
  EXPECT_FALSE(r[0].message_end);
  EXPECT_TRUE(r[1].message_end);
  EXPECT_EQ(r[4].type, "ildg-format");
  EXPECT_EQ(r[6].type, "ildg-binary-data");
  EXPECT_EQ(r[6].length, 73728u);
  EXPECT_EQ(r[7].type, "scidac-checksum");
  EXPECT_TRUE(r[7].message_end);
  const LimeRecord* lfn = lime_find(r, "ildg-data-lfn");
  ASSERT_NE(lfn, nullptr);
  EXPECT_EQ(record_text(bytes, *lfn), "lfn://USQCD/MILC/test/lat.sample.l4444");
  EXPECT_EQ(lime_find(r, "no-such-record"), nullptr);
  EXPECT_EQ(xml_value(record_text(bytes, r[4]), "precision"), "32");
  EXPECT_EQ(xml_value(record_text(bytes, r[4]), "lt"), "4");
}

TEST(IoLime, WrittenRecordsAreReadBackWithFlagsAndPadding) {
  const std::string path = test::scratch_dir() + "/rec.lime";
  {
    AtomicFile f(path);
    LimeWriter w(f);
    w.record("first", std::string("abc"), true, false);
    w.record("second", std::string(16, 'x'), false, true);
    w.record("third", std::string(), true, true);
    f.commit();
  }
  const std::string bytes = read_file(path);
  EXPECT_EQ(bytes.size(), 3 * 144 + 8 + 16u);  // 3 bytes padded to 8
  const auto r = lime_list(bytes, path);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].type, "first");
  EXPECT_EQ(record_text(bytes, r[0]), "abc");
  EXPECT_TRUE(r[0].message_begin && !r[0].message_end);
  EXPECT_TRUE(!r[1].message_begin && r[1].message_end);
  EXPECT_EQ(r[1].data_offset, 144u + 8u + 144u);
  EXPECT_EQ(r[2].length, 0u);
  EXPECT_TRUE(r[2].message_begin && r[2].message_end);
}

TEST(IoLime, DamagedContainersThrowFileFormatErrorNamingTheRecord) {
  const std::string path = test::gauge_file("lat.sample.l4444.scidac");
  const std::string bytes = read_file(path);
  // Bad magic in the third record.
  std::string bad = bytes;
  bad[464] = 0x11;
  try {
    lime_list(bad, "f");
    FAIL() << "no error";
  } catch (const FileFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("magic"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("0x456789ab"), std::string::npos) << e.what();
  }
  // A length running past the end of the file.
  bad = bytes;
  bad[1080 + 8] = 0x7f;
  try {
    lime_list(bad, "f");
    FAIL() << "no error";
  } catch (const FileFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("scidac-binary-data"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
  }
  // Truncated header.
  EXPECT_THROW(lime_list(bytes.substr(0, 100), "f"), FileFormatError);
  EXPECT_THROW(lime_list(std::string(), "f"), FileFormatError);
}

TEST(IoLime, RandomDamageNeverCrashesOrHangs) {
  const std::string bytes = read_file(test::gauge_file("weak_field.lime")).substr(0, 2000);
  std::mt19937 rng(11);
  int errors = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    std::string b = bytes;
    for (int k = 0; k < 3; ++k) {
      // Damage the header fields (magic, version, length, type) of the first records.
      const std::size_t rec_start[3] = {0, 296, 496};
      const std::size_t at = rec_start[rng() % 3] + rng() % 24;
      b[at] = static_cast<char>(rng());
    }
    b.resize(rng() % 2 ? b.size() : rng() % b.size());
    try {
      lime_list(b, "f");
    } catch (const FileFormatError&) {
      ++errors;
    }
  }
  EXPECT_GT(errors, 1000);
}
