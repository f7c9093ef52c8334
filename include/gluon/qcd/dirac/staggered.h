#pragma once
// Naive and improved (asqtad/HISQ-style) staggered Dirac operators (conventions: DESIGN.md,
// dirac.h). make_dirac(p with DiracType::staggered, u, ex) and make_improved_staggered(p, fat,
// long, ex) return a StaggeredDirac; construct one directly for the lower-level entry points
// (dslash, byte/flop counts) that benchmarks use.
//
//   StaggeredDirac   M = m + D on colour vectors (nspin 1), with
//       naive:    D psi(x) = 1/2 sum_mu eta_mu(x) [U_mu(x) psi(x+mu) - U_mu(x-mu)^+ psi(x-mu)]
//       improved: D psi(x) = 1/2 sum_mu eta_mu(x) [F_mu(x) psi(x+mu) - F_mu(x-mu)^+ psi(x-mu)]
//                          + 1/2 sum_mu eta_mu(x) [L_mu(x) psi(x+3mu) - L_mu(x-3mu)^+ psi(x-3mu)]
//     eta_mu(x) = (-1)^(x_0 + ... + x_{mu-1}) of the GLOBAL coordinates; every hop that crosses
//     the lattice boundary in mu (for the three-hop term: every hop that wraps) is multiplied by
//     DiracParams::boundary[mu] (+1 or -1; anything else is an InputError). As in asqtad/HISQ
//     codes the INPUT links carry the action's coefficients: the fat links F hold the one-hop
//     coefficients (smearing and tadpole factors), the long links L the Naik coefficient
//     (-1/24 at tree level, times tadpole factors: L = c_Naik W_mu(x) W_mu(x+mu) W_mu(x+2mu));
//     the operator adds nothing but the 1/2 above (staggered_links.h builds unsmeared inputs).
//     D is anti-Hermitian for real boundary phases, so M^dagger = m - D.
//
//   Even-odd (DiracParams::even_odd, the default): with M = [[m, D_eo], [D_oe, m]],
//       M_ee    = m^2 - D_eo D_oe = m^2 + D_eo D_eo^+   on even sites (Hermitian positive
//                 definite for m != 0: hermitian_positive() is true; CG runs on M_ee itself),
//       prepare     b_e' = m b_e - D_eo b_o,
//       reconstruct x_e as solved,  x_o = (b_o - D_oe x_e) / m,
//     which follows from  m x_e + D_eo x_o = b_e,  D_oe x_e + m x_o = b_o. Needs m != 0.
//     Full form: M = m + D on all sites, prepare/reconstruct copy.
//
//   Storage: links are converted once, at construction, to the operator's precision
//   (double/single/half), order (blocked on the GPU, the only order the GPU kernels read:
//   anything else is an InputError; on the CPU tiled where the kernel vectorised across the W = 8
//   sites of an x-row runs: an AVX-512 or AVX2 CPU, double, single or half, X/2 a multiple of 4 (4 mod 8:
//   half-tile tasks of 4 sites, in single two a vector; on a split lattice of the rank's block,
//   the vector kernel taking the interior and the one-site exterior kernels the ghosts' hops),
//   links r18/r12, or naive r8 (src/qcd/dirac/staggered_simd.h), else site_major) and the
//   Exec's memory space.
//   The tiled path also keeps the backward links U_mu(x - mu) (and L_mu(x - 3 mu)) stored at x:
//   twice the link memory, for one contiguous link stream per tile and direction sense.
//   The phases are applied in the kernel, so the stored links stay plain:
//     thin (naive) links: DiracParams::reconstruct r18, r12 or r8 (they must be SU(3));
//     fat links: r18 only (not unitary; r12/r8 are refused with an InputError);
//     long links: DiracParams::long_reconstruct r18, or r12 when every L_mu(x) = c W with one
//       real c for the whole field and W in SU(3) (tree-level asqtad/HISQ: c = Naik coefficient
//       times tadpole factors); c is found from det L and checked (InputError naming the first
//       link that breaks it). W is stored r12 and c applied in the kernel: QUDA's "recon 13"
//       without its per-link phase, which here is the kernel's eta/boundary sign. r8: refused.
//     Fat and r18 long links are stored divided by a power of two >= their largest |entry|
//     (exact in double/single; keeps half precision, whose entries lie in [-1, 1], in range) and
//     the kernel multiplies back.
//   Fields: vector_params() is nspin 1, the operator's precision and order, even sites (even-odd)
//     or all sites; operations also accept fields of other pads (on the CPU: other orders) of
//     the same precision.
//   M, Mdag, prepare and reconstruct use one cached temporary: an operator must not be used by
//     two threads at once. Work is queued on exec().stream (no synchronisation at the end).
//
//   dslash(out, in, parity, dagger)   out(parity) = D_{parity,1-parity} in, or its dagger (= -D):
//                                     out is a field of that parity or a full field (its parity
//                                     half is written), in a field of the other parity or full.
//   dslash_xpay(out, in, parity, dagger, x, a, b)  out = a x + b D in (x on out's sites)
//   Flops (QUDA's counts for the hopping part, per output site): naive 570 = 8 x 66 (3x3 complex
//     matrix times vector) + 7 x 6 (accumulation); improved 1146 = 16 x 66 + 15 x 6, so GFLOP/s
//     compare with QUDA's directly. dslash_flops(xpay) = V/2 (570 | 1146) [+ 12 V/2 for a x + ...];
//     flops_M() = dslash_flops(false) + dslash_flops(true) (even-odd) or 2 dslash_flops(true)
//     (full). Not counted: the multiplication by the overall coefficient (6 flops/site naive, 12
//     improved) and the +-1 signs (folded into add/subtract).
//   dslash_bytes(xpay)   minimum traffic of one single-parity dslash: every input element read
//     once, the output written once: links of all 4V links of each link field (a one-parity
//     dslash touches the forward links at x and the backward links at x-mu of the other parity),
//     V/2 input colour vectors, V/2 outputs (+ V/2 for x with xpay), at the stored width (half:
//     plus the 4-byte norm per colour vector):
//       bytes = 4V (R_fat [+ R_long]) w + (V/2)(2 [+1]) (6w + n),  w = bytes per real, n = 4 for
//       half else 0, R = stored reals per link.
#include <memory>
#include <span>
#include <vector>

#include "gluon/qcd/dirac/dirac.h"
#include "gluon/qcd/dirac/halo.h"
#include "gluon/qcd/field_layout.h"

namespace gluon::qcd {

namespace detail {
class SpinorHalo;
struct StaggeredFold;
struct StaggeredLaunch;
}

class StaggeredDirac final : public DiracOperator {
 public:
  static constexpr double kNaiveFlopsPerSite = 570.0;
  static constexpr double kImprovedFlopsPerSite = 1146.0;

  // Naive staggered: thin links u (any storage; p.type must be staggered).
  StaggeredDirac(const DiracParams& p, const GaugeField& u, const runtime::Exec& ex);
  StaggeredDirac(const DiracParams& p, const GaugeField& u, const runtime::Exec& ex, FieldOrder order);
  // Improved staggered: fat (one-hop) and long (three-hop) links (p.type improved_staggered).
  StaggeredDirac(const DiracParams& p, const GaugeField& fat, const GaugeField& longlinks,
                 const runtime::Exec& ex);
  StaggeredDirac(const DiracParams& p, const GaugeField& fat, const GaugeField& longlinks,
                 const runtime::Exec& ex, FieldOrder order);

  SpinorFieldParams vector_params() const override;
  SpinorFieldParams full_params() const override;
  void M(SpinorField& out, const SpinorField& in) const override;
  // Even-odd and not split: the dot rides on the second hop's kernel (its xpay reads in).
  void M_dot(SpinorField& out, const SpinorField& in, blas::Slot pAp) const override;
  // Even-odd, not split, not the CPU vector kernel, double or single: p^dagger A p rides on the
  // first hop's kernel and r's update on the second's (dirac.h); A p is never stored. A shift
  // only changes the mass term's coefficient, m^2 + shift, so it costs nothing there.
  void M_cg_residual(SpinorField& Ap, const SpinorField& p, SpinorField& r, blas::Slot r2, blas::Slot pAp,
                     blas::Slot r2_new, double shift) const override;
  // Its two parts (dirac.h): the first hop with p^dagger A p, and the second with r's update, the
  // hop's output t = D_oe p kept in the operator's odd temporary between them.
  void M_cg_begin(SpinorField& Ap, const SpinorField& p, blas::Slot pAp, double shift) const override;
  void M_cg_end(SpinorField& Ap, const SpinorField& p, SpinorField& r, blas::Slot r2, blas::Slot pAp,
                blas::Slot r2_new, double shift) const override;
  void Mdag(SpinorField& out, const SpinorField& in) const override;
  bool hermitian_positive() const override { return params_.even_odd; }
  // Even-odd, not split, not the CPU vector kernel: the two hops of up to 4 vectors at a time in
  // one launch each, each link read once for all of them (dirac.h); elsewhere one by one.
  void normal_shifted_multi(std::span<SpinorField* const> out, std::span<const SpinorField* const> in,
                            std::span<const double> shifts, std::span<const blas::Slot> pAp = {}) const override;
  int shifted_multi_width() const override;
  void M_full(SpinorField& out, const SpinorField& in) const override;
  void prepare(SpinorField& b_pc, const SpinorField& b_full) const override;
  void reconstruct(SpinorField& x_full, const SpinorField& x_pc, const SpinorField& b_full) const override;
  double flops_M() const override;
  // D_oe in (the first kernel of M): even-site in, odd-site out.
  void hop(SpinorField& out, const SpinorField& in) const override;
  double hop_flops() const override { return dslash_flops(false); }

  bool improved() const { return improved_; }
  FieldOrder order() const { return order_; }
  const GaugeField& fat_links() const { return fat_; }   // thin links for naive
  const GaugeField& long_links() const { return long_; }  // empty for naive
  double fat_scale() const { return fat_scale_; }         // stored = input / scale
  double long_scale() const { return long_scale_; }

  void dslash(SpinorField& out, const SpinorField& in, int parity, bool dagger = false) const;
  void dslash_xpay(SpinorField& out, const SpinorField& in, int parity, bool dagger,
                   const SpinorField& x, double a, double b) const;
  // Flops of one dslash / dslash_xpay call on one parity (V/2 output sites).
  double dslash_flops(bool xpay = false) const;
  double dslash_bytes(bool xpay = false) const;
  double flops_per_site() const { return improved_ ? kImprovedFlopsPerSite : kNaiveFlopsPerSite; }
  // Halo exchange on a split lattice (dirac/halo.h): faces of depth 1 (naive) or 3 (improved).
  bool split() const override;
  HaloStats halo_stats() const override;
  void halo_exchange_only(const SpinorField& in, int parity) const;
  void halo_exchange_only(const SpinorField& in) const override { halo_exchange_only(in, 1); }
  // Whether the vector CPU kernel runs this operator's tiled launches, and how many it ran (for
  // tests and benchmarks).
  bool vectorised() const;
  std::int64_t vector_launches() const { return vector_launches_; }

 private:
  void init_common(FieldOrder order);
  // M_dot of M + shift (even-odd, not split): the shift joins the mass term, m^2 + shift.
  void shifted_dot(SpinorField& out, const SpinorField& in, blas::Slot pAp, double shift) const;
  // Whether CG's step runs folded into the two hops (even-odd, not split, not the CPU vector
  // kernel, double or single); elsewhere it is M_dot of M + shift and then blas::cg_residual.
  bool cg_folds() const;
  // Whether normal_shifted_multi runs the multi-vector kernel (even-odd, not split, not the CPU
  // vector kernel).
  bool multi_kernel_runs() const;
  // out = a x + b D in (x optional) over `parity` (0/1) or all sites (-1, full fields). With
  // `fold` (one parity, not split): a sum over the launched sites queued into slots, or CG's
  // residual update (staggered_dslash.h, StaggeredFold).
  void apply(SpinorField& out, const SpinorField& in, int parity, bool dagger, const SpinorField* x,
             double a, double b, const detail::StaggeredFold* fold = nullptr) const;
  SpinorField& temporary(SiteSubset subset) const;
  // The launch's fields and lattice for out = a x + b D in (vector checks included; the sites,
  // coefficients and fold are the caller's).
  detail::StaggeredLaunch launch_of(SpinorField& out, const SpinorField& in, const SpinorField* x) const;

  bool improved_ = false;
  FieldOrder order_ = FieldOrder::site_major;
  GaugeField fat_, long_;
  // Where the CPU vector kernel runs: the backward links stored at the site they act on,
  // fat_back_(x, mu) = fat_(x - mu, mu) and long_back_(x, mu) = long_(x - 3 mu, mu) (Grid's doubled
  // gauge field: a tile's links are then contiguous streams; twice the link memory).
  GaugeField fat_back_, long_back_;
  double fat_scale_ = 1.0, long_scale_ = 1.0;
  mutable SpinorField tmp_;
  mutable std::vector<SpinorField> multi_tmp_;  // normal_shifted_multi's D_oe in_j (odd sites)
  mutable std::shared_ptr<runtime::ScalarSlots> multi_sums_;  // and the scratch of its dots
  std::shared_ptr<const detail::SpinorHalo> halo_;
  mutable std::int64_t vector_launches_ = 0;
};

}  // namespace gluon::qcd
