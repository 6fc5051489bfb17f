/* An optimistic list set without its validation (the bug): the Promela translation
 * of benches/programs/cyclic/optimistic_list_buggy.ic (see its header for the
 * algorithm, its source and the expected result). N is a macro:
 * `spin -DN=3 -a optimistic_list_buggy.pml`.
 *
 * Atomicity: each atomic { } or guard below is one block of the .ic version, with
 * the same accesses to shared variables (one each, but for the checker's); a test
 * of what the block reads is one guard per outcome, and the gotos between them are
 * jumps that SPIN folds into the transitions.
 * Expected: an assertion fails (SPIN: "assertion violated", "errors: 1").
 * Measured (SPIN 6.5.2, partial order reduction on; `benches/promela/run_spin.sh
 * optimistic_list_buggy.pml N`), states stored until the assertion violation:
 * N = 2: 91; N = 3: 107; N = 4: 123.
 */

#ifndef N
#define N 3
#endif

byte next[N + 2];    /* node 0: head, N + 1: tail, k: thread k's node, key k */
byte nlock[N + 2];   /* nlock[k]: node k's lock, a test-and-set spinlock */
byte done = 0;

proctype client(byte me) {
    byte op = 0;     /* 0: add(me); 1: remove(me); 2: both done */
    byte pred;
    byte curr;
    byte succ;
traverse:   /* an attempt: traverse without locks, pred < me <= curr */
    if
    :: atomic { op < 2 -> pred = 0; curr = next[0] };
find:       /* curr = next[pred] was just read */
       if
       :: atomic { curr < me -> pred = curr; curr = next[curr] }; goto find
       :: atomic { curr >= me && nlock[pred] == 0 -> nlock[pred] = 1 }; goto lock_curr
       :: atomic { curr >= me && nlock[pred] != 0 }
       fi;
lock_pred:  /* spin */
       if
       :: atomic { nlock[pred] == 0 -> nlock[pred] = 1 }
       :: atomic { nlock[pred] != 0 }; goto lock_pred
       fi;
lock_curr:
       if
       :: atomic { nlock[curr] == 0 -> nlock[curr] = 1 }
       :: atomic { nlock[curr] != 0 }; goto lock_curr
       fi;
       /* the bug: no validate(pred, curr) */
       if
       :: atomic { op == 0 -> assert(curr != me); next[me] = curr };
          atomic { next[pred] = me }
       :: atomic { op == 1 -> assert(curr == me); succ = next[curr] };
          atomic { next[pred] = succ }
       fi;
       atomic { nlock[pred] = 0 };
       atomic { nlock[curr] = 0; op = op + 1 };
       goto traverse
    :: atomic { op == 2 -> done = done + 1 }
    fi
}

proctype check() {
    byte k;
    atomic {
        done == N ->
        assert(next[0] == N + 1);   /* "the set is not empty at the end" */
        k = 0;
        do
        :: k < N + 2 -> assert(nlock[k] == 0); k = k + 1   /* "a lock is still held" */
        :: else -> break
        od
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
