//! Process identities by spawn path (docs/language.md, "State and processes"): the
//! processes spawned by `init` are `1, 2, 3, …`; the `k`-th spawn of process `P` is
//! `P.k`. The same process gets the same identity in every interleaving, which is
//! what makes schedules replayable.

use std::fmt;
use std::sync::Arc;

#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pid(Arc<[u32]>);

impl Pid {
    /// The `k`-th process spawned by `init` (1-based).
    pub fn root(k: u32) -> Pid {
        Pid(Arc::from([k]))
    }

    /// The `k`-th process spawned by this one (1-based).
    pub fn child(&self, k: u32) -> Pid {
        let mut path = self.0.to_vec();
        path.push(k);
        Pid(Arc::from(path))
    }

    /// The process that spawned this one; `None` for a process `init` spawned.
    pub fn parent(&self) -> Option<Pid> {
        let (_, path) = self.0.split_last()?;
        (!path.is_empty()).then(|| Pid(Arc::from(path)))
    }

    /// Parses `1.2.3`.
    pub fn parse(s: &str) -> Option<Pid> {
        let path: Option<Vec<u32>> = s
            .split('.')
            .map(|p| p.parse().ok().filter(|k| *k > 0))
            .collect();
        path.filter(|p| !p.is_empty()).map(|p| Pid(Arc::from(p)))
    }
}

impl fmt::Display for Pid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, k) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "{k}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Pid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pid({self})")
    }
}
