#pragma once
// A spinor or color-vector field of any storage (precision, order, padding, host or device)
// copied into the form the tests' reference loops and comparisons read: double precision,
// site-major, unpadded, on the host.
#include "gluon/qcd/field_convert.h"
#include "gluon/qcd/spinor_field.h"
#include "gluon/runtime/exec.h"

namespace gluon::test {

inline qcd::SpinorField canonical_copy(const qcd::SpinorField& f, const runtime::Exec& ex) {
  qcd::SpinorFieldParams p = f.params();
  p.precision = qcd::Precision::double_;
  p.order = qcd::FieldOrder::site_major;
  p.space = runtime::MemSpace::host;
  p.pad = 0;
  return qcd::converted(f, p, ex);
}

}  // namespace gluon::test
