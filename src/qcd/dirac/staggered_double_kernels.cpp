// Staggered hopping kernels (naive and improved) in double precision storage; see staggered_kernels.h.
#include "staggered_kernels.h"

namespace gluon::qcd::detail {
template void launch_staggered_dslash_impl<double>(const StaggeredLaunch&);
}  // namespace gluon::qcd::detail
