#include "toml_config.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
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

std::string where(const std::string& file, const toml::node& n) {
  const auto& b = n.source().begin;
  return fmt::format("{}:{}:{}", file, b.line, b.column);
}

std::string table_name(const std::vector<std::string>& parents) {
  std::string t;
  for (const auto& p : parents) t += (t.empty() ? "" : ".") + p;
  return t;
}

const CLI::App* subcommand_named(const CLI::App* app, const std::string& name) {
  for (const CLI::App* s : app->get_subcommands([](const CLI::App*) { return true; }))
    if (s->get_name() == name) return s;
  return nullptr;
}

std::string subcommand_list(const CLI::App* app) {
  std::string names;
  for (const CLI::App* s : app->get_subcommands([](const CLI::App*) { return true; }))
    if (!s->get_name().empty()) names += (names.empty() ? "" : ", ") + s->get_name();
  return names;
}

std::string key_list(const CLI::App* app) {
  std::string names;
  for (const CLI::Option* o : app->get_options([](const CLI::Option* o) { return !o->get_lnames().empty(); })) {
    const std::string& n = o->get_lnames().front();
    if (n == "help" || n == "input" || n == "version") continue;
    names += (names.empty() ? "" : ", ") + n;
  }
  return names;
}

// The key against the flags of the table's subcommand: it must be one, and its value of the
// kind the flag converts (CLI11 would say "Could not convert: --kappa = abc" without the file).
void check_key(const CLI::App* root, const std::vector<std::string>& parents, const std::string& key,
               const toml::node& node, const std::string& file) {
  const CLI::App* app = root;
  for (std::size_t i = 0; i < parents.size(); ++i) {
    app = subcommand_named(app, parents[i]);
    if (!app)
      throw InputError(fmt::format("{}: unknown table [{}]; the tables are the subcommands: {}", where(file, node),
                                   table_name({parents.begin(), parents.begin() + static_cast<long>(i) + 1}),
                                   subcommand_list(root)));
  }
  const CLI::Option* opt = app->get_option_no_throw("--" + key);
  if (!opt || key == "input" || key == "help") {
    if (parents.empty())
      throw InputError(fmt::format("{}: key '{}' outside a table; put it in the table of its subcommand: {}",
                                   where(file, node), key, subcommand_list(root)));
    throw InputError(fmt::format("{}: unknown key '{}' in [{}]; its keys are: {}", where(file, node), key,
                                 table_name(parents), key_list(app)));
  }
  const std::string type = opt->get_type_name();
  const auto found = [&]() -> std::string {
    if (node.is_string()) return "string \"" + node.as_string()->get() + "\"";
    if (node.is_integer()) return "integer " + scalar_text(node, key, file);
    if (node.is_floating_point()) return "number " + scalar_text(node, key, file);
    if (node.is_boolean()) return "boolean " + scalar_text(node, key, file);
    return node.is_array() ? "an array" : "a table";
  };
  const auto wrong = [&](const char* expected) {
    return InputError(fmt::format("{}: key '{}' in [{}]: expected {} for --{}, found {}", where(file, node), key,
                                  table_name(parents), expected, key, found()));
  };
  if (opt->get_expected_max() == 0) {  // a switch (CLI11: a flag takes no argument)
    if (!node.is_boolean()) throw wrong("true or false");
  } else if (type.rfind("FLOAT", 0) == 0) {
    if (!node.is_number()) throw wrong("a number");
  } else if (type.rfind("UINT", 0) == 0) {
    if (!node.is_integer() || node.as_integer()->get() < 0) throw wrong("a non-negative integer");
  } else if (type.rfind("INT", 0) == 0) {
    if (!node.is_integer()) throw wrong("an integer");
  }
}

void flatten(const toml::table& table, std::vector<std::string>& parents,
             std::vector<CLI::ConfigItem>& out, const std::string& file, const CLI::App* root) {
  for (const auto& [k, node] : table) {
    const std::string key(k.str());
    if (const auto* sub = node.as_table()) {
      parents.push_back(key);
      flatten(*sub, parents, out, file, root);
      parents.pop_back();
      continue;
    }
    if (root) check_key(root, parents, key, node, file);
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
  flatten(table, parents, items, file, root);
  return items;
}

void add_toml_input(CLI::App& app) {
  auto cfg = std::make_shared<TomlConfig>();
  cfg->root = &app;
  app.config_formatter(cfg);
  app.allow_config_extras(CLI::config_extras_mode::error);
  app.set_config("--input", "", "TOML input file; a [subcommand] table holds that subcommand's flags, "
                 "flags on the command line override it")
      ->each([cfg](const std::string& p) {
        cfg->path = p;
        // Before CLI11's own check, which says "was not readable (missing?)" and exits 103.
        if (!std::ifstream(p)) throw IoError(p + ": cannot read the --input file: " + std::strerror(errno));
      });
  app.fallthrough();
}

}  // namespace gluon::apps
