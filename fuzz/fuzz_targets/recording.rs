//! The recording reader on arbitrary bytes: a header line, then samples and marks. Every
//! entry is read (errors included) and fed to the pipeline driver, as `check --replay` does.
//! The first byte picks the form: the bytes as a plain file, the bytes as a zstd stream
//! (hostile frames), or the bytes compressed and then cut at a fuzzed point (a writer
//! killed mid-frame), or the bytes after a version 2 header and a whole sample of each slot,
//! so the changes lines that follow have a base to change.
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

/// A version 2 file's start: the header and a whole line of each slot.
const V2_START: &str = concat!(
    "{\"format\":\"dgscope-recording\",\"version\":2}\n",
    "{\"t\":\"2026-11-30T05:00:01.000Z\",\"slot\":\"primary\",\"db\":{\"role\":\"PRIMARY\",\"startup\":\"2026-11-30T05:00:00.000Z\"},",
    "\"events\":{\"log file sync\":{\"waits\":10,\"us\":5000,\"hist\":[[1024,7],[2048,3]]}},",
    "\"stats\":{\"user commits\":10},\"dests\":[{\"id\":2,\"status\":\"VALID\",\"mode\":\"SYNC\",\"resp_hist\":[[1,10]]}]}\n",
    "{\"t\":\"2026-11-30T05:00:01.000Z\",\"slot\":\"standby\",\"db\":{\"role\":\"PHYSICAL STANDBY\"},",
    "\"processes\":[{\"name\":\"MRP0\",\"action\":\"APPLYING_LOG\"}],\"dg\":{\"apply_lag_s\":0.0}}\n",
    "{\"t\":\"2026-11-30T05:00:02.000Z\",\"slot\":\"primary\",\"changes\":true,\"stats\":{\"user commits\":20},\"dests\":{\"0\":{\"resp_hist\":[[1,20]]}}}\n",
);

fn zstd_of(bytes: &[u8]) -> ZstdReader<Cursor<Vec<u8>>> {
    ZstdReader::new(Cursor::new(bytes.to_vec()), 0).expect("a zstd decoder")
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    match mode % 4 {
        0 => read_all(Cursor::new(rest)),
        3 => {
            let mut bytes = V2_START.as_bytes().to_vec();
            bytes.extend_from_slice(rest);
            read_all(Cursor::new(bytes));
        }
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
