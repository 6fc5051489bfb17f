/* Lamport's bakery algorithm for N processes, each entering once: the Promela
 * translation of benches/programs/cyclic/bakery.ic (see its header for the
 * algorithm, its source and the expected result). N is a macro:
 * `spin -DN=3 -a bakery.pml`.
 *
 * Atomicity: each atomic { } below is one block of the .ic version, with the same
 * single access to a shared variable: its guard is the .ic block's test on what the
 * previous block read into a local (and the .ic loops' bookkeeping), a test of a
 * shared variable (a .ic loop condition) is one atomic per outcome, and the gotos
 * between atomics are jumps that SPIN folds into the transitions (`./pan -d` lists
 * one transition per .ic block and outcome, and one more per process for its end).
 * Expected: no error (SPIN: "errors: 0").
 * Measured (SPIN 6.5.2, partial order reduction on; `benches/promela/run_spin.sh
 * bakery.pml N`), states stored, no error: N = 2: 246; N = 3: 12,631; N = 4:
 * 1,001,230.
 * SPIN's partial order reduction removes no state here: every transition reads or
 * writes a shared variable, which SPIN's static reduction never treats as safe;
 * pan compiled with -DNOREDUCE stores as many states (measured at each N above).
 */

#ifndef N
#define N 3
#endif

bool choosing[N];
byte number[N];      /* 0: not interested */
byte counter = 0;
byte done = 0;

#define FIRST (i == 0 -> 1 : 0)               /* the first process other than i */
#define NEXT (k + 1 == i -> k + 2 : k + 1)     /* the next one after k */
/* k may go first: (number[k], k) is not below (number[i], i), number[i] = mine */
#define PASS (nk == 0 || nk > mine || (nk == mine && k > i))

proctype worker(byte i) {
    byte m = 0;
    byte k = 0;
    byte nk;
    byte mine;
    byte c;
    atomic { choosing[i] = true };
    /* number[i] = 1 + max(number[0], ..., number[N-1]): one read per atomic */
    atomic { nk = number[0] };
read_max:      /* nk = number[k] was just read */
    if
    :: atomic { k + 1 < N -> m = (nk > m -> nk : m); k = k + 1; nk = number[k] };
       goto read_max
    :: atomic { k + 1 >= N -> m = (nk > m -> nk : m); mine = m + 1; number[i] = mine }
    fi;
    atomic { choosing[i] = false };
    /* for each k != i: while (choosing[k]) {} and
     * while (number[k] != 0 && (number[k], k) < (number[i], i)) {} */
    k = FIRST;
wait_choosing:
    if
    :: atomic { choosing[k] }; goto wait_choosing
    :: atomic { !choosing[k] }
    fi;
read_number_first:
    atomic { nk = number[k] };
read_number:   /* nk = number[k] was just read */
    if
    :: atomic { !PASS -> nk = number[k] }; goto read_number
    :: atomic { PASS && NEXT < N && choosing[NEXT] -> k = NEXT }; goto wait_choosing
    :: atomic { PASS && NEXT < N && !choosing[NEXT] -> k = NEXT };
       goto read_number_first
    :: atomic { PASS && NEXT >= N -> c = counter }; goto critical
    fi;
critical:
    /* critical section: a non-atomic increment (c = counter read above) */
    atomic { counter = c + 1 };
    atomic { number[i] = 0 };
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
