#pragma once
// What the machine offers: the CUDA devices and the host CPU/memory (printed by `gluon info`,
// recorded with benchmark results).
//
//   DeviceInfo      one CUDA device: name, compute capability, multiprocessors, memory (total and
//                   free now), L2, shared memory, clocks, bus width, PCI id.
//                   peak_bandwidth_gbs() is the theoretical DRAM bandwidth from the memory clock
//                   and bus width (0 when the driver does not report them).
//   list_devices()  every visible device, ordinal order; empty in CPU builds or without a usable
//                   driver/GPU (never throws for a missing GPU).
//   HostInfo        OpenMP threads (omp_get_max_threads), logical CPUs, CPU model from
//                   /proc/cpuinfo ("unknown" when absent), physical memory in bytes, host name.
//   host_info()     the above for this process.
//   describe(...)   one human-readable line each.
#include <cstddef>
#include <string>
#include <vector>

namespace gluon::runtime {

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int multiprocessors = 0;
  std::size_t total_memory = 0, free_memory = 0;
  std::size_t l2_bytes = 0;
  std::size_t shared_per_block_optin = 0, shared_per_multiprocessor = 0;
  int max_threads_per_multiprocessor = 0;
  int clock_khz = 0, memory_clock_khz = 0, memory_bus_bits = 0;
  bool ecc = false;
  std::string pci_bus_id;

  double peak_bandwidth_gbs() const;
};

std::vector<DeviceInfo> list_devices();

struct HostInfo {
  int threads = 1;        // omp_get_max_threads()
  int logical_cpus = 1;   // std::thread::hardware_concurrency()
  std::string cpu_model;  // /proc/cpuinfo "model name"
  std::size_t memory = 0; // physical memory, bytes
  std::string hostname;
};

HostInfo host_info();

std::string describe(const DeviceInfo& d);
std::string describe(const HostInfo& h);

}  // namespace gluon::runtime
