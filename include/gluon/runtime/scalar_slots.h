#pragma once
// Scalars that stay on the device between kernels: a Krylov iteration's reductions write them and
// the next kernels read them (stream order), so the host need not wait for each reduction before
// it queues the kernel that uses the result. Each slot also has a host-visible mirror that a
// reduction writes at the same time; the host reads it after wait().
//
//   ScalarSlots s(ex, n)   n doubles, zero (cuda: device memory of ex.device plus mapped pinned
//                          host memory for the mirror; cpu: one host array, slot and mirror alike)
//   s.device(i)            where kernels read slot i and reductions write it
//   s.mirror(i)            where a reduction writes the host copy of slot i (the address a kernel
//                          uses: cuda's device alias of the mapped memory)
//   s.record()             marks the current end of ex's stream
//   s.wait()               waits until the last record() is reached (no-op on cpu)
//   s.host(i)              slot i as the host sees it: valid once wait() has returned after the
//                          reduction that wrote it
//   s.set(i, v)            slot i = v and its mirror = v, in stream order (synchronises ex's stream)
//
// Kernels reading slots must run on ex's stream (or be ordered after it). Move-only. Released
// slots (their stream synchronised) are kept for the next ScalarSlots of the same n on the same
// device, zeroed again in ex's stream order (GLUON_DEVICE_CACHE=0: freed at once).
#include <cstddef>

#include "gluon/runtime/exec.h"

namespace gluon::runtime {

class ScalarSlots {
 public:
  ScalarSlots(const Exec& ex, int n);
  ~ScalarSlots();
  ScalarSlots(ScalarSlots&& o) noexcept;
  ScalarSlots& operator=(ScalarSlots&& o) noexcept;
  ScalarSlots(const ScalarSlots&) = delete;
  ScalarSlots& operator=(const ScalarSlots&) = delete;

  int size() const { return n_; }
  const Exec& exec() const { return ex_; }
  double* device(int i) const;
  double* mirror(int i) const;
  double host(int i) const;
  void set(int i, double v);
  void record();
  void wait() const;

 private:
  void check_index(int i, const char* what) const;
  void release() noexcept;
  Exec ex_;
  int n_ = 0;
  double* device_ = nullptr;  // cuda: device memory; cpu: host array (also the mirror)
  double* mirror_ = nullptr;  // cuda: mapped pinned host memory (its device alias in mirror_device_)
  double* mirror_device_ = nullptr;
  void* event_ = nullptr;     // cudaEvent_t
};

}  // namespace gluon::runtime
