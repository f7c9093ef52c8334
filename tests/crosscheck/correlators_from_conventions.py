#!/usr/bin/python3
"""Independent cross-check of `gluon solve`, written from the documentation alone.

Everything below was written from docs/conventions.md, docs/file-formats.md, docs/cli.md,
README.md, ../shared/testdata/gauge/README.md and `gluon solve --help`; no source file of gluon
was read.  The script

  1. reads each NERSC gauge file with its own reader (docs/file-formats.md, "NERSC"),
     verifying dimensions, data size, CHECKSUM, PLAQUETTE and LINK_TRACE;
  2. builds the Dirac operator (Wilson, Wilson-clover, naive and improved staggered) with numpy
     from docs/conventions.md, "Dirac operators", with the default boundary phases or others
     (`--boundary`); improved staggered either from --gauge (fat = 9/8 U, long = -1/24 U U U, its
     three-hop boundary phases) or from --fat-links / --long-links files that this script writes
     with its own NERSC writer (4D_SU3_GAUGE_3x3 IEEE64BIG with CHECKSUM, PLAQUETTE, LINK_TRACE),
     holding deliberately non-unitary links, which gluon must use exactly as given (and whose
     header values gluon must verify: a copy with one value changed must be refused);
  3. solves for the propagator from the documented source (conventions.md, "Propagators and
     correlators": point source, or the Z2 wall reproduced from its Philox-4x32-10 recipe) with
     its own Krylov solvers (BiCGstab with true-residual restarts; CG on the normal equations
     for staggered) to a relative residual of 1e-12 of the unpreconditioned system;
  4. contracts the pion / rho / staggered Goldstone-pion correlators as conventions.md defines
     them, with the documented normalisation;
  5. runs `gluon solve ... --json --backend cpu --quiet --tol 1e-12` (cuda with
     GLUON_CROSSCHECK_BACKEND=cuda: the GPU path) and compares every entry
     (and the JSON's `boundary`, `even_odd`, `clover_pc`); the preconditioning variants
     (`--clover-pc symmetric`, `--no-even-odd`) are compared with the numpy propagator of the
     default-path case they repeat (h1 = b, h2 = a), not solved again;
  6. has that run write its propagator (`--save-propagator FILE --propagator-precision 64`), and
     the same solve again at 32 bits, into a temporary directory; reads each file with its own
     SciDAC LIME reader (docs/file-formats.md, "LIME, ILDG, SciDAC" and "Propagators": record
     headers, record order and message bits, private file/record XML, big-endian data, sites
     x fastest, per site [spin_sink][spin_source][colour_sink][colour_source], suma/sumb) and
     compares EVERY element S(x)[sink spin, colour; source spin, colour] with its own propagator
     in the documented normalisation (max |dS| / max |S| <= 1e-9 at 64 bits, 1e-6 at 32), and
     the file's metadata (dims, datatype, precision, the run's JSON: normalisation, kappa,
     mass, csw, source) with the docs;
  7. self-test: on case a)'s operator, flipping the hopping projectors ((1-g_mu) <-> (1+g_mu))
     or swapping g_x and g_y leaves pion and rho unchanged to rounding but moves the propagator
     by O(0.1), so step 6 pins those conventions; likewise the per-site index order of the file.
     The reader's checksum arithmetic is checked on a file QIO wrote (lat.sample.l4444.scidac)
     and the reader must refuse a damaged and a truncated propagator file.
  8. residuals: gluon's 64-bit propagator must solve our operator's equation
     (|b - M S_file| / |b| <= 1e-9, one application of M), and must NOT solve (>= 1e-3) that of
     each control variant a case lists: another boundary direction (g1, g2), a three-hop term
     without or with a one-hop-like boundary phase, the other Naik sign (f1), re-unitarised,
     re-scaled or transposed link files (f2).

Usage:
  /usr/bin/python3 tests/crosscheck/correlators_from_conventions.py \
      [--gluon <repo>/build/bin/gluon] [--testdata $GLUON_TESTDATA or <repo>/../shared/testdata]

Exit status 0 only if every case agrees to 1e-8 (correlators, relative to max_t |C(t)|) and
1e-9 / 1e-6 (64- / 32-bit propagator files, relative to max |S|), and every self-test passes.
"""

import argparse
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
import zlib

import numpy as np

# gluon solve --backend: cpu (CI), or cuda to check the GPU path (bench/results/2026-11-28-crosscheck-gpu/)
BACKEND = os.environ.get("GLUON_CROSSCHECK_BACKEND", "cpu")
CORR_TOL = 1e-8     # pass threshold on correlators, relative to max_t |C(t)|
PLAQ_TOL = 1e-12    # our plaquette vs gluon's (same double links: should agree to rounding)
SOLVE_TOL = 1e-12   # relative true residual |b - M x| / |b| of our own solves
PROP_TOL = {64: 1e-9, 32: 1e-6}   # propagator file vs ours: max |dS| / max |S|, by file precision
SENS_MIN = 1e-3    # a convention flip must move the propagator by at least this (relative)
FILE_RES_TOL = 1e-9   # |b - M S_file| / |b| of gluon's 64-bit propagator in our operator

# ----------------------------------------------------------------------------------------------
# Lattice layout (conventions.md, "Lattice and site order"): directions mu = 0..3 = x, y, z, t,
# x fastest; the lexicographic index is l = x + X (y + Y (z + Z t)).  We hold fields as numpy
# arrays indexed [t, z, y, x, ...], so the C-order flattening of the first four axes *is* the
# lexicographic index, and direction mu lives on array axis 3 - mu.
# ----------------------------------------------------------------------------------------------


def axis(mu):
    return 3 - mu


def fwd(f, mu):
    """f(x + mu) at x (periodic shift; boundary phases are folded into the links)."""
    return np.roll(f, -1, axis=axis(mu))


def bwd(f, mu):
    """f(x - mu) at x."""
    return np.roll(f, +1, axis=axis(mu))


def dag(u):
    return np.conj(np.swapaxes(u, -1, -2))


# ----------------------------------------------------------------------------------------------
# NERSC reader (docs/file-formats.md, "NERSC").
# ----------------------------------------------------------------------------------------------

class FormatError(Exception):
    pass


def printed_half_ulp(text):
    """Half a unit in the last printed digit of a decimal number as written in the header."""
    mant = text.strip().lower().split("e")[0]
    exp = int(text.strip().lower().split("e")[1]) if "e" in text.lower() else 0
    decimals = len(mant.split(".")[1]) if "." in mant else 0
    return 0.5 * 10.0 ** (exp - decimals)


def read_nersc(path):
    """Return (links U[mu, t, z, y, x, 3, 3] complex128, dims (X, Y, Z, T), info dict)."""
    raw = open(path, "rb").read()
    begin = raw.find(b"BEGIN_HEADER")
    end = raw.find(b"END_HEADER")
    if begin < 0 or end < 0:
        raise FormatError(f"{path}: no BEGIN_HEADER/END_HEADER")
    # The data start after the END_HEADER line (docs: "ASCII header between BEGIN_HEADER and
    # END_HEADER"; the exact terminator is not specified: we take the end of that line).
    data_start = raw.find(b"\n", end) + 1
    header = {}
    for line in raw[begin:end].decode("ascii", "replace").splitlines()[1:]:
        if "=" in line:
            key, value = line.split("=", 1)
            header.setdefault(key.strip(), value.strip())  # first occurrence wins

    for key in ("DATATYPE", "DIMENSION_1", "DIMENSION_2", "DIMENSION_3", "DIMENSION_4"):
        if key not in header:
            raise FormatError(f"{path}: required header key {key} missing")
    dims = tuple(int(header[f"DIMENSION_{i}"]) for i in range(1, 5))  # X, Y, Z, T
    X, Y, Z, T = dims
    V = X * Y * Z * T

    datatype = header["DATATYPE"]
    if datatype == "4D_SU3_GAUGE":
        nrows = 2
    elif datatype == "4D_SU3_GAUGE_3x3":
        nrows = 3
    else:
        raise FormatError(f"{path}: DATATYPE {datatype}")

    # FLOATING_POINT: absent means IEEE32BIG; "IEEE32" is accepted (docs do not say its byte
    # order; NERSC's convention is big endian, which we assume; likewise a bare "IEEE64").
    fp = header.get("FLOATING_POINT", "IEEE32BIG")
    fmt = {"IEEE32BIG": ">f4", "IEEE32": ">f4", "IEEE32LITTLE": "<f4",
           "IEEE64BIG": ">f8", "IEEE64": ">f8", "IEEE64LITTLE": "<f8"}.get(fp)
    if fmt is None:
        raise FormatError(f"{path}: FLOATING_POINT {fp}")
    nbytes = int(fmt[2])

    expected = V * 4 * nrows * 3 * 2 * nbytes
    data = raw[data_start:]
    if len(data) != expected:
        raise FormatError(f"{path}: data size: expected {expected} bytes, found {len(data)}")

    # CHECKSUM: 32-bit unsigned sum of the data as stored, read as 32-bit words in the file's
    # byte order (for 64-bit files both halves of each double are added).
    words = np.frombuffer(data, dtype=fmt[0] + "u4").astype(np.uint64)
    checksum = int(words.sum()) & 0xFFFFFFFF
    info = {"format": f"{datatype} {fp}", "checksum": checksum, "checks": []}
    if "CHECKSUM" in header:
        want = int(header["CHECKSUM"], 16)
        if want != checksum:
            raise FormatError(f"{path}: CHECKSUM expected {want:08x}, found {checksum:08x}")
        info["checks"].append(f"CHECKSUM {checksum:08x}")

    # Sites lexicographic, x fastest; at each site mu = x, y, z, t; each link row-major complex,
    # 2 or 3 rows.  Third row of 2-row files: conj(row0 x row1), in double.
    vals = np.frombuffer(data, dtype=fmt).astype(np.float64)
    vals = vals.reshape(T, Z, Y, X, 4, nrows, 3, 2)
    m = vals[..., 0] + 1j * vals[..., 1]
    if nrows == 2:
        row2 = np.conj(np.cross(m[..., 0, :], m[..., 1, :]))
        m = np.concatenate([m, row2[..., None, :]], axis=-2)
    U = np.ascontiguousarray(np.moveaxis(m, 4, 0))  # U[mu, t, z, y, x, a, b]

    plaq = plaquette(U)
    ltrace = float(np.mean(np.real(np.trace(U, axis1=-2, axis2=-1))) / 3.0)
    rel = 1e-6 if nbytes == 4 else 1e-10
    for key, value in (("PLAQUETTE", plaq), ("LINK_TRACE", ltrace)):
        if key in header:
            want = float(header[key])
            tol = rel * max(1.0, abs(want)) + printed_half_ulp(header[key])
            if abs(want - value) > tol:
                raise FormatError(f"{path}: {key} expected {want}, computed {value}")
            info["checks"].append(f"{key} {header[key]} (computed {value:.12g})")
    info["plaquette"] = plaq
    return U, dims, info


def plaquette(U):
    """Mean of Re tr U_P / 3 over the 6V plaquettes (conventions.md, "Gauge links")."""
    total = 0.0
    for mu in range(4):
        for nu in range(mu + 1, 4):
            p = U[mu] @ fwd(U[nu], mu) @ dag(fwd(U[mu], nu)) @ dag(U[nu])
            total += np.mean(np.real(np.trace(p, axis1=-2, axis2=-1)))
    return float(total / 6.0 / 3.0)


# ----------------------------------------------------------------------------------------------
# Gamma matrices (conventions.md, "Gamma matrices (DeGrand-Rossi ...)").  g_mu for mu = 0..3 is
# g1..g4 (x, y, z, t); the docs name them g1..g4 and directions mu = 0..3 = x..t: we take
# g_{mu} = g_{mu+1}, the Chroma/QDP++ convention.
# ----------------------------------------------------------------------------------------------
i_ = 1j
GAMMA = [
    np.array([[0, 0, 0, i_], [0, 0, i_, 0], [0, -i_, 0, 0], [-i_, 0, 0, 0]]),
    np.array([[0, 0, 0, -1], [0, 0, 1, 0], [0, 1, 0, 0], [-1, 0, 0, 0]], dtype=complex),
    np.array([[0, 0, i_, 0], [0, 0, 0, -i_], [-i_, 0, 0, 0], [0, i_, 0, 0]]),
    np.array([[0, 0, 1, 0], [0, 0, 0, 1], [1, 0, 0, 0], [0, 1, 0, 0]], dtype=complex),
]
G5 = GAMMA[0] @ GAMMA[1] @ GAMMA[2] @ GAMMA[3]
assert np.allclose(G5, np.diag([1, 1, -1, -1])), "docs: g5 = g1 g2 g3 g4 = diag(1,1,-1,-1)"
for _a in range(4):
    for _b in range(4):
        assert np.allclose(GAMMA[_a] @ GAMMA[_b] + GAMMA[_b] @ GAMMA[_a], 2 * (_a == _b) * np.eye(4))

# Each DeGrand-Rossi gamma has one non-zero per row: (g chi)[s] = phase[s] * chi[perm[s]].
GPERM = [np.argmax(np.abs(g), axis=1) for g in GAMMA]
GPHASE = [g[np.arange(4), p] for g, p in zip(GAMMA, GPERM)]


def gamma_mul(mu, chi):
    """g_mu acting on the spin index (axis -3) of chi[..., spin, colour, column]."""
    return GPHASE[mu][:, None, None] * chi[..., GPERM[mu], :, :]


# ----------------------------------------------------------------------------------------------
# Dirac operators (conventions.md, "Dirac operators").
# ----------------------------------------------------------------------------------------------

def links_with_boundary(U, boundary):
    """Fold the boundary phases into the links.

    conventions.md: "a hop that crosses the lattice boundary in direction mu is multiplied by
    boundary[mu]".  The forward hop from x_mu = L-1 and the backward hop into x_mu = 0 both use
    the link U_mu(x_mu = L-1), so multiplying that link by boundary[mu] applies the phase to
    exactly the hops that cross the boundary.
    """
    Ub = U.copy()
    for mu in range(4):
        if boundary[mu] != 1:
            idx = [slice(None)] * 4
            idx[axis(mu)] = -1
            Ub[mu][tuple(idx)] *= boundary[mu]
    return Ub


def wilson_hop(Ub, psi):
    """D psi(x) = sum_mu (1 - g_mu) U_mu(x) psi(x+mu) + (1 + g_mu) U_mu(x-mu)^+ psi(x-mu).

    psi has shape (T, Z, Y, X, 4 spin, 3 colour, N columns)."""
    out = np.zeros_like(psi)
    for mu in range(4):
        u = Ub[mu][..., None, :, :]                       # broadcast over spin
        f = u @ fwd(psi, mu)                              # U_mu(x) psi(x+mu)
        b = bwd(dag(u) @ psi, mu)                         # U_mu(x-mu)^+ psi(x-mu)
        out += (f - gamma_mul(mu, f)) + (b + gamma_mul(mu, b))
    return out


def clover_field(U, kappa, csw):
    """A(x) as a 12x12 matrix (index spin*3 + colour):
    A = 1 - kappa c_sw sum_{mu<nu} sigma_munu F_munu, sigma_munu = (i/2)[g_mu, g_nu],
    F_munu = (Q_munu - Q_munu^+)/(8i), Q the four leaves in the documented order; no trace
    subtracted.  Built from the links without boundary phases (every leaf is a contractible
    loop, so the phases would cancel anyway)."""
    shape = U.shape[1:5]
    A = np.zeros(shape + (12, 12), dtype=complex)
    A[...] = np.eye(12)
    for mu in range(4):
        for nu in range(mu + 1, 4):
            Um, Un = U[mu], U[nu]
            leaf1 = Um @ fwd(Un, mu) @ dag(fwd(Um, nu)) @ dag(Un)
            leaf2 = Un @ dag(bwd(fwd(Um, nu), mu)) @ dag(bwd(Un, mu)) @ bwd(Um, mu)
            leaf3 = (dag(bwd(Um, mu)) @ dag(bwd(bwd(Un, mu), nu)) @ bwd(bwd(Um, mu), nu)
                     @ bwd(Un, nu))
            leaf4 = dag(bwd(Un, nu)) @ bwd(Um, nu) @ fwd(bwd(Un, nu), mu) @ dag(Um)
            Q = leaf1 + leaf2 + leaf3 + leaf4
            F = (Q - dag(Q)) / 8j
            sigma = 0.5j * (GAMMA[mu] @ GAMMA[nu] - GAMMA[nu] @ GAMMA[mu])
            # kron(sigma, F)[s*3+a, s'*3+b] = sigma[s,s'] F[a,b]
            A -= kappa * csw * np.einsum("st,...ab->...satb", sigma, F).reshape(shape + (12, 12))
    return A


def make_wilson(U, boundary, kappa, csw=None, mass_form=None):
    """Return psi -> M psi.

    Hopping form (conventions.md): Wilson M = 1 - kappa D, clover M = A - kappa D.
    mass_form=m: the operator (4 + m) - D/2 (= M / (2 kappa), kappa = 1/(2(4+m))), built as such
    so that the documented equivalence is tested rather than assumed."""
    Ub = links_with_boundary(U, boundary)
    A = clover_field(U, kappa, csw) if csw is not None else None
    if mass_form is not None:
        assert A is None
        m = mass_form
        return lambda psi: (4.0 + m) * psi - 0.5 * wilson_hop(Ub, psi)

    def M(psi):
        out = -kappa * wilson_hop(Ub, psi)
        if A is None:
            out += psi
        else:
            sh = psi.shape
            out += (A @ psi.reshape(sh[:4] + (12, sh[-1]))).reshape(sh)
        return out
    return M


def staggered_eta(dims):
    """eta_mu(x) = (-1)^(x_0 + ... + x_{mu-1}) of the global coordinates."""
    X, Y, Z, T = dims
    t, z, y, x = np.meshgrid(np.arange(T), np.arange(Z), np.arange(Y), np.arange(X), indexing="ij")
    coords = [x, y, z, t]
    etas = []
    for mu in range(4):
        s = sum(coords[:mu]) if mu > 0 else np.zeros_like(x)
        etas.append(((-1.0) ** s)[..., None, None])   # broadcast over colour, column
    return etas


def make_staggered_D(U, boundary, dims):
    """D psi(x) = 1/2 sum_mu eta_mu(x) [U_mu(x) psi(x+mu) - U_mu(x-mu)^+ psi(x-mu)];
    psi has shape (T, Z, Y, X, 3 colour, N columns)."""
    Ub = links_with_boundary(U, boundary)
    etas = staggered_eta(dims)

    def D(psi):
        out = np.zeros_like(psi)
        for mu in range(4):
            out += etas[mu] * (Ub[mu] @ fwd(psi, mu) - bwd(dag(Ub[mu]) @ psi, mu))
        return 0.5 * out
    return D


def long_links_with_boundary(L, boundary, mode="crossing"):
    """Fold the boundary phases into the three-hop (long) links.

    conventions.md, "Boundary phases": "in every operator (..., and the improved three-hop term),
    a hop that crosses the lattice boundary in direction mu is multiplied by boundary[mu]".  The
    forward three-hop x -> x + 3 mu uses L_mu(x) and crosses the boundary iff x_mu + 3 >= L_mu
    (once, for L_mu >= 3); the backward three-hop x -> x - 3 mu uses L_mu(x - 3 mu) and crosses
    it iff (x - 3 mu)_mu + 3 >= L_mu.  So multiplying L_mu(x) for x_mu = L_mu - 3 .. L_mu - 1
    by boundary[mu] applies the phase to exactly the three-hops that cross.  For links built
    from U this equals the product of the phase-folded one-hop links (checked in naik_links)."""
    Lb = L.copy()
    if mode == "none":             # controls only: no phase on the three-hop term
        return Lb
    for mu in range(4):
        if boundary[mu] != 1:
            n = L.shape[1 + axis(mu)]
            assert n >= 3, "a three-hop crosses the boundary more than once on an extent below 3"
            idx = [slice(None)] * 4
            # controls only: mode "last-slice" puts the phase on L_mu(x_mu = L-1) alone, as on a one-hop link
            idx[axis(mu)] = slice(n - 3, n) if mode == "crossing" else slice(n - 1, n)
            Lb[mu][tuple(idx)] *= boundary[mu]
    return Lb


def make_improved_staggered_D(fat, long, boundary, dims, long_mode="crossing"):
    """conventions.md, "Staggered ... Improved": the one-hop term of make_staggered_D with the
    fat links F, plus 1/2 sum_mu eta_mu(x) [L_mu(x) psi(x+3mu) - L_mu(x-3mu)^+ psi(x-3mu)] with
    the long links L as given (coefficients inside; eta_mu(x - 3mu) = eta_mu(x), so which site's
    eta multiplies the backward hop does not matter).  Boundary phases on both terms; the links
    themselves carry no staggered or boundary phase (the docs put both into the operator)."""
    Fb = links_with_boundary(fat, boundary)
    Lb = long_links_with_boundary(long, boundary, long_mode)
    etas = staggered_eta(dims)

    def D(psi):
        out = np.zeros_like(psi)
        for mu in range(4):
            one = Fb[mu] @ fwd(psi, mu) - bwd(dag(Fb[mu]) @ psi, mu)
            three = (Lb[mu] @ np.roll(psi, -3, axis=axis(mu))
                     - np.roll(dag(Lb[mu]) @ psi, 3, axis=axis(mu)))
            out += etas[mu] * (one + three)
        return 0.5 * out
    return D


def naik_links(U, boundary):
    """`--operator improved-staggered` from --gauge (conventions.md): fat = 9/8 U,
    long_mu(x) = -1/24 U_mu(x) U_mu(x+mu) U_mu(x+2mu), no smearing.  Also checks that folding the
    boundary phases into these long links (long_links_with_boundary) equals building them from
    the phase-folded one-hop links, i.e. that 'the three-hop crosses once' is what we apply."""
    fat = 9.0 / 8.0 * U
    long = np.empty_like(U)
    Ub = links_with_boundary(U, boundary)
    for mu in range(4):
        u1 = fwd(U[mu], mu)
        long[mu] = -1.0 / 24.0 * (U[mu] @ u1 @ fwd(u1, mu))
        ub1 = fwd(Ub[mu], mu)
        folded = -1.0 / 24.0 * (Ub[mu] @ ub1 @ fwd(ub1, mu))
        assert np.allclose(long_links_with_boundary(long, boundary)[mu], folded, rtol=0, atol=1e-15)
    return fat, long


def staples(U, mu):
    """sum_{nu != mu} of the upper and lower staples from x to x + mu (a 3x3 per site)."""
    s = np.zeros_like(U[mu])
    for nu in range(4):
        if nu != mu:
            s += U[nu] @ fwd(U[mu], nu) @ dag(fwd(U[nu], mu))
            s += bwd(dag(U[nu]) @ U[mu] @ fwd(U[nu], mu), nu)
    return s


def smeared_like_links(U, seed):
    """Non-unitary one- and three-hop links with 'coefficients inside', for --fat-links /
    --long-links.  Our own recipe (not asqtad, not gauge covariant, and deliberately not close
    to SU(3), so that any re-unitarisation or rescaling on load would show at O(1)):
      fat_mu(x)  = a_mu(x) U_mu(x) + 0.03 staples_mu(x) + 0.05 G,   a_mu(x) uniform in [0.5, 0.9],
      long_mu(x) = -0.06 U_mu(x) U_mu(x+mu) U_mu(x+2mu) (1 + 0.4 G'),
    G, G' complex Gaussian 3x3 matrices (E|G_ij|^2 = 1) drawn per link from numpy's PCG64."""
    rng = np.random.default_rng(seed)
    shape = U.shape

    def gauss():
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)) / np.sqrt(2.0)
    a = rng.uniform(0.5, 0.9, size=shape[:5])[..., None, None]
    st = np.stack([staples(U, mu) for mu in range(4)])
    fat = a * U + 0.03 * st + 0.05 * gauss()
    long = np.empty_like(U)
    G = gauss()
    for mu in range(4):
        u1 = fwd(U[mu], mu)
        long[mu] = -0.06 * (U[mu] @ u1 @ fwd(u1, mu)) @ (np.eye(3) + 0.4 * G[mu])
    return fat, long


def unitarity_deviation(V):
    """conventions.md: max_ij |(U U^+ - 1)_ij| + |det U - 1|, maximum over links."""
    d = np.max(np.abs(V @ dag(V) - np.eye(3)), axis=(-1, -2)) + np.abs(np.linalg.det(V) - 1.0)
    return float(d.max())


def write_nersc(path, links, dims):
    """Our own NERSC writer (docs/file-formats.md, "NERSC"): 4D_SU3_GAUGE_3x3, IEEE64BIG, the
    header keys gluon writes, CHECKSUM (32-bit sum of the big-endian 32-bit words of the data,
    printed as 8 hex digits: the docs do not give the printed form; the shipped files use
    lower-case hex without 0x), LINK_TRACE and PLAQUETTE of the links as stored, printed with
    17 significant digits (the docs' plaquette definition applies to any 3x3 matrices)."""
    X, Y, Z, T = dims
    m = np.moveaxis(links, 0, 4)                                   # (T, Z, Y, X, mu, 3, 3)
    data = np.stack([m.real, m.imag], axis=-1).astype(">f8").tobytes()
    checksum = int(np.frombuffer(data, dtype=">u4").astype(np.uint64).sum()) & 0xFFFFFFFF
    plaq = plaquette(links)
    ltrace = float(np.mean(np.real(np.trace(links, axis1=-2, axis2=-1))) / 3.0)
    keys = [("HDR_VERSION", "1.0"), ("DATATYPE", "4D_SU3_GAUGE_3x3"), ("STORAGE_FORMAT", "1.0")]
    keys += [(f"DIMENSION_{i + 1}", str(d)) for i, d in enumerate(dims)]
    keys += [(f"BOUNDARY_{i + 1}", "PERIODIC") for i in range(4)]
    keys += [("CHECKSUM", f"{checksum:08x}"), ("LINK_TRACE", f"{ltrace:.17g}"),
             ("PLAQUETTE", f"{plaq:.17g}"), ("FLOATING_POINT", "IEEE64BIG"),
             ("ENSEMBLE_ID", "crosscheck"), ("ENSEMBLE_LABEL", "smeared-like test links"),
             ("SEQUENCE_NUMBER", "0"), ("CREATOR", "correlators_from_conventions.py"),
             ("CREATOR_HARDWARE", "numpy"), ("CREATION_DATE", time.strftime("%a %b %d %H:%M:%S %Y")),
             ("ARCHIVE_DATE", time.strftime("%a %b %d %H:%M:%S %Y"))]
    header = "BEGIN_HEADER\n" + "".join(f"{k} = {v}\n" for k, v in keys) + "END_HEADER\n"
    with open(path, "wb") as f:
        f.write(header.encode("ascii") + data)
    # our reader (which verifies CHECKSUM, PLAQUETTE and LINK_TRACE) must read back the same bits
    back, back_dims, info = read_nersc(path)
    assert back_dims == tuple(dims) and np.array_equal(back, links), "our NERSC writer/reader round trip"
    return {"checksum": f"{checksum:08x}", "plaquette": plaq, "link_trace": ltrace,
            "unitarity": unitarity_deviation(links), "checks": info["checks"]}


# ----------------------------------------------------------------------------------------------
# Krylov solvers (our own): all columns at once, each with its own scalars; a column leaves the
# iteration once its recursive residual is below tolerance; an outer loop recomputes the TRUE
# residual and restarts on the remainder until |b - M x| / |b| <= tol for every column.
# ----------------------------------------------------------------------------------------------

def cdot(a, b):
    """Per-column <a, b> = sum conj(a) b over all axes but the last."""
    n = a.shape[-1]
    return np.einsum("ij,ij->j", np.conj(a.reshape(-1, n)), b.reshape(-1, n))


def cnorm(a):
    return np.sqrt(np.real(cdot(a, a)))


def bicgstab(M, b, tol, maxiter, rng):
    """BiCGstab on M x = b, columns independent.  Shadow vector random (for point sources
    r0 = b makes <r0, r> vanish after one step; conventions.md mentions this too)."""
    x = np.zeros_like(b)
    r = b.copy()
    bnorm = cnorm(b)
    rhat = rng.standard_normal(b.shape) + 1j * rng.standard_normal(b.shape)
    p = np.zeros_like(b)
    v = np.zeros_like(b)
    rho = alpha = omega = np.ones(b.shape[-1], dtype=complex)
    active = np.arange(b.shape[-1])
    iters = 0
    while active.size and iters < maxiter:
        iters += 1
        rho_new = cdot(rhat, r)
        beta = (rho_new / rho) * (alpha / omega)
        p = r + beta * (p - omega * v)
        v = M(p)
        alpha = rho_new / cdot(rhat, v)
        s = r - alpha * v
        t = M(s)
        omega = cdot(t, s) / cdot(t, t)
        x[..., active] += alpha * p + omega * s
        r = s - omega * t
        rho = rho_new
        keep = cnorm(r) > tol * bnorm[active]
        if not keep.all():  # drop converged columns from the iteration
            active, r, p, v, rhat = active[keep], r[..., keep], p[..., keep], v[..., keep], rhat[..., keep]
            rho, alpha, omega = rho[keep], alpha[keep], omega[keep]
    return x, iters


def cg(A, b, tol, maxiter):
    """CG on a Hermitian positive A, columns independent."""
    x = np.zeros_like(b)
    r = b.copy()
    p = r.copy()
    bnorm = cnorm(b)
    rr = np.real(cdot(r, r))
    active = np.arange(b.shape[-1])
    iters = 0
    while active.size and iters < maxiter:
        iters += 1
        Ap = A(p)
        alpha = rr / np.real(cdot(p, Ap))
        x[..., active] += alpha * p
        r = r - alpha * Ap
        rr_new = np.real(cdot(r, r))
        p = r + (rr_new / rr) * p
        rr = rr_new
        keep = np.sqrt(rr) > tol * bnorm[active]
        if not keep.all():
            active, r, p, rr = active[keep], r[..., keep], p[..., keep], rr[keep]
    return x, iters


def solve(M, b, inner, tol=SOLVE_TOL, max_restarts=20):
    """Solve M x = b to a true relative residual <= tol per column (restarted inner solver)."""
    x = np.zeros_like(b)
    bnorm = cnorm(b)
    total = 0
    for _ in range(max_restarts):
        r = b - M(x)
        res = cnorm(r) / bnorm
        if res.max() <= tol:
            return x, total, float(res.max())
        # ask the inner solver for slightly more than needed, relative to this residual
        inner_tol = max(0.3 * tol * bnorm.min() / cnorm(r).max(), 1e-15)
        e, it = inner(r, min(inner_tol, 0.1))
        total += it
        x = x + e
    raise RuntimeError(f"our solver did not reach {tol}: residuals {res}")


# ----------------------------------------------------------------------------------------------
# Sources (conventions.md, "Propagators and correlators").
# ----------------------------------------------------------------------------------------------

PHILOX_M0, PHILOX_M1 = 0xD2511F53, 0xCD9E8D57
PHILOX_W0, PHILOX_W1 = 0x9E3779B9, 0xBB67AE85
MASK32 = 0xFFFFFFFF


def philox4x32_10(ctr, key):
    """Random123's Philox-4x32-10 block function (conventions.md, "Random numbers")."""
    c0, c1, c2, c3 = ctr
    k0, k1 = key
    for rnd in range(10):
        if rnd > 0:
            k0, k1 = (k0 + PHILOX_W0) & MASK32, (k1 + PHILOX_W1) & MASK32
        p0, p1 = PHILOX_M0 * c0, PHILOX_M1 * c2
        c0, c1, c2, c3 = ((p1 >> 32) ^ c1 ^ k0, p1 & MASK32, (p0 >> 32) ^ c3 ^ k1, p0 & MASK32)
    return c0, c1, c2, c3


# Random123 known-answer vectors (kat_vectors, philox4x32 10 rounds)
assert philox4x32_10((0, 0, 0, 0), (0, 0)) == (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)
assert philox4x32_10((MASK32,) * 4, (MASK32,) * 2) == (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)
assert philox4x32_10((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0)) == \
    (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)

Z2_STREAM = 0x10010


def z2_wall_noise(dims, t0, seed):
    """eta(x) on the slice t0: first word w of Philox-4x32-10 with key (seed lo, seed hi),
    counter (global lex index lo, hi, stream 0x10010, 0); Re sign - if bit 0 of w is set, Im
    sign - if bit 1 is; eta = (+-1 +- i)/sqrt(2).  Returns eta[z, y, x]."""
    X, Y, Z, T = dims
    key = (seed & MASK32, (seed >> 32) & MASK32)
    eta = np.zeros((Z, Y, X), dtype=complex)
    for z in range(Z):
        for y in range(Y):
            for x in range(X):
                lex = x + X * (y + Y * (z + Z * t0))
                w = philox4x32_10((lex & MASK32, lex >> 32, Z2_STREAM, 0), key)[0]
                re = -1.0 if w & 1 else 1.0
                im = -1.0 if w & 2 else 1.0
                eta[z, y, x] = (re + 1j * im) / np.sqrt(2.0)
    return eta


def make_source(dims, nspin, src, source_type, seed):
    """Columns: source spin * 3 + colour (12, Wilson/clover) or colour (3, staggered).
    Point: 1 in that spin-colour at the source site.  Z2 wall: the same eta(x) in that
    spin-colour on every site of slice t0 (x, y, z of --source unused)."""
    X, Y, Z, T = dims
    ncol = 3 * nspin
    inner = (nspin, 3) if nspin > 1 else (3,)
    b = np.zeros((T, Z, Y, X) + inner + (ncol,), dtype=complex)
    x0, y0, z0, t0 = src
    eta = z2_wall_noise(dims, t0, seed) if source_type == "z2-wall" else None
    for col in range(ncol):
        spin, colour = divmod(col, 3)
        sc = (spin, colour) if nspin > 1 else (colour,)
        if source_type == "point":
            b[(t0, z0, y0, x0) + sc + (col,)] = 1.0
        else:
            b[(t0, slice(None), slice(None), slice(None)) + sc + (col,)] = eta
    return b


# ----------------------------------------------------------------------------------------------
# Correlators (conventions.md, "Propagators and correlators"):
#   t' = (t - t0) mod T; S(x)_{a,b} sink a, source b
#   pion  C(t') = sum_{x in t'} sum_{a,b} |S(x)_{a,b}|^2
#   rho   C(t') = (1/3) sum_k sum_{x in t'} Re tr[g_k S(x) g_k g5 S(x)^+ g5],  k = x, y, z
#   staggered Goldstone pion C(t') = sum_{x in t'} sum_{a,b} |G(x)_{a,b}|^2
# ----------------------------------------------------------------------------------------------

def pion(S, t0):
    c = np.sum(np.abs(S) ** 2, axis=tuple(range(1, S.ndim)))
    return np.roll(c, -t0)


def rho(S, t0):
    """S has shape (T, Z, Y, X, 12 sink, 12 source)."""
    I3 = np.eye(3)
    G5b = np.kron(G5, I3)
    c = np.zeros(S.shape[0])
    Sd = dag(S)
    for k in range(3):  # g_k = g1, g2, g3 (spatial)
        Gk = np.kron(GAMMA[k], I3)
        left = Gk @ S @ Gk                       # g_k S g_k
        right = G5b @ Sd @ G5b                   # g5 S^+ g5
        tr = np.einsum("...ij,...ji->...", left, right)
        c += np.sum(np.real(tr), axis=(1, 2, 3))
    return np.roll(c / 3.0, -t0)


# ----------------------------------------------------------------------------------------------
# SciDAC LIME propagator reader (docs/file-formats.md, "LIME, ILDG, SciDAC" and "Propagators
# (`gluon solve --save-propagator FILE`)").
# ----------------------------------------------------------------------------------------------

LIME_MAGIC = 0x456789AB
LIME_HEADER_BYTES = 144
LIME_MB, LIME_ME = 0x8000, 0x4000

# docs: "message 1 `scidac-private-file-xml` (dims), `scidac-file-xml` (...); message 2
# `scidac-private-record-xml` (...), `scidac-record-xml`, `scidac-binary-data` (...),
# `scidac-checksum`": (type, message-begin, message-end) of each record, in order.
PROPAGATOR_RECORDS = [
    ("scidac-private-file-xml", True, False),
    ("scidac-file-xml", False, True),
    ("scidac-private-record-xml", True, False),
    ("scidac-record-xml", False, False),
    ("scidac-binary-data", False, False),
    ("scidac-checksum", False, True),
]


def read_lime(path):
    """Return the records of a LIME file as dicts (type, mb, me, offset, length, payload).

    docs: "144-byte header (magic 0x456789ab, version 1, message-begin/end bits, 64-bit payload
    length, 128-byte type), payload padded to 8 bytes".  The docs do not give the field widths
    or bit positions; we take LIME 1's: big-endian uint32 magic, uint16 version, uint16 flags
    (bit 15 message begin, bit 14 message end, the rest zero), uint64 length, then the type,
    NUL-padded to 128 bytes.  Every length is checked against the file size before use, the
    padding (to a multiple of 8, the last record included) must be zero and the records must
    cover the file exactly."""
    raw = open(path, "rb").read()
    records = []
    off = 0
    while off < len(raw):
        if len(raw) - off < LIME_HEADER_BYTES:
            raise FormatError(f"{path}: {len(raw) - off} bytes at offset {off}: less than a LIME header")
        magic, version, flags, length = struct.unpack(">IHHQ", raw[off:off + 16])
        if magic != LIME_MAGIC:
            raise FormatError(f"{path}: LIME magic at offset {off}: expected {LIME_MAGIC:08x}, found {magic:08x}")
        if version != 1:
            raise FormatError(f"{path}: LIME version at offset {off}: expected 1, found {version}")
        if flags & ~(LIME_MB | LIME_ME):
            raise FormatError(f"{path}: reserved LIME flag bits set at offset {off}: {flags:04x}")
        tfield = raw[off + 16:off + LIME_HEADER_BYTES]
        raw_name = tfield.split(b"\0", 1)[0]
        name = raw_name.decode("ascii", "replace")
        if tfield[len(raw_name):].strip(b"\0"):
            raise FormatError(f"{path}: LIME type field at offset {off} not NUL-padded")
        start = off + LIME_HEADER_BYTES
        padded = (length + 7) // 8 * 8
        if length > len(raw) - start or padded > len(raw) - start:
            raise FormatError(f"{path}: record {name!r} at offset {off}: payload of {length} bytes "
                              f"(padded {padded}) runs past the end of the file ({len(raw)} bytes)")
        if raw[start + length:start + padded].strip(b"\0"):
            raise FormatError(f"{path}: record {name!r}: non-zero padding")
        records.append({"type": name, "mb": bool(flags & LIME_MB),
                        "me": bool(flags & LIME_ME), "offset": off, "length": length,
                        "payload": raw[start:start + length]})
        off = start + padded
    return records


def parse_xml(payload, what):
    """An XML record payload (QIO writes a trailing NUL; tolerated)."""
    try:
        return ET.fromstring(payload.rstrip(b"\0").decode("utf-8"))
    except (ET.ParseError, UnicodeDecodeError) as e:
        raise FormatError(f"{what}: not XML ({e})")


def xml_field(root, tag, what):
    el = root.find(tag)
    if el is None or el.text is None:
        raise FormatError(f"{what}: <{tag}> missing")
    return el.text.strip()


def rotl32(w, n):
    return ((w << n) | (w >> (32 - n))) & MASK32 if n else w


def scidac_checksum(data, site_bytes):
    """docs: "for each site, the CRC-32 of its bytes as stored, rotated left by (global
    lexicographic index mod 29) for suma and (mod 31) for sumb, XOR-accumulated".  CRC-32 is
    taken as zlib's (IEEE 802.3, the one QIO uses); checked below on a file QIO wrote."""
    mv = memoryview(data)
    suma = sumb = 0
    for lex in range(len(data) // site_bytes):
        c = zlib.crc32(mv[lex * site_bytes:(lex + 1) * site_bytes]) & MASK32
        suma ^= rotl32(c, lex % 29)
        sumb ^= rotl32(c, lex % 31)
    return suma, sumb


def read_scidac_propagator(path):
    """Return (S, meta).  S: complex128, shape (T, Z, Y, X, 12, 12) [sink spin*3+colour, source
    spin*3+colour] for a QDP_{D,F}3_DiracPropagator, (T, Z, Y, X, 3, 3) for a ColorMatrix.
    meta: dims, datatype, bits, nspin, record fields, the JSON of scidac-file-xml, checks."""
    recs = read_lime(path)
    got = [(r["type"], r["mb"], r["me"]) for r in recs]
    if got != PROPAGATOR_RECORDS:
        raise FormatError(f"{path}: records (type, message begin, message end): expected "
                          f"{PROPAGATOR_RECORDS}, found {got}")
    rec = {r["type"]: r for r in recs}
    checks = ["LIME records and message bits as documented"]

    # message 1: private file XML (dims)
    pf = parse_xml(rec["scidac-private-file-xml"]["payload"], f"{path}: scidac-private-file-xml")
    if pf.tag != "scidacFile":
        raise FormatError(f"{path}: scidac-private-file-xml root <{pf.tag}>, expected <scidacFile> (QIO)")
    dims = tuple(int(v) for v in xml_field(pf, "dims", path).split())
    spacetime = pf.find("spacetime")
    if len(dims) != 4 or (spacetime is not None and int(spacetime.text) != len(dims)):
        raise FormatError(f"{path}: <dims> {dims} / <spacetime> inconsistent with 4 dimensions")
    X, Y, Z, T = dims
    V = X * Y * Z * T

    # gluon's metadata: the run's JSON inside <gluon><propagator_json>
    fx = parse_xml(rec["scidac-file-xml"]["payload"], f"{path}: scidac-file-xml")
    pj = fx.find("propagator_json") if fx.tag == "gluon" else None
    if pj is None or not (pj.text or "").strip():
        raise FormatError(f"{path}: scidac-file-xml has no <gluon><propagator_json>")
    run_json = json.loads(pj.text)

    # message 2: private record XML (datatype, precision, colors, spins, typesize, datacount)
    pr = parse_xml(rec["scidac-private-record-xml"]["payload"], f"{path}: scidac-private-record-xml")
    datatype = xml_field(pr, "datatype", path)
    mt = re.fullmatch(r"QDP_([DF])3_(DiracPropagator|ColorMatrix)", datatype)
    if not mt:
        raise FormatError(f"{path}: datatype {datatype}: expected QDP_D3/F3_DiracPropagator or ColorMatrix")
    letter, kind = mt.groups()
    bits = 64 if letter == "D" else 32
    nspin = 4 if kind == "DiracPropagator" else 1
    ncomplex = (nspin * 3) ** 2
    want = {"precision": letter, "colors": "3", "typesize": str(ncomplex * 2 * bits // 8),
            "datacount": "1"}
    if nspin == 4:
        want["spins"] = "4"
    for key, value in want.items():
        found = xml_field(pr, key, f"{path}: scidac-private-record-xml")
        if found != value:
            raise FormatError(f"{path}: <{key}>: expected {value} for {datatype}, found {found}")
    # For a ColorMatrix the docs do not say what <spins> holds; Chroma/QDP++ write 1 (see the
    # testdata weak_field.lime), MILC's QIO 1.0 files omit it: accept those two.
    spins_el = pr.find("spins")
    spins = spins_el.text.strip() if spins_el is not None and spins_el.text else None
    if nspin == 1 and spins not in (None, "1"):
        raise FormatError(f"{path}: <spins> {spins} for {datatype} (expected 1 or absent)")
    typesize = int(want["typesize"])
    checks.append(f"{datatype} precision {letter} colors 3 spins {spins} typesize {typesize} datacount 1")

    # binary data: big endian, sites x fastest
    data = rec["scidac-binary-data"]["payload"]
    if len(data) != V * typesize:
        raise FormatError(f"{path}: scidac-binary-data: expected {V * typesize} bytes "
                          f"({X}x{Y}x{Z}x{T} x {typesize}), found {len(data)}")

    # checksum
    ck = parse_xml(rec["scidac-checksum"]["payload"], f"{path}: scidac-checksum")
    suma_file = int(xml_field(ck, "suma", path), 16)
    sumb_file = int(xml_field(ck, "sumb", path), 16)
    suma, sumb = scidac_checksum(data, typesize)
    if (suma, sumb) != (suma_file, sumb_file):
        raise FormatError(f"{path}: scidac-checksum suma/sumb: expected {suma_file:08x}/{sumb_file:08x}, "
                          f"computed {suma:08x}/{sumb:08x}")
    checks.append(f"suma/sumb {suma:08x}/{sumb:08x}")

    vals = np.frombuffer(data, dtype=">f8" if bits == 64 else ">f4").astype(np.float64)
    c = vals[0::2] + 1j * vals[1::2]
    if nspin == 4:
        # per site [spin_sink][spin_source][colour_sink][colour_source]
        c = c.reshape(T, Z, Y, X, 4, 4, 3, 3).transpose(0, 1, 2, 3, 4, 6, 5, 7)
        S = np.ascontiguousarray(c).reshape(T, Z, Y, X, 12, 12)
    else:
        S = c.reshape(T, Z, Y, X, 3, 3)   # [colour_sink][colour_source]
    record_xml = rec["scidac-record-xml"]["payload"].rstrip(b"\0").decode("utf-8", "replace")
    meta = {"dims": dims, "datatype": datatype, "bits": bits, "nspin": nspin, "json": run_json,
            "record_xml": record_xml, "checks": checks, "suma": suma, "sumb": sumb}
    return S, meta


def check_checksum_on_qio_file(testdata):
    """Our CRC-32 / rotation reading of the docs, on a SciDAC file written by QIO (MILC):
    lat.sample.l4444.scidac, QDP_F3_ColorMatrix, datacount 4 (288 bytes a site)."""
    path = os.path.join(testdata, "gauge", "lat.sample.l4444.scidac")
    if not os.path.exists(path):
        return "lat.sample.l4444.scidac absent: checksum reading not checked on a QIO file"
    rec = {r["type"]: r for r in read_lime(path)}
    ck = parse_xml(rec["scidac-checksum"]["payload"], path)
    want = (int(xml_field(ck, "suma", path), 16), int(xml_field(ck, "sumb", path), 16))
    got = scidac_checksum(rec["scidac-binary-data"]["payload"], 4 * 18 * 4)
    if got != want:
        raise FormatError(f"{path}: our suma/sumb {got[0]:08x}/{got[1]:08x} != QIO's {want[0]:08x}/{want[1]:08x}")
    return f"suma/sumb {got[0]:08x}/{got[1]:08x} of QIO's lat.sample.l4444.scidac reproduced"


def reader_rejects_damage(path, tmpdir):
    """The reader must refuse a copy of a good file with one data byte changed (checksum) and a
    truncated copy (lengths checked against the file size)."""
    raw = open(path, "rb").read()
    data_rec = next(r for r in read_lime(path) if r["type"] == "scidac-binary-data")
    flip = data_rec["offset"] + LIME_HEADER_BYTES + data_rec["length"] // 2
    damaged = {"one data byte changed": raw[:flip] + bytes([raw[flip] ^ 0x10]) + raw[flip + 1:],
               "truncated": raw[:flip]}
    said = []
    for what, content in damaged.items():
        bad = os.path.join(tmpdir, "damaged.lime")
        with open(bad, "wb") as f:
            f.write(content)
        try:
            read_scidac_propagator(bad)
        except FormatError as e:
            said.append(f"{what}: refused ({str(e).split(': ', 1)[1][:60]}...)")
            continue
        raise FormatError(f"reader accepted a damaged copy of {os.path.basename(path)} ({what})")
    return "; ".join(said)


def prop_rel_diff(a, b):
    """max |a - b| / max |b| over every element."""
    return float(np.max(np.abs(a - b)) / np.max(np.abs(b)))


def check_propagator_file(path, bits, case, dims, S_ours, want_norm, ours_corr, gluon_json):
    """Read gluon's file, compare every element with ours and the metadata with the docs.
    Returns (relative difference or None, meta or None, failures, S_file or None)."""
    fails = []
    try:
        S_file, meta = read_scidac_propagator(path)
    except (FormatError, OSError, ValueError) as e:
        return None, None, [f"{bits}-bit propagator file: {type(e).__name__}: {e}"], None
    op = case["operator"]
    nspin_want = 4 if op in ("wilson", "clover") else 1
    dt_want = f"QDP_{'D' if bits == 64 else 'F'}3_" + ("DiracPropagator" if nspin_want == 4 else "ColorMatrix")
    if meta["datatype"] != dt_want:
        fails.append(f"{bits}-bit file: datatype {meta['datatype']}, docs say {dt_want}")
    if meta["dims"] != tuple(dims):
        fails.append(f"{bits}-bit file: <dims> {meta['dims']}, lattice {tuple(dims)}")
    if S_file.shape != S_ours.shape:
        return None, meta, fails + [f"{bits}-bit file: shape {S_file.shape} vs ours {S_ours.shape}"], None
    d = prop_rel_diff(S_file, S_ours)
    if d > PROP_TOL[bits]:
        fails.append(f"{bits}-bit propagator: max |S_file - S_ours| / max |S_ours| = {d:.2e} > {PROP_TOL[bits]:g}")

    # the JSON in scidac-file-xml: names the normalisation (with kappa and, for mass, mass)
    j = meta["json"]
    expect = {"lattice": list(dims), "operator": op, "normalization": want_norm}
    if op in ("wilson", "clover"):
        expect["kappa"] = case["kappa"] if "mass" not in case else 1.0 / (2.0 * (4.0 + case["mass"]))
    if "mass" in case:
        expect["mass"] = case["mass"]
    if "csw" in case:
        expect["csw"] = case["csw"]
    for key, value in expect.items():
        if key not in j:
            fails.append(f"{bits}-bit file JSON: {key} missing")
        elif isinstance(value, float) and abs(j[key] - value) > 1e-15 * abs(value):
            fails.append(f"{bits}-bit file JSON: {key} = {j[key]!r}, expected {value!r}")
        elif not isinstance(value, float) and j[key] != value:
            fails.append(f"{bits}-bit file JSON: {key} = {j[key]!r}, expected {value!r}")
    for key in ("kappa", "mass", "csw"):
        if key in j and key not in expect:
            fails.append(f"{bits}-bit file JSON: {key} present, not documented for this run")
    src = j.get("source", {})
    want_src = {"type": case.get("source_type", "point"), "position": list(case.get("source", (0, 0, 0, 0)))}
    if case.get("source_type", "point") != "point":
        want_src["seed"] = case["seed"]
    for key, value in want_src.items():
        if src.get(key) != value:
            fails.append(f"{bits}-bit file JSON: source.{key} = {src.get(key)!r}, expected {value!r}")
    # its correlators: the run's, so identical to the stdout JSON of the same run (64 bit), and
    # equal to ours to CORR_TOL (both runs)
    corr = j.get("correlators", {})
    for name, c in ours_corr.items():
        g = np.array(corr.get(name, []), dtype=float)
        if g.shape != c.shape or np.max(np.abs(g - c)) / np.max(np.abs(c)) > CORR_TOL:
            fails.append(f"{bits}-bit file JSON: correlators.{name} differ from ours")
        if gluon_json is not None and corr.get(name) != gluon_json["correlators"].get(name):
            fails.append(f"{bits}-bit file JSON: correlators.{name} not those printed by the same run")
    if gluon_json is not None:
        missing = sorted(set(gluon_json) - set(j) - {"saved_propagator"})
        meta["json_missing"] = missing    # reported, not a failure (see the report)
    return d, meta, fails, S_file


# ----------------------------------------------------------------------------------------------
# Self-test: conventions the zero-momentum correlators cannot see, but the propagator does.
# ----------------------------------------------------------------------------------------------

def wilson_hop_variant(Ub, psi, sign, gammas):
    """sum_mu (1 + sign g_mu) U_mu(x) psi(x+mu) + (1 - sign g_mu) U_mu(x-mu)^+ psi(x-mu), with
    any 4 gamma matrices: sign = -1 and GAMMA is the documented operator."""
    out = np.zeros_like(psi)
    for mu in range(4):
        u = Ub[mu][..., None, :, :]
        f = u @ fwd(psi, mu)
        b = bwd(dag(u) @ psi, mu)
        gf = np.einsum("st,...tcn->...scn", gammas[mu], f)
        gb = np.einsum("st,...tcn->...scn", gammas[mu], b)
        out += f + sign * gf + b - sign * gb
    return out


def reinterpret_layout(S, written):
    """What a reader following the docs gets if the writer had used another per-site order.
    written: "s c s0 c0" (a 12x12 row-major matrix) or "s0 c0 s c" (sink and source swapped)."""
    sh = S.shape[:4]
    m = S.reshape(sh + (4, 3, 4, 3))        # [s, c, s0, c0]
    if written == "s c s0 c0":
        flat = m
    else:
        flat = m.transpose(0, 1, 2, 3, 6, 7, 4, 5)   # [s0, c0, s, c]
    # read back as documented: [s][s0][c][c0]
    r = np.ascontiguousarray(flat).reshape(sh + (4, 4, 3, 3)).transpose(0, 1, 2, 3, 4, 6, 5, 7)
    return np.ascontiguousarray(r).reshape(sh + (12, 12))


def convention_sensitivity(U, dims, S_doc, S_file):
    """Case a)'s operator (Wilson, kappa 0.12, point source at the origin) with the documented
    conventions and with conventions the zero-momentum pion and rho do not distinguish."""
    X, Y, Z, T = dims
    kappa = 0.12
    Ub = links_with_boundary(U, (1, 1, 1, -1))
    b = make_source(dims, 4, (0, 0, 0, 0), "point", 1)
    rng = np.random.default_rng(54321)
    swapped = [GAMMA[1], GAMMA[0], GAMMA[2], GAMMA[3]]
    variants = [("documented (1 - g_mu) fwd, (1 + g_mu) bwd [sanity]", -1, GAMMA),
                ("projectors flipped: (1 + g_mu) fwd, (1 - g_mu) bwd", +1, GAMMA),
                ("g_x <-> g_y swapped", -1, swapped),
                ("both", +1, swapped)]
    rows = []
    c_pion, c_rho = pion(S_doc, 0), rho(S_doc, 0)
    for name, sign, gammas in variants:
        M = lambda psi, s=sign, g=gammas: psi - kappa * wilson_hop_variant(Ub, psi, s, g)
        x, _, _ = solve(M, b, lambda r, tol, M=M: bicgstab(M, r, tol, 2000, rng))
        S = x.reshape(T, Z, Y, X, 12, 12)
        rows.append((name, prop_rel_diff(S, S_doc),
                     prop_rel_diff(S, S_file) if S_file is not None else None,
                     float(np.max(np.abs(pion(S, 0) - c_pion)) / np.max(np.abs(c_pion))),
                     float(np.max(np.abs(rho(S, 0) - c_rho)) / np.max(np.abs(c_rho)))))
    for written in ("s c s0 c0", "s0 c0 s c"):
        S = reinterpret_layout(S_doc, written)
        rows.append((f"file written [{written}], read as documented", prop_rel_diff(S, S_doc),
                     None, None, None))
    return rows


# ----------------------------------------------------------------------------------------------
# The cases.
# ----------------------------------------------------------------------------------------------

DEFAULT_BOUNDARY = (1, 1, 1, -1)   # cli.md / conventions.md: default antiperiodic in t only


def our_operator(case, U, dims, boundary, links=None, long_mode="crossing"):
    """The case's operator and source: (M, b, solve), solve(M, b) -> x.  links: (fat, long) for
    improved staggered; long_mode: see long_links_with_boundary (not "crossing" in controls only)."""
    op = case["operator"]
    src = case.get("source", (0, 0, 0, 0))
    stype = case.get("source_type", "point")
    seed = case.get("seed", 1)
    if op in ("wilson", "clover"):
        if "mass" in case:
            M = make_wilson(U, boundary, None, mass_form=case["mass"])
        else:
            M = make_wilson(U, boundary, case["kappa"], csw=case.get("csw") if op == "clover" else None)
        b = make_source(dims, 4, src, stype, seed)
        rng = np.random.default_rng(12345)
        return M, b, lambda M, b: solve(M, b, lambda r, tol: bicgstab(M, r, tol, 2000, rng))
    # naive or improved staggered, M = m + D; D anti-Hermitian so M M^+ = m^2 - D^2 (also for
    # non-unitary fat/long links: the hop pairs are X and -X^+)
    m = case["mass"]
    if op == "staggered":
        D = make_staggered_D(U, boundary, dims)
    else:
        D = make_improved_staggered_D(links[0], links[1], boundary, dims, long_mode)
    M = lambda psi: m * psi + D(psi)
    b = make_source(dims, 1, src, stype, seed)

    def cgne(r, tol):  # M M^+ y = r, x = M^+ y = (m - D) y; its residual is that of M x = r
        y, it = cg(lambda p: m * m * p - D(D(p)), r, tol, 5000)
        return m * y - D(y), it
    return M, b, lambda M, b: solve(M, b, cgne)


def our_propagator(case, U, dims, boundary, links=None):
    """Our solve of the case's operator.  Returns (S, correlators, iterations, final relative
    residual); S is (T, Z, Y, X, 12, 12) for Wilson/clover, (T, Z, Y, X, 3, 3) for staggered."""
    X, Y, Z, T = dims
    t0 = case.get("source", (0, 0, 0, 0))[3]
    M, b, solver = our_operator(case, U, dims, boundary, links)
    x, iters, res = solver(M, b)
    if case["operator"] in ("wilson", "clover"):
        S = x.reshape(T, Z, Y, X, 12, 12)         # [.., sink spin*3+colour, source column]
        return S, {"pion": pion(S, t0), "rho": rho(S, t0)}, iters, res
    G = x.reshape(T, Z, Y, X, 3, 3)
    return G, {"pion": pion(G, t0)}, iters, res


def residual_of(M, b, S):
    """max over columns of |b - M S| / |b|, S a propagator as stored (rows = sink)."""
    x = S.reshape(b.shape)
    return float(np.max(cnorm(b - M(x)) / cnorm(b)))


def reunitarize(V):
    """conventions.md, "Gauge links": normalise row 0, Gram-Schmidt row 1, row 2 = conj(row0 x row1)."""
    r0 = V[..., 0, :] / np.linalg.norm(V[..., 0, :], axis=-1, keepdims=True)
    r1 = V[..., 1, :] - np.sum(np.conj(r0) * V[..., 1, :], axis=-1, keepdims=True) * r0
    r1 = r1 / np.linalg.norm(r1, axis=-1, keepdims=True)
    return np.stack([r0, r1, np.conj(np.cross(r0, r1))], axis=-2)


def run_case(case, args, gauge_cache, tmpdir, done):
    """done: tag -> earlier result (a case with "reuse" compares gluon's run with other flags
    against that case's numpy propagator and correlators)."""
    path = os.path.join(args.testdata, "gauge", case["gauge"])
    if path not in gauge_cache:
        gauge_cache[path] = read_nersc(path)
    U, dims, info = gauge_cache[path]
    op = case["operator"]
    src = case.get("source", (0, 0, 0, 0))
    stype = case.get("source_type", "point")
    seed = case.get("seed", 1)
    boundary = tuple(case.get("boundary", DEFAULT_BOUNDARY))
    tag = case["name"].split(")")[0]

    links, link_files, link_info = None, None, None
    if op == "improved-staggered":
        if case.get("links") == "files":
            # our own non-unitary links, written with our own NERSC writer
            links = smeared_like_links(U, case.get("link_seed", 2026))
            link_files = [os.path.join(tmpdir, f"{tag}_{kind}.nersc") for kind in ("fat", "long")]
            link_info = [write_nersc(f, l, dims) for f, l in zip(link_files, links)]
        else:
            links = naik_links(U, boundary)

    t_start = time.time()
    if "S_ours" in done.get(case.get("reuse"), {}):   # (with --only, the case solves itself)
        prev = done[case["reuse"]]
        S_ours, ours, iters, res = prev["S_ours"], prev["ours"], 0, prev["res"]
    else:
        S_ours, ours, iters, res = our_propagator(case, U, dims, boundary, links)
    t_ours = time.time() - t_start

    field = ["--fat-links", link_files[0], "--long-links", link_files[1]] if link_files else ["--gauge", path]
    cmd = [args.gluon, "solve"] + field + ["--operator", op, "--json", "--backend", BACKEND,
                                           "--quiet", "--tol", "1e-12", "--source", ",".join(map(str, src))]
    if "kappa" in case:
        cmd += ["--kappa", repr(case["kappa"])]
    if "mass" in case:
        cmd += ["--mass", repr(case["mass"])]
    if "csw" in case:
        cmd += ["--csw", repr(case["csw"])]
    if stype != "point":
        cmd += ["--source-type", stype, "--source-seed", str(seed)]
    if "boundary" in case:
        cmd += ["--boundary", ",".join(str(int(v)) for v in boundary)]
    cmd += case.get("flags", [])
    prop_path = {bits: os.path.join(tmpdir, f"prop_{tag}_{bits}.lime") for bits in (64, 32)}
    cmd += ["--save-propagator", prop_path[64], "--propagator-precision", "64"]
    t_start = time.time()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    t_gluon = time.time() - t_start
    if proc.returncode != 0:
        raise RuntimeError(f"gluon failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr}")
    out = json.loads(proc.stdout)

    result = {"name": case["name"], "ours_s": t_ours, "gluon_s": t_gluon, "iters": iters,
              "res": res, "failures": [], "diffs": {}, "cmd": " ".join(cmd), "prop": {},
              "prop_meta": {}, "link_info": link_info, "controls": []}
    # cli.md: top-level `normalization` is "kappa" or "mass"; Wilson/clover given --mass and
    # staggered are in the mass normalisation (conventions.md, "Dirac operators").
    want_norm = "mass" if "mass" in case else "kappa"
    corr = out["correlators"]
    # cli.md's JSON keys `boundary`, `even_odd`, `clover_pc` (their forms are not documented: we
    # accept numbers or a "x,y,z,t" string, a boolean, the flag's word)
    want_keys = {"boundary": list(boundary), "even_odd": "--no-even-odd" not in case.get("flags", [])}
    if op == "clover":
        fl = case.get("flags", [])
        want_keys["clover_pc"] = fl[fl.index("--clover-pc") + 1] if "--clover-pc" in fl else "asymmetric"
    for key, want in want_keys.items():
        got = out.get(key)
        if key == "boundary" and isinstance(got, str):
            got = [float(v) for v in got.split(",")]
        if got is None or (key == "boundary" and [float(v) for v in got] != [float(v) for v in want]) \
                or (key != "boundary" and got != want):
            result["failures"].append(f"JSON {key}: gluon {out.get(key)!r}, the run asked for {want!r}")
    # The JSON names the backend that ran (cli.md `backend`): a run asked for cuda must not have
    # fallen back to the CPU.
    if out.get("backend") != BACKEND:
        result["failures"].append(f"JSON backend: gluon ran on {out.get('backend')!r}, asked for {BACKEND!r}")
    if out.get("normalization") != want_norm:
        result["failures"].append(f"normalization: gluon says {out.get('normalization')!r}, "
                                  f"docs say {want_norm!r}")
    # correlators.normalization is a sentence (cli.md does not give its form): check its gist
    cn = str(corr.get("normalization", ""))
    if not cn.startswith({"kappa": "hopping", "mass": "mass"}[want_norm]):
        result["failures"].append(f"correlators.normalization {cn!r} does not name the {want_norm} normalisation")
    if corr.get("t0", src[3]) != src[3]:
        result["failures"].append(f"t0: gluon {corr.get('t0')}, ours {src[3]}")
    for name, c in ours.items():
        if name not in corr:
            result["failures"].append(f"{name}: missing from gluon's JSON")
            continue
        g = np.array(corr[name], dtype=float)
        if g.shape != c.shape:
            result["failures"].append(f"{name}: length {g.shape} vs ours {c.shape}")
            continue
        scale = np.max(np.abs(c))
        d = np.abs(g - c) / scale
        result["diffs"][name] = float(d.max())
        for t in np.nonzero(d > CORR_TOL)[0]:
            result["failures"].append(f"{name} t'={t}: gluon {g[t]:.15e} ours {c[t]:.15e} "
                                      f"(rel diff {d[t]:.2e})")
    for name in corr:
        if name not in ours and isinstance(corr[name], list):
            result["failures"].append(f"{name}: in gluon's JSON, not defined for this operator by the docs")
    if link_files:
        # gluon verified the header values we wrote (not merely ignored them): a copy with one
        # value changed must be refused, naming that key (file-formats.md, "NERSC")
        for which, key, change in ((0, "PLAQUETTE", lambda v: f"{float(v) * (1 + 1e-4):.17g}"),
                                   (1, "LINK_TRACE", lambda v: f"{float(v) * (1 + 1e-4):.17g}"),
                                   (1, "CHECKSUM", lambda v: f"{(int(v, 16) + 1) & MASK32:08x}")):
            raw = open(link_files[which], "rb").read()
            m = re.search((key + r" = ([^\n]*)").encode(), raw)
            bad = os.path.join(tmpdir, "bad_links.nersc")
            with open(bad, "wb") as f:
                f.write(raw[:m.start(1)] + change(m.group(1).decode()).encode() + raw[m.end(1):])
            files = [bad, link_files[1]] if which == 0 else [link_files[0], bad]
            pb = subprocess.run([args.gluon, "solve", "--fat-links", files[0], "--long-links", files[1],
                                 "--operator", op, "--backend", BACKEND, "--quiet"], capture_output=True, text=True)
            said = pb.stderr.strip().splitlines()[-1].replace(bad, "COPY") if pb.stderr.strip() else ""
            result.setdefault("refusals", []).append(
                f"{('fat', 'long')[which]} file with {key} changed: exit {pb.returncode}, {said[:110]!r}")
            if pb.returncode != 1 or key not in said:
                result["failures"].append(f"gluon did not refuse a {('fat', 'long')[which]} link file with a "
                                          f"wrong {key} (exit {pb.returncode}: {said!r})")
        # cli.md: with --fat-links "JSON then has no `plaquette`"
        result["plaq"] = (None, out.get("plaquette"), None)
        if "plaquette" in out:
            result["failures"].append(f"plaquette {out['plaquette']!r} in the JSON of a --fat-links run (cli.md: none)")
    elif "plaquette" in out:
        dp = abs(out["plaquette"] - info["plaquette"])
        result["plaq"] = (info["plaquette"], out["plaquette"], dp)
        if dp > PLAQ_TOL:
            result["failures"].append(f"plaquette: gluon {out['plaquette']!r} ours {info['plaquette']!r}")
    else:
        result["plaq"] = (info["plaquette"], None, None)

    # The propagator files (docs/file-formats.md, "Propagators"): the 64-bit one from the run
    # above, then the same solve written at 32 bits.
    cmd32 = cmd[:-4] + ["--save-propagator", prop_path[32], "--propagator-precision", "32"]
    t_start = time.time()
    proc32 = subprocess.run(cmd32, capture_output=True, text=True)
    result["gluon_s"] += time.time() - t_start
    if proc32.returncode != 0:
        result["failures"].append(f"gluon (32-bit propagator) failed ({proc32.returncode}): {proc32.stderr.strip()}")
    for bits in (64, 32):
        if bits == 32 and proc32.returncode != 0:
            continue
        d, meta, fails, S_file = check_propagator_file(prop_path[bits], bits, case, dims, S_ours, want_norm,
                                               ours, out if bits == 64 else None)
        result["prop"][bits] = d
        result["prop_meta"][bits] = meta
        result["failures"] += fails
        if bits == 64:
            result["S_file"] = S_file
    result["S_ours"] = S_ours
    result["ours"] = ours

    # gluon's 64-bit propagator must solve OUR operator's equation (|b - M S_file| / |b| small:
    # one application of M), and must NOT solve the equation of each control variant (a wrong
    # boundary direction, a three-hop phase applied as on a one-hop link, re-unitarised or
    # rescaled link files, ...): this pins what the element-wise comparison pins, at the cost of
    # one operator application each, and shows by how much each alternative is excluded.
    S_file = result.get("S_file")
    if S_file is not None:
        t_start = time.time()
        M, b, _ = our_operator(case, U, dims, boundary, links)
        result["file_res"] = residual_of(M, b, S_file)
        if result["file_res"] > FILE_RES_TOL:
            result["failures"].append(f"gluon's 64-bit propagator leaves |b - M S| / |b| = "
                                      f"{result['file_res']:.2e} in our operator (> {FILE_RES_TOL:g})")
        for label, spec in case.get("controls", []):
            cl = spec["links"](links) if "links" in spec else links
            Mc, bc, _ = our_operator(case, U, dims, tuple(spec.get("boundary", boundary)), cl,
                                     spec.get("long_mode", "crossing"))
            r = residual_of(Mc, bc, S_file)
            good = r >= SENS_MIN
            result["controls"].append((label, r, good))
            if not good:
                result["failures"].append(f"control '{label}': gluon's propagator solves it too "
                                          f"(residual {r:.2e} < {SENS_MIN:g})")
        result["ours_s"] += time.time() - t_start
    return result, ours, out


CASES = [
    {"name": "a) wilson 4^4 t_nersc k=0.12 src 0000",
     "gauge": "t_nersc.cfg", "operator": "wilson", "kappa": 0.12, "source": (0, 0, 0, 0)},
    {"name": "b) clover 8^4 l8888 k=0.13 csw=1 src 1234",
     "gauge": "lat.sample.l8888.nersc", "operator": "clover", "kappa": 0.13, "csw": 1.0,
     "source": (1, 2, 3, 4)},
    {"name": "c) wilson mass form 4^4 m=0.1 src 0000",
     "gauge": "t_nersc.cfg", "operator": "wilson", "mass": 0.1, "source": (0, 0, 0, 0)},
    {"name": "d1) staggered 8^4 l8888 m=0.1 src 0000",
     "gauge": "lat.sample.l8888.nersc", "operator": "staggered", "mass": 0.1, "source": (0, 0, 0, 0)},
    {"name": "d2) staggered 8^4 l8888 m=0.1 src 1235 (odd)",
     "gauge": "lat.sample.l8888.nersc", "operator": "staggered", "mass": 0.1, "source": (1, 2, 3, 5)},
    {"name": "e1) wilson z2-wall 4^4 k=0.12 t0=1 seed 7",
     "gauge": "t_nersc.cfg", "operator": "wilson", "kappa": 0.12, "source": (0, 0, 0, 1),
     "source_type": "z2-wall", "seed": 7},
    {"name": "e2) staggered z2-wall 4^4 m=0.1 t0=3 seed 2^32+5",
     "gauge": "t_nersc.cfg", "operator": "staggered", "mass": 0.1, "source": (0, 0, 0, 3),
     "source_type": "z2-wall", "seed": (1 << 32) + 5},
    {"name": "f1) improved stag. from gauge 8^4 m=0.1 src 1235",
     "gauge": "lat.sample.l8888.nersc", "operator": "improved-staggered", "mass": 0.1,
     "source": (1, 2, 3, 5),
     "controls": [("three-hop term without boundary phase", {"long_mode": "none"}),
                  ("three-hop phase on L_t(x_t = T-1) only, as on a one-hop link", {"long_mode": "last-slice"}),
                  ("Naik term of the other sign (+1/24 U U U)", {"links": lambda l: (l[0], -l[1])})]},
    {"name": "f2) improved stag. our fat/long files 8^4 m=0.1",
     "gauge": "lat.sample.l8888.nersc", "operator": "improved-staggered", "mass": 0.1,
     "source": (2, 5, 0, 7), "links": "files", "link_seed": 2026,
     "controls": [("fat and long links re-unitarised", {"links": lambda l: (reunitarize(l[0]), reunitarize(l[1]))}),
                  ("coefficients applied again (9/8 fat, -1/24 long)", {"links": lambda l: (9 / 8 * l[0], -l[1] / 24)}),
                  ("links read column-major (transposed)", {"links": lambda l: (np.swapaxes(l[0], -1, -2),
                                                                               np.swapaxes(l[1], -1, -2))}),
                  ("three-hop term without boundary phase", {"long_mode": "none"})]},
    {"name": "g1) wilson 4^4 k=0.12 boundary -1,1,1,1 src 1023",
     "gauge": "t_nersc.cfg", "operator": "wilson", "kappa": 0.12, "source": (1, 0, 2, 3),
     "boundary": (-1, 1, 1, 1),
     "controls": [("boundary 1,1,1,-1 (the default; also -1,1,1,1 read as t,z,y,x)", {"boundary": (1, 1, 1, -1)}),
                  ("boundary 1,-1,1,1 (the phase on y)", {"boundary": (1, -1, 1, 1)})]},
    {"name": "g2) staggered 4^4 m=0.1 boundary 1,1,1,1 src 1002",
     "gauge": "t_nersc.cfg", "operator": "staggered", "mass": 0.1, "source": (1, 0, 0, 2),
     "boundary": (1, 1, 1, 1),
     "controls": [("boundary 1,1,1,-1 (the default)", {"boundary": (1, 1, 1, -1)})]},
    {"name": "h1) b) with --clover-pc symmetric",
     "gauge": "lat.sample.l8888.nersc", "operator": "clover", "kappa": 0.13, "csw": 1.0,
     "source": (1, 2, 3, 4), "flags": ["--clover-pc", "symmetric"], "reuse": "b"},
    {"name": "h2) a) with --no-even-odd",
     "gauge": "t_nersc.cfg", "operator": "wilson", "kappa": 0.12, "source": (0, 0, 0, 0),
     "flags": ["--no-even-odd"], "reuse": "a"},
]


def print_link_files(results):
    for r in results:
        for kind, li in zip(("fat", "long"), r.get("link_info") or []):
            print(f"link file {r['name'].split(')')[0]}) {kind} (our NERSC writer, 4D_SU3_GAUGE_3x3 IEEE64BIG): "
                  f"CHECKSUM {li['checksum']} PLAQUETTE {li['plaquette']:.12g} LINK_TRACE {li['link_trace']:.12g}; "
                  f"max |U U^+ - 1| + |det U - 1| = {li['unitarity']:.3g}; our reader verified " + "; ".join(li["checks"]))


def main():
    repo = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gluon", default=os.path.join(repo, "build", "bin", "gluon"),
                    help="the gluon executable (default: <repo>/build/bin/gluon)")
    ap.add_argument("--testdata", default=os.environ.get("GLUON_TESTDATA") or
                    os.path.normpath(os.path.join(repo, "..", "shared", "testdata")),
                    help="test data directory (default: $GLUON_TESTDATA, else <repo>/../shared/testdata)")
    ap.add_argument("--only", help="run only the cases whose name starts with this")
    ap.add_argument("--verbose", action="store_true", help="print both correlators for every case")
    args = ap.parse_args()
    if not os.path.isdir(os.path.join(args.testdata, "gauge")):
        print(f"error: {args.testdata}/gauge not found", file=sys.stderr)
        return 2
    if not os.access(args.gluon, os.X_OK):
        print(f"error: {args.gluon} is not executable", file=sys.stderr)
        return 2

    t_all = time.time()
    cache = {}
    results = []
    done = {}
    ok = True
    try:
        qio_check = check_checksum_on_qio_file(args.testdata)
    except (FormatError, OSError) as e:
        qio_check = f"FAIL: {e}"
        ok = False
    with tempfile.TemporaryDirectory(prefix="gluon-crosscheck-") as tmpdir:
        for case in CASES:
            if args.only and not case["name"].startswith(args.only):
                continue
            try:
                r, ours, out = run_case(case, args, cache, tmpdir, done)
                done[case["name"].split(")")[0]] = r
            except Exception as e:  # a reader or solver failure is a failed case, not a crash
                r = {"name": case["name"], "failures": [f"{type(e).__name__}: {e}"], "diffs": {},
                     "plaq": (None, None, None), "ours_s": 0, "gluon_s": 0, "iters": 0, "res": None,
                     "prop": {}, "prop_meta": {}}
                ours, out = {}, {}
            results.append(r)
            if args.verbose and ours:
                for name, c in ours.items():
                    g = out["correlators"].get(name, [])
                    print(f"# {r['name']} {name}")
                    for t, v in enumerate(c):
                        print(f"  {t:3d} {v: .15e} {g[t] if t < len(g) else float('nan'): .15e}")
        good_file = next((os.path.join(tmpdir, f) for f in sorted(os.listdir(tmpdir))
                          if f.endswith("_64.lime")), None)
        damage_check = "no propagator file to damage"
        if good_file is not None:
            try:
                damage_check = reader_rejects_damage(good_file, tmpdir)
            except (FormatError, OSError) as e:
                damage_check = f"FAIL: {e}"
                ok = False

    # Self-test on case a)'s gauge field: conventions the zero-momentum correlators cannot see.
    sens = None
    ra = next((r for r in results if r["name"].startswith("a)") and "S_ours" in r), None)
    if ra is not None:
        U, dims, _ = cache[os.path.join(args.testdata, "gauge", CASES[0]["gauge"])]
        t_start = time.time()
        sens = convention_sensitivity(U, dims, ra["S_ours"], ra.get("S_file"))
        t_sens = time.time() - t_start

    for path, (_, dims, info) in cache.items():
        print(f"read {os.path.basename(path)}: {dims[0]}x{dims[1]}x{dims[2]}x{dims[3]} "
              f"{info['format']}; verified " + "; ".join(info["checks"]))
    print(f"checksum reading: {qio_check}")
    print(f"damaged propagator files: {damage_check}")
    for r in results:
        for bits, meta in sorted(r.get("prop_meta", {}).items(), reverse=True):
            if meta is None:
                continue
            j = meta["json"]
            names = ", ".join(f"{k} {j[k]}" for k in ("normalization", "kappa", "mass", "csw") if k in j)
            print(f"propagator {r['name'].split(')')[0]}) {bits}-bit: {'x'.join(map(str, meta['dims']))}; "
                  + "; ".join(meta["checks"][1:]) + f"; JSON {names}"
                  + (f"; JSON lacks {meta['json_missing']} of the printed JSON" if meta.get("json_missing") else ""))
    print_link_files(results)
    print()
    hdr = (f"{'case':48s} {'pion':>9s} {'rho':>9s} {'prop64':>9s} {'prop32':>9s} {'plaq diff':>9s} "
           f"{'our res':>8s} {'ours s':>6s} {'gluon s':>7s}  result")
    print(hdr)
    print("-" * len(hdr))
    for r in results:
        pd = r["diffs"].get("pion")
        rd = r["diffs"].get("rho")
        pl = r["plaq"][2]
        fmt = lambda v: f"{v:9.2e}" if v is not None else f"{'-':>9s}"
        status = "PASS" if not r["failures"] else "FAIL"
        ok &= not r["failures"]
        res = f"{r['res']:8.1e}" if r["res"] is not None else f"{'-':>8s}"
        print(f"{r['name']:48s} {fmt(pd)} {fmt(rd)} {fmt(r['prop'].get(64))} {fmt(r['prop'].get(32))} "
              f"{fmt(pl)} {res} {r['ours_s']:6.1f} {r['gluon_s']:7.2f}  {status}")
        for f in r["failures"]:
            print(f"    {r['name']}: {f}")
        for line in r.get("refusals", []):
            print(f"    refused: {line}")
        if "file_res" in r:
            print(f"    gluon's 64-bit propagator in our operator: |b - M S| / |b| = {r['file_res']:.2e}")
        for label, res_c, good in r.get("controls", []):
            print(f"    control, {label}: |b - M' S| / |b| = {res_c:.2e}  {'PASS' if good else 'FAIL'}")

    if sens is not None:
        print(f"\nconvention sensitivity (case a's operator, our solves; {t_sens:.1f} s): relative change "
              f"of the propagator (max |dS| / max |S|) and of the correlators")
        hdr = f"{'variant':56s} {'S vs ours':>9s} {'S vs file':>9s} {'pion':>9s} {'rho':>9s}  result"
        print(hdr)
        print("-" * len(hdr))
        for i, (name, d_ours, d_file, dp, dr) in enumerate(sens):
            fmt = lambda v: f"{v:9.2e}" if v is not None else f"{'-':>9s}"
            if i == 0:   # the documented operator through the variant code: must reproduce ours
                good = d_ours <= PROP_TOL[64] and (d_file is None or d_file <= PROP_TOL[64])
            else:        # a flip must be seen by the propagator comparison, far above threshold
                good = d_ours >= SENS_MIN and (d_file is None or d_file >= SENS_MIN)
            ok &= good
            print(f"{name:56s} {fmt(d_ours)} {fmt(d_file)} {fmt(dp)} {fmt(dr)}  {'PASS' if good else 'FAIL'}")
        print(f"(a flip passes if it moves S by >= {SENS_MIN:g}, i.e. >= {SENS_MIN / PROP_TOL[64]:.0e} times the "
              f"64-bit threshold; pion/rho columns show the correlators do not see it)")
    elif not args.only:
        print("\nconvention sensitivity: not run (case a) missing)")
        ok = False

    print(f"\ncorrelator threshold {CORR_TOL:g} (relative to max_t |C|); propagator thresholds "
          f"{PROP_TOL[64]:g} (64-bit file), {PROP_TOL[32]:g} (32-bit) relative to max |S|; "
          f"total {time.time() - t_all:.1f} s; gluon solve --backend {BACKEND} (GLUON_CROSSCHECK_BACKEND), "
          f"every run's JSON naming that backend")
    print("ALL PASS" if ok else "SOME CASES FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
