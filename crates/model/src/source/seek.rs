//! Where `replay --from` starts: the recording's index finds the place without parsing what
//! comes before it, a thread reads on from a stretch before that place, and playback sends
//! that stretch at once, so the first frame shows a whole window of the moment asked for
//! (the end of last night's recording, say) instead of the recording's first second.

use crate::sample::index::RecordingIndex;
use crate::sample::recording::{Entry, RecordingError};
use crate::timestamp::Timestamp;
use std::path::Path;
use std::sync::mpsc::{sync_channel, Receiver};
use std::time::Duration;

/// Where playback starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartAt {
    /// This long after the first sample.
    Offset(Duration),
    /// This long before the last sample (`end`: zero).
    BeforeEnd(Duration),
    /// At this time.
    At(Timestamp),
}

impl StartAt {
    /// The time it names in a recording from `first` to `last`, kept inside it.
    pub fn resolve(self, first: Timestamp, last: Timestamp) -> Timestamp {
        let ms = |d: Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX / 4);
        let t = match self {
            StartAt::Offset(d) => first.add_millis(ms(d)),
            StartAt::BeforeEnd(d) => last.add_millis(-ms(d)),
            StartAt::At(t) => t,
        };
        t.clamp(first, last)
    }
}

/// Entries handed over ahead of playback at most: memory stays bounded however long the
/// rest of the recording.
const AHEAD: usize = 4096;

/// The recording's entries from a stretch before the start on, read by a thread that owns
/// the index.
pub(crate) struct Seek {
    rx: Receiver<Result<Entry, RecordingError>>,
    path: String,
    truncated_tail: bool,
}

impl Seek {
    /// Indexes `path` (its lines skimmed, not parsed), resolves `start` in it and reads on
    /// from `before` earlier on a thread. Returns the entries and the start as a time;
    /// `None` for a recording without a sample.
    pub(crate) fn open(
        path: &Path,
        start: StartAt,
        before: Duration,
    ) -> Result<Option<(Seek, Timestamp, u64)>, RecordingError> {
        let index = RecordingIndex::build(path)?;
        let (Some(first), Some(last)) = (index.first_t(), index.last_t()) else {
            return Ok(None);
        };
        let at = start.resolve(first, last);
        let from = at.add_millis(-i64::try_from(before.as_millis()).unwrap_or(0));
        let interval_ms = index.header().interval_ms.unwrap_or(1000).max(1);
        let seek = Seek::from_index(index, from)?;
        Ok(Some((seek, at, interval_ms)))
    }

    fn from_index(index: RecordingIndex, from: Timestamp) -> Result<Seek, RecordingError> {
        let path = index.path().to_string();
        let truncated_tail = index.truncated_tail();
        // Opened here, so that a file that cannot be read from there says so before the
        // screen; read on the thread.
        let (tx, rx) = sync_channel(AHEAD);
        let (ready_tx, ready_rx) = sync_channel(1);
        let spawned = std::thread::Builder::new()
            .name("replay-seek".into())
            .spawn(move || {
                let entries = match index.entries_from(from) {
                    Ok(e) => {
                        let _ = ready_tx.send(Ok(()));
                        e
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                for e in entries {
                    let stop = e.is_err();
                    if tx.send(e).is_err() || stop {
                        return;
                    }
                }
            });
        if spawned.is_err() {
            return Err(RecordingError::Read {
                path,
                source: std::io::Error::other("no thread to read the recording on"),
            });
        }
        match ready_rx.recv() {
            Ok(Ok(())) => Ok(Seek {
                rx,
                path,
                truncated_tail,
            }),
            Ok(Err(e)) => Err(e),
            Err(_) => Err(RecordingError::Read {
                path,
                source: std::io::Error::other("the reading thread stopped"),
            }),
        }
    }

    pub(crate) fn path(&self) -> &str {
        &self.path
    }

    pub(crate) fn truncated_tail(&self) -> bool {
        self.truncated_tail
    }
}

impl Iterator for Seek {
    type Item = Result<Entry, RecordingError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.rx.recv().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_is_kept_inside_the_recording() {
        let (a, b) = (
            Timestamp::from_millis(1_000_000),
            Timestamp::from_millis(4_600_000),
        );
        let min = |m: u64| Duration::from_secs(m * 60);
        assert_eq!(StartAt::BeforeEnd(Duration::ZERO).resolve(a, b), b);
        assert_eq!(StartAt::BeforeEnd(min(10)).resolve(a, b).ms, 4_000_000);
        assert_eq!(StartAt::Offset(min(15)).resolve(a, b).ms, 1_900_000);
        assert_eq!(StartAt::Offset(min(600)).resolve(a, b), b);
        assert_eq!(StartAt::BeforeEnd(min(600)).resolve(a, b), a);
        assert_eq!(StartAt::At(Timestamp::from_millis(0)).resolve(a, b), a);
    }
}
