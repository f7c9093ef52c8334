// gluon gauge: generate (unit/hot/weak), load any supported file, convert between formats, and
// measure (plaquette, rectangle, Polyakov loop, link trace, unitarity). Measurements run on the
// chosen backend, on a copy of the field in the chosen storage precision and compression.
#include <fmt/format.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "gluon/io/gauge_io.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/qcd/gauge_start.h"
#include "gluon/qcd/observables.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/exec.h"

namespace gluon::apps {

namespace {

struct GaugeOptions {
  std::string start, lattice = "8,8,8,8", load, format = "auto";
  bool lattice_given = false;  // --lattice on the command line or in the TOML input
  std::uint64_t seed = 1;
  double epsilon = 0.1;
  bool seed_given = false, epsilon_given = false;  // refused where they would change nothing
  bool reunitarize = false, no_verify = false;
  std::string save, save_format = "nersc", endian = "big";
  int save_precision = 64, nersc_rows = 3;
  std::string backend = "auto", precision = "double", recon = "18";
  bool json = false;
};

struct Measurements {
  qcd::PlaquetteResult plaq{};
  double rectangle = 0, link_trace = 0, unitarity = 0;
  qcd::Complex<double> polyakov{};
  double seconds = 0;
};

Measurements measure(const qcd::GaugeField& canonical, const GaugeOptions& o, const runtime::Exec& ex) {
  qcd::GaugeFieldParams p = canonical.params();
  p.precision = qcd::parse_precision(o.precision);
  p.reconstruct = qcd::parse_reconstruct(o.recon);
  p.space = runtime::memspace_for(ex);
  p.device = ex.device;
  p.order = ex.on_device() ? qcd::FieldOrder::blocked : qcd::FieldOrder::site_major;
  qcd::GaugeField work(p);
  qcd::convert(canonical, work, ex);
  const auto t0 = std::chrono::steady_clock::now();
  Measurements m;
  m.plaq = qcd::plaquette(work, ex);
  m.rectangle = qcd::rectangle(work, ex);
  m.polyakov = qcd::polyakov_loop(work, ex);
  m.link_trace = qcd::link_trace(work, ex);
  m.unitarity = qcd::max_unitarity_deviation(work, ex);
  m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return m;
}

std::string lattice_text(const qcd::Coords& d) {
  return fmt::format("{}x{}x{}x{}", d[0], d[1], d[2], d[3]);
}

void run_gauge(const GaugeOptions& o) {
  if (o.load.empty() == o.start.empty())
    throw InputError(o.load.empty() ? "gauge: nothing to do: give --load FILE or --start unit|hot|weak"
                                    : "gauge: --load and --start exclude each other");
  check_start_parameters(o.start, o.seed_given, o.epsilon_given, "--load " + o.load);
  const runtime::Exec ex = runtime::exec_from_name(o.backend);

  qcd::GaugeField u;
  io::GaugeFileInfo info;
  std::string source, format = "generated";
  if (!o.load.empty()) {
    io::GaugeReadOptions ro;
    ro.verify = !o.no_verify;
    ro.reunitarize = o.reunitarize;
    if (o.format != "auto") {
      const auto want = io::parse_gauge_format(o.format);
      const auto found = io::detect_gauge_format(o.load);
      if (want != found)
        throw FileFormatError(o.load, "format", io::to_string(want), io::to_string(found));
    }
    u = io::read_gauge(o.load, ro, &info);
    check_lattice_against_file(o.lattice_given, o.lattice, info.dims, o.load);
    source = o.load;
    format = io::to_string(info.format);
  } else {
    const auto start = qcd::parse_gauge_start(o.start);
    const qcd::Geometry g(qcd::parse_lattice(o.lattice));
    qcd::GaugeFieldParams p;
    p.geometry = g;
    p.space = runtime::memspace_for(ex);
    p.device = ex.device;
    p.order = ex.on_device() ? qcd::FieldOrder::blocked : qcd::FieldOrder::site_major;
    qcd::GaugeField gen(p);
    switch (start) {
      case qcd::GaugeStart::unit: qcd::set_unit(gen, ex); break;
      case qcd::GaugeStart::hot: qcd::set_hot(gen, o.seed, ex); break;
      case qcd::GaugeStart::weak: qcd::set_weak(gen, o.seed, o.epsilon, ex); break;
    }
    u = qcd::GaugeField::canonical(g);
    qcd::convert(gen, u, ex);
    source = fmt::format("{} start, seed {}", qcd::to_string(start), o.seed);
    if (start == qcd::GaugeStart::weak) source += fmt::format(", epsilon {}", o.epsilon);
  }

  const Measurements m = measure(u, o, ex);

  std::string saved;
  if (!o.save.empty()) {
    io::GaugeWriteOptions wo;
    wo.format = io::parse_gauge_format(o.save_format);
    wo.precision_bits = o.save_precision;
    if (wo.precision_bits != 32 && wo.precision_bits != 64)
      throw InputError(fmt::format("--save-precision: expected 32 or 64, found {}", o.save_precision));
    if (o.nersc_rows != 2 && o.nersc_rows != 3)
      throw InputError(fmt::format("--nersc-rows: expected 2 or 3, found {}", o.nersc_rows));
    wo.nersc_two_rows = o.nersc_rows == 2;
    if (o.endian != "big" && o.endian != "little")
      throw InputError(fmt::format("--endian: expected big or little, found '{}'", o.endian));
    wo.big_endian = o.endian == "big";
    io::write_gauge(o.save, u, wo);
    saved = o.save;
  }

  const auto& dims = u.geometry().global_dims();
  if (o.json) {
    nlohmann::ordered_json j;
    j["lattice"] = {dims[0], dims[1], dims[2], dims[3]};
    j["source"] = source;
    j["format"] = format;
    if (!o.load.empty()) {
      j["format_detail"] = info.format_detail;
      j["file_precision_bits"] = info.precision_bits;
      j["checks_passed"] = info.checks_passed;
      if (info.header_plaquette) j["header_plaquette"] = *info.header_plaquette;
      if (info.header_link_trace) j["header_link_trace"] = *info.header_link_trace;
      j["reunitarized"] = info.reunitarized;
    }
    j["backend"] = runtime::to_string(ex.backend);
    j["storage"] = {{"precision", o.precision}, {"reconstruct", qcd::to_string(qcd::parse_reconstruct(o.recon))}};
    j["plaquette"] = m.plaq.total;
    j["plaquette_spatial"] = m.plaq.spatial;
    j["plaquette_temporal"] = m.plaq.temporal;
    j["rectangle"] = m.rectangle;
    j["link_trace"] = m.link_trace;
    j["polyakov_loop"] = {{"re", m.polyakov.re}, {"im", m.polyakov.im}};
    j["max_unitarity_deviation"] = m.unitarity;
    j["normalization"] = "Re tr / 3 (plaquette: mean over 6V plaquettes)";
    if (!saved.empty()) j["saved"] = {{"path", saved}, {"format", o.save_format}, {"precision_bits", o.save_precision}};
    fmt::print("{}\n", j.dump(2));
    return;
  }
  fmt::print("gauge field  {} from {}\n", lattice_text(dims), source);
  if (!o.load.empty()) {
    fmt::print("format       {}\n", info.format_detail);
    for (const auto& c : info.checks_passed) fmt::print("verified     {}\n", c);
    if (info.reunitarized) fmt::print("             re-unitarised in double after reading\n");
  }
  fmt::print("measured on  {} ({} precision, reconstruct {})\n", runtime::to_string(ex.backend),
             o.precision, o.recon);
  fmt::print("plaquette    {:.10f}  (spatial {:.10f}, temporal {:.10f})\n", m.plaq.total,
             m.plaq.spatial, m.plaq.temporal);
  fmt::print("rectangle    {:.10f}\n", m.rectangle);
  fmt::print("polyakov     {:+.10f} {:+.10f}i\n", m.polyakov.re, m.polyakov.im);
  fmt::print("link trace   {:.10f}\n", m.link_trace);
  fmt::print("unitarity    max |U U^+ - 1| + |det U - 1| = {:.3e}\n", m.unitarity);
  if (!saved.empty())
    fmt::print("saved        {} ({}, {}-bit)\n", saved, o.save_format, o.save_precision);
}

}  // namespace

void register_gauge(CLI::App& app) {
  auto opts = std::make_shared<GaugeOptions>();
  auto* cmd = app.add_subcommand("gauge", "Generate, load, convert and measure gauge fields");
  cmd->add_option("--start", opts->start, "Generate a field: unit, hot (Haar random) or weak");
  auto* lattice = cmd->add_option("--lattice", opts->lattice, "Lattice X,Y,Z,T for --start (even extents)")->capture_default_str();
  auto* seed = cmd->add_option("--seed", opts->seed, "Random seed for hot/weak starts")->check(non_negative_integer())->capture_default_str();
  auto* epsilon = cmd->add_option("--epsilon", opts->epsilon, "Weak-field noise amplitude")->capture_default_str();
  cmd->add_option("--load", opts->load, "Read a gauge file (NERSC, ILDG, SciDAC or MILC; detected by content)");
  cmd->add_option("--format", opts->format, "Insist that --load has this format: auto, nersc, ildg, scidac, milc")->capture_default_str();
  cmd->add_flag("--reunitarize", opts->reunitarize, "Re-unitarise links in double after reading");
  cmd->add_flag("--no-verify", opts->no_verify, "Skip checksum/plaquette verification on read");
  cmd->add_option("--save", opts->save, "Write the field to this file (atomically)");
  cmd->add_option("--save-format", opts->save_format, "nersc, ildg, scidac or milc (milc: 32-bit only)")->capture_default_str();
  cmd->add_option("--save-precision", opts->save_precision, "32 or 64 bits per real")->capture_default_str();
  cmd->add_option("--nersc-rows", opts->nersc_rows, "NERSC: 3 (4D_SU3_GAUGE_3x3) or 2 (4D_SU3_GAUGE)")->capture_default_str();
  cmd->add_option("--endian", opts->endian, "NERSC byte order: big or little")->capture_default_str();
  cmd->add_option("--backend", opts->backend, "auto, cpu or cuda")->capture_default_str();
  cmd->add_option("--precision", opts->precision, "Storage precision for measuring: double, single, half")->capture_default_str();
  cmd->add_option("--recon", opts->recon, "Storage compression for measuring: 18, 12, 8")->capture_default_str();
  cmd->add_flag("--json", opts->json, "Print one JSON object");
  cmd->callback([opts, lattice, seed, epsilon] {
    opts->lattice_given = lattice->count() > 0;
    opts->seed_given = seed->count() > 0;
    opts->epsilon_given = epsilon->count() > 0;
    run_gauge(*opts);
  });
}

}  // namespace gluon::apps
