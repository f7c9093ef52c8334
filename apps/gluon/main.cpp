// gluon: one executable, git-style subcommands (info, gauge; later solve, hmc, bench, hpl, g4).
#include <CLI/CLI.hpp>
#include <cstdio>

#include "commands.h"
#include "toml_config.h"
#include "gluon/runtime/error.h"

int main(int argc, char** argv) {
  CLI::App app{"gluon: lattice QCD and HPC kernels on GPUs and CPUs"};
  app.require_subcommand(1);
  app.set_version_flag("--version", gluon::apps::version_string());
  gluon::apps::add_toml_input(app);
  gluon::apps::register_info(app);
  gluon::apps::register_gauge(app);
  gluon::apps::register_solve(app);
  gluon::apps::register_bench(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const gluon::Error& e) {
    std::fprintf(stderr, "gluon: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gluon: internal error: %s\n", e.what());
    return 2;
  }
  return 0;
}
