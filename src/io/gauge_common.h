#pragma once
// Helpers shared by the gauge-file readers and writers of src/io (not a public header).
#include <array>
#include <cstdint>
#include <string>

#include "gluon/io/gauge_io.h"
#include "gluon/qcd/geometry.h"

namespace gluon::io::detail {

// Whole-number text -> value; FileFormatError(file, field, "an integer", text) otherwise.
long long parse_int(const std::string& file, const std::string& field, const std::string& text);
// Decimal/scientific text -> value; FileFormatError otherwise.
double parse_real(const std::string& file, const std::string& field, const std::string& text);

// Lattice extents as a file states them: each even and in [2, 2^20], the volume at most 2^40
// sites (FileFormatError naming the field otherwise). `fields` names each extent's field.
qcd::Geometry file_geometry(const std::string& file, const std::array<std::string, 4>& fields,
                            const std::array<long long, 4>& dims);

// FileFormatError unless found == expected bytes ("truncated" / "trailing bytes" in the message).
void require_bytes(const std::string& file, const std::string& field, std::uint64_t expected,
                   std::uint64_t found);

// Compares a value the file states with the one computed from its links, with a tolerance suited
// to the file precision plus half a unit of the last digit the header printed. Appends
// "<field> <value> (computed <value>)" to info.checks_passed; FileFormatError otherwise.
void verify_value(const std::string& file, const std::string& field, const std::string& header_text,
                  double header_value, double computed, int precision_bits, GaugeFileInfo& info);

// "%.*g" with the given number of significant digits.
std::string format_real(double v, int digits);

// Date/time now, as "Sat Nov 22 00:30:00 2025".
std::string now_text();

}  // namespace gluon::io::detail
