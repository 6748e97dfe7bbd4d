//! Recordings: a header line, then one sample or mark per line (JSON Lines), plain or zstd.
//! Version 2 (written) holds changes lines after each slot's first line of a segment
//! (`changes`); version 1 (still read) holds every sample whole.
//!
//! Readers ignore unknown keys, tolerate a truncated last line (a crash mid-write) and name the
//! line of anything else that is malformed. Writers flush after every line.

use super::changes::{Chains, Differ};
pub(crate) use super::entry::parse_entry;
pub use super::entry::{Entry, MAX_DESTS, MAX_INSTANCES, MAX_LOG_MEMBERS};
use super::zst::{FileInput, Sink};
use super::{Mark, Sample};
use crate::timestamp::Timestamp;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{self, BufRead, Write};
use std::path::Path;

pub const FORMAT: &str = "dgscope-recording";
/// The version this dgscope writes: 2 adds changes lines (`super::changes`). It reads 1 and 2.
pub const VERSION: u32 = 2;

/// The longest line a reader accepts. A sample of a primary with hundreds of destinations and
/// full histograms is well under 1 MiB; past this the file is damaged (`/dev/zero`, the
/// zero-filled tail a power loss leaves) or not a recording, and reading on would only fill
/// memory.
pub const MAX_LINE_BYTES: usize = 8 * 1024 * 1024;

/// What one bounded line read found.
pub(crate) enum LineRead {
    /// A line (with its newline, if it had one) of this many bytes; 0 at the end of input.
    Line(usize),
    /// The line goes on past [`MAX_LINE_BYTES`]; nothing more was read.
    TooLong,
}

/// `read_until(b'\n')` that stops at `max` bytes, so no input can make a line cost more.
/// The most empty (or whitespace-only) lines in a row, in bytes, a recording may hold.
/// dgscope writes none and an editor leaves a few; 4 GiB of newlines compress to 130 KB and
/// would cost every reader seconds of decompression, so a run this long is refused where it
/// passes the limit, like a line past [`MAX_LINE_BYTES`].
pub const MAX_BLANK_RUN: u64 = 8 * 1024 * 1024;

/// Blank bytes in a row, across empty and whitespace-only lines.
#[derive(Debug, Default)]
pub(crate) struct BlankRun(u64);

impl BlankRun {
    /// Counts `n` more blank bytes; true once the run is past [`MAX_BLANK_RUN`].
    pub(crate) fn add(&mut self, n: u64) -> bool {
        self.0 += n;
        self.0 > MAX_BLANK_RUN
    }

    /// A line with content ends the run.
    pub(crate) fn end(&mut self) {
        self.0 = 0;
    }
}

/// The what of an error for a run of blank lines past [`MAX_BLANK_RUN`].
pub(crate) fn blank_flood_what() -> String {
    format!(
        "more than {} MiB of empty lines in a row; dgscope writes none: the file is damaged or not a recording",
        MAX_BLANK_RUN / (1024 * 1024)
    )
}

/// Consumes a run of empty lines (`\n` bytes) at once and returns how many: a file padded
/// with gigabytes of newlines costs a scan of them, not a line read each. Stops once past
/// [`MAX_BLANK_RUN`], which the caller refuses.
pub(crate) fn skip_newlines<R: BufRead>(input: &mut R) -> io::Result<u64> {
    let mut skipped = 0u64;
    loop {
        if skipped > MAX_BLANK_RUN {
            return Ok(skipped);
        }
        let avail = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let n = avail
            .iter()
            .position(|&b| b != b'\n')
            .unwrap_or(avail.len());
        let all = n == avail.len() && n > 0;
        input.consume(n);
        skipped += n as u64;
        if !all {
            return Ok(skipped);
        }
    }
}

pub(crate) fn read_line_bounded<R: BufRead>(
    input: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
) -> io::Result<LineRead> {
    let start = buf.len();
    loop {
        let avail = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok(LineRead::Line(buf.len() - start));
        }
        let (take, done) = match memchr::memchr(b'\n', avail) {
            Some(i) => (i + 1, true),
            None => (avail.len(), false),
        };
        if buf.len() - start + take > max {
            return Ok(LineRead::TooLong);
        }
        buf.extend_from_slice(&avail[..take]);
        input.consume(take);
        if done {
            return Ok(LineRead::Line(buf.len() - start));
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub format: String,
    pub version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<Timestamp>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
}

impl Header {
    pub fn new(created: Timestamp, interval_ms: u64, source: &str) -> Self {
        Header {
            format: FORMAT.into(),
            version: VERSION,
            created: Some(created),
            interval_ms: Some(interval_ms),
            source: Some(source.into()),
            tool: Some(format!("dgscope {}", env!("CARGO_PKG_VERSION"))),
        }
    }
}

/// How far a reader has come through its file: a second descriptor of the same open file
/// shares its offset, so asking costs one `lseek` and nothing is counted on the reading path.
#[derive(Debug)]
pub struct ReadProbe {
    file: Option<File>,
    len: u64,
}

impl ReadProbe {
    fn of(file: &File) -> Self {
        ReadProbe {
            file: file.try_clone().ok(),
            len: file.metadata().map(|m| m.len()).unwrap_or(0),
        }
    }

    /// The share of the file read, 0.0..=1.0; `None` when it cannot be told (a FIFO, a file
    /// of unknown length).
    pub fn fraction(&self) -> Option<f64> {
        use std::io::Seek;
        let mut file = self.file.as_ref()?;
        if self.len == 0 {
            return None;
        }
        let at = file.stream_position().ok()?;
        Some((at as f64 / self.len as f64).clamp(0.0, 1.0))
    }
}

/// What is wrong with a recording, always naming the file and, where there is one, the line.
#[derive(Debug, thiserror::Error)]
pub enum RecordingError {
    #[error("{path}: cannot open: {source}")]
    Open { path: String, source: io::Error },
    #[error("{path}: read failed: {source}")]
    Read { path: String, source: io::Error },
    #[error("{path}: the file is empty; a recording starts with a header line such as {{\"format\":\"dgscope-recording\",\"version\":2}}")]
    Empty { path: String },
    #[error("{path}: a zstd file cut before the end of its first line (the writer stopped at once, or the copy is incomplete): nothing to read; copy the whole file again")]
    TruncatedZstd { path: String },
    #[error("{path}:{line}: the line starting at byte {offset} is longer than {} MiB, the most a recording line may be; the file is damaged (a zero-filled tail left by a power loss?) or not a recording", MAX_LINE_BYTES / (1024 * 1024))]
    LineTooLong {
        path: String,
        line: usize,
        offset: u64,
    },
    #[error("{path}: is not a regular file (a FIFO, device or socket); {what} needs a file it can seek in: copy it to a file first")]
    NotRegular { path: String, what: &'static str },
    #[error("{path}: byte {offset}: {what}")]
    Corrupt {
        path: String,
        offset: u64,
        what: String,
    },
    #[error("{path}:{line}: {what}")]
    Line {
        path: String,
        line: usize,
        what: String,
    },
}

impl RecordingError {
    /// An error on the first line: the file is not a recording at all (a caller that reads
    /// other formats too, such as AWR reports, tries those).
    pub fn not_a_recording(&self) -> bool {
        matches!(
            self,
            RecordingError::Line { line: 1, .. } | RecordingError::LineTooLong { line: 1, .. }
        )
    }
}

#[derive(Serialize)]
struct MarkLine<'a> {
    t: Timestamp,
    kind: &'static str,
    text: &'a str,
}

/// What `recording info`, `check`, the reports and replay say of a file cut mid-line: the
/// reader stops before the incomplete line and reads everything up to it.
pub const TRUNCATED_TAIL: &str = "the last line is incomplete (the writer was stopped mid-line)";

/// Streams the entries of a recording. Holds one line at a time, so a 24-hour file costs no
/// more memory than a minute of it.
pub struct RecordingReader<R> {
    path: String,
    input: R,
    header: Header,
    line_no: usize,
    buf: Vec<u8>,
    truncated_tail: bool,
    done: bool,
    header_end: u64,
    /// Byte offset of the next line (for messages about a line too long).
    offset: u64,
    /// Each slot's base for changes lines (version 2).
    chains: Chains,
    /// Blank bytes in a row before the next line.
    blank: BlankRun,
}

impl RecordingReader<FileInput> {
    /// Opens a recording in either form: zstd is recognised by its magic bytes.
    pub fn open(path: &Path) -> Result<Self, RecordingError> {
        let (display, file) = Self::file(path)?;
        Self::open_file(display, file)
    }

    /// [`RecordingReader::open`], with a probe that tells how far into the file (in bytes on
    /// disk, compressed or not) the reader has come: for a progress indication.
    pub fn open_probed(path: &Path) -> Result<(Self, ReadProbe), RecordingError> {
        let (display, file) = Self::file(path)?;
        let probe = ReadProbe::of(&file);
        Self::open_file(display, file).map(|reader| (reader, probe))
    }

    fn file(path: &Path) -> Result<(String, File), RecordingError> {
        let display = path.display().to_string();
        match File::open(path) {
            Ok(file) => Ok((display, file)),
            Err(source) => Err(RecordingError::Open {
                path: display,
                source,
            }),
        }
    }

    fn open_file(display: String, file: File) -> Result<Self, RecordingError> {
        if file.metadata().map(|m| m.is_dir()).unwrap_or(false) {
            return Err(RecordingError::Open {
                path: display,
                source: io::Error::other("is a directory, not a recording file"),
            });
        }
        let input = FileInput::new(file).map_err(|source| RecordingError::Read {
            path: display.clone(),
            source,
        })?;
        let zstd = input.is_zstd();
        match Self::new(display, input) {
            // A zstd file that decodes to nothing was cut, not written empty.
            Err(RecordingError::Empty { path }) if zstd => {
                Err(RecordingError::TruncatedZstd { path })
            }
            other => other,
        }
    }

    /// The file is zstd-compressed.
    pub fn is_zstd(&self) -> bool {
        self.input.is_zstd()
    }
}

impl<R: BufRead> RecordingReader<R> {
    pub fn new(path: String, mut input: R) -> Result<Self, RecordingError> {
        let mut buf = Vec::new();
        let mut line_no = 0;
        let mut header_end = 0u64;
        // Skip leading blank lines, then the first line must be the header.
        loop {
            buf.clear();
            let read =
                read_line_bounded(&mut input, &mut buf, MAX_LINE_BYTES).map_err(|source| {
                    RecordingError::Read {
                        path: path.clone(),
                        source,
                    }
                })?;
            line_no += 1;
            let n = match read {
                LineRead::TooLong => {
                    return Err(RecordingError::LineTooLong {
                        path,
                        line: line_no,
                        offset: header_end,
                    })
                }
                LineRead::Line(0) => return Err(RecordingError::Empty { path }),
                LineRead::Line(n) => n,
            };
            header_end += n as u64;
            if !buf.iter().all(u8::is_ascii_whitespace) {
                break;
            }
        }
        let header = parse_header(&buf).map_err(|what| RecordingError::Line {
            path: path.clone(),
            line: line_no,
            what,
        })?;
        Ok(RecordingReader {
            path,
            input,
            chains: Chains::new(header.version),
            header,
            line_no,
            buf,
            truncated_tail: false,
            done: false,
            header_end,
            offset: header_end,
            blank: BlankRun::default(),
        })
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The input positioned after the header, the header's end offset and its line number.
    pub(crate) fn into_parts(self) -> (R, u64, usize) {
        (self.input, self.header_end, self.line_no)
    }

    pub fn path(&self) -> &str {
        &self.path
    }

    /// True once the reader skipped an incomplete final line (the writer was killed mid-line).
    /// Every command that reads the file says so with [`TRUNCATED_TAIL`].
    pub fn truncated_tail(&self) -> bool {
        self.truncated_tail
    }

    /// Bytes of (decompressed) input read so far, header included.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The next entry, with its line copied into `line` (for tools that look at the text).
    pub fn next_with_line(&mut self, line: &mut Vec<u8>) -> Result<Option<Entry>, RecordingError> {
        let e = self.next_entry()?;
        line.clear();
        line.extend_from_slice(&self.buf);
        Ok(e)
    }

    fn at_eof(&mut self) -> bool {
        matches!(self.input.fill_buf(), Ok(b) if b.is_empty())
    }

    fn next_entry(&mut self) -> Result<Option<Entry>, RecordingError> {
        let Some(tail) = self.next_line()? else {
            return Ok(None);
        };
        let entry = entry_of_line(&self.buf, &self.path, self.line_no, tail, &mut self.chains)?;
        if entry.is_none() {
            self.truncated_tail = true;
            self.done = true;
        }
        Ok(entry)
    }

    /// Reads the next line that is not blank into `self.buf`, without parsing it: `None` at
    /// the end, else whether it is a possible truncated tail (no newline, and nothing after).
    /// The read-ahead thread reads with this and parses where there is time.
    pub(crate) fn next_line(&mut self) -> Result<Option<bool>, RecordingError> {
        loop {
            if self.done {
                return Ok(None);
            }
            self.buf.clear();
            let read_err = |source| RecordingError::Read {
                path: self.path.clone(),
                source,
            };
            let blank = skip_newlines(&mut self.input).map_err(read_err)?;
            self.line_no += blank as usize;
            self.offset += blank;
            if self.blank.add(blank) {
                return Err(self.blank_flood());
            }
            let read = read_line_bounded(&mut self.input, &mut self.buf, MAX_LINE_BYTES).map_err(
                |source| RecordingError::Read {
                    path: self.path.clone(),
                    source,
                },
            )?;
            self.line_no += 1;
            let n = match read {
                LineRead::TooLong => {
                    return Err(RecordingError::LineTooLong {
                        path: self.path.clone(),
                        line: self.line_no,
                        offset: self.offset,
                    })
                }
                LineRead::Line(0) => {
                    self.done = true;
                    return Ok(None);
                }
                LineRead::Line(n) => n,
            };
            self.offset += n as u64;
            if self.buf.iter().all(u8::is_ascii_whitespace) {
                if self.blank.add(n as u64) {
                    return Err(self.blank_flood());
                }
                continue;
            }
            self.blank.end();
            // A crash mid-write leaves a partial last line (no newline): only that line may
            // be tolerated when it does not parse.
            return Ok(Some(self.buf.last() != Some(&b'\n') && self.at_eof()));
        }
    }

    fn blank_flood(&self) -> RecordingError {
        RecordingError::Line {
            path: self.path.clone(),
            line: self.line_no,
            what: blank_flood_what(),
        }
    }

    /// The line `next_line` read last, and its number.
    pub(crate) fn line(&self) -> (&[u8], usize) {
        (&self.buf, self.line_no)
    }
}

/// A non-blank line as an entry: `None` for a truncated tail that does not parse (the writer
/// was killed mid-line); a complete line that is wrong is an error naming file and line.
pub(crate) fn entry_of_line(
    line: &[u8],
    path: &str,
    line_no: usize,
    tail: bool,
    chains: &mut Chains,
) -> Result<Option<Entry>, RecordingError> {
    match chains.entry(line) {
        Ok(entry) => Ok(Some(entry)),
        Err(_) if tail => Ok(None),
        Err(what) => Err(RecordingError::Line {
            path: path.to_string(),
            line: line_no,
            what: second_header(line).unwrap_or(what),
        }),
    }
}

/// What to say of a line that is a recording's header where a sample belongs: two files
/// joined with `cat` (the sample parser would name a missing field `t`).
pub(crate) fn second_header(line: &[u8]) -> Option<String> {
    let start = line.iter().position(|b| !b.is_ascii_whitespace())?;
    line[start..]
        .starts_with(b"{\"format\":\"dgscope-recording\"")
        .then(|| {
            "a second recording header: two recordings joined into one file (cat a b)? read each file on its own".to_string()
        })
}

impl<R: BufRead> Iterator for RecordingReader<R> {
    type Item = Result<Entry, RecordingError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.next_entry() {
            Ok(Some(e)) => Some(Ok(e)),
            Ok(None) => None,
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

fn parse_header(line: &[u8]) -> Result<Header, String> {
    // What a file that is not a plain or zstd recording usually is, said plainly.
    if line.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return Err("the file starts with a UTF-8 byte order mark (saved by a Windows editor?); remove those first three bytes (sed -i '1s/^\\xEF\\xBB\\xBF//' FILE)".into());
    }
    if line.starts_with(&[0x1F, 0x8B]) {
        return Err("the file is gzip-compressed; dgscope reads plain or zstd recordings: gunzip it (or recompress with zstd)".into());
    }
    if line.starts_with(&[0xFD, b'7', b'z', b'X', b'Z', 0x00]) {
        return Err("the file is xz-compressed; dgscope reads plain or zstd recordings: unxz it (or recompress with zstd)".into());
    }
    let v: serde_json::Value = serde_json::from_slice(line)
        .map_err(|e| format!("the header line is not JSON ({e}); is this a dgscope recording?"))?;
    let format = v.get("format").and_then(|f| f.as_str());
    match format {
        Some(FORMAT) => {}
        Some(other) => {
            return Err(format!(
                "unknown format {other:?}; dgscope reads \"{FORMAT}\" files"
            ))
        }
        None => {
            return Err(format!(
                "the header has no \"format\" key; a recording starts with {{\"format\":\"{FORMAT}\",\"version\":{VERSION}}}"
            ))
        }
    }
    match v.get("version").and_then(|x| x.as_u64()) {
        Some(n) if (1..=u64::from(VERSION)).contains(&n) => {}
        Some(n) => {
            return Err(format!(
                "recording format version {n} is not supported; this dgscope reads versions 1 to {VERSION} (upgrade dgscope to read newer recordings)"
            ))
        }
        None => return Err("the header has no numeric \"version\" key".into()),
    }
    let header: Header = serde_json::from_value(v).map_err(|e| format!("bad header: {e}"))?;
    // The interval sizes replay pacing and tick counts: a day at most, never zero.
    if let Some(ms) = header.interval_ms.filter(|ms| *ms == 0 || *ms > 86_400_000) {
        return Err(format!(
            "header interval_ms = {ms} is outside 1..=86400000 (a day); is this a dgscope recording?"
        ));
    }
    Ok(header)
}

/// Writes a recording, one flushed line per sample or mark, so a killed process loses at most
/// the line being written. The zstd form flushes a block per line the same way.
pub struct RecordingWriter<W: Write> {
    out: Option<Sink<W>>,
    line: Vec<u8>,
    /// Version 2: samples after a slot's first of a segment are written as changes lines.
    differ: Option<Differ>,
}

/// Whether a recording named `path` is written zstd-compressed (`….zst`).
pub fn wants_zstd(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("zst"))
}

impl RecordingWriter<File> {
    /// Creates a new file, zstd-compressed when the name ends in `.zst`: an existing one (or
    /// a symlink planted at the name) is an error, never truncated.
    pub fn create(path: &Path, header: &Header) -> io::Result<Self> {
        let file = crate::output::create_new(path)?;
        if wants_zstd(path) {
            RecordingWriter::new_zstd(file, header)
        } else {
            RecordingWriter::new(file, header)
        }
    }
}

impl<W: Write> RecordingWriter<W> {
    pub fn new(out: W, header: &Header) -> io::Result<Self> {
        Self::with_sink(Sink::Plain(out), header)
    }

    /// The zstd form: frames of [`super::zst::FRAME_MS`] of sample time.
    pub fn new_zstd(out: W, header: &Header) -> io::Result<Self> {
        Self::with_sink(Sink::zstd(out)?, header)
    }

    /// Either form, by `zstd`.
    pub fn with_form(out: W, header: &Header, zstd: bool) -> io::Result<Self> {
        if zstd {
            Self::new_zstd(out, header)
        } else {
            Self::new(out, header)
        }
    }

    fn with_sink(sink: Sink<W>, header: &Header) -> io::Result<Self> {
        let mut w = RecordingWriter {
            out: Some(sink),
            line: Vec::with_capacity(4096),
            differ: (header.version >= 2).then(Differ::default),
        };
        w.write_json(header, None)?;
        Ok(w)
    }

    pub fn write_sample(&mut self, s: &Sample) -> io::Result<()> {
        let Some(differ) = &mut self.differ else {
            return self.write_json(s, Some(s.t.ms));
        };
        self.line.clear();
        differ.line(s, &mut self.line)?;
        self.emit(Some(s.t.ms))
    }

    pub fn write_mark(&mut self, m: &Mark) -> io::Result<()> {
        // Marks never start a frame: their time may be far from the samples'.
        self.write_json(
            &MarkLine {
                t: m.t,
                kind: "mark",
                text: &m.text,
            },
            None,
        )
    }

    pub fn write_entry(&mut self, e: &Entry) -> io::Result<()> {
        match e {
            Entry::Sample(s) => self.write_sample(s),
            Entry::Mark(m) => self.write_mark(m),
        }
    }

    fn write_json<T: Serialize>(&mut self, v: &T, t: Option<i64>) -> io::Result<()> {
        self.line.clear();
        serde_json::to_writer(&mut self.line, v)?;
        self.emit(t)
    }

    /// Ends the line in `self.line` and writes it.
    fn emit(&mut self, t: Option<i64>) -> io::Result<()> {
        self.line.push(b'\n');
        // One write per line: a crash leaves a prefix of one line, never interleaved halves.
        self.out
            .as_mut()
            .ok_or_else(|| io::Error::other("writer closed"))?
            .write_line(&self.line, t)
    }

    /// Ends the recording (the zstd form closes its frame) and returns the output.
    pub fn finish(mut self) -> io::Result<W> {
        self.out
            .take()
            .ok_or_else(|| io::Error::other("writer closed"))?
            .finish()
    }

    pub fn into_inner(self) -> W {
        self.finish().expect("finishing the recording")
    }
}

impl<W: Write> Drop for RecordingWriter<W> {
    /// Closes the zstd frame of a writer that is simply dropped (every line is flushed
    /// already; this only adds the frame's end and checksum).
    fn drop(&mut self) {
        if let Some(sink) = self.out.take() {
            let _ = sink.finish();
        }
    }
}

/// Reads every entry of a small recording into memory (tests, fixtures, short reports).
pub fn read_all(path: &Path) -> Result<(Header, Vec<Entry>), RecordingError> {
    let reader = RecordingReader::open(path)?;
    let header = reader.header().clone();
    let entries = reader.collect::<Result<Vec<_>, _>>()?;
    Ok((header, entries))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::{Bucket, DbInfo, Dest, DestStatus, Event, Slot, TransmitMode};
    use crate::units::Micros;
    use proptest::prelude::*;
    use std::io::Cursor;

    fn header() -> Header {
        Header::new(Timestamp::from_millis(0), 1000, "test")
    }

    fn sample(i: i64) -> Sample {
        let mut s = Sample::new(Timestamp::from_millis(i * 1000), Slot::primary());
        s.db = Some(
            DbInfo {
                name: Some("prod_a".into()),
                startup: Some(Timestamp::from_millis(0)),
                ..DbInfo::default()
            }
            .into(),
        );
        s.stats.insert("redo size".into(), 1000 * i as u64);
        s.os.insert("LOAD".into(), 1.5);
        s.os.insert("BUSY_TIME".into(), 100.0);
        s.events.insert(
            "log file sync".into(),
            Event {
                waits: 10,
                us: Micros(5000),
                hist: vec![Bucket(Micros(1024), 7), Bucket(Micros(2048), 3)],
                ..Default::default()
            },
        );
        s.dests.push(Dest {
            id: 2,
            name: Some("prod_b".into()),
            status: DestStatus::Valid,
            mode: TransmitMode::Sync,
            affirm: true,
            compression: None,
            net_timeout_s: Some(30),
            gap: Some("NO GAP".into()),
            error: None,
            archived_seq: Some(812),
            applied_seq: Some(811),
            resp_hist: vec![(1, 100)],
            ..Default::default()
        });
        s
    }

    fn write(entries: &[Entry]) -> Vec<u8> {
        let mut w = RecordingWriter::new(Vec::new(), &header()).unwrap();
        for e in entries {
            w.write_entry(e).unwrap();
        }
        w.into_inner()
    }

    fn read(bytes: &[u8]) -> Result<Vec<Entry>, RecordingError> {
        RecordingReader::new("rec.jsonl".into(), Cursor::new(bytes.to_vec()))?.collect()
    }

    #[test]
    fn round_trip_samples_and_marks() {
        let entries = vec![
            Entry::Sample(Box::new(sample(1))),
            Entry::Mark(Mark {
                t: Timestamp::from_millis(1500),
                text: "baseline set".into(),
            }),
            Entry::Sample(Box::new(sample(2))),
        ];
        let bytes = write(&entries);
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert!(text.starts_with("{\"format\":\"dgscope-recording\",\"version\":2,"));
        assert!(text.contains("\"kind\":\"mark\""));
        assert!(text.contains("\"BUSY_TIME\":100,"), "{text}");
        assert_eq!(read(&bytes).unwrap(), entries);
    }

    #[test]
    fn truncated_last_line_is_tolerated() {
        let mut bytes = write(&[
            Entry::Sample(Box::new(sample(1))),
            Entry::Sample(Box::new(sample(2))),
        ]);
        let cut = bytes.len() - 40;
        bytes.truncate(cut);
        let mut r = RecordingReader::new("rec.jsonl".into(), Cursor::new(bytes)).unwrap();
        let got: Vec<_> = r.by_ref().collect::<Result<_, _>>().unwrap();
        assert_eq!(got.len(), 1);
        assert!(r.truncated_tail());
    }

    #[test]
    fn malformed_middle_line_names_file_and_line() {
        let good = write(&[Entry::Sample(Box::new(sample(1)))]);
        let mut text = String::from_utf8(good).unwrap();
        text.push_str("{\"t\":\"2026-11-30T05:00:01.000Z\",\"slot\":\"primary\",\"stats\":{\"redo size\":-5}}\n");
        text.push_str(&serde_json::to_string(&sample(3)).unwrap());
        text.push('\n');
        let err = read(text.as_bytes()).unwrap_err().to_string();
        assert!(err.starts_with("rec.jsonl:3: bad sample:"), "{err}");
    }

    #[test]
    fn unknown_keys_are_ignored() {
        let text = "{\"format\":\"dgscope-recording\",\"version\":1,\"future\":true}\n\
{\"t\":\"2026-11-30T05:00:01.000Z\",\"slot\":\"primary\",\"new_part\":{\"x\":1},\"stats\":{\"user commits\":5}}\n";
        let got = read(text.as_bytes()).unwrap();
        match &got[0] {
            Entry::Sample(s) => assert_eq!(s.stat("user commits"), Some(5)),
            e => panic!("{e:?}"),
        }
    }

    #[test]
    fn header_problems_are_rejected_clearly() {
        let cases = [
            ("", "the file is empty"),
            (
                "{\"format\":\"other\",\"version\":1}\n",
                "rec.jsonl:1: unknown format",
            ),
            (
                "{\"format\":\"dgscope-recording\",\"version\":3}\n",
                "rec.jsonl:1: recording format version 3 is not supported",
            ),
            ("not json\n", "rec.jsonl:1: the header line is not JSON"),
            (
                "\u{feff}{\"format\":\"dgscope-recording\",\"version\":2}\n",
                "rec.jsonl:1: the file starts with a UTF-8 byte order mark",
            ),
            (
                "{\"version\":1}\n",
                "rec.jsonl:1: the header has no \"format\" key",
            ),
        ];
        for (text, want) in cases {
            let err = match RecordingReader::new("rec.jsonl".into(), Cursor::new(text.as_bytes())) {
                Err(e) => e.to_string(),
                Ok(_) => panic!("accepted {text:?}"),
            };
            assert!(err.contains(want), "{text:?}: {err}");
        }
        // Compressed by something else than zstd: said, not "not JSON".
        for (bytes, want) in [
            (&b"\x1f\x8b\x08\x00\n"[..], "the file is gzip-compressed"),
            (&b"\xfd7zXZ\x00\x00\n"[..], "the file is xz-compressed"),
        ] {
            let err = match RecordingReader::new("rec.jsonl".into(), Cursor::new(bytes)) {
                Err(e) => e.to_string(),
                Ok(_) => panic!("accepted {bytes:?}"),
            };
            assert!(err.contains(want), "{err}");
        }
    }

    #[test]
    fn unknown_line_kind_is_an_error_in_the_middle() {
        let text = "{\"format\":\"dgscope-recording\",\"version\":1}\n\
{\"t\":\"2026-11-30T05:00:01.000Z\",\"kind\":\"alien\"}\n\
{\"t\":\"2026-11-30T05:00:02.000Z\",\"slot\":\"primary\"}\n";
        let err = read(text.as_bytes()).unwrap_err().to_string();
        assert!(err.contains("rec.jsonl:2: unknown line kind"), "{err}");
    }

    #[test]
    fn a_line_past_the_limit_is_one_error_naming_line_and_offset() {
        // A zero-filled tail: what a power loss leaves after the last complete line.
        let mut bytes = write(&[Entry::Sample(Box::new(sample(1)))]);
        let tail_at = bytes.len();
        bytes.resize(tail_at + MAX_LINE_BYTES + 10, 0);
        let err = read(&bytes).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!(
                "rec.jsonl:3: the line starting at byte {tail_at} is longer than 8 MiB"
            )),
            "{err}"
        );
        // A header that never ends (`/dev/zero`).
        let zeros = vec![0u8; MAX_LINE_BYTES + 1];
        let err = match RecordingReader::new("z".into(), Cursor::new(zeros)) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("accepted zeros"),
        };
        assert!(
            err.starts_with("z:1: the line starting at byte 0 is longer"),
            "{err}"
        );
        // Exactly at the limit is still read (and then judged as JSON).
        let mut at_limit = write(&[]);
        at_limit.extend(std::iter::repeat_n(b' ', MAX_LINE_BYTES - 1));
        at_limit.push(b'\n');
        assert!(read(&at_limit).unwrap().is_empty());
    }

    #[test]
    fn values_oracle_never_reports_name_their_field() {
        let mut s = sample(1);
        let log = |bytes, members| crate::sample::Log {
            group: 1,
            thread: 1,
            sequence: 1,
            bytes,
            members,
            status: crate::sample::LogStatus::Current,
            used: None,
            blocksize: None,
        };
        s.logs = Some(std::sync::Arc::new(crate::sample::Logs {
            online: vec![log(0, 2)],
            standby: vec![],
        }));
        let err = read(&write(&[Entry::Sample(Box::new(s.clone()))]))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("rec.jsonl:2: logs.online[0].bytes is 0;"),
            "{err}"
        );
        s.logs = Some(std::sync::Arc::new(crate::sample::Logs {
            online: vec![log(1 << 30, 2)],
            standby: vec![log(1 << 30, 1), log(1 << 30, u32::MAX)],
        }));
        let err = read(&write(&[Entry::Sample(Box::new(s))]))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("rec.jsonl:2: logs.standby[1].members = 4294967295 is outside 1..=32"),
            "{err}"
        );
        let bad_header = "{\"format\":\"dgscope-recording\",\"version\":1,\"interval_ms\":0}\n";
        let err = match RecordingReader::new("r".into(), Cursor::new(bad_header.as_bytes())) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("accepted interval 0"),
        };
        assert!(err.contains("interval_ms = 0 is outside"), "{err}");
    }

    proptest! {
        #[test]
        fn any_prefix_of_a_recording_reads_without_error(cut in 0usize..2000) {
            let bytes = write(&[
                Entry::Sample(Box::new(sample(1))),
                Entry::Sample(Box::new(sample(2))),
                Entry::Sample(Box::new(sample(3))),
            ]);
            let header_len = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
            let cut = header_len + cut % (bytes.len() - header_len + 1);
            let got = read(&bytes[..cut]);
            prop_assert!(got.is_ok(), "{:?}", got.err().map(|e| e.to_string()));
            // Every complete line survives.
            let full_lines = bytes[header_len..cut].iter().filter(|&&b| b == b'\n').count();
            prop_assert!(got.unwrap().len() >= full_lines);
        }

        #[test]
        fn reader_never_panics_on_garbage(body in proptest::collection::vec(any::<u8>(), 0..400)) {
            let mut bytes = b"{\"format\":\"dgscope-recording\",\"version\":1}\n".to_vec();
            bytes.extend_from_slice(&body);
            let _ = read(&bytes);
        }
    }
}
