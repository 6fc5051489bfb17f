/* Peterson's mutual exclusion algorithm for two processes: the Promela translation
 * of benches/programs/cyclic/peterson.ic (see its header for the algorithm, its
 * source and the expected result).
 *
 * Atomicity: each atomic { } below is one block of the .ic version, with the same
 * single access to a shared variable: its guard is the .ic block's test on what the
 * previous block read into a local, and the gotos and breaks between atomics are
 * jumps that SPIN folds into the transitions (`./pan -d` lists one transition per
 * .ic block, and one more per process for its end).
 * Expected: no error (SPIN: "errors: 0").
 * Measured (SPIN 6.5.2, partial order reduction on; `benches/promela/run_spin.sh
 * peterson.pml`): 142 states stored, no error.
 * SPIN's partial order reduction removes no state here: every transition reads or
 * writes a shared variable, which SPIN's static reduction never treats as safe;
 * pan compiled with -DNOREDUCE stores as many states (measured).
 */

bool flag[2];
byte turn = 0;
byte counter = 0;
byte done = 0;

proctype worker(byte i) {
    byte j = 1 - i;
    bool fj;
    byte t;
    byte c;
    atomic { flag[i] = true };
    atomic { turn = j };
    /* while (flag[j] && turn == j) {}: one read per atomic, flag[j] first */
    atomic { fj = flag[j] };
    do
    :: atomic { !fj -> c = counter }; break
    :: atomic { fj -> t = turn };
       if
       :: atomic { t != j -> c = counter }; break
       :: atomic { t == j -> fj = flag[j] }
       fi
    od;
    /* critical section: a non-atomic increment (c = counter read above) */
    atomic { counter = c + 1 };
    atomic { flag[i] = false };
    atomic { done = done + 1 }
}

proctype check() {
    atomic { done == 2 -> assert(counter == 2) }   /* "mutual exclusion violated" */
}

init {
    atomic {
        run worker(0);
        run worker(1);
        run check()
    }
}
