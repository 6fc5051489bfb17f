/* A lock-striped hash set with a client of N threads: the Promela translation of
 * benches/programs/cyclic/striped_map.ic (see its header for the algorithm, its
 * source and the expected result). N is a macro: `spin -DN=4 -a striped_map.pml`;
 * L, B and S are as the .ic's params.
 *
 * Atomicity: each atomic { } or guard below is one block of the .ic version, with
 * the same accesses to shared variables (one each, but for the checker's); a test
 * of what the block reads is one guard per outcome, and the gotos between them are
 * jumps that SPIN folds into the transitions. A bucket, a list in the .ic version,
 * is here blen[b] keys in bkey[b * CAP ..]: reading it (and looking for the key) is
 * one atomic, writing it back with the key appended another. The .ic version's loop
 * over operations (op) is advanced by each release, and the first attempt at a lock
 * is the same transition as every later one.
 * Expected: no error (SPIN: "errors: 0").
 * Measured (SPIN 6.5.2, partial order reduction on; `benches/promela/run_spin.sh
 * striped_map.pml N`), states stored, no error: N = 2: 258; N = 3: 2,814; N = 4:
 * 33,782.
 * SPIN's partial order reduction removes no state here: every transition reads or
 * writes a shared variable, which SPIN's static reduction never treats as safe;
 * pan compiled with -DNOREDUCE stores as many states (measured at N = 3).
 */

#ifndef N
#define N 3
#endif
#define L 2                      /* locks (stripes) */
#define B (2 * L)                /* buckets: a multiple of L */
#define S (B * (N / B + 1) + 1)  /* the key every thread adds: above N, in bucket 1 */
#define CAP (N + 1)              /* room for every key in one bucket */

#define X (op == 1 -> S : me)    /* the key of operation op */
#define BK (X % B)               /* its bucket */
#define ST (BK % L)              /* its lock */

byte lock[L];          /* lock[s]: stripe s's lock, a test-and-set spinlock */
byte bkey[B * CAP];    /* bucket b: bkey[b * CAP .. b * CAP + blen[b] - 1] */
byte blen[B];
byte size = 0;         /* the set's size, an atomic counter */
bool fresh[N + 1];     /* fresh[k]: thread k's add(S) returned true */
byte done = 0;

proctype client(byte me) {
    byte op = 0;       /* 0: add(me); 1: add(S); 2: contains(me); 3: all done */
    byte cnt;
    byte i;
    bool present;
acquire:
    if
    :: atomic { op < 3 && lock[ST] != 0 }; goto acquire
    :: atomic { op < 3 && lock[ST] == 0 -> lock[ST] = 1 };
       /* read the bucket (the .ic list), and look for the key */
       atomic {
           cnt = blen[BK];
           present = false;
           i = 0;
           do
           :: i < cnt && bkey[BK * CAP + i] == X -> present = true; i = i + 1
           :: i < cnt && bkey[BK * CAP + i] != X -> i = i + 1
           :: else -> break
           od;
           i = 0
       };
       if
       :: atomic {
              op == 2 ->
              assert(present);   /* "contains did not find the key added" */
              lock[ST] = 0; op = op + 1
          };
          goto acquire
       :: atomic {
              op < 2 && present ->
              assert(op != 0);   /* "add found its own key already in the set" */
              lock[ST] = 0; op = op + 1
          };
          goto acquire
       :: atomic { op < 2 && !present -> bkey[BK * CAP + cnt] = X; blen[BK] = cnt + 1 };
          atomic { size = size + 1 };   /* getAndIncrement(): one block */
          if
          :: atomic { op == 1 -> fresh[me] = true }
          :: atomic { op == 0 -> lock[ST] = 0; op = op + 1 }; goto acquire
          fi;
          atomic { lock[ST] = 0; op = op + 1 };
          goto acquire
       fi
    :: atomic { op == 3 -> done = done + 1 }
    fi
}

proctype check() {
    byte k;
    byte adds = 0;
    byte found = 0;
    byte b;
    byte j;
    atomic {
        done == N ->
        k = 1;
        do
        :: k <= N && fresh[k] -> adds = adds + 1; k = k + 1
        :: k <= N && !fresh[k] -> k = k + 1
        :: else -> break
        od;
        assert(adds == 1);   /* "add(S) returned true more or less than once" */
        b = 0;
        do
        :: b < B ->
           k = 0;
           do
           :: k < blen[b] ->
              assert(bkey[b * CAP + k] % B == b);   /* "a key in the wrong bucket" */
              j = k + 1;
              do
              :: j < blen[b] ->
                 assert(bkey[b * CAP + j] != bkey[b * CAP + k]);   /* "a key twice" */
                 j = j + 1
              :: else -> break
              od;
              k = k + 1
           :: else -> break
           od;
           found = found + blen[b];
           b = b + 1
        :: else -> break
        od;
        assert(found == N + 1);   /* "the buckets do not hold N + 1 keys" */
        assert(size == N + 1)     /* "the size is not N + 1" */
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
