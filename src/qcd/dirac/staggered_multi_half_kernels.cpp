// The staggered multi-vector hop in half precision storage; see staggered_multi_kernels.h.
#include "staggered_multi_kernels.h"

namespace gluon::qcd::detail {
template void launch_staggered_multi_impl<std::int16_t>(const StaggeredMultiLaunch&);
}  // namespace gluon::qcd::detail
