#include "gluon/comm/process_grid.h"

#include <limits>
#include <sstream>

#include "gluon/runtime/error.h"

namespace gluon::comm {

namespace {
std::string join(const Grid4& g) {
  return std::to_string(g[0]) + "x" + std::to_string(g[1]) + "x" + std::to_string(g[2]) + "x" +
         std::to_string(g[3]);
}
}  // namespace

ProcessGrid::ProcessGrid(const Grid4& dims, int rank) : dims_(dims), rank_(rank) {
  for (int mu = 0; mu < 4; ++mu)
    if (dims[mu] < 1) throw InputError("process grid " + join(dims) + ": extents must be >= 1");
  if (rank < 0 || rank >= size())
    throw InputError("process grid " + join(dims) + ": rank " + std::to_string(rank) +
                     " outside 0.." + std::to_string(size() - 1));
  int r = rank;
  for (int mu = 0; mu < 4; ++mu) {
    coords_[mu] = r % dims_[mu];
    r /= dims_[mu];
  }
}

int ProcessGrid::rank_of(const Grid4& c) const {
  int r = 0;
  for (int mu = 3; mu >= 0; --mu) {
    const int v = ((c[mu] % dims_[mu]) + dims_[mu]) % dims_[mu];
    r = r * dims_[mu] + v;
  }
  return r;
}

int ProcessGrid::neighbour(int mu, int dir) const {
  Grid4 c = coords_;
  c[mu] += dir;
  return rank_of(c);
}

std::string ProcessGrid::to_string() const { return join(dims_); }

Grid4 parse_grid(const std::string& text) {
  Grid4 g{};
  std::string t = text;
  for (char& ch : t)
    if (ch == 'x' || ch == ',') ch = ' ';
  std::istringstream in(t);
  for (int mu = 0; mu < 4; ++mu)
    if (!(in >> g[mu]) || g[mu] < 1)
      throw InputError("--grid: expected four positive extents like 1,1,2,2, found '" + text + "'");
  std::string rest;
  if (in >> rest)
    throw InputError("--grid: expected four positive extents like 1,1,2,2, found '" + text + "'");
  return g;
}

void check_grid(const Grid4& lattice, const Grid4& grid, int min_local) {
  static const char* names = "xyzt";
  for (int mu = 0; mu < 4; ++mu) {
    if (grid[mu] < 1 || lattice[mu] % grid[mu] != 0)
      throw InputError("process grid " + join(grid) + " does not divide lattice " + join(lattice) +
                       ": " + names[mu] + " extent " + std::to_string(lattice[mu]) +
                       " is not a multiple of " + std::to_string(grid[mu]));
    const int local = lattice[mu] / grid[mu];
    if (local % 2 != 0 || local < min_local)
      throw InputError("process grid " + join(grid) + " on lattice " + join(lattice) + ": local " +
                       names[mu] + " extent " + std::to_string(local) + " must be even and >= " +
                       std::to_string(min_local));
  }
}

Grid4 choose_grid(const Grid4& lattice, int nranks, int min_local) {
  Grid4 best{};
  double best_surface = std::numeric_limits<double>::infinity();
  int best_order = std::numeric_limits<int>::max();
  for (int a = 1; a <= nranks; ++a) {
    if (nranks % a) continue;
    for (int b = 1; b <= nranks / a; ++b) {
      if ((nranks / a) % b) continue;
      for (int c = 1; c <= nranks / a / b; ++c) {
        if ((nranks / a / b) % c) continue;
        const Grid4 g{a, b, c, nranks / a / b / c};
        try {
          check_grid(lattice, g, min_local);
        } catch (const InputError&) {
          continue;
        }
        double vol = 1;
        for (int mu = 0; mu < 4; ++mu) vol *= lattice[mu] / g[mu];
        double surface = 0;
        int order = 0;  // prefers cutting slow dimensions: t cut costs least
        for (int mu = 0; mu < 4; ++mu)
          if (g[mu] > 1) {
            surface += 2 * vol / (lattice[mu] / g[mu]);
            order += (4 - mu) * g[mu];
          }
        if (surface < best_surface - 1e-9 ||
            (surface < best_surface + 1e-9 && order < best_order)) {
          best = g;
          best_surface = surface;
          best_order = order;
        }
      }
    }
  }
  if (best[0] == 0)
    throw InputError("no process grid of " + std::to_string(nranks) + " ranks divides lattice " +
                     join(lattice) + " into even local extents >= " + std::to_string(min_local));
  return best;
}

}  // namespace gluon::comm
