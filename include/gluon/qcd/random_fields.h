#pragma once
// Random fields drawn with the counter-based generator of random.h: each site's numbers depend
// only on (seed, stream, global site), so a field is bit-identical on CPU and GPU and on any
// split of the lattice (the kernels compute global coordinates from the local ones plus the
// block's origin). The field's memory must be where the Exec runs (InputError otherwise).
//
//   fill_gaussian(psi, seed, stream, ex)  every complex component z: Re z, Im z independent
//                                         N(0, 1/2), so E|z|^2 = 1 (SiteRng::complex_gaussian)
//   fill_uniform(psi, seed, stream, ex)   every real component uniform in (0, 1)
//   fill_z2(psi, seed, stream, ex)        every complex component (+-1 +- i)/sqrt(2)
//   fill_haar(u, seed, stream, ex)        every link Haar-random in SU(3) (haar_su3)
//   fill_weak(u, seed, stream, eps, ex)   every link exact_reunitarize(1 + eps X) (weak_su3)
//
// Spinor fields of any precision, order, nspin and site subset are filled; an even/odd field
// draws the values its sites would have in a full field. Half precision stores per site
// norm = max |real component| (as float) and the components scaled by 1/norm. Gauge fields of
// any precision/compression are written through dispatch_gauge (the links are drawn in double
// and rounded to the storage). Per site the draws are taken in a fixed order: spin-major,
// colour, (re, im) for spinors; mu = 0..3, row-major for links.
#include <cstdint>

#include "gluon/qcd/gauge_field.h"
#include "gluon/qcd/spinor_field.h"
#include "gluon/runtime/exec.h"

namespace gluon::qcd {

void fill_gaussian(SpinorField& psi, std::uint64_t seed, std::uint32_t stream, const runtime::Exec& ex);
void fill_uniform(SpinorField& psi, std::uint64_t seed, std::uint32_t stream, const runtime::Exec& ex);
void fill_z2(SpinorField& psi, std::uint64_t seed, std::uint32_t stream, const runtime::Exec& ex);

void fill_haar(GaugeField& u, std::uint64_t seed, std::uint32_t stream, const runtime::Exec& ex);
void fill_weak(GaugeField& u, std::uint64_t seed, std::uint32_t stream, double eps,
               const runtime::Exec& ex);

}  // namespace gluon::qcd
