#pragma once
// Storage precisions and gauge compression (DESIGN.md "Data").
//
//   Precision::double_ / single / half   half = 16-bit fixed point: value = int16 / 32767 * scale,
//                                        scale 1 for link entries (|u_ij| <= 1), a per-site float
//                                        norm (max |component|) for spinors
//   Reconstruct::r18 / r12 / r8          reals stored per link: full, two rows, 8 parameters
#include <cmath>
#include <cstdint>
#include <cstring>
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

// Storage type of one real for a precision tag.
template <Precision P> struct storage_of;
template <> struct storage_of<Precision::double_> { using type = double; };
template <> struct storage_of<Precision::single> { using type = float; };
template <> struct storage_of<Precision::half> { using type = std::int16_t; };

inline constexpr float kHalfMax = 32767.0f;

// v in [-32767, 32767] -> the nearest int16 (ties to even). On the GPU a 32-bit conversion:
// lrintf there is a 64-bit one, several times dearer in every half-precision store.
GLUON_HD_INLINE std::int16_t round_to_half(float v) {
#if defined(__CUDA_ARCH__)
  return static_cast<std::int16_t>(__float2int_rn(v));
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
// The int16 h as a float, exactly, without a conversion instruction: the bits of 2^23 with
// h + 2^15 in the mantissa are the float 2^23 + h + 2^15; subtract 2^23 + 2^15. One LOP3/PRMT
// and one FADD (full rate), where an I2F is quarter rate on sm_90 and a half-precision Wilson
// dslash converts 288 reals a site. Host code converts directly (same value; tested for every
// int16 in precision_test).
GLUON_HD_INLINE float half_to_float_by_bits(std::int16_t h) {
  const std::uint32_t bits = 0x4B000000u | (static_cast<std::uint32_t>(static_cast<std::uint16_t>(h)) ^ 0x8000u);
  float f;
#if defined(__CUDA_ARCH__)
  f = __uint_as_float(bits);
#else
  std::memcpy(&f, &bits, sizeof f);
#endif
  return f - 8421376.0f;  // 2^23 + 2^15
}
GLUON_HD_INLINE float half_to_float(std::int16_t h) {
#if defined(__CUDA_ARCH__)
  return half_to_float_by_bits(h);
#else
  return static_cast<float>(h);
#endif
}
GLUON_HD_INLINE float from_half(std::int16_t h, float scale) {
  return half_to_float(h) * (scale / kHalfMax);
}

}  // namespace gluon::qcd
