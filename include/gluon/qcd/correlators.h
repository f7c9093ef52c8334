#pragma once
// Zero-momentum meson correlators from propagator columns (canonical full fields: double,
// site_major, host), indexed by t' = (t - t0) mod T, t0 the source time slice.
//
// Wilson/clover, with S(x)_{a,b} = column b (spin*3+colour of the source) at sink index a:
//   pion(t') = sum_{x: t(x) = t0 + t'} sum_{a,b} |S(x)_{a,b}|^2
//            = sum_x tr[g5 S(x) g5 g5 S(x)^+ g5]  (g5-hermiticity; source and sink g5)
//   rho(t')  = (1/3) sum_{k=1..3} sum_x Re tr[g_k S(x) g_k g5 S(x)^+ g5]   (source and sink g_k,
//              the local vector current; from <O(x) O(0)^+> = -tr[G S Gbar g5 S^+ g5] with
//              Gbar = g4 G^+ g4 = -g_k, so the fermion-loop sign is included and the
//              correlator is positive at large t)
// Staggered (3 columns), Goldstone pion (gamma5 x xi5):
//   pion(t') = sum_x sum_{a,b} |G(x)_{a,b}|^2  (the staggered phases eps(x) eps(0) square to 1)
// No other normalisation: the propagator is that of the operator as solved (hopping form
// M = 1 - kappa D for Wilson/clover, so multiply by (2 kappa)^2 for the mass normalisation; mass
// form M = m + D for staggered). Point sources; for Z2 walls the same formulas give the
// noise-diluted wall-to-point estimators.
#include <vector>

#include "gluon/qcd/spinor_field.h"

namespace gluon::qcd {

struct Correlators {
  int t0 = 0;
  std::vector<double> pion;  // length T
  std::vector<double> rho;   // length T (Wilson/clover only; empty for staggered)
};

// columns: 12 Dirac fields (Wilson/clover) or 3 staggered fields, full lattice, canonical.
Correlators meson_correlators(const std::vector<SpinorField>& columns, int t0);

}  // namespace gluon::qcd
