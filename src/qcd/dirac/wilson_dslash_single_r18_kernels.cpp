// Wilson dslash kernels in single precision with 18-real links (wilson_dslash_impl.h), dispatched
// by wilson_dslash_single_kernels.cpp.
#include "wilson_dslash_impl.h"

namespace gluon::qcd::detail {
template void run_wilson_dslash<float, Reconstruct::r18>(const DslashCall& call);
}  // namespace gluon::qcd::detail
