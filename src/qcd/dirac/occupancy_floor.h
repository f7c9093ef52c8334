#pragma once
// Private: occupancy variants of a stencil kernel, timed against each other by the tuner.
#include <cstdint>
#include <type_traits>
#include <utility>

#include "gluon/runtime/parallel.h"
#include "gluon/runtime/tune.h"

namespace gluon::qcd::detail {

// A stencil kernel with an occupancy floor (runtime/cuda/launch.cuh, min_blocks_per_sm). With one
// load path per field (BlockedOnDevice accessors) nvcc hoists the loads of several hops ahead of
// their use: more bytes in flight per warp, but more registers. A floor caps the registers for
// more warps, at the risk of spills. Which is faster differs per kernel and is measured, not
// guessed: the launchers (run_wilson_dslash, the staggered launch_dslash_typed) time the plain
// kernel and each floor of the list (choose_variant, kept in the tune cache). H200, final tree
// (bench/results/2026-11-24-one-load-path-h200): Wilson single picks 5 blocks, half and clover
// half 6, double the plain kernel or 3, staggered anything from plain to 8.
template <class K, int Blocks>
struct OccupancyFloor : K {
  static constexpr int min_blocks_per_sm = Blocks;
};
// Floors tried, in blocks of 128 threads per SM (65536 / (128 B) registers: 3 -> 170, 4 -> 128,
// 5 -> 102, 6 -> 85, 7 -> 73, 8 -> 64); double holds twice the reals. The CPU build has none.
template <class Store>
using occupancy_floors =
#if GLUON_HAVE_CUDA
    std::conditional_t<std::is_same_v<Store, double>, std::integer_sequence<int, 3, 4, 5>,
                       std::integer_sequence<int, 4, 5, 6, 7, 8>>;
#else
    std::integer_sequence<int>;
#endif

// launch(kernel) for variant v: 0 the plain kernel, i > 0 the i-th floor of Floors.
template <class KT, class Launch, int... Floors>
void launch_variant(int v, const KT& kern, Launch&& launch, std::integer_sequence<int, Floors...>) {
  if (v == 0) return launch(kern);
  int i = 0;
  ((++i == v ? launch(OccupancyFloor<KT, Floors>{kern}) : void()), ...);
}

// parallel_reduce_into of the stencil reduction f (a kernel with a folded sum) or of f under one
// of the floors Floors, whichever choose_variant measured fastest: the folds get variants as their
// plain kernels do. Without them the staggered CG fold's first kernel took 5-7% longer than the
// plain kernel doing the same work (H200, 32^4, single and double), and the clover folds 4-12%.
template <class Floors, class T, class F>
void reduce_into_floored(const runtime::Exec& ex, const runtime::TuneSpec& spec, std::int64_t n, const F& f,
                         T* host, T* device) {
  auto go = [&](int v) {
    launch_variant(v, f, [&](const auto& g) { runtime::parallel_reduce_into<T>(ex, spec, n, g, host, device); },
                   Floors{});
  };
  go(runtime::choose_variant<F>(ex, spec, n, 1 + static_cast<int>(Floors::size()), go));
}

}  // namespace gluon::qcd::detail
