#pragma once
// Inputs for the improved staggered operator built WITHOUT smearing: a test and CLI convenience,
// not a physics action (real asqtad/HISQ runs smear the one-hop links with staples and
// reunitarise; bring those links from elsewhere, as QUDA's interface expects).
//
//   ImprovedStaggeredLinks            fat (one-hop) and long (three-hop) links, canonical fields
//   kNaikOneHop = 9/8, kNaikThreeHop = -1/24
//                                     the tree-level Naik action without smearing:
//                                     D = 1/2 sum eta [ (9/8)(U psi(x+mu) - ...) - (1/24)(UUU psi(x+3mu) - ...) ]
//   unsmeared_improved_links(u, ex, c_one, c_three)
//     "improved staggered with unsmeared links": fat_mu(x) = c_one U_mu(x),
//     long_mu(x) = c_three U_mu(x) U_mu(x+mu) U_mu(x+2mu). u may have any storage (it is
//     converted to canonical through ex); the result is canonical (double r18 site_major host),
//     ready for make_improved_staggered. The long links are c_three times an SU(3) matrix when u
//     is SU(3), so they may be stored r12. One process only (InputError otherwise).
#include "gluon/qcd/gauge_field.h"
#include "gluon/runtime/exec.h"

namespace gluon::qcd {

inline constexpr double kNaikOneHop = 9.0 / 8.0;
inline constexpr double kNaikThreeHop = -1.0 / 24.0;

struct ImprovedStaggeredLinks {
  GaugeField fat;
  GaugeField longlinks;
};

ImprovedStaggeredLinks unsmeared_improved_links(const GaugeField& u, const runtime::Exec& ex,
                                                double c_one = kNaikOneHop, double c_three = kNaikThreeHop);

}  // namespace gluon::qcd
