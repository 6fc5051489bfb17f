//! A map global's contents: persistent, and hashed as it is written.
//!
//! The explorers copy states far more often than they write a map (a snapshot at
//! every node of a path, alternative runs), and hash them at every state they
//! store or check for recurrence, while a map of futures or results grows with the
//! program's size. So a copy shares the map ([`imbl::OrdMap`]: a write copies the
//! path to its key only), and the hash is kept up to date by each write: the sum of
//! a 128-bit mix of each entry, which is the same whatever order the entries came
//! in, as the state's multiset of processes is hashed. On `fib_source(14)`, whose
//! maps have about 1,200 keys, copying each map whole at each write was a fifth of
//! cdpor's time, and hashing them whole at each step another sixth.

use std::hash::{Hash, Hasher};

/// The entries of a map global, with the sum of their mixes.
#[derive(Clone, Debug, Default)]
pub struct Map {
    entries: imbl::OrdMap<i64, i64>,
    sum: u128,
}

impl Map {
    pub fn new() -> Map {
        Map::default()
    }

    pub fn get(&self, key: &i64) -> Option<&i64> {
        self.entries.get(key)
    }

    pub fn contains_key(&self, key: &i64) -> bool {
        self.entries.contains_key(key)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries in increasing key order.
    pub fn iter(&self) -> impl Iterator<Item = (&i64, &i64)> {
        self.entries.iter()
    }

    /// The keys in increasing order.
    pub fn keys(&self) -> impl Iterator<Item = &i64> {
        self.entries.keys()
    }

    /// Sets `key` to `value`: the value it had.
    pub fn insert(&mut self, key: i64, value: i64) -> Option<i64> {
        let old = self.entries.insert(key, value);
        if let Some(old) = old {
            self.sum = self.sum.wrapping_sub(mix(key, old));
        }
        self.sum = self.sum.wrapping_add(mix(key, value));
        old
    }

    /// Removes `key`: the value it had.
    pub fn remove(&mut self, key: &i64) -> Option<i64> {
        let old = self.entries.remove(key);
        if let Some(old) = old {
            self.sum = self.sum.wrapping_sub(mix(*key, old));
        }
        old
    }
}

/// Equal entries (the sums then are too).
impl PartialEq for Map {
    fn eq(&self, other: &Map) -> bool {
        self.sum == other.sum && self.entries == other.entries
    }
}

impl Eq for Map {}

/// The number of entries and their sum: equal for equal maps.
impl Hash for Map {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.entries.len());
        state.write_u128(self.sum);
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a i64, &'a i64);
    type IntoIter = imbl::ordmap::Iter<'a, i64, i64, imbl::shared_ptr::DefaultSharedPtr>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter()
    }
}

/// An entry's mix: two 64-bit finalisers (SplitMix64's) of the key and the value,
/// with different constants for each half.
fn mix(key: i64, value: i64) -> u128 {
    let (k, v) = (key as u64, value as u64);
    let lo = fmix(k ^ fmix(v ^ 0x9e37_79b9_7f4a_7c15));
    let hi = fmix(k.wrapping_add(0xc2b2_ae3d_27d4_eb4f) ^ fmix(v.rotate_left(31)));
    (u128::from(hi) << 64) | u128::from(lo)
}

fn fmix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::DefaultHasher;

    fn hash(map: &Map) -> u64 {
        let mut h = DefaultHasher::new();
        map.hash(&mut h);
        h.finish()
    }

    #[test]
    fn the_hash_is_the_entries_whatever_the_writes_that_left_them() {
        let mut a = Map::new();
        a.insert(1, 10);
        a.insert(2, 20);
        let mut b = Map::new();
        b.insert(2, 7);
        b.insert(3, 30);
        b.insert(1, 10);
        b.insert(2, 20);
        assert_ne!(a, b);
        assert_ne!(hash(&a), hash(&b));
        assert_eq!(b.remove(&3), Some(30));
        assert_eq!(b.remove(&3), None);
        assert_eq!(a, b);
        assert_eq!(hash(&a), hash(&b));
        // Values swapped between keys are another map.
        let mut c = Map::new();
        c.insert(1, 20);
        c.insert(2, 10);
        assert_ne!(hash(&a), hash(&c));
        assert_eq!(b.remove(&1), Some(10));
        assert_eq!(b.remove(&2), Some(20));
        assert_eq!(hash(&b), hash(&Map::new()));
    }
}
