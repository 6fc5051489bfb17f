//! Safe sets (paper 003, Sec. 3.1): `safeSet(s)` is `{t}` for a process `t` whose
//! next step is *invisible*, every enabled process otherwise.
//!
//! A step is invisible when its block, run from its process's local state, may read
//! or write no global location: its transition footprint is empty, its `await` guard
//! included ([`crate::dependency::footprint`]). Such a step is independent of every
//! step of every other process, in every state, and no other process can disable it
//! (its guard reads no global): `{t}` is a persistent set, so a source set, of every
//! state where it is enabled. The paper's "starting threads" are invisible too: a
//! step that spawns touches no global location by spawning, and the new processes
//! exist only after it.

use crate::exploration::Exploration;

/// The first enabled process (in spawn order) whose next step is invisible.
pub fn invisible_step(run: &Exploration<'_, '_>, enabled: &[usize]) -> Option<usize> {
    enabled.iter().copied().find(|&p| run.ex.touches_nothing(p))
}
