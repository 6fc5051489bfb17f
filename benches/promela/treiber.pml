/* A Treiber stack with a client of N threads: the Promela translation of
 * benches/programs/cyclic/treiber.ic (see its header for the algorithm, its source
 * and the expected result). N is a macro: `spin -DN=2 -a treiber.pml` (N <= 3, as
 * the .ic's arrays).
 *
 * Atomicity: each atomic { } or guard below is one block of the .ic version, with
 * the same accesses to shared variables (one each, but for the checker's final read
 * of every taken[k]); a test of what the block reads is one guard per outcome, and
 * the gotos between them are jumps that SPIN folds into the transitions. The .ic
 * version's loops enter at a block of their own (the first read of top) and retry
 * from the block after the CAS; here a failed CAS goes back to the same read.
 * Expected: no error (SPIN: "errors: 0").
 * Measured (SPIN 6.5.2, partial order reduction on; `benches/promela/run_spin.sh
 * treiber.pml N`), states stored, no error: N = 2: 299; N = 3: 23,835.
 * SPIN's partial order reduction removes no state here: every transition reads or
 * writes a shared variable, which SPIN's static reduction never treats as safe;
 * pan compiled with -DNOREDUCE stores as many states (measured at N = 3).
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
    if
    :: atomic { top == t -> top = n; got = t }
    :: atomic { top != t }; goto pop
    fi;
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
