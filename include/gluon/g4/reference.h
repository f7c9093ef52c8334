#pragma once
// Plain-loop references (host, double precision, no kernels), written from the formulas of
// docs/g4.md without the index helpers of the kernels: the tests pin the kernels against them.
//
//   reference_g4   the full stacked G4 (every channel of params, layout.h order) accumulated from
//                  the synthetic measurements `ids` (generate_g's values, regenerated here).
//   RelativeErrors the paper's criterion: L1 = ||a - ref||_1 / ||ref||_1 and
//                  L2 = ||a - ref||_2 / ||ref||_2, entrywise over complex moduli.
#include <complex>
#include <cstdint>
#include <span>
#include <vector>

#include "gluon/g4/layout.h"

namespace gluon::g4 {

std::vector<std::complex<double>> reference_g4(const Params& params, std::uint64_t seed,
                                               const std::vector<std::uint64_t>& ids);

struct RelativeErrors {
  double l1 = 0, l2 = 0;
};
RelativeErrors relative_errors(std::span<const std::complex<double>> a,
                               std::span<const std::complex<double>> ref);

}  // namespace gluon::g4
