#pragma once
// Conversions between storage forms of the same field (same geometry): precision, compression,
// layout (site_major <-> blocked, any pad) and memory space. The element transform runs as a
// kernel (field_convert_kernels.cpp): on the GPU for fields in device memory, on the CPU (OpenMP)
// for host/pinned memory. Across memory spaces the data goes through one temporary: host -> device
// copies the source as it is and converts on the device; device -> host converts on the device
// into a temporary of the destination's form and copies that back. Buffers move with
// runtime::copy_bytes; the call returns when dst is complete.
//
//   convert(src, dst, ex)       gauge fields: any precision x reconstruct x order x space.
//                               Same compression: the stored reals are converted one by one
//                               (casts only, so double -> single -> double and order round trips
//                               are exact where the precision allows, and bit-identical on CPU
//                               and GPU); except into half r8 from another precision, which
//                               re-packs so that half's degenerate-link threshold applies.
//                               Different compression: unpack to SU(3) in double, pack into dst.
//                               InputError when the geometries differ or src and dst are one field.
//   convert(src, dst, ex)       spinor fields: any precision x order x space; nspin and subset
//                               must match (InputError). Half precision stores the per-site norm
//                               (max |real component|) and components to_half(x, 1/norm).
//   converted(src, params, ex)  a new field with `params` (geometry taken from src) holding src.
//
// ex picks the stream and device for device-memory work (a cpu ex with device fields uses
// runtime::cuda_exec(field device)); host-memory work always runs on the CPU backend.
#include "gluon/qcd/gauge_field.h"
#include "gluon/qcd/spinor_field.h"
#include "gluon/runtime/exec.h"

namespace gluon::qcd {

void convert(const GaugeField& src, GaugeField& dst, const runtime::Exec& ex);
void convert(const SpinorField& src, SpinorField& dst, const runtime::Exec& ex);

GaugeField converted(const GaugeField& src, GaugeFieldParams dst_params, const runtime::Exec& ex);
SpinorField converted(const SpinorField& src, SpinorFieldParams dst_params, const runtime::Exec& ex);

}  // namespace gluon::qcd
