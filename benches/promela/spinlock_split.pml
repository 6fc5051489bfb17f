/* The spinlock whose test and set are two blocks: the Promela translation of
 * benches/programs/cyclic/spinlock_split.ic (see its header).
 *
 * Atomicity: each atomic { } is one block of the .ic version: the test (the lock
 * found free, or taken: a spin), the set a block later, the read of the counter,
 * its write, and the release. Two workers can both find the lock free before
 * either sets it, and one increment is lost.
 * Expected: an assertion violation (SPIN: "errors: 1").
 * Measured (SPIN 6.5.2; `benches/promela/run_spin.sh spinlock_split.pml N`): the
 * assertion violated, after 34, 40, 46 states stored at N = 2..4.
 */

#ifndef N
#define N 2
#endif

byte lock = 0;
byte counter = 0;
byte done = 0;

proctype worker() {
    bool got = false;
    byte c;
attempt:
    if
    :: atomic { !got && lock == 0 };
       atomic { lock = 1; got = true };
       goto attempt
    :: atomic { !got && lock != 0 }; goto attempt
    :: atomic { got -> c = counter }
    fi;
    atomic { counter = c + 1 };
    atomic { lock = 0; done = done + 1 }
}

proctype check() {
    atomic { done == N -> assert(counter == N) }   /* "lost update" */
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
