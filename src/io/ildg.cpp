#include "gluon/io/ildg.h"

#include <sstream>

#include "gauge_common.h"
#include "gluon/io/atomic_file.h"
#include "gluon/io/checksum.h"
#include "gluon/io/lime.h"
#include "gluon/io/link_codec.h"
#include "gluon/qcd/observables.h"
#include "gluon/runtime/error.h"

namespace gluon::io {

namespace {

std::string required(const std::string& file, const std::string& record, const std::string& xml,
                     const std::string& tag) {
  auto v = xml_value(xml, tag);
  if (!v) throw FileFormatError(file, record + " <" + tag + ">", "an element <" + tag + ">", "none");
  return *v;
}

std::uint32_t parse_hex(const std::string& file, const std::string& field, const std::string& t) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(t.c_str(), &end, 16);
  if (t.empty() || *end != '\0' || v > 0xffffffffull)
    throw FileFormatError(file, field, "a 32-bit hexadecimal number", "'" + t + "'");
  return static_cast<std::uint32_t>(v);
}

}  // namespace

namespace detail {

GaugePlan lime_plan(const std::vector<LimeRecord>& records,
                    const std::function<std::string(const LimeRecord&)>& text, const std::string& file,
                    const GaugeReadOptions& opts, GaugeFileInfo& info) {
  std::string names;
  for (const auto& r : records) {
    names += (names.empty() ? "" : ", ") + r.type;
    if (r.type.find("binary-data") == std::string::npos)
      info.header.emplace_back(r.type, text(r));
  }
  const LimeRecord* bin = lime_find(records, "ildg-binary-data");
  if (!bin) bin = lime_find(records, "scidac-binary-data");
  if (!bin)
    throw FileFormatError(file, "LIME record ildg-binary-data",
                          "a record ildg-binary-data or scidac-binary-data", "records: " + names);
  const LimeRecord* ildg = lime_find(records, "ildg-format");
  const LimeRecord* pfile = lime_find(records, "scidac-private-file-xml");
  const LimeRecord* prec = lime_find(records, "scidac-private-record-xml");
  info.format = ildg ? GaugeFormat::ildg : GaugeFormat::scidac;
  info.big_endian = true;

  std::array<long long, 4> dims{};
  std::array<std::string, 4> dim_fields;
  int bits = 0;
  if (ildg) {
    const std::string xml = text(*ildg);
    const std::string field = required(file, "ildg-format", xml, "field");
    if (field != "su3gauge")
      throw FileFormatError(file, "ildg-format <field>", "su3gauge", "'" + field + "'");
    const char* tags[4] = {"lx", "ly", "lz", "lt"};
    for (int mu = 0; mu < 4; ++mu) {
      dim_fields[mu] = std::string("ildg-format <") + tags[mu] + ">";
      dims[mu] = detail::parse_int(file, dim_fields[mu], required(file, "ildg-format", xml, tags[mu]));
    }
    const std::string p = required(file, "ildg-format", xml, "precision");
    const long long pb = detail::parse_int(file, "ildg-format <precision>", p);
    if (pb != 32 && pb != 64)
      throw FileFormatError(file, "ildg-format <precision>", "32 or 64", "'" + p + "'");
    bits = static_cast<int>(pb);
  }
  if (pfile) {
    const std::string xml = text(*pfile);
    if (auto d = xml_value(xml, "dims")) {
      std::istringstream in(*d);
      std::array<long long, 4> sd{};
      std::string extra;
      if (!(in >> sd[0] >> sd[1] >> sd[2] >> sd[3]) || (in >> extra))
        throw FileFormatError(file, "scidac-private-file-xml <dims>", "four lattice extents", "'" + *d + "'");
      if (ildg && sd != dims)
        throw FileFormatError(file, "scidac-private-file-xml <dims>",
                              "the ildg-format extents " + std::to_string(dims[0]) + " " +
                                  std::to_string(dims[1]) + " " + std::to_string(dims[2]) + " " +
                                  std::to_string(dims[3]),
                              "'" + *d + "'");
      if (!ildg) {
        dims = sd;
        for (int mu = 0; mu < 4; ++mu)
          dim_fields[mu] = "scidac-private-file-xml <dims> entry " + std::to_string(mu + 1);
      }
    } else if (!ildg) {
      throw FileFormatError(file, "scidac-private-file-xml <dims>", "the lattice extents", "no <dims>");
    }
  } else if (!ildg) {
    throw FileFormatError(file, "LIME record ildg-format", "ildg-format or scidac-private-file-xml (lattice extents)",
                          "records: " + names);
  }
  std::string datatype;
  if (prec) {
    const std::string xml = text(*prec);
    datatype = required(file, "scidac-private-record-xml", xml, "datatype");
    const auto p = required(file, "scidac-private-record-xml", xml, "precision");
    if (p != "F" && p != "D")
      throw FileFormatError(file, "scidac-private-record-xml <precision>", "F or D", "'" + p + "'");
    const int sb = p == "F" ? 32 : 64;
    const std::string want_type = std::string(p == "F" ? "F" : "D") + "3_ColorMatrix";
    if (datatype != "QDP_" + want_type && datatype != "USQCD_" + want_type)
      throw FileFormatError(file, "scidac-private-record-xml <datatype>",
                            "QDP_" + want_type + " (precision " + p + ")", "'" + datatype + "'");
    if (auto c = xml_value(xml, "colors"); c && *c != "3")
      throw FileFormatError(file, "scidac-private-record-xml <colors>", "3", "'" + *c + "'");
    if (auto c = xml_value(xml, "datacount"); c && *c != "4")
      throw FileFormatError(file, "scidac-private-record-xml <datacount>", "4", "'" + *c + "'");
    if (auto c = xml_value(xml, "typesize"); c && *c != std::to_string(sb == 32 ? 72 : 144))
      throw FileFormatError(file, "scidac-private-record-xml <typesize>", sb == 32 ? "72" : "144", "'" + *c + "'");
    if (bits != 0 && bits != sb)
      throw FileFormatError(file, "scidac-private-record-xml <precision>",
                            bits == 32 ? "F (ildg-format says 32)" : "D (ildg-format says 64)", "'" + p + "'");
    bits = sb;
  }
  if (bits == 0)
    throw FileFormatError(file, "precision", "ildg-format <precision> or scidac-private-record-xml <precision>",
                          "neither record; records: " + names);

  GaugePlan plan;
  plan.geometry = detail::file_geometry(file, dim_fields, dims);
  const qcd::Geometry& g = plan.geometry;
  LinkEncoding& enc = plan.enc;
  enc.precision_bits = bits;
  enc.big_endian = true;
  enc.rows = 3;
  info.dims = g.global_dims();
  info.precision_bits = bits;
  info.format_detail = std::string(ildg ? "ILDG su3gauge" : "SciDAC " + datatype) + " " +
                       std::to_string(bits) + "-bit big-endian (LIME record " + bin->type + ")";
  detail::require_bytes(file, "LIME record " + bin->type + " length (" + g.to_string() + ", " +
                                  std::to_string(bits) + "-bit)",
                        payload_bytes(enc, g.volume()), bin->length);
  plan.data_offset = bin->data_offset;

  if (opts.verify) {
    if (const LimeRecord* ck = lime_find(records, "scidac-checksum")) {
      const std::string xml = text(*ck);
      const std::uint32_t a = parse_hex(file, "scidac-checksum <suma>", required(file, "scidac-checksum", xml, "suma"));
      const std::uint32_t b = parse_hex(file, "scidac-checksum <sumb>", required(file, "scidac-checksum", xml, "sumb"));
      plan.sum = GaugePlan::Sum::scidac;
      plan.stated[0] = a;
      plan.stated[1] = b;
    }
  }

  // gluon's own files carry the plaquette and link trace in scidac-file-xml.
  if (const LimeRecord* fx = lime_find(records, "scidac-file-xml")) {
    const std::string xml = text(*fx);
    if (xml.find("<gluon>") != std::string::npos) {
      const auto pt = xml_value(xml, "plaquette");
      const auto lt = xml_value(xml, "link_trace");
      if (pt) {
        info.header_plaquette = detail::parse_real(file, "scidac-file-xml <plaquette>", *pt);
        plan.plaquette_text = *pt;
      }
      if (lt) {
        info.header_link_trace = detail::parse_real(file, "scidac-file-xml <link_trace>", *lt);
        plan.link_trace_text = *lt;
      }
    }
  }
  return plan;
}

}  // namespace detail

qcd::GaugeField read_lime_gauge(const std::string& bytes, const std::string& file,
                                const GaugeReadOptions& opts, GaugeFileInfo& info) {
  const auto records = lime_list(bytes, file);
  const detail::GaugePlan plan = detail::lime_plan(
      records, [&](const LimeRecord& r) { return record_text(bytes, r); }, file, opts, info);
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data()) + plan.data_offset;
  return detail::decode_verified(plan, data, file, opts, info);
}

namespace detail {

LimeGaugeLayout lime_gauge_layout(const qcd::Coords& d, int bits, const GaugeWriteOptions& opts,
                                  const std::string& lfn, double plaq, double trace, std::uint32_t suma,
                                  std::uint32_t sumb, std::uint64_t data_length) {
  const bool ildg = opts.format == GaugeFormat::ildg;
  const std::string head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>";
  const std::string dims_text = std::to_string(d[0]) + " " + std::to_string(d[1]) + " " +
                                std::to_string(d[2]) + " " + std::to_string(d[3]) + " ";
  const bool f32 = bits == 32;
  const std::string date = detail::now_text();

  const std::string private_file = head + "<scidacFile><version>1.1</version><spacetime>4</spacetime><dims>" +
                                   dims_text + "</dims><volfmt>0</volfmt></scidacFile>";
  const std::string file_xml = head + "<gluon><creator>gluon</creator><ensemble_id>" + opts.ensemble_id +
                               "</ensemble_id><sequence_number>" + std::to_string(opts.sequence_number) +
                               "</sequence_number><plaquette>" + detail::format_real(plaq, 16) +
                               "</plaquette><link_trace>" + detail::format_real(trace, 16) +
                               "</link_trace><date>" + date + "</date></gluon>";
  const std::string private_record =
      head + "<scidacRecord><version>1.1</version><date>" + date +
      "</date><recordtype>0</recordtype><datatype>" + (f32 ? "QDP_F3_ColorMatrix" : "QDP_D3_ColorMatrix") +
      "</datatype><precision>" + (f32 ? "F" : "D") + "</precision><colors>3</colors><spins>1</spins><typesize>" +
      (f32 ? "72" : "144") + "</typesize><datacount>4</datacount></scidacRecord>";
  const std::string record_xml = head + "<gluon><field>gauge</field></gluon>";
  const std::string ildg_format =
      head +
      "<ildgFormat xmlns=\"http://www.lqcd.org/ildg\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
      "xsi:schemaLocation=\"http://www.lqcd.org/ildg/filefmt.xsd\"><version>1.0</version><field>su3gauge</field>"
      "<precision>" +
      std::to_string(bits) + "</precision><lx>" + std::to_string(d[0]) + "</lx><ly>" +
      std::to_string(d[1]) + "</ly><lz>" + std::to_string(d[2]) + "</lz><lt>" + std::to_string(d[3]) +
      "</lt></ildgFormat>";
  const std::string checksum = head + "<scidacChecksum><version>1.0</version><suma>" + hex32(suma) +
                               "</suma><sumb>" + hex32(sumb) + "</sumb></scidacChecksum>";

  LimeGaugeLayout l;
  auto rec = [&](const std::string& type, const std::string& data, bool mb, bool me) {
    l.before += lime_record(type, data, mb, me);
  };
  rec("scidac-private-file-xml", private_file, true, false);
  rec("scidac-file-xml", file_xml, false, true);
  rec("scidac-private-record-xml", private_record, true, false);
  rec("scidac-record-xml", record_xml, false, false);
  if (ildg) {
    rec("ildg-format", ildg_format, false, false);
    if (!lfn.empty()) rec("ildg-data-lfn", lfn, false, false);
  }
  l.before += lime_record_header(ildg ? "ildg-binary-data" : "scidac-binary-data", data_length, false, false);
  l.after = lime_padding(data_length) + lime_record("scidac-checksum", checksum, false, true);
  return l;
}

}  // namespace detail

void write_lime_gauge(const std::string& path, const qcd::GaugeField& u, const GaugeWriteOptions& opts,
                      const std::string& lfn) {
  LinkEncoding enc;
  enc.precision_bits = opts.precision_bits;
  enc.big_endian = true;
  enc.rows = 3;
  std::string data;
  encode_links(u, enc, data);
  const qcd::Geometry& g = u.geometry();
  ScidacChecksum sum;
  const std::size_t sb = enc.site_bytes();
  for (std::int64_t l = 0; l < g.volume(); ++l)
    sum.add_site(l, reinterpret_cast<const unsigned char*>(data.data()) + l * sb, sb);

  const runtime::Exec ex = runtime::cpu_exec();
  double plaq, trace;
  if (enc.precision_bits == 64) {
    plaq = qcd::plaquette(u, ex).total;
    trace = qcd::link_trace(u, ex);
  } else {
    qcd::GaugeField stored = qcd::GaugeField::canonical(g);
    decode_links(reinterpret_cast<const unsigned char*>(data.data()), enc, stored);
    plaq = qcd::plaquette(stored, ex).total;
    trace = qcd::link_trace(stored, ex);
  }

  const detail::LimeGaugeLayout l = detail::lime_gauge_layout(g.global_dims(), enc.precision_bits, opts, lfn,
                                                             plaq, trace, sum.suma, sum.sumb, data.size());
  AtomicFile f(path);
  f.write(l.before);
  f.write(data);
  f.write(l.after);
  f.commit();
}

}  // namespace gluon::io
