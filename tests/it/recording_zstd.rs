//! Compressed recordings (`.jsonl.zst`): a killed writer, a truncated file and a damaged
//! frame, read by the real binary and the library reader.

use assert_cmd::Command;
use dgscope::sample::recording::{Entry, Header, RecordingReader, RecordingWriter};
use dgscope::sample::zst;
use dgscope::source::twin::{Scenario, Twin, EPOCH};
use dgscope::source::PullSource;
use std::io::Read;
use std::path::Path;
use std::time::Duration;

fn dgscope() -> Command {
    Command::cargo_bin("dgscope").unwrap()
}

/// The twin's first `n` entries of `record --twin healthy-sync --seed 1`, in file order.
fn twin_entries(n: usize) -> Vec<Entry> {
    let mut twin = Twin::new(Scenario::HealthySync, 1);
    let mut out = Vec::new();
    while out.len() < n {
        let tick = twin.next_tick().unwrap();
        out.extend(tick.marks.into_iter().map(Entry::Mark));
        out.extend(tick.samples.into_iter().map(|s| Entry::Sample(Box::new(s))));
    }
    out.truncate(n);
    out
}

fn read_entries(path: &Path) -> Vec<Entry> {
    RecordingReader::open(path)
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Every complete line a plain zstd decoder gets out of `bytes` before the data ends.
fn complete_lines(bytes: &[u8]) -> usize {
    let mut d = zstd::stream::read::Decoder::new(bytes).unwrap();
    let mut out = Vec::new();
    let mut buf = [0u8; 65536];
    while let Ok(n) = d.read(&mut buf) {
        if n == 0 {
            break;
        }
        out.extend_from_slice(&buf[..n]);
    }
    out.iter().filter(|&&b| b == b'\n').count()
}

fn write_twin(path: &Path, secs: usize) {
    let mut twin = Twin::new(Scenario::HealthySync, 1);
    let file = std::fs::File::create(path).unwrap();
    let mut w = RecordingWriter::new_zstd(file, &Header::new(EPOCH, 1000, "twin")).unwrap();
    for _ in 0..secs {
        let tick = twin.next_tick().unwrap();
        for m in &tick.marks {
            w.write_mark(m).unwrap();
        }
        for s in &tick.samples {
            w.write_sample(s).unwrap();
        }
    }
    w.finish().unwrap();
}

#[test]
fn a_recorder_killed_mid_run_leaves_every_flushed_line_readable() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("killed.jsonl.zst");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_dgscope"))
        .args([
            "record",
            "--twin",
            "healthy-sync",
            "--duration",
            "24h",
            "-o",
        ])
        .arg(&path)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Until the first 10-minute frame of virtual time is out and the second begun (however
    // loaded the machine), then SIGKILL: no chance to end the frame.
    let start = std::time::Instant::now();
    while std::fs::read(&path).ok().is_none_or(|b| {
        zst::frames(&mut std::io::BufReader::new(std::io::Cursor::new(&b))).map_or(0, |f| f.len())
            < 2
    }) {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no second frame"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let bytes = std::fs::read(&path).unwrap();
    assert!(zst::is_zstd(&bytes));
    let frames = zst::frames(&mut std::io::BufReader::new(std::io::Cursor::new(&bytes))).unwrap();
    assert!(frames.len() >= 2, "{frames:?}");
    assert!(!frames.last().unwrap().complete, "killed inside a frame");
    let got = read_entries(&path);
    // Every line the writer flushed is read back (the header is the first line); at most the
    // line being written when the kill came (part of the last second) is lost.
    assert_eq!(got.len(), complete_lines(&bytes) - 1);
    assert!(got.len() > 1000, "{}", got.len());
    // And they are the twin's entries, in order, intact.
    let want = twin_entries(got.len());
    assert!(got == want, "the read back entries differ from the twin's");
    // The commands read it like a truncated last line.
    let out = dgscope()
        .args(["check", "--format", "json", "--replay"])
        .arg(&path)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(v["status"], "OK", "{v}");
}

#[test]
fn a_truncated_file_reads_up_to_the_cut_at_any_cut() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full.jsonl.zst");
    write_twin(&full, 1300); // three frames
    let bytes = std::fs::read(&full).unwrap();
    let all = read_entries(&full);
    let cut_path = dir.path().join("cut.jsonl.zst");
    let mut prev = 0;
    for k in 1..40 {
        let cut = 200 + (bytes.len() - 200) * k / 40;
        std::fs::write(&cut_path, &bytes[..cut]).unwrap();
        let got = read_entries(&cut_path);
        assert!(got.len() >= prev && got.len() < all.len(), "cut at {cut}");
        assert!(got[..] == all[..got.len()], "cut at {cut}: not a prefix");
        prev = got.len();
        let idx = dgscope::sample::index::RecordingIndex::build(&cut_path).unwrap();
        assert!(idx.truncated_tail(), "cut at {cut}");
        assert_eq!(idx.last_t(), got.iter().map(Entry::t).max(), "cut at {cut}");
    }
    let out = dgscope()
        .args(["report", "incident"])
        .arg(&cut_path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_damaged_frame_in_the_middle_is_one_line_naming_its_offset() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.jsonl.zst");
    write_twin(&path, 1300);
    let mut bytes = std::fs::read(&path).unwrap();
    let frames = zst::frames(&mut std::io::BufReader::new(std::io::Cursor::new(&bytes))).unwrap();
    assert_eq!(frames.len(), 3, "{frames:?}");
    let (second, third) = (frames[1].offset as usize, frames[2].offset as usize);
    // Flip bytes in the middle of the second frame's compressed data.
    for b in &mut bytes[(second + third) / 2..(second + third) / 2 + 8] {
        *b ^= 0x5a;
    }
    std::fs::write(&path, &bytes).unwrap();
    let want = format!("byte {second}");
    // Bad input: exit 2, or 3 (UNKNOWN) for `check`, as a monitoring plugin.
    for (args, code) in [
        (&["check", "--replay"][..], 3),
        (&["report", "incident"][..], 2),
        (&["report", "histogram", "--event", "log file sync"][..], 2),
        (&["recording", "info"][..], 2),
    ] {
        let out = dgscope().args(args).arg(&path).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(&want), "{args:?}: {err}");
    }
}

#[test]
fn both_forms_give_the_same_reports() {
    let dir = tempfile::tempdir().unwrap();
    let z = dir.path().join("r.jsonl.zst");
    let p = dir.path().join("r.jsonl");
    let out = |args: &[&str], f: &Path| {
        let o = dgscope().args(args).arg(f).output().unwrap();
        assert!(o.status.code().is_some_and(|c| c < 2), "{args:?}");
        String::from_utf8_lossy(&o.stdout).replace(f.to_str().unwrap(), "FILE")
    };
    for (f, name) in [(&z, "r.jsonl.zst"), (&p, "r.jsonl")] {
        dgscope()
            .args(["record", "--twin", "slow-srl", "--duration", "25m", "-o"])
            .arg(f)
            .assert()
            .success();
        assert!(f.ends_with(name));
    }
    assert!(zst::is_zstd(&std::fs::read(&z).unwrap()));
    assert!(std::fs::metadata(&z).unwrap().len() * 4 < std::fs::metadata(&p).unwrap().len());
    for args in [
        &["check", "--format", "json", "--replay"][..],
        &["report", "incident", "--window", "20m..24m"][..],
        &["report", "incident"][..],
        &[
            "report",
            "impact",
            "--baseline",
            "0s..5m",
            "--compare",
            "15m..20m",
        ][..],
    ] {
        assert_eq!(out(args, &z), out(args, &p), "{args:?}");
    }
}

/// Reliability M2: a file cut a few bytes into its last frame (inside that frame's first
/// line) ends where the previous frame's last line does, never at the file's first instant
/// (a 0-second window judged "healthy").
#[test]
fn a_cut_inside_the_last_frames_first_line_keeps_the_real_end() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full.jsonl.zst");
    write_twin(&full, 1300); // three frames
    let bytes = std::fs::read(&full).unwrap();
    let frames = zst::frames(&mut std::io::BufReader::new(std::io::Cursor::new(&bytes))).unwrap();
    assert_eq!(frames.len(), 3, "{frames:?}");
    let cut_path = dir.path().join("cut.jsonl.zst");
    for into in [7, 50, 200, 300] {
        let cut = frames[2].offset as usize + into;
        std::fs::write(&cut_path, &bytes[..cut]).unwrap();
        let got = read_entries(&cut_path);
        let idx = dgscope::sample::index::RecordingIndex::build(&cut_path).unwrap();
        let end = got.iter().map(Entry::t).max();
        assert_eq!(idx.last_t(), end, "cut {into} bytes into the last frame");
        let span = idx.last_t().unwrap().secs_since(idx.first_t().unwrap());
        assert!(span > 600.0, "cut {into}: a span of {span} s");
    }
}

/// Reliability C2: empty zstd frames and runs of empty lines cost what they hold. A header
/// frame, 1,000 empty frames (the most in a row a recording may hold), a data frame and a frame of 4 MiB of newlines and
/// whitespace-only lines around the last line: every reader gets the same entries, and the
/// index its first and last instant. A run past 8 MiB (4 GiB of newlines compress to 130 KB)
/// is refused by every reader where it passes the limit.
#[test]
fn empty_frames_and_newline_floods_are_read_through() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("p.jsonl");
    {
        let file = std::fs::File::create(&plain).unwrap();
        let mut w =
            dgscope::sample::recording::RecordingWriter::new(file, &Header::new(EPOCH, 1000, "t"))
                .unwrap();
        for e in twin_entries(6) {
            match e {
                Entry::Sample(s) => w.write_sample(&s).unwrap(),
                Entry::Mark(m) => w.write_mark(&m).unwrap(),
            }
        }
        w.finish().unwrap();
    }
    let text = std::fs::read_to_string(&plain).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let z = |s: &str| zstd::bulk::compress(s.as_bytes(), 3).unwrap();
    let mut bytes = z(&format!("{}\n{}\n", lines[0], lines[1]));
    for _ in 0..dgscope::sample::zst::MAX_EMPTY_FRAMES {
        bytes.extend(z(""));
    }
    bytes.extend(z(&format!("{}\n{}\n", lines[2], lines[3])));
    let flood = "\n".repeat(4 << 20) + &" \r\n".repeat(1000);
    assert_eq!(lines.len(), 7, "the header and six entries");
    bytes.extend(z(&format!(
        "{flood}{}\n{flood}{}\n{}\n",
        lines[4], lines[5], lines[6]
    )));
    let path = dir.path().join("bomb.jsonl.zst");
    std::fs::write(&path, &bytes).unwrap();
    let got = read_entries(&path);
    let want = read_entries(&plain);
    assert_eq!(got.len(), want.len());
    assert!(got == want);
    let idx = dgscope::sample::index::RecordingIndex::build(&path).unwrap();
    assert_eq!(idx.first_t(), want.iter().map(Entry::t).min());
    assert_eq!(idx.last_t(), want.iter().map(Entry::t).max());
    let from: Vec<Entry> = idx
        .entries_from(idx.first_t().unwrap())
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(from.len(), want.len());

    // One empty frame more: refused by the stream and the index alike, naming where the run
    // starts (100,000 of them took 1.6 s to index; 88-120 s before the frames were indexed
    // one by one).
    let mut bytes = z(&format!("{}\n{}\n", lines[0], lines[1]));
    let run_at = bytes.len();
    for _ in 0..=dgscope::sample::zst::MAX_EMPTY_FRAMES {
        bytes.extend(z(""));
    }
    bytes.extend(z(&format!("{}\n", lines[2])));
    std::fs::write(&path, &bytes).unwrap();
    let said = format!("byte {run_at}: 1001 zstd frames in a row from here hold no line");
    let streamed: Result<Vec<Entry>, _> = RecordingReader::open(&path).unwrap().collect();
    let e = streamed.unwrap_err().to_string();
    assert!(e.contains(&said), "{e}");
    let e = dgscope::sample::index::RecordingIndex::build(&path)
        .unwrap_err()
        .to_string();
    assert!(e.contains(&said), "{e}");

    // Past the limit, in newlines or in whitespace-only lines: one error, in every reader.
    let max = dgscope::sample::recording::MAX_BLANK_RUN as usize;
    for flood in ["\n".repeat(max + 1), " \n".repeat(max / 2 + 1)] {
        let mut bytes = z(&format!("{}\n{}\n", lines[0], lines[1]));
        bytes.extend(z(&format!("{}\n{flood}{}\n", lines[2], lines[3])));
        std::fs::write(&path, &bytes).unwrap();
        let said = "more than 8 MiB of empty lines in a row";
        let streamed: Result<Vec<Entry>, _> = RecordingReader::open(&path).unwrap().collect();
        assert!(streamed.unwrap_err().to_string().contains(said));
        let e = match dgscope::sample::index::RecordingIndex::build(&path) {
            Ok(idx) => idx
                .entries_from(idx.first_t().unwrap())
                .unwrap()
                .collect::<Result<Vec<_>, _>>()
                .unwrap_err(),
            Err(e) => e,
        };
        assert!(e.to_string().contains(said), "{e}");
        let plain_flood = dir.path().join("flood.jsonl");
        std::fs::write(
            &plain_flood,
            format!("{}\n{}\n{flood}{}\n", lines[0], lines[1], lines[2]),
        )
        .unwrap();
        let e = dgscope::sample::index::RecordingIndex::build(&plain_flood).unwrap_err();
        assert!(e.to_string().contains(said), "{e}");
    }
}

/// Reliability m3: a `.zst` cut to a few bytes is a truncated file, not an empty one.
#[test]
fn a_zstd_file_cut_to_a_few_bytes_is_called_truncated() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full.jsonl.zst");
    write_twin(&full, 5);
    let bytes = std::fs::read(&full).unwrap();
    let cut = dir.path().join("cut.jsonl.zst");
    for n in [4, 10, 100] {
        std::fs::write(&cut, &bytes[..n]).unwrap();
        let err = match RecordingReader::open(&cut) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("{n} bytes accepted"),
        };
        assert!(
            err.contains("a zstd file cut before the end of its first line"),
            "{n}: {err}"
        );
    }
}

/// A file cut mid-line reads up to the cut, and every command that reads it says so in the
/// same words: `recording info`, `check` (stderr and its JSON `warnings`) and the reports.
#[test]
fn a_cut_last_line_is_said_by_every_reader() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.jsonl");
    dgscope()
        .args(["record", "--twin", "healthy-sync", "--duration", "3m", "-o"])
        .arg(&whole)
        .assert()
        .success();
    let bytes = std::fs::read(&whole).unwrap();
    let cut = dir.path().join("cut.jsonl");
    // 100 bytes short of the end: inside the last line.
    std::fs::write(&cut, &bytes[..bytes.len() - 100]).unwrap();
    let said = dgscope::sample::recording::TRUNCATED_TAIL;
    let run = |args: &[&str], f: &Path| {
        let o = dgscope().args(args).arg(f).output().unwrap();
        assert!(o.status.code().is_some_and(|c| c < 2), "{args:?}: {o:?}");
        (
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (out, _) = run(&["recording", "info"], &cut);
    assert!(out.contains(said), "{out}");
    let (out, err) = run(&["check", "--format", "json", "--replay"], &cut);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["warnings"].to_string().contains(said), "{out}");
    assert!(err.contains(said), "{err}");
    for args in [
        &[
            "report",
            "impact",
            "--baseline",
            "0s..1m",
            "--compare",
            "1m..",
            "--format",
            "json",
        ][..],
        &[
            "report",
            "histogram",
            "--event",
            "log file sync",
            "--format",
            "json",
        ][..],
    ] {
        let (out, _) = run(args, &cut);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert!(v["warnings"].to_string().contains(said), "{args:?}: {out}");
    }
    let (out, _) = run(&["report", "incident"], &cut);
    assert!(out.contains(said), "{out}");
    // The whole file says nothing of the kind.
    let (out, err) = run(&["check", "--format", "json", "--replay"], &whole);
    assert!(!out.contains(said) && !err.contains(said), "{out}{err}");
}

/// Reliability m3: a valid file compressed with a window past what the reader decodes
/// (`zstd --long=31`) was called "damaged"; it is named for what it is, with the command that
/// reads it.
#[test]
fn a_long_window_file_is_named_not_called_damaged() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("p.jsonl");
    write_twin(&plain, 5);
    let text = std::fs::read(&plain).unwrap();
    let path = dir.path().join("long.jsonl.zst");
    let mut enc = zstd::stream::Encoder::new(std::fs::File::create(&path).unwrap(), 1).unwrap();
    enc.window_log(31).unwrap();
    enc.long_distance_matching(true).unwrap();
    enc.write_all(&text).unwrap();
    enc.finish().unwrap();
    let e = match RecordingReader::open(&path) {
        Err(e) => e.to_string(),
        Ok(r) => r
            .collect::<Result<Vec<Entry>, _>>()
            .map(|v| format!("read {} entries", v.len()))
            .unwrap_or_else(|e| e.to_string()),
    };
    assert!(
        e.contains("needs a larger window than dgscope decodes"),
        "{e}"
    );
    assert!(e.contains("zstd -d --long=31"), "{e}");
    assert!(!e.contains("damaged"), "{e}");
}
