//! The tests of the recording formats (`dgscope-model`'s `sample`) that drive them with the
//! twin, a layer above that crate; they reach the internals they need through
//! `sample::test_support`. Here rather than among the binary crate's unit tests, whose run
//! came after this binary's on its own: their simulated minutes now share its cores.

mod ahead {
    use crate::common::recordings::{recording_reader as reader, write_tick};
    use crate::common::twin_runs;
    use dgscope::sample::ahead::ParseHere;
    use dgscope::sample::recording::{Entry, Header, RecordingError, RecordingWriter};
    use dgscope::sample::test_support::{ahead_with, BEHIND, LINES};
    use dgscope::source::twin::{Scenario, EPOCH};
    use dgscope::source::PullSource;

    fn twin_recording(secs: usize, zstd: bool) -> Vec<u8> {
        twin_recording_v(secs, zstd, dgscope::sample::recording::VERSION)
    }

    fn twin_recording_v(secs: usize, zstd: bool, version: u32) -> Vec<u8> {
        // Seed 3's run (common::twin_runs), simulated once.
        let mut twin = twin_runs::twin(Scenario::TwoStandbys, 3, secs);
        let mut header = Header::new(EPOCH, 1000, "twin");
        header.version = version;
        let mut w = RecordingWriter::with_form(Vec::new(), &header, zstd).unwrap();
        for _ in 0..secs {
            let tick = twin.next_tick().unwrap();
            write_tick(&mut w, &tick);
        }
        w.finish().unwrap()
    }

    type Drained = (Vec<Result<Entry, String>>, Vec<Vec<u8>>);

    /// Entries (errors as text) and their lines, until the end or the first error.
    fn drain(
        mut next: impl FnMut(&mut Vec<u8>) -> Result<Option<Entry>, RecordingError>,
    ) -> Drained {
        let (mut out, mut lines, mut line) = (Vec::new(), Vec::new(), Vec::new());
        loop {
            match next(&mut line) {
                Ok(Some(e)) => {
                    out.push(Ok(e));
                    lines.push(line.clone());
                }
                Ok(None) => break,
                Err(e) => {
                    out.push(Err(e.to_string()));
                    break;
                }
            }
        }
        (out, lines)
    }

    /// Entries (errors as text), lines and the truncated-tail flag, one thread.
    fn direct(bytes: &[u8]) -> (Vec<Result<Entry, String>>, Vec<Vec<u8>>, bool) {
        let mut r = reader(bytes);
        let (out, lines) = drain(|l| r.next_with_line(l));
        (out, lines, r.truncated_tail())
    }

    fn ahead(
        bytes: &[u8],
        behind: usize,
        here: ParseHere,
    ) -> (Vec<Result<Entry, String>>, Vec<Vec<u8>>, bool) {
        let mut r = ahead_with(reader(bytes), behind, here);
        assert_eq!(r.path(), "rec.jsonl");
        let (out, lines) = drain(|l| r.next_with_line(l));
        assert!(r.next().is_none(), "the end stays the end");
        (out, lines, r.truncated_tail())
    }

    #[test]
    fn a_recording_read_ahead_gives_what_the_reader_gives_parsed_on_either_thread() {
        for (zstd, version) in [(false, 2), (true, 2), (false, 1), (true, 1)] {
            let bytes = twin_recording_v(400, zstd, version);
            assert_eq!(reader(&bytes).header().version, version);
            let want = direct(&bytes);
            assert!(want.0.len() > 3 * LINES && want.0.iter().all(Result::is_ok));
            // 0: every batch parsed on the reading thread; MAX: every batch here; 2: adaptive
            // (version 1); the primary's lines there or here (version 2).
            for behind in [0, usize::MAX, BEHIND] {
                for here in [ParseHere::Primary, ParseHere::Nothing, ParseHere::All] {
                    assert_eq!(
                        ahead(&bytes, behind, here),
                        want,
                        "zstd {zstd}, version {version}, behind {behind}, parsed there {here:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn errors_and_a_truncated_tail_come_where_the_reader_has_them() {
        let text = String::from_utf8(twin_recording(200, false)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        // A bad line in the middle of the third batch; a blank line before it.
        let mut bad = lines.clone();
        bad[2 * LINES + 7] = r#"{"t":"2026-11-30T05:00:00.000Z"}"#;
        bad.insert(5, "   ");
        let bad = bad.join("\n") + "\n";
        // The writer killed mid-line.
        let cut = &text[..text.len() - 40];
        for bytes in [bad.as_bytes(), cut.as_bytes()] {
            let want = direct(bytes);
            assert!(want.0.last().unwrap().is_err() || want.2);
            for behind in [0, usize::MAX, BEHIND] {
                for here in [ParseHere::Primary, ParseHere::Nothing, ParseHere::All] {
                    assert_eq!(ahead(bytes, behind, here), want, "behind {behind}");
                }
            }
        }
        assert!(
            direct(cut.as_bytes()).2,
            "the cut recording has a truncated tail"
        );
        let err = direct(bad.as_bytes()).0.pop().unwrap().unwrap_err();
        assert!(
            err.contains(&format!("rec.jsonl:{}:", 2 * LINES + 9)),
            "{err}"
        );
    }

    #[test]
    fn dropping_a_read_ahead_early_stops_its_thread() {
        let bytes = twin_recording(400, false);
        let mut r = ahead_with(reader(&bytes), BEHIND, ParseHere::Primary);
        assert!(r.next().unwrap().is_ok());
        drop(r);
    }
}

mod changes {
    use crate::common::twin_runs;
    use dgscope::sample::changes::{is_changes_line, prefix_slot};
    use dgscope::sample::index::RecordingIndex;
    use dgscope::sample::recording::{Entry, Header, RecordingReader, RecordingWriter};
    use dgscope::sample::test_support::{apply, apply_by_value, parse_entry};
    use dgscope::sample::{slow, Sample, Slot};
    use dgscope::source::twin::{Scenario, EPOCH};
    use dgscope::source::PullSource;
    use std::collections::BTreeMap;

    /// The first `secs` seconds of `scenario`, seed 3: the shared run (common::twin_runs,
    /// held by its builder to the twin's own) where one is kept that long, else the twin.
    fn twin_entries(scenario: Scenario, secs: usize) -> Vec<Entry> {
        let mut twin = twin_runs::twin(scenario, 3, secs);
        let mut out = Vec::new();
        for _ in 0..secs {
            let tick = twin.next_tick().unwrap();
            out.extend(tick.samples.into_iter().map(|s| Entry::Sample(Box::new(s))));
            out.extend(tick.marks.into_iter().map(Entry::Mark));
        }
        out
    }

    fn write(entries: &[Entry], zstd: bool, version: u32) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        let mut header = Header::new(EPOCH, 1000, "test");
        header.version = version;
        {
            let mut w = RecordingWriter::with_form(f.as_file_mut(), &header, zstd).unwrap();
            for e in entries {
                w.write_entry(e).unwrap();
            }
            w.finish().unwrap();
        }
        f
    }

    fn read(path: &std::path::Path) -> Vec<Entry> {
        RecordingReader::open(path)
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }

    #[test]
    fn every_scenario_reads_back_what_was_written_in_either_form() {
        // 11 minutes cross a segment start (10 min), where lines are whole again. Two
        // threads, each half of the scenarios (the machine has two cores, and the other
        // tests of this binary run beside it).
        std::thread::scope(|threads| {
            for half in [0, 1] {
                threads.spawn(move || {
                    for scenario in Scenario::ALL.into_iter().skip(half).step_by(2) {
                        let entries = twin_entries(scenario, 11 * 60);
                        for zstd in [false, true] {
                            let f = write(&entries, zstd, 2);
                            let back = read(f.path());
                            assert_eq!(back.len(), entries.len(), "{scenario:?} zstd {zstd}");
                            for (i, (a, b)) in back.iter().zip(&entries).enumerate() {
                                assert_eq!(a, b, "{scenario:?} zstd {zstd}: entry {i}");
                            }
                        }
                    }
                });
            }
        });
    }

    #[test]
    fn changes_lines_are_most_lines_and_a_fraction_of_whole_ones() {
        let entries = twin_entries(Scenario::HealthySync, 15 * 60);
        let v1 = std::fs::read(write(&entries, false, 1).path()).unwrap();
        let v2 = std::fs::read(write(&entries, false, 2).path()).unwrap();
        let text = String::from_utf8(v2.clone()).unwrap();
        let lines: Vec<&str> = text.lines().skip(1).collect();
        let changes = lines
            .iter()
            .filter(|l| is_changes_line(l.as_bytes()))
            .count();
        // Whole: each slot's first line, then its first of the second segment.
        assert_eq!(lines.len() - changes, 4, "whole lines");
        assert!(v2.len() * 2 < v1.len(), "{} vs {}", v2.len(), v1.len());
        assert!(!String::from_utf8(v1).unwrap().contains("\"changes\":true"));
    }

    #[test]
    fn a_seek_into_the_middle_reads_what_a_pass_from_the_start_reads() {
        let entries = twin_entries(Scenario::FrequentSwitches, 35 * 60);
        for zstd in [false, true] {
            let f = write(&entries, zstd, 2);
            let index = RecordingIndex::build(f.path()).unwrap();
            for secs in [1, 59, 600, 601, 605, 1199, 1234, 1800, 2099] {
                let from = EPOCH.add_millis(secs * 1000);
                let got: Vec<Entry> = index
                    .entries_from(from)
                    .unwrap()
                    .collect::<Result<_, _>>()
                    .unwrap();
                // What a whole pass gives from `from` on, slow parts carried to each slot's
                // first sample after the seek as the index does.
                let mut carry = slow::Carry::default();
                let mut want = Vec::new();
                for e in &entries {
                    match e {
                        Entry::Sample(s) if s.t < from => carry.observe(s),
                        Entry::Mark(m) if m.t < from => {}
                        e => {
                            let mut e = e.clone();
                            if let Entry::Sample(s) = &mut e {
                                carry.fill_once(s);
                            }
                            want.push(e);
                        }
                    }
                }
                assert_eq!(got.len(), want.len(), "zstd {zstd} from {secs} s");
                assert!(got == want, "zstd {zstd} from {secs} s");
            }
        }
    }

    #[test]
    fn the_hand_merge_gives_what_the_merge_over_values_gives() {
        for scenario in [
            Scenario::HealthySync,
            Scenario::RacNodeSaturated,
            Scenario::ApplyStopped,
            Scenario::StandbyDown,
            Scenario::FarSync,
        ] {
            let entries = twin_entries(scenario, 180);
            let f = write(&entries, false, 2);
            let text = std::fs::read_to_string(f.path()).unwrap();
            let mut by_hand: BTreeMap<String, Sample> = BTreeMap::new();
            let mut by_value: BTreeMap<String, Sample> = BTreeMap::new();
            let mut n = 0;
            for line in text.lines().skip(1) {
                let Some((slot, _)) = prefix_slot(line.as_bytes()) else {
                    continue;
                };
                let slot = String::from_utf8(slot.to_vec()).unwrap();
                if !is_changes_line(line.as_bytes()) {
                    let Ok(Entry::Sample(s)) = parse_entry(line.as_bytes()) else {
                        panic!("a whole sample line")
                    };
                    by_hand.insert(slot.clone(), (*s).clone());
                    by_value.insert(slot, *s);
                    continue;
                }
                let (a, b) = (
                    by_hand.get_mut(&slot).unwrap(),
                    by_value.get_mut(&slot).unwrap(),
                );
                for p in slow::SLOW_PARTS {
                    slow::clear(a, p);
                    slow::clear(b, p);
                }
                apply(a, line.as_bytes()).unwrap();
                apply_by_value(b, line.as_bytes()).unwrap();
                assert_eq!(a, b, "{scenario:?}: {line}");
                n += 1;
            }
            assert!(n > 300, "{scenario:?}: {n} changes lines");
        }
    }

    #[test]
    fn a_slot_name_with_escapes_is_written_whole_and_reads_back() {
        let mut entries = twin_entries(Scenario::HealthySync, 5);
        for e in &mut entries {
            if let Entry::Sample(s) = e {
                if s.slot.is_standby() {
                    s.slot = Slot::named_standby("a\"b\\c");
                }
            }
        }
        let f = write(&entries, false, 2);
        let text = std::fs::read_to_string(f.path()).unwrap();
        let changes = text
            .lines()
            .filter(|l| is_changes_line(l.as_bytes()))
            .count();
        assert_eq!(changes, 4, "the primary's lines after its first only");
        assert_eq!(read(f.path()), entries);
    }
}

mod lineparse {
    use dgscope::sample::lineparse::hand_only;
    use dgscope::sample::Sample;

    fn hand(line: &str) -> Option<Sample> {
        hand_only(line.as_bytes())
    }

    // `parse` and serde agree: the same value or the same message.
    use dgscope::sample::test_support::parse_as_serde as same;

    #[test]
    fn twin_lines_take_the_fast_path_and_equal_serde() {
        use dgscope::source::twin::{Scenario, Twin};
        use dgscope::source::PullSource;
        let mut twin = Twin::new(Scenario::HealthySync, 7);
        for _ in 0..120 {
            for s in twin.next_tick().unwrap().samples {
                let text = serde_json::to_string(&s).unwrap();
                assert_eq!(hand(&text).as_ref(), Some(&s), "{text}");
                assert_eq!(same(&text).unwrap(), s);
            }
        }
    }
}
