#pragma once
// MILC binary gauge files (MILC's "version 5" lattice format, as in milc_qcd binary_samples/).
// Header: int32 magic 20103 (written in the writer's native order; reversed bytes mean the file
// must be byte-swapped), int32 dims[4] (nx ny nz nt), char time_stamp[64], int32 order (0 =
// lexicographic; site-list files are not supported), uint32 sum29, uint32 sum31; then float32
// 3x3 complex links, 4 per site (mu = x,y,z,t), sites x fastest. sum29/sum31: checksum.h.
//
//   milc_magic / milc_header_bytes
//   is_milc_magic    true for 20103 in either byte order (sets `swapped`)
//   read_milc        FileFormatError for a wrong magic, bad dims, order != 0, wrong size, or a
//                    sum29/sum31 mismatch (when opts.verify)
//   write_milc       float32 only (InputError otherwise), byte order from opts.big_endian,
//                    time stamp of now, checksums filled in
#include <cstdint>
#include <string>

#include "gluon/io/gauge_io.h"

namespace gluon::io {

inline constexpr std::int32_t milc_magic = 20103;
inline constexpr std::size_t milc_header_bytes = 96;

bool is_milc_magic(const unsigned char* first4, bool& swapped);
qcd::GaugeField read_milc(const std::string& bytes, const std::string& file, const GaugeReadOptions& opts,
                          GaugeFileInfo& info);
void write_milc(const std::string& path, const qcd::GaugeField& u, const GaugeWriteOptions& opts);

}  // namespace gluon::io
