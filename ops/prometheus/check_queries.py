#!/usr/bin/env python3
"""Checks that every query of the operators' views reads a series that exists.

    check_queries.py PLATFORM_METRICS_FILE

Reads the queries of the Grafana dashboards (ops/grafana/dashboards/*.json), the recording and
alert rules (ops/prometheus/rules/*.yml) and the console (ops/prometheus/consoles/*.html), and
fails when one names a metric that is neither recorded by a rule, nor in the platform's live
/metrics (the file: a scrape after a load run), nor in the game host's exported table
(gamehost/src/observe.rs `METRICS`: a host exports them only while it runs games), nor one of
Prometheus' own (`up`, `ALERTS`).
"""
import glob
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KEYWORDS = {"and", "or", "unless", "by", "without", "on", "ignoring", "group_left", "group_right", "bool", "offset", "inf", "nan"}
PROMETHEUS_OWN = {"up", "ALERTS", "ALERTS_FOR_STATE", "scrape_duration_seconds"}


def metric_names(expr):
    """The metric names a PromQL expression reads (not functions, keywords or label names)."""
    e = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)          # strings
    e = re.sub(r"'(?:[^'\\]|\\.)*'", "''", e)
    e = re.sub(r"\{[^}]*\}", "", e)                        # label matchers
    e = re.sub(r"(?<![A-Za-z0-9_:])\d+(\.\d+)?([eE][+-]?\d+)?", "0", e)  # numbers
    e = re.sub(r"\[[^\]]*\]", "", e)                       # ranges
    e = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", e)
    names = set()
    for m in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*", e):
        rest = e[m.end():].lstrip()
        word = m.group(0)
        if rest.startswith("(") or word.lower() in KEYWORDS:
            continue
        names.add(word)
    return names


def exported(metrics_text):
    names = set()
    for line in metrics_text.splitlines():
        if not line or line.startswith("#"):
            continue
        name = re.match(r"[A-Za-z_:][A-Za-z0-9_:]*", line).group(0)
        names.add(name)
        for suffix in ("_bucket", "_sum", "_count"):
            if name.endswith(suffix):
                names.add(name[: -len(suffix)])
    return names


def gamehost_names():
    src = open(os.path.join(ROOT, "gamehost/src/observe.rs"), encoding="utf-8").read()
    table = src[src.index("pub const METRICS"):]
    table = table[: table.index("];")]
    names = set(re.findall(r'\(\s*"(yoo_gamehost_[a-z_]+)"', table))
    for n in list(names):
        if n.endswith("_seconds"):
            names |= {n + "_bucket", n + "_sum", n + "_count"}
    return names


def queries():
    """(where, expr) of every query."""
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "ops/grafana/dashboards/*.json"))):
        for p in json.load(open(path, encoding="utf-8"))["panels"]:
            for t in p.get("targets", []):
                out.append((f"{os.path.basename(path)}: {p['title']}", t["expr"]))
    records = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "ops/prometheus/rules/*.yml"))):
        text = open(path, encoding="utf-8").read()
        # The rule files are plain: `- record: X` / `- alert: X` followed by `expr:` (one line or a block).
        for m in re.finditer(r"-\s+(record|alert):\s*(\S+)\s*\n\s+expr:\s*(\|\n((?:\s{10,}.*\n)+)|(.*)\n)", text):
            expr = (m.group(4) or m.group(5)).strip()
            out.append((f"{os.path.basename(path)}: {m.group(2)}", expr))
            if m.group(1) == "record":
                records[m.group(2)] = expr
    for path in sorted(glob.glob(os.path.join(ROOT, "ops/prometheus/consoles/*.html"))):
        text = open(path, encoding="utf-8").read()
        for m in re.finditer(r'query\s+"((?:[^"\\]|\\.)*)"', text):
            out.append((os.path.basename(path), m.group(1).replace('\\"', '"')))
        for m in re.finditer(r'printf\s+"((?:[^"\\]|\\.)*)"', text):
            if "{" not in m.group(1):
                continue  # a number format, not a query
            out.append((os.path.basename(path), re.sub(r"%[sdf]", "x", m.group(1))))
        for m in re.finditer(r'expr:\s*"((?:[^"\\]|\\.)*)"', text):
            out.append((os.path.basename(path) + " (graph)", m.group(1)))
    return out, records


def main():
    live = exported(open(sys.argv[1], encoding="utf-8").read())
    known = live | gamehost_names() | PROMETHEUS_OWN
    qs, records = queries()
    missing = []
    for where, expr in qs:
        for name in metric_names(expr):
            if name not in known and name not in records:
                missing.append(f"{where}: {name} (in {expr!r})")
    if len(records) < 10 or len(qs) < 40:
        missing.append(f"too few queries found ({len(qs)}, {len(records)} recorded): the parser missed them")
    if missing:
        print("queries of series that do not exist:\n  " + "\n  ".join(missing))
        sys.exit(1)
    print(f"ops: {len(qs)} queries ({len(records)} recording rules) read only series that exist")


if __name__ == "__main__":
    main()
