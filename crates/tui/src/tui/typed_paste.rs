//! A paste from a terminal without bracketed paste arrives as keys: three alert-log lines
//! pasted after `m` became a note, then three recordings, two reports and a quit (reliability
//! review M4). What a person types reaches us one key per read; a paste arrives as many keys
//! in one read. A batch of keys read together that looks like text is taken as a paste.

use crossterm::event::{Event, KeyCode, KeyEventKind, KeyModifiers};

/// Keys of text in one read from which the batch is text, whatever they are. A person over a
/// slow link may land a few keys in one read; eight distinct keystrokes within one read are
/// not typed.
const TEXT_KEYS: usize = 8;
/// Keys of text in one read from which a line break followed by more text makes it a paste
/// (nobody types Enter and the next line's first key in one read).
const LINE_KEYS: usize = 3;

/// What a key of text stands for, if it is one.
fn text_of(e: &Event) -> Option<char> {
    let Event::Key(k) = e else { return None };
    if k.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    match k.code {
        KeyCode::Char(c) if !ctrl && !k.modifiers.contains(KeyModifiers::ALT) => Some(c),
        // In raw mode a pasted LF arrives as Ctrl-J, a CR as Enter.
        KeyCode::Char('j') if ctrl => Some('\n'),
        KeyCode::Enter => Some('\n'),
        KeyCode::Tab => Some('\t'),
        _ => None,
    }
}

/// When `batch` (events read together) is a paste typed as keys: its text, in order. The
/// caller hands it to the note box as a bracketed paste and runs none of its keys.
pub(crate) fn typed_paste(batch: &[Event]) -> Option<String> {
    // Pasted text is text keys only: an Esc, an arrow or a function key among them means
    // keys typed (or queued while the screen was busy), and the escape filter's business.
    let pressed = |e: &&Event| matches!(e, Event::Key(k) if k.kind != KeyEventKind::Release);
    if batch.iter().filter(pressed).any(|e| text_of(e).is_none()) {
        return None;
    }
    let text: String = batch.iter().filter_map(text_of).collect();
    let keys = text.chars().count();
    // A held key repeating (`jjjjjjjj` over a laggy link) is one keystroke, not text.
    let mut distinct = text.chars();
    let first = distinct.next()?;
    if distinct.all(|c| c == first) {
        return None;
    }
    let line_then_text = text.trim_end_matches('\n').contains('\n');
    (keys >= TEXT_KEYS || (keys >= LINE_KEYS && line_then_text)).then_some(text)
}

/// `batch` with its keys of text replaced by one paste of `text` where the first of them was;
/// mouse, resize and focus events stay, other keys in a paste (an arrow among pasted bytes)
/// are part of it and dropped. A line break that ends the paste is kept as Enter when
/// `enter_ends` (the note box is open: text typed, then Enter, saves it, as a person's would).
pub(crate) fn as_paste(batch: Vec<Event>, text: String, enter_ends: bool) -> Vec<Event> {
    let mut out = Vec::with_capacity(4);
    let ends_in_enter = enter_ends && text.ends_with('\n');
    let mut text = Some(if ends_in_enter {
        text.trim_end_matches('\n').to_string()
    } else {
        text
    });
    for e in batch {
        match e {
            Event::Key(_) => {
                if let Some(t) = text.take() {
                    out.push(Event::Paste(t));
                }
            }
            other => out.push(other),
        }
    }
    if ends_in_enter {
        out.push(Event::Key(crossterm::event::KeyEvent::new(
            KeyCode::Enter,
            KeyModifiers::NONE,
        )));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyEvent;

    fn keys(s: &str) -> Vec<Event> {
        s.chars()
            .map(|c| {
                Event::Key(match c {
                    '\r' => KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE),
                    '\n' => KeyEvent::new(KeyCode::Char('j'), KeyModifiers::CONTROL),
                    c => KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE),
                })
            })
            .collect()
    }

    #[test]
    fn the_review_s_paste_is_text_and_runs_no_key() {
        let pasted = "ORA-16198: timeout\rrecord it, report it\rquit the sequence\r";
        let got = typed_paste(&keys(pasted)).unwrap();
        assert_eq!(got, pasted.replace('\r', "\n"));
        let events = as_paste(keys(pasted), got.clone(), false);
        assert!(matches!(events.as_slice(), [Event::Paste(_)]));
        // In the note box the final line break saves the note: typed text, then Enter.
        let events = as_paste(keys(pasted), got, true);
        assert!(matches!(
            events.as_slice(),
            [Event::Paste(t), Event::Key(k)] if !t.ends_with('\n') && k.code == KeyCode::Enter
        ));
        // Lines ended by LF (Ctrl-J in raw mode) too.
        assert!(typed_paste(&keys("ab\ncd")).is_some());
    }

    #[test]
    fn what_a_person_types_stays_keys() {
        for typed in [
            "q",
            "b",
            "jk",
            "?",
            "m",
            "abc",
            "ab\r",
            "jjjjjjjjjjjj",
            "\r\r\r\r",
        ] {
            assert_eq!(typed_paste(&keys(typed)), None, "{typed:?}");
        }
        // Esc-led sequences' remnants (`ESC ESC O Q` reaches us as Esc, O, Q), even many
        // queued together, are the escape filter's, not a paste.
        let esc = || Event::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
        let mut queued = vec![esc()];
        queued.extend(keys("OQ"));
        queued.push(esc());
        queued.extend(keys("[B"));
        queued.push(esc());
        queued.extend(keys("[1;5A?"));
        assert_eq!(typed_paste(&queued), None);
    }

    #[test]
    fn a_long_single_line_is_text() {
        assert_eq!(typed_paste(&keys("rebuild")), None, "seven keys");
        assert_eq!(typed_paste(&keys("rebuilds")).as_deref(), Some("rebuilds"));
    }

    #[test]
    fn other_events_stay_in_place() {
        let mut batch = vec![Event::Resize(80, 24)];
        batch.extend(keys("pasted text"));
        batch.push(Event::FocusGained);
        let text = typed_paste(&batch).unwrap();
        let out = as_paste(batch, text, true);
        assert!(matches!(
            out.as_slice(),
            [Event::Resize(80, 24), Event::Paste(t), Event::FocusGained] if t == "pasted text"
        ));
    }
}
