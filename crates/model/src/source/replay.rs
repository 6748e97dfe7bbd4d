//! A recording as a source: entries grouped into sampling instants, played at the recording's
//! own pace times a speed, with pause. The screen scrubs through what was played already.

use super::{Checking, Control, PullSource, SourceEvent, Tick};
use crate::sample::order::Steady;
use crate::sample::recording::{Entry, ReadProbe, RecordingError, RecordingReader};
use crate::sample::zst::FileInput;
use crate::sample::Mark;
use crate::timestamp::Timestamp;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tokio::sync::mpsc;

/// The fastest playback `+` reaches and `--speed` accepts.
pub const MAX_SPEED: f64 = 64.0;

pub struct ReplaySource<R> {
    /// The recording, a lone sample far ahead taken out and a step back of the clock
    /// followed on, as `check` and the reports read it.
    reader: Steady<Feed<R>>,
    /// `replay --from`: instants before this go out at once (the stretch loaded before the
    /// start), without the recording's pace.
    unpaced_until: Option<Timestamp>,
    pending: Option<Entry>,
    /// Notes on the timeline for the clock's steps back, before the entries after them.
    notes: std::collections::VecDeque<Entry>,
    interval: Duration,
    /// The first bad line, if the recording turned out corrupt part-way.
    error: Option<RecordingError>,
    /// The file as opened, to tell at the end whether it changed underneath the replay.
    opened: Option<FileId>,
    /// The time of the last entry played (where an end note is placed).
    last_t: Option<Timestamp>,
    /// Whether samples stamped outside 2000..2100 were said on the timeline (once).
    said_implausible: bool,
    /// The read-through going on behind the screen, if the file was too long to finish it
    /// before.
    check: Option<Check>,
}

/// Identity and size of a file when replay opened it.
#[derive(Debug, Clone)]
struct FileId {
    path: PathBuf,
    dev: u64,
    ino: u64,
    len: u64,
}

impl FileId {
    fn of(path: &Path) -> Option<Self> {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata(path).ok()?;
        Some(FileId {
            path: path.to_path_buf(),
            dev: m.dev(),
            ino: m.ino(),
            len: m.len(),
        })
    }

    /// What happened to the file since it was opened, if anything that cut playback short.
    fn changed(&self) -> Option<String> {
        use std::os::unix::fs::MetadataExt;
        let name = crate::sanitize::field(&self.path.display().to_string());
        match std::fs::metadata(&self.path) {
            Err(_) => Some(format!("{name} was deleted or moved while replaying")),
            Ok(m) if (m.dev(), m.ino()) != (self.dev, self.ino) => Some(format!(
                "{name} was replaced by another file while replaying; open it again to play the new one"
            )),
            Ok(m) if m.len() < self.len => Some(format!(
                "{name} was truncated while replaying ({} bytes when opened, {} now)",
                self.len,
                m.len()
            )),
            Ok(_) => None,
        }
    }
}

/// The largest recording `replay` reads through before the screen starts, in bytes on disk
/// (a compressed one: a quarter of it). A file this size (about 1.7 h of a pair sampled every
/// second, read in well under 0.1 s) is checked whole first, so a damaged line is one error
/// before anything is shown; a larger one plays at once and is read through behind the
/// screen, its progress in the header, so a day's recording shows data as fast as an hour's.
/// A size, not a time: the same file behaves the same on a busy machine.
pub const CHECK_BEFORE_SCREEN: u64 = 16 << 20;

/// A damaged line: what is wrong, and the time of the last entry before it.
type Damage = (RecordingError, Option<Timestamp>);

/// The read-through of a recording still going on when the screen started.
struct Check {
    probe: ReadProbe,
    done: std::sync::mpsc::Receiver<Result<(), Damage>>,
    /// What the check found wrong, set by the checking thread itself, so that a damaged line
    /// found a moment before the user leaves is still said.
    damage: Arc<OnceLock<String>>,
    /// Lets the checking thread start (a send, or dropping it): only once the first frame's
    /// data is out, so the check does not take the second core from it.
    go: Option<std::sync::mpsc::Sender<()>>,
}

/// Reads a recording through: `Ok` when every line is whole; else the first bad line and the
/// time of the last sample before it (as stamped).
fn read_through(reader: RecordingReader<FileInput>) -> Result<(), Damage> {
    let mut last_good = None;
    for e in reader {
        match e {
            Ok(Entry::Sample(s)) => last_good = Some(s.t),
            Ok(Entry::Mark(_)) => {}
            Err(e) => return Err((e, last_good)),
        }
    }
    Ok(())
}

impl ReplaySource<FileInput> {
    /// Opens a recording (either form) and reads it once through, so a damaged line is
    /// reported as one clear error rather than as a half-played incident: before the
    /// screen for a file read in [`CHECK_BEFORE_SCREEN`], behind it for a longer one.
    pub fn open(path: &Path) -> Result<Self, RecordingError> {
        Self::open_checking(path, CHECK_BEFORE_SCREEN)
    }

    /// [`ReplaySource::open`] reading a file of at most `before_screen` bytes (a compressed
    /// one: a quarter) through before the screen, a larger one behind it.
    pub fn open_checking(path: &Path, before_screen: u64) -> Result<Self, RecordingError> {
        let (check, opened) = checked(path, before_screen)?;
        let mut source = ReplaySource::new(RecordingReader::open(path)?);
        source.opened = opened;
        source.check = check;
        Ok(source)
    }

    /// A replay that starts at `start` (`replay --from`), the `before` preceding it sent at
    /// once, so the first frame shows that stretch. The file is read through as
    /// [`ReplaySource::open`] reads it. Returns the start as a time too.
    pub fn open_from(
        path: &Path,
        start: super::StartAt,
        before: Duration,
    ) -> Result<(Self, Option<Timestamp>), RecordingError> {
        // The index first: the read-through's thread would take the second core from it.
        let found = super::seek::Seek::open(path, start, before)?;
        let (check, opened) = checked(path, CHECK_BEFORE_SCREEN)?;
        let (feed, at, interval_ms) = match found {
            Some((seek, at, interval_ms)) => (Feed::Seek(seek), Some(at), interval_ms),
            // No sample to start at: played as it is.
            None => {
                let reader = RecordingReader::open(path)?;
                let interval_ms = reader.header().interval_ms.unwrap_or(1000);
                (Feed::File(reader), None, interval_ms)
            }
        };
        let mut source = ReplaySource::with_feed(feed, interval_ms);
        source.unpaced_until = at;
        source.opened = opened;
        source.check = check;
        Ok((source, at))
    }
}

/// Refuses what replay cannot read twice, then reads a file of at most `before_screen` bytes
/// (a compressed one: a quarter) through here, or starts reading a larger one on a thread.
fn checked(
    path: &Path,
    before_screen: u64,
) -> Result<(Option<Check>, Option<FileId>), RecordingError> {
    // Read twice (the check, then playback): a FIFO would give each reader part of it, and
    // opening one would wait for a writer.
    let len = match std::fs::metadata(path) {
        Ok(m) if !m.is_file() && !m.is_dir() => {
            return Err(RecordingError::NotRegular {
                path: path.display().to_string(),
                what: "replay",
            })
        }
        Ok(m) => m.len(),
        Err(_) => 0,
    };
    let opened = FileId::of(path);
    let (reader, probe) = RecordingReader::open_probed(path)?;
    let limit = if reader.is_zstd() {
        before_screen / 4
    } else {
        before_screen
    };
    if len <= limit {
        read_through(reader).map_err(|(e, _)| e)?;
        return Ok((None, opened));
    }
    let (tx, done) = std::sync::mpsc::channel();
    let (go, wait) = std::sync::mpsc::channel::<()>();
    let damage = Arc::new(OnceLock::new());
    let said = damage.clone();
    let spawned = std::thread::Builder::new()
        .name("replay-check".into())
        .spawn(move || {
            let _ = wait.recv();
            let r = read_through(reader);
            if let Err((e, _)) = &r {
                let _ = said.set(crate::sanitize::field(&e.to_string()));
            }
            let _ = tx.send(r);
        });
    match spawned {
        Ok(_) => Ok((
            Some(Check {
                probe,
                done,
                damage,
                go: Some(go),
            }),
            opened,
        )),
        // No thread to spare: read it through here, before the screen.
        Err(_) => {
            read_through(RecordingReader::open(path)?).map_err(|(e, _)| e)?;
            Ok((None, opened))
        }
    }
}

/// Where a replay's entries come from: the file from its start, or the index from a place
/// in it (`replay --from`).
enum Feed<R> {
    File(RecordingReader<R>),
    Seek(super::seek::Seek),
}

impl<R: BufRead> Feed<R> {
    fn path(&self) -> &str {
        match self {
            Feed::File(r) => r.path(),
            Feed::Seek(s) => s.path(),
        }
    }

    fn truncated_tail(&self) -> bool {
        match self {
            Feed::File(r) => r.truncated_tail(),
            Feed::Seek(s) => s.truncated_tail(),
        }
    }
}

impl<R: BufRead> Iterator for Feed<R> {
    type Item = Result<Entry, RecordingError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Feed::File(r) => r.next(),
            Feed::Seek(s) => s.next(),
        }
    }
}

impl<R: BufRead> ReplaySource<R> {
    pub fn new(reader: RecordingReader<R>) -> Self {
        let interval_ms = reader.header().interval_ms.unwrap_or(1000);
        Self::with_feed(Feed::File(reader), interval_ms)
    }

    fn with_feed(feed: Feed<R>, interval_ms: u64) -> Self {
        ReplaySource {
            reader: Steady::passing_marks(feed),
            unpaced_until: None,
            pending: None,
            notes: std::collections::VecDeque::new(),
            interval: Duration::from_millis(interval_ms.max(1)),
            error: None,
            opened: None,
            last_t: None,
            said_implausible: false,
            check: None,
        }
    }

    /// Where the read-through behind the screen puts the damage it finds (its message), for
    /// the command to say once the screen is gone; `None` when the file was read through
    /// before the screen.
    pub fn damage(&self) -> Option<Arc<OnceLock<String>>> {
        self.check.as_ref().map(|c| c.damage.clone())
    }

    pub fn error(&self) -> Option<&RecordingError> {
        self.error.as_ref()
    }

    /// Why playback ended before the file's end, if it did: the file was replaced, truncated
    /// or deleted underneath the replay, or a line read badly. Playback says so on the
    /// timeline instead of ending silently.
    pub fn end_note(&self) -> Option<String> {
        let changed = self.opened.as_ref().and_then(FileId::changed);
        match (&self.error, changed) {
            (_, Some(c)) => Some(format!("replay stopped: {c}")),
            (Some(e), None) => Some(format!(
                "replay stopped: {}",
                crate::sanitize::field(&e.to_string())
            )),
            (None, None) => self
                .reader
                .get_ref()
                .truncated_tail()
                .then(|| format!("replay ended: {}", crate::sample::recording::TRUNCATED_TAIL)),
        }
    }

    fn next_entry(&mut self) -> Option<Entry> {
        if let Some(e) = self.pending.take() {
            return Some(e);
        }
        if let Some(n) = self.notes.pop_front() {
            return Some(n);
        }
        let said = self.reader.step_count();
        let next = match self.reader.next()? {
            Ok(e) => e,
            Err(e) => {
                self.error = Some(e);
                return None;
            }
        };
        if self.reader.step_count() > said {
            // Said where the step was, before the entries it moved.
            for (t, text) in self.reader.steps("replay").into_iter().skip(said) {
                self.notes.push_back(Entry::Mark(Mark { t, text }));
            }
        }
        if !self.said_implausible {
            // Samples stamped outside 2000..2100: said once, where the stream starts, as the
            // reports say it.
            if let Some((t, text)) = self.reader.implausible_at("replay") {
                self.said_implausible = true;
                self.notes.push_back(Entry::Mark(Mark { t, text }));
            }
        }
        if !self.notes.is_empty() {
            self.notes.push_back(next);
            return self.notes.pop_front();
        }
        Some(next)
    }
}

impl<R: BufRead + Send> PullSource for ReplaySource<R> {
    fn describe(&self) -> String {
        format!("replay:{}", self.reader.get_ref().path())
    }

    fn interval(&self) -> Duration {
        self.interval
    }

    /// One sampling instant: every sample stamped with the same time as the first one, plus
    /// the marks around them. Marks never make an instant of their own: a mark is placed by
    /// its time on the screen, but its position in the file decides only which instant
    /// carries it, so a mark stamped minutes away from its neighbours (an old recording
    /// whose notes took the wall clock) can never make playback wait.
    fn next_tick(&mut self) -> Option<Tick> {
        let mut tick = Tick::default();
        let mut have_sample = false;
        while let Some(e) = self.next_entry() {
            match e {
                Entry::Mark(m) => {
                    if !have_sample {
                        tick.t = m.t;
                    }
                    tick.marks.push(m);
                }
                Entry::Sample(s) => {
                    if !have_sample {
                        have_sample = true;
                        tick.t = s.t;
                    } else if s.t != tick.t {
                        self.pending = Some(Entry::Sample(s));
                        break;
                    }
                    tick.samples.push(*s);
                }
            }
        }
        (have_sample || !tick.marks.is_empty()).then_some(tick)
    }
}

/// Playback state changed by [`Control`] messages.
struct Pacer {
    control: mpsc::Receiver<Control>,
    open: bool,
    paused: bool,
    speed: f64,
}

impl Pacer {
    fn apply(&mut self, c: Option<Control>) {
        match c {
            Some(Control::Pause(p)) => self.paused = p,
            Some(Control::Speed(s)) => self.speed = s.clamp(0.01, MAX_SPEED),
            Some(_) => {}
            None => self.open = false,
        }
    }

    /// Takes what arrived meanwhile, then waits as long as playback is paused.
    async fn settle(&mut self) {
        while let Ok(c) = self.control.try_recv() {
            self.apply(Some(c));
        }
        while self.paused && self.open {
            let c = self.control.recv().await;
            self.apply(c);
        }
    }

    /// Sleeps `recorded` seconds of the recording's time at the current speed; a speed change
    /// rescales what is left, a pause stops the clock.
    async fn sleep(&mut self, recorded: f64) {
        let mut left = Duration::from_secs_f64((recorded.max(0.0) / self.speed).min(3600.0));
        while !left.is_zero() {
            let started = tokio::time::Instant::now();
            tokio::select! {
                _ = tokio::time::sleep(left) => return,
                c = self.control.recv(), if self.open => {
                    left = left.saturating_sub(started.elapsed());
                    let before = self.speed;
                    self.apply(c);
                    left = left.mul_f64(before / self.speed);
                    self.settle().await;
                }
            }
        }
    }
}

/// Plays a pull source in real time × `speed`, obeying pause and speed changes, until the
/// source ends (then sends [`SourceEvent::End`]) or the receiver goes away.
pub async fn play<R: BufRead + Send>(
    mut source: ReplaySource<R>,
    tx: mpsc::Sender<SourceEvent>,
    control: mpsc::Receiver<Control>,
    speed: f64,
) {
    let mut pacer = Pacer {
        control,
        open: true,
        paused: false,
        speed: speed.clamp(0.01, MAX_SPEED),
    };
    if let Some(check) = source.check.take() {
        tokio::spawn(watch(check, tx.clone()));
    }
    let mut last_t = None;
    // The first two instants go out at once: a rate needs two samples, so the first frame
    // has figures instead of waiting one recorded interval for them.
    let mut unpaced: u32 = 2;
    // Said once, before the first wait on the recording's pace.
    let mut caught_up = false;
    loop {
        pacer.settle().await;
        let Some(tick) = source.next_tick() else {
            if let Some(text) = source.end_note() {
                let t = source.last_t.unwrap_or_default();
                let _ = tx.send(SourceEvent::Mark(Mark { t, text })).await;
            }
            let _ = tx.send(SourceEvent::End).await;
            return;
        };
        source.last_t = Some(tick.t);
        // Only samples set the pace: an instant of marks alone (the file's tail) goes out at
        // once.
        if !tick.samples.is_empty() {
            // `replay --from`: the stretch before the start is loaded, not played.
            let loading = source.unpaced_until.is_some_and(|at| tick.t < at);
            match last_t {
                Some(prev) if unpaced == 0 && !loading => {
                    if !caught_up {
                        caught_up = true;
                        if tx.send(SourceEvent::CaughtUp).await.is_err() {
                            return;
                        }
                    }
                    pacer.sleep(tick.t.secs_since(prev)).await
                }
                _ => unpaced = unpaced.saturating_sub(1),
            }
            last_t = Some(tick.t);
        }
        for s in tick.samples {
            if tx.send(SourceEvent::Sample(Box::new(s))).await.is_err() {
                return;
            }
        }
        for m in tick.marks {
            if tx.send(SourceEvent::Mark(m)).await.is_err() {
                return;
            }
        }
    }
}

/// How often the header's "checking N %" moves.
const CHECK_EVERY: Duration = Duration::from_millis(250);

/// Says how the read-through behind the screen goes until it ends: the share read every
/// [`CHECK_EVERY`], then whether every line was whole. A damaged line is kept for the
/// command to say (and exit 2) once the screen is gone.
async fn watch(mut check: Check, tx: mpsc::Sender<SourceEvent>) {
    let _ = tx
        .send(SourceEvent::Checking(Checking::Reading(Some(0))))
        .await;
    // The first frame's data first: playback's first instants (or a `--from` stretch) are
    // read and sent meanwhile.
    tokio::time::sleep(CHECK_EVERY).await;
    if let Some(go) = check.go.take() {
        let _ = go.send(());
    }
    let mut said = None;
    loop {
        let state = match check.done.try_recv() {
            Ok(Ok(())) => Checking::Whole,
            Ok(Err((e, last_good))) => {
                let message = crate::sanitize::field(&e.to_string());
                Checking::Damaged { message, last_good }
            }
            // The check thread ended without a word (a bug): the header must not go on
            // saying "checking".
            Err(std::sync::mpsc::TryRecvError::Disconnected) => Checking::Stopped,
            Err(std::sync::mpsc::TryRecvError::Empty) => {
                let percent = check.probe.fraction().map(|f| (f * 100.0).floor() as u8);
                if said != Some(percent) {
                    said = Some(percent);
                    if tx
                        .send(SourceEvent::Checking(Checking::Reading(percent)))
                        .await
                        .is_err()
                    {
                        return;
                    }
                }
                tokio::time::sleep(CHECK_EVERY).await;
                continue;
            }
        };
        let _ = tx.send(SourceEvent::Checking(state)).await;
        return;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::recording::{Header, RecordingWriter};
    use crate::sample::{Mark, Sample, Slot};
    use crate::timestamp::Timestamp;
    use std::io::Cursor;

    /// The tests' epoch: 2025-11-30 (times near 1970 would be said as a clock set wrong).
    const T0: i64 = 1_764_478_800_000;

    fn at(ms: i64) -> Timestamp {
        Timestamp::from_millis(T0 + ms)
    }

    fn recording(n: i64) -> Vec<u8> {
        let mut w = RecordingWriter::new(Vec::new(), &Header::new(at(0), 1000, "t")).unwrap();
        for i in 0..n {
            let t = at(i * 1000);
            w.write_sample(&Sample::new(t, Slot::primary())).unwrap();
            w.write_sample(&Sample::new(t, Slot::standby())).unwrap();
            if i == 1 {
                w.write_mark(&Mark {
                    t,
                    text: "switch".into(),
                })
                .unwrap();
            }
        }
        w.into_inner()
    }

    fn source(n: i64) -> ReplaySource<Cursor<Vec<u8>>> {
        ReplaySource::new(RecordingReader::new("mem".into(), Cursor::new(recording(n))).unwrap())
    }

    /// Issue 28.4: the sampling host's clock stepped back two minutes after 4 s. Replay
    /// plays every sample, in order, the stretch after the step following on, and says so on
    /// the timeline where the step was (the screen's engine skipped them as out of order).
    #[test]
    fn a_step_back_of_the_clock_is_played_on_and_said() {
        let mut w = RecordingWriter::new(Vec::new(), &Header::new(at(0), 1000, "t")).unwrap();
        for i in 0..8i64 {
            let t = at(if i < 5 { i * 1000 } else { i * 1000 - 120_000 });
            w.write_sample(&Sample::new(t, Slot::primary())).unwrap();
            w.write_sample(&Sample::new(t, Slot::standby())).unwrap();
        }
        let bytes = w.into_inner();
        let mut s =
            ReplaySource::new(RecordingReader::new("mem".into(), Cursor::new(bytes)).unwrap());
        let mut times = Vec::new();
        let mut notes = Vec::new();
        while let Some(tick) = s.next_tick() {
            assert_eq!(tick.samples.len(), 2, "both slots at every instant");
            times.push(tick.t.ms - T0);
            notes.extend(tick.marks.into_iter().map(|m| (m.t.ms - T0, m.text)));
        }
        assert_eq!(times, [0, 1000, 2000, 3000, 4000, 5000, 6000, 7000]);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert_eq!(notes[0].0, 4000);
        assert!(
            notes[0]
                .1
                .starts_with("the source's clock stepped back 2m00s after"),
            "{notes:?}"
        );
    }

    /// A recording stamped in year 9999 plays as it is, with one note saying so.
    #[test]
    fn a_clock_in_another_century_is_said_once() {
        let mut w = RecordingWriter::new(
            Vec::new(),
            &Header::new(Timestamp::from_millis(253_402_214_400_000), 1000, "t"),
        )
        .unwrap();
        for i in 0..3i64 {
            let t = Timestamp::from_millis(253_402_214_400_000 + i * 1000);
            w.write_sample(&Sample::new(t, Slot::primary())).unwrap();
        }
        let mut s = ReplaySource::new(
            RecordingReader::new("mem".into(), Cursor::new(w.into_inner())).unwrap(),
        );
        let (mut samples, mut notes) = (0, Vec::new());
        while let Some(tick) = s.next_tick() {
            samples += tick.samples.len();
            notes.extend(tick.marks.into_iter().map(|m| m.text));
        }
        assert_eq!(samples, 3);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("outside 2000..2100"), "{notes:?}");
        assert!(
            notes[0].contains("replay takes the times as they are"),
            "{notes:?}"
        );
    }

    #[test]
    fn a_cut_last_line_ends_playback_with_a_note_saying_so() {
        let whole = recording(3);
        // 10 bytes short: inside the last line.
        let cut = whole[..whole.len() - 10].to_vec();
        let mut s =
            ReplaySource::new(RecordingReader::new("mem".into(), Cursor::new(cut)).unwrap());
        while s.next_tick().is_some() {}
        let note = s.end_note().expect("a note for the cut");
        assert!(
            note.contains(crate::sample::recording::TRUNCATED_TAIL),
            "{note}"
        );
        let mut s = source(3);
        while s.next_tick().is_some() {}
        assert_eq!(s.end_note(), None);
    }

    #[test]
    fn ticks_group_one_instant_with_its_marks() {
        let mut s = source(3);
        let a = s.next_tick().unwrap();
        assert_eq!((a.samples.len(), a.marks.len()), (2, 0));
        let b = s.next_tick().unwrap();
        assert_eq!((b.samples.len(), b.marks.len()), (2, 1));
        assert_eq!(b.t, at(1000));
        assert!(s.next_tick().is_some());
        assert!(s.next_tick().is_none());
        assert_eq!(s.interval(), Duration::from_secs(1));
    }

    #[tokio::test(start_paused = true)]
    async fn play_obeys_pause_then_sends_everything_and_end() {
        let (tx, mut rx) = mpsc::channel(64);
        let (ctl, crx) = mpsc::channel(4);
        ctl.send(Control::Pause(true)).await.unwrap();
        ctl.send(Control::Speed(4.0)).await.unwrap();
        let task = tokio::spawn(play(source(5), tx, crx, 1.0));
        // Paused: nothing arrives however long we wait (virtual time).
        let r = tokio::time::timeout(Duration::from_secs(600), rx.recv()).await;
        assert!(r.is_err(), "a paused replay sent {r:?}");
        ctl.send(Control::Pause(false)).await.unwrap();
        let start = tokio::time::Instant::now();
        let (mut samples, mut marks, mut ended) = (0, 0, false);
        while let Some(ev) = rx.recv().await {
            match ev {
                SourceEvent::Sample(_) => samples += 1,
                SourceEvent::Mark(_) => marks += 1,
                SourceEvent::End => ended = true,
                SourceEvent::Status { .. } | SourceEvent::Checking(_) | SourceEvent::CaughtUp => {}
            }
        }
        task.await.unwrap();
        assert_eq!((samples, marks, ended), (10, 1, true));
        // Four recorded seconds at speed 4, the first two instants at once: three seconds at
        // ×4 of (virtual) playback.
        let took = start.elapsed();
        assert!(
            took >= Duration::from_millis(749) && took <= Duration::from_millis(800),
            "{took:?}"
        );
    }

    /// Notes stamped 14 minutes before and after the samples around them (the wall clock of
    /// an old demo at ×8) travel with their neighbours: playback keeps the samples' pace.
    #[tokio::test(start_paused = true)]
    async fn a_mark_far_off_the_samples_time_never_stalls_playback() {
        let mut w = RecordingWriter::new(Vec::new(), &Header::new(at(0), 1000, "t")).unwrap();
        for i in 0..4i64 {
            let t = at(i * 1000);
            w.write_sample(&Sample::new(t, Slot::primary())).unwrap();
            if i == 1 {
                w.write_mark(&Mark {
                    t: t.add_millis(-840_000),
                    text: "early".into(),
                })
                .unwrap();
            }
            if i == 2 {
                w.write_mark(&Mark {
                    t: t.add_millis(840_000),
                    text: "late".into(),
                })
                .unwrap();
            }
        }
        let src = ReplaySource::new(
            RecordingReader::new("mem".into(), Cursor::new(w.into_inner())).unwrap(),
        );
        let (tx, mut rx) = mpsc::channel(64);
        let (_ctl, crx) = mpsc::channel(4);
        let start = tokio::time::Instant::now();
        tokio::spawn(play(src, tx, crx, 1.0));
        let mut marks = vec![];
        while let Some(ev) = rx.recv().await {
            if let SourceEvent::Mark(m) = ev {
                marks.push(m.text);
            }
        }
        assert_eq!(marks, ["early", "late"]);
        // Three recorded seconds between the first and the last sample, at ×1.
        let took = start.elapsed();
        assert!(took <= Duration::from_millis(3100), "{took:?}");
    }

    #[tokio::test(start_paused = true)]
    async fn a_speed_change_rescales_the_rest_of_the_wait() {
        let (tx, mut rx) = mpsc::channel(64);
        let (ctl, crx) = mpsc::channel(4);
        let start = tokio::time::Instant::now();
        tokio::spawn(play(source(3), tx, crx, 1.0));
        // The first two instants (two samples each, and a mark) at once, then word that
        // what was ready is out.
        for _ in 0..5 {
            assert!(matches!(
                rx.recv().await,
                Some(SourceEvent::Sample(_) | SourceEvent::Mark(_))
            ));
        }
        assert!(matches!(rx.recv().await, Some(SourceEvent::CaughtUp)));
        assert_eq!(start.elapsed(), Duration::ZERO);
        // Half of the one recorded second passes at ×1, the other half at ×2.
        tokio::time::sleep(Duration::from_millis(500)).await;
        ctl.send(Control::Speed(2.0)).await.unwrap();
        assert!(matches!(rx.recv().await, Some(SourceEvent::Sample(_))));
        let took = start.elapsed();
        assert!(
            took >= Duration::from_millis(749) && took <= Duration::from_millis(760),
            "{took:?}"
        );
    }

    /// Issue 29: a long recording plays at once and is read through behind the screen.
    /// Whole, the header's "checking" ends; a damaged line is said with the time of the last
    /// entry before it, and kept for the command to say on leaving (exit 2).
    #[tokio::test(start_paused = true)]
    async fn a_recording_read_through_behind_the_screen_says_how_it_went() {
        async fn checking_of(src: ReplaySource<FileInput>) -> (usize, Vec<Checking>) {
            let (tx, mut rx) = mpsc::channel(64);
            let (_ctl, crx) = mpsc::channel(4);
            tokio::spawn(play(src, tx, crx, 64.0));
            let (mut samples, mut states) = (0, vec![]);
            while let Some(ev) = rx.recv().await {
                match ev {
                    SourceEvent::Sample(_) => samples += 1,
                    SourceEvent::Checking(c) => states.push(c),
                    _ => {}
                }
            }
            (samples, states)
        }
        let dir = tempfile::tempdir().unwrap();
        let whole = dir.path().join("whole.jsonl");
        std::fs::write(&whole, recording(4)).unwrap();
        let src = ReplaySource::open_checking(&whole, 0).unwrap();
        let damage = src.damage().expect("checked behind the screen");
        let (samples, states) = checking_of(src).await;
        assert_eq!(samples, 8);
        assert_eq!(states.last(), Some(&Checking::Whole), "{states:?}");
        assert!(
            states[..states.len() - 1]
                .iter()
                .all(|c| matches!(c, Checking::Reading(Some(0..=100)))),
            "{states:?}"
        );
        assert_eq!(damage.get(), None);

        // The fifth line (after the header: the second instant's standby sample) damaged.
        let text = String::from_utf8(recording(4)).unwrap();
        let mut lines: Vec<&str> = text.lines().collect();
        lines[4] = "{\"t\": not json";
        let damaged = dir.path().join("damaged.jsonl");
        std::fs::write(&damaged, lines.join("\n") + "\n").unwrap();
        // Before the screen (a small file): one error, as before.
        let before = ReplaySource::open_checking(&damaged, CHECK_BEFORE_SCREEN);
        let e = before
            .err()
            .expect("a damaged line before the screen")
            .to_string();
        assert!(e.contains("damaged.jsonl") && e.contains(":5"), "{e}");
        // Behind it: playback stops before the line, the check says where.
        let src = ReplaySource::open_checking(&damaged, 0).unwrap();
        let damage = src.damage().unwrap();
        let (samples, states) = checking_of(src).await;
        assert_eq!(samples, 3, "the samples before the damaged line");
        match states.last() {
            Some(Checking::Damaged { message, last_good }) => {
                assert_eq!(message, &e);
                assert_eq!(*last_good, Some(at(1000)));
            }
            other => panic!("{other:?} in {states:?}"),
        }
        assert_eq!(damage.get(), Some(&e));
    }

    /// `replay --from`: the index finds the start (two seconds before the end of ten), the
    /// second before it is sent at once, and playback keeps the recording's pace from there.
    #[tokio::test(start_paused = true)]
    async fn a_replay_from_near_the_end_loads_the_stretch_before_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        std::fs::write(&path, recording(10)).unwrap();
        let (src, at) = ReplaySource::open_from(
            &path,
            crate::source::StartAt::BeforeEnd(Duration::from_secs(2)),
            Duration::from_secs(1),
        )
        .unwrap();
        assert_eq!(at, Some(self::tests::at(7000)));
        let (tx, mut rx) = mpsc::channel(64);
        let (_ctl, crx) = mpsc::channel(4);
        let start = tokio::time::Instant::now();
        tokio::spawn(play(src, tx, crx, 1.0));
        let mut arrived = Vec::new();
        while let Some(ev) = rx.recv().await {
            if let SourceEvent::Sample(s) = ev {
                arrived.push((s.t.ms - T0, start.elapsed().as_millis()));
            }
        }
        let times: Vec<i64> = arrived.iter().map(|a| a.0).step_by(2).collect();
        assert_eq!(times, [6000, 7000, 8000, 9000], "{arrived:?}");
        // 6 s and 7 s at once; then a recorded second each.
        let waits: Vec<u128> = arrived.iter().map(|a| a.1).step_by(2).collect();
        assert_eq!(waits, [0, 0, 1000, 2000], "{arrived:?}");
    }

    async fn marks_of_playing(src: ReplaySource<FileInput>) -> Vec<String> {
        let (tx, mut rx) = mpsc::channel(64);
        let (_ctl, crx) = mpsc::channel(4);
        tokio::spawn(play(src, tx, crx, 64.0));
        let mut marks = vec![];
        while let Some(ev) = rx.recv().await {
            if let SourceEvent::Mark(m) = ev {
                marks.push(m.text);
            }
        }
        marks
    }

    /// A file replaced, truncated or deleted while it plays: the replay says so on the
    /// timeline rather than ending as if the recording were over.
    #[tokio::test(start_paused = true)]
    async fn replay_says_when_its_file_changed_underneath_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        let other = dir.path().join("new.jsonl");
        std::fs::write(&path, recording(3)).unwrap();
        let untouched = ReplaySource::open(&path).unwrap();
        assert_eq!(marks_of_playing(untouched).await, ["switch"]);

        let replaced = ReplaySource::open(&path).unwrap();
        std::fs::write(&other, recording(5)).unwrap();
        std::fs::rename(&other, &path).unwrap();
        let marks = marks_of_playing(replaced).await;
        assert_eq!(marks.len(), 2, "{marks:?}");
        assert!(
            marks[1].starts_with("replay stopped: ")
                && marks[1].contains("r.jsonl was replaced by another file while replaying"),
            "{marks:?}"
        );

        let truncated = ReplaySource::open(&path).unwrap();
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(60)
            .unwrap();
        let marks = marks_of_playing(truncated).await;
        assert!(
            marks
                .last()
                .unwrap()
                .contains("was truncated while replaying"),
            "{marks:?}"
        );

        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, recording(3)).unwrap();
        let deleted = ReplaySource::open(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let marks = marks_of_playing(deleted).await;
        assert!(
            marks
                .last()
                .unwrap()
                .contains("was deleted or moved while replaying"),
            "{marks:?}"
        );
    }
}
