#include "gluon/runtime/memory.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "gluon/runtime/error.h"

#if GLUON_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace gluon::runtime {

namespace {
std::string mib(std::size_t bytes) {
  char buf[64];
  if (bytes < 100 * 1024)  // "0.0 MiB" would hide the size
    std::snprintf(buf, sizeof buf, "%zu bytes", bytes);
  else
    std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buf;
}
// Host memory: 64-byte aligned; a buffer of kHugePage or more is aligned to and padded to whole
// huge pages and advised as such (Linux transparent huge pages in "madvise" mode, the usual
// default, give them only to advised ranges), unless GLUON_HUGE_PAGES=0. A lattice kernel reads
// 10-30 streams far apart for each tile of sites (neighbour rows, links), so with 4 KiB pages
// its loads touch as many pages a tile (bench/results/2026-11-24-cpu-staggered measures both).
constexpr std::size_t kHugePage = std::size_t(2) << 20;
bool huge_pages_wanted() {
  static const bool on = [] {
    const char* e = std::getenv("GLUON_HUGE_PAGES");
    return !(e && std::strcmp(e, "0") == 0);
  }();
  return on;
}
void* host_alloc(std::size_t bytes) {
  if (bytes < kHugePage || !huge_pages_wanted()) return std::aligned_alloc(64, (bytes + 63) / 64 * 64);
  const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* p = std::aligned_alloc(kHugePage, rounded);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (p) (void)madvise(p, rounded, MADV_HUGEPAGE);  // advice only: a refusal changes nothing
#endif
  return p;
}
#if GLUON_HAVE_CUDA
cudaMemcpyKind kind_of(MemSpace dst, MemSpace src) {
  const bool d = dst == MemSpace::device, s = src == MemSpace::device;
  if (d && s) return cudaMemcpyDeviceToDevice;
  if (d) return cudaMemcpyHostToDevice;
  if (s) return cudaMemcpyDeviceToHost;
  return cudaMemcpyHostToHost;
}
void cuda_check(cudaError_t err, const std::string& what) {
  if (err != cudaSuccess) throw DeviceError(what + ": " + cudaGetErrorString(err));
}
#endif
}  // namespace

std::string to_string(MemSpace s) {
  switch (s) {
    case MemSpace::host: return "host";
    case MemSpace::pinned: return "pinned";
    case MemSpace::device: return "device";
  }
  return "?";
}

MemSpace memspace_for(const Exec& ex) {
  return ex.backend == Backend::cuda ? MemSpace::device : MemSpace::host;
}

Buffer::Buffer(MemSpace space, std::size_t bytes, const std::string& label, int device)
    : bytes_(bytes), space_(space), device_(device) {
  if (bytes == 0) return;
  switch (space) {
    case MemSpace::host: {
      ptr_ = host_alloc(bytes);
      if (!ptr_)
        throw OutOfMemoryError("host allocation of " + mib(bytes) + " for '" + label + "' failed");
      break;
    }
    case MemSpace::pinned:
#if GLUON_HAVE_CUDA
      if (!cuda_available()) {  // no driver/device: page-locking is meaningless, use host memory
        ptr_ = host_alloc(bytes);
        if (!ptr_)
          throw OutOfMemoryError("host allocation of " + mib(bytes) + " for '" + label + "' failed");
        host_fallback_ = true;
        break;
      }
      if (cudaMallocHost(&ptr_, bytes) != cudaSuccess) {
        cudaGetLastError();
        ptr_ = nullptr;
        throw OutOfMemoryError("pinned host allocation of " + mib(bytes) + " for '" + label +
                               "' failed (page-locked memory is limited by ulimit -l and RAM)");
      }
#else
      ptr_ = host_alloc(bytes);
      if (!ptr_)
        throw OutOfMemoryError("host allocation of " + mib(bytes) + " for '" + label + "' failed");
#endif
      break;
    case MemSpace::device:
#if GLUON_HAVE_CUDA
      cuda_check(cudaSetDevice(device), "cudaSetDevice(" + std::to_string(device) + ")");
      if (cudaMalloc(&ptr_, bytes) != cudaSuccess) {
        cudaGetLastError();
        ptr_ = nullptr;
        std::size_t free = 0, total = 0;
        cudaMemGetInfo(&free, &total);
        throw OutOfMemoryError("device allocation of " + mib(bytes) + " for '" + label +
                               "' failed on device " + std::to_string(device) + ": " + mib(free) +
                               " free of " + mib(total));
      }
#else
      throw DeviceError("device allocation for '" + label +
                        "' requested in a build without CUDA");
#endif
      break;
  }
}

void Buffer::release() noexcept {
  if (!ptr_) return;
  switch (space_) {
    case MemSpace::host: std::free(ptr_); break;
#if GLUON_HAVE_CUDA
    case MemSpace::pinned:
      if (host_fallback_)
        std::free(ptr_);
      else
        cudaFreeHost(ptr_);
      break;
    case MemSpace::device:
      cudaSetDevice(device_);
      cudaFree(ptr_);
      break;
#else
    case MemSpace::pinned: std::free(ptr_); break;
    case MemSpace::device: break;
#endif
  }
  ptr_ = nullptr;
  bytes_ = 0;
  host_fallback_ = false;
}

Buffer::~Buffer() { release(); }

Buffer::Buffer(Buffer&& o) noexcept
    : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)), space_(o.space_),
      device_(o.device_), host_fallback_(std::exchange(o.host_fallback_, false)) {}

Buffer& Buffer::operator=(Buffer&& o) noexcept {
  if (this != &o) {
    release();
    ptr_ = std::exchange(o.ptr_, nullptr);
    bytes_ = std::exchange(o.bytes_, 0);
    space_ = o.space_;
    device_ = o.device_;
    host_fallback_ = std::exchange(o.host_fallback_, false);
  }
  return *this;
}

void copy_bytes(void* dst, MemSpace dst_space, const void* src, MemSpace src_space, std::size_t bytes) {
  if (bytes == 0) return;
#if GLUON_HAVE_CUDA
  if (dst_space == MemSpace::device || src_space == MemSpace::device) {
    cuda_check(cudaMemcpy(dst, src, bytes, kind_of(dst_space, src_space)), "cudaMemcpy");
    return;
  }
#else
  if (dst_space == MemSpace::device || src_space == MemSpace::device)
    throw DeviceError("copy to/from device memory in a build without CUDA");
#endif
  std::memcpy(dst, src, bytes);
}

void copy_bytes_async(void* dst, MemSpace dst_space, const void* src, MemSpace src_space,
                      std::size_t bytes, const Exec& ex) {
#if GLUON_HAVE_CUDA
  if (bytes && (dst_space == MemSpace::device || src_space == MemSpace::device)) {
    cuda_check(cudaMemcpyAsync(dst, src, bytes, kind_of(dst_space, src_space),
                               static_cast<cudaStream_t>(ex.stream)),
               "cudaMemcpyAsync");
    return;
  }
#endif
  (void)ex;
  copy_bytes(dst, dst_space, src, src_space, bytes);
}

void copy_bytes_any_async(void* dst, const void* src, std::size_t bytes, void* stream) {
  if (bytes == 0) return;
#if GLUON_HAVE_CUDA
  if (cuda_available()) {
    cuda_check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, static_cast<cudaStream_t>(stream)),
               "cudaMemcpyAsync");
    return;
  }
#endif
  (void)stream;
  std::memcpy(dst, src, bytes);
}

void copy(Buffer& dst, const Buffer& src) {
  if (dst.bytes() != src.bytes())
    throw InputError("buffer copy: sizes differ (" + std::to_string(src.bytes()) + " -> " +
                     std::to_string(dst.bytes()) + " bytes)");
  copy_bytes(dst.data(), dst.space(), src.data(), src.space(), src.bytes());
}

void fill_bytes(Buffer& b, unsigned char value) {
  if (b.empty()) return;
#if GLUON_HAVE_CUDA
  if (b.space() == MemSpace::device) {
    cuda_check(cudaSetDevice(b.device()), "cudaSetDevice");
    cuda_check(cudaMemset(b.data(), value, b.bytes()), "cudaMemset");
    return;
  }
#endif
  std::memset(b.data(), value, b.bytes());
}

DeviceMemoryInfo device_memory_info(int device) {
#if GLUON_HAVE_CUDA
  cuda_check(cudaSetDevice(device), "cudaSetDevice(" + std::to_string(device) + ")");
  DeviceMemoryInfo info;
  cuda_check(cudaMemGetInfo(&info.free, &info.total), "cudaMemGetInfo");
  return info;
#else
  (void)device;
  throw DeviceError("device memory query in a build without CUDA");
#endif
}

}  // namespace gluon::runtime
