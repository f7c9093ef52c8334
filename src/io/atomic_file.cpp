#include "gluon/io/atomic_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gluon/runtime/error.h"

namespace gluon::io {

namespace {
std::string os_error() { return std::strerror(errno); }
}  // namespace

AtomicFile::AtomicFile(const std::string& path)
    : path_(path), tmp_(path + ".tmp." + std::to_string(::getpid())) {
  f_ = std::fopen(tmp_.c_str(), "wb");
  if (!f_) throw IoError(path_ + ": cannot create temporary file " + tmp_ + ": " + os_error());
}

void check_writable(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw IoError(path + ": is a directory, expected a file name");
  AtomicFile probe(path);  // its destructor removes the temporary
}

AtomicFile::~AtomicFile() {
  if (f_) std::fclose(f_);
  if (!committed_) std::remove(tmp_.c_str());
}

void AtomicFile::write(const void* data, std::size_t bytes) {
  if (bytes == 0) return;
  if (std::fwrite(data, 1, bytes, f_) != bytes)
    throw IoError(path_ + ": write of " + std::to_string(bytes) + " bytes at offset " +
                  std::to_string(written_) + " failed: " + os_error());
  written_ += bytes;
}

void AtomicFile::commit() {
  if (std::fflush(f_) != 0) throw IoError(path_ + ": flush failed: " + os_error());
  if (::fsync(::fileno(f_)) != 0 && errno != EINVAL)
    throw IoError(path_ + ": fsync failed: " + os_error());
  const int rc = std::fclose(f_);
  f_ = nullptr;
  if (rc != 0) throw IoError(path_ + ": close failed: " + os_error());
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0)
    throw IoError(path_ + ": rename from " + tmp_ + " failed: " + os_error());
  committed_ = true;
}

std::string read_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw IoError(path + ": no such file");
  if (std::filesystem::is_directory(path, ec)) throw IoError(path + ": is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError(path + ": cannot open for reading: " + os_error());
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw IoError(path + ": read failed: " + os_error());
  return ss.str();
}

}  // namespace gluon::io
