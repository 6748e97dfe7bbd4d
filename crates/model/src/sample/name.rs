//! `Name`: the short texts a sample holds dozens of — event, statistic and file type names,
//! process names and roles, destination settings, parameter values. A recording's reader
//! clones every sample from its slot's previous one and the engine drops it 15 minutes later;
//! with `String` each of those texts was an allocation and a free per sample, most of a full
//! pass's allocator time (`benches/recording_load.rs`). A `Name` keeps up to 30 bytes inline
//! (`log file parallel write` is 23, `MANAGED REAL TIME APPLY` 23) and only longer ones, such
//! as `log file switch (checkpoint incomplete)` or a `log_archive_dest_2` value, on the heap.
//!
//! It is immutable, compares, orders and hashes as its `str` (so a map keyed by `Name` is
//! looked up with a `&str`), and is written and read in JSON as a plain string.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

/// Bytes kept inline: with the length and the variant's tag, a `Name` is 32 bytes.
const INLINE: usize = 30;

#[derive(Clone)]
pub struct Name(Repr);

#[derive(Clone)]
enum Repr {
    /// `buf[..len]` is UTF-8: only [`Name::new`] builds this variant, from a `&str`.
    Inline {
        len: u8,
        buf: [u8; INLINE],
    },
    Heap(Box<str>),
}

impl Name {
    pub fn new(s: &str) -> Self {
        if s.len() <= INLINE {
            let mut buf = [0; INLINE];
            buf[..s.len()].copy_from_slice(s.as_bytes());
            Name(Repr::Inline {
                len: s.len() as u8,
                buf,
            })
        } else {
            Name(Repr::Heap(s.into()))
        }
    }

    pub fn as_str(&self) -> &str {
        match &self.0 {
            // SAFETY: `new` copied these bytes from a `&str` whole, so they are UTF-8, and
            // nothing changes them afterwards (a `Name` is immutable).
            Repr::Inline { len, buf } => unsafe {
                std::str::from_utf8_unchecked(&buf[..usize::from(*len)])
            },
            Repr::Heap(s) => s,
        }
    }
}

impl Default for Name {
    fn default() -> Self {
        Name::new("")
    }
}

impl Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Name {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Self {
        Name::new(s)
    }
}

impl From<&String> for Name {
    fn from(s: &String) -> Self {
        Name::new(s)
    }
}

impl From<String> for Name {
    fn from(s: String) -> Self {
        if s.len() <= INLINE {
            Name::new(&s)
        } else {
            Name(Repr::Heap(s.into_boxed_str()))
        }
    }
}

impl From<&Name> for Name {
    fn from(s: &Name) -> Self {
        s.clone()
    }
}

impl From<Name> for String {
    fn from(s: Name) -> Self {
        match s.0 {
            Repr::Heap(b) => b.into_string(),
            Repr::Inline { .. } => s.as_str().to_owned(),
        }
    }
}

impl PartialEq for Name {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Name {}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Name {
    fn cmp(&self, other: &Self) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for Name {
    fn hash<H: Hasher>(&self, h: &mut H) {
        // As `str` hashes, so that `Borrow<str>` lookups find it.
        self.as_str().hash(h)
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<Name> for str {
    fn eq(&self, other: &Name) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<Name> for String {
    fn eq(&self, other: &Name) -> bool {
        self == other.as_str()
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `pad`, not `write_str`: widths and alignment (`{:<12}`) apply as to a `str`.
        f.pad(self.as_str())
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl Serialize for Name {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Name;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Name, E> {
                Ok(Name::new(s))
            }
            fn visit_string<E: serde::de::Error>(self, s: String) -> Result<Name, E> {
                Ok(Name::from(s))
            }
        }
        d.deserialize_str(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn short_and_long_names_keep_their_text_and_compare_as_str() {
        let texts = [
            "",
            "ARC0",
            "log file parallel write",
            "exactly thirty bytes long ....",
            "thirty-one bytes long, one more",
            "log file switch (checkpoint incomplete)",
            "ünïcödé wait «name» of thirty+ bytes",
        ];
        assert_eq!(texts[3].len(), INLINE);
        assert_eq!(texts[4].len(), INLINE + 1);
        for a in texts {
            let n = Name::from(a);
            assert_eq!(n.as_str(), a);
            assert_eq!(Name::from(a.to_string()), n);
            assert_eq!(String::from(n.clone()), a);
            assert_eq!(format!("{n}"), a);
            assert_eq!(format!("{n:?}"), format!("{a:?}"));
            for b in texts {
                assert_eq!(n.cmp(&Name::from(b)), a.cmp(b), "{a} vs {b}");
                assert_eq!(n == b, a == b);
                assert_eq!(b == n, a == b);
            }
        }
        assert_eq!(std::mem::size_of::<Name>(), 32);
    }

    #[test]
    fn a_map_keyed_by_name_is_looked_up_by_str_and_reads_as_json_strings() {
        let mut m = BTreeMap::new();
        m.insert(Name::from("redo size"), 1u64);
        m.insert(Name::from("log file switch (checkpoint incomplete)"), 2);
        assert_eq!(m.get("redo size"), Some(&1));
        assert_eq!(m.get("log file switch (checkpoint incomplete)"), Some(&2));
        let json = serde_json::to_string(&m).unwrap();
        assert_eq!(
            json,
            r#"{"log file switch (checkpoint incomplete)":2,"redo size":1}"#
        );
        let back: BTreeMap<Name, u64> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, m);
        let escaped: Name = serde_json::from_str(r#""a\"b\u00e9""#).unwrap();
        assert_eq!(escaped, "a\"bé");
        assert!(serde_json::from_str::<Name>("3").is_err());
    }

    #[test]
    fn width_and_alignment_apply_as_to_a_str() {
        assert_eq!(format!("[{:<6}]", Name::from("RFS")), "[RFS   ]");
        assert_eq!(format!("[{:>6}]", Name::from("MRP0")), "[  MRP0]");
    }
}
