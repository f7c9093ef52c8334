// Wilson dslash kernels in double precision with 18-real links (wilson_dslash_impl.h), dispatched
// by wilson_dslash_double_kernels.cpp.
#include "wilson_dslash_impl.h"

namespace gluon::qcd::detail {
template void run_wilson_dslash<double, Reconstruct::r18>(const DslashCall& call);
}  // namespace gluon::qcd::detail
