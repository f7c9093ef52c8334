#pragma once
// A 4-D Cartesian grid of processes over the lattice dimensions (x, y, z, t), periodic.
// Rank r sits at grid coordinates with x fastest: r = c0 + G0 (c1 + G1 (c2 + G2 c3)).
//
// choose_grid() picks, among the grids whose extents divide the lattice (and leave even local
// extents of at least `min_local`), the one with the smallest communicated surface per rank,
// sum over cut dimensions of 2 V_local / L_local[mu]; ties go to cutting t first, then z, y, x
// (the slowest-varying dimensions, whose faces are contiguous).
#include <array>
#include <string>

namespace gluon::comm {

using Grid4 = std::array<int, 4>;

class ProcessGrid {
 public:
  ProcessGrid() = default;
  // InputError when the product of `dims` differs from `nranks` or rank is out of range.
  ProcessGrid(const Grid4& dims, int rank);

  const Grid4& dims() const { return dims_; }
  const Grid4& coords() const { return coords_; }
  int rank() const { return rank_; }
  int size() const { return dims_[0] * dims_[1] * dims_[2] * dims_[3]; }
  bool is_cut(int mu) const { return dims_[mu] > 1; }
  int rank_of(const Grid4& coords) const;  // coordinates taken periodically
  // The rank one step along +mu (dir = +1) or -mu (dir = -1).
  int neighbour(int mu, int dir) const;
  std::string to_string() const;  // "1x1x1x2"

 private:
  Grid4 dims_{1, 1, 1, 1}, coords_{0, 0, 0, 0};
  int rank_ = 0;
};

// Parses "1,1,2,2" or "1x1x2x2"; InputError otherwise.
Grid4 parse_grid(const std::string& text);
// InputError (naming lattice, grid and dimension) unless each grid extent divides the lattice
// extent and leaves an even local extent >= min_local.
void check_grid(const Grid4& lattice, const Grid4& grid, int min_local = 2);
// The grid of `nranks` processes with the least surface (see above); InputError when none fits.
Grid4 choose_grid(const Grid4& lattice, int nranks, int min_local = 2);

}  // namespace gluon::comm
