#pragma once
// Work and minimum memory traffic of one one-parity dslash (V/2 output sites), the counts that
// `gluon bench dslash` turns into GFLOP/s and effective GB/s (docs/bench.md states the formula).
//
//   DslashCost        flops_per_site (QUDA's counts of the one-parity hop: Wilson 1320, clover
//                     1824 = the hop with the inverse clover term applied, 1320 + 504; the issue's
//                     1872 adds the 48 of an xpay, which this hop does not do; naive staggered
//                     570, improved staggered 1146), flops and bytes of one call, and the bytes
//                     of one even-odd M (operator_bytes)
//   dslash_cost(...)  for an operator, storage precision, link compression (fat/thin links; long
//                     links of improved staggered separately) and lattice:
//                       bytes = 4V (R [+ R_long]) w                 links, all 4V of each field
//                             + (V/2) 2 (s w + n)                  input and output spinors
//                             [+ (V/2) (72 w + 2 n)]               clover term (two 6x6 Hermitian
//                                                                  blocks per site)
//                     w = bytes per real (8/4/2), n = 4-byte norm per site in half precision
//                     (0 otherwise), s = 24 reals (Wilson/clover) or 6 (staggered), R = stored
//                     reals per link (18/12/8). Every input element is read once and the output
//                     written once: the least traffic any implementation needs.
//                     operator_bytes = 2 bytes + (V/2) (s w + n): M is two such hops, the second
//                     also reading M's input at its output sites (the xpay).
#include <cstdint>
#include <string>

#include "gluon/qcd/dirac/dirac.h"
#include "gluon/qcd/precision.h"

namespace gluon::qcd::bench {

struct DslashCost {
  double flops_per_site = 0.0;
  double flops = 0.0;  // per call: flops_per_site x V/2
  double bytes = 0.0;  // per call, minimum traffic
  double operator_bytes = 0.0;  // per even-odd M: two hops and the xpay's read
  std::string formula; // the byte count written out with this configuration's numbers
};

DslashCost dslash_cost(DiracType type, Precision p, Reconstruct recon, Reconstruct long_recon,
                       std::int64_t volume);

double flops_per_site(DiracType type);

}  // namespace gluon::qcd::bench
