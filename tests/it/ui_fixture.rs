//! The replay fixture `tests/fixtures/synthetic_slow_srl.jsonl` is generated from the
//! synthetic pair (seed 7, 180 s): this test proves the committed file is exactly what the
//! generator produces. Regenerate with
//! `DGSCOPE_REGEN_FIXTURES=1 cargo test --test it ui_fixture::`.

use crate::common;

use common::synthetic::{self, T0_MS};
use dgscope::sample::recording::{read_all, Entry, Header, RecordingWriter};
use dgscope::sample::Mark;
use dgscope::timestamp::Timestamp;
use std::path::Path;

pub const FIXTURE: &str = "tests/fixtures/synthetic_slow_srl.jsonl";

fn generate() -> Vec<u8> {
    let mut header = Header::new(
        Timestamp::from_millis(T0_MS),
        1000,
        // The generator's path when the fixture was made (now tests/it/common/), kept: the
        // committed file is compared byte for byte.
        "synthetic:slow-srl seed=7 (tests/common/synthetic.rs)",
    );
    // The fixture stays a version 1 file (whole lines): the replay tests read that form.
    header.version = 1;
    let mut w = RecordingWriter::new(Vec::new(), &header).unwrap();
    for (i, s) in synthetic::samples(7, 180).iter().enumerate() {
        w.write_sample(s).unwrap();
        // A note where the incident starts, as an on-call DBA would leave one.
        if i == 2 * 60 + 1 {
            w.write_mark(&Mark {
                t: s.t,
                text: "SRL moved to the slow disk (2 members)".into(),
            })
            .unwrap();
        }
    }
    w.into_inner()
}

#[test]
fn committed_fixture_matches_the_generator() {
    let bytes = generate();
    if std::env::var_os("DGSCOPE_REGEN_FIXTURES").is_some() {
        std::fs::write(FIXTURE, &bytes).unwrap();
    }
    let committed =
        std::fs::read(FIXTURE).expect("fixture present (regenerate: see the doc comment)");
    assert!(
        committed == bytes,
        "{FIXTURE} differs from the generator; regenerate it"
    );
    let (h, entries) = read_all(Path::new(FIXTURE)).unwrap();
    assert_eq!(h.interval_ms, Some(1000));
    let samples = entries
        .iter()
        .filter(|e| matches!(e, Entry::Sample(_)))
        .count();
    assert_eq!(samples, 360);
    assert_eq!(entries.len(), 361);
}
