#pragma once
// Private to the io layer: what the files written and read by every rank of a process grid share
// (gauge_distributed.cpp, propagator_io.cpp). Each rank touches only the rows (x-lines) of its own
// block, with pread/pwrite at their offsets.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <exception>
#include <cstdio>
#include <string>
#include <vector>

#include "gluon/comm/communicator.h"
#include "gluon/comm/process_grid.h"
#include "gluon/qcd/geometry.h"
#include "gluon/runtime/error.h"

namespace gluon::io::detail {

inline std::string os_error() { return std::strerror(errno); }

inline std::string coords_text(const qcd::Coords& c) {
  return std::to_string(c[0]) + "x" + std::to_string(c[1]) + "x" + std::to_string(c[2]) + "x" +
         std::to_string(c[3]);
}

// Runs f on every rank; when it throws on any rank, every rank throws (the failing ranks their
// own error, the others an IoError saying so), so that no rank is left waiting in a collective.
template <class F>
void collective(comm::Communicator& comm, const std::string& what, F&& f) {
  std::exception_ptr err;
  try {
    f();
  } catch (...) {
    err = std::current_exception();
  }
  if (comm.any(err != nullptr)) {
    if (err) std::rethrow_exception(err);
    throw IoError(what + ": failed on another rank (see that rank's message)");
  }
}

// A file descriptor with exact positioned reads and writes.
class File {
 public:
  File(const std::string& path, int flags, mode_t mode = 0644) : path_(path) {
    fd_ = ::open(path.c_str(), flags, mode);
    if (fd_ < 0)
      throw IoError(path + ": cannot open for " + ((flags & O_ACCMODE) == O_RDONLY ? "reading" : "writing") +
                    ": " + os_error());
  }
  ~File() {
    if (fd_ >= 0) ::close(fd_);
  }
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  std::uint64_t size() const {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) throw IoError(path_ + ": stat failed: " + os_error());
    return static_cast<std::uint64_t>(st.st_size);
  }
  void read_at(std::uint64_t off, std::size_t n, unsigned char* dst) const {
    std::size_t done = 0;
    while (done < n) {
      const ssize_t r = ::pread(fd_, dst + done, n - done, static_cast<off_t>(off + done));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0)
        throw IoError(path_ + ": read of " + std::to_string(n) + " bytes at offset " + std::to_string(off) +
                      " failed: " + (r == 0 ? std::string("end of file") : os_error()));
      done += static_cast<std::size_t>(r);
    }
  }
  std::string read_string(std::uint64_t off, std::size_t n) const {
    std::string s(n, '\0');
    read_at(off, n, reinterpret_cast<unsigned char*>(s.data()));
    return s;
  }
  void write_at(std::uint64_t off, const void* src, std::size_t n) {
    std::size_t done = 0;
    const auto* p = static_cast<const unsigned char*>(src);
    while (done < n) {
      const ssize_t r = ::pwrite(fd_, p + done, n - done, static_cast<off_t>(off + done));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0)
        throw IoError(path_ + ": write of " + std::to_string(n) + " bytes at offset " + std::to_string(off) +
                      " failed: " + os_error());
      done += static_cast<std::size_t>(r);
    }
  }
  void close_synced() {
    if (::fsync(fd_) != 0 && errno != EINVAL) throw IoError(path_ + ": fsync failed: " + os_error());
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) throw IoError(path_ + ": close failed: " + os_error());
  }

 private:
  std::string path_;
  int fd_ = -1;
};

// InputError unless `comm` matches the block's process grid (size, and this rank's place).
inline void check_grid(const qcd::Geometry& local, comm::Communicator& comm, const std::string& what) {
  const qcd::Coords& grid = local.grid();
  const int n = grid[0] * grid[1] * grid[2] * grid[3];
  if (comm.size() != n)
    throw InputError(what + ": communicator size: expected " + std::to_string(n) + " (the volume of process grid " +
                     coords_text(grid) + "), found " + std::to_string(comm.size()));
  collective(comm, what, [&] {
    const comm::ProcessGrid pg(grid, comm.rank());
    if (pg.coords() != local.grid_coords())
      throw InputError(what + ": grid coordinates of " + comm.describe() + " in grid " + coords_text(grid) +
                       ": expected " + coords_text(pg.coords()) + " (ranks x fastest), found " +
                       coords_text(local.grid_coords()));
  });
}

// Calls f(first_lex, local_row_start) for every x-row of the block: the global lexicographic
// index of its first site and the local coordinates of that site.
template <class F>
void for_rows(const qcd::Geometry& local, F&& f) {
  const qcd::Coords& L = local.local_dims();
  qcd::Coords x{0, 0, 0, 0};
  for (x[3] = 0; x[3] < L[3]; ++x[3])
    for (x[2] = 0; x[2] < L[2]; ++x[2])
      for (x[1] = 0; x[1] < L[1]; ++x[1]) f(local.global_lex(local.local_to_global(x)), x);
}

// Writes a file whose payload the ranks share: rank 0's `head` at offset 0 and its `tail` right
// after the `payload` bytes; between them each rank's rows, row r of `row_bytes` bytes at
// payload offset row_offsets[r] (this rank's rows, consecutive in `rows`). Through a temporary
// that rank 0 renames onto `path` once every rank has written, so a failure anywhere leaves no
// file under the name. Collective over `comm`; head and tail are read on rank 0 only.
inline void write_rows_collectively(const std::string& path, const std::string& what, comm::Communicator& comm,
                                    const std::string& head, const std::string& tail, std::uint64_t payload,
                                    const std::vector<std::uint64_t>& row_offsets, const unsigned char* rows,
                                    std::size_t row_bytes) {
  std::uint64_t head_bytes = head.size();
  comm.broadcast(&head_bytes, sizeof head_bytes, 0);
  long long pid = static_cast<long long>(::getpid());
  comm.broadcast(&pid, sizeof pid, 0);
  const std::string tmp = path + ".tmp." + std::to_string(pid);
  bool created = false;
  try {
    collective(comm, what, [&] {
      if (comm.rank() != 0) return;
      File out(tmp, O_WRONLY | O_CREAT | O_TRUNC);
      created = true;
      out.write_at(0, head.data(), head.size());
      out.write_at(head_bytes + payload, tail.data(), tail.size());
      out.close_synced();
    });
    collective(comm, what, [&] {
      File out(tmp, O_WRONLY);
      for (std::size_t r = 0; r < row_offsets.size(); ++r)
        out.write_at(head_bytes + row_offsets[r], rows + r * row_bytes, row_bytes);
      out.close_synced();
    });
    collective(comm, what, [&] {
      if (comm.rank() != 0) return;
      if (std::rename(tmp.c_str(), path.c_str()) != 0)
        throw IoError(path + ": cannot rename " + tmp + " onto it: " + os_error());
    });
  } catch (...) {
    if (created) std::remove(tmp.c_str());
    throw;
  }
}

}  // namespace gluon::io::detail
