#!/usr/bin/env python3
"""Same tables: compares the counts of two runs of the table harness (`table --set
SET`, markdown), cell by cell: every column but times, memory and gains. A cell
stopped by the timeout (`>X`, `<x`) in either run, or a row that only one run
reached (a size is left out after timeouts), is not compared, and listed.

    benches/scripts/same_tables.py OLD.md NEW.md

Exit status 0 when every compared cell agrees, 1 otherwise.
"""
import re
import sys

VOLATILE = re.compile(r"^(T|Mem|T\^smt|G\^s|G\^cs|G\^smt)$|^T |time", re.I)


def tables(path):
    """Each markdown table of the file under its section heading, as
    (heading, header, {bench: row})."""
    out, heading, header, rows = [], None, None, None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("#"):
            heading = line.strip("# ")
        if not line.startswith("|"):
            if header:
                out.append((heading, header, rows))
            header = rows = None
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if header is None:
            header, rows = cells, {}
        elif not set(cells[0]) <= set("-: "):
            rows[cells[0]] = cells
    if header:
        out.append((heading, header, rows))
    return out


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    old, new = tables(sys.argv[1]), tables(sys.argv[2])
    compared = differ = skipped = 0
    for (heading, header, rows), (_, header2, rows2) in zip(old, new):
        if header != header2:
            print(f"{heading}: the tables have other columns")
            differ += 1
            continue
        # A size is left out once every algorithm timed out at a smaller one.
        for bench in sorted(set(rows) ^ set(rows2)):
            skipped += 1
            print(f"not compared (a row of one run only, after timeouts): {heading}, {bench}")
        # A column's name: the algorithm's title carried over from its Tr column.
        names, algo = [], ""
        for h in header:
            if h.endswith(" Tr"):
                algo = h[: -len(" Tr")]
            names.append(h if h.endswith(" Tr") or not algo else f"{algo} {h}")
        for bench, row in rows.items():
            if bench not in rows2:
                continue
            for name, h, a, b in zip(names, header, row, rows2[bench]):
                if h == header[0] or VOLATILE.search(h):
                    continue
                if a.startswith((">", "<")) or b.startswith((">", "<")):
                    if a != b:
                        skipped += 1
                        print(f"not compared (timeout): {heading}, {bench}, {name}: {a} / {b}")
                    continue
                compared += 1
                if a != b:
                    differ += 1
                    print(f"DIFFERS: {heading}, {bench}, {name}: {a} / {b}")
    print(f"{compared} cells compared, {differ} differ, {skipped} not compared (a timeout in one run)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
