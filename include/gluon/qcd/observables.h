#pragma once
// Gauge-field observables and link hygiene, for a field of any precision, compression and layout
// (read through dispatch_gauge), on the backend named by the Exec. The field's memory must be
// where the Exec runs (host or pinned for cpu, device memory of ex.device for cuda); otherwise
// InputError. Sums are formed in double with runtime::parallel_reduce (deterministic order), and
// links are promoted to double before any product, so a single/half field is measured as exactly
// the links it stores. Conventions: DESIGN.md "Conventions (physics)".
//
//   PlaquetteResult        mean Re tr U_P / 3: total over the 6V plaquettes, spatial over the 3V
//                          (mu,nu) in {xy,xz,yz}, temporal over the 3V with nu = t. The total is
//                          the NERSC header's PLAQUETTE.
//   plaquette              U_P = U_mu(x) U_nu(x+mu) U_mu(x+nu)^+ U_nu(x)^+, mu < nu.
//   link_trace             mean Re tr U_mu(x) / 3 over the 4V links (NERSC LINK_TRACE).
//   rectangle              mean Re tr U_R / 3 over the 12V 1x2 rectangles: for each ordered pair
//                          mu != nu, the loop two steps along mu and one along nu,
//                          U_mu(x) U_mu(x+mu) U_nu(x+2mu) U_mu(x+mu+nu)^+ U_mu(x+nu)^+ U_nu(x)^+.
//   polyakov_loop          mean over the spatial sites of tr(U_t(x,0) U_t(x,1) ... U_t(x,T-1)) / 3.
//   max_unitarity_deviation  max over links of qcd::unitarity_deviation (su3.h), in double: ~1e-15
//                          for double SU(3) links, ~1e-7 single, ~1e-4 half.
//   reunitarize            qcd::reunitarize (MILC's projection, in double) applied to every link,
//                          stored back in the field's own precision/compression.
//
// Split lattices (a Geometry with a process grid other than {1,1,1,1}): every observable returns
// the GLOBAL value on every rank (collective over `comm`, default comm::world(), whose size must be
// the grid's volume and whose ranks are ordered as comm::ProcessGrid). plaquette (depth 1) and
// rectangle (depth 2) run the same kernels on the host over the rank's sites of an extend_gauge()
// copy (gauge_halo.h), then sum over ranks; link_trace and max_unitarity_deviation reduce the
// local values; polyakov_loop multiplies each rank's t segments in t order across the t
// sub-communicator. The results equal the single-process ones up to the order of the sums
// (1e-12 relative in double). A single process runs exactly the kernels it always did.
// reunitarize acts on the local links.
#include "gluon/comm/communicator.h"
#include "gluon/qcd/complex.h"
#include "gluon/qcd/gauge_field.h"
#include "gluon/runtime/exec.h"

namespace gluon::qcd {

struct PlaquetteResult {
  double total, spatial, temporal;
};

PlaquetteResult plaquette(const GaugeField& u, const runtime::Exec& ex);
double link_trace(const GaugeField& u, const runtime::Exec& ex);
double rectangle(const GaugeField& u, const runtime::Exec& ex);
Complex<double> polyakov_loop(const GaugeField& u, const runtime::Exec& ex);
double max_unitarity_deviation(const GaugeField& u, const runtime::Exec& ex);
// The same over an explicit communicator (the forms above use comm::world()).
PlaquetteResult plaquette(const GaugeField& u, const runtime::Exec& ex, comm::Communicator& comm);
double link_trace(const GaugeField& u, const runtime::Exec& ex, comm::Communicator& comm);
double rectangle(const GaugeField& u, const runtime::Exec& ex, comm::Communicator& comm);
Complex<double> polyakov_loop(const GaugeField& u, const runtime::Exec& ex, comm::Communicator& comm);
double max_unitarity_deviation(const GaugeField& u, const runtime::Exec& ex, comm::Communicator& comm);
void reunitarize(GaugeField& u, const runtime::Exec& ex);

}  // namespace gluon::qcd
