//! What arrives in one read of the terminal that no person types in one read (reliability
//! M3), on the real binary in a pseudo-terminal: Esc followed by an F-key or an arrow
//! (`ESC ESC O Q`, `ESC ESC [ B`) must not run the sequence's letters as keys (`Q` quits
//! keeping the frame, `B` clears the baseline). A paste from a terminal without bracketed
//! paste arrives as keys in one read (reliability M4): it is text for the note box, never
//! hotkeys.

use crate::common;

use common::pty::Tui;

/// The demo once the causes engine has judged a few samples: there is data to set a
/// baseline on.
fn demo() -> Tui {
    let mut t = Tui::spawn(&["demo"], 120, 40);
    t.wait_text("No cause above INFO");
    t
}

/// Still running and reading keys: the help opens and closes.
fn alive(t: &mut Tui) {
    t.send("?");
    t.wait_text("keys (Esc closes)");
    t.send("\x1b");
    t.wait_gone("keys (Esc closes)");
}

#[test]
fn esc_then_a_function_key_or_an_arrow_in_one_read_runs_no_letters() {
    let mut t = demo();
    t.send("b");
    t.wait_text("baseline set at");
    // Esc, then F2 (`ESC O Q`) and Esc, then ↓ (`ESC [ B`), each in one write.
    t.send("\x1b\x1bOQ");
    t.send("\x1b\x1b[B");
    t.send("\x1b\x1b[1;5A");
    alive(&mut t);
    assert!(
        t.text().contains("baseline set at") || t.text().contains("base@"),
        "the baseline was cleared:\n{}",
        t.text()
    );
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    t.assert_restored();
}

#[test]
fn a_paste_typed_as_keys_is_text_for_the_note_and_runs_no_hotkey() {
    let dir = tempfile::tempdir().unwrap();
    let mut t = Tui::spawn_in(dir.path(), &["demo"], 120, 40);
    t.wait_text("No cause above INFO");
    t.send("m");
    t.wait_text("note for the timeline");
    // Three alert-log lines as a terminal without bracketed paste sends them: one write,
    // lines ended by CR. As keys, `r` would record, `e` write a report and `q` quit.
    // The lines are the note's text and the final line break saves it, as typing would.
    t.send("ORA-16198: timeout\rrecord it, report it\rquit the sequence\r");
    t.wait_text("note added: ORA-16198: timeout record it, report it quit");
    t.wait_gone("note for the timeline");
    alive(&mut t);
    // Outside the note box a paste does nothing but say so.
    t.send("record and export, then quit\r");
    t.wait_text("paste ignored");
    alive(&mut t);
    let written: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(written.is_empty(), "files written: {written:?}");
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    t.assert_restored();
}

/// A small fixed-seed generator: the same bytes on every run.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Bytes that end or stop the screen by design: `q`, `Q`, Ctrl-C, and Ctrl-Z (suspend),
/// Ctrl-\\.
const ENDS: [u8; 5] = [b'q', b'Q', 0x03, 0x1a, 0x1c];

/// Writes of random bytes and escape-sequence fragments, as `crossterm`'s parser in the real
/// binary reads them from the terminal: the screen never ends, hangs or stops reading keys.
/// The figure is in docs/RELIABILITY.md.
#[test]
fn random_bytes_and_broken_sequences_keep_the_screen_alive() {
    const WRITES: usize = 3000;
    let fragments: [&[u8]; 16] = [
        b"\x1b",
        b"\x1b[",
        b"\x1bO",
        b"\x1b\x1b",
        b"[",
        b"O",
        b"1",
        b";",
        b"5",
        b"~",
        b"A",
        b"B",
        b"\x1b[<0;10;5M",
        b"\x1b[200~",
        b"\xe2\x82",
        b"\r",
    ];
    let dir = tempfile::tempdir().unwrap();
    let mut t = Tui::spawn_in(dir.path(), &["demo"], 100, 30);
    t.wait_text("No cause above INFO");
    let mut rng = XorShift(0x5eed_d65c_09e0_0028);
    let mut sent = 0usize;
    for _ in 0..WRITES {
        let mut write = Vec::new();
        for _ in 0..1 + rng.below(12) {
            if rng.below(10) < 3 {
                write.extend_from_slice(fragments[rng.below(fragments.len())]);
            } else {
                let b = rng.below(256) as u8;
                if !ENDS.contains(&b) {
                    write.push(b);
                }
            }
        }
        sent += write.len();
        t.send_bytes(&write);
        t.pump();
    }
    assert!(sent > 15_000, "{sent} bytes");
    eprintln!("{sent} random bytes in {WRITES} writes");
    // The terminal parser (crossterm's) holds an unfinished bracketed paste until its end
    // and an unfinished SGR mouse report until its `m`: a terminal always sends both whole,
    // so end whichever the random bytes left open. Then whatever they opened (the note box,
    // help, a menu, a drill-down), Esc closes.
    t.send_bytes(b"\x1b[201~");
    std::thread::sleep(std::time::Duration::from_millis(50));
    t.send("m");
    for _ in 0..4 {
        std::thread::sleep(std::time::Duration::from_millis(50));
        t.send("\x1b");
        t.pump();
    }
    // Not straight after an Esc: `ESC ?` in one read is Alt-?. On a loaded machine the
    // screen may read the last Esc and the `?` together all the same, or the random bytes
    // may have left a sequence open that the `?` continues (`?` is a CSI parameter byte):
    // the screen is alive if one of a few `?`, each after an Esc on its own, opens the help.
    let opened = (0..5).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(300));
        t.send("?");
        if t.shows_within("keys (Esc closes)", std::time::Duration::from_secs(3)) {
            return true;
        }
        t.send("\x1b");
        false
    });
    assert!(opened, "no ? opened the help:\n{}", t.text());
    t.send("\x1b");
    t.wait_gone("keys (Esc closes)");
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    t.assert_restored();
}
