#pragma once
// The per-measurement kernels of the two-particle accumulation (docs/g4.md "Formulas").
//
//   Precision          double (complex<double> G and G4) or single (complex<float> storage and
//                      float accumulation, as DCA++ does).
//   generate_g         writes one measurement's seeded synthetic G (both spins, 2 n_G^2 complex
//                      numbers) into `g`, memory of ex's space. The values depend only on (seed,
//                      id, spin, element): a counter-based hash, so any rank can regenerate any
//                      measurement, and single precision is the rounded double value.
//   measurement_id     the id of local measurement m of world rank w: every (w, m) is distinct.
//   accumulate         G4[e] += contribution of one measurement's G, for the stacked entries
//                      e in [from, to) (layout.h), where `g4` points at entry `slice_begin`
//                      (the first entry the caller holds). One thread per G4 entry, reading the
//                      G elements it needs; asynchronous on ex.stream on the GPU.
//   bytes_per_update   the bytes one entry's update moves as counted for GB/s: the G4 entry read
//                      and written plus each G element read (4 for pp and ph_transverse, 8 for
//                      ph_charge and ph_magnetic); G reads mostly hit in cache, so the G4 part
//                      (g4_bytes_per_update) is the floor of the DRAM traffic.
#include <cstddef>
#include <cstdint>
#include <string>

#include "gluon/g4/layout.h"
#include "gluon/runtime/exec.h"

namespace gluon::g4 {

enum class Precision { double_, single };
std::string to_string(Precision p);
Precision precision_from_name(const std::string& name);  // "double" / "single"
std::size_t complex_bytes(Precision p);                  // 16 or 8

std::uint64_t measurement_id(int world_rank, int measurement);

void generate_g(const runtime::Exec& ex, const Layout& layout, Precision p, void* g,
                std::uint64_t seed, std::uint64_t id);

void accumulate(const runtime::Exec& ex, const Layout& layout, Precision p, const void* g,
                void* g4, std::int64_t slice_begin, std::int64_t from, std::int64_t to);

// Entries [from, to) of the stacked index, averaged over the channels they cover.
double bytes_per_update(const Layout& layout, Precision p, std::int64_t from, std::int64_t to);
inline double g4_bytes_per_update(Precision p) { return 2.0 * static_cast<double>(complex_bytes(p)); }

// The synthetic G value (double) of element `element` of spin `spin`: what generate_g writes.
void g_value(std::uint64_t seed, std::uint64_t id, int spin, std::int64_t element, double* re,
             double* im);

}  // namespace gluon::g4
