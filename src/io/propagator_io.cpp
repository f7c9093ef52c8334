#include "gluon/io/propagator_io.h"

#include <array>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <vector>

#include "gluon/io/atomic_file.h"
#include "gluon/io/byte_order.h"
#include "gluon/io/checksum.h"
#include "gluon/io/lime.h"
#include "gluon/runtime/error.h"
#include "distributed_file.h"
#include "gauge_common.h"

namespace gluon::io {

namespace {

const char* kHead = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>";

struct Shape {
  int nspin;      // 4 Dirac, 1 staggered
  int ncols;      // 12 or 3
  int complexes;  // per site: 144 or 9
};

Shape shape_of(int nspin) { return nspin == 4 ? Shape{4, 12, 144} : Shape{1, 3, 9}; }

std::string datatype_of(int nspin, int bits) {
  return std::string("QDP_") + (bits == 32 ? "F" : "D") + "3_" +
         (nspin == 4 ? "DiracPropagator" : "ColorMatrix");
}

// Complex index within a site's record for sink (spin a, colour c) and source column b.
int site_slot(const Shape& sh, int a, int c, int b) {
  if (sh.nspin == 1) return c * 3 + b;
  const int sb = b / 3, cb = b % 3;
  return ((a * 4 + sb) * 3 + c) * 3 + cb;
}

void put_real(unsigned char* p, double v, int bits) {
  if (bits == 64) {
    std::uint64_t w;
    std::memcpy(&w, &v, 8);
    store_be64(p, w);
  } else {
    const float f = static_cast<float>(v);
    std::uint32_t w;
    std::memcpy(&w, &f, 4);
    store_be32(p, w);
  }
}

double get_real(const unsigned char* p, int bits) {
  if (bits == 64) {
    const std::uint64_t w = load_be64(p);
    double v;
    std::memcpy(&v, &w, 8);
    return v;
  }
  const std::uint32_t w = load_be32(p);
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}

std::string required_xml(const std::string& file, const std::string& record, const std::string& xml,
                         const std::string& tag) {
  auto v = xml_value(xml, tag);
  if (!v) throw FileFormatError(file, record + " <" + tag + ">", "present", "missing");
  return *v;
}

}  // namespace

void write_propagator(const std::string& path, const std::vector<qcd::SpinorField>& columns,
                      const std::string& metadata_xml, int bits, comm::Communicator& comm) {
  const std::string what = path + ": propagator write";
  if (bits != 32 && bits != 64)
    throw InputError("propagator precision: expected 32 or 64 bits, found " + std::to_string(bits));
  if (columns.empty()) throw InputError("write_propagator: no columns");
  const qcd::Geometry& g = columns[0].geometry();
  const int nspin = columns[0].params().nspin;
  const Shape sh = shape_of(nspin);
  if (static_cast<int>(columns.size()) != sh.ncols)
    throw InputError("write_propagator: expected " + std::to_string(sh.ncols) + " columns, found " +
                     std::to_string(columns.size()));
  for (const auto& c : columns)
    if (!c.params().canonical() || c.params().subset != qcd::SiteSubset::full || !(c.geometry() == g) ||
        c.params().nspin != nspin)
      throw InputError("write_propagator: columns must be canonical full fields of one geometry, got " +
                       c.params().describe());
  detail::check_grid(g, comm, what);

  // This rank's rows (x-lines of its block) as stored, and its part of the checksums (XORs of
  // per-site terms that depend on the global site only, so the parts are XORed).
  const std::size_t rb = static_cast<std::size_t>(bits / 8);
  const std::size_t site_bytes = static_cast<std::size_t>(sh.complexes) * 2 * rb;
  const int lx = g.local_dims()[0];
  const std::size_t row_bytes = site_bytes * static_cast<std::size_t>(lx);
  std::vector<unsigned char> rows(site_bytes * static_cast<std::size_t>(g.volume()));
  std::vector<std::int64_t> row_lex;
  ScidacChecksum mine;
  detail::for_rows(g, [&](std::int64_t lex0, qcd::Coords x) {
    unsigned char* row = rows.data() + row_lex.size() * row_bytes;
    for (x[0] = 0; x[0] < lx; ++x[0]) {
      const std::int64_t s = g.eo_index(x);
      unsigned char* site = row + static_cast<std::size_t>(x[0]) * site_bytes;
      for (int b = 0; b < sh.ncols; ++b) {
        const double* v = static_cast<const double*>(columns[static_cast<std::size_t>(b)].data()) + s * 6 * nspin;
        for (int a = 0; a < nspin; ++a)
          for (int c = 0; c < 3; ++c) {
            const int slot = site_slot(sh, a, c, b);
            put_real(site + (2 * slot) * rb, v[(a * 3 + c) * 2], bits);
            put_real(site + (2 * slot + 1) * rb, v[(a * 3 + c) * 2 + 1], bits);
          }
      }
      mine.add_site(lex0 + x[0], site, site_bytes);
    }
    row_lex.push_back(lex0);
  });
  std::vector<ScidacChecksum> parts(static_cast<std::size_t>(comm.size()));
  comm.allgather(&mine, sizeof mine, parts.data());
  ScidacChecksum sum;
  for (const auto& p : parts) {
    sum.suma ^= p.suma;
    sum.sumb ^= p.sumb;
  }

  // The LIME records around the binary data, formed by rank 0.
  const auto& d = g.global_dims();
  const std::uint64_t payload = site_bytes * static_cast<std::uint64_t>(g.global_volume());
  std::string head, tail;
  if (comm.rank() == 0) {
    const std::string dims = std::to_string(d[0]) + " " + std::to_string(d[1]) + " " + std::to_string(d[2]) +
                             " " + std::to_string(d[3]) + " ";
    head = lime_record("scidac-private-file-xml",
                  std::string(kHead) + "<scidacFile><version>1.1</version><spacetime>4</spacetime><dims>" + dims +
                      "</dims><volfmt>0</volfmt></scidacFile>",
                  true, false) +
           lime_record("scidac-file-xml", std::string(kHead) + metadata_xml, false, true) +
           lime_record("scidac-private-record-xml",
                  std::string(kHead) + "<scidacRecord><version>1.1</version><recordtype>0</recordtype><datatype>" +
                      datatype_of(nspin, bits) + "</datatype><precision>" + (bits == 32 ? "F" : "D") +
                      "</precision><colors>3</colors><spins>" + std::to_string(nspin) + "</spins><typesize>" +
                      std::to_string(site_bytes) + "</typesize><datacount>1</datacount></scidacRecord>",
                  true, false) +
           lime_record("scidac-record-xml", std::string(kHead) + "<gluon><field>propagator</field></gluon>", false, false) +
           lime_record_header("scidac-binary-data", payload, false, false);
    tail = lime_padding(payload) +
           lime_record("scidac-checksum",
                  std::string(kHead) + "<scidacChecksum><version>1.0</version><suma>" + hex32(sum.suma) +
                      "</suma><sumb>" + hex32(sum.sumb) + "</sumb></scidacChecksum>",
                  false, true);
  }
  std::vector<std::uint64_t> offsets;
  for (std::int64_t lex : row_lex) offsets.push_back(static_cast<std::uint64_t>(lex) * site_bytes);
  detail::write_rows_collectively(path, what, comm, head, tail, payload, offsets, rows.data(), row_bytes);
}

void write_propagator(const std::string& path, const std::vector<qcd::SpinorField>& columns,
                      const std::string& metadata_xml, int bits) {
  const auto self = comm::make_single_communicator();
  write_propagator(path, columns, metadata_xml, bits, *self);
}

std::vector<qcd::SpinorField> read_propagator(const std::string& path, PropagatorFileInfo* info) {
  const std::string bytes = read_file(path);
  const auto records = lime_list(bytes, path);
  auto need = [&](const char* type) -> const LimeRecord& {
    const LimeRecord* r = lime_find(records, type);
    if (!r) throw FileFormatError(path, std::string("LIME record ") + type, "present", "missing");
    return *r;
  };
  const std::string pfile = record_text(bytes, need("scidac-private-file-xml"));
  const std::string prec = record_text(bytes, need("scidac-private-record-xml"));
  const std::string dims_text = required_xml(path, "scidac-private-file-xml", pfile, "dims");
  std::array<long long, 4> dims{};
  {
    std::istringstream in(dims_text);
    std::string extra;
    if (!(in >> dims[0] >> dims[1] >> dims[2] >> dims[3]) || (in >> extra))
      throw FileFormatError(path, "scidac-private-file-xml <dims>", "four lattice extents", "'" + dims_text + "'");
  }
  std::array<std::string, 4> dim_fields;
  for (int mu = 0; mu < 4; ++mu) dim_fields[mu] = "scidac-private-file-xml <dims> entry " + std::to_string(mu + 1);
  const qcd::Geometry g = detail::file_geometry(path, dim_fields, dims);
  const std::string dtype = required_xml(path, "scidac-private-record-xml", prec, "datatype");
  const std::string p = required_xml(path, "scidac-private-record-xml", prec, "precision");
  if (p != "F" && p != "D")
    throw FileFormatError(path, "scidac-private-record-xml <precision>", "F or D", "'" + p + "'");
  const int bits = p == "F" ? 32 : 64;
  int nspin = 0;
  if (dtype == datatype_of(4, bits)) nspin = 4;
  if (dtype == datatype_of(1, bits)) nspin = 1;
  if (nspin == 0)
    throw FileFormatError(path, "scidac-private-record-xml <datatype>",
                          datatype_of(4, bits) + " or " + datatype_of(1, bits), "'" + dtype + "'");
  const Shape sh = shape_of(nspin);
  const std::size_t rb = static_cast<std::size_t>(bits / 8);
  const std::size_t site_bytes = static_cast<std::size_t>(sh.complexes) * 2 * rb;
  // What the datatype implies, where the record states it (QIO writes all four).
  const auto expect_tag = [&](const char* tag, const std::string& want) {
    if (auto v = xml_value(prec, tag); v && *v != want)
      throw FileFormatError(path, std::string("scidac-private-record-xml <") + tag + ">", want + " (for " + dtype + ")",
                            "'" + *v + "'");
  };
  expect_tag("colors", "3");
  expect_tag("spins", std::to_string(nspin));
  expect_tag("typesize", std::to_string(site_bytes));
  expect_tag("datacount", "1");
  const LimeRecord& bin = need("scidac-binary-data");
  const std::uint64_t want = site_bytes * static_cast<std::uint64_t>(g.volume());
  if (bin.length != want)
    throw FileFormatError(path, "scidac-binary-data length", std::to_string(want) + " bytes",
                          std::to_string(bin.length) + " bytes");
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data()) + bin.data_offset;
  const std::string ck = record_text(bytes, need("scidac-checksum"));
  ScidacChecksum sum;
  for (std::int64_t l = 0; l < g.volume(); ++l) sum.add_site(l, data + static_cast<std::size_t>(l) * site_bytes, site_bytes);
  const std::string suma = required_xml(path, "scidac-checksum", ck, "suma");
  const std::string sumb = required_xml(path, "scidac-checksum", ck, "sumb");
  if (suma != hex32(sum.suma))
    throw FileFormatError(path, "scidac-checksum <suma>", suma + " (record)", hex32(sum.suma) + " computed from the data");
  if (sumb != hex32(sum.sumb))
    throw FileFormatError(path, "scidac-checksum <sumb>", sumb + " (record)", hex32(sum.sumb) + " computed from the data");

  std::vector<qcd::SpinorField> cols;
  qcd::SpinorFieldParams fp;
  fp.geometry = g;
  fp.nspin = nspin;
  for (int b = 0; b < sh.ncols; ++b) cols.emplace_back(fp);
  for (std::int64_t lex = 0; lex < g.volume(); ++lex) {
    std::int64_t r = lex;
    qcd::Coords gc;
    for (int mu = 0; mu < 4; ++mu) {
      gc[mu] = static_cast<int>(r % dims[mu]);
      r /= dims[mu];
    }
    const std::int64_t s = g.eo_index(gc);
    const unsigned char* site = data + static_cast<std::size_t>(lex) * site_bytes;
    for (int b = 0; b < sh.ncols; ++b) {
      double* v = static_cast<double*>(cols[static_cast<std::size_t>(b)].data()) + s * 6 * nspin;
      for (int a = 0; a < nspin; ++a)
        for (int c = 0; c < 3; ++c) {
          const int slot = site_slot(sh, a, c, b);
          v[(a * 3 + c) * 2] = get_real(site + (2 * slot) * rb, bits);
          v[(a * 3 + c) * 2 + 1] = get_real(site + (2 * slot + 1) * rb, bits);
        }
    }
  }
  if (info) {
    info->datatype = dtype;
    info->precision_bits = bits;
    if (const LimeRecord* fx = lime_find(records, "scidac-file-xml")) info->metadata_xml = record_text(bytes, *fx);
  }
  return cols;
}

}  // namespace gluon::io
