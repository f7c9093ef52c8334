import json, subprocess, sys, os
G=os.environ.get("GLUON","build/bin/gluon")
L8="../shared/testdata/gauge/lat.sample.l8888"
runs = {
 "l8888-w150": ["--gauge",L8,"--operator","wilson","--kappa","0.150","--recon","12"],
 "l8888-w155": ["--gauge",L8,"--operator","wilson","--kappa","0.155","--recon","12"],
 "l8888-c130": ["--gauge",L8,"--operator","clover","--kappa","0.130","--csw","1.769","--recon","12"],
 "l8888-c134": ["--gauge",L8,"--operator","clover","--kappa","0.134","--csw","1.769","--recon","12"],
 "weak16e3-w": ["--start","weak","--lattice","16,16,16,16","--epsilon","0.3","--operator","wilson","--kappa","0.12","--recon","12"],
 "weak16e3-c": ["--start","weak","--lattice","16,16,16,16","--epsilon","0.3","--operator","clover","--kappa","0.12","--csw","1.0","--recon","12"],
}
sel = sys.argv[1].split(","); precs = sys.argv[2].split(","); deltas = sys.argv[3].split(",")
extra = sys.argv[4:] 
for c in sel:
  for p in precs:
    for d in deltas:
      cmd=[G,"solve",*runs[c],"--sloppy-precision",p,"--delta",d,"--json","--quiet","--backend","cpu",*extra]
      r=subprocess.run(cmd,capture_output=True,text=True)
      if r.returncode!=0:
        print(c,p,d,"FAIL",r.stderr.strip()[-300:], flush=True); continue
      j=json.loads(r.stdout)
      cols=j["columns"]
      print(f"{c:11s} {p:6s} delta={d:6s} iters={j['iterations']:5d} updates={sum(x['reliable_updates'] for x in cols):4d} maxres={max(x['true_residual'] for x in cols):.2e} s={j['solver_seconds']:.2f}", flush=True)
