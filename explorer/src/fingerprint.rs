//! 128-bit fingerprints: the sets of final states and of Mazurkiewicz traces keep
//! these instead of whole values.
//!
//! A fingerprint is two 64-bit hashes with independent seeds, each word mixed with
//! the SplitMix64 finaliser — much cheaper than SipHash on the explorer's hot path,
//! and with no structure shared with the values hashed (small integers, short
//! vectors). Among a billion items a collision has probability about 10^-21.

use std::hash::{Hash, Hasher};

pub type Fingerprint = u128;

/// SplitMix64's finaliser: a bijection on 64-bit words with full avalanche.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A [`Hasher`] producing both halves of a fingerprint at once.
struct Fingerprinter {
    low: u64,
    high: u64,
}

impl Fingerprinter {
    fn new() -> Self {
        Fingerprinter {
            low: 0x243f_6a88_85a3_08d3,
            high: 0x1319_8a2e_0370_7344,
        }
    }

    fn word(&mut self, w: u64) {
        self.low = mix(self.low ^ w).wrapping_add(0x9e37_79b9_7f4a_7c15);
        self.high = mix(self.high.rotate_left(17) ^ w ^ 0xa409_3822_299f_31d0);
    }

    fn finish128(&self) -> Fingerprint {
        (u128::from(mix(self.high)) << 64) | u128::from(mix(self.low))
    }
}

impl Hasher for Fingerprinter {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.word(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.word(u64::from_le_bytes(w) ^ ((rest.len() as u64) << 59));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.word(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.word(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.word(i);
    }

    fn write_i64(&mut self, i: i64) {
        self.word(i as u64);
    }

    fn write_usize(&mut self, i: usize) {
        self.word(i as u64);
    }

    fn finish(&self) -> u64 {
        self.finish128() as u64
    }
}

pub fn fingerprint<T: Hash + ?Sized>(value: &T) -> Fingerprint {
    let mut h = Fingerprinter::new();
    value.hash(&mut h);
    h.finish128()
}
