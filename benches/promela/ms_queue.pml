/* The Michael-Scott queue with a client of N threads: the Promela translation of
 * benches/programs/cyclic/ms_queue.ic (see its header for the algorithm, its source
 * and the expected result). N is a macro: `spin -DN=3 -a ms_queue.pml`.
 *
 * Atomicity: each atomic { } or guard below is one block of the .ic version, with
 * the same accesses to shared variables (one each, but for the checker's); a test
 * of what the block reads is one guard per outcome, and the gotos between them are
 * jumps that SPIN folds into the transitions. A failed re-read or CAS goes back to
 * the loop's first read, as the .ic loop does a block later.
 * Expected: no error (SPIN: "errors: 0").
 * Measured (SPIN 6.5.2, partial order reduction on; `benches/promela/run_spin.sh
 * ms_queue.pml N`), states stored, no error: N = 2: 720; N = 3: 88,335.
 * SPIN's partial order reduction removes no state here: every transition reads or
 * writes a shared variable, which SPIN's static reduction never treats as safe;
 * pan compiled with -DNOREDUCE stores as many states (measured at N = 3).
 */

#ifndef N
#define N 3
#endif

byte qhead = N + 1;     /* Q.head; node k (1 .. N): thread k's, value k; */
byte qtail = N + 1;     /* Q.tail; node N + 1: the initial dummy; 0: null */
byte next[N + 2];
byte val[N + 2];
byte taken[N + 1];      /* taken[v]: how many dequeues returned v */
byte done = 0;

proctype client(byte me) {
    byte t;
    byte nx;
    byte h;
    byte tl;
    byte v;
    byte got;
    /* enqueue(me) */
    atomic { val[me] = me };
enq:
    atomic { t = qtail };
    atomic { nx = next[t] };
    if
    :: atomic { qtail == t }
    :: atomic { qtail != t }; goto enq
    fi;
    if
    :: atomic { nx == 0 && next[t] == 0 -> next[t] = me }   /* CAS(&t.next, nx, node) */
    :: atomic { nx == 0 && next[t] != 0 }; goto enq
    :: atomic { nx != 0 && qtail == t -> qtail = nx }; goto enq   /* help the tail on */
    :: atomic { nx != 0 && qtail != t }; goto enq
    fi;
    if   /* CAS(&Q.tail, t, node) */
    :: atomic { qtail == t -> qtail = me }
    :: atomic { qtail != t }
    fi;
    /* dequeue() */
deq:
    atomic { h = qhead };
    atomic { tl = qtail };
    atomic { nx = next[h] };
    if
    :: atomic { qhead == h }
    :: atomic { qhead != h }; goto deq
    fi;
    if
    :: atomic {
           h == tl ->
           assert(nx != 0);   /* "dequeue found the queue empty" */
           if   /* help the tail on */
           :: qtail == tl -> qtail = nx
           :: else
           fi
       };
       goto deq
    :: atomic { h != tl -> v = val[nx] };
       if   /* CAS(&Q.head, h, nx) */
       :: atomic { qhead == h -> qhead = nx; got = v }
       :: atomic { qhead != h }; goto deq
       fi
    fi;
    atomic { taken[got] = taken[got] + 1 };
    atomic { done = done + 1 }
}

proctype check() {
    byte k;
    atomic {
        done == N ->
        k = 1;
        do
        :: k <= N -> assert(taken[k] == 1); k = k + 1   /* "a value dequeued twice or never" */
        :: else -> break
        od;
        assert(qhead == qtail)   /* "the queue is not empty at the end" */
    }
}

init {
    byte k = 1;
    atomic {
        do
        :: k <= N -> run client(k); k = k + 1
        :: else -> break
        od;
        run check()
    }
}
