// Device and host description (runtime/device_info.h).
#include "gluon/runtime/device_info.h"

#include <omp.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <thread>

#if GLUON_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace gluon::runtime {

namespace {
std::string gib(std::size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
  return buf;
}
std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  const auto e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}
}  // namespace

double DeviceInfo::peak_bandwidth_gbs() const {
  // DDR: two transfers per memory clock.
  return 2.0 * static_cast<double>(memory_clock_khz) * 1e3 * (memory_bus_bits / 8.0) / 1e9;
}

std::vector<DeviceInfo> list_devices() {
  std::vector<DeviceInfo> out;
#if GLUON_HAVE_CUDA
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return out;
  }
  int previous = 0;
  cudaGetDevice(&previous);
  for (int d = 0; d < n; ++d) {
    DeviceInfo info;
    info.ordinal = d;
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, d) != cudaSuccess) {
      cudaGetLastError();
      continue;
    }
    info.name = prop.name;
    info.cc_major = prop.major;
    info.cc_minor = prop.minor;
    info.total_memory = prop.totalGlobalMem;
    auto attr = [d](cudaDeviceAttr a) {
      int v = 0;
      if (cudaDeviceGetAttribute(&v, a, d) != cudaSuccess) {
        cudaGetLastError();
        return 0;
      }
      return v;
    };
    info.multiprocessors = attr(cudaDevAttrMultiProcessorCount);
    info.l2_bytes = static_cast<std::size_t>(attr(cudaDevAttrL2CacheSize));
    info.shared_per_block_optin = static_cast<std::size_t>(attr(cudaDevAttrMaxSharedMemoryPerBlockOptin));
    info.shared_per_multiprocessor =
        static_cast<std::size_t>(attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor));
    info.max_threads_per_multiprocessor = attr(cudaDevAttrMaxThreadsPerMultiProcessor);
    info.clock_khz = attr(cudaDevAttrClockRate);
    info.memory_clock_khz = attr(cudaDevAttrMemoryClockRate);
    info.memory_bus_bits = attr(cudaDevAttrGlobalMemoryBusWidth);
    info.ecc = attr(cudaDevAttrEccEnabled) != 0;
    char bus[32] = {};
    if (cudaDeviceGetPCIBusId(bus, sizeof bus, d) == cudaSuccess)
      info.pci_bus_id = bus;
    else
      cudaGetLastError();
    if (cudaSetDevice(d) == cudaSuccess) {
      std::size_t free = 0, total = 0;
      if (cudaMemGetInfo(&free, &total) == cudaSuccess) {
        info.free_memory = free;
        info.total_memory = total;
      } else {
        cudaGetLastError();
      }
    } else {
      cudaGetLastError();
    }
    out.push_back(std::move(info));
  }
  cudaSetDevice(previous);
#endif
  return out;
}

HostInfo host_info() {
  HostInfo h;
  h.threads = omp_get_max_threads();
  h.logical_cpus = static_cast<int>(std::thread::hardware_concurrency());
  if (h.logical_cpus <= 0) h.logical_cpus = 1;
  h.cpu_model = "unknown";
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    // x86 "model name", some ARM kernels "Model" or "CPU part"; take the first one seen.
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = trim(line.substr(0, colon));
    if (key == "model name" || key == "Model") {
      const std::string value = trim(line.substr(colon + 1));
      if (!value.empty()) {
        h.cpu_model = value;
        break;
      }
    }
  }
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) h.memory = static_cast<std::size_t>(pages) * static_cast<std::size_t>(page);
  const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (l3 > 0) h.last_level_cache = static_cast<std::size_t>(l3);
  else if (l2 > 0) h.last_level_cache = static_cast<std::size_t>(l2);
  if (l2 > 0) h.l2_cache = static_cast<std::size_t>(l2);
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) == 0) h.hostname = name;
  return h;
}

ProcessMemory process_memory() {
  ProcessMemory m;
  std::ifstream in("/proc/self/smaps_rollup");
  for (std::string line; std::getline(in, line);) {
    long long kib = 0;
    if (std::sscanf(line.c_str(), "Anonymous: %lld kB", &kib) == 1) m.anon_bytes = kib * 1024;
    else if (std::sscanf(line.c_str(), "AnonHugePages: %lld kB", &kib) == 1) m.huge_page_bytes = kib * 1024;
  }
  return m;
}

std::string describe(const DeviceInfo& d) {
  char buf[128];
  std::snprintf(buf, sizeof buf, " (sm_%d%d, %d SMs, %.0f MHz)", d.cc_major, d.cc_minor,
                d.multiprocessors, d.clock_khz / 1e3);
  std::string s = "GPU " + std::to_string(d.ordinal) + ": " + d.name + buf + ", memory " +
                  gib(d.free_memory) + " free of " + gib(d.total_memory);
  std::snprintf(buf, sizeof buf, ", L2 %.0f MiB", static_cast<double>(d.l2_bytes) / (1024.0 * 1024.0));
  s += buf;
  if (d.peak_bandwidth_gbs() > 0) {
    std::snprintf(buf, sizeof buf, ", peak %.0f GB/s", d.peak_bandwidth_gbs());
    s += buf;
  }
  if (!d.pci_bus_id.empty()) s += ", PCI " + d.pci_bus_id;
  return s;
}

std::string describe(const HostInfo& h) {
  return "host " + (h.hostname.empty() ? std::string("?") : h.hostname) + ": " + h.cpu_model + ", " +
         std::to_string(h.logical_cpus) + " logical CPUs, " + std::to_string(h.threads) +
         " OpenMP threads, memory " + gib(h.memory) +
         (h.l2_cache > 0 ? ", L2 " + std::to_string(h.l2_cache / 1024) + " KiB a core" : std::string()) +
         (h.last_level_cache > 0
              ? ", last-level cache " + std::to_string(h.last_level_cache / (1024 * 1024)) + " MiB"
              : std::string());
}

}  // namespace gluon::runtime
