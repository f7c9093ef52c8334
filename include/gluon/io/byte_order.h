#pragma once
// Byte-order helpers for the file formats (NERSC, LIME, MILC are big-endian or either).
#include <bit>
#include <cstdint>
#include <cstring>

namespace gluon::io {

inline constexpr bool host_is_little_endian = std::endian::native == std::endian::little;

inline std::uint32_t byteswap32(std::uint32_t v) { return __builtin_bswap32(v); }
inline std::uint64_t byteswap64(std::uint64_t v) { return __builtin_bswap64(v); }

// Reverses every `width`-byte word (4 or 8) of a buffer in place.
inline void swap_words(void* data, std::size_t bytes, int width) {
  auto* p = static_cast<unsigned char*>(data);
  if (width == 4) {
    for (std::size_t i = 0; i + 4 <= bytes; i += 4) {
      std::uint32_t w;
      std::memcpy(&w, p + i, 4);
      w = byteswap32(w);
      std::memcpy(p + i, &w, 4);
    }
  } else if (width == 8) {
    for (std::size_t i = 0; i + 8 <= bytes; i += 8) {
      std::uint64_t w;
      std::memcpy(&w, p + i, 8);
      w = byteswap64(w);
      std::memcpy(p + i, &w, 8);
    }
  }
}

// Reads a big-endian integer from raw bytes.
inline std::uint64_t load_be64(const unsigned char* p) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | p[i];
  return v;
}
inline std::uint32_t load_be32(const unsigned char* p) {
  return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
}
inline void store_be64(unsigned char* p, std::uint64_t v) {
  for (int i = 7; i >= 0; --i, v >>= 8) p[i] = static_cast<unsigned char>(v & 0xff);
}
inline void store_be32(unsigned char* p, std::uint32_t v) {
  for (int i = 3; i >= 0; --i, v >>= 8) p[i] = static_cast<unsigned char>(v & 0xff);
}

}  // namespace gluon::io
