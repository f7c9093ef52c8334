#pragma once
// ILDG and SciDAC gauge files, both LIME containers (lime.h). Links are big-endian, sites in
// lexicographic order (x fastest), 4 links per site, full 3x3 complex, 32 or 64 bits.
//
// Records read (others are listed in GaugeFileInfo::header and otherwise ignored):
//   ildg-format                XML: field su3gauge, precision 32|64, lx ly lz lt
//   ildg-binary-data           the links (ILDG), or
//   scidac-binary-data         the links (SciDAC without ILDG records)
//   ildg-data-lfn              logical file name (optional)
//   scidac-private-file-xml    <dims>X Y Z T</dims> (used when there is no ildg-format)
//   scidac-private-record-xml  datatype QDP_F3_ColorMatrix | QDP_D3_ColorMatrix (or USQCD_...),
//                              precision F|D, colors 3, typesize 72|144, datacount 4
//   scidac-checksum            suma/sumb (checksum.h), verified when present
// Where both ILDG and SciDAC records state dims or precision they must agree.
//
//   read_lime_gauge   FileFormatError for a missing binary record, inconsistent or missing
//                     dims/precision, a wrong data length or a checksum mismatch
//   write_lime_gauge  the layout Chroma (QIO) writes and Chroma, QUDA, MILC and PyQUDA read:
//                     message 1: scidac-private-file-xml (MB), scidac-file-xml (ME);
//                     message 2: scidac-private-record-xml (MB), scidac-record-xml, ildg-format,
//                     ildg-data-lfn (if given), ildg-binary-data, scidac-checksum (ME).
//                     GaugeFormat::scidac writes the same without the ildg records and with a
//                     scidac-binary-data record. scidac-file-xml carries the plaquette and link
//                     trace (<gluon><plaquette>...), checked when such a file is read back.
#include <string>

#include "gluon/io/gauge_io.h"

namespace gluon::io {

qcd::GaugeField read_lime_gauge(const std::string& bytes, const std::string& file,
                                const GaugeReadOptions& opts, GaugeFileInfo& info);
void write_lime_gauge(const std::string& path, const qcd::GaugeField& u, const GaugeWriteOptions& opts,
                      const std::string& lfn = "");

}  // namespace gluon::io
