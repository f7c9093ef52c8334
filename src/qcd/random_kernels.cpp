// Random spinor and gauge fields (random_fields.h): one SiteRng per site, keyed by the site's
// global lexicographic index, as GLUON_HD functors for every storage type.
#include "gluon/qcd/random_fields.h"

#include <cstdint>

#include "gluon/qcd/gauge_accessor.h"
#include "gluon/qcd/precision.h"
#include "gluon/qcd/random.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/parallel.h"
#include "ops_support.h"

namespace gluon::qcd {

namespace {

enum class Noise { gaussian, uniform, z2 };

// Writes one site's reals (double) into storage of type Store; half computes the site norm.
template <class Store>
struct SpinorSink {
  Store* data;
  FieldLayout layout;
  GLUON_HD_INLINE void put(std::int64_t s, const double* v, int n, float*) const {
    for (int r = 0; r < n; ++r) data[layout.offset(s, 0, r)] = static_cast<Store>(v[r]);
  }
};
template <>
struct SpinorSink<std::int16_t> {
  std::int16_t* data;
  FieldLayout layout;
  GLUON_HD_INLINE void put(std::int64_t s, const double* v, int n, float* norms) const {
    float m = 0.0f;
    for (int r = 0; r < n; ++r) {
      const float a = static_cast<float>(v[r] < 0 ? -v[r] : v[r]);
      m = a > m ? a : m;
    }
    norms[s] = m;
    const float inv = m > 0.0f ? 1.0f / m : 0.0f;
    for (int r = 0; r < n; ++r) data[layout.offset(s, 0, r)] = to_half(static_cast<float>(v[r]), inv);
  }
};

template <class Store>
struct SpinorNoiseKernel {
  SpinorSink<Store> sink;
  float* norms;
  GlobalSiteIndex site;
  std::int64_t eo_offset;  // V/2 for odd-subset fields, else 0
  int nreals;              // 24 or 6
  std::uint64_t seed;
  std::uint32_t stream;
  Noise kind;

  GLUON_HD void operator()(std::int64_t s) const {
    SiteRng rng(seed, site(s + eo_offset), stream);
    double v[24];
    for (int r = 0; r < nreals; r += 2) {
      Complex<double> z;
      if (kind == Noise::gaussian) {
        z = rng.complex_gaussian();
      } else if (kind == Noise::z2) {
        z = rng.z2();
      } else {
        z.re = rng.uniform();
        z.im = rng.uniform();
      }
      v[r] = z.re;
      v[r + 1] = z.im;
    }
    sink.put(s, v, nreals, norms);
  }
};

template <class Store>
void run_noise(SpinorField& psi, Noise kind, std::uint64_t seed, std::uint32_t stream,
               const runtime::Exec& ex, const char* label) {
  const auto& p = psi.params();
  SpinorNoiseKernel<Store> k{{static_cast<Store*>(psi.data()), psi.layout()},
                             psi.norms(),
                             global_site_index(p.geometry),
                             p.subset == SiteSubset::odd ? p.geometry.half_volume() : 0,
                             p.reals_per_site(),
                             seed,
                             stream,
                             kind};
  runtime::parallel_for(ex, label, p.sites(), k);
  runtime::synchronize(ex);
}

void fill_noise(SpinorField& psi, Noise kind, std::uint64_t seed, std::uint32_t stream,
                const runtime::Exec& ex, const char* label) {
  if (psi.layout().sites == 0) throw InputError(std::string(label) + ": the spinor field is empty");
  detail::require_memory_for(psi.params().space, psi.params().device, ex, label);
  switch (psi.params().precision) {
    case Precision::double_: return run_noise<double>(psi, kind, seed, stream, ex, label);
    case Precision::single: return run_noise<float>(psi, kind, seed, stream, ex, label);
    case Precision::half: return run_noise<std::int16_t>(psi, kind, seed, stream, ex, label);
  }
}

template <class A>
struct LinkDrawKernel {
  A u;
  GlobalSiteIndex site;
  std::uint64_t seed;
  std::uint32_t stream;
  double eps;  // < 0: Haar, else weak field with this epsilon
  GLUON_HD void operator()(std::int64_t s) const {
    SiteRng rng(seed, site(s), stream);
    for (int mu = 0; mu < 4; ++mu) {
      const SU3d m = eps < 0 ? haar_su3(rng) : weak_su3(rng, eps);
      u.store(s, mu, A::matrix::from(m));
    }
  }
};

void draw_links(GaugeField& u, std::uint64_t seed, std::uint32_t stream, double eps,
                const runtime::Exec& ex, const char* label) {
  if (u.bytes() == 0) throw InputError(std::string(label) + ": the gauge field is empty");
  detail::require_memory_for(u.params().space, u.params().device, ex, label);
  const GlobalSiteIndex site = global_site_index(u.geometry());
  dispatch_gauge(u, [&](auto acc) {
    runtime::parallel_for(ex, label, u.geometry().volume(),
                          LinkDrawKernel<decltype(acc)>{acc, site, seed, stream, eps});
  });
  runtime::synchronize(ex);
}

}  // namespace

void fill_gaussian(SpinorField& psi, std::uint64_t seed, std::uint32_t stream, const runtime::Exec& ex) {
  fill_noise(psi, Noise::gaussian, seed, stream, ex, "fill_gaussian");
}
void fill_uniform(SpinorField& psi, std::uint64_t seed, std::uint32_t stream, const runtime::Exec& ex) {
  fill_noise(psi, Noise::uniform, seed, stream, ex, "fill_uniform");
}
void fill_z2(SpinorField& psi, std::uint64_t seed, std::uint32_t stream, const runtime::Exec& ex) {
  fill_noise(psi, Noise::z2, seed, stream, ex, "fill_z2");
}

void fill_haar(GaugeField& u, std::uint64_t seed, std::uint32_t stream, const runtime::Exec& ex) {
  draw_links(u, seed, stream, -1.0, ex, "fill_haar");
}

void fill_weak(GaugeField& u, std::uint64_t seed, std::uint32_t stream, double eps,
               const runtime::Exec& ex) {
  if (!(eps >= 0.0) || eps > 1e6)
    throw InputError("fill_weak: epsilon must be a finite number >= 0, found " + std::to_string(eps));
  draw_links(u, seed, stream, eps, ex, "fill_weak");
}

}  // namespace gluon::qcd
