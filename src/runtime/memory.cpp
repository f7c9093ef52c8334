#include "gluon/runtime/memory.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "gluon/runtime/env.h"
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
  static const bool on = !env_switched_off("GLUON_HUGE_PAGES");
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
// Device blocks that Buffers released, kept for the next Buffer of the same size on the same
// device (QUDA keeps such a pool too). A solve allocates its work vectors (100 MB each at 32^4 in
// double) and frees them at its end; cudaMalloc and cudaFree of them are host time the GPU waits
// through, at the start of every solve and after it. A release synchronises the device first, as
// cudaFree does, so a block is never handed out while a kernel queued on any stream may still use
// it. When cudaMalloc fails, the cached blocks of that device are freed and it is tried again.
// GLUON_DEVICE_CACHE=0 frees at once (for memory checkers and A/B runs).
class DeviceCache {
 public:
  void* take(int device, std::size_t bytes) {
    std::lock_guard<std::mutex> lock(m_);
    auto it = free_.find({device, bytes});
    if (it == free_.end()) return nullptr;
    void* p = it->second;
    free_.erase(it);
    cached_[device] -= bytes;
    return p;
  }
  void give(int device, void* p, std::size_t bytes) {
    std::lock_guard<std::mutex> lock(m_);
    free_.emplace(std::make_pair(device, bytes), p);
    cached_[device] += bytes;
  }
  // Frees the cached blocks of `device` (the caller has made it current); returns the bytes freed.
  std::size_t trim(int device) {
    std::lock_guard<std::mutex> lock(m_);
    std::size_t freed = 0;
    for (auto it = free_.lower_bound({device, 0}); it != free_.end() && it->first.first == device;) {
      cudaFree(it->second);
      freed += it->first.second;
      it = free_.erase(it);
    }
    cached_[device] = 0;
    return freed;
  }
  std::size_t cached(int device) {
    std::lock_guard<std::mutex> lock(m_);
    auto it = cached_.find(device);
    return it == cached_.end() ? 0 : it->second;
  }

 private:
  std::mutex m_;
  std::multimap<std::pair<int, std::size_t>, void*> free_;
  std::map<int, std::size_t> cached_;
};
DeviceCache& device_cache() {
  static DeviceCache* c = new DeviceCache;  // never destroyed: Buffers may be released at exit
  return *c;
}
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
      if (device_cache_enabled() && (ptr_ = device_cache().take(device, bytes)) != nullptr) break;
      cudaError_t err = cudaMalloc(&ptr_, bytes);
      if (err != cudaSuccess) {
        cudaGetLastError();
        if (device_cache().trim(device) > 0) {  // again, with the cached blocks freed
          err = cudaMalloc(&ptr_, bytes);
          if (err != cudaSuccess) cudaGetLastError();
        }
      }
      if (err != cudaSuccess) {
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
      if (device_cache_enabled()) {
        cudaDeviceSynchronize();  // as cudaFree would: no kernel may still use the block
        cudaGetLastError();
        device_cache().give(device_, ptr_, bytes_);
      } else {
        cudaFree(ptr_);
      }
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
  info.cached = device_cache().cached(device);
  return info;
#else
  (void)device;
  throw DeviceError("device memory query in a build without CUDA");
#endif
}

bool device_cache_enabled() {
  static const bool on = !env_switched_off("GLUON_DEVICE_CACHE");
  return on;
}

std::size_t release_cached_device_memory(int device) {
#if GLUON_HAVE_CUDA
  cuda_check(cudaSetDevice(device), "cudaSetDevice(" + std::to_string(device) + ")");
  return device_cache().trim(device);
#else
  (void)device;
  return 0;
#endif
}

}  // namespace gluon::runtime
