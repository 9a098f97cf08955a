#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Plots of rcu_perf results files: one SVG per metric (make report).

  plot.py [-o DIR] PATH... [-- CAND...]

PATH: a results file or a directory of them (*.json; other JSON there is
passed over). Each side's samples of a metric are drawn as points over a
box from the 25th to the 75th percentile, its median a black bar; with
CAND, baseline and candidate side by side. The SVGs go to DIR (default:
the last directory given), one per metric: <test>.<metric>.svg.
Standard library only: plots are a project tool, not part of the suite.
"""
import json
import os
import re
import sys
from html import escape

W, H, TOP, BOTTOM = 520, 360, 60, 300
COLORS = ("#1f77b4", "#ff7f0e")


def load(path, metrics, side):
    """Add the samples of a results file (or directory) to metrics."""
    if os.path.isdir(path):
        files = sorted(f for f in os.listdir(path)
                       if f.endswith(".json") and not f.startswith("."))
        for f in files:
            load(os.path.join(path, f), metrics, side)
        return
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"plot.py: {path}: {e}")
    if not isinstance(doc, dict) or doc.get("schema") != "rcu_perf-results":
        return
    for m in doc.get("metrics", []):
        key = (doc["test"], m["name"])
        e = metrics.setdefault(key, {"unit": m.get("unit", ""),
                                     "better": m.get("better", "lower"),
                                     "v": ([], [])})
        e["v"][side].extend(float(x) for x in m.get("samples", []))


def pct(s, q):
    """The q-quantile of the sorted list s, interpolated (numpy's default)."""
    i = q * (len(s) - 1)
    lo = int(i)
    return s[lo] + (s[min(lo + 1, len(s) - 1)] - s[lo]) * (i - lo)


def text(x, y, s, extra=""):
    return f'<text x="{x:.1f}" y="{y:.1f}"{extra}>{escape(s)}</text>'


def plot(test, name, e, labels):
    sides = [k for k in range(2) if e["v"][k]]
    vals = [x for k in sides for x in e["v"][k]]
    lo, hi = min(vals + [0]), max(vals)
    hi = hi if hi > lo else lo + 1
    y = lambda v: BOTTOM - (v - lo) / (hi - lo) * (BOTTOM - TOP)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" '
           f'height="{H}" font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           text(W / 2, 24, f"{test}.{name}", ' text-anchor="middle" '
                'font-size="15"'),
           text(10, H - 12, f"{e['unit'] or 'no unit'}, {e['better']} is "
                "better; box p25-p75, bar: median", ' fill="#666"')]
    for t in range(5):
        v = lo + (hi - lo) * t / 4
        out.append(f'<line x1="70" x2="{W - 20}" y1="{y(v):.1f}" '
                   f'y2="{y(v):.1f}" stroke="#ddd"/>')
        out.append(text(64, y(v) + 4, f"{v:.4g}", ' text-anchor="end"'))
    for i, k in enumerate(sides):
        s = sorted(e["v"][k])
        cx = 70 + (W - 90) * (2 * i + 1) / (2 * len(sides))
        med = pct(s, 0.5)
        out.append(f'<rect x="{cx - 40:.1f}" y="{y(pct(s, 0.75)):.1f}" '
                   f'width="80" height="{y(pct(s, 0.25)) - y(pct(s, 0.75)):.1f}" '
                   f'fill="{COLORS[k]}" fill-opacity="0.3"/>')
        for j, v in enumerate(e["v"][k]):
            dx = (j * 37 % 61) - 30   # spread, the same on every run
            out.append(f'<circle cx="{cx + dx:.1f}" cy="{y(v):.1f}" r="2" '
                       f'fill="{COLORS[k]}"/>')
        out.append(f'<line x1="{cx - 44:.1f}" x2="{cx + 44:.1f}" '
                   f'y1="{y(med):.1f}" y2="{y(med):.1f}" stroke="black" '
                   'stroke-width="2"/>')
        out.append(text(cx, BOTTOM + 20, f"{labels[k]}: median {med:.4g} "
                        f"(n {len(s)})", ' text-anchor="middle"'))
    return "\n".join(out + ["</svg>", ""])


def main():
    args = sys.argv[1:]
    out = args[1] if args[:1] == ["-o"] and len(args) > 1 else None
    args = args[2:] if out else args
    if not args or args[0].startswith("-") and args[0] != "--":
        sys.exit(__doc__.split("\n\n")[1].strip())
    base, cand = (args[:args.index("--")], args[args.index("--") + 1:]) \
        if "--" in args else (args, [])
    labels = ("baseline", "candidate") if cand else ("results", "")
    metrics = {}
    for side, group in enumerate((base, cand)):
        for p in group:
            load(p, metrics, side)
    out = out or next((p for p in reversed(base + cand)
                       if os.path.isdir(p)), None)
    if not out or not metrics:
        sys.exit("plot.py: " + ("no -o DIR and no input directory" if not out
                                else "no rcu_perf results in the input"))
    os.makedirs(out, exist_ok=True)
    for (test, name), e in sorted(metrics.items()):
        if not e["v"][0] and not e["v"][1]:
            continue
        path = os.path.join(out, re.sub(r"[^\w.-]", "_", f"{test}.{name}")
                            + ".svg")
        with open(path, "w") as f:
            f.write(plot(test, name, e, labels))
        print("wrote", path)


if __name__ == "__main__":
    main()
