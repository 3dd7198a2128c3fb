"""The share of operations Schemathesis runs reached: those that answered 2xx to at least one
generated case in any of the runs, read from their ndjson reports (ops/fuzz.sh: the caller's
run and the viewer's). Prints the percentage on the first
line, then one line per operation that never answered 2xx with the statuses it answered."""

import collections
import json
import sys

# The WebSocket endpoints: a GET that upgrades (101) or is refused; no HTTP case can answer 2xx.
UPGRADES = {"GET /echo", "GET /api/host/link"}


def reached(lines):
    statuses = collections.defaultdict(collections.Counter)
    for line in lines:
        event = json.loads(line)
        finished = event.get("ScenarioFinished")
        if not finished:
            continue
        recorder = finished["recorder"]
        label = recorder["label"]
        cases = recorder.get("cases", {})
        stateful = finished.get("phase") == "stateful"
        if not stateful:
            statuses[label]  # an operation with no answer at all still counts
        for case_id, interaction in recorder.get("interactions", {}).items():
            response = interaction.get("response")
            if not response:
                continue
            if stateful:
                # a stateful scenario chains operations: each call counts for its own
                case = cases.get(case_id, {}).get("value", {})
                if "method" not in case:
                    continue
                label = f"{case['method']} {case['path']}"
            statuses[label][response["status_code"]] += 1
    ok = [label for label, seen in statuses.items() if any(200 <= s < 300 for s in seen)]
    missed = sorted((label, dict(seen)) for label, seen in statuses.items() if label not in ok)
    pct = 100.0 * len(ok) / len(statuses) if statuses else 0.0
    return pct, len(ok), len(statuses), missed


def main():
    lines = []
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as f:
            lines.extend(f)
    pct, ok, total, missed = reached(lines)
    print(f"{pct:.1f}")
    print(f"fuzz: {ok} of {total} operations answered 2xx")
    http = total - sum(1 for label, _ in missed if label in UPGRADES)
    if http != total and http:
        print(f"fuzz: {ok} of the {http} that are not WebSocket upgrades ({100.0 * ok / http:.1f}%)")
    for label, seen in missed:
        print(f"  no 2xx: {label} {seen}")


if __name__ == "__main__":
    main()
