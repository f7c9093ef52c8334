#pragma once
// Subcommand registration. Each register_X adds a CLI11 subcommand whose callback runs it;
// errors propagate as gluon::Error and main() turns them into a message and exit code 1.
#include <CLI/CLI.hpp>
#include <array>
#include <string>

namespace gluon::apps {

std::string version_string();
void register_info(CLI::App& app);
void register_gauge(CLI::App& app);
void register_solve(CLI::App& app);
void register_bench(CLI::App& app);  // bench copy|dslash|solver (bench.cpp)

// Later subcommands (hpl, g4, ...) register themselves from their own file, so that adding a
// command touches no shared file:   static const CommandRegistration reg{"hpl", register_hpl};
// main() adds them after the ones above, in name order.
using RegisterFn = void (*)(CLI::App& app);
struct CommandRegistration {
  CommandRegistration(const char* name, RegisterFn fn);
};
void register_self_registered(CLI::App& app);

// For unsigned options (seeds): CLI11 alone turns "-1" into 2^64 - 1 without a word.
inline CLI::Validator non_negative_integer() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
          return "expected a non-negative integer, found '" + s + "'";
        return {};
      },
      "UINT");
}

// --lattice is for --start; given (`given`: on the command line or in the TOML input) with a
// gauge file, it must name the file's lattice, which would otherwise silently override it.
// InputError naming the flag, the file and both lattices (solve.cpp).
void check_lattice_against_file(bool given, const std::string& lattice, const std::array<int, 4>& dims, const std::string& file);

// --seed and --epsilon shape a generated field (--start; `start` empty when the field is read, from
// `field_from`, e.g. "--gauge cfg.nersc"): given (command line or TOML input) where they would
// change nothing (a file's field, --start unit; --epsilon other than with --start weak), an
// InputError naming the flag and why, instead of silently unused (solve.cpp).
void check_start_parameters(const std::string& start, bool seed_given, bool epsilon_given, const std::string& field_from);

}  // namespace gluon::apps
