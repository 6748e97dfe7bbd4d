//! Recordings the tests write from a source and read back from memory, as the product's
//! writer and reader do.

use dgscope::sample::recording::{RecordingReader, RecordingWriter};
use dgscope::sample::zst::ZstdReader;
use dgscope::source::Tick;
use std::io::{BufRead, BufReader, Cursor, Write};

/// One instant of a source as the tests' recordings hold it: its samples, then its marks.
pub fn write_tick<W: Write>(w: &mut RecordingWriter<W>, tick: &Tick) {
    for s in &tick.samples {
        w.write_sample(s).unwrap();
    }
    for m in &tick.marks {
        w.write_mark(m).unwrap();
    }
}

/// A reader of a recording held in memory, plain or zstd (told by its magic bytes).
pub fn recording_reader(bytes: &[u8]) -> RecordingReader<Box<dyn BufRead + Send>> {
    let input: Box<dyn BufRead + Send> = if bytes.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Box::new(BufReader::new(
            ZstdReader::new(Cursor::new(bytes.to_vec()), 0).unwrap(),
        ))
    } else {
        Box::new(Cursor::new(bytes.to_vec()))
    };
    RecordingReader::new("rec.jsonl".into(), input).unwrap()
}
