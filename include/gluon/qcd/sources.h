#pragma once
// Quark sources for propagators, on canonical full-lattice fields (double, site_major, host).
// A Wilson/clover propagator has 12 columns, index k = spin * 3 + colour of the source; a
// staggered one has 3 (colour). Column k of a source is the field solved for column k.
//
//   SourceType / SourceSpec    point (at a global site) or Z2 random wall (on a timeslice),
//                              with the seed of the wall noise
//   make_source(spec, g, nspin, column)   the column's source field
//     point:   1 at (site, spin, colour) of the column, 0 elsewhere
//     z2-wall: eta(x) (DESIGN.md RNG: Philox keyed by seed, global site, stream
//              kStreamWallSource) at every site of timeslice t0 in the column's spin and colour,
//              0 elsewhere; eta = (+-1 +- i)/sqrt(2), one draw per site, shared by all 12 columns
//              (spin-colour dilution), so that sum over columns of |S eta|^2 estimates the
//              wall-to-point correlator.
#include <cstdint>
#include <string>

#include "gluon/qcd/geometry.h"
#include "gluon/qcd/spinor_field.h"

namespace gluon::qcd {

enum class SourceType { point, z2_wall };

struct SourceSpec {
  SourceType type = SourceType::point;
  Coords position{0, 0, 0, 0};  // point: global site; z2_wall: position[3] = t0
  std::uint64_t seed = 1;       // z2_wall noise
};

inline constexpr std::uint32_t kStreamWallSource = 0x10010;

std::string to_string(SourceType t);
SourceType parse_source_type(const std::string& s);  // "point", "z2-wall" (InputError otherwise)
// Checks the position against the lattice (InputError naming the coordinate otherwise).
void validate_source(const SourceSpec& spec, const Geometry& g);
// Number of columns of a propagator for nspin (4 -> 12, 1 -> 3).
inline int source_columns(int nspin) { return nspin == 4 ? 12 : 3; }
// The canonical full field of column `column` (0 .. source_columns(nspin)-1).
SpinorField make_source(const SourceSpec& spec, const Geometry& g, int nspin, int column);
// The source time slice (global t).
inline int source_time(const SourceSpec& spec) { return spec.position[3]; }

}  // namespace gluon::qcd
