#!/usr/bin/env python3
# Copyright (c) 2026 llm-fabric authors
# SPDX-License-Identifier: GPL-2.0-only
"""compare-fct.py OURS PEERS: compare two fct.txt files of the HPCC-lineage format
(src_ip dst_ip sport dport bytes start_ns fct_ns standalone_fct_ns), such as llm-fabric-replay's
and the peer simulator's on the same input files.

Flows are matched by (src_ip, dst_ip, start_ns, sport); each side's FCT median, p99 (nearest
rank) and max are printed with the ratio of ours to the peer's, then the per-flow ratios of the
FCTs and of the standalone FCTs (median, min, max). Exit status 1 if a flow of one side has no
match in the other (they are listed)."""
import math
import sys


def read(path):
    flows = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            w = line.split()
            if not w:
                continue
            if len(w) != 8:
                sys.exit("%s: line %d: expected 8 fields" % (path, number))
            key = (w[0], w[1], int(w[5]), int(w[2]))
            flows[key] = (int(w[4]), int(w[6]), int(w[7]))
    return flows


def rank(values, q):
    v = sorted(values)
    return v[max(0, math.ceil(q * len(v)) - 1)]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    ours, peers = read(sys.argv[1]), read(sys.argv[2])
    common = sorted(set(ours) & set(peers))
    only = [("ours", k) for k in set(ours) - set(peers)] + [("peer", k) for k in set(peers) - set(ours)]
    print("flows: ours %d, peer %d, matched %d" % (len(ours), len(peers), len(common)))
    for side, key in sorted(only):
        print("  unmatched (%s): %s" % (side, " ".join(map(str, key))))
    if not common:
        return 1
    for name, q in (("median", 0.5), ("p99", 0.99), ("max", 1.0)):
        a = rank([ours[k][1] for k in common], q) / 1000.0
        b = rank([peers[k][1] for k in common], q) / 1000.0
        print("FCT %-6s ours %10.1f us  peer %10.1f us  ratio %.3f" % (name, a, b, a / b))
    for name, i in (("FCT", 1), ("standalone FCT", 2)):
        r = [ours[k][i] / peers[k][i] for k in common]
        print("per-flow %s ratio ours/peer: median %.3f, min %.3f, max %.3f"
              % (name, rank(r, 0.5), min(r), max(r)))
    return 1 if only else 0


if __name__ == "__main__":
    sys.exit(main())
