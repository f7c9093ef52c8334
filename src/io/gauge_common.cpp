#include "gauge_common.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>

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
