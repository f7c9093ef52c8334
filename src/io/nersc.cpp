#include "gluon/io/nersc.h"

#include "gauge_common.h"
#include "gluon/io/atomic_file.h"
#include "gluon/io/checksum.h"
#include "gluon/io/link_codec.h"
#include "gluon/qcd/observables.h"
#include "gluon/runtime/error.h"

namespace gluon::io {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

constexpr std::size_t max_header_bytes = 1 << 20;
constexpr std::size_t max_line_bytes = 4096;

struct FloatingPoint {
  int bits;
  bool big;
};

FloatingPoint parse_floating_point(const std::string& file, const std::string* v) {
  if (!v) return {32, true};
  if (*v == "IEEE32" || *v == "IEEE32BIG") return {32, true};
  if (*v == "IEEE32LITTLE") return {32, false};
  if (*v == "IEEE64" || *v == "IEEE64BIG") return {64, true};
  if (*v == "IEEE64LITTLE") return {64, false};
  throw FileFormatError(file, "FLOATING_POINT",
                        "IEEE32, IEEE32BIG, IEEE32LITTLE, IEEE64BIG or IEEE64LITTLE", "'" + *v + "'");
}

std::string floating_point_name(int bits, bool big) {
  return std::string("IEEE") + (bits == 32 ? "32" : "64") + (big ? "BIG" : "LITTLE");
}

}  // namespace

const std::string* NerscHeader::find(const std::string& key) const {
  for (const auto& kv : entries)
    if (kv.first == key) return &kv.second;
  return nullptr;
}

NerscHeader parse_nersc_header(const std::string& bytes, const std::string& file) {
  NerscHeader h;
  std::size_t pos = 0;
  int line_no = 0;
  bool begun = false;
  while (true) {
    ++line_no;
    const std::string where = "header line " + std::to_string(line_no);
    if (pos >= bytes.size() || pos > max_header_bytes)
      throw FileFormatError(file, where, "END_HEADER", pos >= bytes.size() ? "end of file" : "a header over 1 MiB");
    const char* expected_line = "a text line ending in a newline, at most 4096 bytes (the header ends with END_HEADER)";
    const std::size_t nl = bytes.find('\n', pos);
    if (nl == std::string::npos || nl - pos > max_line_bytes)
      throw FileFormatError(file, where, expected_line,
                            nl == std::string::npos ? "end of file" : "a longer line (binary data?)");
    const std::string raw = bytes.substr(pos, nl - pos);
    pos = nl + 1;
    for (unsigned char c : raw)
      if ((c < 0x20 && c != '\t' && c != '\r') || c >= 0x7f)
        throw FileFormatError(file, where, "printable text",
                              "a byte of value " + std::to_string(int(c)));
    const std::string line = trim(raw);
    if (!begun) {
      if (line != "BEGIN_HEADER") throw FileFormatError(file, where, "BEGIN_HEADER", "'" + line + "'");
      begun = true;
      continue;
    }
    if (line.empty()) continue;
    if (line == "END_HEADER") break;
    const auto eq = line.find('=');
    if (eq == std::string::npos || trim(line.substr(0, eq)).empty())
      throw FileFormatError(file, where, "KEY = VALUE", "'" + line + "'");
    h.entries.emplace_back(trim(line.substr(0, eq)), trim(line.substr(eq + 1)));
  }
  h.data_offset = pos;
  return h;
}

namespace detail {

GaugePlan nersc_plan(const std::string& head, std::uint64_t file_size, const std::string& file,
                     const GaugeReadOptions& opts, GaugeFileInfo& info) {
  const NerscHeader h = parse_nersc_header(head, file);
  info.format = GaugeFormat::nersc;
  info.header = h.entries;

  const std::string* dt = h.find("DATATYPE");
  if (!dt) throw FileFormatError(file, "DATATYPE", "4D_SU3_GAUGE or 4D_SU3_GAUGE_3x3", "no DATATYPE line");
  GaugePlan plan;
  LinkEncoding& enc = plan.enc;
  if (*dt == "4D_SU3_GAUGE") {
    enc.rows = 2;
  } else if (*dt == "4D_SU3_GAUGE_3x3") {
    enc.rows = 3;
  } else {
    throw FileFormatError(file, "DATATYPE", "4D_SU3_GAUGE or 4D_SU3_GAUGE_3x3", "'" + *dt + "'");
  }
  const FloatingPoint fp = parse_floating_point(file, h.find("FLOATING_POINT"));
  enc.precision_bits = fp.bits;
  enc.big_endian = fp.big;

  std::array<long long, 4> dims{};
  std::array<std::string, 4> names;
  for (int mu = 0; mu < 4; ++mu) {
    names[mu] = "DIMENSION_" + std::to_string(mu + 1);
    const std::string* v = h.find(names[mu]);
    if (!v) throw FileFormatError(file, names[mu], "a lattice extent", "no " + names[mu] + " line");
    dims[mu] = detail::parse_int(file, names[mu], *v);
  }
  plan.geometry = detail::file_geometry(file, names, dims);
  const qcd::Geometry& g = plan.geometry;
  info.dims = g.global_dims();
  info.precision_bits = enc.precision_bits;
  info.big_endian = enc.big_endian;
  info.stored_rows = enc.rows;
  info.format_detail = "NERSC " + *dt + " " + floating_point_name(fp.bits, fp.big) +
                       (h.find("FLOATING_POINT") ? "" : " (FLOATING_POINT absent: NERSC default)");

  const std::uint64_t want = payload_bytes(enc, g.volume());
  detail::require_bytes(file, "binary data after END_HEADER (" + g.to_string() + ", " + *dt + ", " +
                                  floating_point_name(fp.bits, fp.big) + ")",
                        want, file_size - h.data_offset);
  plan.data_offset = h.data_offset;

  if (const std::string* t = h.find("PLAQUETTE")) {
    plan.plaquette_text = *t;
    info.header_plaquette = detail::parse_real(file, "PLAQUETTE", *t);
  }
  if (const std::string* t = h.find("LINK_TRACE")) {
    plan.link_trace_text = *t;
    info.header_link_trace = detail::parse_real(file, "LINK_TRACE", *t);
  }

  if (opts.verify) {
    if (const std::string* ck = h.find("CHECKSUM")) {
      const std::string t = ck->rfind("0x", 0) == 0 || ck->rfind("0X", 0) == 0 ? ck->substr(2) : *ck;
      char* end = nullptr;
      const unsigned long long stated = std::strtoull(t.c_str(), &end, 16);
      if (t.empty() || *end != '\0' || stated > 0xffffffffull)
        throw FileFormatError(file, "CHECKSUM", "a 32-bit hexadecimal number", "'" + *ck + "'");
      plan.sum = GaugePlan::Sum::nersc;
      plan.stated[0] = static_cast<std::uint32_t>(stated);
    }
  }
  return plan;
}

std::string nersc_header(const qcd::Coords& d, const LinkEncoding& enc, std::uint32_t checksum,
                         double plaq, double trace, const GaugeWriteOptions& opts) {
  const std::string date = detail::now_text();
  std::string h = "BEGIN_HEADER\n";
  auto add = [&](const std::string& k, const std::string& v) { h += k + " = " + v + "\n"; };
  add("HDR_VERSION", "1.0");
  add("DATATYPE", enc.rows == 2 ? "4D_SU3_GAUGE" : "4D_SU3_GAUGE_3x3");
  add("STORAGE_FORMAT", "1.0");
  for (int mu = 0; mu < 4; ++mu) add("DIMENSION_" + std::to_string(mu + 1), std::to_string(d[mu]));
  for (int mu = 0; mu < 4; ++mu) add("BOUNDARY_" + std::to_string(mu + 1), "PERIODIC");
  add("CHECKSUM", hex32(checksum));
  add("LINK_TRACE", detail::format_real(trace, 16));
  add("PLAQUETTE", detail::format_real(plaq, 16));
  add("FLOATING_POINT", floating_point_name(enc.precision_bits, enc.big_endian));
  add("ENSEMBLE_ID", opts.ensemble_id);
  add("ENSEMBLE_LABEL", opts.ensemble_id);
  add("SEQUENCE_NUMBER", std::to_string(opts.sequence_number));
  add("CREATOR", "gluon");
  add("CREATOR_HARDWARE", "gluon");
  add("CREATION_DATE", date);
  add("ARCHIVE_DATE", date);
  h += "END_HEADER\n";
  return h;
}

}  // namespace detail

qcd::GaugeField read_nersc(const std::string& bytes, const std::string& file,
                           const GaugeReadOptions& opts, GaugeFileInfo& info) {
  const detail::GaugePlan plan = detail::nersc_plan(bytes, bytes.size(), file, opts, info);
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data()) + plan.data_offset;
  return detail::decode_verified(plan, data, file, opts, info);
}

void write_nersc(const std::string& path, const qcd::GaugeField& u, const GaugeWriteOptions& opts) {
  LinkEncoding enc;
  enc.precision_bits = opts.precision_bits;
  enc.big_endian = opts.big_endian;
  enc.rows = opts.nersc_two_rows ? 2 : 3;
  std::string data;
  encode_links(u, enc, data);

  // Observables of the links exactly as a reader will see them.
  const runtime::Exec ex = runtime::cpu_exec();
  double plaq, trace;
  if (enc.rows == 3 && enc.precision_bits == 64) {
    plaq = qcd::plaquette(u, ex).total;
    trace = qcd::link_trace(u, ex);
  } else {
    qcd::GaugeField stored = qcd::GaugeField::canonical(u.geometry());
    decode_links(reinterpret_cast<const unsigned char*>(data.data()), enc, stored);
    plaq = qcd::plaquette(stored, ex).total;
    trace = qcd::link_trace(stored, ex);
  }

  const std::string h = detail::nersc_header(u.geometry().global_dims(), enc,
                                             nersc_checksum(data.data(), data.size(), enc.big_endian),
                                             plaq, trace, opts);

  AtomicFile f(path);
  f.write(h);
  f.write(data);
  f.commit();
}

}  // namespace gluon::io
