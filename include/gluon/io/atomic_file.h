#pragma once
// Crash-safe file output: data goes to "<path>.tmp.<pid>" and is renamed onto <path> only after
// it was completely written and flushed, so a crash or error never leaves half a file under the
// final name. If commit() is never called (exception, early return) the temporary is removed.
//
//   AtomicFile f(path);  f.write(bytes, n); ...; f.commit();
#include <cstddef>
#include <cstdio>
#include <string>

namespace gluon::io {

class AtomicFile {
 public:
  explicit AtomicFile(const std::string& path);  // IoError if the temporary cannot be created
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const void* data, std::size_t bytes);  // IoError on short writes (disk full, ...)
  void write(const std::string& s) { write(s.data(), s.size()); }
  std::size_t bytes_written() const { return written_; }
  void commit();  // flush, fsync, close, rename; IoError on failure
  const std::string& path() const { return path_; }

 private:
  std::string path_, tmp_;
  std::FILE* f_ = nullptr;
  std::size_t written_ = 0;
  bool committed_ = false;
};

// Fails now (IoError naming the file) where an AtomicFile(path) write would fail later: the path
// is an existing directory, or its temporary cannot be created there (missing directory, no
// permission). For runs that write their results only at the end. Leaves nothing behind.
void check_writable(const std::string& path);

// Whole file into memory; IoError naming the file when it cannot be opened or read.
std::string read_file(const std::string& path);

}  // namespace gluon::io
