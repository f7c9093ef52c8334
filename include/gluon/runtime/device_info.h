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
//                   /proc/cpuinfo ("unknown" when absent), physical memory in bytes, the
//                   last-level cache in bytes (glibc's sysconf: the L3, else the L2; 0 where
//                   unknown), one core's L2 in bytes (sysconf; 0 where unknown), host name.
//   host_info()     the above for this process.
//   process_memory() this process's resident anonymous memory now, and how much of it lies in
//                   transparent huge pages (/proc/self/smaps_rollup; -1 each where unknown). A
//                   stencil kernel on 4 KiB pages misses the TLB on most of its 10-30 streams:
//                   benchmarks record it next to their times.
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
  std::size_t last_level_cache = 0;  // bytes; 0: unknown
  std::size_t l2_cache = 0;          // bytes, one core's (sysconf); 0: unknown
  std::string hostname;
};

HostInfo host_info();

struct ProcessMemory {
  long long anon_bytes = -1;       // Anonymous
  long long huge_page_bytes = -1;  // AnonHugePages
};
ProcessMemory process_memory();

std::string describe(const DeviceInfo& d);
std::string describe(const HostInfo& h);

}  // namespace gluon::runtime
