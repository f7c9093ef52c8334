#pragma once
// The dslash benchmark behind `gluon bench dslash` (docs/bench.md).
//
//   DslashBenchParams   operator, storage precision, link compression (`recon`: thin links of
//                       Wilson/clover/naive staggered, the LONG links of improved staggered,
//                       whose fat links are always stored r18), lattice, Exec, timed calls,
//                       warm-up calls (which also tune the GPU kernels), seed of the random
//                       gauge field (Haar) and source (Gaussian)
//   DslashBenchResult   the cost counts (traffic.h), what was timed, the median time of one
//                       one-parity dslash, GFLOP/s by the stated flop count, effective GB/s by the
//                       minimum traffic; and the same for the whole even-odd M (its own
//                       flops_M(), traffic.h's operator_bytes)
//   run_dslash_bench(p) builds the operator through make_dirac / make_improved_staggered
//                       (even-odd preconditioned) and times, on an even-site Gaussian vector,
//                       DiracOperator::hop: the one-parity hop that M's first kernel runs, D_oe
//                       (A_oo^-1 D_oe for clover), the operation QUDA's dslash test times. Then
//                       it times M itself: the hop and a second hop with the xpay (and the
//                       clover term) fused in. Until 2026-11-25 the dslash was median(M) / 2,
//                       which charged the xpay's extra spinor read to the dslash without
//                       counting it in the minimum traffic (Wilson 5-6% low in double and single).
//                       Errors of the operator factories (e.g. an unsupported recon) propagate.
//                       With a process grid (one rank per block, collective over the world):
//                       the lattice is the global one; the time of a call is the slowest rank's;
//                       aggregate GFLOP/s count the whole lattice, per-rank ones the block; and
//                       three more timings give the communication: the halo exchange alone
//                       (pack + transfer of one dslash's faces), the same dslash on the block
//                       with no cut (periodic in the block: the work without any communication),
//                       and from them the part of the exchange the overlap hid,
//                       hidden = clamp((local + exchange - split) / exchange, 0, 1).
#include <cstdint>
#include <string>
#include <vector>

#include "gluon/qcd/bench/traffic.h"
#include "gluon/qcd/dirac/dirac.h"
#include "gluon/qcd/geometry.h"
#include "gluon/runtime/device_info.h"
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
  CloverPreconditioning clover_pc = CloverPreconditioning::asymmetric;  // clover's M (the hop is the same)
  Coords grid{1, 1, 1, 1};  // process grid (ranks of the world, x fastest)
  // A/B inside one process (one process only): after the plain measurement, `calls` rounds, each
  // timing one hop under each setting in turn (the order reversed every other round; on a GPU
  // three hops a setting, the last two timed: queued, as the plain median's are), for kernel
  // knobs read at each call. Setting i sets every environment variable ab_variables[v] to
  // ab_values[v][i] (lists of equal length). Host processes on a shared machine differ by more
  // than the changes measured; the settings of one process share its memory placement and its
  // spell of the machine. The variables are restored at the end.
  std::vector<std::string> ab_variables;
  std::vector<std::vector<std::string>> ab_values;
};

// Throws InputError unless the A/B settings are well formed: at least one variable, each named,
// each with as many values as the first (run_dslash_bench checks it too; the CLI calls it before
// any work).
void check_ab_settings(const std::vector<std::string>& variables, const std::vector<std::vector<std::string>>& values);

// One setting of DslashBenchParams's A/B: the median of its timed hops.
struct DslashAbRun {
  std::vector<std::string> values;  // one per variable
  double dslash_ms = 0.0;
  double gflops = 0.0;
  double effective_gbs = 0.0;
};

// The slides' model ("LQCD is easy to parallelize"), generalised: the interior of one dslash
// lasts t = flops_local / MF at the measured per-rank rate MF; hiding the faces (face_bytes sent
// per dslash, full duplex) needs a link of face_bytes / t. The slides count the Wilson stencil's
// L^4 block with 24-byte faces in 4 directions: MB = 48 MF / (132 L) = 0.364 MF / L, printed
// beside it with L the smallest cut local extent.
struct HaloModel {
  double face_bytes = 0;       // sent per dslash by one rank
  double interior_us = 0;      // flops_local / MF
  double needed_gbs = 0;       // face_bytes / interior time
  double measured_gbs = 0;     // face_bytes / measured exchange time
  double slides_wilson_gbs = 0;  // 0.364 MF / L with L the smallest cut local extent
};

struct DslashBenchResult {
  DslashCost cost;
  std::string method;        // what was timed as the dslash
  double dslash_ms = 0.0;    // median of the timed one-parity hops
  double dslash_back_to_back_ms = 0.0;  // the same calls back to back (time_back_to_back), one
                                        // process only (0 when split): how a solver and QUDA's
                                        // dslash test run them
  double gflops = 0.0;       // hop_flops() of all ranks (= cost.flops) / dslash time
  double effective_gbs = 0.0;// cost.bytes / dslash time
  double operator_ms = 0.0;  // median of the timed applications of M
  double operator_gflops = 0.0;        // flops_M() / operator time
  double operator_effective_gbs = 0.0; // cost.operator_bytes / operator time
  std::vector<DslashAbRun> ab;         // one per A/B setting, in order
  runtime::ProcessMemory memory;  // after the timed calls: how much of the process's memory lies
                                  // in huge pages (host memory; the CPU's TLB reach)
  std::string field_order;   // the operator's vector order (to_string(FieldOrder)); on the CPU
                             // "tiled" means the vector kernel ran (dirac/wilson.h)
  // Split lattice only (ranks > 1 or a forced cut):
  int ranks = 1;
  bool split = false;
  std::string policy;            // halo policy the timed calls used
  std::string transport;         // how the faces travelled (HaloStats::transport)
  double rank_gflops = 0.0;      // this block's flops / the dslash time
  double local_dslash_ms = 0.0;  // the block alone, uncut
  double exchange_ms = 0.0;      // halo exchange of one dslash, alone
  double exposed_ms = 0.0;       // dslash_ms - local_dslash_ms (>= 0)
  double hidden_fraction = 0.0;
  HaloModel model;
};

DslashBenchResult run_dslash_bench(const DslashBenchParams& p);

// DiracParams for a benchmark of (type, precision, recon): even-odd, kappa 0.12 (Wilson/clover),
// c_sw 1, mass 0.05 (staggered), default boundary phases, clover preconditioning `pc`. Improved
// staggered: fat r18, long `recon`.
DiracParams bench_dirac_params(DiracType type, Precision precision, Reconstruct recon,
                               CloverPreconditioning pc = CloverPreconditioning::asymmetric);

// The operator on a random (Haar) gauge field generated where p.exec runs.
std::unique_ptr<DiracOperator> make_bench_operator(const DslashBenchParams& p);

}  // namespace gluon::qcd::bench
