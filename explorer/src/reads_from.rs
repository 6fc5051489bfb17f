//! The reads-from class of a complete execution: which write each event read each
//! location from, and which write each location ends with. Two executions with the
//! same events (named by process identity and position in their process) and the same
//! class behave alike event by event — each reads the same values, so it takes the
//! same path, writes and spawns the same, and fails or passes the same assertions —
//! and end in the same state. It is the coarsest class a reduction may keep one
//! execution of without reasoning about values: Mazurkiewicz traces and the classes
//! of the observers' order (`→ob`, [`crate::dependency::observers`]) each lie within one.
//!
//! So a search that is complete for either explores every reads-from class `naive`
//! reaches. The differential test compares these sets (`Config::record_reads_from`)
//! where a count cannot tell: `odpor-ob` once reached every final state of a program
//! while it missed classes, and lost an assertion on a program of the same shape.
//!
//! Reads are those the event made, whichever footprints the search judged it by:
//! the classes are the same for every search, and each Mazurkiewicz trace, of what
//! events did or of their transition footprints, lies within one. A read of a whole
//! container ([`WHOLE`]) reads from the last writer of each of its locations written
//! so far.

use crate::dependency::footprint::{intersects, WHOLE};
use crate::executor::Event;
use crate::fingerprint::{fingerprint, Fingerprint};
use crate::state::Process;
use frontend::memory::Loc;
use std::sync::Arc;

/// The reads-from class of the complete execution `events`, whose processes are
/// `procs` (see the module's doc). Independent of the order of independent events.
pub fn class(events: &[Event], procs: &[Arc<Process>]) -> Fingerprint {
    // Each event as (process identity, position in its process).
    let mut nth = vec![0u32; procs.len()];
    let names: Vec<(Fingerprint, u32)> = events
        .iter()
        .map(|e| {
            nth[e.proc] += 1;
            (procs[e.proc].pid_key, nth[e.proc])
        })
        .collect();
    let named = |i: usize, l: Loc| -> Vec<(Loc, Option<(Fingerprint, u32)>)> {
        sources(&events[..i], l)
            .into_iter()
            .map(|(at, w)| (at, w.map(|w| names[w])))
            .collect()
    };
    let reads = events.iter().enumerate().map(|(i, e)| {
        let read: Vec<_> = e.read.iter().map(|&l| named(i, l)).collect();
        fingerprint(&(names[i], read))
    });
    // The end reads every location written.
    let mut written: Vec<Loc> = events
        .iter()
        .flat_map(|e| e.written.iter().copied())
        .collect();
    written.sort_unstable();
    written.dedup();
    let ends = written
        .iter()
        .map(|&l| fingerprint(&named(events.len(), l)));
    reads.chain(ends).fold(0u128, u128::wrapping_add)
}

/// Where a read of `l` after `events` takes its value from: the last event that wrote
/// it (`None`: the initial value). An element's writers (of it, or of its whole
/// container) are ordered by every dependency; the writers of a whole container's
/// elements are not, so a read of the whole container (or of a whole write, at the
/// end) names the last writer of each location of it written so far — the last whole
/// write, and each element's last writer — rather than the last of them all.
fn sources(events: &[Event], l: Loc) -> Vec<(Loc, Option<usize>)> {
    let last = |hits: &dyn Fn(&Event) -> bool| events.iter().rposition(hits);
    if l.elem != WHOLE {
        return vec![(l, last(&|w| intersects(&w.written, &[l])))];
    }
    let mut parts: Vec<Loc> = events
        .iter()
        .flat_map(|e| e.written.iter().copied())
        .filter(|w| w.global == l.global)
        .collect();
    parts.sort_unstable();
    parts.dedup();
    parts
        .into_iter()
        .map(|part| {
            let writer = if part.elem == WHOLE {
                last(&|w| w.written.contains(&part))
            } else {
                last(&|w| intersects(&w.written, &[part]))
            };
            (part, writer)
        })
        .collect()
}
