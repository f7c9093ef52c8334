#pragma once
// Where work runs. An Exec names a backend (cpu = OpenMP, cuda = one GPU) and, for CUDA, the
// device and stream. It is a small value passed to every operation that launches kernels.
#include <string>

namespace gluon::runtime {

enum class Backend { cpu, cuda };

struct Exec {
  Backend backend = Backend::cpu;
  int device = 0;          // CUDA device ordinal (cuda only)
  void* stream = nullptr;  // cudaStream_t; nullptr = the legacy default stream (cuda only)

  bool on_device() const { return backend == Backend::cuda; }
};

// True when this binary contains the CUDA backend and at least one device is usable.
bool cuda_available();
// Number of CUDA devices visible (0 in CPU-only builds or without a driver).
int cuda_device_count();

Exec cpu_exec();
// Throws DeviceError naming the reason when CUDA is not compiled in or no device is present.
Exec cuda_exec(int device = 0);
// "auto": cuda when available, else cpu. Also accepts "cpu" and "cuda"; anything else is an InputError.
Exec exec_from_name(const std::string& name);
// Same as exec_from_name("auto").
Exec default_exec();

std::string to_string(Backend b);

// Block until all work queued on ex has finished (no-op on cpu).
void synchronize(const Exec& ex);

}  // namespace gluon::runtime
