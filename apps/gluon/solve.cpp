// gluon solve: a quark propagator on a gauge field from a file or a start, by any operator and
// Krylov solver (mixed precision with reliable updates when a sloppy precision is given), and the
// zero-momentum meson correlators from it.
#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <optional>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "gluon/io/atomic_file.h"
#include "gluon/io/gauge_io.h"
#include "gluon/io/propagator_io.h"
#include "gluon/qcd/blas.h"
#include "gluon/qcd/correlators.h"
#include "gluon/qcd/dirac/dirac.h"
#include "gluon/qcd/dirac/staggered_links.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/comm/environment.h"
#include "gluon/qcd/distribute.h"
#include "gluon/qcd/gauge_start.h"
#include "ranks.h"
#include "solver_settings.h"
#include "gluon/qcd/observables.h"
#include "gluon/qcd/propagator.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/exec.h"

namespace gluon::apps {

namespace {

struct SolveOptions {
  std::string gauge, start, lattice = "8,8,8,16";
  bool lattice_given = false;  // --lattice on the command line or in the TOML input
  std::string fat_links, long_links;  // improved staggered: the operator's links as given
  std::uint64_t seed = 1;
  double epsilon = 0.1;
  bool seed_given = false, epsilon_given = false;  // refused where they would change nothing
  bool reunitarize = false;
  std::string op = "wilson";
  double kappa = 0.12, mass = 0.1, csw = 1.0;
  // Given on the command line or in the TOML input: a parameter the operator does not take is an
  // error, not silently dropped; --mass with Wilson/clover is their mass form.
  bool kappa_given = false, mass_given = false, csw_given = false, clover_pc_given = false;
  std::string boundary = "1,1,1,-1";
  bool no_even_odd = false;
  std::string clover_pc = "asymmetric";
  std::string solver = "auto";
  double tol = 1e-10, delta = 0.0;
  int max_iter = 10000;
  int x_update_batch = qcd::SolverParams{}.x_update_batch;
  std::string precision = "double", sloppy = "none", recon = "18", sloppy_recon = "";
  std::string source = "0,0,0,0", source_type = "point";
  std::uint64_t source_seed = 1;
  std::string backend = "auto";
  std::string grid, halo = "auto";
  std::string save_propagator, save_correlators;
  int propagator_bits = 64;
  bool json = false, quiet = false, verbose = false;
};

std::array<double, 4> parse_boundary(const std::string& text) {
  std::array<double, 4> b{};
  std::size_t pos = 0;
  for (int mu = 0; mu < 4; ++mu) {
    const std::size_t end = text.find(',', pos);
    const std::string item = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    if (item == "1" || item == "+1" || item == "p" || item == "periodic")
      b[mu] = 1.0;
    else if (item == "-1" || item == "a" || item == "antiperiodic")
      b[mu] = -1.0;
    else
      throw InputError(fmt::format("--boundary '{}': entry {} must be 1 (periodic) or -1 (antiperiodic), found '{}'",
                                   text, mu + 1, item));
    if (end == std::string::npos && mu < 3)
      throw InputError(fmt::format("--boundary '{}': expected four entries x,y,z,t", text));
    pos = end + 1;
  }
  return b;
}

qcd::Coords parse_site(const std::string& text) {
  qcd::Coords c{};
  int n = 0;
  std::size_t pos = 0;
  while (pos <= text.size() && n < 5) {
    const std::size_t end = text.find(',', pos);
    const std::string item = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    try {
      std::size_t used = 0;
      const int v = std::stoi(item, &used);
      if (used != item.size()) throw std::invalid_argument(item);
      if (n < 4) c[n] = v;
    } catch (const std::exception&) {
      throw InputError(fmt::format("--source '{}': '{}' is not an integer", text, item));
    }
    ++n;
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  if (n != 4) throw InputError(fmt::format("--source '{}': expected x,y,z,t", text));
  return c;
}

qcd::GaugeField load_or_generate(const SolveOptions& o, const runtime::Exec& ex, std::string& source) {
  if (o.gauge.empty() == o.start.empty())
    throw InputError(o.gauge.empty() ? "solve: give --gauge FILE or --start unit|hot|weak"
                                     : "solve: --gauge and --start exclude each other");
  if (!o.gauge.empty()) {
    io::GaugeReadOptions ro;
    ro.reunitarize = o.reunitarize;
    io::GaugeFileInfo info;
    qcd::GaugeField u = io::read_gauge(o.gauge, ro, &info);
    check_lattice_against_file(o.lattice_given, o.lattice, info.dims, o.gauge);
    source = fmt::format("{} ({}{})", o.gauge, info.format_detail, info.reunitarized ? ", re-unitarised" : "");
    return u;
  }
  const auto start = qcd::parse_gauge_start(o.start);
  const qcd::Geometry g(qcd::parse_lattice(o.lattice));
  qcd::GaugeField u = qcd::GaugeField::canonical(g);
  qcd::set_start(u, start, o.seed, o.epsilon, runtime::cpu_exec());
  (void)ex;
  source = fmt::format("{} start {}, seed {}", qcd::to_string(start), g.to_string(), o.seed);
  return u;
}

// --fat-links and --long-links: an improved staggered operator's one-hop and three-hop links from
// gauge files of any supported format (coefficients inside, as asqtad/HISQ codes hand them over;
// checksums and header values verified, nothing re-unitarised), in place of a gauge field.
qcd::ImprovedStaggeredLinks read_improved_links(const SolveOptions& o, std::string& source) {
  if (o.fat_links.empty() || o.long_links.empty())
    throw InputError("solve: --fat-links and --long-links go together (the one-hop and the three-hop links)");
  if (qcd::parse_dirac_type(o.op) != qcd::DiracType::improved_staggered)
    throw InputError("solve: --fat-links/--long-links are the links of --operator improved-staggered, found --operator " + o.op);
  if (!o.gauge.empty() || !o.start.empty())
    throw InputError("solve: --fat-links/--long-links replace --gauge/--start (the operator needs no other links)");
  io::GaugeReadOptions ro;
  io::GaugeFileInfo fi, li;
  qcd::ImprovedStaggeredLinks links{io::read_gauge(o.fat_links, ro, &fi), io::read_gauge(o.long_links, ro, &li)};
  // Smeared and Naik links are not SU(3): a file that stores two rows of each link (NERSC
  // 4D_SU3_GAUGE) has its third row rebuilt as if they were, which would silently change them.
  for (const auto* f : {&fi, &li})
    if (f->stored_rows < 3)
      throw InputError(fmt::format("{} {}: {} stores two rows of each link and rebuilds the third as for an SU(3) "
                                   "matrix, which smeared links are not; write them with all three rows "
                                   "(NERSC 4D_SU3_GAUGE_3x3, ILDG, SciDAC or MILC)",
                                   f == &fi ? "--fat-links" : "--long-links", f->path, f->format_detail));
  if (fi.dims != li.dims)
    throw InputError(fmt::format("{}: lattice {},{},{},{} differs from the fat links' {},{},{},{} ({})", o.long_links,
                                 li.dims[0], li.dims[1], li.dims[2], li.dims[3], fi.dims[0], fi.dims[1], fi.dims[2],
                                 fi.dims[3], o.fat_links));
  check_lattice_against_file(o.lattice_given, o.lattice, fi.dims, o.fat_links);
  source = fmt::format("fat links {} ({}), long links {} ({})", o.fat_links, fi.format_detail, o.long_links,
                       li.format_detail);
  return links;
}

// `whole` is the whole lattice (every rank holds it); the operator acts on this rank's block.
// The improved links are formed on the whole lattice first (the Naik products reach 3 sites),
// unless they were given (`given`: read_improved_links).
std::unique_ptr<qcd::DiracOperator> build_operator(const qcd::DiracParams& p, const qcd::GaugeField& whole,
                                                   const qcd::Geometry& local, const runtime::Exec& ex,
                                                   const qcd::ImprovedStaggeredLinks* given) {
  const bool split = local.volume() != whole.geometry().volume();
  if (p.type != qcd::DiracType::improved_staggered)
    return split ? qcd::make_dirac(p, qcd::scatter_gauge(whole, local), ex) : qcd::make_dirac(p, whole, ex);
  std::optional<qcd::ImprovedStaggeredLinks> made;
  if (!given) given = &made.emplace(qcd::unsmeared_improved_links(whole, runtime::cpu_exec()));
  const qcd::ImprovedStaggeredLinks& links = *given;
  if (!split) return qcd::make_improved_staggered(p, links.fat, links.longlinks, ex);
  return qcd::make_improved_staggered(p, qcd::scatter_gauge(links.fat, local), qcd::scatter_gauge(links.longlinks, local), ex);
}

void write_json_file(const std::string& path, const nlohmann::ordered_json& j) {
  io::AtomicFile f(path);
  f.write(j.dump(2) + "\n");
  f.commit();
}

// Wilson/clover: kappa as given, or from the mass form (4 + m) - D/2 = M / (2 kappa).
double wilson_kappa(const SolveOptions& o) { return o.mass_given ? 1.0 / (2.0 * (4.0 + o.mass)) : o.kappa; }

// The operator's parameters (check_operator_parameters, with Wilson's mass form) and the clover
// preconditioning's form, which needs clover and even-odd preconditioning.
void check_operator_settings(const SolveOptions& o) {
  check_operator_parameters({o.op, o.kappa, o.mass, o.kappa_given, o.mass_given, o.csw_given}, true);
  if (o.clover_pc_given && qcd::parse_dirac_type(o.op) != qcd::DiracType::clover)
    throw InputError(fmt::format("--clover-pc: only --operator clover has a clover term, found --operator {}", o.op));
  if (o.clover_pc_given && o.no_even_odd)
    throw InputError(fmt::format("--clover-pc {}: the form of the even-odd preconditioning, which --no-even-odd turns off",
                                 o.clover_pc));
}

// Settings that cannot work together, refused before anything is read or solved.
void check_settings(const SolveOptions& o) {
  check_operator_settings(o);
  check_start_parameters(o.start, o.seed_given, o.epsilon_given,
                         o.gauge.empty() ? "--fat-links/--long-links" : "--gauge " + o.gauge);
  if (o.max_iter < 1) throw InputError(fmt::format("--max-iter: expected at least 1, found {}", o.max_iter));
  if (o.x_update_batch < 1 || o.x_update_batch > 8)
    throw InputError(fmt::format("--x-update-batch: expected 1 to 8, found {}", o.x_update_batch));
  check_solver_settings(o.precision, o.sloppy, o.tol);
  qcd::parse_reconstruct(o.recon);
  if (!o.sloppy_recon.empty()) {
    qcd::parse_reconstruct(o.sloppy_recon);
    if (o.sloppy == "none")
      throw InputError(fmt::format("--sloppy-recon {}: there is no sloppy operator (--sloppy-precision none)", o.sloppy_recon));
  }
  if (o.propagator_bits != 32 && o.propagator_bits != 64)
    throw InputError(fmt::format("--propagator-precision: expected 32 or 64 bits, found {}", o.propagator_bits));
  if (qcd::parse_source_type(o.source_type) == qcd::SourceType::z2_wall) {
    const qcd::Coords c = parse_site(o.source);
    if (c[0] != 0 || c[1] != 0 || c[2] != 0)
      throw InputError(fmt::format("--source {}: a z2-wall source uses only t (its time slice); give 0,0,0,{}",
                                   o.source, c[3]));
  }
}

void run_solve(const SolveOptions& o) {
  apply_halo_flag(o.halo);
  const runtime::Exec ex = exec_for_rank(o.backend);
  check_settings(o);
  // Results are written after every column is solved: a path that cannot be written fails now,
  // not after the run.
  if (is_root()) {
    if (!o.save_propagator.empty()) io::check_writable(o.save_propagator);
    if (!o.save_correlators.empty()) io::check_writable(o.save_correlators);
  }
  std::string gauge_source;
  std::optional<qcd::ImprovedStaggeredLinks> given;
  if (!o.fat_links.empty() || !o.long_links.empty()) given = read_improved_links(o, gauge_source);
  // Every rank holds the whole lattice's links (read or generated), then keeps its block.
  std::optional<qcd::GaugeField> loaded;
  if (!given) loaded.emplace(load_or_generate(o, ex, gauge_source));
  const qcd::GaugeField& u = given ? given->fat : *loaded;
  const comm::Grid4 grid = grid_for(u.geometry().global_dims(), o.grid);
  const qcd::Geometry g = qcd::make_geometry(u.geometry().global_dims(), grid, comm::world().rank());

  qcd::DiracParams p;
  p.type = qcd::parse_dirac_type(o.op);
  const bool wilson_like = p.type == qcd::DiracType::wilson || p.type == qcd::DiracType::clover;
  // Wilson/clover given --mass report in the mass normalisation (propagator 2 kappa M^-1).
  const bool mass_normalized = !wilson_like || o.mass_given;
  p.kappa = wilson_kappa(o);
  p.mass = o.mass;
  p.csw = o.csw;
  p.boundary = parse_boundary(o.boundary);
  p.even_odd = !o.no_even_odd;
  if (o.clover_pc != "asymmetric" && o.clover_pc != "symmetric")
    throw InputError(fmt::format("--clover-pc: expected asymmetric or symmetric, found '{}'", o.clover_pc));
  p.clover_pc = o.clover_pc == "symmetric" ? qcd::CloverPreconditioning::symmetric : qcd::CloverPreconditioning::asymmetric;
  p.precision = qcd::parse_precision(o.precision);
  p.reconstruct = qcd::parse_reconstruct(o.recon);
  if (p.type == qcd::DiracType::improved_staggered) {  // --recon means the long links; fat links are r18
    p.long_reconstruct = p.reconstruct;
    p.reconstruct = qcd::Reconstruct::r18;
  }

  const auto op = build_operator(p, u, g, ex, given ? &*given : nullptr);
  std::unique_ptr<qcd::DiracOperator> sloppy;
  std::string precision_name = o.precision;
  if (o.sloppy != "none") {
    qcd::DiracParams ps = p;
    ps.precision = qcd::parse_precision(o.sloppy);
    const auto r = qcd::parse_reconstruct(o.sloppy_recon.empty() ? o.recon : o.sloppy_recon);
    if (p.type == qcd::DiracType::improved_staggered) ps.long_reconstruct = r;
    else ps.reconstruct = r;
    sloppy = build_operator(ps, u, g, ex, given ? &*given : nullptr);
    precision_name += "-" + o.sloppy;
  }

  qcd::SolverType solver;
  if (o.solver == "auto")
    solver = op->hermitian_positive() ? qcd::SolverType::cg : qcd::SolverType::bicgstab;
  else
    solver = qcd::parse_solver_type(o.solver);
  qcd::SolverParams sp;
  sp.tol = o.tol;
  sp.max_iter = o.max_iter;
  sp.delta = o.delta;
  sp.x_update_batch = o.x_update_batch;
  sp.verbose = o.verbose;

  qcd::SourceSpec src;
  src.type = qcd::parse_source_type(o.source_type);
  src.position = parse_site(o.source);
  src.seed = o.source_seed;
  qcd::validate_source(src, g);

  qcd::PropagatorResult prop =
      qcd::compute_propagator(*op, sloppy.get(), src, solver, sp, !o.quiet && !o.json && is_root());
  if (wilson_like && mass_normalized)  // (M / (2 kappa))^-1 = 2 kappa M^-1
    for (qcd::SpinorField& col : prop.columns) qcd::blas::scale(2.0 * p.kappa, col, runtime::cpu_exec());
  const qcd::Correlators corr = qcd::meson_correlators(prop.columns, qcd::source_time(src));
  // Aggregate over the ranks: each counts the flops of its own sites; the slowest rank's time.
  double flops_all = prop.solver_flops;
  comm::world().allreduce_sum(&flops_all, 1);
  const double solver_seconds = comm::world().max(prop.solver_seconds);
  const double gflops = solver_seconds > 0 ? flops_all / solver_seconds * 1e-9 : 0.0;
  const std::string normalization = mass_normalized ? "mass" : "kappa";
  const std::string corr_norm =
      !wilson_like ? "mass normalisation M = m + D: C(t) = sum_x sum_{a,b} |G(x)_ab|^2 (Goldstone pion)"
      : mass_normalized
          ? "mass normalisation (4 + m) - D/2 = M / (2 kappa): C(t) as defined in docs/conventions.md of the propagator 2 kappa M^-1, (2 kappa)^2 times the hopping normalisation's"
          : "hopping normalisation M = 1 - kappa D: C(t) as defined in docs/conventions.md; multiply by (2 kappa)^2 for the mass normalisation";

  nlohmann::ordered_json j;
  j["lattice"] = {g.global_dims()[0], g.global_dims()[1], g.global_dims()[2], g.global_dims()[3]};
  j["gauge"] = gauge_source;
  if (!given) j["plaquette"] = qcd::plaquette(u, runtime::cpu_exec()).total;  // (of smeared links: meaningless)
  j["operator"] = qcd::to_string(p.type);
  j["normalization"] = normalization;
  if (wilson_like) j["kappa"] = p.kappa;
  if (mass_normalized) j["mass"] = o.mass;
  if (p.type == qcd::DiracType::clover) {
    j["csw"] = p.csw;
    j["clover_pc"] = o.clover_pc;
  }
  j["boundary"] = p.boundary;
  j["even_odd"] = p.even_odd;
  j["backend"] = runtime::to_string(ex.backend);
  j["ranks"] = comm::world().size();
  j["grid"] = {grid[0], grid[1], grid[2], grid[3]};
  if (op->split()) {
    j["halo_policy"] = qcd::to_string(op->halo_stats().policy_used);
    j["halo_transport"] = op->halo_stats().transport;
  }
  j["solver"] = qcd::to_string(solver);
  j["precision"] = precision_name;
  j["reconstruct"] = {{"precise", qcd::to_string(p.reconstruct)},
                      {"sloppy", sloppy ? qcd::to_string(sloppy->params().reconstruct) : std::string("-")}};
  j["tolerance"] = o.tol;
  j["source"] = {{"type", qcd::to_string(src.type)}, {"position", src.position}, {"seed", src.seed}};
  j["iterations"] = prop.iterations;
  j["true_residual"] = prop.max_true_residual;
  j["full_residual"] = prop.max_full_residual;
  j["seconds"] = prop.seconds;
  j["solver_seconds"] = solver_seconds;
  j["gflops"] = gflops;  // all ranks together
  j["gflops_per_rank"] = gflops / comm::world().size();
  nlohmann::ordered_json cols = nlohmann::ordered_json::array();
  for (std::size_t c = 0; c < prop.solves.size(); ++c) {
    const auto& r = prop.solves[c];
    cols.push_back({{"iterations", r.iterations}, {"true_residual", r.true_residual},
                    {"full_residual", prop.full_residuals[c]}, {"reliable_updates", r.reliable_updates},
                    {"seconds", r.seconds}});
  }
  j["columns"] = cols;
  if (!prop.solves.empty() && prop.solves.front().reliable_delta > 0)
    j["reliable_delta"] = prop.solves.front().reliable_delta;
  j["correlators"] = {{"t0", corr.t0}, {"normalization", corr_norm}, {"pion", corr.pion}};
  if (!corr.rho.empty()) j["correlators"]["rho"] = corr.rho;

  // The small result first: a propagator write that fails (a full disk) must not take the
  // correlators with it.
  if (is_root() && !o.save_correlators.empty()) write_json_file(o.save_correlators, j);
  if (!o.save_propagator.empty()) {
    nlohmann::ordered_json meta = j;
    meta.erase("columns");
    io::write_propagator(o.save_propagator, prop.columns,
                         "<gluon><propagator_json><![CDATA[" + meta.dump() + "]]></propagator_json></gluon>",
                         o.propagator_bits, comm::world());  // each rank its block
    j["saved_propagator"] = o.save_propagator;
  }
  if (!is_root()) return;  // rank 0 reports and writes
  if (!o.save_correlators.empty()) j["saved_correlators"] = o.save_correlators;

  if (o.json) {
    fmt::print("{}\n", j.dump(2));
    return;
  }
  if (given) fmt::print("links        {} {}\n", g.to_string(), gauge_source);
  else fmt::print("gauge        {} {}, plaquette {:.10f}\n", g.to_string(), gauge_source, j["plaquette"].get<double>());
  fmt::print("operator     {} ({}{}), boundary {},{},{},{}, {}\n", qcd::to_string(p.type),
             !wilson_like ? fmt::format("mass = {}", p.mass)
             : mass_normalized ? fmt::format("mass = {}, kappa = {}", o.mass, p.kappa)
                               : fmt::format("kappa = {}", p.kappa),
             p.type == qcd::DiracType::clover ? fmt::format(", c_sw = {}, {} preconditioning", p.csw, o.clover_pc) : "",
             p.boundary[0], p.boundary[1], p.boundary[2], p.boundary[3],
             p.even_odd ? "even-odd preconditioned" : "unpreconditioned");
  fmt::print("solver       {} in {} precision (recon {}), tol {:.1e}, on {}{}\n", qcd::to_string(solver),
             precision_name, o.recon, o.tol, runtime::to_string(ex.backend),
             comm::world().size() > 1 ? fmt::format(", {} ranks on grid {} (halo {})", comm::world().size(),
                                                    grid_text(grid), j.value("halo_policy", std::string("-")))
                                      : std::string());
  fmt::print("source       {} at {},{},{},{}\n", qcd::to_string(src.type), src.position[0], src.position[1],
             src.position[2], src.position[3]);
  fmt::print("solves       {} columns, {} iterations, max true residual {:.3e} (full system {:.3e}), {:.3f} s in the "
             "solver, {:.1f} GFLOP/s\n",
             prop.solves.size(), prop.iterations, prop.max_true_residual, prop.max_full_residual, solver_seconds, gflops);
  fmt::print("correlators  ({} normalisation)\n", normalization);
  fmt::print("{:>4}  {:>22}{}\n", "t", "pion", corr.rho.empty() ? "" : fmt::format("  {:>22}", "rho"));
  for (std::size_t t = 0; t < corr.pion.size(); ++t)
    fmt::print("{:>4}  {:>22.15e}{}\n", t, corr.pion[t], corr.rho.empty() ? "" : fmt::format("  {:>22.15e}", corr.rho[t]));
  if (!o.save_propagator.empty()) fmt::print("saved        propagator {}\n", o.save_propagator);
  if (!o.save_correlators.empty()) fmt::print("saved        correlators {}\n", o.save_correlators);
}

}  // namespace

void check_lattice_against_file(bool given, const std::string& lattice, const std::array<int, 4>& dims, const std::string& file) {
  if (!given) return;
  const qcd::Coords want = qcd::parse_lattice(lattice);
  if (want != dims)
    throw InputError(fmt::format("--lattice {},{},{},{}: {} holds a {},{},{},{} lattice (--lattice is for --start; "
                                 "drop it or give the file's)",
                                 want[0], want[1], want[2], want[3], file, dims[0], dims[1], dims[2], dims[3]));
}

void check_start_parameters(const std::string& start, bool seed_given, bool epsilon_given, const std::string& field_from) {
  if (start.empty()) {
    if (seed_given)
      throw InputError(fmt::format("--seed: seeds a generated field (--start hot|weak); the field comes from {}", field_from));
    if (epsilon_given)
      throw InputError(fmt::format("--epsilon: the amplitude of --start weak; the field comes from {}", field_from));
    return;
  }
  const qcd::GaugeStart s = qcd::parse_gauge_start(start);
  if (seed_given && s == qcd::GaugeStart::unit)
    throw InputError(fmt::format("--seed: --start {} draws no random numbers (hot and weak do)", start));
  if (epsilon_given && s != qcd::GaugeStart::weak)
    throw InputError(fmt::format("--epsilon: the amplitude of --start weak, found --start {}", start));
}

void register_solve(CLI::App& app) {
  auto o = std::make_shared<SolveOptions>();
  auto* cmd = app.add_subcommand("solve", "Quark propagator and meson correlators on a gauge field");
  cmd->add_option("--gauge", o->gauge, "Gauge file (NERSC, ILDG, SciDAC, MILC)");
  cmd->add_option("--start", o->start, "Or generate the gauge field: unit, hot, weak");
  cmd->add_option("--fat-links", o->fat_links,
                  "Improved staggered: one-hop (fat) links from a gauge file, coefficients inside (with --long-links, "
                  "in place of --gauge/--start)");
  cmd->add_option("--long-links", o->long_links, "Improved staggered: three-hop (Naik) links from a gauge file");
  auto* lattice = cmd->add_option("--lattice", o->lattice, "Lattice for --start")->capture_default_str();
  auto* seed = cmd->add_option("--seed", o->seed, "Seed for --start hot|weak")->check(non_negative_integer())->capture_default_str();
  auto* epsilon = cmd->add_option("--epsilon", o->epsilon, "Weak-field amplitude for --start weak")->capture_default_str();
  cmd->add_flag("--reunitarize", o->reunitarize, "Re-unitarise the loaded links in double");
  cmd->add_option("--operator", o->op, "wilson, clover, staggered, improved-staggered")->capture_default_str();
  auto* kappa = cmd->add_option("--kappa", o->kappa, "Hopping parameter (Wilson, clover)")->capture_default_str();
  auto* mass = cmd->add_option("--mass", o->mass,
                               "Quark mass: staggered; or Wilson/clover's mass form, kappa = 1/(2 (4 + m)), with output "
                               "in the mass normalisation")
                   ->capture_default_str();
  auto* csw = cmd->add_option("--csw", o->csw, "Clover coefficient c_sw (clover)")->capture_default_str();
  cmd->add_option("--boundary", o->boundary, "Fermion boundary phases x,y,z,t (1 or -1)")->capture_default_str();
  cmd->add_flag("--no-even-odd", o->no_even_odd, "Solve the unpreconditioned system");
  auto* clover_pc =
      cmd->add_option("--clover-pc", o->clover_pc, "asymmetric or symmetric clover preconditioning")->capture_default_str();
  cmd->add_option("--solver", o->solver, "auto, cg, cgnr, cgne, bicgstab")->capture_default_str();
  cmd->add_option("--tol", o->tol, "Relative true residual to reach")->capture_default_str();
  cmd->add_option("--max-iter", o->max_iter, "Iteration limit per column")->capture_default_str();
  cmd->add_option("--delta", o->delta,
                  "Reliable-update threshold (mixed precision); 0: by the sloppy precision and solver, single 0.001 BiCGstab, 0.0001 CG family; half 0.02 BiCGstab, 0.1 CG family")
      ->capture_default_str();
  cmd->add_option("--x-update-batch", o->x_update_batch,
                  "CG/CGNR/CGNE: iterations whose solution updates are applied in one pass (1 to 8)")
      ->capture_default_str();
  cmd->add_option("--precision", o->precision, "Outer precision: double, single, half")->capture_default_str();
  cmd->add_option("--sloppy-precision", o->sloppy, "Inner precision for mixed solves: none, single, half")->capture_default_str();
  cmd->add_option("--recon", o->recon, "Link compression of the outer operator: 18, 12, 8")->capture_default_str();
  cmd->add_option("--sloppy-recon", o->sloppy_recon, "Link compression of the sloppy operator (default: --recon)");
  cmd->add_option("--source", o->source, "Source site x,y,z,t (z2-wall: t is the time slice)")->capture_default_str();
  cmd->add_option("--source-type", o->source_type, "point or z2-wall")->capture_default_str();
  cmd->add_option("--source-seed", o->source_seed, "Seed of the Z2 wall noise")->check(non_negative_integer())->capture_default_str();
  cmd->add_option("--backend", o->backend, "auto, cpu or cuda")->capture_default_str();
  cmd->add_option("--grid", o->grid, "Process grid X,Y,Z,T under mpirun (default: least surface)");
  cmd->add_option("--halo", o->halo, "Halo policy on a split lattice: auto, overlap, no-overlap")->capture_default_str();
  cmd->add_option("--save-propagator", o->save_propagator, "Write the propagator (SciDAC LIME)");
  cmd->add_option("--propagator-precision", o->propagator_bits, "32 or 64 bits in the propagator file")->capture_default_str();
  cmd->add_option("--save-correlators", o->save_correlators, "Write the result JSON (correlators included) to a file");
  cmd->add_flag("--json", o->json, "Print one JSON object");
  cmd->add_flag("--quiet", o->quiet, "No progress lines");
  cmd->add_flag("--verbose", o->verbose, "Solver log lines");
  cmd->callback([o, lattice, seed, epsilon, kappa, mass, csw, clover_pc] {
    o->lattice_given = lattice->count() > 0;
    o->seed_given = seed->count() > 0;
    o->epsilon_given = epsilon->count() > 0;
    o->kappa_given = kappa->count() > 0;
    o->mass_given = mass->count() > 0;
    o->csw_given = csw->count() > 0;
    o->clover_pc_given = clover_pc->count() > 0;
    run_solve(*o);
  });
}

}  // namespace gluon::apps
