#pragma once
// Quark propagators as SciDAC LIME files (the layout QIO/Chroma write):
//   message 1: scidac-private-file-xml (dims), scidac-file-xml (gluon metadata: operator,
//              parameters, source, solver residuals — the caller's XML fragment)
//   message 2: scidac-private-record-xml (datatype QDP_D3_DiracPropagator for Wilson/clover —
//              per site [spin_sink][spin_source][colour_sink][colour_source] complex — or
//              QDP_D3_ColorMatrix for staggered — [colour_sink][colour_source]; F3 at 32 bits),
//              scidac-record-xml, scidac-binary-data (big endian, sites x fastest),
//              scidac-checksum (suma/sumb as for gauge files)
//
//   write_propagator(path, columns, metadata_xml, precision_bits[, comm])  columns: 12 Dirac or 3
//       staggered canonical full fields, column b = source (spin*3 + colour) or colour; with a
//       communicator, each rank's block of a split lattice
//   read_propagator(path, info)  the columns back (checksum, dims, datatype verified);
//       FileFormatError naming file/field/expected/found otherwise
#include <string>
#include <vector>

#include "gluon/comm/communicator.h"
#include "gluon/qcd/spinor_field.h"

namespace gluon::io {

struct PropagatorFileInfo {
  std::string datatype;
  int precision_bits = 0;
  std::string metadata_xml;  // scidac-file-xml as written
};

void write_propagator(const std::string& path, const std::vector<qcd::SpinorField>& columns,
                      const std::string& metadata_xml, int precision_bits = 64);
// The same from the ranks of a process grid, collective over `comm` (its size the grid's volume,
// ranks x fastest): each rank holds its block's columns (canonical, local geometry) and writes its
// own rows; rank 0 writes the records around them; the checksums are combined; the file appears
// under `path` only when every rank has written (temporary + rename).
void write_propagator(const std::string& path, const std::vector<qcd::SpinorField>& columns,
                      const std::string& metadata_xml, int precision_bits, comm::Communicator& comm);
std::vector<qcd::SpinorField> read_propagator(const std::string& path, PropagatorFileInfo* info = nullptr);

}  // namespace gluon::io
