#pragma once
// Ring-distributed G4 accumulation (DCA++ ring algorithm, docs/g4.md "Ring"): G4 split evenly
// over the S ranks of a ring (contiguous 1/S of the stacked entry space each); every rank makes
// its own measurements' G and each G travels the ring so that every slice sees every G.
//
//   run_ring(world, layout, options)   COLLECTIVE over `world`: every rank calls it with the same
//       layout and options (global inputs). Sub-rings: world.split(rank / S) forms rings of S
//       consecutive ranks; each accumulates its own ranks' measurements and one sum across
//       sub-rings (split by rank % S) completes G4 at the end. R independent rings (--rings) run
//       side by side over the same slices, each with its own communicator (a split of the ring)
//       and stream and its own measurements (local measurement m goes to ring m % R).
//       A step posts the exchange (send the current G right, receive the next from the left into
//       a free buffer), runs the update with the current G while the transfer is in flight, then
//       waits; the G received at a measurement's last step is updated during the next
//       measurement's first step, which also generates the following G: S - 1 transfers and S
//       updates per measurement, every update overlapping a transfer, three G buffers per ring.
//       On the GPU (options.exec cuda) the G4 slice and ring buffers are device memory, the
//       transfers go over an NCCL communicator on one stream per ring and the updates on their
//       own stream (a build without NCCL stages each transfer through pinned host memory over
//       MPI, the host testing the transfers while the kernels run); on the CPU they are host buffers over the MPI (or single) communicator, and
//       the update is cut into chunks (up to 256) between which the pending transfers are
//       tested so that MPI progresses.
//       At the end: with `gather`, world rank 0 receives the whole G4 (RingResult::full); with
//       `output_dir`, each rank of the first sub-ring writes its slice to
//       output_dir/g4-slice-<r>-of-<S>.bin (header described in docs/g4.md; written to a
//       temporary name, then renamed). Errors (bad ring size, memory limit) are InputErrors thrown
//       on every rank alike.
//
//   single_device_g4(layout, precision, exec, seed, ranks, measurements)
//       The whole G4 accumulated on one device from the same measurements (world ranks
//       0..ranks-1, local measurements 0..measurements-1, in that order): the reference of
//       --verify.
#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gluon/comm/communicator.h"
#include "gluon/g4/accumulate.h"
#include "gluon/g4/layout.h"
#include "gluon/runtime/exec.h"

namespace gluon::g4 {

struct RingOptions {
  int ring_size = 0;  // S; 0: the whole world
  int rings = 1;      // R independent rings
  int measurements = 1;  // per rank
  std::uint64_t seed = 1;
  Precision precision = Precision::double_;
  runtime::Exec exec{};
  std::size_t memory_limit = 0;  // per rank (device), bytes; 0: none
  int calibration_rounds = 2;    // transfer-only and update-only rounds timed before the run
  bool peer_bandwidth = false;   // also time one-way transfers ring rank 0 -> 1
  int peer_repeats = 10;
  bool gather = false;
  std::string output_dir;
};

struct MemoryReport {
  std::size_t g_bytes = 0;             // one measurement's G (both spins)
  std::size_t g4_bytes_total = 0;      // the whole G4
  std::size_t g4_bytes_per_rank = 0;   // this rank's slice (the largest slice for the check)
  std::size_t ring_buffer_bytes = 0;   // 3 R G buffers (R for a ring of one)
};
// The per-rank memory of a run, and the check against options.memory_limit (InputError).
MemoryReport memory_report(const Layout& layout, const RingOptions& options, int ring_size);

struct RingResult {
  int world_size = 1, ring_size = 1, subrings = 1, rings = 1;
  int ring_rank = 0;
  std::string transport;  // how G travels: nccl, mpi host buffers, staged, none
  Slice slice;
  MemoryReport memory;
  double ring_s = 0;           // the measurement loop (generation, transfers, updates)
  double update_s = 0;         // host time from launching a step's compute to its end (max over ranks)
  double exposed_wait_s = 0;   // time waiting for transfers after the update ended (max over ranks)
  double generate_s = 0;       // the first G of each ring (the others overlap transfers)
  double reduce_s = 0;         // sum across sub-rings, gather or write
  double bytes_moved_per_rank = 0;  // (S - 1) |G| per measurement
  double ring_bandwidth_gbs = 0;    // bytes_moved_per_rank / ring_s
  // Calibration (S > 1): one round of R transfers alone, and one round of R updates alone.
  double transfer_round_s = 0, update_round_s = 0;
  double transfer_bandwidth_gbs = 0;  // R |G| / transfer_round_s
  double hidden_fraction = 0;         // 1 - exposed_wait / (transfer steps * transfer_round_s)
  double update_gbs = 0;              // counted update bytes / update time (the loop)
  double update_alone_gbs = 0;        // counted bytes of R updates / update_round_s (calibration)
  double update_bytes_per_entry = 0;
  double peer_bandwidth_gbs = 0;      // one-way ring rank 0 -> 1 (when asked)
  double checksum = 0;                // sum of re + im over the whole G4
  std::vector<std::complex<double>> full;  // world rank 0 with gather
  std::vector<std::string> files;          // slice files written by this rank
};

RingResult run_ring(comm::Communicator& world, const Layout& layout, const RingOptions& options);

std::vector<std::complex<double>> single_device_g4(const Layout& layout, Precision precision,
                                                   const runtime::Exec& exec, std::uint64_t seed,
                                                   int ranks, int measurements);

}  // namespace gluon::g4
