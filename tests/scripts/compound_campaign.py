#!/usr/bin/env python3
"""A differential campaign on programs of three or four processes whose blocks are
compound (a dead read and a write, a guarded pair of writes), over four globals:
the shape of odpor-cs-ob's partner gap (`docs/algorithms/odpor-cs-ob.md`, "The
futures of a covered step's partners"), which the small-scope grammar (one statement
per block, two globals) cannot write. Each program's final states and violations
under every reduced algorithm are compared with naive's, as sets, through
`ic-check --json`. It found 1 of 1,500 programs (seed 2) on the code before that fix
(`tests/regressions/odpor_cs_ob_partners_of_a_targeted_program.ic`) and none after.

    cargo build --release -p ic-check
    python3 tests/scripts/compound_campaign.py SEED COUNT   # e.g. 2 1500

Programs are written to a temporary directory; each disagreement is printed with
its program. `IC_CHECK` names another binary (e.g. an older build to compare).
"""
import json
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("IC_CHECK", os.path.join(ROOT, "target", "release", "ic-check"))
ALGOS = ["sdpor", "odpor", "odpor-cs", "odpor-ob", "odpor-cs-ob", "csdpor", "cdpor", "ocdpor"]
GLOBALS = ["x", "y", "z", "w"]


def statement(rng, k):
    """A block: one statement or a compound one; `t{k}` is a local of its own."""
    a, b, c = rng.choice(GLOBALS), rng.choice(GLOBALS), rng.choice([0, 1, 2])
    d, e, g = rng.choice([1, 2]), rng.choice([1, 2]), rng.choice(GLOBALS)
    return rng.choice([
        f"{a} = {c};",
        f"{a} = {b};",
        f"int t{k} = {a};",
        f"int t{k} = {a}; {b} = {c};",
        f"if ({a} == {c}) {{ {b} = {d}; }}",
        f"if ({a} == {c}) {{ {b} = {e}; {g} = 1; }}",
        f"{a} = {a} + 1;",
        f"if ({a} != 0) {{ {b} = {a}; }}",
    ])


def program(rng):
    names = ["p", "q", "r", "s"][: rng.choice([3, 4])]
    src = "".join(f"global int {g} = 0;\n" for g in GLOBALS)
    for name in names:
        blocks = [statement(rng, k) for k in range(rng.choice([1, 2]))]
        src += f"proc {name}() {{ " + " yield; ".join(blocks) + " }\n"
    return src + "init { " + " ".join(f"spawn {n}();" for n in names) + " }\n"


def outcome(algo, path):
    out = subprocess.run(
        [BIN, "--algo", algo, "--finals", "--all-violations", "--json", path],
        capture_output=True, text=True, check=False,
    )
    report = json.loads(out.stdout)
    finals = sorted((f["globals"], str(f["processes"])) for f in report["finals"])
    violations = sorted((v["kind"], v["message"]) for v in report["violations"])
    return finals, violations


def main():
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(count):
            src = program(rng)
            path = os.path.join(tmp, f"p{seed}_{i}.ic")
            with open(path, "w") as f:
                f.write(src)
            reference = outcome("naive", path)
            for algo in ALGOS:
                if outcome(algo, path) != reference:
                    failed += 1
                    print(f"program {i} (seed {seed}): {algo} disagrees with naive\n{src}", flush=True)
                    break
    print(f"{failed} of {count} programs disagree with naive")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
