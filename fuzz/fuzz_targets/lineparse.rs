//! The hand line parser against serde on arbitrary bytes. Both may refuse a line; when the
//! hand parser accepts one, serde accepts it with the same value, and `parse` (the hand
//! parser, serde where it stops) always gives serde's value or serde's message. The same
//! bytes as a change line merge into a sample without a panic; a merge that succeeds
//! succeeds again without a change (RFC 7396 is idempotent), and what it leaves writes a line
//! the hand parser reads as serde does.
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
        // RFC 7396 is idempotent: the same patch again changes nothing.
        let once = s.clone();
        merge_into(data, &mut s).expect("a patch that applied once applies again");
        assert_eq!(s, once, "merging twice differs from once");
        // What the merge leaves writes a line both parsers read alike. (Not always as
        // itself: serde_json does not round-trip every float, e.g. 1.39e41.)
        let line = serde_json::to_string(&s).expect("a merged sample serialises");
        let ours = parse(line.as_bytes()).map_err(|e| e.to_string());
        let theirs = serde_json::from_str::<Sample>(&line).map_err(|e| e.to_string());
        assert_eq!(ours, theirs, "{line}");
    }
});
