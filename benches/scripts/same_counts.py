#!/usr/bin/env python3
"""Same counts: runs two ic-check binaries on the same programs in every algorithm
mode and compares what they explored, counter by counter (`--json --stats`: traces,
blocked, states, final states, every pruning counter, the violations and the final
states listed). A change meant to keep behaviour (a refactoring) must print no
difference. Runs that stop early (the timeout) in either binary are compared only
if both stopped the same way, and listed.

    benches/scripts/same_counts.py OLD/ic-check NEW/ic-check [PROGRAM.ic|DIR ...]

Without programs: examples/, benches/programs/ (recursively) and tests/regressions/.
Exit status 0 when every compared run agrees, 1 otherwise.
"""
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ALGOS = ["naive", "sdpor", "odpor", "odpor-ob", "odpor-cs", "odpor-cs-ob",
         "csdpor", "cdpor", "ocdpor"]
LITERAL = {"odpor-cs", "odpor-cs-ob", "csdpor", "cdpor", "ocdpor"}
VIOLATIONS_ONLY = {"odpor-ob", "odpor-cs-ob"}
TIMEOUT = os.environ.get("SAME_COUNTS_TIMEOUT", "5")


def modes():
    for algo in ALGOS:
        for deps in ["dynamic", "static"]:
            yield [algo, "--deps", deps]
            if algo in LITERAL:
                yield [algo, "--deps", deps, "--literal"]
            if algo in VIOLATIONS_ONLY:
                yield [algo, "--deps", deps, "--violations-only"]


def programs(args):
    roots = args or ["examples", "benches/programs", "tests/regressions"]
    for root in roots:
        if root.endswith(".ic"):
            yield root
            continue
        for dirpath, _, files in os.walk(root):
            for f in sorted(files):
                if f.endswith(".ic"):
                    yield os.path.join(dirpath, f)


def run(binary, program, mode):
    cmd = [binary, "--json", "--stats", "--quiet", "--all-violations",
           "--timeout", TIMEOUT, "--algo", *mode, program]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if not out.stdout.strip():
        return {"error": out.returncode, "stderr": out.stderr.strip()[:200]}
    report = json.loads(out.stdout)
    for volatile in ["time_ms", "program"]:
        report.pop(volatile, None)
    return report


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    old, new, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
    jobs = [(p, m) for p in sorted(set(programs(rest))) for m in modes()]
    both = lambda job: (job, run(old, *job), run(new, *job))
    differ = early = 0
    with ThreadPoolExecutor(max_workers=int(os.environ.get("SAME_COUNTS_JOBS", "2"))) as pool:
        for (program, mode), a, b in pool.map(both, jobs):
            name = f"{program} --algo {' '.join(mode)}"
            stopped = a.get("stop") not in (None, "complete") or b.get("stop") not in (None, "complete")
            if stopped:
                early += 1
                if a.get("stop") != b.get("stop"):
                    print(f"stopped differently: {name}: {a.get('stop')} / {b.get('stop')}")
                continue
            if a != b:
                differ += 1
                keys = sorted(set(a) | set(b))
                diff = {k: (a.get(k), b.get(k)) for k in keys if a.get(k) != b.get(k)}
                print(f"DIFFERS: {name}: {json.dumps(diff)[:2000]}")
    print(f"{len(jobs)} runs, {differ} differ, {early} stopped early (compared only by how they stopped)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
