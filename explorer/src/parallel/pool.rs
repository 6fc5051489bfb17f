//! The work of a parallel stateful search ([`super::stateful`]): jobs that threads
//! hand to each other. A thread that runs out of work waits for a job; a thread
//! with work gives away the unexplored branches of the shallowest state on its
//! path whenever another waits and none is queued (the shallowest, because what
//! lies below it is likely the most). The search is over when every thread waits
//! and nothing is queued, or when one stops it.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// Some branches of a stored state: the processes (indices) whose path from the
/// initial state reaches it, and the processes to run from it. The first job of a
/// search, [`Job::root`], is the initial state itself, to store and expand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    pub path: Vec<usize>,
    /// `None`: the state at the end of `path` is to be stored and all its enabled
    /// processes run.
    pub branches: Option<Vec<usize>>,
}

impl Job {
    pub fn root() -> Job {
        Job {
            path: Vec::new(),
            branches: None,
        }
    }
}

pub struct Pool {
    queue: Mutex<Vec<Job>>,
    queued: AtomicUsize,
    /// Threads waiting for a job.
    waiting: AtomicUsize,
    workers: usize,
    ready: Condvar,
    /// Set when the search is over: every thread waited with nothing queued, or one
    /// stopped it (the threads' explorations then stop: it is their halt flag).
    over: Arc<AtomicBool>,
}

impl Pool {
    /// A pool for `workers` threads, holding the root job.
    pub fn new(workers: usize) -> Pool {
        Pool {
            queue: Mutex::new(vec![Job::root()]),
            queued: AtomicUsize::new(1),
            waiting: AtomicUsize::new(0),
            workers,
            ready: Condvar::new(),
            over: Arc::new(AtomicBool::new(false)),
        }
    }

    /// How many threads take jobs.
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// The next job, waiting for one; `None` when the search is over.
    pub fn take(&self) -> Option<Job> {
        let mut queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        self.waiting.fetch_add(1, Ordering::SeqCst);
        loop {
            if self.over.load(Ordering::SeqCst) {
                return None;
            }
            if let Some(job) = queue.pop() {
                self.queued.fetch_sub(1, Ordering::SeqCst);
                self.waiting.fetch_sub(1, Ordering::SeqCst);
                return Some(job);
            }
            if self.waiting.load(Ordering::SeqCst) == self.workers {
                self.end();
                return None;
            }
            // Woken by a job or the end; the timeout only guards against a lost wake-up.
            queue = (self.ready.wait_timeout(queue, Duration::from_millis(50)))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// Whether a thread waits for work that nobody has queued: then a thread with
    /// work should give some away ([`Pool::give`]).
    pub fn hungry(&self) -> bool {
        self.waiting.load(Ordering::Relaxed) > 0 && self.queued.load(Ordering::Relaxed) == 0
    }

    pub fn give(&self, job: Job) {
        let mut queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        queue.push(job);
        self.queued.fetch_add(1, Ordering::SeqCst);
        self.ready.notify_one();
    }

    /// Ends the search: every waiting thread gets `None`, and every thread with work
    /// should stop ([`Pool::is_over`]).
    pub fn end(&self) {
        self.over.store(true, Ordering::SeqCst);
        self.ready.notify_all();
    }

    /// The flag [`Pool::end`] sets.
    pub fn over_flag(&self) -> Arc<AtomicBool> {
        self.over.clone()
    }
}
