#include "gluon/io/gauge_io.h"

#include <cstring>
#include <fstream>

#include "gauge_common.h"
#include "gluon/io/atomic_file.h"
#include "gluon/io/byte_order.h"
#include "gluon/io/checksum.h"
#include "gluon/io/ildg.h"
#include "gluon/io/lime.h"
#include "gluon/io/milc.h"
#include "gluon/io/nersc.h"
#include "gluon/qcd/observables.h"
#include "gluon/runtime/error.h"

namespace gluon::io {

namespace {

void check_write_options(const std::string& path, const qcd::GaugeField& u, const GaugeWriteOptions& o) {
  detail::check_write_options(path, o);
  if (!u.params().canonical())
    throw InputError(path + ": write_gauge: expected a canonical field (double r18 site_major host), found " +
                     u.params().describe());
  if (u.geometry().grid() != qcd::Coords{1, 1, 1, 1})
    throw InputError(path + ": write_gauge: expected a single-process geometry, found process grid " +
                     std::to_string(u.geometry().grid()[0]) + "x" + std::to_string(u.geometry().grid()[1]) + "x" +
                     std::to_string(u.geometry().grid()[2]) + "x" + std::to_string(u.geometry().grid()[3]));
}

}  // namespace

std::string to_string(GaugeFormat f) {
  switch (f) {
    case GaugeFormat::nersc: return "nersc";
    case GaugeFormat::ildg: return "ildg";
    case GaugeFormat::scidac: return "scidac";
    case GaugeFormat::milc: return "milc";
  }
  return "unknown";
}

GaugeFormat parse_gauge_format(const std::string& name) {
  for (GaugeFormat f : {GaugeFormat::nersc, GaugeFormat::ildg, GaugeFormat::scidac, GaugeFormat::milc})
    if (name == to_string(f)) return f;
  throw InputError("gauge file format: expected nersc, ildg, scidac or milc, found '" + name + "'");
}

GaugeFormat detect_gauge_format(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError(path + ": cannot open for reading: " + std::strerror(errno));
  in.seekg(0, std::ios::end);
  const std::uint64_t size = static_cast<std::uint64_t>(in.tellg());
  in.seekg(0);
  unsigned char first[16] = {};
  const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(size, sizeof first));
  in.read(reinterpret_cast<char*>(first), static_cast<std::streamsize>(n));
  if (!in) throw IoError(path + ": read failed");
  return detail::classify_gauge(first, n, path, [&] {
    return lime_list(
        [&](std::uint64_t off, std::size_t k, unsigned char* dst) {
          in.clear();
          in.seekg(static_cast<std::streamoff>(off));
          in.read(reinterpret_cast<char*>(dst), static_cast<std::streamsize>(k));
          if (!in) throw IoError(path + ": read of " + std::to_string(k) + " bytes at " + std::to_string(off) + " failed");
        },
        size, path);
  });
}

qcd::GaugeField read_gauge(const std::string& path, const GaugeReadOptions& opts, GaugeFileInfo* info_out) {
  const std::string bytes = read_file(path);
  GaugeFileInfo info;
  info.path = path;
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const GaugeFormat f = detail::classify_gauge(p, bytes.size(), path, [&] { return lime_list(bytes, path); });
  qcd::GaugeField u;
  switch (f) {
    case GaugeFormat::nersc: u = read_nersc(bytes, path, opts, info); break;
    case GaugeFormat::ildg:
    case GaugeFormat::scidac: u = read_lime_gauge(bytes, path, opts, info); break;
    case GaugeFormat::milc: u = read_milc(bytes, path, opts, info); break;
  }
  const runtime::Exec ex = runtime::cpu_exec();
  info.max_unitarity_deviation = qcd::max_unitarity_deviation(u, ex);
  if (opts.reunitarize) {
    qcd::reunitarize(u, ex);
    info.reunitarized = true;
  }
  if (info_out) *info_out = std::move(info);
  return u;
}

void write_gauge(const std::string& path, const qcd::GaugeField& u, const GaugeWriteOptions& opts) {
  check_write_options(path, u, opts);
  switch (opts.format) {
    case GaugeFormat::nersc: write_nersc(path, u, opts); break;
    case GaugeFormat::ildg:
    case GaugeFormat::scidac: write_lime_gauge(path, u, opts); break;
    case GaugeFormat::milc: write_milc(path, u, opts); break;
  }
}

}  // namespace gluon::io
