#pragma once
// Private helpers shared by the gauge-operation kernel files (observables, starts, random fields,
// gauge transformations): the memory-vs-Exec check and small reduction types.
//
//   require_memory_for(space, device, ex, what)  InputError unless memory in `space` on `device`
//                                                is usable by ex (host/pinned for cpu, device
//                                                memory of ex.device for cuda)
//   DoubleSums<N>   N doubles reduced by addition (aggregate: zero with {}, no constructor, so it
//                   can live in CUDA shared memory)
//   DoubleMax       one double reduced by max (NaN wins, so a broken link is never hidden)
#include <string>

#include "gluon/runtime/error.h"
#include "gluon/runtime/exec.h"
#include "gluon/runtime/hd.h"
#include "gluon/runtime/memory.h"

namespace gluon::qcd::detail {

inline void require_memory_for(runtime::MemSpace space, int device, const runtime::Exec& ex,
                               const std::string& what) {
  if (ex.on_device()) {
    if (space != runtime::MemSpace::device || device != ex.device)
      throw InputError(what + ": the cuda backend (device " + std::to_string(ex.device) +
                       ") needs the field in device memory of that device, found " +
                       runtime::to_string(space) +
                       (space == runtime::MemSpace::device ? " of device " + std::to_string(device)
                                                           : std::string()));
  } else if (space == runtime::MemSpace::device) {
    throw InputError(what + ": the cpu backend needs the field in host memory, found device memory");
  }
}

template <int N>
struct DoubleSums {
  double v[N];
  GLUON_HD_INLINE DoubleSums& operator+=(const DoubleSums& o) {
    for (int i = 0; i < N; ++i) v[i] += o.v[i];
    return *this;
  }
};

struct DoubleMax {
  double v;
  GLUON_HD_INLINE DoubleMax& operator+=(const DoubleMax& o) {
    if (v != v) return *this;  // NaN already
    if (!(o.v <= v)) v = o.v;
    return *this;
  }
};

}  // namespace gluon::qcd::detail
