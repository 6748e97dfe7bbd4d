//! `dgscope report awr`: reports written by tests/it/common/awr_writer.rs in the 19c and
//! 11.2 layouts are read back figure by figure; bad input is one line and exit 2.

use crate::common::awr_writer::{compare_periods, ev, AwrFixture, ComparePeriod};
use assert_cmd::Command;
use serde_json::Value;

/// `dgscope ARGS FILE ARGS_AFTER` with no config: exit code, stdout, stderr.
fn run_on(args: &[&str], path: &std::path::Path, after: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("dgscope")
        .unwrap()
        .env_remove("DGSCOPE_CONFIG")
        .env("XDG_CONFIG_HOME", "/nonexistent")
        .args(args)
        .arg(path)
        .args(after)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `report awr` on `text` written to a file named `name`, in `format`.
fn run_named(name: &str, text: &str, format: &str) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    run_on(&["report", "awr"], &path, &["--format", format])
}

fn run(html: &str, format: &str) -> (i32, String, String) {
    run_named("awrrpt_1_1200_1201.html", html, format)
}

/// `report awr FILE --format json`, which must succeed.
pub(crate) fn report_json(path: &std::path::Path) -> Value {
    let (code, out, err) = run_on(&["report", "awr"], path, &["--format", "json"]);
    assert_eq!(code, 0, "stderr: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// `report awr` of `text` in a file named `name`, as JSON (it must succeed).
fn json_named(name: &str, text: &str) -> Value {
    let (code, out, err) = run_named(name, text, "json");
    assert_eq!(code, 0, "stderr: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

fn json(html: &str) -> Value {
    json_named("awrrpt_1_1200_1201.html", html)
}

#[track_caller]
fn near(v: &Value, want: f64, tol: f64) {
    let got = v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"));
    assert!((got - want).abs() <= tol, "got {got}, want {want} ± {tol}");
}

#[test]
fn a_19c_report_reads_back_every_figure() {
    let v = json(&AwrFixture::v19().render());
    assert_eq!(v["schema"], "dgscope.report.awr/2");
    assert_eq!(v["kind"], "awr-html");
    let id = &v["identity"];
    assert_eq!(id["db_name"], "TESTDB");
    assert_eq!(id["dbid"], 1234567890u64);
    assert_eq!(id["instance"], "testdb1");
    assert_eq!(id["inst_num"], 1);
    assert_eq!(id["release"], "19.0.0.0.0");
    assert_eq!(id["rac"], true);
    assert_eq!(id["cdb"], false);
    assert_eq!(id["host"], "dbhost01");
    assert_eq!(id["cpus"], 16);
    assert_eq!(id["instances"], 1);
    let w = &v["window"];
    assert_eq!(w["begin_snap"], 1200);
    assert_eq!(w["end_snap"], 1201);
    assert_eq!(w["begin"], "2023-02-17T08:00:05.000Z");
    near(&w["elapsed_s"], 3600.0, 1e-9);
    near(&w["db_time_s"], 7230.0, 1e-9);
    let m = &v["metrics"];
    near(&m["tps"], 11.0, 1e-6);
    near(&m["user_commits_s"], 10.0, 1e-6);
    near(&m["redo_rate_mb_s"], 0.5, 1e-6);
    // Top 10's 96.1 s over 36,000 waits is finer than the printed 2.67ms.
    near(&m["log_file_sync_ms"], 96.1 / 36.0, 1e-5);
    near(&m["log_file_parallel_write_ms"], 0.47628, 1e-6);
    near(&m["sync_remote_write_ms"], 0.8055, 1e-6);
    near(&m["log_switches_h"], 30.0, 1e-6);
    near(&m["host_cpu_busy_pct"], 10.0, 1e-6);
    near(&m["redo_write_kb"], 25.6, 1e-6);
    near(&m["redo_writes_s"], 20.0, 1e-6);
    // The µs table and its "(up to 32 ms)" detail merge into one histogram.
    let h = &v["histograms"]["log file parallel write"];
    assert_eq!(h["estimated"], true);
    assert_eq!(
        h["buckets"],
        serde_json::json!([[256, 7200], [512, 28800], [1024, 32400], [2048, 3600]])
    );
    assert_eq!(v["warnings"], serde_json::json!([]));
    assert!(v["findings"].is_array());
}

#[test]
fn an_11g_report_recomputes_whole_millisecond_averages() {
    let v = json(&AwrFixture::v112().render());
    assert_eq!(v["identity"]["release"], "11.2.0.4.0");
    assert_eq!(v["identity"]["cdb"], Value::Null);
    near(&v["window"]["elapsed_s"], 2220.0, 1e-9);
    let m = &v["metrics"];
    near(&m["log_file_sync_ms"], 3414.4 / 10_020.0 * 1000.0, 1e-4);
    near(
        &m["log_file_parallel_write_ms"],
        2044.0 / 26_990.0 * 1000.0,
        1e-4,
    );
    assert_eq!(m["sync_remote_write_ms"], Value::Null);
    near(&m["tps"], 20_200.0 / 2220.0, 1e-4);
    near(&m["user_commits_s"], 7400.0 / 2220.0, 1e-4);
    near(&m["redo_write_kb"], 191_479_200.0 / 26_990.0 / 1024.0, 1e-4);
    near(
        &m["host_cpu_busy_pct"],
        985_022.0 * 100.0 / 3_556_161.0,
        1e-4,
    );
    near(&m["log_switches_h"], 3600.0 / 2220.0, 1e-4);
    // The `<=1s` column spans 32 ms to 1 s, no bucket of the contract: its waits go to the
    // doubling of their mean, the total time less the other buckets' over its count
    // ((2,044 s − 2,699 × 0.5 ms − 8,097 × 24 ms) / 16,194 = 114 ms: 64–128 ms).
    assert_eq!(
        v["histograms"]["log file parallel write"]["buckets"],
        serde_json::json!([[1000, 2699], [32000, 8097], [128_000, 16194]])
    );
}

/// Issue 26: a 10.2 report has no foreground table: its "Wait Events" lists every session's
/// waits. The foreground's log file sync is that less the background's (3,415 s over 10,120
/// waits less 1 s over 100), the background's log file parallel write as in later releases,
/// and the warnings say how the foreground was found. Its header is one upper-case table
/// with the host in it, its top table "Top 5 Timed Events".
#[test]
fn a_10g_report_takes_the_foreground_as_all_sessions_less_the_background() {
    let f = AwrFixture::v102();
    let html = f.render();
    assert!(!html.contains("Foreground Wait Events"), "a 10.2 layout");
    let v = json(&html);
    assert_eq!(v["identity"]["release"], "10.2.0.4.0");
    assert_eq!(v["identity"]["host"], "dbhost01");
    assert_eq!(v["identity"]["instance"], "testdb1");
    let m = &v["metrics"];
    near(&m["log_file_sync_ms"], 3414.0 / 10_020.0 * 1000.0, 0.05);
    near(
        &m["log_file_parallel_write_ms"],
        2044.0 / 26_990.0 * 1000.0,
        1e-4,
    );
    near(&m["tps"], 20_200.0 / 2220.0, 1e-4);
    let warnings = v["warnings"].to_string();
    assert!(
        warnings.contains("a 10g report lists all sessions' waits together"),
        "{warnings}"
    );
    assert!(
        !warnings.contains("foreground figures unknown"),
        "{warnings}"
    );
    // Without its background table, the foreground cannot be told: unknown, not all of it;
    // an event's total (every session's) is still known.
    let mut f = AwrFixture::v102();
    f.omit = vec!["Background Wait Events"];
    let v = json(&f.render());
    assert_eq!(v["metrics"]["log_file_sync_ms"], Value::Null, "{v}");
    near(
        &v["metrics"]["log_file_parallel_write_ms"],
        2044.0 / 26_990.0 * 1000.0,
        1e-4,
    );
}

#[test]
fn a_missing_section_is_named_and_its_figures_are_null() {
    let mut f = AwrFixture::v19();
    f.omit = vec!["Background Wait Events", "Operating System Statistics"];
    let v = json(&f.render());
    let m = &v["metrics"];
    assert_eq!(m["log_file_parallel_write_ms"], Value::Null);
    assert_eq!(m["sync_remote_write_ms"], Value::Null);
    assert_eq!(m["host_cpu_busy_pct"], Value::Null);
    near(&m["tps"], 11.0, 1e-6);
    let warnings = v["warnings"].to_string();
    assert!(warnings.contains("Background Wait Events"), "{warnings}");
    assert!(
        warnings.contains("Operating System Statistics"),
        "{warnings}"
    );
}

#[test]
fn foreground_log_file_sync_alone_counts_as_commits() {
    let mut f = AwrFixture::v19();
    f.fg.clear();
    f.top_fg.clear();
    let v = json(&f.render());
    // The background table's 100 waits are not commits.
    assert_eq!(v["metrics"]["log_file_sync_ms"], Value::Null);
}

#[test]
fn text_and_markdown_show_the_window_and_the_commit_path() {
    let html = AwrFixture::v19().render();
    let (code, text, _) = run(&html, "text");
    assert_eq!(code, 0);
    assert!(text.contains("TESTDB"), "{text}");
    assert!(text.contains("1200 – 1201"), "{text}");
    assert!(text.contains("log file parallel write ms"), "{text}");
    assert!(text.contains("0.476"), "{text}");
    assert!(
        text.contains("log file parallel write (72000 waits): < 256 us 10.0 %, < 512 us 40.0 %, < 1 ms 45.0 %, < 2 ms 5.0 %"),
        "{text}"
    );
    let (code, md, _) = run(&html, "markdown");
    assert_eq!(code, 0);
    assert!(md.contains("## Commit path"), "{md}");
    assert!(md.contains("| redo writes/s | 20.000 |"), "{md}");
}

#[test]
fn not_a_report_is_one_line_and_exit_2() {
    for input in [
        "<html><body><p>hello</p></body></html>",
        "just some text\n",
        "<html><body><h1>WORKLOAD REPOSITORY report for</h1><table><tr><th>x</th></tr></table></body></html>",
    ] {
        let (code, out, err) = run(input, "json");
        assert_eq!(code, 2, "{input}: stdout {out} stderr {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains("not an AWR report"), "{err}");
        assert!(out.is_empty(), "{out}");
    }
}

#[test]
fn a_browser_resaved_report_reads_the_same() {
    // Upper-case tags, unquoted attributes and CRLF line ends, as a browser's "save as".
    let html = AwrFixture::v19()
        .render()
        .replace(
            "<table border=\"0\" width=\"600\" class=\"tdiff\">",
            "<TABLE border=0 width=600 class=tdiff>",
        )
        .replace("</table>", "</TABLE>")
        .replace("<tr>", "<TR>")
        .replace("</tr>", "</TR>")
        .replace("<h3 class=\"awr\">", "<H3 class=awr>")
        .replace("</h3>", "</H3>")
        .replace('\n', "\r\n");
    let v = json(&html);
    near(&v["metrics"]["log_file_parallel_write_ms"], 0.47628, 1e-6);
    near(&v["metrics"]["redo_write_kb"], 25.6, 1e-6);
}

#[test]
fn a_statspack_report_reads_back_every_figure() {
    let v = json(&crate::common::awr_writer::statspack());
    assert_eq!(v["kind"], "statspack");
    let id = &v["identity"];
    assert_eq!(id["dbid"], 1066102538u64);
    assert_eq!(id["instance"], "quiet1");
    assert_eq!(id["release"], "11.2.0.4.0");
    assert_eq!(id["rac"], false);
    assert_eq!(id["host"], "dbhost02");
    assert_eq!(id["cpus"], 12);
    let w = &v["window"];
    assert_eq!(w["begin_snap"], 6693);
    assert_eq!(w["end_snap"], 6723);
    near(&w["elapsed_s"], 86_400.0, 1e-6);
    near(&w["db_time_s"], 618.0, 1e-6);
    let m = &v["metrics"];
    // Printed averages are 0 ms: total ÷ waits, and said to be rounded.
    near(&m["log_file_sync_ms"], 6.0 / 27.0, 1e-6);
    near(&m["log_file_parallel_write_ms"], 10.0 / 60.0, 1e-6);
    assert_eq!(
        v["rounded"],
        serde_json::json!(["log file sync", "log file parallel write"])
    );
    near(&m["user_commits_s"], 0.6, 1e-6);
    near(&m["redo_writes_s"], 60_000.0 / 86_400.0, 1e-6);
    near(&m["redo_write_kb"], 16.0, 1e-6);
    near(&m["log_switches_h"], 2.0, 1e-6);
    near(&m["host_cpu_busy_pct"], 1.5e8 / 1.035e8, 1e-6);
}

/// Seed 000's MAA table ("Affect of Sync Transport Increasing Application Concurrency"): the
/// same 25 MB/s load with SYNC deferred and with SYNC on. Each row is written as a 15-minute
/// 19c report with the seed's figures (TPS, the two averages, SYNC Remote Write, the redo
/// write size; counts and totals derived from them).
fn seed_000_report(sync: bool) -> AwrFixture {
    let mut f = AwrFixture::v19();
    f.begin_time = "17-Feb-23 08:00:05";
    f.end_time = "17-Feb-23 08:15:05";
    f.elapsed_min = "15.00";
    f.hists = Vec::new();
    if sync {
        // 5,280.20 TPS; log file sync 2.6 ms; lfpw 0.51 ms; SYNC Remote Write 0.95 ms;
        // 20.50 KB per redo write.
        f.top_fg = vec![ev("log file sync", "4,752,180", "12,355.7", "2.60ms")];
        f.fg = vec![ev("log file sync", "4,752,180", "12,356", "2.60ms")];
        f.bg = vec![
            ev("log file parallel write", "1,123,902", "573.2", "510.00us"),
            ev("SYNC Remote Write", "1,123,902", "1,067.7", "950.00us"),
        ];
        f.stats = vec![
            ("user commits", "4,752,180"),
            ("user rollbacks", "0"),
            ("redo size", "23,592,960,000"),
            ("redo writes", "1,123,902"),
        ];
    } else {
        // 5,514.94 TPS; log file sync 0.74 ms; lfpw 0.47 ms; 10.58 KB per redo write.
        f.top_fg = vec![ev("log file sync", "4,963,446", "3,673.0", "740.00us")];
        f.fg = vec![ev("log file sync", "4,963,446", "3,673", "740.00us")];
        f.bg = vec![ev(
            "log file parallel write",
            "2,177,696",
            "1,023.5",
            "470.00us",
        )];
        f.stats = vec![
            ("user commits", "4,963,446"),
            ("user rollbacks", "0"),
            ("redo size", "23,592,960,000"),
            ("redo writes", "2,177,696"),
        ];
    }
    f
}

fn impact(args: &[&str], files: &[(&str, String)]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    for (name, html) in files {
        std::fs::write(dir.path().join(name), html).unwrap();
    }
    let out = Command::cargo_bin("dgscope")
        .unwrap()
        .current_dir(dir.path())
        .env_remove("DGSCOPE_CONFIG")
        .env("XDG_CONFIG_HOME", "/nonexistent")
        .args(["report", "impact"])
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The row of `report impact --format json` for `metric`.
#[track_caller]
fn impact_row(v: &Value, metric: &str) -> Value {
    v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["metric"] == metric)
        .unwrap_or_else(|| panic!("no row {metric}: {v}"))
        .clone()
}

/// Seed 000's table, SYNC deferred then SYNC on, as the seed prints it: TPS −4 %, log file
/// sync +251 %, lfpw +8.5 %, write size +93.8 %, the same redo rate. SYNC off has no remote
/// write and a report no standby: unknown, not 0.
#[track_caller]
fn assert_seed_000_rows(v: &Value) {
    let row = |id: &str| impact_row(v, id);
    let tps = row("tps");
    near(&tps["baseline"], 5514.94, 0.01);
    near(&tps["compare"], 5280.20, 0.01);
    near(&tps["change_pct"], -4.26, 0.01);
    let lfs = row("log_file_sync_ms");
    near(&lfs["baseline"], 0.74, 0.001);
    near(&lfs["compare"], 2.60, 0.001);
    near(&lfs["change_pct"], 251.4, 0.1);
    let lfpw = row("log_file_parallel_write_ms");
    near(&lfpw["baseline"], 0.47, 0.001);
    near(&lfpw["compare"], 0.51, 0.001);
    near(&lfpw["change_pct"], 8.5, 0.1);
    let size = row("redo_write_kb");
    near(&size["baseline"], 10.58, 0.01);
    near(&size["compare"], 20.50, 0.01);
    near(&size["change_pct"], 93.8, 0.1);
    near(&row("redo_rate_mb_s")["change_pct"], 0.0, 1e-6);
    assert!(row("sync_remote_write_ms")["baseline"].is_null(), "{v}");
    near(&row("sync_remote_write_ms")["compare"], 0.95, 0.001);
    assert!(row("rfs_random_io_ms")["baseline"].is_null(), "{v}");
    assert!(row("rfs_random_io_ms")["compare"].is_null(), "{v}");
}

#[test]
fn two_reports_give_seed_000s_impact_table() {
    let files = [
        ("sync_off.html", seed_000_report(false).render()),
        ("sync_on.html", seed_000_report(true).render()),
    ];
    let (code, out, err) = impact(
        &[
            "--baseline",
            "sync_off.html",
            "sync_on.html",
            "--format",
            "json",
        ],
        &files,
    );
    assert_eq!(code, 0, "stderr: {err}");
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(v["schema"], "dgscope.report.impact/2");
    assert_eq!(v["baseline"]["from"], "2023-02-17T08:00:05.000Z");
    assert_eq!(v["compare"]["to"], "2023-02-17T08:15:05.000Z");
    assert_seed_000_rows(&v);

    // The text table names both reports.
    let (code, out, err) = impact(&["--baseline", "sync_off.html", "sync_on.html"], &files);
    assert_eq!(code, 0, "stderr: {err}");
    assert!(out.contains("baseline sync_off.html"), "{out}");
    assert!(out.contains("compare sync_on.html"), "{out}");
    assert!(out.contains("+251.4 %"), "{out}");
}

/// Seed 000's two runs as the two periods of one Compare Periods report (`awrddrpt`): the
/// Wait Events table's waits per second and total seconds, the exact counts of the events on
/// the Top Timed Events lists, the Instance Activity Stats' values.
fn seed_000_compare() -> (ComparePeriod, ComparePeriod) {
    let off = ComparePeriod {
        begin_snap: "812",
        begin_time: "17-Feb-23 08:00:05 (Fri)",
        end_snap: "813",
        end_time: "17-Feb-23 08:15:05 (Fri)",
        elapsed_min: "15.0",
        db_time_min: "75.0",
        events: vec![
            (
                "log file sync",
                "Commit",
                "5,514.94",
                "3,673.00",
                "740.00us",
                "4,963,446",
            ),
            (
                "log file parallel write",
                "System I/O",
                "2,419.66",
                "1,023.50",
                "470.00us",
                "",
            ),
            // Not waited in this period: zeros, as awrddrpt prints them.
            ("SYNC Remote Write", "Other", "0.00", "0.00", ".00ns", ""),
        ],
        stats: vec![
            ("redo size", "23,592,960,000"),
            ("redo writes", "2,177,696"),
            ("user commits", "4,963,446"),
            ("user rollbacks", "0"),
        ],
    };
    let on = ComparePeriod {
        begin_snap: "912",
        begin_time: "24-Feb-23 08:00:05 (Fri)",
        end_snap: "913",
        end_time: "24-Feb-23 08:15:05 (Fri)",
        elapsed_min: "15.0",
        db_time_min: "240.0",
        events: vec![
            (
                "log file sync",
                "Commit",
                "5,280.20",
                "12,355.67",
                "2.60ms",
                "4,752,180",
            ),
            (
                "log file parallel write",
                "System I/O",
                "1,248.78",
                "573.19",
                "510.00us",
                "",
            ),
            (
                "SYNC Remote Write",
                "Other",
                "1,248.78",
                "1,067.71",
                "950.00us",
                "1,123,902",
            ),
        ],
        stats: vec![
            ("redo size", "23,592,960,000"),
            ("redo writes", "1,123,902"),
            ("user commits", "4,752,180"),
            ("user rollbacks", "0"),
        ],
    };
    (off, on)
}

/// Issue 26: one Compare Periods report gives seed 000's impact table, as the two periods'
/// own reports give it (`report impact FILE`, no --baseline).
#[test]
fn one_compare_periods_report_gives_seed_000s_impact_table() {
    let (off, on) = seed_000_compare();
    let files = [(
        "awrdiff_1_812_1_912.html",
        compare_periods(&off, &on, &["waits", "stats"]),
    )];
    let (code, out, err) = impact(&["awrdiff_1_812_1_912.html", "--format", "json"], &files);
    assert_eq!(code, 0, "stderr: {err}");
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(v["baseline"]["from"], "2023-02-17T08:00:05.000Z");
    assert_eq!(v["compare"]["to"], "2023-02-24T08:15:05.000Z");
    // SYNC Remote Write was not waited in the first period: unknown, not 0.
    assert_seed_000_rows(&v);
    // What the report kind cannot give is said once, of the file.
    assert_eq!(
        err.matches("no Wait Event Histogram").count(),
        1,
        "stderr: {err}"
    );
    assert!(!err.contains("no Wait Events section"), "stderr: {err}");

    // The text table names the periods.
    let (code, out, err) = impact(&["awrdiff_1_812_1_912.html"], &files);
    assert_eq!(code, 0, "stderr: {err}");
    assert!(
        out.contains("(1st period)") && out.contains("(2nd period)"),
        "{out}"
    );
    assert!(out.contains("+251.3 %"), "{out}");
}

/// A Compare Periods report without its Wait Events and Instance Activity sections: the
/// rows they feed are unknown and the warnings name what is missing; the commands that read
/// one window say what to run instead; a text one is refused with the way to get HTML.
#[test]
fn a_compare_periods_report_missing_sections_or_given_to_one_window_commands_says_so() {
    let (off, on) = seed_000_compare();
    let html = compare_periods(&off, &on, &[]);
    let files = [("awrdiff.html", html.clone())];
    let (code, out, err) = impact(&["awrdiff.html", "--format", "json"], &files);
    assert_eq!(code, 0, "stderr: {err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let tps = impact_row(&v, "tps");
    assert!(
        tps["baseline"].is_null() && tps["compare"].is_null(),
        "{tps}"
    );
    assert!(err.contains("no Wait Events section"), "stderr: {err}");
    assert!(err.contains("no Instance Activity Stats"), "stderr: {err}");

    let (code, out, err) = run_named("awrdiff.html", &html, "text");
    assert_eq!(code, 2, "{out}");
    assert!(
        err.contains("Compare Periods") && err.contains("report impact FILE"),
        "stderr: {err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");

    let text = "WORKLOAD REPOSITORY COMPARE PERIOD REPORT\n\nSnapshot Set    DB Id\n";
    let (code, _, err) = impact(&["awrdiff.txt"], &[("awrdiff.txt", text.to_string())]);
    assert_eq!(code, 2);
    assert!(err.contains("only the HTML form"), "stderr: {err}");

    // Cut before its snapshot table: said as a Compare Periods report that is not whole.
    let cut = &html[..html.find("summary=\"This table displays snapshot").unwrap()];
    let (code, _, err) = impact(&["cut.html"], &[("cut.html", cut.to_string())]);
    assert_eq!(code, 2);
    assert!(
        err.contains("an AWR Compare Periods report, but its snapshot table")
            && err.contains("was not found: a file cut short"),
        "stderr: {err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");

    // The RAC global form (awrgdrpt) is not taken for one instance's.
    let global = html.replacen(
        "WORKLOAD REPOSITORY COMPARE PERIOD REPORT",
        "WORKLOAD REPOSITORY GLOBAL COMPARE PERIODS REPORT",
        1,
    );
    let (code, _, err) = impact(&["global.html"], &[("global.html", global)]);
    assert_eq!(code, 2);
    assert!(
        err.contains("RAC global AWR Compare Periods report"),
        "stderr: {err}"
    );

    // A file that is not there: said as such, not as a missing --baseline.
    let (code, _, err) = impact(&["nosuch.html"], &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("nosuch.html") && err.contains("cannot read"),
        "stderr: {err}"
    );

    // A recording (or any other file) without --baseline: what to give.
    let (code, _, err) = impact(&["incident.jsonl"], &[("incident.jsonl", "{}\n".into())]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--baseline is missing") && err.contains("Compare Periods"),
        "stderr: {err}"
    );
}

#[test]
fn impact_arguments_that_cannot_go_together_are_one_line_and_exit_2() {
    let files = [
        ("before.html", seed_000_report(false).render()),
        ("after.html", seed_000_report(true).render()),
    ];
    // Two reports and a window as well.
    let (code, out, err) = impact(
        &[
            "--baseline",
            "before.html",
            "after.html",
            "--compare",
            "0s..5m",
        ],
        &files,
    );
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("drop --compare"), "{err}");
    // A recording's windows without --compare.
    let (code, _, err) = impact(&["--baseline", "0s..5m", "after.html"], &files);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("--compare A..B is missing"), "{err}");
    // A baseline report that is not there reads as neither a report nor a window.
    let (code, _, err) = impact(&["--baseline", "befor.html", "after.html"], &files);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("befor.html"), "{err}");
    // The after report is not a report.
    let (code, _, err) = impact(
        &["--baseline", "before.html", "notes.txt"],
        &[
            ("before.html", seed_000_report(false).render()),
            ("notes.txt", "just some notes\n".to_string()),
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("notes.txt"), "{err}");
}

/// `check --replay` of a report: the same findings as `report awr`, as a plugin's one status
/// line and exit code.
#[test]
fn check_replay_of_a_report_judges_it_as_report_awr_does() {
    // The 11.2 fixture's commit path is slow enough to raise findings.
    for (name, html) in [
        ("awr19.html", AwrFixture::v19().render()),
        ("awr112.html", AwrFixture::v112().render()),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, &html).unwrap();
        let dgscope = |args: &[&str]| {
            let out = Command::cargo_bin("dgscope")
                .unwrap()
                .env_remove("DGSCOPE_CONFIG")
                .env("XDG_CONFIG_HOME", "/nonexistent")
                .args(args)
                .arg(&path)
                .output()
                .unwrap();
            (
                out.status.code().unwrap_or(-1),
                String::from_utf8_lossy(&out.stdout).into_owned(),
                String::from_utf8_lossy(&out.stderr).into_owned(),
            )
        };
        let (code, out, err) = dgscope(&["report", "awr", "--format", "json"]);
        assert_eq!(code, 0, "{name}: {err}");
        let report: Value = serde_json::from_str(&out).unwrap();
        let ids = |v: &Value| -> Vec<String> {
            let mut ids: Vec<String> = v["findings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f["id"].as_str().unwrap().to_string())
                .collect();
            ids.sort();
            ids
        };
        let (code, out, err) = dgscope(&["check", "--format", "json", "--replay"]);
        assert!(code <= 2, "{name}: exit {code}: {err}{out}");
        let check: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
        assert_eq!(ids(&check), ids(&report), "{name}: {out}");
        let (code2, out, _) = dgscope(&["check", "--replay"]);
        assert_eq!(code2, code, "{name}");
        let want = ["OK", "WARN", "CRIT"][code as usize];
        let status = out.lines().next().unwrap_or_default();
        assert!(
            status.starts_with(&format!("dgscope check: {want} ")),
            "{name}: exit {code}: {out}"
        );
        // The window is the report's snapshot interval.
        let secs = report["window"]["elapsed_s"].as_f64().unwrap();
        assert!(
            status.contains(&format!("over {secs:.0} s")),
            "{name}: {status}"
        );
    }
}

/// `checkpoint-incomplete` weighs the stall against the window: 26 s in an hour is a finding
/// (ranked under `log-switch-frequent` when logs switch too often), a tenth of a second in six
/// days is not.
#[test]
fn a_checkpoint_stall_counts_by_the_hour_and_ranks_under_frequent_switches() {
    let ids = |f: &AwrFixture| -> Vec<String> {
        json(&f.render())["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["id"].as_str().unwrap().to_string())
            .collect()
    };
    let mut hour = AwrFixture::v19();
    hour.fg.push(ev(
        "log file switch (checkpoint incomplete)",
        "12",
        "26",
        "2.17s",
    ));
    hour.switches = Some("55");
    let got = ids(&hour);
    let at = |id: &str| got.iter().position(|g| g == id);
    assert!(at("checkpoint-incomplete").is_some(), "{got:?}");
    assert!(
        at("log-switch-frequent") < at("checkpoint-incomplete"),
        "{got:?}"
    );

    let mut days = AwrFixture::v19();
    days.begin_time = "11-Feb-23 09:00:05";
    days.end_time = "17-Feb-23 09:00:05";
    days.elapsed_min = "8,640.00";
    days.switches = Some("30");
    days.fg.push(ev(
        "log file switch (checkpoint incomplete)",
        "1",
        "0.1",
        "100.00ms",
    ));
    let got = ids(&days);
    assert!(!got.iter().any(|g| g == "checkpoint-incomplete"), "{got:?}");
}

/// `check --replay` of something a report reader recognises but cannot judge: the report's
/// reason, not the recording reader's guess.
#[test]
fn check_replay_of_a_report_it_cannot_judge_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("awrrpt.html");
    std::fs::write(
        &path,
        "<html><head><title>AWR Compare Period Report for DB: PROD</title></head><body>\n\
         <h1>WORKLOAD REPOSITORY COMPARE PERIOD REPORT</h1><table><tr><th>x</th></tr></table>\n\
         </body></html>\n",
    )
    .unwrap();
    let out = Command::cargo_bin("dgscope")
        .unwrap()
        .env_remove("DGSCOPE_CONFIG")
        .env("XDG_CONFIG_HOME", "/nonexistent")
        .args(["check", "--replay"])
        .arg(&path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    assert!(stdout.starts_with("dgscope check: UNKNOWN"), "{stdout}");
    assert!(stdout.contains("report impact"), "{stdout}");
    assert!(stdout.contains("Compare Periods"), "{stdout}");
    assert!(!stdout.contains("dgscope recording"), "{stdout}");
}

/// A report has no standby side: when commits wait on `SYNC Remote Write`, the remote leg is
/// still named (network or the standby's redo log write, which the report cannot tell
/// apart), with what to measure on the standby. Seed 000's SYNC report (0.95 ms remote)
/// stays under the gate.
#[test]
fn a_report_whose_commits_wait_on_the_remote_leg_names_it() {
    let mut f = seed_000_report(true);
    // Seed 000's slow two-member SRL: SYNC Remote Write 3.45 ms, lfpw 0.62 ms, lfs 4.1 ms.
    f.top_fg = vec![ev("log file sync", "4,752,180", "19,484", "4.10ms")];
    f.fg = vec![ev("log file sync", "4,752,180", "19,484", "4.10ms")];
    f.bg = vec![
        ev("log file parallel write", "1,123,902", "696.8", "620.00us"),
        ev("SYNC Remote Write", "1,123,902", "3,877.5", "3.45ms"),
    ];
    let report = json(&f.render());
    let findings = report["findings"].as_array().unwrap();
    let first = &findings[0];
    assert_eq!(first["id"], "sync-remote-leg", "{report}");
    assert_eq!(first["severity"], "WARN");
    let title = first["title"].as_str().unwrap();
    assert!(
        title.contains("network or the standby's redo log write"),
        "{title}"
    );
    let remote = first["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["metric"] == "SYNC Remote Write avg")
        .unwrap();
    near(&remote["value"], 3.45, 0.01);
    // Nothing that needs the standby's own figures speaks.
    for f in findings {
        let id = f["id"].as_str().unwrap();
        assert!(
            !matches!(id, "standby-redo-write-slow" | "network-latency"),
            "{id}"
        );
    }
    let quiet = json(&seed_000_report(true).render());
    assert!(
        quiet["findings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["id"] != "sync-remote-leg"),
        "{quiet}"
    );
}

/// The ids of a report's findings with their severities.
fn findings_of(report: &Value) -> Vec<(String, String)> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["id"].as_str().unwrap().to_string(),
                f["severity"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// A data-warehouse hour: slow redo writes (12 ms), but commits take 0.001 % of DB time.
/// Commit is not the problem, and no storage finding is made of a path nobody waits on; the
/// same report with an OLTP's DB time blames the writes.
#[test]
fn a_warehouse_window_is_commit_not_the_problem_not_a_storage_finding() {
    let mut f = AwrFixture::v19();
    f.bg = vec![ev("log file parallel write", "72,000", "864", "12.00ms")];
    f.hists.clear();
    f.switches = Some("1");
    let oltp = json(&f.render());
    assert_eq!(
        findings_of(&oltp).first().map(|(id, _)| id.as_str()),
        Some("lgwr-write-slow"),
        "{oltp}"
    );
    // 96 s of log file sync in 200,000 min of DB time.
    f.db_time_min = "200,000.00";
    let dw = json(&f.render());
    let found = findings_of(&dw);
    assert_eq!(
        found,
        [("commit-not-the-problem".to_string(), "INFO".to_string())],
        "{dw}"
    );
    let first = &dw["findings"][0];
    let title = first["title"].as_str().unwrap();
    assert!(
        title.contains("log file sync is 0.001 % of DB time"),
        "{title}"
    );
    // The evidence shows the gate that held, with its threshold, and the commit rate without.
    let ev = first["evidence"].as_array().unwrap();
    let share = ev
        .iter()
        .find(|e| e["metric"] == "foreground log file sync share of DB time")
        .unwrap();
    near(&share["value"], 96.0 / (200_000.0 * 60.0) * 100.0, 1e-6);
    assert_eq!(share["threshold"], "< 0.1 %");
    let rate = ev
        .iter()
        .find(|e| e["metric"] == "user commits per hour of window")
        .unwrap();
    near(&rate["value"], 36_000.0, 1e-6);
    assert!(rate["threshold"].is_null(), "{rate}");
}

/// Two commits in an hour averaging 16 ms are no storage finding either, whatever share of
/// a small DB time they take; an hour with no commit at all is not "commit is not the
/// problem" (idle, or hung).
#[test]
fn two_commits_an_hour_are_not_judged_as_a_commit_path() {
    let mut f = AwrFixture::v19();
    f.db_time_min = "0.01";
    f.top_fg = vec![ev("log file sync", "2", "0.032", "16.00ms")];
    f.fg = vec![ev("log file sync", "2", "0.032", "16.00ms")];
    f.bg = vec![ev("log file parallel write", "110", "1.3", "12.00ms")];
    f.switches = Some("1");
    f.stats = vec![
        ("user commits", "2"),
        ("redo size", "2,000,000"),
        ("redo writes", "110"),
    ];
    f.hists.clear();
    let v = json(&f.render());
    let found = findings_of(&v);
    assert!(
        found.contains(&("commit-not-the-problem".to_string(), "INFO".to_string())),
        "{v}"
    );
    assert!(
        found.iter().all(|(_, s)| s == "INFO"),
        "no WARN/CRIT on two commits: {found:?}"
    );
    let title = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "commit-not-the-problem")
        .unwrap()["title"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(title.contains("2.0 user commits per hour"), "{title}");
    f.stats[0] = ("user commits", "0");
    let none = json(&f.render());
    assert!(
        findings_of(&none)
            .iter()
            .all(|(id, _)| id != "commit-not-the-problem"),
        "{none}"
    );
}

/// A 1 GiB file and a gzip bomb (80 MiB of zeros in a few KB) are refused before they are
/// read whole, in one line naming the limit: `report awr` exits 2, `check --replay` is
/// UNKNOWN. (How long the refusal takes is measured by `cargo bench --bench awr`.)
#[test]
fn a_huge_file_or_a_gzip_bomb_is_refused_in_one_line() {
    use std::io::Write as _;
    let dir = tempfile::tempdir().unwrap();
    let huge = dir.path().join("awrrpt_huge.html");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let bomb = dir.path().join("awrrpt_bomb.html.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..80 {
        gz.write_all(&zeros).unwrap();
    }
    let packed = gz.finish().unwrap();
    assert!(packed.len() < 1 << 20, "a bomb is small: {}", packed.len());
    std::fs::write(&bomb, &packed).unwrap();
    for path in [&huge, &bomb] {
        let (code, _, err) = run_on(&["report", "awr"], path, &[]);
        assert_eq!(code, 2, "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains("more than 64 MiB"), "{err}");
        assert!(err.contains(&path.display().to_string()), "{err}");
        let (code, _, err) = run_on(&["check", "--replay"], path, &[]);
        assert_eq!(code, 3, "{err}");
        assert!(err.contains("more than 64 MiB"), "{err}");
    }
    // The same report gzip'd reads as the plain one.
    let plain = AwrFixture::v19().render();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(plain.as_bytes()).unwrap();
    let small = dir.path().join("awrrpt_1_1200_1201.html.gz");
    std::fs::write(&small, gz.finish().unwrap()).unwrap();
    let (code, _, err) = run_on(&["report", "awr"], &small, &[]);
    assert_eq!(code, 0, "{err}");
}

/// The report as text, written to a `.txt` file and read as JSON.
fn json_text(text: &str) -> Value {
    json_named("awrrpt_1_1200_1201.txt", text)
}

/// An AWR text report (`report_type = text`) reads as the HTML report with the same figures:
/// identity, window, every metric, the histograms, the findings and the warnings, in the 19c
/// and 11.2 layouts and with a section missing. Only `kind` and `source` differ.
#[test]
fn an_awr_text_report_reads_as_the_html_one() {
    let mut missing = AwrFixture::v19();
    missing.omit = vec!["Background Wait Events"];
    let mut long_names = AwrFixture::v112();
    // 26 characters of the event's name are all the text report prints.
    long_names.fg.push(ev(
        "log file switch (checkpoint incomplete)",
        "566",
        "554",
        "979",
    ));
    for f in [AwrFixture::v19(), AwrFixture::v112(), missing, long_names] {
        let mut html = json(&f.render());
        let mut text = json_text(&f.render_text());
        assert_eq!(text["kind"], "awr-text");
        assert_eq!(html["kind"], "awr-html");
        for v in [&mut html, &mut text] {
            let o = v.as_object_mut().unwrap();
            o.remove("kind");
            o.remove("source");
        }
        assert_eq!(
            text,
            html,
            "{:?} layout: text vs HTML\n{}",
            f.layout,
            f.render_text()
        );
    }
}
