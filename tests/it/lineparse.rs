//! The hand line parser against serde, line by line: every line of twin recordings of every
//! scenario (fixed seeds, slow parts when read and repeated) and of the fixture and
//! hand-made recordings gives serde's value, and the hand parser reads it without asking
//! serde. `merge_into` over consecutive samples, with RFC 7396 patches built here from the
//! JSON of each pair, gives the next sample.

use crate::common::recordings::write_tick;
use crate::handmade;

use dgscope::sample::lineparse::{hand_only, merge_into, parse};
use dgscope::sample::recording::{Header, RecordingWriter};
use dgscope::sample::{Sample, Slot};
use dgscope::source::twin::{Scenario, SlowParts, Twin, EPOCH};
use dgscope::source::PullSource;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

const SECS: usize = 180;

/// A twin recording's lines (header first), written by the product's writer.
fn twin_lines(scenario: Scenario, seed: u64, mode: SlowParts) -> Vec<Vec<u8>> {
    let mut twin = Twin::new(scenario, seed);
    twin.set_slow_parts(mode);
    // Whole lines (version 1): each parses on its own. Changes lines (version 2) are merged,
    // which tests/it/sample_formats.rs tests against the merge over serde_json values.
    let mut header = Header::new(EPOCH, 1000, "twin");
    header.version = 1;
    let mut w = RecordingWriter::new(Vec::new(), &header).unwrap();
    for _ in 0..SECS {
        let tick = twin.next_tick().unwrap();
        write_tick(&mut w, &tick);
    }
    let bytes = w.finish().unwrap();
    bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect()
}

fn is_sample_line(line: &[u8]) -> bool {
    !line.is_empty()
        && !line.starts_with(b"{\"format\"")
        && !line.windows(14).any(|w| w == b"\"kind\":\"mark\"")
}

/// The hand parser and serde agree on `line`; returns whether the hand parser read it alone.
fn agree(line: &[u8], what: &str) -> bool {
    let serde = serde_json::from_slice::<Sample>(line).map_err(|e| e.to_string());
    let ours = parse(line).map_err(|e| e.to_string());
    assert_eq!(ours, serde, "{what}: {}", String::from_utf8_lossy(line));
    match hand_only(line) {
        Some(h) => {
            assert_eq!(Ok(h), serde, "{what}: hand parser differs");
            true
        }
        None => false,
    }
}

#[test]
fn every_twin_line_of_every_scenario_parses_as_serde_does_on_the_fast_path() {
    let mut lines = 0;
    for (i, scenario) in Scenario::ALL.into_iter().enumerate() {
        for mode in [SlowParts::WhenRead, SlowParts::Repeated] {
            for line in twin_lines(scenario, 11 + i as u64, mode) {
                if is_sample_line(&line) {
                    let what = format!("{} {mode:?}", scenario.name());
                    assert!(agree(&line, &what), "{what}: the hand parser asked serde");
                    lines += 1;
                }
            }
        }
    }
    assert!(lines > 25 * 2 * SECS * 2, "{lines} lines");
}

#[test]
fn every_fixture_and_handmade_line_parses_as_serde_does() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let mut files: Vec<Vec<u8>> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    assert!(files.len() >= 3);
    let made = handmade::recording_with(
        120,
        |i| handmade::Second {
            remote_ms: 1.0 + (i % 7) as f64 * 0.37,
            rfs_ms: 0.4,
            standby_down: i > 100,
        },
        &[(5, "a mark"), (60, "another")],
    );
    files.push(std::fs::read(made.path()).unwrap());
    let mut n = 0;
    for f in &files {
        for line in f.split(|&b| b == b'\n').filter(|l| is_sample_line(l)) {
            agree(line, "fixture");
            n += 1;
        }
    }
    assert!(n > 200, "{n} lines");
}

/// RFC 7396: the patch that turns `a` into `b` (`null` for a key `b` lacks).
fn diff(a: &Map<String, Value>, b: &Map<String, Value>) -> Map<String, Value> {
    let mut patch = Map::new();
    for (k, vb) in b {
        match (a.get(k), vb) {
            (Some(va), _) if va == vb => {}
            (Some(Value::Object(oa)), Value::Object(ob)) => {
                patch.insert(k.clone(), Value::Object(diff(oa, ob)));
            }
            _ => {
                patch.insert(k.clone(), vb.clone());
            }
        }
    }
    for k in a.keys().filter(|k| !b.contains_key(*k)) {
        patch.insert(k.clone(), Value::Null);
    }
    patch
}

fn object(s: &Sample) -> Map<String, Value> {
    match serde_json::to_value(s).unwrap() {
        Value::Object(m) => m,
        _ => unreachable!(),
    }
}

#[test]
fn merging_each_change_into_the_previous_sample_gives_the_next() {
    let mut patches = 0;
    let mut smaller = 0;
    for (i, scenario) in Scenario::ALL.into_iter().enumerate() {
        let mut twin = Twin::new(scenario, 300 + i as u64);
        let mut prev: BTreeMap<Slot, Sample> = BTreeMap::new();
        for _ in 0..120 {
            for cur in twin.next_tick().unwrap().samples {
                if let Some(p) = prev.get(&cur.slot) {
                    let patch = serde_json::to_string(&diff(&object(p), &object(&cur))).unwrap();
                    let mut merged = p.clone();
                    merge_into(patch.as_bytes(), &mut merged)
                        .unwrap_or_else(|e| panic!("{}: {e}\n{patch}", scenario.name()));
                    assert_eq!(merged, cur, "{}: {patch}", scenario.name());
                    patches += 1;
                    smaller +=
                        usize::from(patch.len() < serde_json::to_string(&cur).unwrap().len());
                }
                prev.insert(cur.slot.clone(), cur);
            }
        }
    }
    assert!(patches > 25 * 2 * 100, "{patches}");
    // The patches hold changes, not whole samples.
    assert!(smaller * 10 > patches * 9, "{smaller} of {patches}");
}

#[test]
fn a_patch_from_nothing_is_a_whole_sample_and_merging_it_twice_changes_nothing() {
    let mut twin = Twin::new(Scenario::TwoStandbys, 5);
    for _ in 0..30 {
        for cur in twin.next_tick().unwrap().samples {
            let line = serde_json::to_string(&cur).unwrap();
            let mut blank = Sample::new(EPOCH, Slot::primary());
            merge_into(line.as_bytes(), &mut blank).unwrap();
            assert_eq!(blank, cur);
            merge_into(line.as_bytes(), &mut blank).unwrap();
            assert_eq!(blank, cur, "a merge patch is idempotent");
        }
    }
}
