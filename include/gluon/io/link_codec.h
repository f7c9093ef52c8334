#pragma once
// The binary link payload shared by every gauge-file format: sites in global lexicographic order
// (x fastest ... t slowest), 4 links per site (mu = x,y,z,t), each link a row-major 3x3 complex
// matrix (re, im interleaved) of which the first `rows` rows are stored (3, or 2 for NERSC's
// 4D_SU3_GAUGE, whose third row is conj(row0 x row1), rebuilt in double on read).
//
//   LinkEncoding   precision (32 | 64 bits), byte order, stored rows (2 | 3)
//   decode_links   file bytes -> canonical GaugeField (links at even-odd indices)
//   encode_links   canonical GaugeField -> file bytes (doubles rounded to float at 32 bits)
//   decode_site / encode_site    one site's 4 links
//   site_bytes / payload_bytes   sizes of one site / the whole payload
// decode_links / encode_links: single-process geometry only (the file holds the global lattice).
#include <cstddef>
#include <cstdint>
#include <string>

#include "gluon/qcd/gauge_field.h"

namespace gluon::io {

struct LinkEncoding {
  int precision_bits = 64;  // 32 or 64
  bool big_endian = true;
  int rows = 3;             // 2 or 3

  std::size_t real_bytes() const { return static_cast<std::size_t>(precision_bits / 8); }
  std::size_t link_bytes() const { return static_cast<std::size_t>(rows) * 6 * real_bytes(); }
  std::size_t site_bytes() const { return 4 * link_bytes(); }
};

inline std::size_t payload_bytes(const LinkEncoding& e, std::int64_t volume) {
  return e.site_bytes() * static_cast<std::size_t>(volume);
}

// `data` must hold payload_bytes(e, V) bytes; `u` must be canonical (its geometry gives V).
void decode_links(const unsigned char* data, const LinkEncoding& e, qcd::GaugeField& u);
// Appends payload_bytes(e, V) bytes to `out`.
void encode_links(const qcd::GaugeField& u, const LinkEncoding& e, std::string& out);
// One site: e.site_bytes() bytes <-> its 4 links (mu = x,y,z,t). The distributed reader and writer
// (gauge_io.h) use these on the rows of their own block.
void decode_site(const unsigned char* bytes, const LinkEncoding& e, qcd::SU3d* links);
void encode_site(const qcd::SU3d* links, const LinkEncoding& e, unsigned char* bytes);

}  // namespace gluon::io
