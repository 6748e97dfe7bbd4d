//! The recording reader on arbitrary bytes: a header line, then samples and marks. Every
//! entry is read (errors included) and fed to the pipeline driver, as `check --replay` does.
//! The first byte picks the form: the bytes as a plain file, the bytes as a zstd stream
//! (hostile frames), or the bytes compressed and then cut at a fuzzed point (a writer
//! killed mid-frame).
#![no_main]

use dgscope::pipeline::{Driver, DriverConfig};
use dgscope::sample::recording::RecordingReader;
use dgscope::sample::zst::ZstdReader;
use libfuzzer_sys::fuzz_target;
use std::io::{BufRead, BufReader, Cursor};

fn read_all<R: BufRead>(input: R) {
    let Ok(reader) = RecordingReader::new("fuzz.jsonl".into(), input) else {
        return;
    };
    let mut driver = Driver::new(DriverConfig::last_minute(Default::default()));
    for entry in reader.take(10_000) {
        match entry {
            Ok(e) => {
                driver.push(e);
            }
            Err(e) => {
                // An error is one line naming the file.
                let msg = e.to_string();
                assert!(msg.contains("fuzz.jsonl"), "{msg}");
                assert!(!msg.contains('\n'), "{msg}");
                break;
            }
        }
    }
    driver.finish();
}

fn zstd_of(bytes: &[u8]) -> ZstdReader<Cursor<Vec<u8>>> {
    ZstdReader::new(Cursor::new(bytes.to_vec()), 0).expect("a zstd decoder")
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    match mode % 3 {
        0 => read_all(Cursor::new(rest)),
        1 => read_all(BufReader::new(zstd_of(rest))),
        _ => {
            let Ok(packed) = zstd::bulk::compress(rest, 1) else {
                return;
            };
            let cut = (usize::from(mode) * 31) % (packed.len() + 1);
            read_all(BufReader::new(zstd_of(&packed[..cut.max(packed.len() / 2)])));
        }
    }
});
