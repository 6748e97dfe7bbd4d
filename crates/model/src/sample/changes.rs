//! Changes lines (recording version 2): most of a sample is what the slot's previous sample
//! said — the database's name and role, the destination's settings, the processes, every
//! counter that did not move — so a line after a slot's first holds only what changed since
//! the slot's previous line, as a JSON Merge Patch (RFC 7396): a key present replaces or
//! merges (objects merge key by key, arrays and scalars replace whole), `null` removes, an
//! absent key is unchanged. One addition: an array of objects that keeps its length (the
//! destinations, the processes, a RAC database's instances) changes element by element,
//! written as an object whose keys are the indexes of the elements that changed.
//!
//! - A changes line starts `{"t":…,"slot":…,"changes":true`; any other line is whole.
//! - Slow parts (`logs`, `switches` …) never carry over: a line holds them when they were
//!   read, as in version 1, so their age stays the age of the read.
//! - Every slot's first line of each segment (a zstd frame; the same span of sample time in
//!   the plain form, [`Segments`]) is whole, so a reader that seeks to a segment start has
//!   every slot's base by the time it needs one.

use super::entry::{check_sample, parse_entry, Entry};
use super::zst::Segments;
use super::{slow, Sample, Slot};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The key that marks a changes line.
pub const KEY: &str = "changes";

/// Whether `line` is a changes line (the writer's prefix; a hand-made line that puts the key
/// elsewhere is read as a whole line, the key ignored).
pub fn is_changes_line(line: &[u8]) -> bool {
    prefix_slot(line).is_some_and(|(_, rest)| rest.starts_with(b",\"changes\":true"))
}

/// The slot named in a line's prefix `{"t":"…","slot":"…"` and what follows it.
pub fn prefix_slot(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let rest = line.strip_prefix(b"{\"t\":\"")?;
    let end = rest.iter().take(40).position(|&b| b == b'"')?;
    let rest = rest[end + 1..].strip_prefix(b",\"slot\":\"")?;
    // Slot names the writer emits carry no escapes; one that does is not a prefix we know.
    let end = rest
        .iter()
        .take(256)
        .position(|&b| b == b'"' || b == b'\\')?;
    (rest[end] == b'"').then(|| (&rest[..end], &rest[end + 1..]))
}

/// Whether a slot name reads back from a line's prefix: one that needs JSON escapes, or is
/// longer than the prefix reader looks, does not, and such a slot's lines are always whole.
pub fn plain_name(name: &str) -> bool {
    name.len() < 200 && !name.contains(['"', '\\']) && !name.chars().any(char::is_control)
}

/// The writer's side: turns each sample into a whole or a changes line.
#[derive(Debug, Default)]
pub struct Differ {
    /// Per slot: what its previous line left (slow parts taken out) and its segment.
    prev: BTreeMap<Slot, (Map<String, Value>, u64)>,
    segments: Segments,
}

impl Differ {
    /// The line for `s` (no newline) into `out`.
    pub fn line(&mut self, s: &Sample, out: &mut Vec<u8>) -> serde_json::Result<()> {
        self.segments.starts(s.t.ms);
        let seg = self.segments.id();
        let Value::Object(mut now) = serde_json::to_value(s)? else {
            unreachable!("a sample serializes to an object")
        };
        match self.prev.get(&s.slot) {
            Some((prev, prev_seg)) if *prev_seg == seg && plain_name(s.slot.as_str()) => {
                let mut patch = Map::new();
                patch.insert("t".into(), now["t"].clone());
                patch.insert("slot".into(), now["slot"].clone());
                patch.insert(KEY.into(), Value::Bool(true));
                diff_into(prev, &now, &mut patch, true);
                serde_json::to_writer(&mut *out, &patch)?;
            }
            _ => serde_json::to_writer(&mut *out, &now)?,
        }
        for p in slow::SLOW_PARTS {
            now.shift_remove(p);
        }
        self.prev.insert(s.slot.clone(), (now, seg));
        Ok(())
    }
}

/// Adds to `patch` what turns `prev` into `now` (RFC 7396); `top` skips `t` and `slot`,
/// which every line carries anyway.
fn diff_into(
    prev: &Map<String, Value>,
    now: &Map<String, Value>,
    patch: &mut Map<String, Value>,
    top: bool,
) {
    for (k, v) in now {
        if top && (k == "t" || k == "slot") {
            continue;
        }
        match (prev.get(k), v) {
            (Some(p), v) if p == v => {}
            (Some(Value::Object(p)), Value::Object(o)) => {
                let mut sub = Map::new();
                diff_into(p, o, &mut sub, false);
                patch.insert(k.clone(), Value::Object(sub));
            }
            (Some(Value::Array(p)), Value::Array(o)) if same_shape(p, o) => {
                let mut sub = Map::new();
                for (i, (a, b)) in p.iter().zip(o).enumerate() {
                    if let (Value::Object(a), Value::Object(b)) = (a, b) {
                        if a != b {
                            let mut el = Map::new();
                            diff_into(a, b, &mut el, false);
                            sub.insert(i.to_string(), Value::Object(el));
                        }
                    }
                }
                patch.insert(k.clone(), Value::Object(sub));
            }
            _ => {
                patch.insert(k.clone(), v.clone());
            }
        }
    }
    for k in prev.keys() {
        if !now.contains_key(k) && !(top && (k == "t" || k == "slot")) {
            patch.insert(k.clone(), Value::Null);
        }
    }
}

/// Two arrays of objects of one length: written element by element.
fn same_shape(a: &[Value], b: &[Value]) -> bool {
    !a.is_empty() && a.len() == b.len() && a.iter().chain(b).all(Value::is_object)
}

/// The reader's side: each slot's base, so a changes line reads to the whole sample.
#[derive(Debug, Default)]
pub struct Chains {
    /// Version 2 or later: changes lines are allowed.
    changes: bool,
    bases: BTreeMap<Slot, Sample>,
}

impl Chains {
    pub fn new(version: u32) -> Self {
        Chains {
            changes: version >= 2,
            bases: BTreeMap::new(),
        }
    }

    /// The entry of one line, whole or a change of its slot's previous line.
    pub fn entry(&mut self, line: &[u8]) -> Result<Entry, String> {
        if !(self.changes && is_changes_line(line)) {
            let e = parse_entry(line)?;
            if let (true, Entry::Sample(s)) = (self.changes, &e) {
                // Version 2 readers find a line's slot by its prefix (the reading thread
                // splits lines by slot that way): a sample line must start with it.
                let named = prefix_slot(line).is_some_and(|(n, _)| n == s.slot.as_str().as_bytes());
                if !named && plain_name(s.slot.as_str()) {
                    return Err(format!(
                        "a sample line of a version 2 recording starts {{\"t\":…,\"slot\":\"{}\"; this one does not (was it edited by hand?)",
                        s.slot
                    ));
                }
                let mut base = (**s).clone();
                for p in slow::SLOW_PARTS {
                    slow::clear(&mut base, p);
                }
                self.bases.insert(s.slot.clone(), base);
            }
            return Ok(e);
        }
        let (slot, _) = prefix_slot(line).expect("a changes line has a slot prefix");
        let slot = Slot::from(String::from_utf8_lossy(slot).as_ref());
        let Some(base) = self.bases.get_mut(&slot) else {
            return Err(format!(
                "a changes line of slot {slot} with no whole line of it before (the recording was cut or spliced)"
            ));
        };
        // A line that does not apply leaves the base half-changed: forget it, so the slot's
        // next changes line is an error too, never read against a wrong base.
        if let Err(e) = apply(base, line) {
            self.bases.remove(&slot);
            return Err(e);
        }
        if let Err(e) = check_sample(base) {
            self.bases.remove(&slot);
            return Err(e);
        }
        let out = base.clone();
        for p in slow::SLOW_PARTS {
            slow::clear(base, p);
        }
        Ok(Entry::Sample(Box::new(out)))
    }

    /// Whether changes lines may come (version 2 or later).
    pub fn chained(&self) -> bool {
        self.changes
    }
}

/// Applies the changes line `line` to `base` (the hand parser's merge, which the tests check
/// against [`merge`] over `serde_json::Value`).
pub(super) fn apply(base: &mut Sample, line: &[u8]) -> Result<(), String> {
    super::lineparse::merge_into(line, base).map_err(|e| format!("bad sample: {e}"))
}

/// The reference: `line` applied to `base` through `serde_json::Value` (for tests, here and
/// through `test_support`).
#[cfg(any(test, feature = "test-support"))]
pub(super) fn apply_by_value(base: &mut Sample, line: &[u8]) -> Result<(), String> {
    let patch: Value = serde_json::from_slice(line).map_err(|e| format!("bad sample: {e}"))?;
    let Value::Object(mut patch) = patch else {
        return Err("bad sample: not a JSON object".into());
    };
    patch.shift_remove(KEY);
    let mut v = serde_json::to_value(&*base).map_err(|e| format!("bad sample: {e}"))?;
    merge(&mut v, Value::Object(patch))?;
    *base = serde_json::from_value(v).map_err(|e| format!("bad sample: {e}"))?;
    Ok(())
}

/// RFC 7396 MergePatch(target, patch), and an object patch on an array merges the elements
/// its keys index.
#[cfg(any(test, feature = "test-support"))]
fn merge(target: &mut Value, patch: Value) -> Result<(), String> {
    let Value::Object(patch) = patch else {
        *target = patch;
        return Ok(());
    };
    if let Value::Array(items) = target {
        let n = items.len();
        for (k, v) in patch {
            let el = k
                .parse::<usize>()
                .ok()
                .and_then(|i| items.get_mut(i))
                .ok_or_else(|| {
                    format!("bad sample: a change of element {k:?} of an array of {n} elements")
                })?;
            merge(el, v)?;
        }
        return Ok(());
    }
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    let Value::Object(t) = target else {
        unreachable!()
    };
    for (k, v) in patch {
        if v.is_null() {
            t.shift_remove(&k);
        } else {
            merge(t.entry(k).or_insert(Value::Null), v)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timestamp::Timestamp;

    #[test]
    fn a_version_2_sample_line_must_start_with_its_slot() {
        // Readers split a version 2 file's lines by the slot in their prefix: a sample line
        // whose keys were reordered by hand would be read against the wrong chain.
        let line =
            br#"{"slot":"primary","t":"2026-11-30T05:00:01.000Z","stats":{"user commits":1}}"#;
        let e = Chains::new(2).entry(line).unwrap_err();
        assert!(e.contains(r#"starts {"t":…,"slot":"primary""#), "{e}");
        assert!(
            Chains::new(1).entry(line).is_ok(),
            "version 1 takes any key order"
        );
    }

    #[test]
    fn a_changes_line_without_its_base_names_the_slot() {
        let mut c = Chains::new(2);
        let line =
            br#"{"t":"2026-11-30T05:00:01.000Z","slot":"standby","changes":true,"query_us":5}"#;
        let e = c.entry(line).unwrap_err();
        assert!(e.contains("slot standby"), "{e}");
        // In a version 1 file the key is unknown and ignored: a whole line.
        assert!(Chains::new(1).entry(line).is_ok());
    }

    #[test]
    fn element_changes_past_an_array_end_are_an_error_not_a_panic() {
        let mut c = Chains::new(2);
        let whole = br#"{"t":"2026-11-30T05:00:01.000Z","slot":"primary","dests":[{"id":2,"status":"VALID","mode":"SYNC"}]}"#;
        c.entry(whole).unwrap();
        for bad in [r#""dests":{"1":{"id":3}}"#, r#""dests":{"x":{"id":3}}"#] {
            let line = format!(
                r#"{{"t":"2026-11-30T05:00:02.000Z","slot":"primary","changes":true,{bad}}}"#
            );
            let e = c.entry(line.as_bytes()).unwrap_err();
            assert!(e.contains("past the end of the list"), "{e}");
            let mut base = Sample::new(Timestamp::from_millis(0), Slot::primary());
            base.dests.push(Default::default());
            assert!(apply_by_value(&mut base, line.as_bytes()).is_err());
            // The failed line dropped the base: the next changes line is an error too.
            let next = line
                .replace("05:00:02", "05:00:02.5")
                .replace(bad, r#""query_us":1"#);
            let e = c.entry(next.as_bytes()).unwrap_err();
            assert!(e.contains("no whole line"), "{e}");
            c.entry(whole).unwrap();
        }
        let ok = br#"{"t":"2026-11-30T05:00:03.000Z","slot":"primary","changes":true,"dests":{"0":{"status":"ERROR"}}}"#;
        let Entry::Sample(s) = c.entry(ok).unwrap() else {
            panic!("a sample")
        };
        assert_eq!(s.dests[0].status, crate::sample::DestStatus::Error);
        assert_eq!(s.dests[0].id, 2);
        assert_eq!(s.t, Timestamp::parse("2026-11-30T05:00:03.000Z").unwrap());
    }
}
