//! `V$DATAGUARD_STATUS` messages, each handed out once. The statement reads a fixed recent
//! window (its text must not change per sample, see `sql::DG_MESSAGE_WINDOW_MIN`); this
//! cursor remembers, per instance, the highest `MESSAGE_NUM` already handed out, which the
//! Reference documents as "a chronologically increasing number giving each event a unique
//! number". The view does not survive an instance restart, so the numbering starts again
//! then: a changed startup time, or a window whose newest number is below the mark, resets
//! that instance's mark.

use dgscope_model::sample::DgMessage;
use dgscope_model::timestamp::Timestamp;
use std::collections::BTreeMap;

/// On the first sample of an instance (or after its restart) only the newest messages of the
/// window are returned: a long history would bury the one that matters.
pub(crate) const FIRST_SAMPLE_MAX: usize = 20;
/// A message storm is cut to the newest this many per sample; the older ones count as seen.
pub(crate) const PER_SAMPLE_MAX: usize = 200;

/// One row of the view, before the cursor decides whether it is new.
#[derive(Debug, Clone, PartialEq)]
pub struct RawMessage {
    pub inst: u32,
    pub num: u64,
    pub msg: DgMessage,
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Mark {
    startup: Option<Timestamp>,
    num: u64,
}

/// The high-water marks, kept by the collector for as long as it watches a database (across
/// reconnects, so a reconnect does not repeat messages).
#[derive(Debug, Clone, Default)]
pub struct MessageCursor {
    marks: BTreeMap<u32, Mark>,
}

impl MessageCursor {
    /// The messages of `rows` not handed out before, oldest first. `startups` holds each
    /// instance's startup time as read in the same sample (absent when not read).
    pub fn take(
        &mut self,
        rows: Vec<RawMessage>,
        startups: &BTreeMap<u32, Timestamp>,
    ) -> Vec<DgMessage> {
        let mut by_inst: BTreeMap<u32, Vec<RawMessage>> = BTreeMap::new();
        for r in rows {
            by_inst.entry(r.inst).or_default().push(r);
        }
        let mut out: Vec<RawMessage> = Vec::new();
        for (inst, mut msgs) in by_inst {
            msgs.sort_by_key(|m| m.num);
            msgs.dedup_by_key(|m| m.num);
            let newest = msgs.last().map(|m| m.num);
            let startup = startups.get(&inst).copied();
            let prev = self.marks.get(&inst).copied();
            let mark = prev.filter(|p| {
                let same_startup = startup.is_none() || p.startup.is_none() || p.startup == startup;
                let not_backwards = newest.is_none_or(|n| n >= p.num);
                same_startup && not_backwards
            });
            let fresh: Vec<RawMessage> = match mark {
                Some(p) => msgs.into_iter().filter(|m| m.num > p.num).collect(),
                None => {
                    let skip = msgs.len().saturating_sub(FIRST_SAMPLE_MAX);
                    msgs.into_iter().skip(skip).collect()
                }
            };
            let num = newest
                .into_iter()
                .chain(mark.map(|p| p.num))
                .max()
                .unwrap_or(0);
            self.marks.insert(
                inst,
                Mark {
                    startup: startup.or(prev.and_then(|p| p.startup)),
                    num,
                },
            );
            out.extend(fresh);
        }
        out.sort_by_key(|r| (r.msg.time, r.inst, r.num));
        let skip = out.len().saturating_sub(PER_SAMPLE_MAX);
        out.into_iter().skip(skip).map(|r| r.msg).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(inst: u32, num: u64, secs: i64) -> RawMessage {
        RawMessage {
            inst,
            num,
            msg: DgMessage {
                time: Timestamp::from_millis(secs * 1000),
                severity: "Informational".into(),
                facility: None,
                error_code: None,
                dest_id: None,
                message: format!("m{inst}-{num}"),
            },
        }
    }

    fn texts(v: &[DgMessage]) -> Vec<&str> {
        v.iter().map(|m| m.message.as_str()).collect()
    }

    #[test]
    fn each_message_once_across_samples_and_instances() {
        let mut c = MessageCursor::default();
        let st = BTreeMap::from([
            (1, Timestamp::from_millis(5)),
            (2, Timestamp::from_millis(6)),
        ]);
        let a = c.take(vec![raw(1, 7, 10), raw(2, 3, 11)], &st);
        assert_eq!(texts(&a), ["m1-7", "m2-3"]);
        // The window still holds the old rows: only the new one comes out.
        let b = c.take(vec![raw(1, 7, 10), raw(2, 3, 11), raw(2, 4, 12)], &st);
        assert_eq!(texts(&b), ["m2-4"]);
        let again = c.take(vec![raw(1, 7, 10), raw(2, 4, 12)], &st);
        assert!(again.is_empty());
        // An empty window keeps the marks.
        assert!(c.take(vec![], &st).is_empty());
        assert!(c.take(vec![raw(1, 7, 10)], &st).is_empty());
    }

    #[test]
    fn the_first_sample_is_bounded() {
        let mut c = MessageCursor::default();
        let rows: Vec<RawMessage> = (1..=50).map(|n| raw(1, n, n as i64)).collect();
        let first = c.take(rows, &BTreeMap::new());
        assert_eq!(first.len(), FIRST_SAMPLE_MAX);
        assert_eq!(first.last().unwrap().message, "m1-50");
        assert_eq!(first[0].message, "m1-31");
        // The dropped ones count as seen.
        let rows: Vec<RawMessage> = (1..=51).map(|n| raw(1, n, n as i64)).collect();
        assert_eq!(texts(&c.take(rows, &BTreeMap::new())), ["m1-51"]);
    }

    #[test]
    fn a_restart_starts_the_numbering_again() {
        let mut c = MessageCursor::default();
        let before = BTreeMap::from([(1, Timestamp::from_millis(1_000))]);
        c.take(vec![raw(1, 900, 10)], &before);
        let after = BTreeMap::from([(1, Timestamp::from_millis(9_000))]);
        assert_eq!(texts(&c.take(vec![raw(1, 2, 20)], &after)), ["m1-2"]);
        // Without a startup reading, numbers going backwards tell the same.
        let mut c = MessageCursor::default();
        c.take(vec![raw(1, 900, 10)], &BTreeMap::new());
        assert_eq!(
            texts(&c.take(vec![raw(1, 3, 20)], &BTreeMap::new())),
            ["m1-3"]
        );
    }

    #[test]
    fn a_storm_is_cut_to_the_newest() {
        let mut c = MessageCursor::default();
        c.take(vec![raw(1, 1, 1)], &BTreeMap::new());
        let rows: Vec<RawMessage> = (1..=500).map(|n| raw(1, n, n as i64)).collect();
        let got = c.take(rows, &BTreeMap::new());
        assert_eq!(got.len(), PER_SAMPLE_MAX);
        assert_eq!(got.last().unwrap().message, "m1-500");
    }
}
