#pragma once
// Helpers shared by the gauge-file readers and writers of src/io (not a public header).
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gluon/io/gauge_io.h"
#include "gluon/io/lime.h"
#include "gluon/io/link_codec.h"
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

// What a reader needs to take the links out of a file, whole or one block of rows at a time (the
// single-process readers and read_gauge_distributed share it). Made by the per-format *_plan()
// functions from the header alone, which also fill GaugeFileInfo.
struct GaugePlan {
  qcd::Geometry geometry;  // the file's lattice (single process)
  LinkEncoding enc;
  std::uint64_t data_offset = 0;  // where the links start in the file
  enum class Sum { none, nersc, milc, scidac } sum = Sum::none;  // none unless opts.verify
  std::uint32_t stated[2] = {0, 0};  // the checksum(s) the file states
  std::string plaquette_text, link_trace_text;  // values the header states ("" = absent)
};

// `head`: the file's first bytes (at least the whole NERSC header); `file_size`: its size.
GaugePlan nersc_plan(const std::string& head, std::uint64_t file_size, const std::string& file,
                     const GaugeReadOptions& opts, GaugeFileInfo& info);
// `head`: min(file size, 96) bytes.
GaugePlan milc_plan(const unsigned char* head, std::uint64_t file_size, const std::string& file,
                    const GaugeReadOptions& opts, GaugeFileInfo& info);
// `text(r)`: the data of a (non-binary) record as text, trailing NULs removed.
GaugePlan lime_plan(const std::vector<LimeRecord>& records,
                    const std::function<std::string(const LimeRecord&)>& text, const std::string& file,
                    const GaugeReadOptions& opts, GaugeFileInfo& info);

// Checksums of any set of runs of consecutive sites, combined over ranks by combine().
struct PartialSums {
  std::uint32_t a = 0, b = 0;
  // `n` sites whose first has global lexicographic index `first_lex`, `bytes` as stored.
  void add(const GaugePlan& plan, std::int64_t first_lex, const unsigned char* bytes, std::int64_t n);
};
// Combines rank partials in place: NERSC adds mod 2^32, MILC and SciDAC XOR.
PartialSums combine(const GaugePlan& plan, const std::vector<PartialSums>& parts);
// FileFormatError naming the checksum field when the computed sums differ from the stated ones;
// appends the check to info.checks_passed otherwise. Nothing for Sum::none.
void verify_sums(const GaugePlan& plan, const PartialSums& computed, const std::string& file,
                 GaugeFileInfo& info);
// Checks the stated plaquette / link trace (when present and opts.verify) against the values the
// functions compute (called only when needed).
void verify_header_values(const GaugePlan& plan, const std::function<double()>& plaquette,
                          const std::function<double()>& link_trace, const std::string& file,
                          const GaugeReadOptions& opts, GaugeFileInfo& info);

// The whole-file read's last steps, shared by the NERSC and LIME readers: the checksums of the
// stored bytes at `data` (the plan's data_offset), the decode, then the stated plaquette and link
// trace against the decoded field.
qcd::GaugeField decode_verified(const GaugePlan& plan, const unsigned char* data, const std::string& file,
                                const GaugeReadOptions& opts, GaugeFileInfo& info);

// Format of a file from its first bytes; `lime_records` lists a LIME file's records.
GaugeFormat classify_gauge(const unsigned char* first, std::size_t n, const std::string& file,
                           const std::function<std::vector<LimeRecord>()>& lime_records);

// Headers as written (write_nersc / write_milc and the distributed writer share them).
std::string nersc_header(const qcd::Coords& dims, const LinkEncoding& enc, std::uint32_t checksum,
                         double plaquette, double link_trace, const GaugeWriteOptions& opts);
std::string milc_header(const qcd::Coords& dims, bool big_endian, std::uint32_t sum29, std::uint32_t sum31);

// The records of a LIME gauge file around the link data: `before` ends with the binary record's
// header, `after` is the data's padding and the checksum record (write_lime_gauge's layout).
struct LimeGaugeLayout {
  std::string before, after;
};
LimeGaugeLayout lime_gauge_layout(const qcd::Coords& dims, int bits, const GaugeWriteOptions& opts,
                                  const std::string& lfn, double plaquette, double link_trace,
                                  std::uint32_t suma, std::uint32_t sumb, std::uint64_t data_length);

// InputError for write options no format accepts (precision, ensemble id; MILC needs 32 bits).
void check_write_options(const std::string& path, const GaugeWriteOptions& opts);

// "%.*g" with the given number of significant digits.
std::string format_real(double v, int digits);

// Date/time now, as "Sat Nov 22 00:30:00 2025".
std::string now_text();

}  // namespace gluon::io::detail
