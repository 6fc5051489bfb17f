/* A ticket lock whose fetch-and-add is split in two (a bug): the Promela
 * translation of benches/programs/cyclic/ticket_buggy.ic (see its header for the
 * algorithm, its source and the expected result). N is a macro:
 * `spin -DN=4 -a ticket_buggy.pml`.
 *
 * Atomicity: each atomic { } or guard below is one block of the .ic version, with
 * the same accesses to shared variables: one, but for the release (a read and a
 * write of `serving`). The test of `serving` (the .ic loop condition) is one guard
 * per outcome, and the gotos between them are jumps that SPIN folds into the
 * transitions (`./pan -d` lists one transition per .ic block and outcome, and one
 * more per process for its end).
 * Expected: the assertion fails (SPIN: "assertion violated", "errors: 1").
 * Measured (SPIN 6.5.2, partial order reduction on; `benches/promela/run_spin.sh
 * ticket_buggy.pml N`), states stored until the assertion violation: N = 2: 75;
 * N = 3: 84; N = 4: 93; N = 5: 102.
 * SPIN's partial order reduction removes no state here: every transition reads or
 * writes a shared variable, which SPIN's static reduction never treats as safe;
 * pan compiled with -DNOREDUCE stores as many states (measured at N = 3).
 */

#ifndef N
#define N 3
#endif

byte next = 0;       /* the next ticket to hand out */
byte serving = 0;    /* the ticket now served */
byte counter = 0;
byte done = 0;

proctype worker() {
    byte my;
    byte c;
    /* the bug: the fetch-and-add split into a read block and a write block */
    atomic { my = next };
    atomic { next = my + 1 };
    /* while (serving != my) {} */
wait:
    if
    :: atomic { serving != my }; goto wait
    :: atomic { serving == my }
    fi;
    /* critical section: a non-atomic increment */
    atomic { c = counter };
    atomic { counter = c + 1 };
    atomic { serving = serving + 1 };   /* release: only the holder writes serving */
    atomic { done = done + 1 }
}

proctype check() {
    atomic { done == N -> assert(counter == N) }   /* "mutual exclusion violated" */
}

init {
    byte k = 0;
    atomic {
        do
        :: k < N -> run worker(); k = k + 1
        :: else -> break
        od;
        run check()
    }
}
