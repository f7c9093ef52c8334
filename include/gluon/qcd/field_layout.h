#pragma once
// Where real number r of object `obj` at site s lives in a field's storage.
//
//   FieldOrder::site_major  CPU layout: all reals of a site together (array of structures),
//                           offset = (s * nobj + obj) * nreals + r. The colour/spin loops of a site
//                           run over contiguous memory, which is what the compiler vectorises.
//   FieldOrder::blocked     GPU layout (QUDA paper V-B): structure of arrays of short vectors.
//                           The reals of an object are cut into blocks of `block` reals (16 bytes
//                           where that tiles the object exactly, else 8, else 4: float4, double2,
//                           short8 / float2, short4 / short2), and block b of all sites is
//                           contiguous, so consecutive threads (sites) load consecutive 16-byte
//                           words: offset = ((obj * nblocks + b) * stride + s) * block + r % block.
//                           stride = sites + pad; the pad is where ghost zones will be appended.
//
// For gauge fields obj = mu (4 objects a site), nreals = 18/12/8; for spinors obj = 0 and
// nreals = 24 (Dirac) or 6 (staggered colour vector).
#include <cstdint>

#include "gluon/runtime/hd.h"

namespace gluon::qcd {

enum class FieldOrder { site_major, blocked };

struct FieldLayout {
  FieldOrder order = FieldOrder::site_major;
  std::int64_t sites = 0;   // body sites
  std::int64_t stride = 0;  // sites + pad (blocked only)
  int nobj = 1;             // objects per site
  int nreals = 0;           // stored reals per object
  int block = 1;            // reals per block (blocked); nreals (site_major)

  GLUON_HD_INLINE int nblocks() const { return nreals / block; }
  GLUON_HD_INLINE std::int64_t offset(std::int64_t s, int obj, int r) const {
    if (order == FieldOrder::site_major) return (s * nobj + obj) * nreals + r;
    const int b = r / block;
    return ((static_cast<std::int64_t>(obj) * nblocks() + b) * stride + s) * block + (r - b * block);
  }
  // Number of reals the storage holds (including the pad).
  GLUON_HD_INLINE std::int64_t size() const {
    return (order == FieldOrder::site_major ? sites : stride) * nobj * static_cast<std::int64_t>(nreals);
  }
};

// Builds a layout; for blocked, picks the widest of 16/8/4-byte blocks that tiles nreals exactly.
FieldLayout make_layout(FieldOrder order, std::int64_t sites, std::int64_t pad, int nobj, int nreals,
                        int bytes_per_real);

}  // namespace gluon::qcd
