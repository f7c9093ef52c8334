import json, subprocess, sys, itertools
import os
G=os.environ.get("GLUON","build/bin/gluon")
cfgs = {"weak16": ["--start","weak","--lattice","16,16,16,16","--epsilon","0.1"],
        "weak16e3": ["--start","weak","--lattice","16,16,16,16","--epsilon","0.3"],
        "l8888": ["--gauge",os.environ.get("L8888","../shared/testdata/gauge/lat.sample.l8888")]}
ops = {"staggered": ["--operator","staggered","--mass","0.05","--recon","12"],
       "improved": ["--operator","improved-staggered","--mass","0.05","--recon","12"],
       "wilson": ["--operator","wilson","--kappa","0.12","--recon","12"],
       "clover": ["--operator","clover","--kappa","0.12","--csw","1.0","--recon","12"]}
sel_cfg = sys.argv[1].split(","); sel_ops = sys.argv[2].split(","); precs = sys.argv[3].split(","); deltas = sys.argv[4].split(",")
for c in sel_cfg:
  for o in sel_ops:
    for p in precs:
      for d in deltas:
        cmd=[G,"solve",*cfgs[c],*ops[o],"--sloppy-precision",p,"--delta",d,"--json","--quiet","--backend","cpu"]
        r=subprocess.run(cmd,capture_output=True,text=True)
        if r.returncode!=0:
          print(c,o,p,d,"FAIL",r.stderr.strip()[-300:]); continue
        j=json.loads(r.stdout)
        cols=j["columns"]
        print(f"{c:9s} {o:10s} {p:6s} delta={d:6s} iters={j['iterations']:5d} updates={sum(x['reliable_updates'] for x in cols):4d} maxres={max(x['true_residual'] for x in cols):.2e} s={j['solver_seconds']:.2f}", flush=True)
