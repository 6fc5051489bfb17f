#!/usr/bin/env python3
"""Same speed: compares the exploration times (the T columns) of runs of the table
harness made with two binaries, taking each cell's minimum over the runs of each
binary. A refactoring should slow no cell down; cells under --floor seconds (0.1 by
default) are left out, being mostly timer and cache noise.

    benches/scripts/same_speed.py [--floor SECS] [--limit PCT] OLD.md... -- NEW.md...

Prints every compared cell slower by more than --limit percent (5 by default), then
the totals. Exit status 0 when there is none, 1 otherwise.
"""
import sys

from same_tables import tables


def times(paths):
    """(heading, bench, algorithm) -> the least T over the runs; cells that timed out
    in any run are left out."""
    best, out = {}, set()
    for path in paths:
        for heading, header, rows in tables(path):
            if not heading.startswith("Measured"):
                continue
            for bench, row in rows.items():
                algo = ""
                for h, cell in zip(header, row):
                    if h.endswith(" Tr"):
                        algo = h[: -len(" Tr")]
                    if h != "T":
                        continue
                    key = (heading, bench, algo)
                    try:
                        t = float(cell)
                    except ValueError:
                        out.add(key)
                        continue
                    best[key] = min(t, best.get(key, t))
    return {k: v for k, v in best.items() if k not in out}


def main():
    args = sys.argv[1:]
    floor, limit = 0.1, 5.0
    while args and args[0].startswith("--") and args[0] != "--":
        flag, value = args[0], float(args[1])
        if flag == "--floor":
            floor = value
        elif flag == "--limit":
            limit = value
        args = args[2:]
    if "--" not in args:
        print(__doc__, file=sys.stderr)
        return 2
    split = args.index("--")
    old, new = times(args[:split]), times(args[split + 1 :])
    keys = [k for k in old if k in new and max(old[k], new[k]) >= floor]
    slower = 0
    for key in sorted(keys):
        a, b = old[key], new[key]
        change = (b - a) / a * 100 if a else 0.0
        if change > limit:
            slower += 1
            print(f"SLOWER by {change:.1f}%: {key[1]} {key[2]}: {a:.3f} -> {b:.3f} s")
    total_old = sum(old[k] for k in keys)
    total_new = sum(new[k] for k in keys)
    print(
        f"{len(keys)} cells of {floor} s or more compared: {slower} slower by more than "
        f"{limit}%; total {total_old:.2f} s -> {total_new:.2f} s"
    )
    return 1 if slower else 0


if __name__ == "__main__":
    sys.exit(main())
