#pragma once
// hpl::HplDat: the 31-line HPL.dat input of HPL 2.3 (docs/hpl.md shows one). Every listed
// combination of N, NB, grid, PFACT, NBMIN, NDIV, RFACT, BCAST, DEPTH is one run (SWAP and its
// threshold are single values, as in HPL).
//
//   parse_hpl_dat(text, name)  FileFormatError naming the file, the line number and the field,
//                              with what was expected and found.
//   read_hpl_dat(path)         IoError when the file cannot be read.
//   variant_code(...)          HPL's "WR11C2R4" code: W, process order (R/C), depth, bcast
//                              digit, rfact letter, ndiv, pfact letter, nbmin (HPL_pdtest's
//                              order: "WR11C2R4" is depth 1, 1ringM, Crout, NDIV 2, Right, NBMIN 4).
#include <string>
#include <vector>

namespace gluon::hpl {

enum class Fact { left = 0, crout = 1, right = 2 };
enum class Bcast { ring1 = 0, ring1m = 1, ring2 = 2, ring2m = 3, lng = 4, lngm = 5 };
enum class Swap { bin_exch = 0, spread_roll = 1, mix = 2 };

char fact_letter(Fact f);        // L C R
std::string bcast_name(Bcast b);  // 1ring 1ringM 2ring 2ringM long longM
std::string swap_name(Swap s);    // binary-exchange spread-roll mix

struct HplDat {
  std::string output_file;  // line 3
  int device_out = 6;       // line 4: 6 stdout, 7 stderr, else the file
  std::vector<long> ns;
  std::vector<int> nbs;
  bool column_major = false;  // PMAP 1
  std::vector<int> ps, qs;
  double threshold = 16.0;
  std::vector<Fact> pfacts;
  std::vector<int> nbmins;
  std::vector<int> ndivs;
  std::vector<Fact> rfacts;
  std::vector<Bcast> bcasts;
  std::vector<int> depths;
  Swap swap = Swap::mix;
  int swap_threshold = 64;
  int l1_form = 0, u_form = 0, equilibration = 1, alignment = 8;
};

HplDat parse_hpl_dat(const std::string& text, const std::string& name);
HplDat read_hpl_dat(const std::string& path);

// One run of the combinations.
struct HplRunParams {
  long n = 0;
  int nb = 0, p = 1, q = 1;
  bool column_major = false;
  Fact pfact = Fact::right, rfact = Fact::crout;
  int nbmin = 4, ndiv = 2;
  Bcast bcast = Bcast::ring1m;
  int depth = 1;
  Swap swap = Swap::mix;
  int swap_threshold = 64;
  double threshold = 16.0;
};

// In HPL's order: grid outermost, then N, NB, PFACT, NBMIN, NDIV, RFACT, BCAST, DEPTH.
std::vector<HplRunParams> expand(const HplDat& d);
std::string variant_code(const HplRunParams& r);

}  // namespace gluon::hpl
