//! The one recorder: source events → a recording file. `dgscope record` (twin and live) and
//! the screen's `r` key all write through it, so what a recording holds, and how a write
//! failure ends it, is decided once.

use dgscope_model::sample::recording::{Header, RecordingWriter};
use dgscope_model::source::SourceEvent;
use std::io::{self, Write};

/// Writes samples and marks to a recording and counts them. Status events (connection
/// states) are not data and are not written.
pub struct Recorder {
    w: RecordingWriter<Box<dyn Write + Send>>,
    samples: u64,
    failed: u64,
}

impl Recorder {
    /// Starts a recording on `out` with `header`; `zstd` compresses it.
    pub fn new(out: Box<dyn Write + Send>, header: &Header, zstd: bool) -> io::Result<Self> {
        Ok(Recorder {
            w: RecordingWriter::with_form(out, header, zstd)?,
            samples: 0,
            failed: 0,
        })
    }

    /// Records what `ev` holds that belongs in a recording.
    pub fn on_event(&mut self, ev: &SourceEvent) -> io::Result<()> {
        match ev {
            SourceEvent::Sample(s) => self.write_sample(s),
            SourceEvent::Mark(m) => self.w.write_mark(m),
            SourceEvent::Status { .. }
            | SourceEvent::End
            | SourceEvent::Checking(_)
            | SourceEvent::CaughtUp => Ok(()),
        }
    }

    pub fn write_sample(&mut self, s: &dgscope_model::sample::Sample) -> io::Result<()> {
        self.w.write_sample(s)?;
        self.samples += 1;
        if s.is_error() {
            self.failed += 1;
        }
        Ok(())
    }

    pub fn write_mark(&mut self, m: &dgscope_model::sample::Mark) -> io::Result<()> {
        self.w.write_mark(m)
    }

    /// Samples written, and how many of them were failed samples.
    pub fn counts(&self) -> (u64, u64) {
        (self.samples, self.failed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dgscope_model::sample::{Mark, SampleErrorKind, Slot};
    use dgscope_model::source::ConnState;
    use dgscope_model::timestamp::Timestamp;
    use std::sync::{Arc, Mutex};

    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);

    impl Write for Buf {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn writes_samples_and_marks_counts_failures_and_skips_status() {
        let buf = Buf::default();
        let t = Timestamp::from_millis(1_764_478_800_000);
        let header = Header::new(t, 1000, "test");
        let mut r = Recorder::new(Box::new(buf.clone()), &header, false).unwrap();
        let good = dgscope_model::sample::Sample::new(t, Slot::primary());
        let bad = dgscope_model::sample::Sample::failed(
            t,
            Slot::standby(),
            SampleErrorKind::ConnectionLost,
            "ORA-03113".into(),
        );
        r.on_event(&SourceEvent::Sample(Box::new(good))).unwrap();
        r.on_event(&SourceEvent::Sample(Box::new(bad))).unwrap();
        r.on_event(&SourceEvent::Mark(Mark {
            t,
            text: "baseline".into(),
        }))
        .unwrap();
        r.on_event(&SourceEvent::Status {
            slot: Slot::primary(),
            state: ConnState::Connected,
        })
        .unwrap();
        assert_eq!(r.counts(), (2, 1));
        drop(r);
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "header, two samples, one mark: {text}");
        assert!(lines[3].contains("baseline"));
        assert!(!text.contains("Connected"), "status events are not data");
    }
}
