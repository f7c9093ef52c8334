#pragma once
// The device-resident LU (cuda_device_lu.cpp; docs/hpl.md "Device-resident LU"): for P = 1, each
// rank's block-cyclic columns of [A b] live in its GPU's memory for the whole run. Panels are
// factored on the GPU (recursive, right-looking, one launch per column at the leaves), broadcast
// over NCCL along the process row, and applied with one row-interchange kernel, cuBLAS DTRSM and
// DGEMM; look-ahead factors the next panel on a second stream while the trailing DGEMM runs.
#include <cstddef>
#include <memory>
#include <string>

#include "gluon/hpl/lu.h"

namespace gluon::hpl {

// Device memory one rank of the grid needs for run `prm` (matrix, panel buffers, slack).
std::size_t device_lu_bytes(const HplRunParams& prm, const HplGrid& grid);

// The LU for this rank, or nullptr with the reason in why_not (P > 1, no NCCL for Q > 1, more
// memory than `budget` bytes). The CUDA device `device` must be current.
std::unique_ptr<ResidentLu> make_device_lu(const HplRunParams& prm, HplGrid& grid, int device, std::size_t budget,
                                           std::string& why_not);

}  // namespace gluon::hpl
