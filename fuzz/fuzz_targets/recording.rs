//! The recording reader on arbitrary bytes: a header line, then samples and marks. Every
//! entry is read (errors included) and fed to the pipeline driver, as `check --replay` does.
#![no_main]

use dgscope::pipeline::{Driver, DriverConfig};
use dgscope::sample::recording::RecordingReader;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(reader) = RecordingReader::new("fuzz.jsonl".into(), std::io::Cursor::new(data)) else {
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
});
