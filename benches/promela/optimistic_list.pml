/* An optimistic list set with a client of N threads: the Promela translation of
 * benches/programs/cyclic/optimistic_list.ic (see its header for the algorithm, its
 * source and the expected result). N is a macro: `spin -DN=3 -a optimistic_list.pml`.
 *
 * Atomicity: each atomic { } or guard below is one block of the .ic version, with
 * the same accesses to shared variables (one each, but for the checker's); a test
 * of what the block reads is one guard per outcome, and the gotos between them are
 * jumps that SPIN folds into the transitions. The first attempt at pred's lock
 * shares the block of the traversal's last read (the .ic loop exits into it), later
 * attempts are the spin at lock_pred. A validation that passes pred without meeting
 * it (node > pred) is the .ic block that unlocks pred. The .ic version's loop over
 * operations (op) is advanced here when curr is unlocked after a successful
 * attempt.
 * Expected: no error (SPIN: "errors: 0").
 * Measured (SPIN 6.5.2, partial order reduction on; `benches/promela/run_spin.sh
 * optimistic_list.pml N`), states stored, no error: N = 2: 624; N = 3: 32,915.
 * SPIN's partial order reduction removes no state here: every transition reads or
 * writes a shared variable, which SPIN's static reduction never treats as safe;
 * pan compiled with -DNOREDUCE stores as many states (measured at N = 3).
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
    byte node;
    byte succ;
    bool valid;
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
       :: atomic { nlock[curr] == 0 -> nlock[curr] = 1; node = 0 }
       :: atomic { nlock[curr] != 0 }; goto lock_curr
       fi;
validate:   /* pred still reachable from head, and pred.next == curr */
       if
       :: atomic { node == pred -> valid = (next[pred] == curr) }
       :: atomic { node < pred -> node = next[node] }; goto validate
       :: atomic { node > pred -> valid = false; nlock[pred] = 0 }; goto unlock_curr
       fi;
       if
       :: atomic { valid && op == 0 -> assert(curr != me); next[me] = curr };
          atomic { next[pred] = me }
       :: atomic { valid && op == 1 -> assert(curr == me); succ = next[curr] };
          atomic { next[pred] = succ }
       :: atomic { !valid -> nlock[pred] = 0 }; goto unlock_curr
       fi;
       atomic { nlock[pred] = 0 };
unlock_curr:
       atomic {
           nlock[curr] = 0;
           if
           :: valid -> op = op + 1
           :: else
           fi
       };
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
