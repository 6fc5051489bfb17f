/* The Michael-Scott queue whose dequeue swings head with a plain write (the bug):
 * the Promela translation of benches/programs/cyclic/ms_queue_buggy.ic (see its
 * header for the algorithm, its source and the expected result). N is a macro:
 * `spin -DN=3 -a ms_queue_buggy.pml`.
 *
 * Atomicity: each atomic { } or guard below is one block of the .ic version, with
 * the same accesses to shared variables (one each, but for the checker's); a test
 * of what the block reads is one guard per outcome, and the gotos between them are
 * jumps that SPIN folds into the transitions.
 * Expected: an assertion fails (SPIN: "assertion violated", "errors: 1").
 * Measured (SPIN 6.5.2, partial order reduction on; `benches/promela/run_spin.sh
 * ms_queue_buggy.pml N`), states stored until the assertion violation: N = 2: 98;
 * N = 3: 113; N = 4: 128.
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
       atomic { qhead = nx; got = v }   /* the bug: a plain write, no CAS(&Q.head, h, nx) */
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
