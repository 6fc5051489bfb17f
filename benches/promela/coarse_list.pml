/* A coarse-grained list set with a client of N threads: the Promela translation of
 * benches/programs/cyclic/coarse_list.ic (see its header for the algorithm, its
 * source and the expected result). N is a macro: `spin -DN=4 -a coarse_list.pml`.
 *
 * Atomicity: each atomic { } or guard below is one block of the .ic version, with
 * the same accesses to shared variables (one each, but for the checker's); a test
 * of what the block reads is one guard per outcome, and the gotos between them are
 * jumps that SPIN folds into the transitions. The .ic version's second operation is
 * the next turn of its loop over operations (op); here op is advanced by the
 * release, and the first attempt at the lock is the same transition as every later
 * one.
 * Expected: no error (SPIN: "errors: 0").
 * Measured (SPIN 6.5.2, partial order reduction on; `benches/promela/run_spin.sh
 * coarse_list.pml N`), states stored, no error: N = 2: 141; N = 3: 2,144; N = 4:
 * 48,457.
 * SPIN's partial order reduction removes no state here: every transition reads or
 * writes a shared variable, which SPIN's static reduction never treats as safe;
 * pan compiled with -DNOREDUCE stores as many states (measured at N = 3).
 */

#ifndef N
#define N 3
#endif

byte next[N + 2];   /* node 0: head, N + 1: tail, k: thread k's node, key k */
byte lock = 0;      /* the one lock, a test-and-set spinlock */
byte done = 0;

proctype client(byte me) {
    byte op = 0;    /* 0: add(me); 1: remove(me); 2: both done */
    byte pred;
    byte curr;
    byte succ;
acquire:
    if
    :: atomic { op < 2 && lock != 0 }; goto acquire
    :: atomic { op < 2 && lock == 0 -> lock = 1 };
       atomic { pred = 0; curr = next[0] };
find:  /* curr = next[pred] was just read */
       if
       :: atomic { curr < me -> pred = curr; curr = next[curr] }; goto find
       :: atomic { curr >= me && op == 0 -> assert(curr != me); next[me] = curr };
          atomic { next[pred] = me }
       :: atomic { curr >= me && op == 1 -> assert(curr == me); succ = next[curr] };
          atomic { next[pred] = succ }
       fi;
       atomic { lock = 0; op = op + 1 };
       goto acquire
    :: atomic { op == 2 -> done = done + 1 }
    fi
}

proctype check() {
    atomic {
        done == N ->
        assert(next[0] == N + 1);   /* "the set is not empty at the end" */
        assert(lock == 0)           /* "the lock is still held at the end" */
    }
}

init {
    byte k = 1;
    atomic {
        next[0] = N + 1;
        do
        :: k <= N -> run client(k); k = k + 1
        :: else -> break
        od;
        run check()
    }
}
