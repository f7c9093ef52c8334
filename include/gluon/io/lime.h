#pragma once
// LIME (USQCD's Lattice QCD Interchange Message Encapsulation), the container of ILDG and SciDAC
// files. A file is a sequence of records, each a 144-byte big-endian header
//     uint32 magic 0x456789ab | uint16 version 1 | uint16 flags (bit 15 MB = message begin,
//     bit 14 ME = message end) | uint64 data length | char type[128] (NUL padded)
// followed by the data, zero-padded to a multiple of 8 bytes.
//
//   LimeRecord       one record's header fields and where its data lies in the file
//   lime_list        walks a file's record headers (in memory, or through a read-at callback so
//                    that a large file need not be loaded); bounds-checks every length against the
//                    file size and throws FileFormatError naming the record on any inconsistency
//   lime_find        first record of a given type (nullptr if none)
//   record_text      a record's data as text, trailing NULs removed
//   lime_record_header / lime_padding   one record's header bytes / the padding after its data
//   LimeWriter       appends records to an AtomicFile (which the caller commits)
//   xml_value        text of the first <tag>...</tag> in an XML string (std::nullopt if absent);
//                    enough for the flat XML that ILDG/SciDAC records hold
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gluon/io/atomic_file.h"

namespace gluon::io {

inline constexpr std::uint32_t lime_magic = 0x456789ab;
inline constexpr std::size_t lime_header_bytes = 144;

struct LimeRecord {
  std::string type;
  std::uint64_t header_offset = 0;  // where the 144-byte header starts
  std::uint64_t data_offset = 0;    // header_offset + 144
  std::uint64_t length = 0;         // data bytes (without padding)
  int version = 1;
  bool message_begin = false, message_end = false;
};

// read_at(offset, n, dst) must copy n bytes at `offset` (always within file_size).
using ReadAt = std::function<void(std::uint64_t offset, std::size_t n, unsigned char* dst)>;
std::vector<LimeRecord> lime_list(const ReadAt& read_at, std::uint64_t file_size,
                                  const std::string& file);
std::vector<LimeRecord> lime_list(const std::string& bytes, const std::string& file);

const LimeRecord* lime_find(const std::vector<LimeRecord>& records, const std::string& type);
std::string record_text(const std::string& bytes, const LimeRecord& r);

// The 144-byte header of a record of `length` data bytes (InputError for a type of 0 or >= 128
// characters), and the zero padding that follows its data.
std::string lime_record_header(const std::string& type, std::uint64_t length, bool mb, bool me);
inline std::string lime_padding(std::uint64_t length) {
  return std::string(static_cast<std::size_t>((8 - length % 8) % 8), '\0');
}
// A whole record as bytes: header, data, padding.
inline std::string lime_record(const std::string& type, const std::string& data, bool mb, bool me) {
  return lime_record_header(type, data.size(), mb, me) + data + lime_padding(data.size());
}

class LimeWriter {
 public:
  explicit LimeWriter(AtomicFile& out) : out_(out) {}
  void record(const std::string& type, const void* data, std::uint64_t length, bool mb, bool me);
  void record(const std::string& type, const std::string& data, bool mb, bool me) {
    record(type, data.data(), data.size(), mb, me);
  }

 private:
  AtomicFile& out_;
};

std::optional<std::string> xml_value(const std::string& xml, const std::string& tag);

}  // namespace gluon::io
