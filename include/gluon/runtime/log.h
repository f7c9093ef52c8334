#pragma once
// Levelled logging to stderr (or a sink set by tests). Host code only: messages are finished
// strings (format them with fmt in host code; this header stays free of fmt so that kernel files
// may include runtime headers).
//
//   Level                       error < warn < info < debug < trace; a message is written when its
//                               level is <= the global level (default info)
//   set_level / level           the global level; at first use it is taken from $GLUON_LOG_LEVEL
//                               (error|warn|warning|info|debug|trace or 0..4, any case) when set;
//                               a bad value is reported once on stderr and info is used
//   level_from_name             parses a level name; InputError naming the value otherwise
//   enabled(l)                  true when a message of level l would be written (skip expensive
//                               formatting when false)
//   error/warn/info/debug/trace one message, one line: "[gluon   12.345s WARN ] message", the time
//                               being seconds since the logger was first used; multi-line messages
//                               get the prefix on every line. Thread-safe: lines never interleave.
//   set_sink                    redirect output (tests); nullptr restores stderr. The stream must
//                               outlive its use as sink.
//   init_from_env               re-read $GLUON_LOG_LEVEL (tests, or after setenv)
#include <iosfwd>
#include <string>

namespace gluon::runtime::log {

enum class Level { error = 0, warn = 1, info = 2, debug = 3, trace = 4 };

void set_level(Level l);
Level level();
bool enabled(Level l);
Level level_from_name(const std::string& name);
std::string to_string(Level l);
void init_from_env();
void set_sink(std::ostream* sink);

void write(Level l, const std::string& message);
inline void error(const std::string& m) { write(Level::error, m); }
inline void warn(const std::string& m) { write(Level::warn, m); }
inline void info(const std::string& m) { write(Level::info, m); }
inline void debug(const std::string& m) { write(Level::debug, m); }
inline void trace(const std::string& m) { write(Level::trace, m); }

}  // namespace gluon::runtime::log
