// Checksums of the gauge-file formats: CRC-32 reference vectors, NERSC word sums (byte-order
// independence, 64-bit halves), SciDAC and MILC rotations; file-level checks are in io_gauge_test.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "gluon/io/byte_order.h"
#include "gluon/io/checksum.h"

using namespace gluon::io;

TEST(IoChecksum, Crc32MatchesTheStandardCheckValueAndContinues) {
  const char* s = "123456789";
  EXPECT_EQ(crc32(s, 9), 0xcbf43926u);
  EXPECT_EQ(crc32(s + 4, 5, crc32(s, 4)), 0xcbf43926u);
  EXPECT_EQ(crc32(s, 0), 0u);
  EXPECT_NE(crc32("123456788", 9), 0xcbf43926u);
}

TEST(IoChecksum, RotateLeftWrapsAndRotationByZeroIsIdentity) {
  EXPECT_EQ(rotl32(0x80000001u, 0), 0x80000001u);
  EXPECT_EQ(rotl32(0x80000001u, 1), 0x00000003u);
  EXPECT_EQ(rotl32(0x12345678u, 28), 0x81234567u);
  EXPECT_EQ(rotl32(0x12345678u, 32), 0x12345678u);
}

TEST(IoChecksum, NerscSumOfWordsIsTheSameInEitherByteOrder) {
  std::mt19937 rng(7);
  std::vector<double> v(50);
  for (auto& x : v) x = std::uniform_real_distribution<double>(-1, 1)(rng);
  std::vector<unsigned char> big(v.size() * 8), little(v.size() * 8);
  std::uint32_t expect = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::uint64_t w;
    std::memcpy(&w, &v[i], 8);
    store_be64(big.data() + 8 * i, w);
    for (int b = 0; b < 8; ++b) little[8 * i + b] = static_cast<unsigned char>(w >> (8 * b));
    expect += static_cast<std::uint32_t>(w) + static_cast<std::uint32_t>(w >> 32);
  }
  EXPECT_EQ(nersc_checksum(big.data(), big.size(), true), expect);
  EXPECT_EQ(nersc_checksum(little.data(), little.size(), false), expect);
  // Reading with the wrong byte order gives something else.
  EXPECT_NE(nersc_checksum(big.data(), big.size(), false), expect);
  // Wraps modulo 2^32.
  const unsigned char ff[8] = {0xff, 0xff, 0xff, 0xff, 0, 0, 0, 2};
  EXPECT_EQ(nersc_checksum(ff, 8, true), 1u);
}

TEST(IoChecksum, ScidacAndMilcRotateByTheSiteOrWordIndex) {
  const unsigned char site[4] = {1, 2, 3, 4};
  const std::uint32_t c = crc32(site, 4);
  ScidacChecksum s;
  s.add_site(30, site, 4);
  EXPECT_EQ(s.suma, rotl32(c, 1));
  EXPECT_EQ(s.sumb, rotl32(c, 30));
  s.add_site(30, site, 4);  // the same site twice cancels
  EXPECT_EQ(s.suma, 0u);
  EXPECT_EQ(s.sumb, 0u);

  std::vector<std::uint32_t> w(100);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = 0x9e3779b9u * static_cast<std::uint32_t>(i + 1);
  MilcChecksum whole, parts;
  whole.add_words(w.data(), w.size());
  parts.add_words(w.data(), 37, 0);
  parts.add_words(w.data() + 37, 63, 37);
  EXPECT_EQ(whole.sum29, parts.sum29);
  EXPECT_EQ(whole.sum31, parts.sum31);
  std::uint32_t s29 = 0;
  for (std::size_t i = 0; i < w.size(); ++i) s29 ^= rotl32(w[i], static_cast<unsigned>(i % 29));
  EXPECT_EQ(whole.sum29, s29);
  EXPECT_EQ(hex32(0x1a2bu), "00001a2b");
}
