//! A line index over a recording: offset and time of every entry, built by skimming lines
//! without parsing them. It makes a 24-hour file seekable (replay scrubbing, report windows)
//! while parsing only the entries a question needs.

use super::changes::{self, Chains};
use super::recording::{
    blank_flood_what, parse_entry, read_line_bounded, second_header, skip_newlines, BlankRun,
    Entry, Header, LineRead, RecordingError, RecordingReader, MAX_LINE_BYTES,
};
use super::zst::Segments;
use super::{slow, zst};
use crate::timestamp::Timestamp;
use serde::Deserialize;
use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::Path;

/// Where one entry lives in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineRef {
    pub offset: u64,
    pub len: u32,
    pub line: u32,
    pub t: Timestamp,
}

#[derive(Debug)]
pub struct RecordingIndex {
    path: String,
    header: Header,
    /// Every entry of a plain file; empty for a compressed one (see `frames`).
    lines: Vec<LineRef>,
    /// A plain file of version 2: the entries where a segment starts (every slot's first
    /// line after one is whole), so a seek starts reading there.
    segment_starts: Vec<usize>,
    truncated_tail: bool,
    /// A compressed file: its frames, each with the time of its first entry.
    frames: Option<Frames>,
}

/// The frame table of a compressed recording.
#[derive(Debug)]
struct Frames {
    starts: Vec<(u64, Option<Timestamp>)>,
    first_t: Option<Timestamp>,
    last_t: Option<Timestamp>,
}

#[derive(Deserialize)]
struct TimeProbe {
    t: Timestamp,
}

/// The writer puts `t` first: read it straight from the prefix, no JSON parse.
fn t_from_prefix(line: &[u8]) -> Option<Timestamp> {
    let rest = line.strip_prefix(b"{\"t\":\"")?;
    let end = rest.iter().take(40).position(|&b| b == b'"')?;
    Timestamp::parse(std::str::from_utf8(&rest[..end]).ok()?).ok()
}

impl RecordingIndex {
    pub fn build(path: &Path) -> Result<Self, RecordingError> {
        // The index seeks: a FIFO or a device cannot be indexed, and opening a FIFO would
        // wait for a writer forever. Refuse before opening.
        let display = path.display().to_string();
        match std::fs::metadata(path) {
            Ok(m) if !m.is_file() && !m.is_dir() => {
                return Err(RecordingError::NotRegular {
                    path: display,
                    what: "this command",
                })
            }
            Ok(_) => {}
            Err(source) => {
                return Err(RecordingError::Open {
                    path: display,
                    source,
                })
            }
        }
        let reader = RecordingReader::open(path)?;
        let header = reader.header().clone();
        let display = reader.path().to_string();
        if reader.is_zstd() {
            return Self::build_frames(path, display, header);
        }
        let (mut input, header_end, mut line_no) = reader.into_parts();
        let mut lines = Vec::new();
        let mut segments = Segments::default();
        let mut segment_starts = Vec::new();
        let mut buf = Vec::with_capacity(8192);
        let mut offset = header_end;
        let mut truncated_tail = false;
        let mut blank_run = BlankRun::default();
        loop {
            buf.clear();
            let blank = skip_newlines(&mut input).map_err(|source| RecordingError::Read {
                path: display.clone(),
                source,
            })?;
            line_no += blank as usize;
            offset += blank;
            if blank_run.add(blank) {
                return Err(RecordingError::Line {
                    path: display,
                    line: line_no,
                    what: blank_flood_what(),
                });
            }
            let read =
                read_line_bounded(&mut input, &mut buf, MAX_LINE_BYTES).map_err(|source| {
                    RecordingError::Read {
                        path: display.clone(),
                        source,
                    }
                })?;
            line_no += 1;
            let n = match read {
                LineRead::TooLong => {
                    return Err(RecordingError::LineTooLong {
                        path: display,
                        line: line_no,
                        offset,
                    })
                }
                LineRead::Line(0) => break,
                LineRead::Line(n) => n,
            };
            // The index stores u32 line numbers: past that a file is not a recording.
            if line_no > u32::MAX as usize {
                return Err(RecordingError::Line {
                    path: display,
                    line: line_no,
                    what: "more than 4 billion lines; split the recording".into(),
                });
            }
            let start = offset;
            offset += n as u64;
            if buf.iter().all(u8::is_ascii_whitespace) {
                if blank_run.add(n as u64) {
                    return Err(RecordingError::Line {
                        path: display,
                        line: line_no,
                        what: blank_flood_what(),
                    });
                }
                continue;
            }
            blank_run.end();
            let complete = buf.last() == Some(&b'\n');
            let t = if complete { t_from_prefix(&buf) } else { None };
            let t = match t {
                Some(t) => Ok(t),
                None if complete => serde_json::from_slice::<TimeProbe>(&buf)
                    .map(|p| p.t)
                    .map_err(|e| format!("not a sample or mark with a time \"t\": {e}")),
                // No newline: the last line. Keep it only if it is whole.
                None => parse_entry(&buf).map(|e| e.t()),
            };
            match t {
                Ok(t) => {
                    // Samples start `{"t":…,"slot":…`; marks do not start segments.
                    if header.version >= 2
                        && changes::prefix_slot(&buf).is_some()
                        && segments.starts(t.ms)
                    {
                        segment_starts.push(lines.len());
                    }
                    lines.push(LineRef {
                        offset: start,
                        len: n as u32,
                        line: line_no as u32,
                        t,
                    })
                }
                // Only a last line without its newline is a crash's cut tail (as the streaming
                // reader judges it); a whole line that is wrong is an error wherever it is.
                Err(_) if !complete => {
                    truncated_tail = true;
                    break;
                }
                Err(what) => {
                    return Err(RecordingError::Line {
                        path: display,
                        line: line_no,
                        what: second_header(&buf).unwrap_or(what),
                    })
                }
            }
        }
        Ok(RecordingIndex {
            path: display,
            header,
            lines,
            segment_starts,
            truncated_tail,
            frames: None,
        })
    }

    /// A compressed file: walks the frame headers, decompresses the first line of each frame
    /// for its time and the last frame for the end. A day of frames costs milliseconds.
    fn build_frames(path: &Path, display: String, header: Header) -> Result<Self, RecordingError> {
        let read_err = |source| RecordingError::Read {
            path: display.clone(),
            source,
        };
        let file = File::open(path).map_err(read_err)?;
        let mut input = BufReader::with_capacity(64 * 1024, file);
        let walked = zst::frames(&mut input).map_err(|e| match e {
            zst::WalkError::Io(source) => RecordingError::Read {
                path: display.clone(),
                source,
            },
            zst::WalkError::BadFrame(offset) => RecordingError::Corrupt {
                path: display.clone(),
                offset,
                what: "not a zstd frame where one should start; the file is damaged".into(),
            },
        })?;
        let mut starts = Vec::with_capacity(walked.len());
        let mut truncated_tail = false;
        let mut last_t = None;
        // Each frame alone: its compressed bytes end where the next frame starts.
        let len = |i: usize| walked.get(i + 1).map(|n| n.offset - walked[i].offset);
        // Frames in a row that hold no line: dgscope's writer makes none, and each costs an
        // open and a decoder, so a file of nothing but empty frames is refused early.
        let mut empty_run = zst::EmptyFrames::default();
        for (i, f) in walked.iter().enumerate() {
            let last = i + 1 == walked.len();
            let mut lines = FrameLines::open(path, &display, f.offset, i == 0, len(i))?;
            let mut first = None;
            while let Some((line, complete)) = lines.next_line()? {
                if !complete {
                    truncated_tail = true;
                    break;
                }
                let t = t_from_prefix(line)
                    .or_else(|| serde_json::from_slice::<TimeProbe>(line).ok().map(|p| p.t));
                if first.is_none() {
                    first = t;
                }
                if !last {
                    break;
                }
                if let Some(t) = t {
                    last_t = Some(last_t.map_or(t, |x: Timestamp| x.max(t)));
                }
            }
            if !f.complete || lines.truncated() {
                truncated_tail = true;
            }
            if let Some((offset, what)) = empty_run.frame(f.offset, first.is_some()) {
                return Err(RecordingError::Corrupt {
                    path: display,
                    offset,
                    what,
                });
            }
            starts.push((f.offset, first));
        }
        // The last frame had no complete line (cut inside its first one, or empty): the end
        // is the last line of the latest frame that has one, never the file's first instant.
        if last_t.is_none() {
            for i in (0..walked.len().saturating_sub(1)).rev() {
                let mut lines = FrameLines::open(path, &display, walked[i].offset, i == 0, len(i))?;
                while let Some((line, complete)) = lines.next_line()? {
                    if !complete {
                        break;
                    }
                    let t = t_from_prefix(line)
                        .or_else(|| serde_json::from_slice::<TimeProbe>(line).ok().map(|p| p.t));
                    if let Some(t) = t {
                        last_t = Some(last_t.map_or(t, |x: Timestamp| x.max(t)));
                    }
                }
                if last_t.is_some() {
                    break;
                }
            }
        }
        let first_t = starts.iter().find_map(|s| s.1);
        Ok(RecordingIndex {
            path: display,
            header,
            lines: Vec::new(),
            segment_starts: Vec::new(),
            truncated_tail,
            frames: Some(Frames {
                starts,
                first_t,
                last_t: last_t.or(first_t),
            }),
        })
    }

    /// Whether the file is zstd-compressed.
    pub fn is_zstd(&self) -> bool {
        self.frames.is_some()
    }

    /// Frames of a compressed file (0 for a plain one).
    pub fn frame_count(&self) -> usize {
        self.frames.as_ref().map_or(0, |f| f.starts.len())
    }

    /// Entries from the first at or after `t` on, in file order, in either form; the first
    /// sample of each slot carries the slow parts read last before `t`.
    pub fn entries_from(&self, t: Timestamp) -> Result<Entries<'_>, RecordingError> {
        match &self.frames {
            None => Ok(Entries::Lines(self.cursor(self.position_at(t))?)),
            Some(f) => {
                let look = t.add_millis(-SLOW_LOOKBACK_MS);
                let k = f
                    .starts
                    .iter()
                    .rposition(|s| s.1.is_some_and(|ft| ft <= look))
                    .unwrap_or(0);
                let (offset, _) = f.starts[k];
                Ok(Entries::Frames(FrameCursor {
                    lines: FrameLines::open(
                        Path::new(&self.path),
                        &self.path,
                        offset,
                        k == 0,
                        None,
                    )?,
                    from: t,
                    carry: slow::Carry::default(),
                    chains: Chains::new(self.header.version),
                    done: false,
                }))
            }
        }
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    pub fn path(&self) -> &str {
        &self.path
    }

    pub fn lines(&self) -> &[LineRef] {
        &self.lines
    }

    pub fn truncated_tail(&self) -> bool {
        self.truncated_tail
    }

    pub fn first_t(&self) -> Option<Timestamp> {
        match &self.frames {
            Some(f) => f.first_t,
            None => self.lines.iter().map(|l| l.t).min(),
        }
    }

    pub fn last_t(&self) -> Option<Timestamp> {
        match &self.frames {
            Some(f) => f.last_t,
            None => self.lines.iter().map(|l| l.t).max(),
        }
    }

    /// Index of the first entry at or after `t` (entries are in time order as written).
    pub fn position_at(&self, t: Timestamp) -> usize {
        self.lines.partition_point(|l| l.t < t)
    }

    /// Opens a cursor that parses entries from `from` (an index into `lines()`) on.
    pub fn cursor(&self, from: usize) -> Result<Cursor<'_>, RecordingError> {
        let file = File::open(&self.path).map_err(|source| RecordingError::Open {
            path: self.path.clone(),
            source,
        })?;
        let mut input = BufReader::with_capacity(256 * 1024, file);
        if let Some(l) = self.lines.get(from) {
            input
                .seek(SeekFrom::Start(l.offset))
                .map_err(|source| RecordingError::Read {
                    path: self.path.clone(),
                    source,
                })?;
        }
        let mut cursor = Cursor {
            index: self,
            input,
            next: from,
            buf: Vec::new(),
            carry: slow::Carry::default(),
            chains: Chains::new(self.header.version),
        };
        cursor.prime(from)?;
        Ok(cursor)
    }
}

/// How far before a seek point a cursor looks for the slow parts read last (the writers read
/// them once a minute; compacted files at least as often).
const SLOW_LOOKBACK_MS: i64 = 10 * 60_000;

/// Parses indexed entries in file order from a starting position.
pub struct Cursor<'a> {
    index: &'a RecordingIndex,
    input: BufReader<File>,
    next: usize,
    buf: Vec<u8>,
    /// The slow parts read before the seek point, for the first sample of each slot.
    carry: slow::Carry,
    /// Each slot's base for changes lines (version 2).
    chains: Chains,
}

impl Cursor<'_> {
    pub fn position(&self) -> usize {
        self.next
    }

    /// Reads the lines of the lookback before `from` that carry slow parts, so the first
    /// samples after a seek have the values read last (a seek must not lose them).
    fn prime(&mut self, from: usize) -> Result<(), RecordingError> {
        let Some(at) = self.index.lines.get(from).map(|l| l.t) else {
            return Ok(());
        };
        let mut start = self
            .index
            .position_at(at.add_millis(-SLOW_LOOKBACK_MS))
            .min(from);
        // Version 2: from the segment's start, where every slot's chain of changes begins.
        let k = self.index.segment_starts.partition_point(|&i| i <= from);
        if let Some(&seg) = k
            .checked_sub(1)
            .and_then(|k| self.index.segment_starts.get(k))
        {
            start = start.min(seg);
        }
        let chained = self.index.header.version >= 2;
        for i in start..from {
            let l = self.index.lines[i];
            self.read_at(l)?;
            let carries = slow::line_may_carry(&self.buf);
            if !carries && !chained {
                continue;
            }
            if let Ok(Entry::Sample(s)) = self.chains.entry(&self.buf) {
                if carries {
                    self.carry.observe(&s);
                }
            }
        }
        Ok(())
    }

    fn read_at(&mut self, l: LineRef) -> Result<(), RecordingError> {
        self.buf.resize(l.len as usize, 0);
        // Entries are contiguous except for skipped blank lines: seek only when needed.
        let pos = self.input.stream_position().ok();
        if pos != Some(l.offset) {
            self.input
                .seek(SeekFrom::Start(l.offset))
                .map_err(|source| RecordingError::Read {
                    path: self.index.path.clone(),
                    source,
                })?;
        }
        self.input
            .read_exact(&mut self.buf)
            .map_err(|source| RecordingError::Read {
                path: self.index.path.clone(),
                source,
            })
    }
}

impl Iterator for Cursor<'_> {
    type Item = Result<Entry, RecordingError>;

    fn next(&mut self) -> Option<Self::Item> {
        let l = *self.index.lines.get(self.next)?;
        self.next += 1;
        if let Err(e) = self.read_at(l) {
            return Some(Err(e));
        }
        let mut entry = self
            .chains
            .entry(&self.buf)
            .map_err(|what| RecordingError::Line {
                path: self.index.path.clone(),
                line: l.line as usize,
                what,
            });
        if let (Ok(Entry::Sample(s)), false) = (&mut entry, self.carry.is_empty()) {
            self.carry.fill_once(s);
        }
        Some(entry)
    }
}

/// Lines of a compressed recording from one frame on.
struct FrameLines {
    path: String,
    input: BufReader<zst::ZstdReader<BufReader<std::io::Take<File>>>>,
    buf: Vec<u8>,
    /// Line number within the stretch read (for messages, with the frame's offset).
    line: usize,
    offset: u64,
    /// Blank bytes in a row before the next line.
    blank: BlankRun,
}

impl FrameLines {
    /// Opens `path` at the frame starting at `offset`; the first frame starts with the
    /// header line, which `skip_header` skips.
    /// `len`: the compressed bytes to read from `offset` (one frame, for the index: an
    /// empty frame must not make it decode every later one), or `None` to read on to the
    /// end.
    fn open(
        path: &Path,
        display: &str,
        offset: u64,
        skip_header: bool,
        len: Option<u64>,
    ) -> Result<Self, RecordingError> {
        let read_err = |source| RecordingError::Read {
            path: display.to_string(),
            source,
        };
        let mut file = File::open(path).map_err(read_err)?;
        file.seek(SeekFrom::Start(offset)).map_err(read_err)?;
        let file = file.take(len.unwrap_or(u64::MAX));
        let z = zst::ZstdReader::new(BufReader::with_capacity(64 * 1024, file), offset)
            .map_err(read_err)?;
        let mut lines = FrameLines {
            path: display.to_string(),
            input: BufReader::with_capacity(256 * 1024, z),
            buf: Vec::with_capacity(8192),
            line: 0,
            offset,
            blank: BlankRun::default(),
        };
        if skip_header {
            // Blank lines, then the header (checked when the file was opened).
            while let Some((l, _)) = lines.next_line()? {
                if !l.iter().all(u8::is_ascii_whitespace) {
                    break;
                }
            }
        }
        Ok(lines)
    }

    fn truncated(&self) -> bool {
        self.input.get_ref().truncated()
    }

    fn blank_flood(&self) -> RecordingError {
        RecordingError::Line {
            path: format!("{} (zstd frame at byte {})", self.path, self.offset),
            line: self.line,
            what: blank_flood_what(),
        }
    }

    /// The next non-blank line and whether it is complete (ends in a newline).
    fn next_line(&mut self) -> Result<Option<(&[u8], bool)>, RecordingError> {
        loop {
            self.buf.clear();
            let blank = skip_newlines(&mut self.input).map_err(|source| RecordingError::Read {
                path: self.path.clone(),
                source,
            })?;
            self.line += blank as usize;
            if self.blank.add(blank) {
                return Err(self.blank_flood());
            }
            let read = read_line_bounded(&mut self.input, &mut self.buf, MAX_LINE_BYTES).map_err(
                |source| match source.kind() {
                    std::io::ErrorKind::InvalidData => RecordingError::Corrupt {
                        path: self.path.clone(),
                        offset: self.offset,
                        what: source.to_string(),
                    },
                    _ => RecordingError::Read {
                        path: self.path.clone(),
                        source,
                    },
                },
            )?;
            self.line += 1;
            match read {
                LineRead::TooLong => {
                    return Err(RecordingError::Line {
                        path: format!("{} (zstd frame at byte {})", self.path, self.offset),
                        line: self.line,
                        what: format!(
                            "the line is longer than {} MiB, the most a recording line may be; the file is damaged or not a recording",
                            MAX_LINE_BYTES / (1024 * 1024)
                        ),
                    })
                }
                LineRead::Line(0) => return Ok(None),
                LineRead::Line(_) => {}
            }
            if self.buf.iter().all(u8::is_ascii_whitespace) && self.buf.last() == Some(&b'\n') {
                if self.blank.add(self.buf.len() as u64) {
                    return Err(self.blank_flood());
                }
                continue;
            }
            self.blank.end();
            let complete = self.buf.last() == Some(&b'\n');
            return Ok(Some((&self.buf, complete)));
        }
    }
}

/// Entries of an indexed recording from a time on, in either form.
pub enum Entries<'a> {
    Lines(Cursor<'a>),
    Frames(FrameCursor),
}

impl Iterator for Entries<'_> {
    type Item = Result<Entry, RecordingError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Entries::Lines(c) => c.next(),
            Entries::Frames(c) => c.next(),
        }
    }
}

/// Decompresses from a frame before the target time, keeping only the slow parts of what
/// precedes it, then yields every entry from the target on.
pub struct FrameCursor {
    lines: FrameLines,
    from: Timestamp,
    carry: slow::Carry,
    /// Each slot's base for changes lines (version 2): the frame before the target starts
    /// every slot's chain.
    chains: Chains,
    done: bool,
}

impl Iterator for FrameCursor {
    type Item = Result<Entry, RecordingError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.done {
                return None;
            }
            let (line, complete) = match self.lines.next_line() {
                Ok(Some(l)) => l,
                Ok(None) => return None,
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            };
            let before = complete && t_from_prefix(line).is_some_and(|t| t < self.from);
            if before {
                // Before the target: only its slow parts matter, and (version 2) what each
                // slot's changes lines change.
                let carries = slow::line_may_carry(line);
                if carries || self.chains.chained() {
                    if let Ok(Entry::Sample(s)) = self.chains.entry(line) {
                        if carries {
                            self.carry.observe(&s);
                        }
                    }
                }
                continue;
            }
            match self.chains.entry(line) {
                Ok(mut e) => {
                    if e.t() < self.from {
                        continue;
                    }
                    if let (Entry::Sample(s), false) = (&mut e, self.carry.is_empty()) {
                        self.carry.fill_once(s);
                    }
                    return Some(Ok(e));
                }
                // The writer was killed mid-line: the end, as in the plain form.
                Err(_) if !complete => {
                    self.done = true;
                    return None;
                }
                Err(what) => {
                    self.done = true;
                    return Some(Err(RecordingError::Line {
                        path: format!(
                            "{} (zstd frame at byte {})",
                            self.lines.path, self.lines.offset
                        ),
                        line: self.lines.line,
                        what,
                    }));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::recording::RecordingWriter;
    use crate::sample::{Mark, Sample, Slot};
    use std::io::Write;

    fn write_recording(n: i64, extra: &str) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        {
            let mut w = RecordingWriter::new(
                f.as_file_mut(),
                &Header::new(Timestamp::from_millis(0), 1000, "test"),
            )
            .unwrap();
            for i in 0..n {
                let mut s = Sample::new(Timestamp::from_millis(i * 1000), Slot::primary());
                s.stats.insert("user commits".into(), i as u64);
                w.write_sample(&s).unwrap();
                if i == 2 {
                    w.write_mark(&Mark {
                        t: Timestamp::from_millis(2500),
                        text: "m".into(),
                    })
                    .unwrap();
                }
            }
        }
        f.write_all(extra.as_bytes()).unwrap();
        f
    }

    #[test]
    fn indexes_every_entry_and_seeks() {
        let f = write_recording(10, "");
        let idx = RecordingIndex::build(f.path()).unwrap();
        assert_eq!(idx.lines().len(), 11);
        assert_eq!(idx.first_t(), Some(Timestamp::from_millis(0)));
        assert_eq!(idx.last_t(), Some(Timestamp::from_millis(9000)));
        let from = idx.position_at(Timestamp::from_millis(7000));
        let got: Vec<Entry> = idx.cursor(from).unwrap().map(Result::unwrap).collect();
        assert_eq!(got.len(), 3);
        match &got[0] {
            Entry::Sample(s) => assert_eq!(s.stat("user commits"), Some(7)),
            e => panic!("{e:?}"),
        }
        // The whole file through the cursor equals the streaming reader.
        let all: Vec<Entry> = idx.cursor(0).unwrap().map(Result::unwrap).collect();
        let streamed: Vec<Entry> = RecordingReader::open(f.path())
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(all, streamed);
    }

    #[test]
    fn truncated_tail_is_dropped_and_flagged() {
        let f = write_recording(3, "{\"t\":\"2026-11-30T05:00:01.000Z\",\"slot\":\"pri");
        let idx = RecordingIndex::build(f.path()).unwrap();
        assert_eq!(idx.lines().len(), 4);
        assert!(idx.truncated_tail());
    }

    #[test]
    fn a_line_without_time_in_the_middle_names_its_line() {
        let f = write_recording(
            3,
            "{\"slot\":\"primary\"}\n{\"t\":\"2026-11-30T05:00:01.000Z\",\"slot\":\"primary\"}\n",
        );
        let err = RecordingIndex::build(f.path()).unwrap_err().to_string();
        assert!(
            err.ends_with(
                ":6: not a sample or mark with a time \"t\": missing field `t` at line 1 column 18"
            ),
            "{err}"
        );
    }

    #[test]
    fn hand_written_lines_with_t_elsewhere_are_indexed() {
        let f = write_recording(
            1,
            "{\"slot\":\"primary\", \"t\":\"2026-11-30T05:00:01Z\"}\n",
        );
        let idx = RecordingIndex::build(f.path()).unwrap();
        assert_eq!(idx.lines().len(), 2);
        assert_eq!(
            idx.last_t(),
            Some(Timestamp::parse("2026-11-30T05:00:01Z").unwrap())
        );
    }

    #[test]
    fn a_seek_carries_the_slow_parts_read_before_it() {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        {
            let mut w = RecordingWriter::new(
                f.as_file_mut(),
                &Header::new(Timestamp::from_millis(0), 1000, "test"),
            )
            .unwrap();
            for i in 0..100i64 {
                let mut s = Sample::new(Timestamp::from_millis(i * 1000), Slot::primary());
                if i % 60 == 0 {
                    s.params = Some(std::sync::Arc::new(
                        [("log_buffer".into(), format!("{i}").into())].into(),
                    ));
                }
                w.write_sample(&s).unwrap();
            }
        }
        let idx = RecordingIndex::build(f.path()).unwrap();
        let got: Vec<Entry> = idx
            .cursor(idx.position_at(Timestamp::from_millis(90_000)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let params = |e: &Entry| match e {
            Entry::Sample(s) => s.params.clone(),
            e => panic!("{e:?}"),
        };
        assert_eq!(got.len(), 10);
        // The first sample after the seek has the value read at 60 s; the rest are as written.
        assert_eq!(params(&got[0]).unwrap()["log_buffer"], "60");
        assert!(got[1..].iter().all(|e| params(e).is_none()));
    }
}
