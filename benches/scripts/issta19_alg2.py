#!/usr/bin/env python3
"""ISSTA'19 Alg. 2 (ODPOR_cs^ob) as printed, on FR(N) and FR-a(N) with one event per
process: how many states the paper's algorithm explores on our reconstruction of its
programs (benches/programs/odpor/fr.ic), to set beside its Table 1 and our odpor-cs-ob.

    python3 benches/scripts/issta19_alg2.py fra 4        # FR-a(4)
    python3 benches/scripts/issta19_alg2.py fr 5 strict  # FR(5), I_fut read strictly

Processes: writers 1..N (x = i) and the reader 0 (FR: o = x; FR-a: assert(x <= N)).
Dependencies are the paper's over observers (two writes race only where a later read
observes the second; a read and a write of x always conflict); the end of an
execution observes nothing (`ic-check --violations-only`). Followed to the letter:
Explore (lines 43-65) with Sec. 4.2's refined inheritance in both its cases (line 62),
RaceDetection (lines 66-81) with the check modulo observability on the observers'
effects (Sec. 4.1, line 73) and `redundant` over every partition of E' (Sec. 2.2).
I_fut(E', v, E), Sec. 3.2: the processes with no happens-before predecessor in
dom_[E'.v](w), i.e. none among the events of w outside v (`loose`, the default), or,
as its parenthesis reads, WI_[E'](w) minus v (`strict`). The state after a step that
a don't-do sequence stops (line 58) is not counted, as ours is not.

Printed: states (1 + every event run), complete executions, executions stopped by a
don't-do sequence. This is a probe of the paper's algorithm, not part of the tool: its
answers are quoted in BENCHMARKS.md.
"""
import sys

MODE, N = sys.argv[1], int(sys.argv[2])
STRICT = len(sys.argv) > 3 and sys.argv[3] == "strict"
READER = 0
PROCS = list(range(1, N + 1)) + [READER]


def writes(p):
    return {"x"} if p != READER else ({"o"} if MODE == "fr" else set())


def reads(p):
    return {"x"} if p == READER else set()


def run(seq):
    s = {"x": 0, "o": -1, "ok": True}
    for p in seq:
        if p != READER:
            s["x"] = p
        elif MODE == "fr":
            s["o"] = s["x"]
        else:
            s["ok"] = s["x"] <= N
    return s


def effect(state):
    """What the reader observes of x (Sec. 4.1): the value it stores, or its assertion."""
    return state["x"] if MODE == "fr" else state["x"] <= N


def dependencies(E):
    """Direct dependencies between positions of E, and the writer each read reads."""
    n, last, reads_from = len(E), None, {}
    for k, p in enumerate(E):
        if reads(p):
            reads_from[k] = last
        if "x" in writes(p):
            last = k
    d = [[False] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            a, b = E[i], E[j]
            if writes(a) & reads(b) or reads(a) & writes(b):
                d[i][j] = True
            elif writes(a) & writes(b):
                d[i][j] = any(w == j for k, w in reads_from.items() if k > j)
    return d, reads_from


def happens_before(E):
    d, reads_from = dependencies(E)
    h = [row[:] for row in d]
    for j in range(len(E)):
        for i in range(j - 1, -1, -1):
            h[i][j] = h[i][j] or any(h[i][k] and h[k][j] for k in range(i + 1, j))
    return d, h, reads_from


def independent(p, u):
    """p ◇ u for p not in u: p depends on no event of p.u."""
    d, _ = dependencies([p] + list(u))
    return not any(d[0][1:])


def weak_initials(done, u):
    _, h, _ = happens_before(list(u))
    first = {p for j, p in enumerate(u) if not any(h[i][j] for i in range(j))}
    rest = {p for p in PROCS if p not in done and p not in u and independent(p, u)}
    return first | rest


class Tree:
    def __init__(self):
        self.children = []  # [(process, Tree)], in the order of ≺


def insert(tree, prefix, v):
    node, rest, path = tree, list(v), list(prefix)
    while rest and (node.children or node is tree):
        for p, child in node.children:
            if p in weak_initials(path, rest):
                if p in rest:
                    rest.remove(p)
                node, path = child, path + [p]
                break
        else:
            for p in rest:
                leaf = Tree()
                node.children.append((p, leaf))
                node = leaf
            return


stats = {"states": 1, "complete": 0, "stopped": 0}
done, dnd, wut = {}, {}, {}


def redundant(prefix, v):
    return any(
        done.get(tuple(prefix[:i]), set())
        & weak_initials(prefix[:i], list(prefix[i:]) + list(v))
        for i in range(len(prefix) + 1)
    )


def future_initials(E, e, n, h, in_v, start):
    return [
        k
        for k in range(start, n)
        if k not in in_v
        and not any(h[m][k] for m in range(e, k) if not (STRICT is False and m in in_v))
    ]


def race_detection(E):
    d, h, reads_from = happens_before(E)
    n = len(E)
    for j in range(n):
        for e in range(j):
            if not d[e][j] or any(h[e][k] and h[k][j] for k in range(e + 1, j)):
                continue
            prefix = E[:e]
            ance = [k for k in range(e + 1, j) if h[k][j]]
            write_write = writes(E[e]) & writes(E[j]) and not (
                writes(E[e]) & reads(E[j]) or reads(E[e]) & writes(E[j])
            )
            observers = [k for k, w in reads_from.items() if w == j] if write_write else []
            dont = None
            if observers:  # lines 69-74
                o = max(observers)
                pos = ance + [j, e]
                pos += [
                    k
                    for k in range(e + 1, n)
                    if k not in pos and k not in observers and any(h[k][x] for x in observers)
                ]
                pos += [o]
                pos += future_initials(E, e, n, h, set(pos), e)
                v = [E[k] for k in pos]
                before_o = [E[k] for k in pos if k < o]
                if all(effect(run(E[:x])) == effect(run(prefix + before_o)) for x in observers):
                    dont = tuple(v)
            else:  # lines 75-78
                pos = ance + [j]
                pos += future_initials(E, e, n, h, set(pos), e + 1)
                v = [E[k] for k in pos]
                after = [k for k in range(e, n) if k == e or h[e][k]]
                alt = [k for k in pos if k <= j] + [k for k in after if k <= j and k not in pos]
                if run(E[: j + 1]) == run(prefix + [E[k] for k in alt]):
                    dont = tuple(v + [E[e]])
            if not redundant(prefix, v):  # lines 79-81
                insert(wut[tuple(prefix)], prefix, v)
                if dont:
                    dnd[tuple(prefix)].append(dont)


def commutes_before(p, u, rest):
    """E ⊨_{u.p.v} p ◇ u (Sec. 4.2): p commutes with each step of u, or both write
    what a write of v overwrites before any read of v."""
    for q in u:
        if independent(p, [q]):
            continue
        if reads(p) or reads(q):
            return False
        for k, w in enumerate(rest):
            if "x" in writes(w):
                if any(reads(r) for r in rest[:k]):
                    return False
                break
        else:
            return False
    return True


def explore(E, inherited, dont_do):
    key = tuple(E)
    dnd[key], done[key], wut[key] = list(dont_do), set(), Tree()
    enabled = [p for p in PROCS if p not in E]
    if not enabled:
        stats["complete"] += 1
        race_detection(E)
        return
    if inherited.children:
        wut[key] = inherited
    elif all((p,) in dnd[key] for p in enabled):
        for s in list(dnd[key]):
            if len(s) == 1:
                stats["stopped"] += 1
                race_detection(E + [s[0]])
    else:
        p = next(p for p in enabled if (p,) not in dnd[key])
        wut[key].children.append((p, Tree()))
    while wut[key].children:
        p, subtree = wut[key].children[0]
        if (p,) in dnd[key]:
            stats["stopped"] += 1
            race_detection(E + [p])
        else:
            below = []
            for s in dnd[key]:
                if p not in s and independent(p, s):
                    below.append(s)
                elif p in s:
                    k = s.index(p)
                    if commutes_before(p, s[:k], s[k + 1 :]):
                        below.append(s[:k] + s[k + 1 :])
            stats["states"] += 1
            explore(E + [p], subtree, [s for s in below if s])
            done[key].add(p)
        wut[key].children = [(q, c) for q, c in wut[key].children if q != p]


sys.setrecursionlimit(100000)
explore([], Tree(), [])
print(f"{MODE}({N}) {'strict' if STRICT else 'loose'}: {stats}")
