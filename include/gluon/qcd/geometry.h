#pragma once
// Lattice geometry: extents, even-odd site order, coordinates, neighbours.
//
// Conventions (DESIGN.md): direction mu = 0..3 = x,y,z,t, x fastest; parity (x+y+z+t) % 2 of the
// GLOBAL coordinates; fields store all even sites, then all odd ones. With lexicographic index
// l = x + X(y + Y(z + Z t)) of the LOCAL coordinates, the even-odd index is p * V/2 + l/2 (this
// needs even local extents, which Geometry enforces).
//
//   SiteIndexer   trivially copyable, GLUON_HD: eo index <-> local coordinates, parity, and
//                 periodic neighbours at any distance, computed on the fly (kernels use this)
//   Geometry      host object: global extents, process grid and this rank's place in it, local
//                 extents and origin, local <-> global coordinates, neighbour tables
//
// A single process has grid {1,1,1,1}; the domain-decomposition issue adds ghost zones.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "gluon/runtime/hd.h"

namespace gluon::qcd {

using Coords = std::array<int, 4>;

// The largest local volume (sites of one rank): kernels index sites with 32-bit integers, which
// is what keeps their index arithmetic and registers small (Geometry refuses larger boxes).
inline constexpr std::int64_t kMaxLocalVolume = 0x7fffffff;

struct SiteIndexer {
  int dims[4];          // local extents
  std::int64_t volume;  // local volume
  std::int64_t half;    // volume / 2

  GLUON_HD_INLINE int parity_of(const int x[4]) const { return (x[0] + x[1] + x[2] + x[3]) & 1; }
  GLUON_HD_INLINE std::int64_t lex(const int x[4]) const {
    return x[0] + static_cast<std::int64_t>(dims[0]) *
                      (x[1] + static_cast<std::int64_t>(dims[1]) *
                                  (x[2] + static_cast<std::int64_t>(dims[2]) * x[3]));
  }
  GLUON_HD_INLINE std::int64_t eo_index(const int x[4]) const {
    return parity_of(x) * half + lex(x) / 2;
  }
  GLUON_HD_INLINE int parity_of_index(std::int64_t eo) const { return eo >= half ? 1 : 0; }
  GLUON_HD_INLINE void coords(std::int64_t eo, int x[4]) const {
    const int p = eo >= half ? 1 : 0;
    const std::int64_t l = 2 * (eo - p * half);
    // 32-bit unsigned division (Geometry keeps volume <= kMaxLocalVolume): a 64-bit one is a
    // long subroutine on the GPU, and every site of every stencil kernel pays three of them.
    split(static_cast<std::uint32_t>(l), x);
    if (((x[0] + x[1] + x[2] + x[3]) & 1) != p) x[0] += 1;
  }
  // Lexicographic index l (x fastest) into coordinates.
  GLUON_HD_INLINE void split(std::uint32_t l, int x[4]) const {
    for (int mu = 0; mu < 3; ++mu) {
      const std::uint32_t d = static_cast<std::uint32_t>(dims[mu]), q = l / d;
      x[mu] = static_cast<int>(l - q * d);
      l = q;
    }
    x[3] = static_cast<int>(l);
  }
  // eo index of the site `dist` steps along mu (dist may be negative), periodic in the local box.
  GLUON_HD_INLINE std::int64_t neighbour(std::int64_t eo, int mu, int dist) const {
    int x[4];
    coords(eo, x);
    int v = (x[mu] + dist) % dims[mu];
    x[mu] = v < 0 ? v + dims[mu] : v;
    return eo_index(x);
  }
};

class Geometry {
 public:
  Geometry() = default;
  // Single process. Every extent must be even and >= 2 (InputError naming the extent otherwise).
  explicit Geometry(const Coords& global_dims);
  // This rank's block of a process grid; each grid extent must divide the lattice extent, and
  // local extents must be even.
  Geometry(const Coords& global_dims, const Coords& grid, const Coords& grid_coords);

  const Coords& global_dims() const { return global_; }
  const Coords& local_dims() const { return local_; }
  const Coords& grid() const { return grid_; }
  const Coords& grid_coords() const { return grid_coords_; }
  const Coords& origin() const { return origin_; }  // global coordinates of local (0,0,0,0)
  std::int64_t global_volume() const;
  std::int64_t volume() const { return indexer_.volume; }  // local
  std::int64_t half_volume() const { return indexer_.half; }
  const SiteIndexer& indexer() const { return indexer_; }

  Coords local_to_global(const Coords& local) const;
  // True when the global site belongs to this rank; `local` receives its local coordinates.
  bool global_to_local(const Coords& global, Coords& local) const;
  std::int64_t eo_index(const Coords& local) const { return indexer_.eo_index(local.data()); }
  Coords coords(std::int64_t eo) const;
  // Lexicographic index of a global site (x fastest): the order of every file format.
  std::int64_t global_lex(const Coords& global) const;

  // Table t[(eo * 4 + mu) * 2 + (dir)] of neighbours at distance `dist` (1..3), dir 0 = +mu, 1 = -mu.
  std::vector<std::int64_t> neighbour_table(int dist) const;

  std::string to_string() const;  // "8x8x8x16"
  bool operator==(const Geometry& o) const {
    return global_ == o.global_ && grid_ == o.grid_ && grid_coords_ == o.grid_coords_;
  }

 private:
  Coords global_{}, local_{}, grid_{1, 1, 1, 1}, grid_coords_{}, origin_{};
  SiteIndexer indexer_{};
};

// Parses "8,8,8,16" or "8x8x8x16" (or a single "8" for 8^4); InputError with the text otherwise.
Coords parse_lattice(const std::string& text);

}  // namespace gluon::qcd
