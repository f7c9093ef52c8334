#include "commands.h"
namespace gluon::apps {
void register_gauge(CLI::App& app) { app.add_subcommand("gauge", "Generate, load, convert and measure gauge fields"); }
}  // namespace gluon::apps
