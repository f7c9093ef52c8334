// gluon: one executable, git-style subcommands (info, gauge; later solve, hmc, bench, hpl, g4).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>

#include "commands.h"
#include "toml_config.h"
#include "gluon/comm/environment.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/profile.h"

int main(int argc, char** argv) {
  // MPI starts only when an MPI launcher started this process (comm/environment.h).
  std::unique_ptr<gluon::comm::Environment> env;
  try {
    env = std::make_unique<gluon::comm::Environment>(&argc, &argv);
  } catch (const gluon::Error& e) {
    std::fprintf(stderr, "gluon: error: %s\n", e.what());
    return 1;
  }
  CLI::App app{"gluon: lattice QCD and HPC kernels on GPUs and CPUs"};
  app.require_subcommand(1);
  app.set_version_flag("--version", gluon::apps::version_string());
  gluon::apps::add_toml_input(app);
  gluon::apps::register_info(app);
  gluon::apps::register_gauge(app);
  gluon::apps::register_solve(app);
  gluon::apps::register_bench(app);
  gluon::apps::register_self_registered(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = gluon::comm::world().rank() == 0 ? app.exit(e) : (e.get_exit_code() != 0);
    if (rc != 0 && gluon::comm::world().size() > 1) gluon::comm::fail_all("bad command line", rc);
    return rc;
  } catch (const gluon::Error& e) {
    gluon::comm::fail_all(e.what(), 1);  // every rank exits non-zero, none hangs
  } catch (const std::exception& e) {
    gluon::comm::fail_all(std::string("internal error: ") + e.what(), 2);
  }
  if (const std::string p = gluon::runtime::profile_report(); !p.empty())  // GLUON_PROFILE=1
    std::fprintf(stderr, "%s: %s", gluon::comm::world().describe().c_str(), p.c_str());
  return 0;
}
