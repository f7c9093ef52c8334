#pragma once
// The dslash benchmark behind `gluon bench dslash` (docs/bench.md).
//
//   DslashBenchParams   operator, storage precision, link compression (`recon`: thin links of
//                       Wilson/clover/naive staggered, the LONG links of improved staggered,
//                       whose fat links are always stored r18), lattice, Exec, timed calls,
//                       warm-up calls (which also tune the GPU kernels), seed of the random
//                       gauge field (Haar) and source (Gaussian)
//   DslashBenchResult   the cost counts (traffic.h), how it was timed, the median time of one
//                       one-parity dslash, GFLOP/s by the stated flop count, effective GB/s by the
//                       minimum traffic, and the operator's own GFLOP/s (its flops_M())
//   run_dslash_bench(p) builds the operator through make_dirac / make_improved_staggered
//                       (even-odd preconditioned) and times M on even-site vectors. M is two
//                       one-parity hops (D_eo D_oe, with the xpay, and for clover the clover
//                       terms, fused into them), so one dslash = median(M) / 2: this counts the
//                       fused linear algebra against the dslash, a slightly pessimistic figure.
//                       Errors of the operator factories (e.g. an unsupported recon) propagate.
#include <cstdint>
#include <string>

#include "gluon/qcd/bench/traffic.h"
#include "gluon/qcd/dirac/dirac.h"
#include "gluon/qcd/geometry.h"
#include "gluon/runtime/exec.h"

namespace gluon::qcd::bench {

struct DslashBenchParams {
  DiracType type = DiracType::wilson;
  Precision precision = Precision::single;
  Reconstruct recon = Reconstruct::r12;
  Coords lattice{16, 16, 16, 16};
  runtime::Exec exec;
  int calls = 100;
  int warmup = 10;
  std::uint64_t seed = 2026;
};

struct DslashBenchResult {
  DslashCost cost;
  std::string method;        // what was timed, e.g. "M (even-odd) / 2"
  int dslash_per_call = 2;   // one-parity dslashes per timed call
  double call_ms = 0.0;      // median of the timed calls
  double dslash_ms = 0.0;    // call_ms / dslash_per_call
  double gflops = 0.0;       // cost.flops / dslash time
  double effective_gbs = 0.0;// cost.bytes / dslash time
  double operator_gflops = 0.0;  // flops_M() / call time
};

DslashBenchResult run_dslash_bench(const DslashBenchParams& p);

// DiracParams for a benchmark of (type, precision, recon): even-odd, kappa 0.12 (Wilson/clover),
// c_sw 1, mass 0.05 (staggered), default boundary phases. Improved staggered: fat r18, long `recon`.
DiracParams bench_dirac_params(DiracType type, Precision precision, Reconstruct recon);

// The operator on a random (Haar) gauge field generated where p.exec runs.
std::unique_ptr<DiracOperator> make_bench_operator(const DslashBenchParams& p);

}  // namespace gluon::qcd::bench
