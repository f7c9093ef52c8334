#pragma once
// Private: the launcher of the staggered hopping kernel (staggered_kernels.h), one explicit
// instantiation per storage precision in staggered_{double,single,half}_kernels.cpp.
// staggered.cpp fills a StaggeredLaunch after checking every field; nothing here checks again.
#include <cstdint>

#include "gluon/qcd/gauge_field.h"
#include "gluon/qcd/geometry.h"
#include "gluon/qcd/spinor_field.h"
#include "gluon/runtime/exec.h"
#include "spinor_halo.h"

namespace gluon::qcd::detail {

// What a body launch on one parity of an unsplit lattice also does, queued with
// parallel_reduce_into into a ScalarSlots slot (`device`) and its mirror (`host`):
//   dot          (xpay) Re <x, out> over the launched sites: CG's p^dagger M p (M_dot)
//   cg_norms     (no xpay, the odd sites of M = m^2 - D_eo D_oe's first kernel, out = D_oe in)
//                {|out|^2, |in|^2} into two consecutive slots, then p^dagger M p =
//                m2 |in|^2 + |out|^2 written over the first (D_eo = -D_oe^dagger). |in|^2 is
//                summed over each site's +x neighbour, which runs over every input site once.
//   cg_residual  (xpay) out is CG's residual r: r -= alpha (a x + b D in), alpha =
//                cg_alpha(*r2, *pAp) (cg_coefficients.h); |r|^2 into the slot. M p is not stored.
struct StaggeredFold {
  enum Kind : int { none = 0, dot = 1, cg_norms = 2, cg_residual = 3 };
  int kind = none;
  double* device = nullptr;
  double* host = nullptr;
  double m2 = 0.0;
  const double* r2 = nullptr;
  const double* pAp = nullptr;
};

struct StaggeredLaunch {
  const runtime::Exec* ex = nullptr;
  SpinorField* out = nullptr;
  const SpinorField* in = nullptr;
  const SpinorField* x = nullptr;  // xpay term (nullptr: none)
  const GaugeField* fat = nullptr;        // one-hop links (thin for naive)
  const GaugeField* longlinks = nullptr;  // three-hop links (nullptr: naive)
  // The backward links stored at the site they act on, for the CPU vector kernel
  // (staggered_simd.h; nullptr where the operator does not run it).
  const GaugeField* fat_back = nullptr;
  const GaugeField* long_back = nullptr;
  SiteIndexer indexer{};
  int origin_parity[4] = {0, 0, 0, 0};
  int antiperiodic[4] = {0, 0, 0, 0};
  std::int64_t first = 0, count = 0;  // eo index range of the output sites
  std::int64_t out_base = 0, in_base = 0, x_base = 0;
  double c_fat = 0.5, c_long = 0.5, beta = 0.0;
  bool hopping = true;  // false: out = beta x (no hops; a parity copy)
  // Halo (spinor_halo.h): the dslash over [first, first + count) with view.mode, or the pack /
  // exterior of dimension mu (single-parity launches only).
  enum Op : int { body = 0, pack = 1, exterior = 2 };
  int op = body;
  int mu = 0;
  void* send_bwd = nullptr;
  void* send_fwd = nullptr;
  HaloView view;
  StaggeredFold fold;  // body launches only
};

// The hop on several vectors at once (staggered_multi_kernels.h): base describes the launch as for
// vector 0 (body op, no fold, no cut: its out, in and x are unused); out[j], in[j], x[j] (x all
// null or all set) and beta[j] for j < n, n <= kStaggeredMultiMax.
inline constexpr int kStaggeredMultiMax = 4;
struct StaggeredMultiLaunch {
  StaggeredLaunch base;
  int n = 0;
  SpinorField* out[kStaggeredMultiMax] = {};
  const SpinorField* in[kStaggeredMultiMax] = {};
  const SpinorField* x[kStaggeredMultiMax] = {};
  double beta[kStaggeredMultiMax] = {};
  // xpay only, optional: Re <x_j, out_j> into dot_device[j] / dot_host[j] (a slot and its mirror),
  // through 4 consecutive scratch slots (sums_device / sums_host; nullptr: no sums).
  double* dot_device[kStaggeredMultiMax] = {};
  double* dot_host[kStaggeredMultiMax] = {};
  double* sums_device = nullptr;
  double* sums_host = nullptr;
};

template <class Store>
void launch_staggered_dslash_impl(const StaggeredLaunch& a);
template <class Store>
void launch_staggered_multi_impl(const StaggeredMultiLaunch& m);

extern template void launch_staggered_dslash_impl<double>(const StaggeredLaunch&);
extern template void launch_staggered_dslash_impl<float>(const StaggeredLaunch&);
extern template void launch_staggered_dslash_impl<std::int16_t>(const StaggeredLaunch&);
extern template void launch_staggered_multi_impl<double>(const StaggeredMultiLaunch&);
extern template void launch_staggered_multi_impl<float>(const StaggeredMultiLaunch&);
extern template void launch_staggered_multi_impl<std::int16_t>(const StaggeredMultiLaunch&);

}  // namespace gluon::qcd::detail
