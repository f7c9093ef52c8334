// Staggered hopping kernels (naive and improved) in single precision storage; see staggered_kernels.h.
#include "staggered_kernels.h"
#include "staggered_multi_kernels.h"

namespace gluon::qcd::detail {
template void launch_staggered_dslash_impl<float>(const StaggeredLaunch&);
template void launch_staggered_multi_impl<float>(const StaggeredMultiLaunch&);
}  // namespace gluon::qcd::detail
