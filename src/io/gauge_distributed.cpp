// Gauge files read and written by every rank of a process grid (gauge_io.h, "Distributed"): each
// rank touches only the rows (x-lines) of its own block, with pread/pwrite at their offsets.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <vector>

#include "distributed_file.h"
#include "gauge_common.h"
#include "gluon/comm/process_grid.h"
#include "gluon/io/checksum.h"
#include "gluon/io/gauge_io.h"
#include "gluon/io/ildg.h"
#include "gluon/io/lime.h"
#include "gluon/io/link_codec.h"
#include "gluon/io/milc.h"
#include "gluon/io/nersc.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/qcd/observables.h"
#include "gluon/runtime/error.h"

namespace gluon::io {

namespace {

using detail::check_grid;
using detail::collective;
using detail::coords_text;
using detail::File;
using detail::for_rows;
using detail::os_error;

constexpr std::size_t kMaxMetadata = 1 << 20;

detail::GaugePlan read_plan(const File& f, const std::string& path, const GaugeReadOptions& opts,
                            GaugeFileInfo& info) {
  const std::uint64_t size = f.size();
  const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(size, 16));
  unsigned char first[16] = {};
  f.read_at(0, n, first);
  const auto read_at = [&](std::uint64_t off, std::size_t k, unsigned char* dst) { f.read_at(off, k, dst); };
  std::vector<LimeRecord> records;
  const GaugeFormat fmt = detail::classify_gauge(first, n, path, [&] {
    records = lime_list(read_at, size, path);
    return records;
  });
  switch (fmt) {
    case GaugeFormat::nersc: {
      // The header parser stops at 1 MiB and lines of 4 KiB: this prefix holds any valid header.
      const std::string head = f.read_string(0, static_cast<std::size_t>(std::min<std::uint64_t>(size, kMaxMetadata + 8192)));
      return detail::nersc_plan(head, size, path, opts, info);
    }
    case GaugeFormat::milc: {
      unsigned char head[milc_header_bytes] = {};
      f.read_at(0, static_cast<std::size_t>(std::min<std::uint64_t>(size, milc_header_bytes)), head);
      return detail::milc_plan(head, size, path, opts, info);
    }
    case GaugeFormat::ildg:
    case GaugeFormat::scidac:
      return detail::lime_plan(
          records,
          [&](const LimeRecord& r) {
            if (r.length > kMaxMetadata)
              throw FileFormatError(path, "LIME record " + r.type + " length", "at most 1 MiB of metadata",
                                    std::to_string(r.length) + " bytes");
            std::string s = f.read_string(r.data_offset, static_cast<std::size_t>(r.length));
            while (!s.empty() && s.back() == '\0') s.pop_back();
            return s;
          },
          path, opts, info);
  }
  throw Error("read_gauge_distributed: unknown format");
}

// Combines every rank's partial checksums (in rank order).
detail::PartialSums all_sums(const detail::GaugePlan& plan, const detail::PartialSums& mine, comm::Communicator& comm) {
  std::vector<detail::PartialSums> parts(static_cast<std::size_t>(comm.size()));
  comm.allgather(&mine, sizeof mine, parts.data());
  return detail::combine(plan, parts);
}

}  // namespace

qcd::GaugeField read_gauge_distributed(const std::string& path, const qcd::Geometry& local,
                                       comm::Communicator& comm, const GaugeReadOptions& opts,
                                       GaugeFileInfo* info_out) {
  const std::string what = path + ": distributed read";
  check_grid(local, comm, what);
  GaugeFileInfo info;
  info.path = path;
  std::unique_ptr<File> f;
  detail::GaugePlan plan;
  collective(comm, what, [&] {
    f = std::make_unique<File>(path, O_RDONLY);
    plan = read_plan(*f, path, opts, info);
  });
  if (plan.geometry.global_dims() != local.global_dims())
    throw InputError(path + ": lattice: expected " + coords_text(local.global_dims()) +
                     " (the distributed geometry's), found " + coords_text(plan.geometry.global_dims()) +
                     " in the file");

  qcd::GaugeField u = qcd::GaugeField::canonical(local);
  detail::PartialSums sums;
  collective(comm, what, [&] {
    const std::size_t sb = plan.enc.site_bytes();
    const int lx = local.local_dims()[0];
    std::vector<unsigned char> row(sb * static_cast<std::size_t>(lx));
    for_rows(local, [&](std::int64_t lex, qcd::Coords x) {
      f->read_at(plan.data_offset + static_cast<std::uint64_t>(lex) * sb, row.size(), row.data());
      sums.add(plan, lex, row.data(), lx);
      for (x[0] = 0; x[0] < lx; ++x[0])
        decode_site(row.data() + static_cast<std::size_t>(x[0]) * sb, plan.enc, &u.link(local.eo_index(x), 0));
    });
  });
  f.reset();
  if (plan.sum != detail::GaugePlan::Sum::none) detail::verify_sums(plan, all_sums(plan, sums, comm), path, info);
  const runtime::Exec ex = runtime::cpu_exec();
  detail::verify_header_values(
      plan, [&] { return qcd::plaquette(u, ex, comm).total; }, [&] { return qcd::link_trace(u, ex, comm); },
      path, opts, info);
  info.max_unitarity_deviation = qcd::max_unitarity_deviation(u, ex, comm);
  if (opts.reunitarize) {
    qcd::reunitarize(u, ex);
    info.reunitarized = true;
  }
  if (info_out) *info_out = std::move(info);
  return u;
}

void write_gauge_distributed(const std::string& path, const qcd::GaugeField& local_field,
                             const GaugeWriteOptions& opts, comm::Communicator& comm) {
  const std::string what = path + ": distributed write";
  detail::check_write_options(path, opts);
  if (local_field.bytes() == 0) throw InputError(what + ": the gauge field is empty (not allocated)");
  const qcd::Geometry& local = local_field.geometry();
  check_grid(local, comm, what);
  qcd::GaugeField canon;
  if (!local_field.params().canonical()) {
    qcd::GaugeFieldParams p;
    p.geometry = local;
    const runtime::Exec cex = local_field.params().space == runtime::MemSpace::device
                                  ? runtime::cuda_exec(local_field.params().device)
                                  : runtime::cpu_exec();
    canon = qcd::converted(local_field, p, cex);
  }
  const qcd::GaugeField& u = local_field.params().canonical() ? local_field : canon;

  detail::GaugePlan plan;  // the encoding and the checksum to form
  LinkEncoding& enc = plan.enc;
  switch (opts.format) {
    case GaugeFormat::nersc:
      enc = {opts.precision_bits, opts.big_endian, opts.nersc_two_rows ? 2 : 3};
      plan.sum = detail::GaugePlan::Sum::nersc;
      break;
    case GaugeFormat::milc:
      enc = {32, opts.big_endian, 3};
      plan.sum = detail::GaugePlan::Sum::milc;
      break;
    case GaugeFormat::ildg:
    case GaugeFormat::scidac:
      enc = {opts.precision_bits, true, 3};
      plan.sum = detail::GaugePlan::Sum::scidac;
      break;
  }

  // This rank's rows, as stored, with their checksums.
  const std::size_t sb = enc.site_bytes();
  const int lx = local.local_dims()[0];
  const std::size_t row_bytes = sb * static_cast<std::size_t>(lx);
  std::vector<unsigned char> rows(static_cast<std::size_t>(local.volume()) * sb);
  std::vector<std::int64_t> row_lex;
  detail::PartialSums mine;
  for_rows(local, [&](std::int64_t lex, qcd::Coords x) {
    unsigned char* p = rows.data() + row_lex.size() * row_bytes;
    for (x[0] = 0; x[0] < lx; ++x[0]) encode_site(&u.link(local.eo_index(x), 0), enc, p + static_cast<std::size_t>(x[0]) * sb);
    mine.add(plan, lex, p, lx);
    row_lex.push_back(lex);
  });
  const detail::PartialSums sums = all_sums(plan, mine, comm);

  // Observables of the links exactly as a reader will see them.
  const runtime::Exec ex = runtime::cpu_exec();
  double plaq = 0, trace = 0;
  if (enc.rows == 3 && enc.precision_bits == 64) {
    plaq = qcd::plaquette(u, ex, comm).total;
    trace = qcd::link_trace(u, ex, comm);
  } else {
    qcd::GaugeField stored = qcd::GaugeField::canonical(local);
    std::size_t r = 0;
    for_rows(local, [&](std::int64_t, qcd::Coords x) {
      const unsigned char* p = rows.data() + r++ * row_bytes;
      for (x[0] = 0; x[0] < lx; ++x[0]) decode_site(p + static_cast<std::size_t>(x[0]) * sb, enc, &stored.link(local.eo_index(x), 0));
    });
    plaq = qcd::plaquette(stored, ex, comm).total;
    trace = qcd::link_trace(stored, ex, comm);
  }

  // Rank 0 forms the header (and any trailer) after the reductions.
  const qcd::Coords& d = local.global_dims();
  const std::uint64_t payload = payload_bytes(enc, local.global_volume());
  std::string head, tail;
  if (comm.rank() == 0) {
    switch (opts.format) {
      case GaugeFormat::nersc: head = detail::nersc_header(d, enc, sums.a, plaq, trace, opts); break;
      case GaugeFormat::milc: head = detail::milc_header(d, opts.big_endian, sums.a, sums.b); break;
      case GaugeFormat::ildg:
      case GaugeFormat::scidac: {
        const detail::LimeGaugeLayout l =
            detail::lime_gauge_layout(d, enc.precision_bits, opts, "", plaq, trace, sums.a, sums.b, payload);
        head = l.before;
        tail = l.after;
        break;
      }
    }
  }
  std::vector<std::uint64_t> offsets;
  for (std::int64_t lex : row_lex) offsets.push_back(static_cast<std::uint64_t>(lex) * sb);
  detail::write_rows_collectively(path, what, comm, head, tail, payload, offsets, rows.data(), row_bytes);
}

}  // namespace gluon::io
