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

/// The row the cursor is on, as the selection's reverse-video marks it.
fn selected_name(t: &Tui, names: &[&str]) -> Option<String> {
    let s = t.screen();
    let (rows, cols) = s.size();
    for r in 2..rows {
        let line: String = (0..cols)
            .filter_map(|c| s.cell(r, c).map(|x| x.contents()))
            .collect();
        let selected = s
            .cell(r, 0)
            .is_some_and(|c| c.inverse() || c.bgcolor() != vt100::Color::Default);
        if selected {
            if let Some(n) = names.iter().find(|n| line.contains(**n)) {
                return Some(n.to_string());
            }
        }
    }
    None
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
    let rows = board_rows(&t);
    assert_eq!(rows.len(), 6, "{}", t.text());
    // Worst first: no OK row above a WARN or CRIT one.
    let rank = |l: &str| {
        let s = l.trim_start();
        if s.starts_with("CRIT") {
            3
        } else if s.starts_with("UNKNOWN") || s.starts_with("WARN") {
            2
        } else {
            1
        }
    };
    let ranks: Vec<i32> = rows.iter().map(|l| rank(l)).collect();
    assert!(ranks.windows(2).all(|w| w[0] >= w[1]), "{rows:#?}");
    // A faulty pair is not OK: slow-srl is the second pair drawn.
    let slow = rows
        .iter()
        .find(|l| l.contains("02 slow-srl"))
        .expect("slow-srl row");
    assert!(!slow.trim_start().starts_with("OK"), "{slow}");
    // The top row is selected; Enter opens its screen, with the panes.
    t.send("g");
    let top = rows[0].split_whitespace().nth(1).unwrap().to_string();
    t.send("\r");
    t.wait_text("1 Commit path");
    t.wait_text("5 Suggested causes");
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
    let names: Vec<String> = board_rows(&t)
        .iter()
        .filter_map(|l| l.split_whitespace().nth(1).map(String::from))
        .collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    assert_eq!(
        selected_name(&t, &names).as_deref(),
        Some(top.as_str()),
        "{}",
        t.text()
    );
    // The filter keeps the rows whose name holds the text.
    t.send("/srl\r");
    t.wait_for("filtered", |s| {
        s.contents().contains("filter /srl (1 shown)")
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
