//! Shards of a class (`grader run --shard K/N`): which students a shard grades, by a stable hash of
//! the student folder's name, the same on every machine and in every run.

use std::ffi::OsStr;
use std::fmt;
use std::os::unix::ffi::OsStrExt as _;
use std::str::FromStr;

/// Shard `index` of `count` (1-based, as `SLURM_ARRAY_TASK_ID` counts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || {
            format!(
                "bad shard `{text}`\nhint: write `K/N` with 1 <= K <= N, such as `2/3` for the second of three"
            )
        };
        let (k, n) = text.trim().split_once('/').ok_or_else(bad)?;
        let index: u32 = k.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// Whether the student folder `name` is this shard's: [`bucket`] of its name is `index - 1`.
    #[must_use]
    pub fn contains(&self, name: &OsStr) -> bool {
        bucket(name.as_bytes(), self.count) == self.index - 1
    }
}

/// The shard (0-based, of `count`) a folder name falls in: FNV-1a of the name's bytes, then
/// SplitMix64's finaliser so that the low bits the remainder uses depend on every byte. Kept by hand:
/// a dozen lines with fixed constants can never change under a crate upgrade, and a student's shard
/// must never move between the shards of one class.
#[must_use]
pub fn bucket(name: &[u8], count: u32) -> u32 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in name {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^= h >> 31;
    u32::try_from(h % u64::from(count.max(1))).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_refuse_what_is_not_k_of_n() {
        assert_eq!("2/3".parse(), Ok(Shard { index: 2, count: 3 }));
        assert_eq!(" 1 / 1 ".parse(), Ok(Shard { index: 1, count: 1 }));
        for bad in ["0/3", "4/3", "1/0", "3", "a/b", "-1/3", ""] {
            let e = bad.parse::<Shard>().unwrap_err();
            assert!(e.starts_with(&format!("bad shard `{bad}`")), "{e}");
            assert!(e.contains("hint: write `K/N`"), "{e}");
        }
        assert_eq!(Shard { index: 2, count: 5 }.to_string(), "2/5");
    }

    #[test]
    fn every_student_is_in_exactly_one_shard_and_the_shards_share_the_class() {
        let names: Vec<String> = (0..3000).map(|i| format!("a{i:04}")).collect();
        for count in [1, 2, 3, 7] {
            let mut sizes = vec![0usize; count as usize];
            for name in &names {
                let owners: Vec<u32> = (1..=count)
                    .filter(|&index| Shard { index, count }.contains(OsStr::new(name)))
                    .collect();
                assert_eq!(owners.len(), 1, "{name} in {owners:?} of {count}");
                sizes[owners[0] as usize - 1] += 1;
            }
            // Near-even shares, though the names differ in their last characters only.
            let even = names.len() / count as usize;
            for s in &sizes {
                assert!(s.abs_diff(even) < even / 8 + 10, "{sizes:?}");
            }
        }
    }

    #[test]
    fn the_bucket_of_a_name_never_changes() {
        // Pinned: results sharded by one build of the grader merge with another's.
        let got: Vec<u32> = ["alice", "bob", "carol", "dave", ""]
            .iter()
            .map(|n| bucket(n.as_bytes(), 1000))
            .collect();
        assert_eq!(got, PINNED);
    }

    // FNV-1a then SplitMix64's finaliser, computed apart from this code.
    const PINNED: [u32; 5] = [572, 964, 93, 54, 203];
}
