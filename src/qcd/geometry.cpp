#include "gluon/qcd/geometry.h"

#include <cstdio>
#include <sstream>

#include "gluon/runtime/error.h"

namespace gluon::qcd {

namespace {
const char* kDirName[4] = {"X", "Y", "Z", "T"};
}

Geometry::Geometry(const Coords& global_dims) : Geometry(global_dims, {1, 1, 1, 1}, {0, 0, 0, 0}) {}

Geometry::Geometry(const Coords& global_dims, const Coords& grid, const Coords& grid_coords)
    : global_(global_dims), grid_(grid), grid_coords_(grid_coords) {
  for (int mu = 0; mu < 4; ++mu) {
    if (global_[mu] < 2 || global_[mu] % 2 != 0)
      throw InputError(std::string("lattice extent ") + kDirName[mu] +
                       ": expected an even number >= 2, found " + std::to_string(global_[mu]));
    if (grid_[mu] < 1 || global_[mu] % grid_[mu] != 0)
      throw InputError(std::string("process grid extent ") + kDirName[mu] + " = " +
                       std::to_string(grid_[mu]) + " does not divide the lattice extent " +
                       std::to_string(global_[mu]));
    local_[mu] = global_[mu] / grid_[mu];
    if (local_[mu] % 2 != 0)
      throw InputError(std::string("local lattice extent ") + kDirName[mu] +
                       ": expected even, found " + std::to_string(local_[mu]) + " (" +
                       std::to_string(global_[mu]) + " / " + std::to_string(grid_[mu]) + ")");
    if (grid_coords_[mu] < 0 || grid_coords_[mu] >= grid_[mu])
      throw InputError(std::string("process grid coordinate ") + kDirName[mu] + " = " +
                       std::to_string(grid_coords_[mu]) + " outside the grid");
    origin_[mu] = grid_coords_[mu] * local_[mu];
    indexer_.dims[mu] = local_[mu];
  }
  // Kernels index the sites of a rank with 32-bit integers (SiteIndexer). The product in long
  // double first: 65536^4 overflows 64 bits to 0 and would pass the check.
  const long double volume = static_cast<long double>(local_[0]) * local_[1] * local_[2] * local_[3];
  if (volume > static_cast<long double>(kMaxLocalVolume)) {
    char v[32];
    std::snprintf(v, sizeof v, "%.0Lf", volume);
    throw InputError(std::string("local lattice volume ") + v + " (" + std::to_string(local_[0]) + "x" +
                     std::to_string(local_[1]) + "x" + std::to_string(local_[2]) + "x" + std::to_string(local_[3]) +
                     ") exceeds " + std::to_string(kMaxLocalVolume) + " sites: split the lattice over more ranks");
  }
  indexer_.volume = static_cast<std::int64_t>(local_[0]) * local_[1] * local_[2] * local_[3];
  indexer_.half = indexer_.volume / 2;
}

std::int64_t Geometry::global_volume() const {
  return static_cast<std::int64_t>(global_[0]) * global_[1] * global_[2] * global_[3];
}

Coords Geometry::local_to_global(const Coords& l) const {
  return {l[0] + origin_[0], l[1] + origin_[1], l[2] + origin_[2], l[3] + origin_[3]};
}

bool Geometry::global_to_local(const Coords& g, Coords& l) const {
  for (int mu = 0; mu < 4; ++mu) {
    l[mu] = g[mu] - origin_[mu];
    if (l[mu] < 0 || l[mu] >= local_[mu]) return false;
  }
  return true;
}

Coords Geometry::coords(std::int64_t eo) const {
  Coords x;
  indexer_.coords(eo, x.data());
  return x;
}

std::int64_t Geometry::global_lex(const Coords& g) const {
  return g[0] + static_cast<std::int64_t>(global_[0]) *
                    (g[1] + static_cast<std::int64_t>(global_[1]) *
                                (g[2] + static_cast<std::int64_t>(global_[2]) * g[3]));
}

std::vector<std::int64_t> Geometry::neighbour_table(int dist) const {
  if (dist < 1 || dist > 3)
    throw InputError("neighbour distance: expected 1, 2 or 3, found " + std::to_string(dist));
  std::vector<std::int64_t> t(static_cast<std::size_t>(volume()) * 8);
  for (std::int64_t s = 0; s < volume(); ++s)
    for (int mu = 0; mu < 4; ++mu) {
      t[(s * 4 + mu) * 2 + 0] = indexer_.neighbour(s, mu, dist);
      t[(s * 4 + mu) * 2 + 1] = indexer_.neighbour(s, mu, -dist);
    }
  return t;
}

std::string Geometry::to_string() const {
  std::ostringstream o;
  o << global_[0] << 'x' << global_[1] << 'x' << global_[2] << 'x' << global_[3];
  return o.str();
}

Coords parse_lattice(const std::string& text) {
  std::vector<int> v;
  std::string cur;
  auto flush = [&] {
    if (cur.empty()) throw InputError("lattice '" + text + "': expected X,Y,Z,T (e.g. 8,8,8,16)");
    std::size_t used = 0;
    int n = 0;
    try {
      n = std::stoi(cur, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != cur.size() || n <= 0)
      throw InputError("lattice '" + text + "': '" + cur + "' is not a positive integer");
    v.push_back(n);
    cur.clear();
  };
  for (char c : text) {
    if (c == ',' || c == 'x' || c == 'X' || c == ' ')
      flush();
    else
      cur += c;
  }
  flush();
  if (v.size() == 1) return {v[0], v[0], v[0], v[0]};
  if (v.size() != 4)
    throw InputError("lattice '" + text + "': expected 4 extents X,Y,Z,T, found " +
                     std::to_string(v.size()));
  return {v[0], v[1], v[2], v[3]};
}

}  // namespace gluon::qcd
