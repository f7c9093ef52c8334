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
// Every error in the file names the file, line and column and exits 1 as other input errors do:
// TOML syntax, a table that is not a subcommand, a key that is not one of its flags (the known
// ones are listed), and a value of the wrong kind (a string for a number, a fraction for an
// integer, anything but true/false for a switch). A missing or unreadable file is an error
// naming it.
#include <CLI/CLI.hpp>
#include <memory>
#include <string>

namespace gluon::apps {

class TomlConfig : public CLI::Config {
 public:
  std::string to_config(const CLI::App*, bool, bool, std::string) const override;
  std::vector<CLI::ConfigItem> from_config(std::istream& input) const override;
  std::string path;              // set when --input is parsed, for error messages
  const CLI::App* root = nullptr;  // the tables and keys the file may hold (its subcommands and flags)
};

// Installs the TOML reader on `app` and adds `--input FILE` (global, usable after the subcommand).
void add_toml_input(CLI::App& app);

}  // namespace gluon::apps
