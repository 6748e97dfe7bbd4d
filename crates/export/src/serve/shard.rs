//! `serve --shard K/N`: which pairs shard K of N serves. Rendezvous (highest-random-weight)
//! hashing: each pair scores every shard with a hash of (pair name, shard number) and goes to
//! the shard that scores highest. Every pair lands on exactly one shard, the shards get about
//! equal numbers, and going from N to N+1 shards moves only the pairs the new shard wins
//! (about 1 in N+1); none moves between the old shards. The hash is FNV-1a (64 bit) of the
//! name, mixed with the shard number by SplitMix64's finalizer: fixed by this file, the same
//! on every platform and in every version, so exporters built at different times agree.

use std::fmt;
use std::str::FromStr;

/// Shard `k` of `n` (1-based: `1/2` and `2/2`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub k: u32,
    pub n: u32,
}

/// The most shards a fleet may be split into (more than pairs anyone runs per exporter).
pub const MAX_SHARDS: u32 = 1024;

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// SplitMix64's finalizer: every input bit reaches every output bit.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The score of shard `k` for a pair whose name hashes to `h`.
fn weight(h: u64, k: u32) -> u64 {
    mix(h ^ mix(u64::from(k)))
}

/// The shard (1..=n) that serves `pair` when the fleet is split `n` ways.
pub fn shard_of(pair: &str, n: u32) -> u32 {
    let h = fnv1a(pair.as_bytes());
    (1..=n.max(1))
        .max_by_key(|&k| (weight(h, k), std::cmp::Reverse(k)))
        .unwrap_or(1)
}

impl Shard {
    /// Whether this shard serves `pair`.
    pub fn owns(&self, pair: &str) -> bool {
        shard_of(pair, self.n) == self.k
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let usage = "write K/N, shard K of N counted from 1 (e.g. 1/2 and 2/2)";
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("{s:?} is not K/N: {usage}"))?;
        let num = |v: &str| v.trim().parse::<u32>().ok();
        let (Some(k), Some(n)) = (num(k), num(n)) else {
            return Err(format!("{s:?} is not K/N with whole numbers: {usage}"));
        };
        if n == 0 || n > MAX_SHARDS {
            return Err(format!(
                "{s:?}: N must be between 1 and {MAX_SHARDS} shards"
            ));
        }
        if k == 0 || k > n {
            return Err(format!(
                "{s:?}: shard K must be between 1 and N={n} (shards are counted from 1)"
            ));
        }
        Ok(Shard { k, n })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("prod_{i:03}")).collect()
    }

    #[test]
    fn parses_k_of_n_and_refuses_what_is_not_a_shard() {
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { k: 2, n: 3 }));
        for bad in ["0/2", "3/2", "1/0", "2", "a/b", "-1/2", "1/2/3", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert!("0/2"
            .parse::<Shard>()
            .unwrap_err()
            .contains("counted from 1"));
    }

    /// Every pair on exactly one shard, and the shards about even.
    #[test]
    fn every_pair_is_served_once_and_the_shards_are_balanced() {
        let all = names(1000);
        for n in [1u32, 2, 3, 5, 8] {
            let mut per = vec![0usize; n as usize];
            for p in &all {
                let owners: Vec<u32> = (1..=n).filter(|&k| Shard { k, n }.owns(p)).collect();
                assert_eq!(owners.len(), 1, "{p} with {n} shards: {owners:?}");
                per[owners[0] as usize - 1] += 1;
            }
            let even = all.len() / n as usize;
            for c in &per {
                assert!(c.abs_diff(even) <= even / 5 + 10, "{n} shards: {per:?}");
            }
        }
    }

    /// A shard added moves only the pairs it takes: none moves between the old shards, and
    /// about 1 in N+1 moves at all.
    #[test]
    fn adding_a_shard_moves_few_pairs() {
        let all = names(1000);
        for n in [2u32, 3, 4, 7] {
            let mut moved = 0usize;
            for p in &all {
                let (before, after) = (shard_of(p, n), shard_of(p, n + 1));
                if before != after {
                    assert_eq!(after, n + 1, "{p} moved from {before} to {after}");
                    moved += 1;
                }
            }
            let expect = all.len() / (n as usize + 1);
            assert!(
                moved.abs_diff(expect) <= expect / 4 + 10,
                "{n}→{}: {moved}",
                n + 1
            );
        }
    }

    /// The hash is fixed by this file: a pair's shard never changes between versions.
    #[test]
    fn the_assignment_is_pinned() {
        let got: Vec<u32> = ["prod", "dr_east", "twin-slow-srl", "b\u{e4}nk"]
            .iter()
            .map(|p| shard_of(p, 4))
            .collect();
        assert_eq!(got, PINNED);
    }
    const PINNED: [u32; 4] = [2, 2, 3, 3];

    /// FNV-1a as published (the reference test vectors of draft-eastlake-fnv).
    #[test]
    fn fnv1a_is_the_published_function() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
