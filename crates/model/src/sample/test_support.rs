//! Internals of the recording formats for tests that cannot live beside them: the
//! integration tests' `tests/it/sample_formats.rs` drives them with the twin, a layer above
//! this crate. Not an API.

use super::recording::{Entry, RecordingReader};
use super::Sample;
use std::io::BufRead;

/// Lines a read-ahead hands over at a time.
pub const LINES: usize = super::ahead::LINES;
/// The reading thread parses a batch itself when at least this many wait for the consumer.
pub const BEHIND: usize = super::ahead::BEHIND;

/// `recording_ahead` with its choices made by the caller.
pub fn ahead_with<R: BufRead + Send + 'static>(
    reader: RecordingReader<R>,
    behind: usize,
    here: super::ahead::ParseHere,
) -> super::ahead::RecordingAhead {
    super::ahead::ahead_with(reader, behind, here)
}

/// A changes line applied to its base by the hand parser's merge.
pub fn apply(base: &mut Sample, line: &[u8]) -> Result<(), String> {
    super::changes::apply(base, line)
}

/// A changes line applied to its base through `serde_json::Value`: the reference for `apply`.
pub fn apply_by_value(base: &mut Sample, line: &[u8]) -> Result<(), String> {
    super::changes::apply_by_value(base, line)
}

/// A line after the header as an entry, read on its own (no chain of changes lines).
pub fn parse_entry(line: &[u8]) -> Result<Entry, String> {
    super::recording::parse_entry(line)
}

/// `lineparse::parse` and serde_json agree on `line` (the same value or the same message),
/// and so does the hand parser when it takes the line; panics otherwise. `parse`'s answer.
pub fn parse_as_serde(line: &str) -> Result<Sample, String> {
    let ours = super::lineparse::parse(line.as_bytes()).map_err(|e| e.to_string());
    let theirs = serde_json::from_slice::<Sample>(line.as_bytes()).map_err(|e| e.to_string());
    assert_eq!(ours, theirs, "{line}");
    if let Some(h) = super::lineparse::hand_only(line.as_bytes()) {
        assert_eq!(Ok(&h), theirs.as_ref(), "hand parser accepted {line}");
    }
    ours
}
