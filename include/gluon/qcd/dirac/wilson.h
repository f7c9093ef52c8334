#pragma once
// The Wilson hopping term on one parity, the building block of the Wilson and clover operators
// (conventions: dirac.h, DESIGN.md), for benchmarks and the operators of dirac.h.
//
//   WilsonDslash          holds the links in the operator's storage (precision, reconstruct
//                         18/12/8, memory of the Exec; blocked order on CUDA, on the CPU tiled
//                         where the vector kernel runs (below), site_major elsewhere)
//                         and the fermion boundary phases, and applies
//                           dslash(out, in, parity, dagger)       out_p = D_{p,1-p} in
//                           dslash_xpay(..., x, a)                out_p = x_p + a D_{p,1-p} in
//                           dslash_clover(..., c, x, a)           out_p = C_pp D in  (x == nullptr)
//                                                                 out_p = x_p + a C_pp D in
//                           dslash_clover_on_x(..., c, x, a)      out_p = C_pp x_p + a D in
//                         where p = parity (0 even, 1 odd), D^dagger = g5 D g5 when dagger (the
//                         kernel swaps the projectors 1 -+ g_mu), C a CloverField (A or A^-1).
//                         Fields: Dirac spinors in the operator's precision on the same geometry,
//                         in memory where the Exec runs, any order; out and x are parity-p subset
//                         fields or full fields (whose parity-p sites are used), in is a
//                         parity-(1-p) subset or a full field. out must not be in or x's storage
//                         unless only the other parity of a full field is shared.
//                         One thread per output site: the 8 neighbours are loaded, spin-projected
//                         to half spinors (2 colour vectors), multiplied by the link (rebuilt from
//                         r12/r8 in registers by GaugeAccessor), reconstructed and accumulated in
//                         registers in the storage's compute type (double for double, float for
//                         single and half); one store per site, no atomics.
//                         On the CPU (double, single and half; r18, r12 and r8), X/2 of the rank's
//                         block a multiple of 4 and an AVX-512 or AVX2 CPU (cpu_vector_isa()), the links are
//                         tiled (field_layout.h) and calls whose vectors (and clover field) are
//                         tiled too run a kernel vectorised across W sites of an x-row
//                         (src/qcd/dirac/wilson_simd.h); every other call runs the one-site
//                         kernel, which reads any order. On a split lattice the vector
//                         kernel takes the interior and the one-site exterior kernels the
//                         ghosts' hops (docs/parallel.md). That path also keeps the backward
//                         links U_mu(x - mu) stored at x: twice the link memory, for one
//                         contiguous link stream per tile and hop sense.
//   vectorised()          whether that vector kernel runs this operator's tiled calls
//   vector_launches()     how many calls it ran (for tests and benchmarks)
//   DslashKind            plain | xpay | clover | clover_xpay | clover_on_x (the variants above)
//   dslash_flops_per_site(kind)   1320 (plain), 1368 (xpay: +48), 1824 (clover: +504),
//                         1872 (clover_xpay, clover_on_x: +504 +48), per output site. 1320 as QUDA
//                         counts: 8 x (12 project + 2 x 66 SU(3) mat-vec + 24 accumulate) - 24.
//                         The clover 6x6 Hermitian pair costs 2 x 252 = 504.
//   dslash_bytes(prec, recon, half_volume, kind)   minimum traffic of one call, counting every
//                         input element once and the output once, per output site:
//                         in spinor 24 + links 8 x recon + out 24 reals (+ x 24, + clover 72),
//                         times the bytes per real, plus 4-byte norms per spinor read/written in
//                         half and 2 x 4 bytes of clover norms. Links: each output site owns its
//                         4 forward links and the 4 backward ones belong to the other parity's
//                         sites, so the whole gauge field (V x 4 links) is read once per call.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>

#include "gluon/qcd/dirac/clover_field.h"
#include "gluon/qcd/dirac/halo.h"
#include "gluon/qcd/gauge_field.h"
#include "gluon/qcd/precision.h"
#include "gluon/qcd/spinor_field.h"
#include "gluon/runtime/exec.h"

namespace gluon::qcd {

namespace detail {
class SpinorHalo;
struct DslashFold;
}

enum class DslashKind { plain, xpay, clover, clover_xpay, clover_on_x };

double dslash_flops_per_site(DslashKind kind);
double dslash_bytes(Precision p, Reconstruct r, std::int64_t half_volume, DslashKind kind);

class WilsonDslash {
 public:
  // Links converted from `u` (any storage) to precision p, reconstruct r, the Exec's layout
  // (blocked on CUDA; tiled on the CPU where the vector kernel runs, else site_major) unless
  // `order` names one (tests run blocked on the CPU).
  // On a lattice split over ranks (geometry with a process grid) every call exchanges halos
  // (dirac/halo.h) with the policy of default_halo_policy(); collective over the world.
  WilsonDslash(const GaugeField& u, const std::array<double, 4>& boundary, Precision p,
               Reconstruct r, const runtime::Exec& ex, std::optional<FieldOrder> order = {});

  const GaugeField& links() const { return links_; }
  const Geometry& geometry() const { return links_.geometry(); }
  Precision precision() const { return links_.params().precision; }
  Reconstruct reconstruct() const { return links_.params().reconstruct; }
  FieldOrder order() const { return links_.params().order; }
  const runtime::Exec& exec() const { return exec_; }
  const std::array<double, 4>& boundary() const { return boundary_; }
  // Halo exchange: counts, and the exchange alone (pack + transfer, no dslash) for benchmarks.
  bool split() const;
  bool vectorised() const;
  std::int64_t vector_launches() const { return vector_launches_; }
  HaloStats halo_stats() const;
  void halo_exchange_only(const SpinorField& in, int parity, bool dagger) const;

  void dslash(SpinorField& out, const SpinorField& in, int parity, bool dagger) const;
  // The forms with x also take `fold` (the Wilson-family M's last kernel, unsplit lattices only):
  // BiCGstab's reduction summed by the same kernel (wilson_internal.h).
  void dslash_xpay(SpinorField& out, const SpinorField& in, int parity, bool dagger,
                   const SpinorField& x, double a, const detail::DslashFold* fold = nullptr) const;
  void dslash_clover(SpinorField& out, const SpinorField& in, int parity, bool dagger,
                     const CloverField& c, const SpinorField* x, double a,
                     const detail::DslashFold* fold = nullptr) const;
  void dslash_clover_on_x(SpinorField& out, const SpinorField& in, int parity, bool dagger,
                          const CloverField& c, const SpinorField& x, double a,
                          const detail::DslashFold* fold = nullptr) const;

 private:
  void run(SpinorField& out, const SpinorField& in, int parity, bool dagger, const SpinorField* x,
           const CloverField* c, double a, int fuse, const detail::DslashFold* fold = nullptr) const;
  GaugeField links_;
  // Where the CPU vector kernel runs: the backward links stored at the site they act on,
  // back_(x, mu) = links_(x - mu, mu) (Grid's doubled gauge field: a tile's 4 backward links are
  // then one contiguous stream instead of 4 neighbouring rows; twice the link memory).
  GaugeField back_;
  std::array<double, 4> boundary_;
  runtime::Exec exec_;
  std::shared_ptr<const detail::SpinorHalo> halo_;
  mutable std::int64_t vector_launches_ = 0;
};

}  // namespace gluon::qcd
