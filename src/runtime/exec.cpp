// Backend selection. CUDA calls are compiled only when GLUON_HAVE_CUDA is defined.
#include "gluon/runtime/exec.h"

#include "gluon/runtime/error.h"
#include "gluon/runtime/parallel.h"

#if GLUON_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace gluon::runtime {

int cuda_device_count() {
#if GLUON_HAVE_CUDA
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no driver" error
    return 0;
  }
  return n;
#else
  return 0;
#endif
}

bool cuda_available() { return cuda_device_count() > 0; }

Exec cpu_exec() { return Exec{Backend::cpu, 0, nullptr}; }

Exec cuda_exec(int device) {
#if GLUON_HAVE_CUDA
  const int n = cuda_device_count();
  if (n == 0)
    throw DeviceError("backend 'cuda' requested but no CUDA device is visible (driver missing, "
                      "CUDA_VISIBLE_DEVICES empty, or no GPU); use --backend cpu");
  if (device < 0 || device >= n)
    throw DeviceError("CUDA device " + std::to_string(device) + " requested but only " +
                      std::to_string(n) + " visible");
  return Exec{Backend::cuda, device, nullptr};
#else
  (void)device;
  throw DeviceError("backend 'cuda' requested but this gluon was built without CUDA "
                    "(configure with the 'cuda' preset: cmake --preset cuda)");
#endif
}

Exec exec_from_name(const std::string& name) {
  if (name == "cpu") return cpu_exec();
  if (name == "cuda" || name == "gpu") return cuda_exec(0);
  if (name == "auto") return cuda_available() ? cuda_exec(0) : cpu_exec();
  throw InputError("backend: expected one of auto, cpu, cuda; found '" + name + "'");
}

Exec default_exec() { return exec_from_name("auto"); }

std::string to_string(Backend b) { return b == Backend::cuda ? "cuda" : "cpu"; }

void synchronize(const Exec& ex) {
#if GLUON_HAVE_CUDA
  if (ex.backend == Backend::cuda) {
    cudaSetDevice(ex.device);
    const cudaError_t err = cudaStreamSynchronize(static_cast<cudaStream_t>(ex.stream));
    if (err != cudaSuccess)
      throw DeviceError(std::string("cudaStreamSynchronize: ") + cudaGetErrorString(err));
  }
#else
  (void)ex;
#endif
}

namespace detail {
void kernel_not_compiled_for_cuda(const char* label) {
  throw DeviceError(std::string("kernel '") + label +
                    "' was asked to run on CUDA but its source file was compiled without nvcc "
                    "(kernel sources must be named *_kernels.cpp)");
}
}  // namespace detail

}  // namespace gluon::runtime
