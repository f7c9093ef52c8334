// gluon info: version, build options, backend, devices and their memory.
#include <fmt/format.h>

#include "commands.h"
#include "gluon/build_info.h"
#include "gluon/runtime/exec.h"

namespace gluon::apps {

std::string version_string() {
  return fmt::format("gluon {} ({})", build::version, build::git);
}

void register_info(CLI::App& app) {
  auto* cmd = app.add_subcommand("info", "Version, build options, backends and devices");
  cmd->callback([] {
    fmt::print("{}\n", version_string());
    fmt::print("build: {} {}, CUDA {}, MPI {}\n", build::build_type, build::cxx_compiler,
               build::cuda ? "on" : "off", build::mpi ? "on" : "off");
    fmt::print("default backend: {}\n", runtime::to_string(runtime::default_exec().backend));
  });
}

}  // namespace gluon::apps
