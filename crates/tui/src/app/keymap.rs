//! Keys → actions, as data: built from the defaults in SCREENS.md, overridable with
//! `action = "key"` strings from the config file, and listed live by the help overlay.

use super::action::Action;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::collections::BTreeMap;
use std::fmt;

/// A key with the modifiers that matter. Shift is folded into the character for printable
/// keys (`Q` is `Q`, not `shift-q`), so terminals that do or do not report it agree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyChord {
    pub code: KeyCode,
    pub mods: KeyModifiers,
}

impl KeyChord {
    pub fn new(code: KeyCode, mods: KeyModifiers) -> Self {
        let mut mods = mods & (KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT);
        let code = match code {
            KeyCode::Char(c) => {
                mods.remove(KeyModifiers::SHIFT);
                if mods.contains(KeyModifiers::CONTROL) {
                    KeyCode::Char(c.to_ascii_lowercase())
                } else {
                    KeyCode::Char(c)
                }
            }
            KeyCode::BackTab => {
                mods.remove(KeyModifiers::SHIFT);
                KeyCode::BackTab
            }
            other => other,
        };
        KeyChord { code, mods }
    }

    pub fn from_event(e: &KeyEvent) -> Self {
        KeyChord::new(e.code, e.modifiers)
    }

    /// Parses `q`, `Q`, `ctrl-c`, `shift-tab`, `space`, `enter`, `esc`, `left`, `shift-right`,
    /// `f1`, `?` …
    pub fn parse(s: &str) -> Result<KeyChord, String> {
        let mut mods = KeyModifiers::NONE;
        let mut rest = s.trim();
        if rest.is_empty() {
            return Err("empty key".into());
        }
        loop {
            let lower = rest.to_ascii_lowercase();
            let (m, len) = if lower.starts_with("ctrl-") {
                (KeyModifiers::CONTROL, 5)
            } else if lower.starts_with("alt-") {
                (KeyModifiers::ALT, 4)
            } else if lower.starts_with("shift-") {
                (KeyModifiers::SHIFT, 6)
            } else {
                break;
            };
            if rest.len() == len {
                break; // "-" alone after a modifier is the minus key, handled below
            }
            mods |= m;
            rest = &rest[len..];
        }
        let code = match rest.to_ascii_lowercase().as_str() {
            "tab" if mods.contains(KeyModifiers::SHIFT) => KeyCode::BackTab,
            "tab" => KeyCode::Tab,
            "backtab" => KeyCode::BackTab,
            "enter" | "return" => KeyCode::Enter,
            "esc" | "escape" => KeyCode::Esc,
            "backspace" => KeyCode::Backspace,
            "space" => KeyCode::Char(' '),
            "left" => KeyCode::Left,
            "right" => KeyCode::Right,
            "up" => KeyCode::Up,
            "down" => KeyCode::Down,
            "home" => KeyCode::Home,
            "end" => KeyCode::End,
            "pageup" => KeyCode::PageUp,
            "pagedown" => KeyCode::PageDown,
            "delete" | "del" => KeyCode::Delete,
            f if f.len() >= 2 && f.starts_with('f') && f[1..].parse::<u8>().is_ok() => {
                KeyCode::F(f[1..].parse().unwrap_or(1))
            }
            _ => {
                let mut chars = rest.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => KeyCode::Char(c),
                    _ => return Err(format!("unknown key {s:?} (e.g. q, Q, ctrl-c, shift-tab, space, enter, esc, left, f1)")),
                }
            }
        };
        Ok(KeyChord::new(code, mods))
    }
}

impl fmt::Display for KeyChord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.mods.contains(KeyModifiers::CONTROL) {
            f.write_str("Ctrl-")?;
        }
        if self.mods.contains(KeyModifiers::ALT) {
            f.write_str("Alt-")?;
        }
        if self.mods.contains(KeyModifiers::SHIFT) {
            f.write_str("Shift-")?;
        }
        match self.code {
            KeyCode::Char(' ') => f.write_str("Space"),
            KeyCode::Char(c) => write!(f, "{c}"),
            KeyCode::Tab => f.write_str("Tab"),
            KeyCode::BackTab => f.write_str("Shift-Tab"),
            KeyCode::Enter => f.write_str("Enter"),
            KeyCode::Esc => f.write_str("Esc"),
            KeyCode::Backspace => f.write_str("Bksp"),
            KeyCode::Left => f.write_str("←"),
            KeyCode::Right => f.write_str("→"),
            KeyCode::Up => f.write_str("↑"),
            KeyCode::Down => f.write_str("↓"),
            KeyCode::Home => f.write_str("Home"),
            KeyCode::End => f.write_str("End"),
            KeyCode::PageUp => f.write_str("PgUp"),
            KeyCode::PageDown => f.write_str("PgDn"),
            KeyCode::Delete => f.write_str("Del"),
            KeyCode::F(n) => write!(f, "F{n}"),
            other => write!(f, "{other:?}"),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Keymap {
    keys: BTreeMap<Action, Vec<KeyChord>>,
}

const DEFAULTS: &[(Action, &[&str])] = &[
    (Action::Help, &["?", "h"]),
    (Action::Quit, &["q", "ctrl-c"]),
    (Action::QuitKeepFrame, &["Q"]),
    (Action::FocusNext, &["tab"]),
    (Action::FocusPrev, &["shift-tab"]),
    (Action::Focus(1), &["1"]),
    (Action::Focus(2), &["2"]),
    (Action::Focus(3), &["3"]),
    (Action::Focus(4), &["4"]),
    (Action::Focus(5), &["5"]),
    (Action::Down, &["j", "down"]),
    (Action::Up, &["k", "up"]),
    (Action::Top, &["g", "home"]),
    (Action::Bottom, &["G"]),
    (Action::Enter, &["enter"]),
    (Action::Back, &["esc", "backspace"]),
    (Action::CycleWindow, &["w"]),
    (Action::ToggleScale, &["l"]),
    (Action::SetBaseline, &["b"]),
    (Action::ClearBaseline, &["B"]),
    (Action::Impact, &["i"]),
    (Action::TogglePause, &["p", "space"]),
    (Action::ScrubBack, &["left"]),
    (Action::ScrubForward, &["right"]),
    (Action::ScrubBack10, &["shift-left"]),
    (Action::ScrubForward10, &["shift-right"]),
    (Action::Live, &["end"]),
    (Action::Faster, &["+", "="]),
    (Action::Slower, &["-"]),
    (Action::ToggleRecording, &["r"]),
    (Action::Mark, &["m"]),
    (Action::Copy, &["y"]),
    (Action::Report, &["e"]),
    (Action::CycleTheme, &["t"]),
    (Action::FaultMenu, &["f"]),
    (Action::PrevStandby, &["["]),
    (Action::NextStandby, &["]"]),
    (Action::CycleInstance, &["n"]),
    (Action::Configuration, &["c"]),
    (Action::WaitsNow, &["s"]),
    (Action::Search, &["/"]),
];

impl Default for Keymap {
    fn default() -> Self {
        let mut keys = BTreeMap::new();
        for (a, ks) in DEFAULTS {
            let chords = ks
                .iter()
                .map(|k| KeyChord::parse(k).expect("default key spellings parse"))
                .collect();
            keys.insert(*a, chords);
        }
        Keymap { keys }
    }
}

impl Keymap {
    /// Rebinds `action` to `key` (replacing its default keys). A key another action still has
    /// is refused, naming both (bindings apply in file order: move that action first), so
    /// no action is left without a key; Ctrl-C always quits, whatever is rebound.
    pub fn bind(&mut self, action: &str, key: &str) -> Result<(), String> {
        let a = Action::from_name(action).ok_or_else(|| {
            format!("unknown action {action:?} in [bindings] (e.g. quit, help, pause, baseline)")
        })?;
        let chord = KeyChord::parse(key).map_err(|e| format!("[bindings] {action}: {e}"))?;
        let ctrl_c = KeyChord::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        if chord == ctrl_c && a != Action::Quit {
            return Err(format!(
                "[bindings] {action} = {key:?}: Ctrl-C always quits; choose another key"
            ));
        }
        if let Some(other) = self.action(chord).filter(|o| *o != a) {
            return Err(format!(
                "[bindings] {action} = {key:?} takes {chord}, which {} needs; bind {} to another key first (bindings apply in file order)",
                other.name(),
                other.name()
            ));
        }
        let mut keys = vec![chord];
        if a == Action::Quit && chord != ctrl_c {
            keys.push(ctrl_c);
        }
        self.keys.insert(a, keys);
        Ok(())
    }

    /// Applies `action = "key"` overrides in order.
    pub fn with_overrides<'a>(
        mut self,
        overrides: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Keymap, String> {
        for (a, k) in overrides {
            self.bind(a, k)?;
        }
        Ok(self)
    }

    pub fn action(&self, chord: KeyChord) -> Option<Action> {
        self.keys
            .iter()
            .find(|(_, ks)| ks.contains(&chord))
            .map(|(a, _)| *a)
    }

    pub fn keys_for(&self, a: Action) -> &[KeyChord] {
        self.keys.get(&a).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The first key of an action as text, for the footer ("?" for help).
    pub fn label(&self, a: Action) -> String {
        self.keys_for(a)
            .first()
            .map(|k| k.to_string())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(c: KeyCode, m: KeyModifiers) -> KeyChord {
        KeyChord::new(c, m)
    }

    #[test]
    fn defaults_follow_screens_md() {
        let k = Keymap::default();
        let n = KeyModifiers::NONE;
        assert_eq!(k.action(key(KeyCode::Char('q'), n)), Some(Action::Quit));
        assert_eq!(
            k.action(key(KeyCode::Char('c'), KeyModifiers::CONTROL)),
            Some(Action::Quit)
        );
        // Terminals report `Q` with or without SHIFT: both mean quit-keep-frame.
        assert_eq!(
            k.action(key(KeyCode::Char('Q'), KeyModifiers::SHIFT)),
            Some(Action::QuitKeepFrame)
        );
        assert_eq!(
            k.action(key(KeyCode::Char('Q'), n)),
            Some(Action::QuitKeepFrame)
        );
        assert_eq!(
            k.action(key(KeyCode::BackTab, KeyModifiers::SHIFT)),
            Some(Action::FocusPrev)
        );
        assert_eq!(
            k.action(key(KeyCode::Left, KeyModifiers::SHIFT)),
            Some(Action::ScrubBack10)
        );
        assert_eq!(
            k.action(key(KeyCode::Char(' '), n)),
            Some(Action::TogglePause)
        );
        assert_eq!(k.action(key(KeyCode::Char('3'), n)), Some(Action::Focus(3)));
        assert_eq!(k.action(key(KeyCode::Char('z'), n)), None);
        for a in Action::BINDABLE {
            assert!(!k.keys_for(a).is_empty(), "{} has no key", a.name());
            assert_eq!(Action::from_name(a.name()), Some(a));
        }
    }

    #[test]
    fn overrides_apply_in_order_and_never_orphan_an_action() {
        let k = Keymap::default()
            .with_overrides([("quit", "ctrl-q"), ("help", "q")])
            .unwrap();
        let n = KeyModifiers::NONE;
        assert_eq!(
            k.action(key(KeyCode::Char('q'), KeyModifiers::CONTROL)),
            Some(Action::Quit)
        );
        assert_eq!(k.action(key(KeyCode::Char('q'), n)), Some(Action::Help));
        assert_eq!(k.action(key(KeyCode::Char('?'), n)), None);
        // Ctrl-C still quits after quit was rebound.
        assert_eq!(
            k.action(key(KeyCode::Char('c'), KeyModifiers::CONTROL)),
            Some(Action::Quit)
        );
        // The other order takes q from quit while quit still has it: refused, naming both.
        let e = Keymap::default()
            .with_overrides([("help", "q"), ("quit", "ctrl-q")])
            .unwrap_err();
        assert!(e.contains("help = \"q\" takes q, which quit needs"), "{e}");
        let e = Keymap::default().bind("mark", "?").unwrap_err();
        assert!(e.contains("which help needs"), "{e}");
        let e = Keymap::default().bind("help", "ctrl-c").unwrap_err();
        assert!(e.contains("Ctrl-C always quits"), "{e}");
    }

    #[test]
    fn bad_overrides_say_what_is_wrong() {
        let e = Keymap::default().bind("explode", "x").unwrap_err();
        assert!(e.contains("unknown action"), "{e}");
        let e = Keymap::default().bind("quit", "hyper-x").unwrap_err();
        assert!(e.contains("unknown key"), "{e}");
    }

    #[test]
    fn chords_print_readably() {
        assert_eq!(KeyChord::parse("ctrl-c").unwrap().to_string(), "Ctrl-c");
        assert_eq!(
            KeyChord::parse("shift-tab").unwrap().to_string(),
            "Shift-Tab"
        );
        assert_eq!(KeyChord::parse("-").unwrap().code, KeyCode::Char('-'));
        assert_eq!(KeyChord::parse("f2").unwrap().code, KeyCode::F(2));
    }
}
