// Wilson dslash in double precision: the dispatch over the link compression. Each compression's
// kernels are compiled in a file of their own (wilson_dslash_double_r*_kernels.cpp), so that nvcc
// builds the nine sets of precision and compression in parallel (one file per precision took
// six minutes on the development VM).
#include "wilson_dslash_impl.h"

namespace gluon::qcd::detail {
extern template void run_wilson_dslash<double, Reconstruct::r18>(const DslashCall& call);
extern template void run_wilson_dslash<double, Reconstruct::r12>(const DslashCall& call);
extern template void run_wilson_dslash<double, Reconstruct::r8>(const DslashCall& call);
void launch_wilson_dslash_double(const DslashCall& call) { launch_wilson_dslash_store<double>(call); }
}  // namespace gluon::qcd::detail
