#pragma once
// Halo exchange of the Dirac operators on a lattice split over ranks (DESIGN.md "Communication";
// QUDA paper VI; the slides' overlap scheme, in all four dimensions).
//
// For every cut dimension mu each rank sends two faces of the input field, and receives two
// ghost faces:
//   to the -mu neighbour  the bottom slab (x_mu = 0 ..), which that rank needs for its forward
//                         hops; Wilson/clover send it spin-projected, (1 -+ g_mu) psi as 2 colour
//                         vectors = 12 reals a site; staggered send the colour vector (6 reals),
//                         3 slices deep for the Naik term.
//   to the +mu neighbour  the top slab, already transported by the sender's own links:
//                         U_mu(y)^+ h (Wilson: 12 reals), U^+ psi and the Naik L^+ psi (6 each),
//                         so no gauge ghost zone is needed by the dslash.
// Ghosts are in the compute precision (double for double, float for single and half: a half
// field's face goes as floats, so it carries its norm folded in; QUDA sends shorts plus norms,
// 2.2x fewer bytes, not done here).
//
// Transports: on the CPU backend, MPI host buffers; on CUDA, NCCL device buffers when the build
// has NCCL, else device -> pinned host -> MPI -> device.
//
// Policies (HaloPolicy):
//   no_overlap  pack faces, exchange, wait, then one kernel over all sites reads the ghosts.
//   overlap     pack faces; the interior kernel (every hop that stays on the rank) runs while the
//               faces travel on another stream (NCCL) or through the host (MPI); then one
//               exterior kernel per cut dimension adds the ghost hops of its boundary sites.
//   auto        the first calls time both policies (the tuner's way) and keep the faster for
//               this operator, local volume and precision.
// The default comes from set_default_halo_policy (the --halo flag of gluon solve|bench) or the
// environment variable GLUON_HALO_POLICY (auto | overlap | no-overlap).
#include <cstdint>
#include <string>

namespace gluon::qcd {

enum class HaloPolicy { auto_, no_overlap, overlap };
std::string to_string(HaloPolicy p);
HaloPolicy halo_policy_from_name(const std::string& name);  // InputError naming the text
void set_default_halo_policy(HaloPolicy p);
HaloPolicy default_halo_policy();

// Counted over calls of one operator's halo-aware dslash (gluon bench dslash reads them and times
// the exchange alone to report how much of it the interior kernel hid).
struct HaloStats {
  std::int64_t calls = 0;
  double bytes_sent = 0;  // face bytes sent by this rank
  HaloPolicy policy_used = HaloPolicy::no_overlap;
  std::string transport;  // how faces travel: "cuda-ipc", "nccl", "mpi", ... (empty: no halo)
};

}  // namespace gluon::qcd
