// Wilson dslash kernels, half precision (wilson_dslash_impl.h; one file per precision so that
// nvcc compiles them in parallel).
#include "wilson_dslash_impl.h"

namespace gluon::qcd::detail {
void launch_wilson_dslash_half(const DslashCall& call) { launch_wilson_dslash_store<std::int16_t>(call); }
}  // namespace gluon::qcd::detail
