#pragma once
// Owned memory in one of three spaces, and explicit copies between them (no implicit transfers).
//
//   MemSpace::host     pageable host memory, 64-byte aligned (vector loads); from 2 MiB on,
//                      aligned to 2 MiB and advised as transparent huge pages (Linux madvise;
//                      GLUON_HUGE_PAGES=0: not advised)
//   MemSpace::pinned   page-locked host memory (cudaMallocHost); plain host memory in CPU builds
//                      and in CUDA builds running where no device is usable
//   MemSpace::device   GPU memory (cudaMalloc); an OutOfMemoryError says how much was asked for,
//                      for what, and how much is free. A released block is kept for the next
//                      Buffer of its size on its device (GLUON_DEVICE_CACHE=0: freed at once);
//                      the cached blocks are freed when cudaMalloc fails, and retried
//
// memspace_for(ex) is where fields operated on by ex live: device for cuda, host for cpu.
#include <cstddef>
#include <string>

#include "gluon/runtime/exec.h"

namespace gluon::runtime {

enum class MemSpace { host, pinned, device };

std::string to_string(MemSpace s);
MemSpace memspace_for(const Exec& ex);

class Buffer {
 public:
  Buffer() = default;
  // Allocates `bytes` in `space` (device: on `device`). `label` names the allocation in errors.
  Buffer(MemSpace space, std::size_t bytes, const std::string& label, int device = 0);
  ~Buffer();
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  void* data() { return ptr_; }
  const void* data() const { return ptr_; }
  std::size_t bytes() const { return bytes_; }
  MemSpace space() const { return space_; }
  int device() const { return device_; }
  bool empty() const { return bytes_ == 0; }

 private:
  void release() noexcept;
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
  MemSpace space_ = MemSpace::host;
  int device_ = 0;
  bool host_fallback_ = false;  // pinned in a CUDA build without a usable device: plain host memory
};

// Copies bytes between any two spaces; synchronous with respect to the host.
void copy_bytes(void* dst, MemSpace dst_space, const void* src, MemSpace src_space, std::size_t bytes);
// Asynchronous on ex.stream when either side is device memory (host side should be pinned).
void copy_bytes_async(void* dst, MemSpace dst_space, const void* src, MemSpace src_space,
                      std::size_t bytes, const Exec& ex);
// Copies between two pointers of any space, found from the pointers themselves (CUDA unified
// addressing); asynchronous on `stream` (cudaStream_t) when either side is device memory.
void copy_bytes_any_async(void* dst, const void* src, std::size_t bytes, void* stream);
void copy(Buffer& dst, const Buffer& src);  // sizes must match (InputError otherwise)
void fill_bytes(Buffer& b, unsigned char value);

struct DeviceMemoryInfo {
  std::size_t free = 0, total = 0;  // as cudaMemGetInfo says
  std::size_t cached = 0;           // held for reuse by released Buffers (not in `free`)
};
// Free and total memory of CUDA device `device`; DeviceError in CPU-only builds.
DeviceMemoryInfo device_memory_info(int device);
// Frees the device blocks that released Buffers keep for reuse (Buffer, MemSpace::device) and
// returns their bytes: for code that sizes raw cudaMalloc allocations by cudaMemGetInfo (HPL).
// 0 in CPU-only builds.
std::size_t release_cached_device_memory(int device);
// Whether released device memory is kept for reuse (Buffers, ScalarSlots): not when
// GLUON_DEVICE_CACHE=0.
bool device_cache_enabled();

}  // namespace gluon::runtime
