#!/usr/bin/env python3
"""A differential campaign on programs of three to four processes, spawned from two
procedures, whose blocks are checks over y, z and b (`b = y == z;`, `z = y;`, a
guarded write): blocks that read some globals and write others, the shape in which
odpor-ob's redundancy check trusted a done subtree for classes it had never reached
(`tests/regressions/odpor_ob_misses_the_last_writer_of_a_check_after_circular_coverage.ic`,
"The cause"; `docs/algorithms/odpor-ob.md`, "A process done at a node owes what comes
first elsewhere"). Each program goes through the differential test's `one_file`
(every algorithm against naive: final states, violations, deadlocks, and the *set*
of reads-from classes of sdpor, odpor and odpor-ob, check (j)). On the code before
that repair it found 4 of 3,000 programs at seed 2
(`tests/regressions/odpor_ob_a_class_reached_outside_the_done_subtree.ic` is one,
shrunk), and none after, nor of 3,000 at seed 3.

    cargo test --release -p tests --test differential --no-run
    python3 tests/scripts/checks_campaign.py SEED COUNT   # e.g. 2 3000

Programs are written to a temporary directory; each disagreement is printed with
the differential test's report. `IC_DIFF_BIN` names the test binary (default: the
newest `target/release/deps/differential-*`).
"""
import glob
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def binary():
    if "IC_DIFF_BIN" in os.environ:
        return os.environ["IC_DIFF_BIN"]
    found = [
        f
        for f in glob.glob(os.path.join(ROOT, "target", "release", "deps", "differential-*"))
        if os.access(f, os.X_OK) and not f.endswith(".d")
    ]
    if not found:
        sys.exit("build it first: cargo test --release -p tests --test differential --no-run")
    return max(found, key=os.path.getmtime)


def check(rng):
    a, c = rng.choice(["y", "z"]), rng.choice(["y", "z", "0"])
    return f"{a} {rng.choice(['==', '!='])} {c}"


def statement(rng):
    k = rng.random()
    target = rng.choice(["y", "z", "b"])
    if target == "b":
        return f"b = {check(rng)};"
    if k < 0.5:
        return f"{target} = {rng.choice(['0', '1'])};"
    if k < 0.8:
        return f"{target} = {rng.choice(['y', 'z'])};"
    return f"if ({check(rng)}) {{ {target} = 1; }}"


def procedure(rng, name):
    blocks = [
        " ".join(statement(rng) for _ in range(rng.choice([1, 1, 2])))
        for _ in range(rng.choice([1, 2, 2, 3]))
    ]
    return f"proc {name}() {{ " + " yield; ".join(blocks) + " }"


def program(rng):
    procedures = procedure(rng, "p") + "\n" + procedure(rng, "q") + "\n"
    spawns = rng.choice([["p", "p", "q", "p"], ["p", "q", "p"], ["p", "p", "q"],
                         ["p", "q", "q", "p"], ["p", "p", "q", "q"]])
    return (
        "global int y = 0;\nglobal int z = 0;\nglobal bool b = false;\n"
        + procedures
        + "init { " + " ".join(f"spawn {s}();" for s in spawns) + " }\n"
    )


def main():
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    test = binary()
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(count):
            path = os.path.join(tmp, f"p{seed}_{i}.ic")
            with open(path, "w") as f:
                f.write(program(rng))
            try:
                run = subprocess.run(
                    [test, "one_file", "--exact", "--ignored", "--nocapture"],
                    cwd=os.path.join(ROOT, "tests"),
                    env={**os.environ, "IC_DIFF_FILE": path, "RUST_BACKTRACE": "0"},
                    capture_output=True,
                    text=True,
                    timeout=600,
                )
                agree = run.returncode == 0 and "modes agree with naive" in run.stdout
                report = run.stdout + run.stderr
            except subprocess.TimeoutExpired:
                agree, report = False, "timed out after 600 s\n"
            if not agree:
                failed += 1
                with open(path) as f:
                    print(f"program {i} of seed {seed} disagrees:\n{f.read()}{report}")
            if (i + 1) % 100 == 0:
                print(f"{i + 1} programs, {failed} disagree", flush=True)
    print(f"seed {seed}: {count} programs, {failed} disagree")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
