// Wilson dslash kernels in half precision with 12-real links (wilson_dslash_impl.h), dispatched
// by wilson_dslash_half_kernels.cpp.
#include "wilson_dslash_impl.h"

namespace gluon::qcd::detail {
template void run_wilson_dslash<std::int16_t, Reconstruct::r12>(const DslashCall& call);
}  // namespace gluon::qcd::detail
