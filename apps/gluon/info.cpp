// gluon info: version, build options, backend, host and devices with their memory.
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "gluon/build_info.h"
#include "gluon/qcd/dirac/dirac.h"
#include "gluon/runtime/device_info.h"
#include "gluon/runtime/exec.h"

namespace gluon::apps {

std::string version_string() { return fmt::format("gluon {} ({})", build::version, build::git); }

namespace {

double gib(std::size_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0); }

void run_info(bool json) {
  const auto host = runtime::host_info();
  const auto devices = runtime::list_devices();
  const auto backend = runtime::to_string(runtime::default_exec().backend);
  if (json) {
    nlohmann::ordered_json j;
    j["version"] = build::version;
    j["git"] = build::git;
    j["code"] = build::code;  // the tune cache's build key
    j["build"] = {{"type", build::build_type},        {"cxx", build::cxx_compiler},
                  {"cuda", build::cuda},              {"cuda_compiler", build::cuda_compiler},
                  {"cuda_architectures", build::cuda_architectures},
                  {"mpi", build::mpi}};
    j["default_backend"] = backend;
    j["host"] = {{"hostname", host.hostname}, {"cpu", host.cpu_model}, {"logical_cpus", host.logical_cpus},
                 {"omp_threads", host.threads}, {"memory_bytes", host.memory},
                 {"l2_cache_bytes", host.l2_cache}, {"last_level_cache_bytes", host.last_level_cache},
                 {"cpu_vector_isa", qcd::cpu_vector_isa()}};
    j["devices"] = nlohmann::ordered_json::array();
    for (const auto& d : devices)
      j["devices"].push_back({{"ordinal", d.ordinal},
                              {"name", d.name},
                              {"compute_capability", fmt::format("{}.{}", d.cc_major, d.cc_minor)},
                              {"multiprocessors", d.multiprocessors},
                              {"memory_total_bytes", d.total_memory},
                              {"memory_free_bytes", d.free_memory},
                              {"l2_bytes", d.l2_bytes},
                              {"peak_bandwidth_gbs", d.peak_bandwidth_gbs()},
                              {"pci_bus_id", d.pci_bus_id}});
    fmt::print("{}\n", j.dump(2));
    return;
  }
  fmt::print("{}\n", version_string());
  fmt::print("build        {} {}, CUDA {}{}, MPI {}\n", build::build_type, build::cxx_compiler,
             build::cuda ? "on" : "off",
             build::cuda ? fmt::format(" ({} sm_{})", build::cuda_compiler, build::cuda_architectures) : "",
             build::mpi ? "on" : "off");
  fmt::print("host         {}\n", runtime::describe(host));
  const std::string isa = qcd::cpu_vector_isa();
  fmt::print("cpu kernels  {}\n", isa == "none" ? std::string("scalar (no AVX2; or GLUON_CPU_SIMD=0)")
                                               : isa + " (Dirac operators vectorised across sites; GLUON_CPU_SIMD=0: scalar)");
  if (devices.empty())
    fmt::print("devices      none{}\n", build::cuda ? " visible" : " (built without CUDA)");
  for (const auto& d : devices)
    fmt::print("device {}     {} ({:.1f} GiB free of {:.1f} GiB)\n", d.ordinal, runtime::describe(d),
               gib(d.free_memory), gib(d.total_memory));
  fmt::print("backend      {} (default; --backend cpu|cuda on each command)\n", backend);
}

}  // namespace

void register_info(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("info", "Version, build options, host, devices and their memory");
  cmd->add_flag("--json", *json, "Print one JSON object");
  cmd->callback([json] { run_info(*json); });
}

}  // namespace gluon::apps
