#include "gluon/io/link_codec.h"

#include <cstring>

#include "gluon/io/byte_order.h"

namespace gluon::io {

namespace {

double load_real(const unsigned char* p, int bits, bool big) {
  if (bits == 32) {
    std::uint32_t w;
    std::memcpy(&w, p, 4);
    if (big == host_is_little_endian) w = byteswap32(w);
    float f;
    std::memcpy(&f, &w, 4);
    return f;
  }
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  if (big == host_is_little_endian) w = byteswap64(w);
  double d;
  std::memcpy(&d, &w, 8);
  return d;
}

void store_real(unsigned char* p, double v, int bits, bool big) {
  if (bits == 32) {
    const float f = static_cast<float>(v);
    std::uint32_t w;
    std::memcpy(&w, &f, 4);
    if (big == host_is_little_endian) w = byteswap32(w);
    std::memcpy(p, &w, 4);
    return;
  }
  std::uint64_t w;
  std::memcpy(&w, &v, 8);
  if (big == host_is_little_endian) w = byteswap64(w);
  std::memcpy(p, &w, 8);
}

qcd::Coords lex_coords(std::int64_t l, const qcd::Coords& d) {
  qcd::Coords x;
  x[0] = static_cast<int>(l % d[0]);
  l /= d[0];
  x[1] = static_cast<int>(l % d[1]);
  l /= d[1];
  x[2] = static_cast<int>(l % d[2]);
  x[3] = static_cast<int>(l / d[2]);
  return x;
}

}  // namespace

void decode_site(const unsigned char* p, const LinkEncoding& e, qcd::SU3d* links) {
  const std::size_t rb = e.real_bytes();
  for (int mu = 0; mu < 4; ++mu) {
    qcd::SU3d m;
    for (int i = 0; i < e.rows; ++i)
      for (int j = 0; j < 3; ++j) {
        m.e[i][j].re = load_real(p, e.precision_bits, e.big_endian);
        m.e[i][j].im = load_real(p + rb, e.precision_bits, e.big_endian);
        p += 2 * rb;
      }
    if (e.rows == 2) qcd::conj_cross(m.e[0], m.e[1], m.e[2]);
    links[mu] = m;
  }
}

void encode_site(const qcd::SU3d* links, const LinkEncoding& e, unsigned char* p) {
  const std::size_t rb = e.real_bytes();
  for (int mu = 0; mu < 4; ++mu) {
    const qcd::SU3d& m = links[mu];
    for (int i = 0; i < e.rows; ++i)
      for (int j = 0; j < 3; ++j) {
        store_real(p, m.e[i][j].re, e.precision_bits, e.big_endian);
        store_real(p + rb, m.e[i][j].im, e.precision_bits, e.big_endian);
        p += 2 * rb;
      }
  }
}

void decode_links(const unsigned char* data, const LinkEncoding& e, qcd::GaugeField& u) {
  const qcd::Geometry& g = u.geometry();
  const std::int64_t V = g.volume();
#pragma omp parallel for schedule(static)
  for (std::int64_t l = 0; l < V; ++l) {
    const std::int64_t s = g.eo_index(lex_coords(l, g.global_dims()));
    decode_site(data + static_cast<std::size_t>(l) * e.site_bytes(), e, &u.link(s, 0));
  }
}

void encode_links(const qcd::GaugeField& u, const LinkEncoding& e, std::string& out) {
  const qcd::Geometry& g = u.geometry();
  const std::int64_t V = g.volume();
  const std::size_t start = out.size();
  out.resize(start + payload_bytes(e, V));
  auto* base = reinterpret_cast<unsigned char*>(out.data()) + start;
#pragma omp parallel for schedule(static)
  for (std::int64_t l = 0; l < V; ++l) {
    const std::int64_t s = g.eo_index(lex_coords(l, g.global_dims()));
    encode_site(&u.link(s, 0), e, base + static_cast<std::size_t>(l) * e.site_bytes());
  }
}

}  // namespace gluon::io
