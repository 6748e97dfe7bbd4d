//! The hand line parser against serde on arbitrary bytes. Both may refuse a line; when the
//! hand parser accepts one, serde accepts it with the same value, and `parse` (the hand
//! parser, serde where it stops) always gives serde's value or serde's message. The same
//! bytes as a change line merge into a sample without a panic, and a merge that succeeds
//! leaves a sample that writes and reads back as itself.
#![no_main]

use dgscope::sample::lineparse::{hand_only, merge_into, parse};
use dgscope::sample::{Sample, Slot};
use dgscope::timestamp::Timestamp;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let serde = serde_json::from_slice::<Sample>(data);
    if let Some(hand) = hand_only(data) {
        match &serde {
            Ok(s) => assert_eq!(&hand, s, "the hand parser differs from serde"),
            Err(e) => panic!("the hand parser accepted what serde refuses: {e}"),
        }
    }
    match (parse(data), &serde) {
        (Ok(a), Ok(b)) => assert_eq!(&a, b),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        (a, b) => panic!("parse {:?} but serde {:?}", a.is_ok(), b.is_ok()),
    }
    let mut s = serde.unwrap_or_else(|_| Sample::new(Timestamp::from_millis(0), Slot::primary()));
    if merge_into(data, &mut s).is_ok() {
        let line = serde_json::to_string(&s).expect("a merged sample serialises");
        // A sample holds no float JSON cannot write (NaN), so it reads back as itself.
        if let Ok(back) = parse(line.as_bytes()) {
            assert_eq!(back, s, "{line}");
        }
    }
});
