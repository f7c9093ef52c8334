#pragma once
// Private: the launchers behind WilsonDslash and CloverTerm (kernel files), shared by wilson.cpp
// and clover.cpp. Not part of the public API.
#include <array>
#include <cstdint>
#include <memory>

#include "gluon/qcd/dirac/clover_field.h"
#include "gluon/qcd/dirac/dirac.h"
#include "gluon/qcd/gauge_field.h"
#include "gluon/qcd/spinor_field.h"
#include "gluon/runtime/exec.h"
#include "spinor_halo.h"

namespace gluon::qcd::detail {

// Epilogue of the dslash kernel around r = D in (or D^dagger in):
//   plain      out = a r            (x given: out = x + a r)
//   clover     out = a C r          (x given: out = x + a C r)
//   clover_x   out = C x + a r
enum DslashFuse : int { kFusePlain = 0, kFuseClover = 1, kFuseCloverOnX = 2 };

// BiCGstab's reduction folded into the epilogue of a body launch with x (the last kernel of an
// even-odd M; blas.h, "Device-resident scalars"), summed over the output sites from the values
// before the store rounds them and queued (parallel_reduce_into) into a ScalarSlots triple and its
// mirror, whose finisher writes one coefficient pair:
//   r0v  sums {<w, out>, |w|^2} (w = r0)   coef = alpha = rho / <w, out>
//   ts   sums {<out, x>, |out|^2} (x = s)  coef = omega = <out, x> / |out|^2
// The caller (wilson.cpp) launches it only on an unsplit lattice: the halo's exterior kernels
// add to out after the body has summed it.
// Where it runs (WilsonFamily::folds on the host, and the only kernels built with it):
// dslash_fold_pays, double and single, where it measured faster than the BLAS passes it replaces.
// GLUON_WILSON_FOLD=0 turns the folds off, for A/B runs.
bool dslash_fold_pays(Precision p);

//
// CG on the normal equations (DiracOperator::normal_cg_residual) folds into the last kernels of
// its two operator applications, with one sum each (queued into one slot and its mirror, no
// finisher):
//   cg             sums {|out|^2 + shift |x|^2}: p^dagger A p = |B p|^2 + shift |p|^2 from the
//                  intermediate B p and the kernel's x, which is p (A = B^dagger B + shift)
//   cg, cg_update  out is CG's residual r, updated in place: r -= alpha (v + shift w) with v the
//                  kernel's value, never stored, w = p (read only where shift is not 0), alpha =
//                  cg_alpha(*r2, *pAp) read on the device as blas::cg_residual reads it; sums
//                  {|r|^2}
struct DslashFold {
  enum Kind : int { none = 0, r0v = 1, ts = 2, cg = 3 };
  int kind = none;
  const SpinorField* w = nullptr;
  double *sums = nullptr, *sums_mirror = nullptr;
  const double* rho = nullptr;
  double *coef = nullptr, *coef_mirror = nullptr;
  // ts: alpha read, and the next rho and beta written with omega (OmegaFinish)
  const double* alpha = nullptr;
  double *rho_next = nullptr, *rho_next_mirror = nullptr, *beta = nullptr, *beta_mirror = nullptr;
  bool cg_update = false;
  const double *r2 = nullptr, *pAp = nullptr;
  double shift = 0.0;  // cg: A = B^dagger B + shift
};

// GLUON_GPU_SITE_THREADS, read at each launch (tests, `gluon bench dslash --ab-env`): 1 or 2
// keeps the GPU Wilson/clover dslash to the kernel with that many threads a site, "tail" (3) to
// the one-thread kernel whose last sites take two threads each (two threads a site are built in
// double and single, the tail in single); unset or "auto" (0) lets the tuner time every kind
// built. InputError on any other value.
int wilson_site_threads();
// GLUON_GPU_TAIL_SITES_PER_SM, read at each launch: the sites a multiprocessor of the "tail"
// kind's two-thread part, 2-65536, default kWilsonTailSitesPerSm. InputError on any other value.
inline constexpr int kWilsonTailSitesPerSm = 512;
int wilson_tail_sites_per_sm();

struct DslashCall {
  const GaugeField* u = nullptr;
  // Where the CPU vector kernel runs: u's backward links stored at the site they act on,
  // u_back(x, mu) = u(x - mu, mu) (cpu_simd.h's backward_links); nullptr elsewhere.
  const GaugeField* u_back = nullptr;
  SpinorField* out = nullptr;
  const SpinorField* in = nullptr;
  const SpinorField* x = nullptr;
  const CloverField* c = nullptr;
  int parity = 0;
  bool dagger = false;
  double a = 1.0;
  int fuse = kFusePlain;
  runtime::Exec ex;
  // What to launch: the dslash over all output sites (reading view.mode's ghosts), the pack of
  // the two faces of dimension mu (from `in`, of parity 1 - parity), or the exterior of mu.
  enum Op : int { body = 0, pack = 1, exterior = 2 };
  int op = body;
  int mu = 0;
  void* send_bwd = nullptr;  // pack: face for the -mu neighbour (12 reals a site)
  void* send_fwd = nullptr;  // pack: face for the +mu neighbour
  HaloView view;             // ghosts, cut dimensions and per-edge phases
  DslashFold fold;           // body only
};

void launch_wilson_dslash_double(const DslashCall& call);
void launch_wilson_dslash_single(const DslashCall& call);
void launch_wilson_dslash_half(const DslashCall& call);

// out_p = C in_p (site-local, out may be in)
void launch_clover_apply(SpinorField& out, const SpinorField& in, const CloverField& c, int parity,
                         const runtime::Exec& ex);
// out_p = in_p (same precision; subset or full on either side)
void launch_spinor_parity_copy(SpinorField& out, const SpinorField& in, int parity,
                               const runtime::Exec& ex);
// A and A^-1 from double r18 links `u` (in memory where ex runs). Returns the number of sites
// whose blocks were not positive definite.
// margin > 0: u is a halo-extended box (gauge_halo.h); failures are counted on its interior only.
std::int64_t launch_clover_build(const GaugeField& u, double kappa, double csw, CloverField& a,
                                 CloverField& ainv, const runtime::Exec& ex, int margin = 0);

// out(s) = ext(map[s]) for every site s of out (any storage); ext double site_major, map and ext
// in memory where ex runs.
void launch_clover_restrict(const CloverField& ext, const std::int64_t* map, CloverField& out,
                            const runtime::Exec& ex);

// The Wilson / clover DiracOperator (wilson.cpp); make_wilson and make_clover call it.
std::unique_ptr<DiracOperator> make_wilson_family(const DiracParams& p, const GaugeField& u,
                                                  const runtime::Exec& ex, bool clover);

// Index shift of a field's site storage for sites of parity p: 0 for full fields, p V/2 else.
inline std::int64_t parity_shift(const SpinorField& f, int parity) {
  return f.params().subset == SiteSubset::full ? 0 : parity * f.geometry().half_volume();
}

}  // namespace gluon::qcd::detail
