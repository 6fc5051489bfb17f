//! 128-bit fingerprints: sets of final states and of Mazurkiewicz traces keep these
//! instead of whole values. Two SipHash-1-3 passes with different seeds; a collision
//! among a billion items has probability about 10^-21.

use std::hash::{DefaultHasher, Hash, Hasher};

pub type Fingerprint = u128;

pub fn fingerprint<T: Hash + ?Sized>(value: &T) -> Fingerprint {
    let mut low = DefaultHasher::new();
    value.hash(&mut low);
    let mut high = DefaultHasher::new();
    0x9e37_79b9_7f4a_7c15_u64.hash(&mut high);
    value.hash(&mut high);
    (u128::from(high.finish()) << 64) | u128::from(low.finish())
}
