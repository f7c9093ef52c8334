#pragma once
// Gauge transformations: one SU(3) matrix g(x) per site, and their action on a gauge field,
//   U_mu(x) -> g(x) U_mu(x) g(x+mu)^+,
// under which closed loops (plaquette, rectangle, Polyakov loop) are invariant and the link
// trace is not.
//
//   GaugeTransform               g(x) in double, one SU3d per site in even-odd order, in host or
//                                device memory; at(s) gives host access (Error for device memory)
//   random_gauge_transform(geometry, seed, ex)
//                                Haar-random g(x) keyed by (seed, global site, stream
//                                kStreamGaugeTransform): bit-identical on CPU and GPU and on any
//                                split; allocated where ex runs
//   apply_gauge_transform(u, g, ex)  in place, any precision/compression/order (the product is
//                                formed in double and rounded to the storage). Needs g on u's
//                                geometry, both where ex runs, and one process (g(x+mu) across a
//                                block face needs halos): InputError otherwise.
#include <cstdint>

#include "gluon/qcd/gauge_field.h"
#include "gluon/qcd/geometry.h"
#include "gluon/qcd/su3.h"
#include "gluon/runtime/exec.h"
#include "gluon/runtime/memory.h"

namespace gluon::qcd {

class GaugeTransform {
 public:
  GaugeTransform() = default;
  // Allocates (contents unspecified) in `space` on `device`.
  GaugeTransform(const Geometry& g, runtime::MemSpace space, int device = 0);

  const Geometry& geometry() const { return geometry_; }
  runtime::MemSpace space() const { return data_.space(); }
  int device() const { return data_.device(); }
  SU3d* data() { return static_cast<SU3d*>(data_.data()); }
  const SU3d* data() const { return static_cast<const SU3d*>(data_.data()); }
  runtime::Buffer& buffer() { return data_; }
  const runtime::Buffer& buffer() const { return data_; }

  SU3d& at(std::int64_t s);
  const SU3d& at(std::int64_t s) const;

 private:
  Geometry geometry_;
  runtime::Buffer data_;
};

GaugeTransform random_gauge_transform(const Geometry& geometry, std::uint64_t seed,
                                      const runtime::Exec& ex);
void apply_gauge_transform(GaugeField& u, const GaugeTransform& g, const runtime::Exec& ex);

}  // namespace gluon::qcd
