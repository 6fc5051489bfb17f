/* Peterson's filter lock for N processes: the Promela translation of
 * benches/programs/cyclic/filter.ic (see its header for the algorithm, its source
 * and the expected result). N is a macro: `spin -DN=4 -a filter.pml`.
 *
 * Atomicity: each atomic { } below is one block of the .ic version, with the same
 * single access to a shared variable: its guard is the .ic block's test on what the
 * previous block read into a local (and the .ic loops' bookkeeping), and the gotos
 * between atomics are jumps that SPIN folds into the transitions (`./pan -d` lists
 * one transition per .ic block and outcome, and one more per process for its end).
 * Expected: no error (SPIN: "errors: 0").
 * Measured (SPIN 6.5.2, partial order reduction on; `benches/promela/run_spin.sh
 * filter.pml N`), states stored, no error: N = 2: 142; N = 3: 9,000; N = 4:
 * 1,414,559.
 * SPIN's partial order reduction removes no state here: every transition reads or
 * writes a shared variable, which SPIN's static reduction never treats as safe;
 * pan compiled with -DNOREDUCE stores as many states (measured at each N above).
 */

#ifndef N
#define N 3
#endif

byte level[N];     /* level[k]: the level process k is trying to enter (0: none) */
byte victim[N];    /* victim[L]: the last process to enter level L (L = 1 .. N-1) */
byte counter = 0;
byte done = 0;

#define FIRST (me == 0 -> 1 : 0)               /* the first process other than me */
#define NEXT (k + 1 == me -> k + 2 : k + 1)     /* the next one after k */

proctype worker(byte me) {
    byte L = 1;
    byte k;
    byte lk;
    byte v;
    byte c;
    atomic { level[me] = L };
write_victim:
    atomic { victim[L] = me };
    /* while ((exists k != me) level[k] >= L && victim[L] == me) {}:
     * one read per atomic, the levels first, as the textbook's && evaluates */
    atomic { k = FIRST; lk = level[k] };
read_level:    /* lk = level[k] was just read */
    if
    :: atomic { lk >= L -> v = victim[L] }; goto read_victim
    :: atomic { lk < L && NEXT < N -> k = NEXT; lk = level[k] }; goto read_level
    :: atomic { lk < L && NEXT >= N && L + 1 < N -> L = L + 1; level[me] = L };
       goto write_victim
    :: atomic { lk < L && NEXT >= N && L + 1 >= N -> c = counter }; goto critical
    fi;
read_victim:   /* v = victim[L] was just read */
    if
    :: atomic { v == me -> k = FIRST; lk = level[k] }; goto read_level
    :: atomic { v != me && L + 1 < N -> L = L + 1; level[me] = L }; goto write_victim
    :: atomic { v != me && L + 1 >= N -> c = counter }; goto critical
    fi;
critical:
    /* critical section: a non-atomic increment (c = counter read above) */
    atomic { counter = c + 1 };
    atomic { level[me] = 0 };
    atomic { done = done + 1 }
}

proctype check() {
    atomic { done == N -> assert(counter == N) }   /* "mutual exclusion violated" */
}

init {
    byte k = 0;
    atomic {
        do
        :: k < N -> run worker(k); k = k + 1
        :: else -> break
        od;
        run check()
    }
}
