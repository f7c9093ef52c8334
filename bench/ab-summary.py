#!/usr/bin/env python3
"""One line from a `gluon bench dslash --ab-env NAME=v1,v2,... --json` object, as the trip scripts
print it: the label, the plain row's fraction of the copy, then each value's fraction of the copy
and GFLOP/s, in the order the values were given.

    python3 bench/ab-summary.py dslash.json "1 wilson single 8"
    1 wilson single 8    plain 0.668  0:0.671(8405)  1:0.702(8795)
"""
import json
import sys


def value_of(run):
    v = run['values']
    return v[0] if isinstance(v, list) else v


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: ab-summary.py FILE.json LABEL')
    d = json.load(open(sys.argv[1]))
    runs = d['ab']['runs']
    print('%-20s plain %.3f  ' % (sys.argv[2], d['fraction_of_copy']) +
          '  '.join('%s:%.3f(%.0f)' % (value_of(r), r['fraction_of_copy'], r['gflops']) for r in runs))


if __name__ == '__main__':
    main()
