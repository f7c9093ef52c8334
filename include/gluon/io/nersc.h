#pragma once
// NERSC gauge files (the "Gauge Connection" archive format; written by MILC, Chroma, Grid, ...).
// A text header
//     BEGIN_HEADER
//     KEY = VALUE            (one per line; MILC adds MILC_INFO blocks of lower-case keys)
//     END_HEADER
// followed by the links: sites in lexicographic order (x fastest), mu = x,y,z,t, row-major complex
// 3x3 (DATATYPE 4D_SU3_GAUGE_3x3) or its first two rows (4D_SU3_GAUGE, third row rebuilt as
// conj(row0 x row1) in double). FLOATING_POINT IEEE32 | IEEE32BIG | IEEE32LITTLE | IEEE64BIG |
// IEEE64LITTLE (also IEEE64 = IEEE64BIG); absent means IEEE32BIG (MILC's writer omits it).
// CHECKSUM is the 32-bit word sum of the data as stored (checksum.h); PLAQUETTE and LINK_TRACE
// are mean Re tr / 3 (qcd/observables.h).
//
//   NerscHeader      the parsed header: key/values in file order, offset of the binary data
//   parse_nersc_header  FileFormatError naming the line for a malformed header
//   read_nersc       parses, checks sizes, decodes; verifies CHECKSUM, PLAQUETTE and LINK_TRACE
//                    when opts.verify (each FileFormatError names the field and both values)
//   write_nersc      full header (HDR_VERSION, DATATYPE, STORAGE_FORMAT, DIMENSION_1..4,
//                    BOUNDARY_1..4, CHECKSUM, LINK_TRACE, PLAQUETTE, FLOATING_POINT, ENSEMBLE_ID,
//                    ENSEMBLE_LABEL, SEQUENCE_NUMBER, CREATOR, CREATOR_HARDWARE, CREATION_DATE,
//                    ARCHIVE_DATE); PLAQUETTE and LINK_TRACE are those of the links as stored
//                    (rounded to float / rebuilt from two rows), so the file verifies on reading
#include <string>
#include <utility>
#include <vector>

#include "gluon/io/gauge_io.h"

namespace gluon::io {

struct NerscHeader {
  std::vector<std::pair<std::string, std::string>> entries;
  std::size_t data_offset = 0;
  // Value of the first entry named `key` (nullptr if absent).
  const std::string* find(const std::string& key) const;
};

NerscHeader parse_nersc_header(const std::string& bytes, const std::string& file);
qcd::GaugeField read_nersc(const std::string& bytes, const std::string& file,
                           const GaugeReadOptions& opts, GaugeFileInfo& info);
void write_nersc(const std::string& path, const qcd::GaugeField& u, const GaugeWriteOptions& opts);

}  // namespace gluon::io
