#pragma once
// Storage precisions and gauge compression (DESIGN.md "Data").
//
//   Precision::double_ / single / half   half = 16-bit fixed point: value = int16 / 32767 * scale,
//                                        scale 1 for link entries (|u_ij| <= 1), a per-site float
//                                        norm (max |component|) for spinors
//   Reconstruct::r18 / r12 / r8          reals stored per link: full, two rows, 8 parameters
#include <cmath>
#include <cstdint>
#include <string>

#include "gluon/runtime/hd.h"

namespace gluon::qcd {

enum class Precision { double_, single, half };
enum class Reconstruct { r18 = 18, r12 = 12, r8 = 8 };

std::string to_string(Precision p);
std::string to_string(Reconstruct r);
// "double"/"single"/"half" (also "float", "fp64", "fp32", "fp16"); InputError otherwise.
Precision parse_precision(const std::string& s);
// "18"/"12"/"8" (also "r18" etc.); InputError otherwise.
Reconstruct parse_reconstruct(const std::string& s);

inline constexpr int stored_reals(Reconstruct r) { return static_cast<int>(r); }
inline constexpr int bytes_per_real(Precision p) {
  return p == Precision::double_ ? 8 : p == Precision::single ? 4 : 2;
}

// Half the spacing of the stored values near 1: 2^-53, 2^-24, and 0.5 / 32767 for the 16-bit fixed
// point (relative to the site's norm). A relative residual computed in precision p cannot be
// trusted much below a few times this.
inline constexpr double unit_roundoff(Precision p) {
  return p == Precision::double_ ? 0x1p-53 : p == Precision::single ? 0x1p-24 : 0.5 / 32767.0;
}

// Storage type of one real for a precision tag.
template <Precision P> struct storage_of;
template <> struct storage_of<Precision::double_> { using type = double; };
template <> struct storage_of<Precision::single> { using type = float; };
template <> struct storage_of<Precision::half> { using type = std::int16_t; };

inline constexpr float kHalfMax = 32767.0f;

// v in [-32767, 32767] -> the nearest int16 (ties to even). On the GPU by one FADD: 1.5 * 2^23 + v
// rounds v to an integer (ties to even, as __float2int_rn) in the low mantissa bits, whose low
// 16 are the int16 (|v| < 2^22); F2I runs at a quarter of the FADD rate on sm_90 (lrintf is
// a 64-bit conversion there, dearer still). A NaN v stores -1 here (0 on the host); a spinor
// site holding one stores a NaN norm (spinor_accessor.h), so it reads back NaN either way.
GLUON_HD_INLINE std::int16_t round_to_half(float v) {
#if defined(__CUDA_ARCH__)
  // __fadd_rn: never contracted with the caller's x * (32767 / norm) into one FFMA, whose single
  // rounding differs from the host's (round the product, then to an integer) at ties (gpu test
  // FieldConvertGpu.SpinorsHostDeviceAndBackMatchCpuBitwise).
  return static_cast<std::int16_t>(__float_as_int(__fadd_rn(v, 12582912.0f)) & 0xffff);
#else
  return static_cast<std::int16_t>(lrintf(v));
#endif
}

// x in [-scale, scale] -> nearest int16 step; values beyond the range saturate.
GLUON_HD_INLINE std::int16_t to_half(float x, float inv_scale) {
  float v = x * inv_scale * kHalfMax;
  v = v > kHalfMax ? kHalfMax : (v < -kHalfMax ? -kHalfMax : v);
  return round_to_half(v);
}
// Tried and measured slower (H200, bench/results/2026-11-24-one-load-path-h200/trip2): decoding
// a stored half real in device code by an exponent trick (the bits of 2^23 + h + 2^15, minus
// 2^23 + 2^15: one LOP3/PRMT and one FADD) instead of the quarter-rate I2F. Every half dslash
// lost 10-21% (Wilson 8679 -> 6867 GFLOP/s): 16 more registers and 2-3 instructions a real.
GLUON_HD_INLINE float from_half(std::int16_t h, float scale) {
  return static_cast<float>(h) * (scale / kHalfMax);
}

}  // namespace gluon::qcd
