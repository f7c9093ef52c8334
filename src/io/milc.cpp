#include "gluon/io/milc.h"

#include <cstring>
#include <vector>

#include "gauge_common.h"
#include "gluon/io/atomic_file.h"
#include "gluon/io/byte_order.h"
#include "gluon/io/checksum.h"
#include "gluon/io/link_codec.h"
#include "gluon/runtime/error.h"

namespace gluon::io {

namespace {

std::uint32_t load_u32(const unsigned char* p, bool swapped) {
  std::uint32_t w;
  std::memcpy(&w, p, 4);
  return swapped ? byteswap32(w) : w;
}

void store_u32(unsigned char* p, std::uint32_t w, bool swapped) {
  if (swapped) w = byteswap32(w);
  std::memcpy(p, &w, 4);
}

// MILC checksums of float32 data stored with byte order `big`.
MilcChecksum milc_sums(const unsigned char* data, std::size_t bytes, bool big) {
  MilcChecksum sum;
  std::vector<std::uint32_t> chunk(4096);
  const bool swap = big == host_is_little_endian;
  const std::size_t words = bytes / 4;
  for (std::size_t first = 0; first < words; first += chunk.size()) {
    const std::size_t n = std::min(chunk.size(), words - first);
    std::memcpy(chunk.data(), data + first * 4, n * 4);
    if (swap)
      for (std::size_t k = 0; k < n; ++k) chunk[k] = byteswap32(chunk[k]);
    sum.add_words(chunk.data(), n, first);
  }
  return sum;
}

}  // namespace

bool is_milc_magic(const unsigned char* p, bool& swapped) {
  std::uint32_t w;
  std::memcpy(&w, p, 4);
  if (w == static_cast<std::uint32_t>(milc_magic)) {
    swapped = false;
    return true;
  }
  if (byteswap32(w) == static_cast<std::uint32_t>(milc_magic)) {
    swapped = true;
    return true;
  }
  return false;
}

namespace detail {

GaugePlan milc_plan(const unsigned char* p, std::uint64_t file_size, const std::string& file,
                    const GaugeReadOptions& opts, GaugeFileInfo& info) {
  if (file_size < milc_header_bytes)
    throw FileFormatError(file, "MILC header", std::to_string(milc_header_bytes) + " bytes",
                          std::to_string(file_size) + " bytes (file truncated)");
  bool swapped = false;
  if (!is_milc_magic(p, swapped))
    throw FileFormatError(file, "MILC magic number", "20103 (either byte order)",
                          "0x" + hex32(load_u32(p, false)));
  // The file's byte order: native if not swapped.
  const bool big = swapped == host_is_little_endian;
  std::array<long long, 4> dims{};
  const std::array<std::string, 4> names{"nx", "ny", "nz", "nt"};
  for (int mu = 0; mu < 4; ++mu)
    dims[mu] = static_cast<std::int32_t>(load_u32(p + 4 + 4 * mu, swapped));
  std::string stamp(reinterpret_cast<const char*>(p + 20), 64);
  stamp = stamp.substr(0, stamp.find('\0'));
  while (!stamp.empty() && (stamp.back() == '\n' || stamp.back() == ' ')) stamp.pop_back();
  const std::int32_t order = static_cast<std::int32_t>(load_u32(p + 84, swapped));
  const std::uint32_t sum29 = load_u32(p + 88, swapped), sum31 = load_u32(p + 92, swapped);
  if (order != 0)
    throw FileFormatError(file, "MILC order", "0 (lexicographic site order)", std::to_string(order));
  GaugePlan plan;
  plan.geometry = detail::file_geometry(file, names, dims);
  const qcd::Geometry& g = plan.geometry;

  info.format = GaugeFormat::milc;
  info.dims = g.global_dims();
  info.precision_bits = 32;
  info.big_endian = big;
  info.format_detail = std::string("MILC binary float32 ") + (big ? "big" : "little") + "-endian";
  info.header = {{"magic_number", "20103"},
                 {"nx", std::to_string(dims[0])},
                 {"ny", std::to_string(dims[1])},
                 {"nz", std::to_string(dims[2])},
                 {"nt", std::to_string(dims[3])},
                 {"time_stamp", stamp},
                 {"order", "0"},
                 {"checksums", hex32(sum29) + " " + hex32(sum31)}};

  plan.enc.precision_bits = 32;
  plan.enc.big_endian = big;
  plan.enc.rows = 3;
  const std::uint64_t want = payload_bytes(plan.enc, g.volume());
  detail::require_bytes(file, "binary data after the 96-byte MILC header (" + g.to_string() + ", float32)",
                        want, file_size - milc_header_bytes);
  plan.data_offset = milc_header_bytes;
  if (opts.verify) {
    plan.sum = GaugePlan::Sum::milc;
    plan.stated[0] = sum29;
    plan.stated[1] = sum31;
  }
  return plan;
}

std::string milc_header(const qcd::Coords& d, bool big_endian, std::uint32_t sum29, std::uint32_t sum31) {
  const bool swapped = big_endian == host_is_little_endian;
  unsigned char h[milc_header_bytes] = {};
  store_u32(h, static_cast<std::uint32_t>(milc_magic), swapped);
  for (int mu = 0; mu < 4; ++mu) store_u32(h + 4 + 4 * mu, static_cast<std::uint32_t>(d[mu]), swapped);
  const std::string stamp = detail::now_text();
  std::memcpy(h + 20, stamp.data(), std::min<std::size_t>(stamp.size(), 63));
  store_u32(h + 84, 0, swapped);
  store_u32(h + 88, sum29, swapped);
  store_u32(h + 92, sum31, swapped);
  return std::string(reinterpret_cast<const char*>(h), sizeof h);
}

}  // namespace detail

qcd::GaugeField read_milc(const std::string& bytes, const std::string& file, const GaugeReadOptions& opts,
                          GaugeFileInfo& info) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const detail::GaugePlan plan = detail::milc_plan(p, bytes.size(), file, opts, info);
  const unsigned char* data = p + plan.data_offset;
  if (plan.sum != detail::GaugePlan::Sum::none) {
    const MilcChecksum s = milc_sums(data, payload_bytes(plan.enc, plan.geometry.volume()), plan.enc.big_endian);
    detail::verify_sums(plan, detail::PartialSums{s.sum29, s.sum31}, file, info);
  }
  qcd::GaugeField u = qcd::GaugeField::canonical(plan.geometry);
  decode_links(data, plan.enc, u);
  return u;
}

void write_milc(const std::string& path, const qcd::GaugeField& u, const GaugeWriteOptions& opts) {
  if (opts.precision_bits != 32)
    throw InputError("MILC binary gauge files are float32: expected precision 32, found " +
                     std::to_string(opts.precision_bits));
  LinkEncoding enc;
  enc.precision_bits = 32;
  enc.big_endian = opts.big_endian;
  enc.rows = 3;
  std::string data;
  encode_links(u, enc, data);
  const MilcChecksum s = milc_sums(reinterpret_cast<const unsigned char*>(data.data()), data.size(),
                                   opts.big_endian);
  const std::string h = detail::milc_header(u.geometry().global_dims(), opts.big_endian, s.sum29, s.sum31);
  AtomicFile f(path);
  f.write(h);
  f.write(data);
  f.commit();
}

}  // namespace gluon::io
