/* A Treiber stack whose pop writes top without a compare-and-swap (the bug): the
 * Promela translation of benches/programs/cyclic/treiber_buggy.ic (see its header
 * for the algorithm, its source and the expected result). N is a macro:
 * `spin -DN=2 -a treiber_buggy.pml` (N <= 3, as the .ic's arrays).
 *
 * Atomicity: each atomic { } or guard below is one block of the .ic version, with
 * the same accesses to shared variables (one each, but for the checker's final read
 * of every taken[k]); a test of what the block reads is one guard per outcome, and
 * the gotos between them are jumps that SPIN folds into the transitions.
 * Expected: an assertion fails (SPIN: "assertion violated", "errors: 1").
 * Measured (SPIN 6.5.2, partial order reduction on; `benches/promela/run_spin.sh
 * treiber_buggy.pml N`), states stored until the assertion violation: N = 2: 63;
 * N = 3: 73.
 */

#ifndef N
#define N 3
#endif

byte top = 0;           /* the stack: node k holds val[k], next[k]; 0: empty */
byte next[N + 1];
byte val[N + 1];
byte taken[N + 1];      /* taken[k]: how many pops returned node k */
byte done = 0;

proctype client(byte me) {
    byte t;
    byte n;
    byte got;
    atomic { val[me] = me };
    /* push: a compare-and-swap retry loop on top */
push:
    atomic { t = top };
    atomic { next[me] = t };
    if
    :: atomic { top == t -> top = me }
    :: atomic { top != t }; goto push
    fi;
    /* pop: a compare-and-swap retry loop on top */
pop:
    atomic { t = top };
    atomic { assert(t != 0); n = next[t] };   /* "pop found the stack empty" */
    atomic { top = n; got = t };   /* the bug: a plain write, no compare-and-swap */
    atomic { taken[got] = taken[got] + 1 };
    atomic { done = done + 1 }
}

proctype check() {
    byte k;
    atomic {
        done == N ->
        k = 1;
        do
        :: k <= N -> assert(taken[k] == 1); k = k + 1   /* "a node popped twice or never" */
        :: else -> break
        od
    }
}

init {
    byte k = 1;
    atomic {
        do
        :: k <= N -> run client(k); k = k + 1
        :: else -> break
        od;
        run check()
    }
}
