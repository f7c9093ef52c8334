#include "gauge_common.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "gluon/qcd/observables.h"
#include "gluon/runtime/error.h"

namespace gluon::io::detail {

long long parse_int(const std::string& file, const std::string& field, const std::string& text) {
  const char* b = text.c_str();
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(b, &end, 10);
  while (end && (*end == ' ' || *end == '\t')) ++end;
  if (text.empty() || end == b || *end != '\0' || errno == ERANGE)
    throw FileFormatError(file, field, "an integer", "'" + text + "'");
  return v;
}

double parse_real(const std::string& file, const std::string& field, const std::string& text) {
  const char* b = text.c_str();
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(b, &end);
  while (end && (*end == ' ' || *end == '\t')) ++end;
  if (text.empty() || end == b || *end != '\0' || errno == ERANGE || !std::isfinite(v))
    throw FileFormatError(file, field, "a finite real number", "'" + text + "'");
  return v;
}

qcd::Geometry file_geometry(const std::string& file, const std::array<std::string, 4>& fields,
                            const std::array<long long, 4>& dims) {
  long double vol = 1;
  qcd::Coords c{};
  for (int mu = 0; mu < 4; ++mu) {
    if (dims[mu] < 2 || dims[mu] > (1 << 20) || dims[mu] % 2 != 0)
      throw FileFormatError(file, fields[mu], "an even lattice extent >= 2",
                            std::to_string(dims[mu]));
    vol *= static_cast<long double>(dims[mu]);
    c[mu] = static_cast<int>(dims[mu]);
  }
  if (vol > static_cast<long double>(1ll << 40))
    throw FileFormatError(file, "lattice volume", "at most 2^40 sites",
                          std::to_string(c[0]) + "x" + std::to_string(c[1]) + "x" +
                              std::to_string(c[2]) + "x" + std::to_string(c[3]));
  return qcd::Geometry(c);
}

void require_bytes(const std::string& file, const std::string& field, std::uint64_t expected,
                   std::uint64_t found) {
  if (found == expected) return;
  throw FileFormatError(file, field, std::to_string(expected) + " bytes",
                        std::to_string(found) + " bytes" +
                            (found < expected ? " (file truncated)" : " (trailing bytes)"));
}

std::string format_real(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

void verify_value(const std::string& file, const std::string& field, const std::string& header_text,
                  double header_value, double computed, int precision_bits, GaugeFileInfo& info) {
  // Half a unit of the last printed digit (fixed or scientific notation).
  double last_digit = 0;
  const auto dot = header_text.find('.');
  if (dot != std::string::npos) {
    std::size_t n = 0;
    while (dot + 1 + n < header_text.size() &&
           std::isdigit(static_cast<unsigned char>(header_text[dot + 1 + n])))
      ++n;
    int exp10 = 0;
    const auto e = header_text.find_first_of("eE");
    if (e != std::string::npos) exp10 = std::atoi(header_text.c_str() + e + 1);
    last_digit = 0.5 * std::pow(10.0, exp10 - static_cast<int>(n));
  }
  const double rel = precision_bits == 32 ? 1e-6 : 1e-10;
  const double tol = rel * std::max(1.0, std::fabs(header_value)) + last_digit;
  if (!(std::fabs(header_value - computed) <= tol))
    throw FileFormatError(file, field, header_text + " (the header's value, tolerance " +
                                           format_real(tol, 2) + ")",
                          format_real(computed, 12) + " computed from the links");
  info.checks_passed.push_back(field + " " + header_text + " (computed " + format_real(computed, 12) + ")");
}

std::string now_text() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%a %b %e %H:%M:%S %Y UTC", &tm);
  return buf;
}

}  // namespace gluon::io::detail

// ---- plans, partial checksums and checks shared by the whole-file and distributed readers ----

#include <cstring>

#include "gluon/io/byte_order.h"
#include "gluon/io/checksum.h"
#include "gluon/io/milc.h"

namespace gluon::io::detail {

void PartialSums::add(const GaugePlan& plan, std::int64_t first_lex, const unsigned char* bytes,
                      std::int64_t n) {
  const std::size_t sb = plan.enc.site_bytes();
  switch (plan.sum) {
    case GaugePlan::Sum::none: return;
    case GaugePlan::Sum::nersc:
      a += nersc_checksum(bytes, sb * static_cast<std::size_t>(n), plan.enc.big_endian);
      return;
    case GaugePlan::Sum::milc: {
      MilcChecksum m{a, b};
      const bool swap = plan.enc.big_endian == host_is_little_endian;
      std::vector<std::uint32_t> words(sb / 4);
      for (std::int64_t k = 0; k < n; ++k) {
        std::memcpy(words.data(), bytes + static_cast<std::size_t>(k) * sb, sb);
        if (swap)
          for (auto& w : words) w = byteswap32(w);
        m.add_words(words.data(), words.size(), static_cast<std::uint64_t>(first_lex + k) * (sb / 4));
      }
      a = m.sum29, b = m.sum31;
      return;
    }
    case GaugePlan::Sum::scidac: {
      ScidacChecksum c{a, b};
      for (std::int64_t k = 0; k < n; ++k) c.add_site(first_lex + k, bytes + static_cast<std::size_t>(k) * sb, sb);
      a = c.suma, b = c.sumb;
      return;
    }
  }
}

PartialSums combine(const GaugePlan& plan, const std::vector<PartialSums>& parts) {
  PartialSums r;
  for (const auto& p : parts) {
    if (plan.sum == GaugePlan::Sum::nersc) {
      r.a += p.a;
    } else {
      r.a ^= p.a;
      r.b ^= p.b;
    }
  }
  return r;
}

void verify_sums(const GaugePlan& plan, const PartialSums& c, const std::string& file, GaugeFileInfo& info) {
  const auto mismatch = [&](const std::string& field, std::uint32_t stated, std::uint32_t computed,
                            const char* where) {
    throw FileFormatError(file, field, hex32(stated) + where,
                          hex32(computed) + " computed from the data (corrupted file?)");
  };
  switch (plan.sum) {
    case GaugePlan::Sum::none: return;
    case GaugePlan::Sum::nersc:
      if (c.a != plan.stated[0]) mismatch("CHECKSUM", plan.stated[0], c.a, " (header)");
      info.checks_passed.push_back("CHECKSUM 0x" + hex32(c.a));
      return;
    case GaugePlan::Sum::milc:
      if (c.a != plan.stated[0]) mismatch("MILC checksum sum29", plan.stated[0], c.a, " (header)");
      if (c.b != plan.stated[1]) mismatch("MILC checksum sum31", plan.stated[1], c.b, " (header)");
      info.checks_passed.push_back("MILC checksums sum29 0x" + hex32(c.a) + " sum31 0x" + hex32(c.b));
      return;
    case GaugePlan::Sum::scidac:
      if (c.a != plan.stated[0]) mismatch("scidac-checksum <suma>", plan.stated[0], c.a, " (record)");
      if (c.b != plan.stated[1]) mismatch("scidac-checksum <sumb>", plan.stated[1], c.b, " (record)");
      info.checks_passed.push_back("SciDAC checksum suma 0x" + hex32(c.a) + " sumb 0x" + hex32(c.b));
      return;
  }
}

void verify_header_values(const GaugePlan& plan, const std::function<double()>& plaquette,
                          const std::function<double()>& link_trace, const std::string& file,
                          const GaugeReadOptions& opts, GaugeFileInfo& info) {
  if (!opts.verify) return;
  if (!plan.plaquette_text.empty())
    verify_value(file, "PLAQUETTE", plan.plaquette_text, *info.header_plaquette, plaquette(),
                 plan.enc.precision_bits, info);
  if (!plan.link_trace_text.empty())
    verify_value(file, "LINK_TRACE", plan.link_trace_text, *info.header_link_trace, link_trace(),
                 plan.enc.precision_bits, info);
}

qcd::GaugeField decode_verified(const GaugePlan& plan, const unsigned char* data, const std::string& file,
                                const GaugeReadOptions& opts, GaugeFileInfo& info) {
  PartialSums sums;
  sums.add(plan, 0, data, plan.geometry.volume());
  verify_sums(plan, sums, file, info);
  qcd::GaugeField u = qcd::GaugeField::canonical(plan.geometry);
  decode_links(data, plan.enc, u);
  const runtime::Exec ex = runtime::cpu_exec();
  verify_header_values(
      plan, [&] { return qcd::plaquette(u, ex).total; }, [&] { return qcd::link_trace(u, ex); }, file, opts,
      info);
  return u;
}

void check_write_options(const std::string& path, const GaugeWriteOptions& o) {
  if (o.precision_bits != 32 && o.precision_bits != 64)
    throw InputError(path + ": precision: expected 32 or 64, found " + std::to_string(o.precision_bits));
  for (unsigned char c : o.ensemble_id)
    if (c < 0x20 || c >= 0x7f || c == '<' || c == '>' || c == '&')
      throw InputError(path + ": ensemble id '" + o.ensemble_id +
                       "': expected printable ASCII without newlines or <, >, &");
  if (o.format == GaugeFormat::milc && o.precision_bits != 32)
    throw InputError("MILC binary gauge files are float32: expected precision 32, found " +
                     std::to_string(o.precision_bits));
}

GaugeFormat classify_gauge(const unsigned char* first, std::size_t n, const std::string& file,
                           const std::function<std::vector<LimeRecord>()>& lime_records) {
  static const char* const nersc_begin = "BEGIN_HEADER";
  if (n >= std::strlen(nersc_begin) && std::memcmp(first, nersc_begin, std::strlen(nersc_begin)) == 0)
    return GaugeFormat::nersc;
  if (n >= 4 && load_be32(first) == lime_magic)
    return lime_find(lime_records(), "ildg-format") ? GaugeFormat::ildg : GaugeFormat::scidac;
  bool swapped = false;
  if (n >= 4 && is_milc_magic(first, swapped)) return GaugeFormat::milc;
  std::string found = n == 0 ? "an empty file" : "first bytes 0x";
  for (std::size_t i = 0; i < std::min<std::size_t>(n, 8); ++i) {
    char b[4];
    std::snprintf(b, sizeof b, "%02x", first[i]);
    found += b;
  }
  throw FileFormatError(file, "format",
                        "a gauge file: NERSC (BEGIN_HEADER), LIME/ILDG/SciDAC (magic 0x456789ab) or "
                        "MILC (magic 20103)",
                        found);
}

}  // namespace gluon::io::detail
