//! `dgscope recording compact IN -o OUT` and `dgscope recording info FILE`: for recordings
//! people already have (version 1 files that repeat their slow parts in every line).

use super::{print_untrusted, Failure};
use crate::cli::recording::RecordingCommand;
use crate::sample::index::RecordingIndex;
use crate::sample::recording::{Entry, Header, RecordingReader, RecordingWriter};
use crate::sample::slow::{Compactor, SLOW_EVERY_MS};
use crate::sample::Slot;
use crate::timestamp::Timestamp;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;

pub fn run(cmd: RecordingCommand) -> Result<ExitCode, Failure> {
    match cmd {
        RecordingCommand::Compact { input, output } => {
            let s = compact(&input, &output)?;
            print_untrusted(&s)?;
        }
        RecordingCommand::Info { file } => print_untrusted(&info(&file)?)?,
    }
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn mb(bytes: u64) -> String {
    if bytes < 1_000_000 {
        format!("{:.1} kB", bytes as f64 / 1000.0)
    } else {
        format!("{:.1} MB", bytes as f64 / 1_000_000.0)
    }
}

fn compact(input: &Path, output: &Path) -> Result<String, Failure> {
    let reader = RecordingReader::open(input).map_err(Failure::bad_input)?;
    let old = reader.header().clone();
    let mut header = Header::new(
        old.created.unwrap_or_default(),
        old.interval_ms.unwrap_or(1000),
        old.source.as_deref().unwrap_or(""),
    );
    header.created = old.created;
    header.interval_ms = old.interval_ms;
    header.source = old.source.clone();
    let fail = |e: std::io::Error| {
        Failure::bad_input(format!(
            "{}: cannot write the recording: {e}; choose another path with -o",
            output.display()
        ))
    };
    let mut w = RecordingWriter::create(output, &header).map_err(fail)?;
    let mut c = Compactor::new(SLOW_EVERY_MS);
    let mut entries = 0u64;
    for e in reader {
        let e = e.map_err(Failure::bad_input)?;
        match e {
            Entry::Sample(mut s) => {
                c.compact(&mut s);
                w.write_sample(&s).map_err(fail)?;
            }
            Entry::Mark(m) => w.write_mark(&m).map_err(fail)?,
        }
        entries += 1;
    }
    w.finish().map_err(fail)?;
    let size = |p: &Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
    Ok(format!(
        "{}: {entries} entries, {} → {}\n",
        output.display(),
        mb(size(input)),
        mb(size(output))
    ))
}

#[derive(Default)]
struct SlotInfo {
    samples: u64,
    failed: u64,
    first: Option<Timestamp>,
    last: Option<Timestamp>,
}

fn info(path: &Path) -> Result<String, Failure> {
    // The index refuses FIFOs and devices and says whether the file is compressed.
    let index = RecordingIndex::build(path).map_err(Failure::bad_input)?;
    // A whole pass: parse on a second core while this one sizes the parts.
    let reader = crate::sample::ahead::recording_ahead(
        RecordingReader::open(path).map_err(Failure::bad_input)?,
    );
    let header = reader.header().clone();
    let mut slots: BTreeMap<Slot, SlotInfo> = BTreeMap::new();
    let mut parts: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    let mut marks = 0u64;
    let mut gaps: Vec<i64> = Vec::new();
    let mut prev_t: Option<Timestamp> = None;
    let mut lines = 0u64;
    let mut reader = reader;
    let mut raw = Vec::new();
    while let Some(line) = next_raw(&mut reader, &mut raw).map_err(Failure::bad_input)? {
        lines += 1;
        // Sizes per top-level key, without building the sample.
        if let Ok(map) =
            serde_json::from_slice::<BTreeMap<&str, &serde_json::value::RawValue>>(line.0)
        {
            for (k, v) in map {
                let e = parts.entry(k.to_string()).or_default();
                e.0 += 1;
                e.1 += (v.get().len() + k.len() + 4) as u64;
            }
        }
        match line.1 {
            Entry::Mark(_) => marks += 1,
            Entry::Sample(s) => {
                let si = slots.entry(s.slot.clone()).or_default();
                si.samples += 1;
                si.failed += u64::from(s.is_error());
                si.first.get_or_insert(s.t);
                si.last = Some(s.t);
                if let Some(p) = prev_t.filter(|p| s.t > *p) {
                    gaps.push(s.t.ms - p.ms);
                }
                prev_t = Some(prev_t.map_or(s.t, |p| p.max(s.t)));
            }
        }
    }
    gaps.sort_unstable();
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let mut out = String::new();
    let form = if index.is_zstd() {
        let n = index.frame_count();
        format!("zstd, {n} frame{}", if n == 1 { "" } else { "s" })
    } else {
        "plain JSON Lines".into()
    };
    out.push_str(&format!("file      {}\n", path.display()));
    out.push_str(&format!("form      {form}, {} on disk\n", mb(size)));
    out.push_str(&format!(
        "version   {}{}\n",
        header.version,
        if header.version >= 2 {
            " (lines after each database's first hold what changed)"
        } else {
            " (whole lines; `recording compact` rewrites it smaller)"
        }
    ));
    if let Some(s) = &header.source {
        out.push_str(&format!("source    {s}\n"));
    }
    if let (Some(a), Some(b)) = (index.first_t(), index.last_t()) {
        out.push_str(&format!("span      {}\n", crate::report::span_text(a, b)));
    }
    let samples: u64 = slots.values().map(|s| s.samples).sum();
    out.push_str(&format!(
        "entries   {lines}: {}, {}\n",
        crate::display::count(samples, "sample"),
        crate::display::count(marks, "mark")
    ));
    if let Some(ms) = gaps.get(gaps.len() / 2) {
        out.push_str(&format!(
            "interval  {} (median between instants; header says {})\n",
            crate::display::dur(*ms as f64 / 1000.0),
            header
                .interval_ms
                .map_or("nothing".into(), |i| format!("{i} ms"))
        ));
    }
    for (slot, si) in &slots {
        out.push_str(&format!(
            "slot      {slot}: {} ({} failed)\n",
            crate::display::count(si.samples, "sample"),
            si.failed
        ));
    }
    if index.truncated_tail() {
        out.push_str(&format!(
            "note      {}\n",
            crate::sample::recording::TRUNCATED_TAIL
        ));
    }
    out.push_str("part      lines  bytes (uncompressed)\n");
    let mut by_size: Vec<_> = parts.into_iter().collect();
    by_size.sort_by_key(|x| std::cmp::Reverse(x.1 .1));
    for (k, (n, bytes)) in by_size {
        out.push_str(&format!("  {k:<16} {n:>8}  {}\n", mb(bytes)));
    }
    Ok(out)
}

/// The next entry with its raw line (for part sizes).
fn next_raw<'a>(
    reader: &mut crate::sample::ahead::RecordingAhead,
    raw: &'a mut Vec<u8>,
) -> Result<Option<(&'a [u8], Entry)>, crate::sample::recording::RecordingError> {
    match reader.next_with_line(raw)? {
        Some(e) => Ok(Some((raw.as_slice(), e))),
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::recording::{Header, RecordingWriter};
    use crate::source::twin::{Scenario, Twin, EPOCH};
    use crate::source::PullSource;

    fn twin_file(secs: usize) -> tempfile::NamedTempFile {
        let f = tempfile::NamedTempFile::new().unwrap();
        let out = std::io::BufWriter::new(f.reopen().unwrap());
        let mut w = RecordingWriter::new(out, &Header::new(EPOCH, 1000, "twin")).unwrap();
        let mut twin = Twin::new(Scenario::HealthySync, 1);
        for _ in 0..secs {
            for s in &twin.next_tick().unwrap().samples {
                w.write_sample(s).unwrap();
            }
        }
        w.finish().unwrap();
        f
    }

    #[test]
    fn info_counts_the_samples_of_each_slot_and_says_one_in_the_singular() {
        let one = info(twin_file(1).path()).unwrap();
        assert!(one.contains("entries   2: 2 samples, 0 marks\n"), "{one}");
        assert!(
            one.contains("slot      primary: 1 sample (0 failed)\n"),
            "{one}"
        );
        assert!(
            one.contains("slot      standby: 1 sample (0 failed)\n"),
            "{one}"
        );
        let three = info(twin_file(3).path()).unwrap();
        assert!(
            three.contains("entries   6: 6 samples, 0 marks\n"),
            "{three}"
        );
        assert!(
            three.contains("slot      primary: 3 samples (0 failed)\n"),
            "{three}"
        );
        assert!(three.contains("version   2 "), "{three}");
    }
}
