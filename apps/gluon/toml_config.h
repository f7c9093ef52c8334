#pragma once
// TOML input files for the gluon command (toml++), plugged into CLI11's config mechanism so
// that every flag of a subcommand can be given as a key in the table named after it, and flags
// on the command line override the file:
//
//   # weak.toml                         gluon gauge --input weak.toml --seed 7
//   [gauge]                             (seed 7 wins over the file's 2026)
//   start = "weak"
//   lattice = [16, 16, 16, 32]          arrays become "16,16,16,32"
//   seed = 2026
//
// Unknown keys are errors (CLI11 config_extras_mode::error), as are TOML syntax errors, which
// name the file, line and column.
#include <CLI/CLI.hpp>
#include <memory>
#include <string>

namespace gluon::apps {

class TomlConfig : public CLI::Config {
 public:
  std::string to_config(const CLI::App*, bool, bool, std::string) const override;
  std::vector<CLI::ConfigItem> from_config(std::istream& input) const override;
  std::string path;  // set when --input is parsed, for error messages
};

// Installs the TOML reader on `app` and adds `--input FILE` (global, usable after the subcommand).
void add_toml_input(CLI::App& app);

}  // namespace gluon::apps
