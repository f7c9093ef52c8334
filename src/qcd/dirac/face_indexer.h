#pragma once
// Private: numbering of the sites of a face (a slab of `depth` slices perpendicular to mu) of the
// local box, shared by the pack kernels of the sender and the exterior/ghost reads of the receiver.
// Both sides number a face site by the three coordinates other than mu (x fastest, skipping mu),
// which are the same on both ranks because every rank has the same local extents:
//   face index = (k * Vf + lex3) / 2,   Vf = V / L_mu, k = slice within the slab (0..depth-1).
// All sites of one face message have one parity, and lex3 / 2 is unique per parity because the
// fastest of the other dimensions has an even extent (Geometry requires even local extents).
#include <cstdint>

#include "gluon/qcd/geometry.h"
#include "gluon/runtime/hd.h"

namespace gluon::qcd::detail {

struct FaceIndexer {
  int dims[4];
  std::int64_t volume;

  static FaceIndexer of(const SiteIndexer& s) {
    FaceIndexer f{};
    for (int mu = 0; mu < 4; ++mu) f.dims[mu] = s.dims[mu];
    f.volume = s.volume;
    return f;
  }
  // Sites of one slice of a face, one parity.
  GLUON_HD_INLINE std::int64_t half_face(int mu) const { return volume / dims[mu] / 2; }
  GLUON_HD_INLINE std::int64_t lex3(const int* c, int mu) const {
    std::int64_t l = 0, stride = 1;
    for (int nu = 0; nu < 4; ++nu) {
      if (nu == mu) continue;
      l += c[nu] * stride;
      stride *= dims[nu];
    }
    return l;
  }
  // Index of the site with coordinates c (c[mu] ignored) at slice k of a face of dimension mu.
  GLUON_HD_INLINE std::int64_t index(const int* c, int mu, int k) const {
    return (k * (volume / dims[mu]) + lex3(c, mu)) >> 1;
  }
  // Coordinates of face entry f (0 .. depth * half_face(mu) - 1) of parity q whose slice k sits at
  // c[mu] = first + k (the inverse of index()).
  GLUON_HD_INLINE void coords(std::int64_t f, int mu, int first, int q, int* c) const {
    const std::int64_t hf = half_face(mu);
    const int k = static_cast<int>(f / hf);
    std::int64_t l = 2 * (f - k * hf);
    int fastest = -1;
    for (int nu = 0; nu < 4; ++nu) {
      if (nu == mu) continue;
      if (fastest < 0) fastest = nu;
      c[nu] = static_cast<int>(l % dims[nu]);
      l /= dims[nu];
    }
    c[mu] = first + k;
    if (((c[0] + c[1] + c[2] + c[3]) & 1) != q) c[fastest] += 1;
  }
};

}  // namespace gluon::qcd::detail
