#include "gluon/hpl/dat.h"

#include <fstream>
#include <sstream>

#include "gluon/runtime/error.h"

namespace gluon::hpl {

char fact_letter(Fact f) { return f == Fact::left ? 'L' : f == Fact::crout ? 'C' : 'R'; }

std::string bcast_name(Bcast b) {
  switch (b) {
    case Bcast::ring1: return "1ring";
    case Bcast::ring1m: return "1ringM";
    case Bcast::ring2: return "2ring";
    case Bcast::ring2m: return "2ringM";
    case Bcast::lng: return "long";
    case Bcast::lngm: return "longM";
  }
  return "?";
}

std::string swap_name(Swap s) {
  return s == Swap::bin_exch ? "binary-exchange" : s == Swap::spread_roll ? "spread-roll" : "mix";
}

namespace {

struct Lines {
  std::vector<std::string> lines;
  std::string name;

  const std::string& at(int lineno, const std::string& field) const {
    if (lineno > static_cast<int>(lines.size()))
      throw FileFormatError(name, "line " + std::to_string(lineno) + " (" + field + ")",
                            "31 lines as in HPL 2.3's HPL.dat", std::to_string(lines.size()) + " lines");
    return lines[lineno - 1];
  }
  [[noreturn]] void bad(int lineno, const std::string& field, const std::string& expected) const {
    std::string found = lineno <= static_cast<int>(lines.size()) ? lines[lineno - 1] : "<missing>";
    throw FileFormatError(name, "line " + std::to_string(lineno) + " (" + field + ")", expected, "'" + found + "'");
  }
  // The first `count` numbers of a line (the rest is a comment).
  template <class T>
  std::vector<T> numbers(int lineno, const std::string& field, int count, T min) const {
    std::istringstream in(at(lineno, field));
    std::vector<T> v;
    for (int i = 0; i < count; ++i) {
      T x{};
      if (!(in >> x)) bad(lineno, field, std::to_string(count) + " number(s)");
      if (x < min) bad(lineno, field, "values >= " + std::to_string(min));
      v.push_back(x);
    }
    return v;
  }
  template <class T>
  T one(int lineno, const std::string& field, T min, T max) const {
    T x = numbers<T>(lineno, field, 1, min)[0];
    if (x > max) bad(lineno, field, "a value <= " + std::to_string(max));
    return x;
  }
};

std::vector<Fact> facts(const std::vector<int>& v) {
  std::vector<Fact> f;
  for (int x : v) f.push_back(static_cast<Fact>(x));
  return f;
}

}  // namespace

HplDat parse_hpl_dat(const std::string& text, const std::string& name) {
  Lines L;
  L.name = name;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) L.lines.push_back(line);
  HplDat d;
  {
    std::istringstream s(L.at(3, "output file name"));
    s >> d.output_file;
  }
  d.device_out = L.one<int>(4, "device out", 0, 1 << 30);
  const int nn = L.one<int>(5, "# of problems sizes (N)", 1, 20);
  d.ns = L.numbers<long>(6, "Ns", nn, 1);
  const int nnb = L.one<int>(7, "# of NBs", 1, 20);
  d.nbs = L.numbers<int>(8, "NBs", nnb, 1);
  d.column_major = L.one<int>(9, "PMAP process mapping (0=Row-,1=Column-major)", 0, 1) == 1;
  const int ng = L.one<int>(10, "# of process grids (P x Q)", 1, 20);
  d.ps = L.numbers<int>(11, "Ps", ng, 1);
  d.qs = L.numbers<int>(12, "Qs", ng, 1);
  {
    std::istringstream s(L.at(13, "threshold"));
    if (!(s >> d.threshold)) L.bad(13, "threshold", "a number");
  }
  const int npf = L.one<int>(14, "# of panel fact", 1, 3);
  d.pfacts = facts(L.numbers<int>(15, "PFACTs (0=left, 1=Crout, 2=Right)", npf, 0));
  for (int v : L.numbers<int>(15, "PFACTs (0=left, 1=Crout, 2=Right)", npf, 0))
    if (v > 2) L.bad(15, "PFACTs (0=left, 1=Crout, 2=Right)", "values 0, 1 or 2");
  const int nnbm = L.one<int>(16, "# of recursive stopping criterium", 1, 20);
  d.nbmins = L.numbers<int>(17, "NBMINs (>= 1)", nnbm, 1);
  const int nnd = L.one<int>(18, "# of panels in recursion", 1, 20);
  d.ndivs = L.numbers<int>(19, "NDIVs", nnd, 2);
  const int nrf = L.one<int>(20, "# of recursive panel fact.", 1, 3);
  for (int v : L.numbers<int>(21, "RFACTs (0=left, 1=Crout, 2=Right)", nrf, 0))
    if (v > 2) L.bad(21, "RFACTs (0=left, 1=Crout, 2=Right)", "values 0, 1 or 2");
  d.rfacts = facts(L.numbers<int>(21, "RFACTs (0=left, 1=Crout, 2=Right)", nrf, 0));
  const int nbc = L.one<int>(22, "# of broadcast", 1, 6);
  for (int v : L.numbers<int>(23, "BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)", nbc, 0)) {
    if (v > 5) L.bad(23, "BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)", "values 0 to 5");
    d.bcasts.push_back(static_cast<Bcast>(v));
  }
  const int ndp = L.one<int>(24, "# of lookahead depth", 1, 20);
  d.depths = L.numbers<int>(25, "DEPTHs (>=0)", ndp, 0);
  for (int v : d.depths)
    if (v > 1) L.bad(25, "DEPTHs (>=0)", "0 or 1 (gluon implements look-ahead depth 0 and 1)");
  d.swap = static_cast<Swap>(L.one<int>(26, "SWAP (0=bin-exch,1=long,2=mix)", 0, 2));
  d.swap_threshold = L.one<int>(27, "swapping threshold", 0, 1 << 30);
  d.l1_form = L.one<int>(28, "L1 in (0=transposed,1=no-transposed) form", 0, 1);
  d.u_form = L.one<int>(29, "U  in (0=transposed,1=no-transposed) form", 0, 1);
  d.equilibration = L.one<int>(30, "Equilibration (0=no,1=yes)", 0, 1);
  d.alignment = L.one<int>(31, "memory alignment in double (> 0)", 1, 1 << 20);
  return d;
}

HplDat read_hpl_dat(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw IoError(path + ": cannot open HPL.dat (give the file as `gluon hpl FILE`)");
  std::ostringstream s;
  s << f.rdbuf();
  return parse_hpl_dat(s.str(), path);
}

std::vector<HplRunParams> expand(const HplDat& d) {
  std::vector<HplRunParams> out;
  for (std::size_t g = 0; g < d.ps.size(); ++g)
    for (long n : d.ns)
      for (int nb : d.nbs)
        for (Fact pf : d.pfacts)
          for (int nbmin : d.nbmins)
            for (int ndiv : d.ndivs)
              for (Fact rf : d.rfacts)
                for (Bcast bc : d.bcasts)
                  for (int depth : d.depths) {
                    HplRunParams r;
                    r.n = n, r.nb = nb, r.p = d.ps[g], r.q = d.qs[g];
                    r.column_major = d.column_major;
                    r.pfact = pf, r.rfact = rf, r.nbmin = nbmin, r.ndiv = ndiv;
                    r.bcast = bc, r.depth = depth, r.swap = d.swap, r.swap_threshold = d.swap_threshold;
                    r.threshold = d.threshold;
                    out.push_back(r);
                  }
  return out;
}

std::string variant_code(const HplRunParams& r) {
  std::string s = "W";
  s += r.column_major ? 'C' : 'R';
  s += std::to_string(r.depth);
  s += std::to_string(static_cast<int>(r.bcast));
  s += fact_letter(r.rfact);
  s += std::to_string(r.ndiv);
  s += fact_letter(r.pfact);
  s += std::to_string(r.nbmin);
  return s;
}

}  // namespace gluon::hpl
