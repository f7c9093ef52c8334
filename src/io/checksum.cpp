#include "gluon/io/checksum.h"

#include <array>
#include <cstdio>
#include <cstring>

#include "gluon/io/byte_order.h"

namespace gluon::io {

namespace {
std::array<std::uint32_t, 256> make_crc_table() {
  std::array<std::uint32_t, 256> t{};
  for (std::uint32_t n = 0; n < 256; ++n) {
    std::uint32_t c = n;
    for (int k = 0; k < 8; ++k) c = (c & 1u) ? 0xedb88320u ^ (c >> 1) : c >> 1;
    t[n] = c;
  }
  return t;
}
const std::array<std::uint32_t, 256> crc_table = make_crc_table();
}  // namespace

std::uint32_t nersc_checksum(const void* data, std::size_t bytes, bool big_endian) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint32_t sum = 0;
  for (std::size_t i = 0; i + 4 <= bytes; i += 4) {
    if (big_endian) {
      sum += load_be32(p + i);
    } else {
      sum += std::uint32_t(p[i]) | (std::uint32_t(p[i + 1]) << 8) | (std::uint32_t(p[i + 2]) << 16) |
             (std::uint32_t(p[i + 3]) << 24);
    }
  }
  return sum;
}

std::uint32_t crc32(const void* data, std::size_t bytes, std::uint32_t crc) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint32_t c = crc ^ 0xffffffffu;
  for (std::size_t i = 0; i < bytes; ++i) c = crc_table[(c ^ p[i]) & 0xffu] ^ (c >> 8);
  return c ^ 0xffffffffu;
}

std::string hex32(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%08x", v);
  return buf;
}

}  // namespace gluon::io
