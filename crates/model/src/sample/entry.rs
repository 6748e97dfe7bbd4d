//! One line of a recording after its header: a sample or a mark, parsed and checked for
//! values Oracle could never report. Read by the whole-file reader (`recording`), the
//! changes lines' rebuilder (`changes`) and the index; it reads neither of them.

use super::{Mark, Sample};
use crate::timestamp::Timestamp;
use serde::Deserialize;

/// A line of a recording after the header.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    Sample(Box<Sample>),
    Mark(Mark),
}

impl Entry {
    pub fn t(&self) -> Timestamp {
        match self {
            Entry::Sample(s) => s.t,
            Entry::Mark(m) => m.t,
        }
    }
}

#[derive(Deserialize)]
struct KindProbe {
    #[serde(default)]
    kind: Option<String>,
}

pub(crate) fn parse_entry(line: &[u8]) -> Result<Entry, String> {
    // Only lines that mention "kind" can be marks; probing costs a skim, not a full parse.
    if memmem(line, b"\"kind\"") {
        let probe: KindProbe =
            serde_json::from_slice(line).map_err(|e| format!("not a JSON object: {e}"))?;
        match probe.kind.as_deref() {
            None | Some("sample") => {}
            Some("mark") => {
                return serde_json::from_slice::<Mark>(line)
                    .map(Entry::Mark)
                    .map_err(|e| format!("bad mark: {e}"));
            }
            Some(other) => {
                return Err(format!(
                    "unknown line kind {other:?} (expected \"sample\" or \"mark\")"
                ))
            }
        }
    }
    // The hand parser gives serde's value and serde's error (it asks serde where it stops).
    let sample = super::lineparse::parse(line).map_err(|e| format!("bad sample: {e}"))?;
    check_sample(&sample)?;
    Ok(Entry::Sample(Box::new(sample)))
}

/// Most members a redo log group can have (Oracle's MAXLOGMEMBERS ceiling).
pub const MAX_LOG_MEMBERS: u32 = 32;
/// Most instances of a RAC database, and destinations of a primary (LOG_ARCHIVE_DEST_1..31).
pub const MAX_INSTANCES: u32 = 100;
pub const MAX_DESTS: usize = 31;

/// Values that size loops or simulations downstream, refused where they enter when Oracle
/// could never report them (`bytes: 0` logs, `members: 4294967295`): the recording is damaged
/// or hand-made, and trusting it would make a check spin.
pub(crate) fn check_sample(s: &Sample) -> Result<(), String> {
    let bad = |field: String, what: &str| {
        Err(format!(
            "{field} {what}; Oracle never reports that (is the recording hand-made or damaged?)"
        ))
    };
    if let Some(logs) = &s.logs {
        for (kind, list) in [("online", &logs.online), ("standby", &logs.standby)] {
            for (i, l) in list.iter().enumerate() {
                if l.bytes == 0 {
                    return bad(format!("logs.{kind}[{i}].bytes"), "is 0");
                }
                if l.members == 0 || l.members > MAX_LOG_MEMBERS {
                    return bad(
                        format!("logs.{kind}[{i}].members"),
                        &format!("= {} is outside 1..={MAX_LOG_MEMBERS}", l.members),
                    );
                }
            }
        }
    }
    if let Some(n) = s.db.as_ref().and_then(|d| d.instances) {
        if n > MAX_INSTANCES {
            return bad(
                "db.instances".into(),
                &format!("= {n} is more than {MAX_INSTANCES}"),
            );
        }
    }
    if s.dests.len() > MAX_DESTS {
        return bad(
            "dests".into(),
            &format!("has {} entries, more than {MAX_DESTS}", s.dests.len()),
        );
    }
    Ok(())
}

fn memmem(hay: &[u8], needle: &[u8]) -> bool {
    memchr::memmem::find(hay, needle).is_some()
}
