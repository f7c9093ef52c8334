#pragma once
// Initial gauge fields for a run (any precision/compression/order; memory where ex runs, else
// InputError). Random starts are keyed by (seed, global site) through random_fields.h, so they
// are bit-identical on CPU and GPU and on any split of the lattice.
//
//   GaugeStart                    unit (cold), hot (Haar random), weak (near unit)
//   to_string / parse_gauge_start "unit" (also "cold", "identity"), "hot" (also "random"),
//                                 "weak"; InputError listing the choices otherwise
//   set_unit(u, ex)               every link the identity
//   set_hot(u, seed, ex)          every link Haar-random in SU(3) (stream kStreamHotStart)
//   set_weak(u, seed, eps, ex)    every link exact_reunitarize(1 + eps X), X a 3x3 matrix of
//                                 complex Gaussians with E|X_ij|^2 = 1 (stream kStreamWeakStart):
//                                 the QUDA paper's weak-field start; plaquette ~ 1 - O(eps^2)
//   set_start(u, start, seed, eps, ex)  one of the above by value
#include <cstdint>
#include <string>

#include "gluon/qcd/gauge_field.h"
#include "gluon/runtime/exec.h"

namespace gluon::qcd {

enum class GaugeStart { unit, hot, weak };

inline constexpr double kDefaultWeakEpsilon = 0.1;

std::string to_string(GaugeStart s);
GaugeStart parse_gauge_start(const std::string& s);

void set_unit(GaugeField& u, const runtime::Exec& ex);
void set_hot(GaugeField& u, std::uint64_t seed, const runtime::Exec& ex);
void set_weak(GaugeField& u, std::uint64_t seed, double epsilon, const runtime::Exec& ex);
inline void set_weak(GaugeField& u, std::uint64_t seed, const runtime::Exec& ex) {
  set_weak(u, seed, kDefaultWeakEpsilon, ex);
}
void set_start(GaugeField& u, GaugeStart start, std::uint64_t seed, double epsilon,
               const runtime::Exec& ex);

}  // namespace gluon::qcd
