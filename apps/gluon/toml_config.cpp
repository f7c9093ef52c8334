#include "toml_config.h"

#include <fmt/format.h>

#include <sstream>
#include <toml++/toml.h>

#include "gluon/runtime/error.h"

namespace gluon::apps {

namespace {

std::string scalar_text(const toml::node& n, const std::string& key, const std::string& file) {
  if (auto v = n.as_string()) return v->get();
  if (auto v = n.as_integer()) return std::to_string(v->get());
  if (auto v = n.as_floating_point()) return fmt::format("{:.17g}", v->get());
  if (auto v = n.as_boolean()) return v->get() ? "true" : "false";
  throw InputError(fmt::format("{}: key '{}': expected a string, number, boolean or array of them",
                               file, key));
}

void flatten(const toml::table& table, std::vector<std::string>& parents,
             std::vector<CLI::ConfigItem>& out, const std::string& file) {
  for (const auto& [k, node] : table) {
    const std::string key(k.str());
    if (const auto* sub = node.as_table()) {
      parents.push_back(key);
      flatten(*sub, parents, out, file);
      parents.pop_back();
      continue;
    }
    CLI::ConfigItem item;
    item.parents = parents;
    item.name = key;
    if (const auto* arr = node.as_array()) {
      std::string joined;
      for (const auto& e : *arr) {
        if (!joined.empty()) joined += ',';
        joined += scalar_text(e, key, file);
      }
      item.inputs = {joined};
    } else {
      item.inputs = {scalar_text(node, key, file)};
    }
    out.push_back(std::move(item));
  }
}

}  // namespace

std::string TomlConfig::to_config(const CLI::App*, bool, bool, std::string) const {
  return {};  // gluon writes its inputs back as JSON results, not as TOML
}

std::vector<CLI::ConfigItem> TomlConfig::from_config(std::istream& input) const {
  const std::string file = path.empty() ? "TOML input" : path;
  std::stringstream ss;
  ss << input.rdbuf();
  toml::table table;
  try {
    table = toml::parse(ss.str(), path);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    throw InputError(fmt::format("{}:{}:{}: TOML syntax error: {}", file, where.line, where.column,
                                 e.description()));
  }
  std::vector<CLI::ConfigItem> items;
  std::vector<std::string> parents;
  flatten(table, parents, items, file);
  return items;
}

void add_toml_input(CLI::App& app) {
  auto cfg = std::make_shared<TomlConfig>();
  app.config_formatter(cfg);
  app.allow_config_extras(CLI::config_extras_mode::error);
  app.set_config("--input", "", "TOML input file; a [subcommand] table holds that subcommand's flags, "
                 "flags on the command line override it")
      ->each([cfg](const std::string& p) { cfg->path = p; });
  app.fallthrough();
}

}  // namespace gluon::apps
