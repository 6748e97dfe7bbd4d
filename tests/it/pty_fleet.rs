//! The fleet board on the real binary (issue 42): `demo --fleet` and `watch --all-profiles`
//! over a config whose profiles are twins and a live pair with no Instant Client here.
//! Enter opens a pair's triage screen, Esc returns to the board on the same pair.

use crate::common;

use common::pty::Tui;

fn board_rows(t: &Tui) -> Vec<String> {
    rows_of(&t.text())
}

/// The pair rows of a board's text (a frame may be caught half drawn: wait for the count).
fn rows_of(text: &str) -> Vec<String> {
    text.lines()
        .skip(2)
        .filter(|l| {
            let s = l.trim_start();
            ["CRIT", "WARN", "OK", "UNKNOWN"]
                .iter()
                .any(|w| s.starts_with(w))
        })
        .map(String::from)
        .collect()
}

/// CRIT above UNKNOWN and WARN above OK.
fn rank(l: &str) -> i32 {
    let s = l.trim_start();
    if s.starts_with("CRIT") {
        3
    } else if s.starts_with("UNKNOWN") || s.starts_with("WARN") {
        2
    } else {
        1
    }
}

/// The board's selected line, as its reverse video or background marks it.
fn selected_line(s: &vt100::Screen) -> Option<String> {
    let (rows, cols) = s.size();
    (2..rows).find_map(|r| {
        let marked = s
            .cell(r, 0)
            .is_some_and(|c| c.inverse() || c.bgcolor() != vt100::Color::Default);
        marked.then(|| {
            (0..cols)
                .filter_map(|c| s.cell(r, c).map(|x| x.contents()))
                .collect()
        })
    })
}

#[test]
fn demo_fleet_lists_pairs_worst_first_and_drills_in_and_back() {
    let mut t = Tui::spawn(&["demo", "--fleet", "6"], 160, 48);
    t.wait_text("dgscope fleet");
    // Each twin pre-rolls its minute on its own thread: on a loaded machine the last pairs
    // are judged a moment after the board opens. Wait until the faulty pair slow-srl (the
    // second drawn) is judged: it is not OK.
    t.wait_for("six judged rows, slow-srl among the faults", |s| {
        let txt = s.contents();
        rows_of(&txt).len() == 6
            && txt.contains("01 healthy-sync")
            && txt.contains("06 ")
            && !txt.contains("connecting")
            && txt
                .lines()
                .any(|l| l.contains("02 slow-srl") && !l.trim_start().starts_with("OK"))
    });
    // Worst first: no OK row above a WARN or CRIT one. Rows move while pairs are judged and
    // a frame may be caught half drawn, so wait for a whole, sorted one.
    t.wait_for("six rows worst first", |s| {
        let rows = rows_of(&s.contents());
        let ranks: Vec<i32> = rows.iter().map(|l| rank(l)).collect();
        rows.len() == 6 && ranks.windows(2).all(|w| w[0] >= w[1])
    });
    // Enter opens the selected pair's screen, with the panes and the pair's name in the
    // header.
    t.send("g");
    t.send("\r");
    t.wait_text("1 Commit path");
    t.wait_text("5 Suggested causes");
    let head = t.text().lines().next().unwrap_or_default().to_string();
    let opened = head
        .split('[')
        .nth(1)
        .and_then(|r| r.split(']').next())
        .unwrap_or_else(|| panic!("no pair name in the header: {head}"))
        .to_string();
    // Keys of the triage screen work there: the help opens and Esc closes it, a second Esc
    // goes back to the board.
    t.send("?");
    t.wait_text("keys (Esc closes)");
    t.send("\x1b");
    t.wait_gone("keys (Esc closes)");
    t.wait_text("1 Commit path");
    t.send("\x1b");
    t.wait_for("the board again, all six rows", |s| {
        let txt = s.contents();
        txt.contains("dgscope fleet") && rows_of(&txt).len() == 6
    });
    // Back on the same pair: the cursor is on the pair that was open.
    let short: String = opened.chars().take(12).collect();
    t.wait_for("the cursor on the pair that was open", |s| {
        selected_line(s).is_some_and(|l| l.contains(short.trim_end_matches('…')))
    });
    // The filter keeps the rows whose name holds the text.
    t.send("/srl\r");
    // The header is drawn before the rows: wait for the whole filtered frame.
    t.wait_for("filtered, one row", |s| {
        let txt = s.contents();
        txt.contains("filter /srl (1 shown)") && rows_of(&txt).len() == 1
    });
    assert_eq!(board_rows(&t).len(), 1, "{}", t.text());
    t.send("\x1b");
    t.wait_for("filter cleared", |s| !s.contents().contains("filter /srl"));
    // `s` sorts by name.
    t.send("s");
    t.wait_for("sorted by name, all six rows", |s| {
        let txt = s.contents();
        txt.contains("sorted name") && rows_of(&txt).len() == 6
    });
    let rows = board_rows(&t);
    assert!(
        rows[0].contains("01 healthy-sync") && rows[5].contains("06 "),
        "{rows:#?}"
    );
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    t.assert_restored();
}

#[test]
fn demo_fleet_fits_80x24() {
    let mut t = Tui::spawn(&["demo", "--fleet", "12"], 80, 24);
    t.wait_for("judged rows", |s| {
        let txt = s.contents();
        txt.contains("dgscope fleet")
            && txt.contains("12 pairs")
            && !txt.contains("connecting")
            && rows_of(&txt).len() == 12
    });
    let text = t.text();
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    t.assert_restored();
}

/// Twin profiles and a live profile in one config: the live pair, with no Instant Client
/// on this machine, is UNKNOWN with its error and the twins run on; no password or
/// connect string with one is shown.
#[test]
fn watch_all_profiles_shows_an_unreachable_pair_as_unknown_beside_the_twins() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("config.toml");
    std::fs::write(
        &cfg,
        "[profiles.east]\nscenario = \"slow-srl\"\n\n[profiles.west]\nscenario = \"healthy-sync\"\n\n\
         [profiles.prod]\nprimary = \"mon@//db1.example.com:1521/prod_a\"\nstandby = [\"mon@//db2.example.com:1521/prod_b\"]\npassword_env = \"DGSCOPE_TEST_PW\"\n",
    )
    .unwrap();
    let mut t = Tui::spawn_env(
        &["--config", cfg.to_str().unwrap(), "watch", "--all-profiles"],
        &[
            ("DGSCOPE_TEST_PW", "s3cret-pw"),
            ("LD_LIBRARY_PATH", "/nonexistent"),
            ("DGSCOPE_ORACLE_CLIENT_DIR", "/nonexistent/instantclient"),
        ],
        160,
        48,
    );
    t.wait_text("dgscope fleet");
    t.wait_for("the three pairs", |s| {
        let txt = s.contents();
        txt.contains("east") && txt.contains("west") && txt.contains("unreachable")
    });
    let text = t.text();
    let prod = board_rows(&t)
        .into_iter()
        .find(|l| l.contains("prod "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(prod.trim_start().starts_with("UNKNOWN"), "{prod}");
    assert!(!text.contains("s3cret-pw"), "{text}");
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    t.assert_restored();
}
