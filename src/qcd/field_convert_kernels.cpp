// Conversions between storage forms of gauge and spinor fields (field_convert.h). The element
// transforms are the functors below, launched with runtime::parallel_for; this file is compiled
// by nvcc in CUDA builds.
#include <cstdint>
#include <string>
#include <type_traits>

#include "gluon/qcd/field_convert.h"
#include "gluon/qcd/gauge_accessor.h"
#include "gluon/qcd/spinor_accessor.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/memory.h"
#include "gluon/runtime/parallel.h"

namespace gluon::qcd {

namespace {

using runtime::MemSpace;

// Same compression: stored reals one by one (decode with the slot's scale, encode into dst).
template <class Src, class Dst>
struct GaugeRawConvert {
  Src src;
  Dst dst;
  GLUON_HD void operator()(std::int64_t i) const {
    const std::int64_t s = i >> 2;
    const int mu = static_cast<int>(i & 3);
    for (int r = 0; r < Src::nreals; ++r) dst.store_real(s, mu, r, src.load_real(s, mu, r));
  }
};

// Different compression, step 1: every link rebuilt as a double SU(3) matrix in tmp[4 s + mu].
template <class Src>
struct GaugeUnpack {
  Src src;
  SU3d* tmp;
  GLUON_HD void operator()(std::int64_t i) const {
    tmp[i] = SU3d::from(src.load(i >> 2, static_cast<int>(i & 3)));
  }
};

// Step 2: tmp packed into dst.
template <class Dst>
struct GaugePack {
  Dst dst;
  const SU3d* tmp;
  GLUON_HD void operator()(std::int64_t i) const {
    dst.store(i >> 2, static_cast<int>(i & 3), Dst::matrix::from(tmp[i]));
  }
};

template <class Src, class Dst>
struct SpinorConvert {
  Src src;
  Dst dst;
  GLUON_HD void operator()(std::int64_t s) const {
    dst.store(s, src.load(s));
  }
};

bool on_device(MemSpace s) { return s == MemSpace::device; }

// Where work on memory (space, device) runs: ex when it is that device, else that device's default
// stream; host memory always on the CPU backend.
runtime::Exec kernel_exec(MemSpace space, int device, const runtime::Exec& ex) {
  if (!on_device(space)) return runtime::cpu_exec();
  if (ex.on_device() && ex.device == device) return ex;
  return runtime::cuda_exec(device);
}

bool same_storage(const GaugeFieldParams& a, const GaugeFieldParams& b) {
  return a.precision == b.precision && a.reconstruct == b.reconstruct && a.order == b.order &&
         (a.order != FieldOrder::blocked || a.pad == b.pad);
}

bool same_storage(const SpinorFieldParams& a, const SpinorFieldParams& b) {
  return a.precision == b.precision && a.order == b.order &&
         (a.order != FieldOrder::blocked || a.pad == b.pad);
}

// src and dst in the same memory space (and device): the element transform.
void transform(const GaugeField& src, GaugeField& dst, const runtime::Exec& kex) {
  const auto& sp = src.params();
  const auto& dp = dst.params();
  if (same_storage(sp, dp)) {
    runtime::copy_bytes(dst.data(), dp.space, src.data(), sp.space, src.bytes());
    return;
  }
  const std::int64_t n = 4 * src.geometry().volume();
  const bool raw = sp.reconstruct == dp.reconstruct &&
                   !(dp.reconstruct == Reconstruct::r8 && dp.precision == Precision::half &&
                     sp.precision != Precision::half);
  if (raw) {
    dispatch_gauge(src, [&](auto sa) {
      dispatch_gauge(dst, [&](auto da) {
        using Src = std::remove_cvref_t<decltype(sa)>;
        using Dst = std::remove_cvref_t<decltype(da)>;
        if constexpr (Src::recon == Dst::recon)
          runtime::parallel_for(kex, "gauge_convert_raw", n, GaugeRawConvert<Src, Dst>{sa, da});
      });
    });
  } else {
    runtime::Buffer tmp(dp.space, static_cast<std::size_t>(n) * sizeof(SU3d),
                        "gauge conversion temporary (" + sp.describe() + " -> " + dp.describe() + ")",
                        dp.device);
    auto* links = static_cast<SU3d*>(tmp.data());
    dispatch_gauge(src, [&](auto sa) {
      runtime::parallel_for(kex, "gauge_convert_unpack", n, GaugeUnpack<decltype(sa)>{sa, links});
    });
    dispatch_gauge(dst, [&](auto da) {
      runtime::parallel_for(kex, "gauge_convert_pack", n, GaugePack<decltype(da)>{da, links});
    });
    runtime::synchronize(kex);  // before tmp is freed
  }
  runtime::synchronize(kex);
}

std::size_t data_bytes(const SpinorField& f) {
  return static_cast<std::size_t>(f.layout().size()) * bytes_per_real(f.params().precision);
}
std::size_t norm_bytes(const SpinorField& f) {
  return f.params().precision == Precision::half
             ? static_cast<std::size_t>(f.layout().stride) * sizeof(float)
             : 0;
}

void copy_spinor(const SpinorField& src, SpinorField& dst) {
  runtime::copy_bytes(dst.data(), dst.params().space, src.data(), src.params().space, data_bytes(src));
  if (norm_bytes(src) > 0)
    runtime::copy_bytes(dst.norms(), dst.params().space, src.norms(), src.params().space,
                        norm_bytes(src));
}

void transform(const SpinorField& src, SpinorField& dst, const runtime::Exec& kex) {
  if (same_storage(src.params(), dst.params())) {
    copy_spinor(src, dst);
    return;
  }
  const std::int64_t n = src.params().sites();
  dispatch_spinor(src, [&](auto sa) {
    dispatch_spinor(dst, [&](auto da) {
      using Src = std::remove_cvref_t<decltype(sa)>;
      using Dst = std::remove_cvref_t<decltype(da)>;
      if constexpr (Src::spins == Dst::spins)
        runtime::parallel_for(kex, "spinor_convert", n, SpinorConvert<Src, Dst>{sa, da});
    });
  });
  runtime::synchronize(kex);
}

// The shared driver: same space -> transform; host -> device: copy src as it is, convert there;
// device -> host: convert on the device into a temporary of dst's form, copy back; two different
// devices: through a host copy of src. The tiled order is a host layout (no device field takes
// it: require_host_order), so a tiled host side is reordered on the host, to or from a site_major
// host temporary of the same storage otherwise, and that crosses.
template <class Field, class Params>
void convert_any(const Field& src, Field& dst, const runtime::Exec& ex) {
  const Params& sp = src.params();
  const Params& dp = dst.params();
  const bool sd = on_device(sp.space), dd = on_device(dp.space);
  if (sd == dd && (!sd || sp.device == dp.device)) {
    transform(src, dst, kernel_exec(dp.space, dp.device, ex));
    return;
  }
  if (!sd && dd && sp.order == FieldOrder::tiled) {
    Params p = sp;
    p.order = FieldOrder::site_major;
    Field site_major(p);
    transform(src, site_major, runtime::cpu_exec());
    convert_any<Field, Params>(site_major, dst, ex);
    return;
  }
  if (sd && !dd && dp.order == FieldOrder::tiled) {
    Params p = dp;
    p.order = FieldOrder::site_major;
    Field site_major(p);
    convert_any<Field, Params>(src, site_major, ex);
    transform(site_major, dst, runtime::cpu_exec());
    return;
  }
  if (!sd && dd) {
    Params p = sp;
    p.space = MemSpace::device;
    p.device = dp.device;
    if (same_storage(sp, dp)) {
      transform(src, dst, runtime::cpu_exec());  // a plain copy
      return;
    }
    Field tmp(p);
    transform(src, tmp, runtime::cpu_exec());  // copy
    transform(tmp, dst, kernel_exec(dp.space, dp.device, ex));
    return;
  }
  if (sd && !dd) {
    if (same_storage(sp, dp)) {
      transform(src, dst, runtime::cpu_exec());  // a plain copy
      return;
    }
    Params p = dp;
    p.space = MemSpace::device;
    p.device = sp.device;
    Field tmp(p);
    transform(src, tmp, kernel_exec(sp.space, sp.device, ex));
    transform(tmp, dst, runtime::cpu_exec());  // copy
    return;
  }
  Params p = sp;  // device -> other device
  p.space = MemSpace::host;
  Field tmp(p);
  transform(src, tmp, runtime::cpu_exec());
  convert_any<Field, Params>(tmp, dst, ex);
}

}  // namespace

void convert(const GaugeField& src, GaugeField& dst, const runtime::Exec& ex) {
  if (&src == &dst || (src.data() != nullptr && src.data() == dst.data()))
    throw InputError("convert(gauge field): source and destination are the same field (" +
                     src.params().describe() + "); convert into a separate field");
  if (!(src.geometry() == dst.geometry()))
    throw InputError("convert(gauge field): geometry of destination: expected " +
                     src.geometry().to_string() + " (the source's), found " +
                     dst.geometry().to_string());
  if (src.geometry().volume() == 0) return;
  convert_any<GaugeField, GaugeFieldParams>(src, dst, ex);
}

void convert(const SpinorField& src, SpinorField& dst, const runtime::Exec& ex) {
  const auto& sp = src.params();
  const auto& dp = dst.params();
  if (&src == &dst || (src.data() != nullptr && src.data() == dst.data()))
    throw InputError("convert(spinor field): source and destination are the same field (" +
                     sp.describe() + "); convert into a separate field");
  if (!(src.geometry() == dst.geometry()))
    throw InputError("convert(spinor field): geometry of destination: expected " +
                     src.geometry().to_string() + " (the source's), found " +
                     dst.geometry().to_string());
  if (sp.nspin != dp.nspin)
    throw InputError("convert(spinor field): nspin of destination: expected " +
                     std::to_string(sp.nspin) + " (the source's), found " + std::to_string(dp.nspin));
  if (sp.subset != dp.subset)
    throw InputError("convert(spinor field): site subset of destination: expected that of the source (" +
                     sp.describe() + "), found " + dp.describe());
  if (sp.sites() == 0) return;
  convert_any<SpinorField, SpinorFieldParams>(src, dst, ex);
}

GaugeField converted(const GaugeField& src, GaugeFieldParams dst_params, const runtime::Exec& ex) {
  dst_params.geometry = src.geometry();
  GaugeField out(dst_params);
  convert(src, out, ex);
  return out;
}

SpinorField converted(const SpinorField& src, SpinorFieldParams dst_params, const runtime::Exec& ex) {
  dst_params.geometry = src.geometry();
  dst_params.nspin = src.params().nspin;
  dst_params.subset = src.params().subset;
  SpinorField out(dst_params);
  convert(src, out, ex);
  return out;
}

}  // namespace gluon::qcd
