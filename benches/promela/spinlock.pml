/* A test-and-set spinlock protecting a counter (issue 43): the Promela translation
 * of benches/programs/cyclic/spinlock.ic (see its header).
 *
 * Atomicity: each atomic { } is one block of the .ic version: a test-and-set that
 * takes the lock or finds it taken (a spin), the increment once the lock is held,
 * and the release. The .ic version's first attempt is a block of its own (the loop's
 * entry); here it is the same transition as every later attempt, so SPIN stores a
 * few states fewer.
 * Expected: no error (SPIN: "errors: 0").
 * Measured (SPIN 6.5.2, partial order reduction on; `benches/promela/run_spin.sh
 * spinlock.pml N`): 18, 39, 88, 201, 458 states stored at N = 2..6, no error.
 */

#ifndef N
#define N 2
#endif

byte lock = 0;
byte counter = 0;
byte done = 0;

proctype worker() {
    bool got = false;
attempt:
    if
    :: atomic { !got && lock == 0 -> lock = 1; got = true }; goto attempt
    :: atomic { !got && lock != 0 }; goto attempt
    :: atomic { got -> counter = counter + 1 }
    fi;
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
