//! Parsing on one thread while the engine consumes on the other.
//!
//! `read_ahead` runs any iterator on a thread of its own. `RecordingAhead` is the one the
//! commands that read a whole recording use: its thread reads lines in batches, and who
//! parses them depends on the version, so that both cores stay busy
//! (`benches/recording_load.rs`):
//! - version 1: the reading thread parses a batch itself only when the consumer is behind;
//!   otherwise it hands the lines over raw and the consumer parses them between engine pushes;
//! - version 2 (changes lines read against their slot's previous line): each slot's lines are
//!   parsed on one thread, the primary's on the reading thread and the rest by the consumer;
//!   on a `.zst` file, which decompresses on a thread of its own, the consumer parses all.
//!   A consumer that judges every instant (`check --replay`) is the slower side whatever it
//!   parses: every line is parsed on the reading thread then ([`recording_ahead_judged`]).

use super::changes::Chains;
use super::recording::{entry_of_line, Entry, Header, RecordingError, RecordingReader};
use super::zst::FileInput;
use std::io::BufRead;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Entries handed over at a time: the channel costs a little per send, not per entry.
const BATCH: usize = 256;
/// Batches parsed ahead at most, so memory stays bounded however slow the consumer.
const AHEAD: usize = 8;

/// An iterator whose items are produced by another thread.
pub struct ReadAhead<'a, T> {
    rx: Option<Receiver<Vec<T>>>,
    cur: std::vec::IntoIter<T>,
    /// No thread could be started: the iterator runs here instead.
    local: Option<Box<dyn Iterator<Item = T> + 'a>>,
}

/// Runs `iter` (which may borrow, as the index's entries do) on a thread in `scope`,
/// `BATCH` items at a time; the scope joins it and passes on a panic. Dropping the result
/// early stops the thread at its next hand-over.
pub fn read_ahead_scoped<'scope, I>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    iter: I,
) -> ReadAhead<'scope, I::Item>
where
    I: Iterator + Send + 'scope,
    I::Item: Send + 'scope,
{
    // Shared so that the iterator is not lost with a thread that could not start.
    let shared = Arc::new(Mutex::new(Some(iter)));
    let theirs = shared.clone();
    let (tx, rx) = sync_channel::<Vec<I::Item>>(AHEAD);
    let started = std::thread::Builder::new()
        .name("dgscope-parse".into())
        .spawn_scoped(scope, move || {
            let iter = theirs.lock().ok().and_then(|mut g| g.take());
            if let Some(iter) = iter {
                feed(iter, tx);
            }
        });
    let local = match started {
        Ok(_) => None,
        Err(_) => shared
            .lock()
            .ok()
            .and_then(|mut g| g.take())
            .map(|i| Box::new(i) as Box<dyn Iterator<Item = I::Item> + 'scope>),
    };
    ReadAhead {
        rx: local.is_none().then_some(rx),
        cur: Vec::new().into_iter(),
        local,
    }
}

fn feed<I: Iterator>(iter: I, tx: std::sync::mpsc::SyncSender<Vec<I::Item>>) {
    let mut batch = Vec::with_capacity(BATCH);
    for x in iter {
        batch.push(x);
        if batch.len() == BATCH {
            let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
            if tx.send(full).is_err() {
                return;
            }
        }
    }
    if !batch.is_empty() {
        let _ = tx.send(batch);
    }
}

impl<T> Iterator for ReadAhead<'_, T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        if let Some(local) = &mut self.local {
            return local.next();
        }
        loop {
            if let Some(x) = self.cur.next() {
                return Some(x);
            }
            match self.rx.as_ref()?.recv() {
                Ok(b) => self.cur = b.into_iter(),
                Err(_) => {
                    self.rx = None;
                    return None;
                }
            }
        }
    }
}

impl Drop for RecordingAhead {
    fn drop(&mut self) {
        // Closing the channel makes the thread's next send fail, so it ends on its own.
        self.rx = None;
    }
}

impl<T> Drop for ReadAhead<'_, T> {
    fn drop(&mut self) {
        // Closing the channel makes the thread's next send fail, so it ends on its own.
        self.rx = None;
    }
}

/// Lines handed over at a time.
pub(super) const LINES: usize = 128;
/// Batches in flight at most: memory stays bounded (a few MB) however slow the consumer.
const IN_FLIGHT: usize = 6;
/// The reading thread parses a batch itself when at least this many wait for the consumer.
pub(super) const BEHIND: usize = 2;

/// A batch's text and line table, sent back to be filled again.
type Buffers = (Vec<u8>, Vec<(usize, usize, bool)>);

/// Lines read on the reading thread, parsed there or not yet.
struct Batch {
    /// The lines' bytes, one after the other.
    text: Vec<u8>,
    /// Each line's end in `text`, number and whether it may be a truncated tail.
    lines: Vec<(usize, usize, bool)>,
    /// The entries, when the reading thread parsed them (`None` for a tolerated tail).
    parsed: Option<Vec<Result<Option<Entry>, RecordingError>>>,
    /// Version 2: per line, the entry when the reading thread parsed it (the primary's lines,
    /// except on a `.zst` file); the consumer parses the others (each slot's chain of changes
    /// lives on one thread). Empty when the reading thread parsed none.
    mine: Vec<Option<Result<Option<Entry>, RecordingError>>>,
    /// The read error that ended the input after these lines.
    error: Option<RecordingError>,
}

impl Batch {
    fn line(&self, k: usize) -> (&[u8], usize, bool) {
        let from = if k == 0 { 0 } else { self.lines[k - 1].0 };
        let (end, no, tail) = self.lines[k];
        (&self.text[from..end], no, tail)
    }
}

/// A recording read on a second thread, entries in file order; the same entries, errors and
/// truncated-tail flag as the `RecordingReader` it wraps.
pub struct RecordingAhead {
    header: Header,
    path: String,
    rx: Option<std::sync::mpsc::Receiver<Batch>>,
    /// Read batches' buffers go back to be filled again: fresh half-megabyte buffers cost a
    /// page fault per page, which was a third of the reading thread's time.
    recycle: std::sync::mpsc::Sender<Buffers>,
    waiting: Arc<AtomicUsize>,
    worker: Option<JoinHandle<()>>,
    cur: Option<Batch>,
    /// The current batch came parsed: its entries are in `parsed`.
    came_parsed: bool,
    /// Version 2: what the reading thread parsed of the current batch, line by line.
    mine: std::vec::IntoIter<Option<Result<Option<Entry>, RecordingError>>>,
    /// The chains of the slots the consumer parses (version 2); stateless for version 1.
    chains: Chains,
    next: usize,
    parsed: std::vec::IntoIter<Result<Option<Entry>, RecordingError>>,
    /// A thread that could not be started, said once as a read error.
    no_thread: Option<std::io::Error>,
    truncated_tail: bool,
    done: bool,
}

/// Reads `reader` ahead on a thread of its own. Dropping the result early stops the thread
/// at its next hand-over.
///
/// A `.zst` file is already decompressed on a thread of its own (`zst::FileInput`): there
/// the reading thread only cuts lines and the consumer parses every one of a version 2
/// file, since a third busy thread on two cores made the pass slower than one thread
/// (measured, `benches/recording_load.rs`: 0.78 s against 0.61 s; 0.60 s this way).
pub fn recording_ahead(reader: RecordingReader<FileInput>) -> RecordingAhead {
    let here = if reader.is_zstd() {
        ParseHere::Nothing
    } else {
        ParseHere::Primary
    };
    ahead_with(reader, BEHIND, here)
}

/// [`recording_ahead`] for a consumer that judges every instant (the causes engine behind
/// the metrics): it is the slower side by far, so the reading thread parses every line, also
/// of a `.zst` file (measured on a 24 h day, `check --replay`: 2.6 s plain and 3.0 s `.zst`
/// with the shared parsing, 2.05 s and 2.2 s this way).
pub fn recording_ahead_judged(reader: RecordingReader<FileInput>) -> RecordingAhead {
    ahead_with(reader, 0, ParseHere::All)
}

/// Which lines of a version 2 file the reading thread parses (each slot's chain of changes
/// lives on one thread, so the choice is by slot, fixed for the whole file).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParseHere {
    /// None: the consumer parses every line.
    Nothing,
    /// The primary's; the standbys', marks and anything unprefixed on the consumer.
    Primary,
    /// Every line.
    All,
}

/// `behind`: parse on the reading thread when this many batches wait (0: always; version 1).
/// `here`: the lines the reading thread parses (version 2).
pub(super) fn ahead_with<R: BufRead + Send + 'static>(
    mut reader: RecordingReader<R>,
    behind: usize,
    here: ParseHere,
) -> RecordingAhead {
    let header = reader.header().clone();
    let path = reader.path().to_string();
    // Changes lines (version 2) read against their slot's previous line, so each slot's
    // lines are parsed on one thread: the primary's here, the others' by the consumer.
    let version = header.version;
    let mut chains = Chains::new(version);
    let split = chains.chained();
    let (tx, rx) = sync_channel::<Batch>(IN_FLIGHT);
    let (recycle, recycled) = std::sync::mpsc::channel::<Buffers>();
    let waiting = Arc::new(AtomicUsize::new(0));
    let w = waiting.clone();
    let spawned = std::thread::Builder::new()
        .name("dgscope-read".into())
        .spawn(move || loop {
            let (mut text, mut lines) = recycled
                .try_recv()
                .unwrap_or_else(|_| (Vec::with_capacity(LINES * 4096), Vec::with_capacity(LINES)));
            text.clear();
            lines.clear();
            let mut b = Batch {
                text,
                lines,
                parsed: None,
                mine: Vec::new(),
                error: None,
            };
            let mut end = false;
            while b.lines.len() < LINES {
                match reader.next_line() {
                    Ok(Some(tail)) => {
                        let (line, no) = reader.line();
                        b.text.extend_from_slice(line);
                        b.lines.push((b.text.len(), no, tail));
                    }
                    Ok(None) => {
                        end = true;
                        break;
                    }
                    Err(e) => {
                        b.error = Some(e);
                        end = true;
                        break;
                    }
                }
            }
            if split && here != ParseHere::Nothing {
                let path = reader.path();
                b.mine = (0..b.lines.len())
                    .map(|k| {
                        let (line, no, tail) = b.line(k);
                        // The primary's lines here; the standbys', marks and anything
                        // unprefixed on the consumer (measured: the better balance, since
                        // the engine thread also frees what the other thread allocated).
                        let mine = here == ParseHere::All
                            || super::changes::prefix_slot(line)
                                .is_some_and(|(slot, _)| slot == b"primary");
                        mine.then(|| entry_of_line(line, path, no, tail, &mut chains))
                    })
                    .collect();
            } else if !split && w.load(Ordering::Acquire) >= behind {
                let path = reader.path();
                b.parsed = Some(
                    (0..b.lines.len())
                        .map(|k| {
                            let (line, no, tail) = b.line(k);
                            entry_of_line(line, path, no, tail, &mut chains)
                        })
                        .collect(),
                );
            }
            w.fetch_add(1, Ordering::AcqRel);
            if tx.send(b).is_err() || end {
                return;
            }
        });
    let (worker, no_thread) = match spawned {
        Ok(w) => (Some(w), None),
        Err(e) => (None, Some(e)),
    };
    RecordingAhead {
        header,
        path,
        rx: Some(rx),
        recycle,
        waiting,
        worker,
        cur: None,
        came_parsed: false,
        mine: Vec::new().into_iter(),
        chains: Chains::new(version),
        next: 0,
        parsed: Vec::new().into_iter(),
        no_thread,
        truncated_tail: false,
        done: false,
    }
}

impl RecordingAhead {
    pub fn header(&self) -> &Header {
        &self.header
    }

    pub fn path(&self) -> &str {
        &self.path
    }

    /// True once the stream ended at an incomplete final line (the writer was killed).
    pub fn truncated_tail(&self) -> bool {
        self.truncated_tail
    }

    /// The next entry, with its line copied into `line` (for tools that look at the text).
    pub fn next_with_line(&mut self, line: &mut Vec<u8>) -> Result<Option<Entry>, RecordingError> {
        let e = self.next_entry()?;
        line.clear();
        if let (Some(b), Some(_)) = (&self.cur, &e) {
            line.extend_from_slice(b.line(self.next - 1).0);
        }
        Ok(e)
    }

    /// An error ends the stream, as it ends the reader's.
    fn next_entry(&mut self) -> Result<Option<Entry>, RecordingError> {
        let e = self.read_entry();
        if e.is_err() {
            self.done = true;
        }
        e
    }

    fn read_entry(&mut self) -> Result<Option<Entry>, RecordingError> {
        loop {
            if self.done {
                return Ok(None);
            }
            if let Some(source) = self.no_thread.take() {
                return Err(RecordingError::Read {
                    path: self.path.clone(),
                    source,
                });
            }
            if let Some(b) = &self.cur {
                let got = if self.came_parsed {
                    self.parsed.next()
                } else if self.next < b.lines.len() {
                    let (line, no, tail) = b.line(self.next);
                    match self.mine.next().flatten() {
                        Some(parsed) => Some(parsed),
                        None => Some(entry_of_line(line, &self.path, no, tail, &mut self.chains)),
                    }
                } else {
                    None
                };
                self.next += 1;
                match got {
                    Some(Ok(Some(e))) => return Ok(Some(e)),
                    Some(Ok(None)) => {
                        self.truncated_tail = true;
                        self.done = true;
                        return Ok(None);
                    }
                    Some(Err(e)) => return Err(e),
                    None => {
                        let b = self.cur.take().expect("a batch");
                        if let Some(e) = b.error {
                            return Err(e);
                        }
                        // The thread may have ended; then the buffers are simply freed.
                        let _ = self.recycle.send((b.text, b.lines));
                    }
                }
                continue;
            }
            let Some(rx) = &self.rx else {
                return Ok(None);
            };
            match rx.recv() {
                Ok(mut b) => {
                    self.waiting.fetch_sub(1, Ordering::AcqRel);
                    self.came_parsed = b.parsed.is_some();
                    self.parsed = b.parsed.take().unwrap_or_default().into_iter();
                    self.mine = std::mem::take(&mut b.mine).into_iter();
                    self.next = 0;
                    self.cur = Some(b);
                }
                Err(_) => {
                    // The thread ended: after the last batch, or by a panic (a bug, surfaced
                    // here rather than read as the end of the recording).
                    self.rx = None;
                    self.done = true;
                    if let Some(w) = self.worker.take() {
                        if let Err(p) = w.join() {
                            std::panic::resume_unwind(p);
                        }
                    }
                    return Ok(None);
                }
            }
        }
    }
}

impl Iterator for RecordingAhead {
    type Item = Result<Entry, RecordingError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_entry().transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yields_everything_in_order_and_stops_early_cleanly() {
        let v: Vec<u32> = (0..10_000).collect();
        std::thread::scope(|sc| {
            // Borrowed items, as the index's entries borrow the index.
            let got: Vec<&u32> = read_ahead_scoped(sc, v.iter()).collect();
            assert_eq!(got, v.iter().collect::<Vec<_>>());
            let first: Vec<u32> = read_ahead_scoped(sc, 0..u32::MAX).take(3).collect();
            assert_eq!(first, [0, 1, 2]);
        });
    }
}
