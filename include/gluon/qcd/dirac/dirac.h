#pragma once
// The Dirac-operator interface every solver, source and benchmark uses (conventions: DESIGN.md,
// docs/conventions.md).
//
//   DiracType        wilson | clover | staggered | improved_staggered
//   DiracParams      operator, normalisation parameters (kappa for Wilson/clover, mass for
//                    staggered), c_sw, fermion boundary phases, even-odd preconditioning and its
//                    clover variant, storage precision/compression of the links, where it runs
//   DiracOperator    M, M^dagger and M^dagger M on the fields the operator acts on
//                    (vector_params(): full lattice, or the even sites when preconditioned);
//                    prepare()/reconstruct() map a full source to the preconditioned system and
//                    its solution back to the full solution; flop counts for benchmarks.
//   cpu_vector_isa() which build of the CPU vector kernels runs here (avx512, avx2, none).
//   make_dirac(...)  builds one from a gauge field of any storage (links are converted to the
//                    operator's precision/compression/layout on its Exec). Improved staggered
//                    takes its one-hop (fat) and three-hop (long/Naik) links as inputs.
//
// Operators (hopping normalisation; mass form = M / (2 kappa), m = 1/(2 kappa) - 4):
//   Wilson     M = 1 - kappa D,  D psi(x) = sum_mu (1 - g_mu) U_mu(x) psi(x+mu)
//                                         + (1 + g_mu) U_mu(x-mu)^+ psi(x-mu)
//   clover     M = A - kappa D,  A = 1 - kappa c_sw sum_{mu<nu} sigma_munu F_munu
//   staggered  M = m + D,  D psi(x) = 1/2 sum_mu eta_mu(x) [U_mu(x) psi(x+mu) - U_mu(x-mu)^+ psi(x-mu)]
//              (improved: fat links in the one-hop term plus the Naik term with the long links)
// Even-odd: Wilson M_ee = 1 - kappa^2 D_eo D_oe on even sites; clover asymmetric
// A_ee - kappa^2 D_eo A_oo^-1 D_oe, symmetric 1 - kappa^2 A_ee^-1 D_eo A_oo^-1 D_oe;
// staggered m^2 - D_eo D_oe (Hermitian positive, so M^dagger M is not needed there).
#include <array>
#include <memory>
#include <span>
#include <string>

#include "gluon/qcd/blas.h"
#include "gluon/qcd/gauge_field.h"
#include "gluon/qcd/precision.h"
#include "gluon/qcd/dirac/halo.h"
#include "gluon/qcd/spinor_field.h"
#include "gluon/runtime/exec.h"

namespace gluon::qcd {

enum class DiracType { wilson, clover, staggered, improved_staggered };
enum class CloverPreconditioning { asymmetric, symmetric };

std::string to_string(DiracType t);
DiracType parse_dirac_type(const std::string& s);  // "wilson", "clover", "staggered", "improved-staggered"

struct DiracParams {
  DiracType type = DiracType::wilson;
  double kappa = 0.125;  // Wilson, clover
  double mass = 0.1;     // staggered
  double csw = 1.0;      // clover
  // Fermion boundary phase per direction, applied to hops across the lattice boundary:
  // +1 periodic, -1 antiperiodic (default: antiperiodic in t).
  std::array<double, 4> boundary{1.0, 1.0, 1.0, -1.0};
  bool even_odd = true;
  CloverPreconditioning clover_pc = CloverPreconditioning::asymmetric;
  Precision precision = Precision::double_;
  Reconstruct reconstruct = Reconstruct::r18;
  Reconstruct long_reconstruct = Reconstruct::r18;  // improved staggered three-hop links
};

class DiracOperator {
 public:
  virtual ~DiracOperator() = default;

  const DiracParams& params() const { return params_; }
  const runtime::Exec& exec() const { return exec_; }

  // Parameters of the fields M acts on (subset even when preconditioned, nspin, precision,
  // layout, memory space). Allocate solver vectors with SpinorField(vector_params()).
  virtual SpinorFieldParams vector_params() const = 0;
  // Parameters of full-lattice fields (sources and solutions) in this operator's storage.
  virtual SpinorFieldParams full_params() const = 0;

  virtual void M(SpinorField& out, const SpinorField& in) const = 0;
  virtual void Mdag(SpinorField& out, const SpinorField& in) const = 0;
  // out = M^dagger M in; the default uses one temporary of vector_params(), kept by the operator.
  virtual void MdagM(SpinorField& out, const SpinorField& in) const;
  // out = M in, and Re <in, out> queued into the device slot pAp (blas.h, "Device-resident
  // scalars"): CG's p^dagger A p. The default is M and then blas::re_dot; an operator whose last
  // kernel reads `in` at every output site anyway (even-odd staggered: m^2 in - D D in) folds the
  // dot into it and saves streaming both vectors again.
  virtual void M_dot(SpinorField& out, const SpinorField& in, blas::Slot pAp) const;
  // CG's operator step with its residual update, for A = M + shift: p^dagger A p into slot pAp,
  // then r -= alpha A p and |r|^2 into slot r2_new, alpha = |r|^2 / p^dagger A p read from slots
  // r2 and pAp on the device as blas::cg_residual does (0 unless p^dagger A p is positive and
  // finite). pAp names two consecutive slots, the second scratch. `Ap` is scratch of
  // vector_params(): the default (M_dot, or M and blas::axpy and blas::re_dot with a shift, then
  // blas::cg_residual) stores A p there; even-odd staggered (not split, not the CPU vector kernel,
  // double or single) never stores it: its first kernel sums p^dagger A p = (m^2 + shift) |p|^2 +
  // |D_oe p|^2 (D_eo = -D_oe^dagger) and its second updates r. The shift is multi-shift CG's
  // (RHMC's shifts are all positive) and its refinements' (cg_shifted).
  virtual void M_cg_residual(SpinorField& Ap, const SpinorField& p, SpinorField& r, blas::Slot r2, blas::Slot pAp,
                             blas::Slot r2_new, double shift) const;
  // The same step in two parts, so that CG can queue the next iteration's first part before it
  // waits for this one's scalars (SolverParams::cg_lookahead): M_cg_begin queues p^dagger A p into
  // pAp (two slots) and leaves what M_cg_end needs in Ap or in the operator's temporaries;
  // M_cg_end, with the same Ap, p, pAp and shift, then queues r -= alpha A p and |r|^2. Together
  // they are M_cg_residual. Any other application of this operator between the two may overwrite
  // its temporaries: M_cg_begin must then be queued again. The defaults are DiracOperator's
  // M_cg_residual cut after p^dagger A p (the re_dot or M_dot) and before blas::cg_residual.
  virtual void M_cg_begin(SpinorField& Ap, const SpinorField& p, blas::Slot pAp, double shift) const;
  virtual void M_cg_end(SpinorField& Ap, const SpinorField& p, SpinorField& r, blas::Slot r2, blas::Slot pAp,
                        blas::Slot r2_new, double shift) const;
  // The same step for CG on the normal equations, A = B^dagger B + shift with B = M (CGNR) or,
  // when mdag_first, B = M^dagger (CGNE: A = M M^dagger + shift): mid = B p, p^dagger A p =
  // |mid|^2 + shift |p|^2 into slot pAp (two slots, the second scratch), then
  // r -= alpha (B^dagger mid + shift p) and |r|^2 into r2_new. mid and Ap are scratch of
  // vector_params(). The default runs B, blas::re_dot, B^dagger and blas::cg_residual (with a
  // shift: B^dagger, blas::axpy and blas::re_dot of p and A p); the even-odd Wilson and clover
  // operators, where their BiCGstab folds run, sum p^dagger A p in B's last kernel (which reads p
  // anyway) and update r in B^dagger's (reading p once more only with a shift), never storing A p.
  virtual void normal_cg_residual(SpinorField& Ap, SpinorField& mid, const SpinorField& p, SpinorField& r,
                                  blas::Slot r2, blas::Slot pAp, blas::Slot r2_new, bool mdag_first,
                                  double shift) const;
  // BiCGstab's operator applications with their reductions (blas.h, same slots):
  //   M_r0v: v = M p, then bicgstab_r0v(r0, v, rho, r0v, alpha)
  //   M_ts:  t = M s, then bicgstab_ts(t, s, r0, slots)
  // The defaults run M and then the BLAS kernel; the even-odd Wilson and clover operators (double
  // and single, where it measured faster) sum in M's last kernel, which reads p (s) at every
  // output site anyway.
  virtual void M_r0v(SpinorField& v, const SpinorField& p, const SpinorField& r0, blas::Slot rho, blas::Slot r0v,
                     blas::Slot alpha) const;
  virtual void M_ts(SpinorField& t, const SpinorField& s, const SpinorField& r0, const blas::TsSlots& slots) const;
  // True when M itself is Hermitian positive definite (even-odd staggered), so CG can use M.
  virtual bool hermitian_positive() const { return false; }
  // out[j] = (A + shifts[j]) in[j] for every j, with A = M where hermitian_positive(), else
  // M^dagger M: several shifted systems' operator at once (multi-shift CG refines its shifts
  // together). With pAp (one slot per vector, or empty), also Re <in[j], out[j]> (CG's p^dagger
  // A p) queued into slot pAp[j]. The default applies them one by one (then blas::re_dot); even-odd
  // staggered on an unsplit lattice (not the CPU vector kernel) reads each link once for up to 4
  // vectors and sums the dots in its second kernel (staggered_multi_kernels.h). out, in and shifts
  // have one size, and no out[j] may be any in[k].
  virtual void normal_shifted_multi(std::span<SpinorField* const> out, std::span<const SpinorField* const> in,
                                    std::span<const double> shifts, std::span<const blas::Slot> pAp = {}) const;
  // How many vectors normal_shifted_multi applies in one pass over the links (1: one by one).
  virtual int shifted_multi_width() const { return 1; }

  // Full source b -> right-hand side of the system M x = b_pc that vector_params() fields hold.
  virtual void prepare(SpinorField& b_pc, const SpinorField& b_full) const = 0;
  // Solution x_pc of the (preconditioned) system and the full source -> full solution.
  virtual void reconstruct(SpinorField& x_full, const SpinorField& x_pc, const SpinorField& b_full) const = 0;

  // The unpreconditioned operator on full_params() fields, even when M is the even-odd one: what
  // a propagator inverts, so that compute_propagator can check b - M_full x of the reconstructed
  // solution, independently of prepare/reconstruct. out and in must be different fields.
  virtual void M_full(SpinorField& out, const SpinorField& in) const = 0;

  // Floating-point operations of one application of M on vector_params() fields (for GFLOP/s).
  virtual double flops_M() const = 0;

  // The one-parity hop that M's first kernel applies (even-odd operators): out = D_oe in for
  // Wilson and naive/improved staggered, out = A_oo^-1 D_oe in for clover (either
  // preconditioning). It is the operation QUDA's dslash test times, and the one `gluon bench
  // dslash` times. `in` is of vector_params() (even sites), `out` of hop_params() (odd sites);
  // hop_flops() counts one call. InputError when M is not even-odd preconditioned, and from the
  // default (an operator without such a hop). On a split lattice it exchanges halos as M does.
  virtual void hop(SpinorField& out, const SpinorField& in) const;
  virtual double hop_flops() const { return 0.0; }
  SpinorFieldParams hop_params() const;

  // Halo exchange on a split lattice (dirac/halo.h): whether the lattice is split, counts, and
  // the exchange a dslash on odd output sites does, alone (pack + transfer of `in`, an even or
  // full vector), for benchmarks. Collective over the world when split.
  virtual bool split() const { return false; }
  virtual HaloStats halo_stats() const { return {}; }
  virtual void halo_exchange_only(const SpinorField& in) const { (void)in; }

 protected:
  // normal_shifted_multi's argument checks (InputError).
  static void check_shifted_multi(std::span<SpinorField* const> out, std::span<const SpinorField* const> in,
                                  std::span<const double> shifts, std::span<const blas::Slot> pAp);
  DiracOperator(const DiracParams& p, const runtime::Exec& ex) : params_(p), exec_(ex) {}
  DiracParams params_;
  runtime::Exec exec_;

 private:
  mutable std::unique_ptr<SpinorField> normal_tmp_;  // MdagM's intermediate, allocated on first use
};

// Wilson, clover, naive staggered: links from `u` (any storage; converted).
std::unique_ptr<DiracOperator> make_dirac(const DiracParams& p, const GaugeField& u, const runtime::Exec& ex);
// Improved staggered: one-hop (fat/smeared) links and three-hop (long) links as inputs.
std::unique_ptr<DiracOperator> make_improved_staggered(const DiracParams& p, const GaugeField& fat,
                                                       const GaugeField& longlinks,
                                                       const runtime::Exec& ex);

// Which build of the CPU kernels vectorised across sites (the tiled field order) the CPU
// operators use on this host: "avx512", "avx2", or "none" (the scalar kernels only; also the
// answer for lattices those kernels do not take, wilson.h and staggered.h). The environment
// variable GLUON_CPU_SIMD=0 forces "none", =avx2 the avx2 build on an AVX-512 CPU.
const char* cpu_vector_isa();

}  // namespace gluon::qcd
