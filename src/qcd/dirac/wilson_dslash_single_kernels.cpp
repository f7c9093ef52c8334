// Wilson dslash in single precision: the dispatch over the link compression. Each compression's
// kernels are compiled in a file of their own (wilson_dslash_single_r*_kernels.cpp), so that nvcc
// builds the nine sets of precision and compression in parallel (one file per precision took
// six minutes on the development VM).
#include "wilson_dslash_impl.h"

namespace gluon::qcd::detail {
extern template void run_wilson_dslash<float, Reconstruct::r18>(const DslashCall& call);
extern template void run_wilson_dslash<float, Reconstruct::r12>(const DslashCall& call);
extern template void run_wilson_dslash<float, Reconstruct::r8>(const DslashCall& call);
void launch_wilson_dslash_single(const DslashCall& call) { launch_wilson_dslash_store<float>(call); }
}  // namespace gluon::qcd::detail
