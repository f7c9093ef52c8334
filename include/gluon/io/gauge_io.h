#pragma once
// Gauge-field files: one entry point for every supported format. Formats and their checks are
// described in nersc.h, ildg.h (ILDG and SciDAC, both LIME), milc.h; ../shared/testdata/gauge/
// holds files written by MILC, Chroma and PyQUDA that the tests read.
//
//   GaugeFormat            nersc | ildg | scidac | milc; to_string / parse_gauge_format
//                          ("nersc", "ildg", "scidac", "milc"; InputError otherwise)
//   GaugeReadOptions       verify: check checksums, PLAQUETTE and LINK_TRACE (default on);
//                          reunitarize: project every link back onto SU(3) in double after the
//                          checks (qcd::reunitarize; moves results in the 7th digit of 32-bit files)
//   GaugeFileInfo          what the file said (format, dims, precision, byte order, header
//                          key/values or XML records, header plaquette/link trace) and what was
//                          checked ("CHECKSUM 0x...", "PLAQUETTE ...", "SciDAC suma/sumb ...")
//   GaugeWriteOptions      format, precision (32 | 64), NERSC two-row storage, byte order (NERSC
//                          and MILC; LIME is always big-endian), ensemble id, sequence number
//   detect_gauge_format    by content (NERSC header, LIME magic + ildg-format record, MILC
//                          magic 20103 in either byte order), never by name; FileFormatError
//   read_gauge             any supported file -> canonical GaugeField (double, even-odd order)
//   write_gauge            canonical (or any host) field -> file, atomically (temporary + rename)
//
// Every malformed, truncated or inconsistent input throws FileFormatError(file, field, expected,
// found); operating-system failures throw IoError. read_gauge / write_gauge: single-process
// geometry only.
//
// Distributed (a lattice split over a process grid; collective over `comm`, whose size must be the
// grid's volume, ranks ordered as comm::ProcessGrid, x fastest; InputError otherwise). Every format
// stores sites in global lexicographic order, so each x-row of a rank's block is contiguous:
//   read_gauge_distributed   every rank reads only its own rows (pread at their offsets; memory:
//                            its block plus one row, never the whole lattice), and the header;
//                            checksums are combined over ranks as they are defined (NERSC: sum
//                            mod 2^32; SciDAC suma/sumb and MILC sum29/sum31: XOR of the terms);
//                            the header's plaquette / link trace are checked with the distributed
//                            observables. The file's lattice must be local.global_dims().
//   write_gauge_distributed  every rank encodes its rows and pwrites them at their offsets into
//                            one temporary file "<path>.tmp.<pid of rank 0>", which rank 0
//                            created with the header (formed after the global reductions: checksum,
//                            plaquette and link trace of the links as stored) and renames onto
//                            <path> once every rank's rows are on disk. Same bytes as write_gauge
//                            of the gathered field, except the dates. `local` may have any storage
//                            (converted to canonical first).
// An error on any rank (an unreadable file, a failed write) is thrown on every rank: the failing
// ranks throw their own error, the others an IoError that says another rank failed.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gluon/comm/communicator.h"
#include "gluon/qcd/gauge_field.h"

namespace gluon::io {

enum class GaugeFormat { nersc, ildg, scidac, milc };
std::string to_string(GaugeFormat f);
GaugeFormat parse_gauge_format(const std::string& name);

struct GaugeReadOptions {
  bool verify = true;
  bool reunitarize = false;
};

struct GaugeFileInfo {
  std::string path;
  GaugeFormat format = GaugeFormat::nersc;
  std::string format_detail;  // e.g. "NERSC 4D_SU3_GAUGE IEEE32BIG"
  qcd::Coords dims{};
  int precision_bits = 0;
  bool big_endian = true;
  int stored_rows = 3;  // rows of each link in the file; 2 (NERSC 4D_SU3_GAUGE): the third rebuilt as for SU(3)
  std::vector<std::pair<std::string, std::string>> header;  // key/values or LIME records
  std::optional<double> header_plaquette, header_link_trace;
  std::vector<std::string> checks_passed;
  bool reunitarized = false;
  double max_unitarity_deviation = 0;  // of the links as read (before any re-unitarisation)
};

struct GaugeWriteOptions {
  GaugeFormat format = GaugeFormat::nersc;
  int precision_bits = 64;
  bool nersc_two_rows = false;
  bool big_endian = true;
  std::string ensemble_id = "gluon";
  int sequence_number = 0;
};

GaugeFormat detect_gauge_format(const std::string& path);
qcd::GaugeField read_gauge(const std::string& path, const GaugeReadOptions& opts = {},
                           GaugeFileInfo* info = nullptr);
void write_gauge(const std::string& path, const qcd::GaugeField& u, const GaugeWriteOptions& opts);

qcd::GaugeField read_gauge_distributed(const std::string& path, const qcd::Geometry& local,
                                       comm::Communicator& comm, const GaugeReadOptions& opts = {},
                                       GaugeFileInfo* info = nullptr);
void write_gauge_distributed(const std::string& path, const qcd::GaugeField& local,
                             const GaugeWriteOptions& opts, comm::Communicator& comm);

}  // namespace gluon::io
