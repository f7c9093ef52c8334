#pragma once
// Checksums of the gauge-file formats, each verified bit-exactly against files written by the
// code that defines it (tests/unit/io_checksum_test.cpp, ../shared/testdata/gauge/README.md).
//
//   nersc_checksum   NERSC CHECKSUM: the 32-bit unsigned sum (mod 2^32) of the binary data read
//                    as 32-bit words in the file's byte order, over the data exactly as stored
//                    (two rows for 4D_SU3_GAUGE; both halves of every 64-bit real). This is what
//                    Chroma, Grid and MILC compute; it is independent of the file's byte order.
//   crc32            the zlib/POSIX CRC-32 (polynomial 0xedb88320, reflected) of a byte range,
//                    continuable: crc32(b, n2, crc32(a, n1)) == crc32(a||b).
//   ScidacChecksum   SciDAC suma/sumb (QIO): for each site with global lexicographic index s,
//                    c = crc32 of the site's bytes as stored (big-endian); suma ^= rotl(c, s % 29),
//                    sumb ^= rotl(c, s % 31). Sites may be added in any order.
//   MilcChecksum     MILC sum29/sum31: for the i-th 32-bit word w_i of the data (host order after
//                    any byte swap, i counting from 0 over the whole file), sum29 ^= rotl(w_i,
//                    i % 29), sum31 ^= rotl(w_i, i % 31).
//   hex32            "%08x" of a checksum (the form every format writes).
#include <cstddef>
#include <cstdint>
#include <string>

namespace gluon::io {

inline std::uint32_t rotl32(std::uint32_t w, unsigned n) {
  n &= 31u;
  return n == 0 ? w : (w << n) | (w >> (32u - n));
}

std::uint32_t nersc_checksum(const void* data, std::size_t bytes, bool big_endian);

std::uint32_t crc32(const void* data, std::size_t bytes, std::uint32_t crc = 0);

struct ScidacChecksum {
  std::uint32_t suma = 0, sumb = 0;
  void add_site(std::int64_t global_lex, const void* bytes, std::size_t n) {
    const std::uint32_t c = crc32(bytes, n);
    suma ^= rotl32(c, static_cast<unsigned>(global_lex % 29));
    sumb ^= rotl32(c, static_cast<unsigned>(global_lex % 31));
  }
};

struct MilcChecksum {
  std::uint32_t sum29 = 0, sum31 = 0;
  // `words` host-order 32-bit words that start at word index `first` of the data.
  void add_words(const std::uint32_t* words, std::size_t n, std::uint64_t first = 0) {
    for (std::size_t k = 0; k < n; ++k) {
      const std::uint64_t i = first + k;
      sum29 ^= rotl32(words[k], static_cast<unsigned>(i % 29));
      sum31 ^= rotl32(words[k], static_cast<unsigned>(i % 31));
    }
  }
};

std::string hex32(std::uint32_t v);

}  // namespace gluon::io
