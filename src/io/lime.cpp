#include "gluon/io/lime.h"

#include <cstring>

#include "gluon/io/byte_order.h"
#include "gluon/runtime/error.h"

namespace gluon::io {

std::vector<LimeRecord> lime_list(const ReadAt& read_at, std::uint64_t file_size,
                                  const std::string& file) {
  std::vector<LimeRecord> out;
  std::uint64_t off = 0;
  while (off < file_size) {
    const std::string where = "LIME record " + std::to_string(out.size()) + " at byte " + std::to_string(off);
    if (file_size - off < lime_header_bytes)
      throw FileFormatError(file, where + " header",
                            std::to_string(lime_header_bytes) + " bytes",
                            std::to_string(file_size - off) + " bytes before end of file (truncated)");
    unsigned char h[lime_header_bytes];
    read_at(off, lime_header_bytes, h);
    const std::uint32_t magic = load_be32(h);
    if (magic != lime_magic)
      throw FileFormatError(file, where + " magic", "0x456789ab", "0x" + [&] {
        char b[16];
        std::snprintf(b, sizeof b, "%08x", magic);
        return std::string(b);
      }());
    LimeRecord r;
    r.version = (h[4] << 8) | h[5];
    if (r.version != 1)
      throw FileFormatError(file, where + " version", "1", std::to_string(r.version));
    const unsigned flags = (unsigned(h[6]) << 8) | h[7];
    r.message_begin = (flags & 0x8000u) != 0;
    r.message_end = (flags & 0x4000u) != 0;
    r.length = load_be64(h + 8);
    std::size_t tl = 0;
    while (tl < 128 && h[16 + tl] != 0) ++tl;
    r.type.assign(reinterpret_cast<const char*>(h + 16), tl);
    for (unsigned char c : r.type)
      if (c < 0x20 || c > 0x7e)
        throw FileFormatError(file, where + " type", "printable ASCII text",
                              "a byte of value " + std::to_string(int(c)));
    r.header_offset = off;
    r.data_offset = off + lime_header_bytes;
    const std::uint64_t avail = file_size - r.data_offset;
    if (r.length > avail)
      throw FileFormatError(file, "LIME record '" + r.type + "' data length",
                            std::to_string(r.length) + " bytes",
                            std::to_string(avail) + " bytes left in the file (truncated)");
    const std::uint64_t padded = r.length + ((8 - r.length % 8) % 8);
    // The padding of the last record may be missing; anything else must fit.
    off = r.data_offset + (padded <= avail ? padded : r.length);
    out.push_back(std::move(r));
  }
  if (out.empty()) throw FileFormatError(file, "LIME records", "at least one record", "an empty file");
  return out;
}

std::vector<LimeRecord> lime_list(const std::string& bytes, const std::string& file) {
  return lime_list(
      [&](std::uint64_t o, std::size_t n, unsigned char* dst) { std::memcpy(dst, bytes.data() + o, n); },
      bytes.size(), file);
}

const LimeRecord* lime_find(const std::vector<LimeRecord>& records, const std::string& type) {
  for (const auto& r : records)
    if (r.type == type) return &r;
  return nullptr;
}

std::string record_text(const std::string& bytes, const LimeRecord& r) {
  std::string s = bytes.substr(r.data_offset, r.length);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

std::string lime_record_header(const std::string& type, std::uint64_t length, bool mb, bool me) {
  if (type.empty() || type.size() >= 128)
    throw InputError("LIME record type '" + type + "': expected 1..127 characters");
  unsigned char h[lime_header_bytes] = {};
  store_be32(h, lime_magic);
  h[4] = 0;
  h[5] = 1;
  const unsigned flags = (mb ? 0x8000u : 0u) | (me ? 0x4000u : 0u);
  h[6] = static_cast<unsigned char>(flags >> 8);
  h[7] = static_cast<unsigned char>(flags & 0xff);
  store_be64(h + 8, length);
  std::memcpy(h + 16, type.data(), type.size());
  return std::string(reinterpret_cast<const char*>(h), sizeof h);
}

void LimeWriter::record(const std::string& type, const void* data, std::uint64_t length, bool mb,
                        bool me) {
  out_.write(lime_record_header(type, length, mb, me));
  out_.write(data, static_cast<std::size_t>(length));
  out_.write(lime_padding(length));
}

std::optional<std::string> xml_value(const std::string& xml, const std::string& tag) {
  const std::string open = "<" + tag, close = "</" + tag + ">";
  std::size_t p = 0;
  while ((p = xml.find(open, p)) != std::string::npos) {
    const std::size_t after = p + open.size();
    if (after < xml.size() && (xml[after] == '>' || xml[after] == ' ')) {
      const std::size_t gt = xml.find('>', after);
      if (gt == std::string::npos) return std::nullopt;
      const std::size_t end = xml.find(close, gt + 1);
      if (end == std::string::npos) return std::nullopt;
      std::string v = xml.substr(gt + 1, end - gt - 1);
      const auto b = v.find_first_not_of(" \t\r\n");
      const auto e = v.find_last_not_of(" \t\r\n");
      return b == std::string::npos ? std::string() : v.substr(b, e - b + 1);
    }
    p = after;
  }
  return std::nullopt;
}

}  // namespace gluon::io
