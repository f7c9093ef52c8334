#pragma once
// Private: which output site of one parity each thread of a GPU stencil launch takes.
//
// Thread i's site: the parity's sites in tiles of tx x ty x tz x tt sites (tx even, ty, tz, tt
// powers of two), x fastest inside a tile (tx / 2 sites of the parity a row), then y, z, t; the
// tiles in x, y, z, t order. A block of threads then covers one or a few whole tiles, and the
// more compact the tile the more of its threads' neighbour spinors were already loaded by the
// block (L1) instead of coming from L2. A warp's stores stay whole 32-byte sectors while tx / 2
// sites of one word (16 bytes in single and double) fill one.
//
// The default (tx = X, ty = tz = tt = 2) is the order the Wilson kernel has used since
// 2026-11-24: each half x-row followed by the low bits of y, z, t, so that a block of 128 covers
// a 32x2x2x2 box at 32^4. GLUON_GPU_SITE_TILE picks another (wilson_internal.h).
#include <cstdint>

#include "gluon/qcd/geometry.h"
#include "gluon/runtime/hd.h"

namespace gluon::qcd::detail {

struct SiteTile {
  int hx = 1;                  // sites of the parity a tile row: tx / 2
  int by = 0, bz = 0, bt = 0;  // log2 of ty, tz, tt
  int nx = 1, ny = 1, nz = 1;  // tiles along x, y, z

  // The tile tx x ty x tz x tt on the local box `dims`, or nothing when it does not fit: tx even
  // and dividing X, ty, tz, tt powers of two dividing Y, Z, T.
  static bool fits(const int dims[4], const int t[4]) {
    if (t[0] < 2 || t[0] % 2 != 0 || dims[0] % t[0] != 0) return false;
    for (int mu = 1; mu < 4; ++mu)
      if (t[mu] < 1 || (t[mu] & (t[mu] - 1)) != 0 || dims[mu] % t[mu] != 0) return false;
    return true;
  }
  // Requires fits(dims, t).
  static SiteTile of(const int dims[4], const int t[4]) {
    SiteTile s;
    auto log2 = [](int v) {
      int b = 0;
      while ((1 << b) < v) ++b;
      return b;
    };
    s.hx = t[0] / 2;
    s.by = log2(t[1]);
    s.bz = log2(t[2]);
    s.bt = log2(t[3]);
    s.nx = dims[0] / t[0];
    s.ny = dims[1] / t[1];
    s.nz = dims[2] / t[2];
    return s;
  }
  // The default: whole x-rows, 2 x 2 x 2 in y, z, t (extents are even: Geometry).
  static SiteTile rows(const int dims[4]) {
    const int t[4] = {dims[0], 2, 2, 2};
    return of(dims, t);
  }

  // Coordinates c and lexicographic index lex of thread i's site of parity `parity`; returns
  // its eo index. 32-bit unsigned arithmetic (local volume <= kMaxLocalVolume): two or three
  // divisions by run-time extents, as the row order had.
  GLUON_HD_INLINE int site(int i, int parity, const SiteIndexer& idx, int* c, int& lex) const {
    const unsigned tx = static_cast<unsigned>(hx);
    const unsigned r = static_cast<unsigned>(i) / tx;
    const unsigned xh = static_cast<unsigned>(i) - r * tx;
    const unsigned yl = r & ((1u << by) - 1u);
    const unsigned zl = (r >> by) & ((1u << bz) - 1u);
    const unsigned tl = (r >> (by + bz)) & ((1u << bt) - 1u);
    unsigned q = r >> (by + bz + bt);
    unsigned qx = 0;
    if (nx > 1) {  // uniform over the launch
      const unsigned q1 = q / static_cast<unsigned>(nx);
      qx = q - q1 * static_cast<unsigned>(nx);
      q = q1;
    }
    const unsigned uy = static_cast<unsigned>(ny), uz = static_cast<unsigned>(nz);
    const unsigned qy = q / uy, qz = qy / uz;
    c[1] = static_cast<int>(((q - qy * uy) << by) + yl);
    c[2] = static_cast<int>(((qy - qz * uz) << bz) + zl);
    c[3] = static_cast<int>((qz << bt) + tl);
    c[0] = static_cast<int>(2 * (qx * tx + xh)) + ((parity + c[1] + c[2] + c[3]) & 1);
    lex = c[0] + idx.dims[0] * (c[1] + idx.dims[1] * (c[2] + idx.dims[2] * c[3]));
    return parity * static_cast<int>(idx.half) + (lex >> 1);
  }
};

}  // namespace gluon::qcd::detail
