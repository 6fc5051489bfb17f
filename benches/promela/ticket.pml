/* A ticket lock for N workers: the Promela translation of
 * benches/programs/cyclic/ticket.ic (see its header for the algorithm, its source
 * and the expected result). N is a macro: `spin -DN=4 -a ticket.pml`.
 *
 * Atomicity: each atomic { } or guard below is one block of the .ic version, with
 * the same accesses to shared variables: one, but for the fetch-and-add (a read and
 * a write of `next`) and the release (a read and a write of `serving`). The test of
 * `serving` (the .ic loop condition) is one guard per outcome, and the gotos
 * between them are jumps that SPIN folds into the transitions (`./pan -d` lists
 * one transition per .ic block and outcome, and one more per process for its end).
 * Expected: no error (SPIN: "errors: 0").
 * Measured (SPIN 6.5.2, partial order reduction on; `benches/promela/run_spin.sh
 * ticket.pml N`), states stored, no error: N = 2: 54; N = 3: 355; N = 4: 2,996;
 * N = 5: 30,799.
 * SPIN's partial order reduction removes no state here: every transition reads or
 * writes a shared variable, which SPIN's static reduction never treats as safe;
 * pan compiled with -DNOREDUCE stores as many states (measured at each N above).
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
    /* fetch-and-add: one atomic block */
    atomic { my = next; next = next + 1 };
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
