#pragma once
// The GPU LU (cuda_device_lu.cpp; docs/hpl.md "GPU LU"): for P = 1, each rank's block-cyclic
// columns of [A b] live in its GPU's memory for the whole run (resident), or for Q = 1 in pinned
// host memory, factored in windows of columns that fit the device (out of core). Panels are
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

// Columns per window of the out-of-core LU within `budget` bytes (a multiple of NB; 0: none fits).
long out_of_core_window(const HplRunParams& prm, const HplGrid& grid, std::size_t budget);

// The LU for this rank, or nullptr with the reason in why_not. placement "auto": resident when
// it fits `budget` bytes, else out of core (Q = 1); "resident" or "out-of-core": only that one.
// P > 1, Q > 1 without NCCL, or no window of one panel within the budget: nullptr.
std::unique_ptr<DeviceLu> make_device_lu(const HplRunParams& prm, HplGrid& grid, int device, std::size_t budget,
                                         const std::string& placement, std::string& why_not);

}  // namespace gluon::hpl
