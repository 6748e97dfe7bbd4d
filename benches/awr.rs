//! `report awr` cost against the report's size: a 19c instance report (tests/it/common's
//! writer) padded with "SQL ordered by …" tables, as real reports are mostly SQL sections the
//! reader must pass over, to ~300 KB and ~5 MB; each read from disk, parsed and judged by the
//! pipeline (`dgscope::report::awr::awr`, what `dgscope report awr FILE` runs). Targets: a
//! 300 KB report in < 20 ms, a 5 MB one in < 200 ms. Run with `cargo bench --bench awr`;
//! prints the median of several runs and the target, asserts none.

#[path = "../tests/it/common/awr_writer.rs"]
mod awr_writer;

use awr_writer::AwrFixture;
use std::fmt::Write;
use std::time::{Duration, Instant};

/// The report with SQL tables of 10 columns inserted before its end until it holds `bytes`.
fn padded(bytes: usize) -> String {
    let report = AwrFixture::v19().render();
    let end = report
        .rfind("<p />\nEnd of Report")
        .expect("the writer's end marker");
    let (head, tail) = report.split_at(end);
    let mut pad = String::new();
    let mut n = 0;
    while head.len() + pad.len() + tail.len() < bytes {
        n += 1;
        let _ = write!(
            pad,
            "<h3 class=\"awr\">SQL ordered by Elapsed Time (part {n})</h3>\n<table border=\"0\" \
             class=\"tdiff\" summary=\"This table displays top SQL by elapsed time\">\n<tr>\
             <th class=\"awrbg\">Elapsed Time (s)</th><th class=\"awrbg\">Executions</th>\
             <th class=\"awrbg\">Elapsed Time per Exec (s)</th><th class=\"awrbg\">%Total</th>\
             <th class=\"awrbg\">%CPU</th><th class=\"awrbg\">%IO</th><th class=\"awrbg\">SQL Id</th>\
             <th class=\"awrbg\">SQL Module</th><th class=\"awrbg\">PDB Name</th>\
             <th class=\"awrbg\">SQL Text</th></tr>\n"
        );
        for i in 0..40 {
            let _ = writeln!(
                pad,
                "<tr><td class=\"awrc\">{}.{:02}</td><td class=\"awrc\">{}</td>\
                 <td class=\"awrc\">0.{:02}</td><td class=\"awrc\">{}.{}</td>\
                 <td class=\"awrc\">91.2</td><td class=\"awrc\">3.{}</td>\
                 <td class=\"awrc\"><a class=\"awr\" href=\"#{n}x{i}\">{n}x{i}qwerty</a></td>\
                 <td class=\"awrc\">JDBC Thin Client</td><td class=\"awrc\">PDB1</td>\
                 <td class=\"awrc\">SELECT ORDER_ID, STATUS FROM ORDERS WHERE CUSTOMER_ID = :B1 \
                 AND CREATED &gt; SYSDATE - :B2</td></tr>",
                100 + i,
                i,
                1000 * i + n,
                i % 100,
                i % 30,
                i % 10,
                i % 10
            );
        }
        pad.push_str("</table><p />\n");
    }
    let mut s = String::with_capacity(head.len() + pad.len() + tail.len());
    s.push_str(head);
    s.push_str(&pad);
    s.push_str(tail);
    s
}

fn measure(label: &str, bytes: usize, target: Duration) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("awrrpt_1_1200_1201.html");
    let html = padded(bytes);
    std::fs::write(&path, &html).expect("the report written");
    // The padding must not change what is read.
    let out = dgscope::report::awr::awr(&path).expect("the padded report reads");
    assert!(
        out.metrics.log_file_sync_ms.is_some(),
        "{label}: no commit path"
    );
    let runs = if bytes > 1 << 20 { 7 } else { 25 };
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            let r = dgscope::report::awr::awr(&path).expect("reads");
            std::hint::black_box(&r);
            t.elapsed()
        })
        .collect();
    times.sort();
    let median = times[times.len() / 2];
    println!(
        "report awr {label} ({} KB): median {:.1} ms over {runs} runs (min {:.1} ms); target < {} ms",
        html.len() / 1024,
        median.as_secs_f64() * 1e3,
        times[0].as_secs_f64() * 1e3,
        target.as_millis()
    );
}

/// How long `report awr` takes to refuse what is no report: a 1 GiB file (sparse) and a
/// gzip bomb (1 GiB of zeros in about 1 MB). Target: within a second.
fn refusals() {
    use std::io::Write as _;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let huge = dir.path().join("awrrpt_huge.html");
    std::fs::File::create(&huge)
        .and_then(|f| f.set_len(1 << 30))
        .expect("a sparse 1 GiB file");
    let bomb = dir.path().join("awrrpt_bomb.html.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..1024 {
        gz.write_all(&zeros).expect("compressed");
    }
    let packed = gz.finish().expect("compressed");
    std::fs::write(&bomb, &packed).expect("the bomb written");
    for (label, path, size) in [
        ("1 GiB file", &huge, 1u64 << 30),
        ("gzip bomb", &bomb, packed.len() as u64),
    ] {
        let mut times: Vec<Duration> = (0..5)
            .map(|_| {
                let t = Instant::now();
                let r = dgscope::report::awr::awr(path);
                assert!(r.is_err(), "{label} was read as a report");
                t.elapsed()
            })
            .collect();
        times.sort();
        println!(
            "report awr refuses a {label} ({} KB on disk): median {:.1} ms over 5 runs (max {:.1} ms); target < 1000 ms",
            size / 1024,
            times[2].as_secs_f64() * 1e3,
            times[4].as_secs_f64() * 1e3
        );
    }
}

fn main() {
    measure("300 KB", 300 * 1024, Duration::from_millis(20));
    measure("5 MB", 5 * 1024 * 1024, Duration::from_millis(200));
    refusals();
}
