// What the host's memory gives the Wilson double r12 dslash's stream mix, with no arithmetic to
// speak of: issue 3's CPU goal compares the dslash with a non-temporal copy (half reads, half
// writes), and the dslash reads 5 bytes for every byte it writes. Standalone (not part of gluon):
//   g++ -O3 -march=native -fopenmp streams.cpp -o streams && OMP_NUM_THREADS=16 ./streams 48 48 48 48
// Every kernel runs on all threads; each figure is the median of REPS calls, GB/s = 10^9 bytes/s.
// The mix kernels move the dslash's minimum traffic a site of one parity: forward links 384 B,
// backward links 384 B, the input spinor 192 B (read) and the output spinor 192 B (written), in
// the dslash's thread order (each thread a contiguous range of every time slice, sweeping t).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <omp.h>
#include <immintrin.h>
#include <sys/mman.h>
#include <string>
#include <vector>

typedef double v8 __attribute__((vector_size(64)));

static double* alloc(std::size_t doubles) {
  const std::size_t huge = std::size_t(2) << 20;
  std::size_t bytes = (doubles * 8 + huge - 1) / huge * huge;
  auto* p = static_cast<double*>(std::aligned_alloc(huge, bytes));
  if (!p) { std::fprintf(stderr, "out of memory\n"); std::exit(1); }
  madvise(p, bytes, MADV_HUGEPAGE);
  const std::size_t n = bytes / 8;
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) p[i] = 1e-3 * double(i % 1000);
  return p;
}

template <class F> static double median_seconds(int reps, F&& f) {
  std::vector<double> t;
  for (int r = 0; r < reps + 3; ++r) {
    const auto a = std::chrono::steady_clock::now();
    f();
    const auto b = std::chrono::steady_clock::now();
    if (r >= 3) t.push_back(std::chrono::duration<double>(b - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

static volatile double sink;

// A streaming (non-temporal) store of 8 doubles at a 64-byte aligned address.
static inline void nt_store(v8 v, v8* p) {
#if defined(__AVX512F__)
  _mm512_stream_pd(reinterpret_cast<double*>(p), reinterpret_cast<__m512d&>(v));
#else
  const __m256d lo{v[0], v[1], v[2], v[3]}, hi{v[4], v[5], v[6], v[7]};
  _mm256_stream_pd(reinterpret_cast<double*>(p), lo);
  _mm256_stream_pd(reinterpret_cast<double*>(p) + 4, hi);
#endif
}

int main(int argc, char** argv) {
  const int X = argc > 4 ? std::atoi(argv[1]) : 48, Y = argc > 4 ? std::atoi(argv[2]) : 48;
  const int Z = argc > 4 ? std::atoi(argv[3]) : 48, T = argc > 4 ? std::atoi(argv[4]) : 48;
  const int reps = std::getenv("REPS") ? std::atoi(std::getenv("REPS")) : 20;
  const std::size_t copy_mib = std::getenv("COPY_MIB") ? std::atoll(std::getenv("COPY_MIB")) : 1200;
  const std::size_t slice = std::size_t(X) * Y * Z / 2 / 8;  // tiles of 8 sites a time slice, one parity
  const std::size_t tiles = slice * T;
  // A tile: 8 sites; forward links 8 x 48 doubles (6 vectors of 8 a site: 48 vectors a tile), etc.
  const std::size_t lv = 48, sv = 24;  // vectors (of 8 doubles) a tile: links one direction set, spinor
  double* U = alloc(tiles * lv * 8);
  double* Ub = alloc(tiles * lv * 8);
  double* in = alloc(tiles * sv * 8);
  double* out = alloc(tiles * sv * 8);
  const std::size_t cn = copy_mib * (std::size_t(1) << 20) / 8;
  double* ca = alloc(cn);
  double* cb = alloc(cn);
  const int nth = omp_get_max_threads();
  std::printf("threads %d lattice %dx%dx%dx%d tiles %zu copy buffers %zu MiB reps %d\n", nth, X, Y, Z, T, tiles, copy_mib, reps);

  auto gbs = [](double bytes, double s) { return bytes / s * 1e-9; };
  const double copy_bytes = 2.0 * cn * 8;
  const double copy_nt = gbs(copy_bytes, median_seconds(reps, [&] {
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < cn / 8; ++i)
      nt_store(reinterpret_cast<const v8*>(ca)[i], reinterpret_cast<v8*>(cb) + i);
  }));
  const double copy_plain = gbs(copy_bytes, median_seconds(reps, [&] {
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < cn / 8; ++i) reinterpret_cast<v8*>(cb)[i] = reinterpret_cast<const v8*>(ca)[i];
  }));
  const double read = gbs(copy_bytes, median_seconds(reps, [&] {
    double total = 0;
#pragma omp parallel reduction(+ : total)
    {
      v8 s0{}, s1{}, s2{}, s3{};
      for (const double* buf : {ca, cb}) {
        const v8* p = reinterpret_cast<const v8*>(buf);
#pragma omp for schedule(static)
        for (std::size_t i = 0; i < cn / 8; i += 4) s0 += p[i], s1 += p[i + 1], s2 += p[i + 2], s3 += p[i + 3];
      }
      const v8 s = s0 + s1 + s2 + s3;
      for (int l = 0; l < 8; ++l) total += s[l];
    }
    sink = total;
  }));
  const double write_nt = gbs(copy_bytes, median_seconds(reps, [&] {
    const v8 z{};
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < 2 * cn / 8; ++i)
      nt_store(z, reinterpret_cast<v8*>(i < cn / 8 ? ca : cb) + (i % (cn / 8)));
  }));
  std::printf("copy_nt %.1f GB/s  copy_plain %.1f  read %.1f  write_nt %.1f  (bytes counted as the copy's: 2 x buffer)\n",
              copy_nt, copy_plain, read, write_nt);

  // The dslash-ordered mix. mode: 0 = links + in read, out written non-temporally (the minimum
  // traffic), 1 = the same with plain stores, 2 = reads only (links + in), 3 = mode 0 plus reads of
  // the input's neighbour tiles (nb: a mask of t+1, t-1, y+1, y-1, z+1, z-1; the x neighbours are
  // the tile itself or the next one of the row, in L1), with in[t+1] prefetched pf tiles ahead
  // (prefetcht0, or prefetcht1 with l2), the thread's rows swept over t in blocks of by x bz rows
  // (0 0: all of them at once, as the dslash does), and a barrier every `sync` slices (0: none).
  struct Mix {
    int mode = 0, nb = 63, pf = 0, by = 0, bz = 0, sync = 0;
    int links = 0;  // 0: plain loads; 1: prefetchnta one tile ahead; 2: clflushopt after use
    bool l2 = false;
  };
  const std::size_t row = X / 2 / 8;  // tiles an x-row
  const std::size_t yz = std::size_t(Y) * Z;
  auto mix = [&](const Mix& m) {
#pragma omp parallel
    {
      const std::size_t id = omp_get_thread_num(), n = omp_get_num_threads();
      const std::size_t q0 = yz * id / n, q1 = yz * (id + 1) / n;
      // The thread's rows (r = y + Y z) in blocks of by x bz rows (0: all), each block swept over t.
      std::vector<std::vector<std::size_t>> blocks;
      const std::size_t by = m.by > 0 ? m.by : Y, bz = m.bz > 0 ? m.bz : Z;
      if (m.by == 0 && m.bz == 0) {
        blocks.emplace_back();
        for (std::size_t r = q0; r < q1; ++r) blocks.back().push_back(r);
      } else {
        for (std::size_t zb = q0 / Y; zb * Y < q1; zb += bz)
          for (std::size_t yb = 0; yb < std::size_t(Y); yb += by) {
            blocks.emplace_back();
            for (std::size_t z = zb; z < zb + bz; ++z)
              for (std::size_t y = yb; y < std::min<std::size_t>(Y, yb + by); ++y)
                if (z * Y + y >= q0 && z * Y + y < q1) blocks.back().push_back(z * Y + y);
            if (blocks.back().empty()) blocks.pop_back();
          }
      }
      v8 keep{};
      auto wrap = [](std::size_t i, std::size_t n) { return i >= n ? i - n : i; };  // i < 2n
      for (const auto& rows : blocks) {
        std::vector<std::size_t> ks;  // the block's tiles in a slice, in order
        for (std::size_t r : rows)
          for (std::size_t x = 0; x < row; ++x) ks.push_back(r * row + x);
        const std::size_t nk = ks.size();
        for (int t = 0; t < T; ++t) {
          if (m.sync > 0 && t % m.sync == 0) {
#pragma omp barrier
          }
          for (std::size_t ik = 0; ik < nk; ++ik) {
            const std::size_t k = ks[ik];
            const std::size_t tile = t * slice + k;
            if (m.pf > 0) {
              // in[t + 1] pf tiles ahead in this thread's order (the next slice's past the block's end)
              std::size_t ii = ik + m.pf, tt = t + 1;
              if (ii >= nk) ii -= nk, tt += 1;
              const char* p = reinterpret_cast<const char*>(in + (wrap(tt % T, T) * slice + ks[ii]) * sv * 8);
              for (int c = 0; c < int(sv * 64); c += 64)
                m.l2 ? _mm_prefetch(p + c, _MM_HINT_T1) : _mm_prefetch(p + c, _MM_HINT_T0);
            }
            const v8* u = reinterpret_cast<const v8*>(U) + tile * lv;
            const v8* ub = reinterpret_cast<const v8*>(Ub) + tile * lv;
            const v8* s = reinterpret_cast<const v8*>(in) + tile * sv;
            if (m.links == 1 && ik + 1 < nk)
              for (std::size_t j = 0; j < lv; ++j) _mm_prefetch(reinterpret_cast<const char*>(u + lv + j), _MM_HINT_NTA),
                                                   _mm_prefetch(reinterpret_cast<const char*>(ub + lv + j), _MM_HINT_NTA);
            v8 a0{}, a1{}, a2{}, a3{};
            for (std::size_t j = 0; j < lv; j += 4) {
              a0 += u[j] + ub[j], a1 += u[j + 1] + ub[j + 1];
              a2 += u[j + 2] + ub[j + 2], a3 += u[j + 3] + ub[j + 3];
            }
            if (m.links == 2)
              for (std::size_t j = 0; j < lv; ++j) _mm_clflushopt(const_cast<v8*>(u + j)), _mm_clflushopt(const_cast<v8*>(ub + j));
            const v8 l = (a0 + a1 + a2 + a3) * 1e-6;
            if (m.mode == 3) {
              const std::size_t tp = wrap(t + 1, T) * slice + k, tm = wrap(t + T - 1, T) * slice + k;
              const std::size_t base = t * slice;
              const std::size_t yp = base + wrap(k + row, slice), ym = base + wrap(k + slice - row, slice);
              const std::size_t zp = base + wrap(k + row * Y, slice), zm = base + wrap(k + slice - row * Y, slice);
              const std::size_t nbs[6] = {tp, tm, yp, ym, zp, zm};
              for (int i = 0; i < 6; ++i) {
                if (!(m.nb >> i & 1)) continue;
                const v8* sn = reinterpret_cast<const v8*>(in) + nbs[i] * sv;
                for (std::size_t j = 0; j < sv; j += 4) a0 += sn[j] + sn[j + 1] + sn[j + 2] + sn[j + 3];
              }
              keep += a0 * 1e-9;
            }
            v8* o = reinterpret_cast<v8*>(out) + tile * sv;
            if (m.mode == 2) {
              for (std::size_t j = 0; j < sv; j += 4) a0 += s[j], a1 += s[j + 1], a2 += s[j + 2], a3 += s[j + 3];
              keep += (a0 + a1 + a2 + a3) * l;
            } else if (m.mode == 1) {
              for (std::size_t j = 0; j < sv; ++j) o[j] = s[j] + l;
            } else {
              for (std::size_t j = 0; j < sv; ++j) nt_store(s[j] + l + keep, o + j);
            }
          }
        }
      }
      if (m.mode == 2) {
        double k = 0;
        for (int l2 = 0; l2 < 8; ++l2) k += keep[l2];
        sink = k;
      }
    }
  };
  const double site_bytes = 384 + 384 + 192 + 192;
  const double sites = double(tiles) * 8;
  auto report = [&](const char* name, const Mix& m) {
    const double bytes = m.mode == 2 ? sites * (site_bytes - 192) : sites * site_bytes;
    const double g = gbs(bytes, median_seconds(reps, [&] { mix(m); }));
    std::printf("%-72s %7.1f GB/s  %.3f of copy_nt  (%.0f B a site)\n", name, g, g / copy_nt, bytes / sites);
  };
  // The shared cache's reach: 16 threads reading a buffer of CACHE_MIB sizes again and again.
  if (const char* c = std::getenv("CACHE_MIB")) {
    std::string sizes = c;
    std::size_t p0 = 0;
    while (p0 < sizes.size()) {
      std::size_t e = sizes.find(',', p0);
      if (e == std::string::npos) e = sizes.size();
      const std::size_t mib = std::stoul(sizes.substr(p0, e - p0));
      const std::size_t nv = std::min(cn, mib * (std::size_t(1) << 20) / 8) / 8;
      const double g = gbs(nv * 64.0, median_seconds(reps, [&] {
        double total = 0;
#pragma omp parallel reduction(+ : total)
        {
          v8 s0{}, s1{}, s2{}, s3{};
          const v8* p = reinterpret_cast<const v8*>(ca);
#pragma omp for schedule(static)
          for (std::size_t i = 0; i < nv; i += 4) s0 += p[i], s1 += p[i + 1], s2 += p[i + 2], s3 += p[i + 3];
          const v8 s = s0 + s1 + s2 + s3;
          for (int l = 0; l < 8; ++l) total += s[l];
        }
        sink = total;
      }));
      std::printf("read again %5zu MiB: %7.1f GB/s\n", mib, g);
      p0 = e + 1;
    }
  }
  report("mix (links + in read, out non-temporal)", {0});
  report("mix, plain stores", {1});
  report("mix reads only (links + in)", {2});
  // VARIANTS: "nb pf l2 by bz sync [links];..." for mode 3 (default: the list below)
  const char* v = std::getenv("VARIANTS");
  std::string list = v ? v : "63 0 0 0 0 0;3 0 0 0 0 0;12 0 0 0 0 0;48 0 0 0 0 0;63 2 0 0 0 0;63 0 0 12 3 0;63 0 0 8 3 0;63 0 0 6 6 0";
  std::size_t pos = 0;
  while (pos < list.size()) {
    std::size_t e = list.find(';', pos);
    if (e == std::string::npos) e = list.size();
    Mix m;
    m.mode = 3;
    int l2 = 0;
    if (std::sscanf(list.substr(pos, e - pos).c_str(), "%d %d %d %d %d %d %d", &m.nb, &m.pf, &l2, &m.by, &m.bz, &m.sync, &m.links) >= 6) {
      m.l2 = l2 != 0;
      char name[128];
      std::snprintf(name, sizeof name, "mix + neighbours nb=%d pf=%d%s block=%dx%d sync=%d links=%s", m.nb, m.pf, m.l2 ? "(l2)" : "",
                    m.by, m.bz, m.sync, m.links == 0 ? "plain" : m.links == 1 ? "nta" : "flush");
      report(name, m);
    }
    pos = e + 1;
  }
  return 0;
}
