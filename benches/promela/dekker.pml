/* Dekker's mutual exclusion algorithm for two processes: the Promela translation
 * of benches/programs/cyclic/dekker.ic (see its header for the algorithm, its
 * source and the expected result).
 *
 * Atomicity: each atomic { } or guard below is one block of the .ic version, with
 * the same single access to a shared variable; a test of a shared variable (a .ic
 * loop condition) is one guard per outcome, and the gotos between them are jumps
 * that SPIN folds into the transitions (`./pan -d` lists one transition per .ic
 * block and outcome, and one more per process for its end).
 * Expected: no error (SPIN: "errors: 0").
 * Measured (SPIN 6.5.2, partial order reduction on; `benches/promela/run_spin.sh
 * dekker.pml`): 97 states stored, no error.
 * SPIN's partial order reduction removes no state here: every transition reads or
 * writes a shared variable, which SPIN's static reduction never treats as safe;
 * pan compiled with -DNOREDUCE stores as many states (measured).
 */

bool wants[2];
byte turn = 0;
byte counter = 0;
byte done = 0;

proctype worker(byte i) {
    byte j = 1 - i;
    byte c;
    atomic { wants[i] = true };
    /* while (wants[j]) { if (turn != i) { wants[i] = false;
     *     while (turn != i) {} wants[i] = true; } } */
outer:
    if
    :: atomic { !wants[j] }; goto critical
    :: atomic { wants[j] }
    fi;
    if
    :: atomic { turn == i }; goto outer
    :: atomic { turn != i }
    fi;
    atomic { wants[i] = false };
inner:
    if
    :: atomic { turn != i }; goto inner
    :: atomic { turn == i }
    fi;
    atomic { wants[i] = true };
    goto outer;
critical:
    /* critical section: a non-atomic increment */
    atomic { c = counter };
    atomic { counter = c + 1 };
    atomic { turn = j };
    atomic { wants[i] = false };
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
