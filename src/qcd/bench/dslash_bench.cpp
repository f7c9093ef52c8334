// The dslash benchmark (qcd/bench/dslash_bench.h).
#include "gluon/qcd/bench/dslash_bench.h"

#include "gluon/qcd/bench/timing.h"
#include "gluon/qcd/gauge_start.h"
#include "gluon/qcd/random_fields.h"
#include "gluon/qcd/spinor_field.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/memory.h"

namespace gluon::qcd::bench {

DiracParams bench_dirac_params(DiracType type, Precision precision, Reconstruct recon) {
  DiracParams d;
  d.type = type;
  d.kappa = 0.12;
  d.csw = 1.0;
  d.mass = 0.05;
  d.even_odd = true;
  d.precision = precision;
  d.reconstruct = type == DiracType::improved_staggered ? Reconstruct::r18 : recon;
  d.long_reconstruct = recon;
  return d;
}

std::unique_ptr<DiracOperator> make_bench_operator(const DslashBenchParams& p) {
  const Geometry g(p.lattice);
  GaugeFieldParams gp;
  gp.geometry = g;
  gp.space = runtime::memspace_for(p.exec);
  gp.device = p.exec.device;
  GaugeField u(gp);
  set_hot(u, p.seed, p.exec);
  const DiracParams d = bench_dirac_params(p.type, p.precision, p.recon);
  if (p.type == DiracType::improved_staggered) {
    // Fat and long links: two independent Haar fields (the benchmark times the data movement;
    // the long links are SU(3), so they can be stored r12).
    GaugeField longlinks(gp);
    set_hot(longlinks, p.seed + 1, p.exec);
    return make_improved_staggered(d, u, longlinks, p.exec);
  }
  return make_dirac(d, u, p.exec);
}

DslashBenchResult run_dslash_bench(const DslashBenchParams& p) {
  if (p.calls < 1) throw InputError("bench dslash: --iterations must be at least 1, found " + std::to_string(p.calls));
  if (p.warmup < 0) throw InputError("bench dslash: warm-up calls must be >= 0");
  const Geometry g(p.lattice);
  auto op = make_bench_operator(p);
  SpinorField in(op->vector_params()), out(op->vector_params());
  fill_gaussian(in, p.seed + 2, 0, p.exec);
  for (int w = 0; w < p.warmup; ++w) op->M(out, in);
  runtime::synchronize(p.exec);

  DslashBenchResult r;
  r.cost = dslash_cost(p.type, p.precision, p.type == DiracType::improved_staggered ? Reconstruct::r18 : p.recon,
                       p.recon, g.volume());
  r.method = "M (even-odd preconditioned) / 2";
  r.dslash_per_call = 2;
  r.call_ms = median(time_calls(p.exec, p.calls, [&] { op->M(out, in); }));
  r.dslash_ms = r.call_ms / r.dslash_per_call;
  if (r.dslash_ms > 0) {
    r.gflops = r.cost.flops / (r.dslash_ms * 1e-3) / 1e9;
    r.effective_gbs = r.cost.bytes / (r.dslash_ms * 1e-3) / 1e9;
    r.operator_gflops = op->flops_M() / (r.call_ms * 1e-3) / 1e9;
  }
  return r;
}

}  // namespace gluon::qcd::bench
