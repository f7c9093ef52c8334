// The dslash benchmark (qcd/bench/dslash_bench.h).
#include "gluon/qcd/bench/dslash_bench.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "gluon/comm/environment.h"
#include "gluon/comm/process_grid.h"
#include "gluon/qcd/bench/timing.h"
#include "gluon/qcd/distribute.h"
#include "gluon/qcd/gauge_start.h"
#include "gluon/qcd/random_fields.h"
#include "gluon/qcd/spinor_field.h"
#include "gluon/runtime/device_info.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/memory.h"

namespace gluon::qcd::bench {

DiracParams bench_dirac_params(DiracType type, Precision precision, Reconstruct recon, CloverPreconditioning pc) {
  DiracParams d;
  d.type = type;
  d.clover_pc = pc;
  d.kappa = 0.12;
  d.csw = 1.0;
  d.mass = 0.05;
  d.even_odd = true;
  d.precision = precision;
  d.reconstruct = type == DiracType::improved_staggered ? Reconstruct::r18 : recon;
  d.long_reconstruct = recon;
  return d;
}

namespace {
Geometry bench_geometry(const DslashBenchParams& p) {
  const Coords& gr = p.grid;
  if (gr[0] * gr[1] * gr[2] * gr[3] == 1) return Geometry(p.lattice);
  const comm::Grid4 grid{gr[0], gr[1], gr[2], gr[3]};
  const int ranks = gr[0] * gr[1] * gr[2] * gr[3];
  if (ranks != comm::world().size())
    throw InputError("bench dslash: --grid " + comm::ProcessGrid(grid, 0).to_string() + " needs " +
                     std::to_string(ranks) + " ranks, " + std::to_string(comm::world().size()) + " run");
  return make_geometry(p.lattice, grid, comm::world().rank());
}
}  // namespace

std::unique_ptr<DiracOperator> make_bench_operator(const DslashBenchParams& p) {
  const Geometry g = bench_geometry(p);
  GaugeFieldParams gp;
  gp.geometry = g;
  gp.space = runtime::memspace_for(p.exec);
  gp.device = p.exec.device;
  GaugeField u(gp);
  set_hot(u, p.seed, p.exec);
  const DiracParams d = bench_dirac_params(p.type, p.precision, p.recon, p.clover_pc);
  if (p.type == DiracType::improved_staggered) {
    // Fat and long links: two independent Haar fields (the benchmark times the data movement;
    // the long links are SU(3), so they can be stored r12).
    GaugeField longlinks(gp);
    set_hot(longlinks, p.seed + 1, p.exec);
    return make_improved_staggered(d, u, longlinks, p.exec);
  }
  return make_dirac(d, u, p.exec);
}

void check_ab_settings(const std::vector<std::string>& variables, const std::vector<std::vector<std::string>>& values) {
  if (variables.empty() || values.size() != variables.size())
    throw InputError("bench dslash: --ab-env: one list of values per variable");
  for (std::size_t v = 0; v < variables.size(); ++v) {
    if (variables[v].empty()) throw InputError("bench dslash: --ab-env needs a variable name (NAME=v1,v2,...)");
    if (values[v].size() != values[0].size())
      throw InputError("bench dslash: --ab-env: " + variables[v] + " has " + std::to_string(values[v].size()) +
                       " values, " + variables[0] + " has " + std::to_string(values[0].size()) +
                       ": one value per setting each");
  }
}

namespace {

// The hop timed `calls` times under each A/B setting, interleaved (see DslashBenchParams). A
// setting is read at each call, so one warm-up call per setting first. On a GPU each round
// launches kAbQueued + 1 calls of a setting and keeps the last kAbQueued: the first starts on an
// idle stream, so its time includes the host's launch work, while the others are queued behind
// it, as the plain per-call median's calls are (one call alone read 3-5% slow, and by up to 10%
// for one kernel kind: bench/results/2026-11-27-tail-split/).
constexpr int kAbQueued = 2;
std::vector<DslashAbRun> time_ab(const DslashBenchParams& p, const std::function<void()>& hop) {
  check_ab_settings(p.ab_variables, p.ab_values);
  const std::size_t nv = p.ab_variables.size(), n = p.ab_values[0].size();
  std::vector<std::pair<bool, std::string>> saved;
  for (const auto& var : p.ab_variables) {
    const char* e = std::getenv(var.c_str());
    saved.emplace_back(e != nullptr, e ? e : "");
  }
  auto apply = [&](std::size_t i) {
    for (std::size_t v = 0; v < nv; ++v) ::setenv(p.ab_variables[v].c_str(), p.ab_values[v][i].c_str(), 1);
  };
  auto restore = [&] {
    for (std::size_t v = 0; v < nv; ++v) {
      if (saved[v].first) ::setenv(p.ab_variables[v].c_str(), saved[v].second.c_str(), 1);
      else ::unsetenv(p.ab_variables[v].c_str());
    }
  };
  std::vector<std::vector<double>> t(n);
  try {
    for (std::size_t i = 0; i < n; ++i) {
      apply(i);
      hop();
    }
    runtime::synchronize(p.exec);
    for (int c = 0; c < p.calls; ++c)
      for (std::size_t k = 0; k < n; ++k) {
        const std::size_t i = c % 2 == 0 ? k : n - 1 - k;
        apply(i);
        if (p.exec.on_device()) {
          const std::vector<double> ms = time_calls(p.exec, 1 + kAbQueued, hop);
          t[i].insert(t[i].end(), ms.begin() + 1, ms.end());
        } else {
          t[i].push_back(time_calls(p.exec, 1, hop).front());
        }
      }
  } catch (...) {
    restore();
    throw;
  }
  restore();
  std::vector<DslashAbRun> runs(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t v = 0; v < nv; ++v) runs[i].values.push_back(p.ab_values[v][i]);
    runs[i].dslash_ms = median(t[i]);
  }
  return runs;
}

}  // namespace

DslashBenchResult run_dslash_bench(const DslashBenchParams& p) {
  if (p.calls < 1) throw InputError("bench dslash: --iterations must be at least 1, found " + std::to_string(p.calls));
  if (p.warmup < 0) throw InputError("bench dslash: warm-up calls must be >= 0");
  const Geometry g = bench_geometry(p);
  comm::Communicator& world = comm::world();
  auto op = make_bench_operator(p);
  SpinorField in(op->vector_params()), out(op->hop_params()), mout(op->vector_params());
  fill_gaussian(in, p.seed + 2, 0, p.exec);
  for (int w = 0; w < p.warmup; ++w) {
    op->hop(out, in);
    op->M(mout, in);
  }
  runtime::synchronize(p.exec);
  const bool split = op->split();
  // Ranks start each timed call together, and a call lasts as long as its slowest rank.
  auto timed = [&](auto&& f) {
    std::vector<double> t = time_calls(p.exec, p.calls, [&] {
      if (split) world.barrier();
      f();
    });
    return split ? world.max(median(t)) : median(t);
  };

  DslashBenchResult r;
  const Reconstruct fat_recon = p.type == DiracType::improved_staggered ? Reconstruct::r18 : p.recon;
  r.cost = dslash_cost(p.type, p.precision, fat_recon, p.recon, g.global_volume());
  r.method = p.type == DiracType::clover ? "one-parity hop A_oo^-1 D_oe (M's first kernel)"
                                          : "one-parity hop D_oe (M's first kernel)";
  r.field_order = to_string(op->vector_params().order);
  r.dslash_ms = timed([&] { op->hop(out, in); });
  if (!split) r.dslash_back_to_back_ms = time_back_to_back(p.exec, p.calls, [&] { op->hop(out, in); });
  r.operator_ms = timed([&] { op->M(mout, in); });
  r.memory = runtime::process_memory();  // with the fields still allocated
  r.ranks = world.size();
  r.split = split;
  if (r.dslash_ms > 0) {
    // The operator's own count of the hop, as flops_M() for M (equal to cost.flops: BenchCli tests it).
    r.gflops = world.sum(op->hop_flops()) / (r.dslash_ms * 1e-3) / 1e9;
    r.effective_gbs = r.cost.bytes / (r.dslash_ms * 1e-3) / 1e9;
    r.rank_gflops = r.gflops * static_cast<double>(g.volume()) / static_cast<double>(g.global_volume());
  }
  if (r.operator_ms > 0) {
    r.operator_gflops = world.sum(op->flops_M()) / (r.operator_ms * 1e-3) / 1e9;
    r.operator_effective_gbs = r.cost.operator_bytes / (r.operator_ms * 1e-3) / 1e9;
  }
  if (!p.ab_variables.empty()) {
    if (split) throw InputError("bench dslash: the in-process A/B (--ab-env) runs on one process only");
    r.ab = time_ab(p, [&] { op->hop(out, in); });
    for (auto& a : r.ab) {
      a.gflops = op->hop_flops() / (a.dslash_ms * 1e-3) / 1e9;
      a.effective_gbs = r.cost.bytes / (a.dslash_ms * 1e-3) / 1e9;
    }
  }
  if (!split) return r;

  const HaloStats hs = op->halo_stats();
  r.policy = to_string(hs.policy_used);
  r.transport = hs.transport;
  r.exchange_ms = timed([&] { op->halo_exchange_only(in); });
  {  // the block alone, uncut: the same kernels without any communication
    DslashBenchParams lp = p;
    lp.lattice = g.local_dims();
    lp.grid = {1, 1, 1, 1};
    auto lop = make_bench_operator(lp);
    SpinorField lin(lop->vector_params()), lout(lop->hop_params());
    fill_gaussian(lin, p.seed + 2, 0, p.exec);
    for (int w = 0; w < p.warmup; ++w) lop->hop(lout, lin);
    runtime::synchronize(p.exec);
    r.local_dslash_ms = world.max(median(time_calls(p.exec, p.calls, [&] { lop->hop(lout, lin); })));
  }
  r.exposed_ms = std::max(0.0, r.dslash_ms - r.local_dslash_ms);
  if (r.exchange_ms > 0)
    r.hidden_fraction = std::clamp((r.local_dslash_ms + r.exchange_ms - r.dslash_ms) / r.exchange_ms, 0.0, 1.0);

  HaloModel& m = r.model;
  m.face_bytes = hs.calls > 0 ? hs.bytes_sent / static_cast<double>(hs.calls) : 0.0;
  const double local_flops = r.cost.flops * static_cast<double>(g.volume()) / static_cast<double>(g.global_volume());
  const double mf = r.local_dslash_ms > 0 ? local_flops / (r.local_dslash_ms * 1e-3) : 0.0;  // flop/s
  m.interior_us = mf > 0 ? local_flops / mf * 1e6 : 0.0;
  m.needed_gbs = m.interior_us > 0 ? m.face_bytes / (m.interior_us * 1e-6) / 1e9 : 0.0;
  m.measured_gbs = r.exchange_ms > 0 ? m.face_bytes / (r.exchange_ms * 1e-3) / 1e9 : 0.0;
  int lmin = 0;
  for (int mu = 0; mu < 4; ++mu)
    if (g.grid()[mu] > 1 && (lmin == 0 || g.local_dims()[mu] < lmin)) lmin = g.local_dims()[mu];
  // 0.364 MF / L in MB/s for MF in Mflop/s: bytes/s = 0.364 flop/s / L.
  m.slides_wilson_gbs = lmin > 0 ? 0.364 * mf / lmin / 1e9 : 0.0;
  return r;
}

}  // namespace gluon::qcd::bench
