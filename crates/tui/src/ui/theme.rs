//! Themes: colour roles read from TOML (`themes/*.toml`, embedded in the binary), mapped to
//! ratatui styles. Truecolor only when the terminal says so; otherwise the nearest of the 256
//! xterm colours, which every terminal a DBA meets over SSH can show.

use ratatui::style::{Color, Modifier, Style};
use std::collections::BTreeMap;

/// What a colour is for. The kebab-case names are the keys of a theme file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    Bg,
    Fg,
    Muted,
    Border,
    BorderFocused,
    Title,
    Ok,
    Warn,
    Crit,
    SeriesLfs,
    SeriesLfpw,
    SeriesRemote,
    SeriesTransport,
    SeriesApply,
    Baseline,
    SelectionFg,
    SelectionBg,
    HeaderFg,
    HeaderBg,
}

impl Role {
    pub const ALL: [Role; 19] = [
        Role::Bg,
        Role::Fg,
        Role::Muted,
        Role::Border,
        Role::BorderFocused,
        Role::Title,
        Role::Ok,
        Role::Warn,
        Role::Crit,
        Role::SeriesLfs,
        Role::SeriesLfpw,
        Role::SeriesRemote,
        Role::SeriesTransport,
        Role::SeriesApply,
        Role::Baseline,
        Role::SelectionFg,
        Role::SelectionBg,
        Role::HeaderFg,
        Role::HeaderBg,
    ];

    pub fn key(self) -> &'static str {
        match self {
            Role::Bg => "bg",
            Role::Fg => "fg",
            Role::Muted => "muted",
            Role::Border => "border",
            Role::BorderFocused => "border-focused",
            Role::Title => "title",
            Role::Ok => "ok",
            Role::Warn => "warn",
            Role::Crit => "crit",
            Role::SeriesLfs => "series-lfs",
            Role::SeriesLfpw => "series-lfpw",
            Role::SeriesRemote => "series-remote",
            Role::SeriesTransport => "series-transport",
            Role::SeriesApply => "series-apply",
            Role::Baseline => "baseline",
            Role::SelectionFg => "selection-fg",
            Role::SelectionBg => "selection-bg",
            Role::HeaderFg => "header-fg",
            Role::HeaderBg => "header-bg",
        }
    }
}

/// The largest theme file read (a theme is a few hundred bytes).
pub const MAX_THEME_BYTES: u64 = 64 * 1024;

/// The built-in themes, in the order `t` cycles through them.
pub const BUILTIN: [(&str, &str); 4] = [
    ("dark", include_str!("../../../../themes/dark.toml")),
    ("light", include_str!("../../../../themes/light.toml")),
    (
        "high-contrast",
        include_str!("../../../../themes/high-contrast.toml"),
    ),
    ("mono", include_str!("../../../../themes/mono.toml")),
];

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ThemeError {
    #[error("theme {theme}: not valid TOML: {message}")]
    Toml { theme: String, message: String },
    #[error("theme {theme}: key {key:?}: {message}")]
    Value {
        theme: String,
        key: String,
        message: String,
    },
    #[error("theme {theme}: cannot read: {message}")]
    Read { theme: String, message: String },
    #[error("unknown theme {0:?}; built-in themes: dark, light, high-contrast, mono")]
    Unknown(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Theme {
    pub name: String,
    /// Bold/reverse/underline carry meaning instead of colour.
    pub mono: bool,
    colors: BTreeMap<Role, Color>,
}

impl crate::app::ThemeName for Theme {
    fn name(&self) -> &str {
        &self.name
    }
}

/// User themes: every `*.toml` in `dir` (the config directory's `themes/`), named after the
/// file. A user theme with a built-in's name replaces it. A missing directory is no error; a
/// bad file is, naming the file.
pub fn load_user_themes(dir: &std::path::Path, truecolor: bool) -> Result<Vec<Theme>, ThemeError> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(Vec::new());
    };
    let mut paths: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    let mut out = Vec::new();
    for p in paths {
        let name = p
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        // Bounded: a theme symlinked to /dev/zero must not fill memory.
        let text = dgscope_model::output::read_bounded(&p, MAX_THEME_BYTES).map_err(|e| {
            ThemeError::Read {
                theme: p.display().to_string(),
                message: e.to_string(),
            }
        })?;
        let mut t = Theme::parse(&p.display().to_string(), &text, truecolor)?;
        t.name = name;
        out.push(t);
    }
    Ok(out)
}

/// Built-in themes with user themes merged in: same name replaces, new names are appended.
pub fn merge(mut builtin: Vec<Theme>, user: Vec<Theme>) -> Vec<Theme> {
    for u in user {
        match builtin.iter_mut().find(|b| b.name == u.name) {
            Some(b) => *b = u,
            None => builtin.push(u),
        }
    }
    builtin
}

/// Whether the terminal announced 24-bit colour (`COLORTERM=truecolor|24bit`).
pub fn truecolor_from_env(colorterm: Option<&str>) -> bool {
    matches!(colorterm, Some(v) if v.eq_ignore_ascii_case("truecolor") || v.eq_ignore_ascii_case("24bit"))
}

impl Theme {
    /// A built-in theme by name.
    pub fn builtin(name: &str, truecolor: bool) -> Result<Theme, ThemeError> {
        let (n, text) = BUILTIN
            .iter()
            .find(|(n, _)| *n == name)
            .ok_or_else(|| ThemeError::Unknown(name.to_string()))?;
        Theme::parse(n, text, truecolor)
    }

    /// All built-in themes (the `t` cycle).
    pub fn all_builtin(truecolor: bool) -> Vec<Theme> {
        BUILTIN
            .iter()
            .filter_map(|(n, t)| Theme::parse(n, t, truecolor).ok())
            .collect()
    }

    /// Parses a theme file. Missing roles fall back to the terminal's defaults, so a user
    /// theme may set only what it changes.
    pub fn parse(name: &str, text: &str, truecolor: bool) -> Result<Theme, ThemeError> {
        let table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| ThemeError::Toml {
                theme: name.to_string(),
                message: e.message().to_string(),
            })?;
        let mut colors = BTreeMap::new();
        let mut mono = false;
        for (key, value) in &table {
            if key == "mono" {
                mono = value.as_bool().ok_or_else(|| ThemeError::Value {
                    theme: name.into(),
                    key: key.clone(),
                    message: "expected true or false".into(),
                })?;
                continue;
            }
            let role = Role::ALL
                .iter()
                .copied()
                .find(|r| r.key() == key)
                .ok_or_else(|| ThemeError::Value {
                    theme: name.into(),
                    key: key.clone(),
                    message: "not a colour role (bg, fg, muted, border, border-focused, title, ok, warn, crit, series-*, baseline, selection-fg/bg, header-fg/bg)".into(),
                })?;
            let color = match value {
                toml::Value::Integer(i) if (0..=255).contains(i) => Some(Color::Indexed(*i as u8)),
                toml::Value::String(s) => parse_color(s, truecolor),
                _ => None,
            }
            .ok_or_else(|| ThemeError::Value {
                theme: name.into(),
                key: key.clone(),
                message: format!("{value:?} is not a colour: use an ANSI name (red, light-blue …), 0-255 or #rrggbb"),
            })?;
            colors.insert(role, color);
        }
        Ok(Theme {
            name: name.to_string(),
            mono,
            colors,
        })
    }

    pub fn color(&self, role: Role) -> Color {
        if self.mono {
            return Color::Reset;
        }
        self.colors.get(&role).copied().unwrap_or(Color::Reset)
    }

    /// Foreground style of a role, with the modifiers the mono theme uses in its place.
    pub fn style(&self, role: Role) -> Style {
        let s = Style::default().fg(self.color(role));
        if !self.mono {
            return match role {
                Role::Crit => s.add_modifier(Modifier::BOLD),
                Role::Title => s.add_modifier(Modifier::BOLD),
                _ => s,
            };
        }
        match role {
            Role::Crit => s.add_modifier(Modifier::BOLD | Modifier::REVERSED),
            Role::Warn | Role::Title | Role::BorderFocused => s.add_modifier(Modifier::BOLD),
            Role::SeriesLfs => s.add_modifier(Modifier::BOLD),
            Role::Baseline => s.add_modifier(Modifier::UNDERLINED),
            _ => s,
        }
    }

    pub fn text(&self) -> Style {
        self.style(Role::Fg)
    }

    pub fn muted(&self) -> Style {
        self.style(Role::Muted)
    }

    /// The whole screen's base style (colours under every cell).
    pub fn base(&self) -> Style {
        Style::default()
            .fg(self.color(Role::Fg))
            .bg(self.color(Role::Bg))
    }

    pub fn selection(&self) -> Style {
        if self.mono {
            return Style::default().add_modifier(Modifier::REVERSED);
        }
        Style::default()
            .fg(self.color(Role::SelectionFg))
            .bg(self.color(Role::SelectionBg))
    }

    pub fn header(&self) -> Style {
        if self.mono {
            return Style::default().add_modifier(Modifier::REVERSED);
        }
        Style::default()
            .fg(self.color(Role::HeaderFg))
            .bg(self.color(Role::HeaderBg))
    }

    pub fn border(&self, focused: bool) -> Style {
        if focused {
            self.style(Role::BorderFocused)
        } else {
            self.style(Role::Border)
        }
    }
}

/// An ANSI name, a 256-colour index or `#rrggbb` (mapped to 256 colours unless `truecolor`).
/// The terminal's background, as far as the environment tells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Background {
    Dark,
    Light,
}

impl Background {
    /// `COLORFGBG` ("15;0", or "15;default;0"; set by rxvt, Konsole, iTerm2 and others): its
    /// last field is the background's ANSI index, 0–6 and 8 dark, 7 and 9–15 light. `None`
    /// when unset or unreadable: nothing is assumed.
    pub fn from_colorfgbg(v: Option<&str>) -> Option<Background> {
        let bg: u8 = v?.rsplit(';').next()?.trim().parse().ok()?;
        match bg {
            0..=6 | 8 => Some(Background::Dark),
            7 | 9..=15 => Some(Background::Light),
            _ => None,
        }
    }
}

impl Theme {
    /// Readable on `bg`: a theme that paints its own background (or has no colour) is
    /// readable anywhere; one on the terminal's default background needs text that contrasts
    /// with it — light text on a dark background, dark text on a light one.
    pub fn suits(&self, bg: Background) -> bool {
        if self.mono || self.color(Role::Bg) != Color::Reset {
            return true;
        }
        match luminance(self.color(Role::Fg)) {
            Some(l) => (l > 0.5) == (bg == Background::Dark),
            None => true,
        }
    }
}

/// Relative brightness 0..1 of a colour (the xterm palette for indexes), `None` for the
/// terminal's own default.
fn luminance(c: Color) -> Option<f64> {
    let rgb = |r: u8, g: u8, b: u8| {
        (0.2126 * f64::from(r) + 0.7152 * f64::from(g) + 0.0722 * f64::from(b)) / 255.0
    };
    let ansi = |i: u8| -> f64 {
        match i {
            0 => 0.0,
            7 => 0.75,
            8 => 0.5,
            15 => 1.0,
            1..=6 => 0.3,
            _ => 0.8,
        }
    };
    Some(match c {
        Color::Reset => return None,
        Color::Rgb(r, g, b) => rgb(r, g, b),
        Color::Indexed(i @ 0..=15) => ansi(i),
        Color::Indexed(i @ 16..=231) => {
            let level = |v: u8| if v == 0 { 0 } else { 55 + v * 40 };
            let i = i - 16;
            rgb(level(i / 36), level(i / 6 % 6), level(i % 6))
        }
        Color::Indexed(i) => rgb(8 + (i - 232) * 10, 8 + (i - 232) * 10, 8 + (i - 232) * 10),
        Color::Black => 0.0,
        Color::DarkGray => 0.5,
        Color::Gray => 0.75,
        Color::White => 1.0,
        Color::Red | Color::Green | Color::Yellow | Color::Blue | Color::Magenta | Color::Cyan => {
            0.3
        }
        _ => 0.8,
    })
}

pub fn parse_color(s: &str, truecolor: bool) -> Option<Color> {
    let s = s.trim();
    if let Some(hex) = s.strip_prefix('#') {
        if hex.len() != 6 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        let v = u32::from_str_radix(hex, 16).ok()?;
        let (r, g, b) = ((v >> 16) as u8, (v >> 8) as u8, v as u8);
        return Some(if truecolor {
            Color::Rgb(r, g, b)
        } else {
            Color::Indexed(nearest_256(r, g, b))
        });
    }
    if let Ok(i) = s.parse::<u8>() {
        return Some(Color::Indexed(i));
    }
    let c = match s.to_ascii_lowercase().replace('_', "-").as_str() {
        "default" | "reset" => Color::Reset,
        "black" => Color::Black,
        "red" => Color::Red,
        "green" => Color::Green,
        "yellow" => Color::Yellow,
        "blue" => Color::Blue,
        "magenta" => Color::Magenta,
        "cyan" => Color::Cyan,
        "gray" | "grey" => Color::Gray,
        "dark-gray" | "dark-grey" => Color::DarkGray,
        "light-red" => Color::LightRed,
        "light-green" => Color::LightGreen,
        "light-yellow" => Color::LightYellow,
        "light-blue" => Color::LightBlue,
        "light-magenta" => Color::LightMagenta,
        "light-cyan" => Color::LightCyan,
        "white" => Color::White,
        _ => return None,
    };
    Some(c)
}

/// The closest xterm-256 colour: the 6×6×6 cube or the 24-step grey ramp, whichever is nearer.
pub fn nearest_256(r: u8, g: u8, b: u8) -> u8 {
    const LEVELS: [i32; 6] = [0, 95, 135, 175, 215, 255];
    let idx = |v: u8| {
        LEVELS
            .iter()
            .enumerate()
            .min_by_key(|(_, l)| (**l - v as i32).abs())
            .map(|(i, _)| i)
            .unwrap_or(0)
    };
    let (ri, gi, bi) = (idx(r), idx(g), idx(b));
    let cube = (LEVELS[ri], LEVELS[gi], LEVELS[bi]);
    let dist = |c: (i32, i32, i32)| {
        let (dr, dg, db) = (c.0 - r as i32, c.1 - g as i32, c.2 - b as i32);
        dr * dr + dg * dg + db * db
    };
    let avg = (r as i32 + g as i32 + b as i32) / 3;
    let gi_ramp = ((avg - 8).max(0) / 10).min(23);
    let grey = 8 + 10 * gi_ramp;
    if dist((grey, grey, grey)) < dist(cube) {
        232 + gi_ramp as u8
    } else {
        16 + (36 * ri + 6 * gi + bi) as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_parses_and_sets_every_role() {
        for (name, text) in BUILTIN {
            let t = Theme::parse(name, text, true).unwrap();
            for r in Role::ALL {
                assert!(t.colors.contains_key(&r), "{name} lacks {}", r.key());
            }
        }
    }

    #[test]
    fn colours_parse_in_all_three_spellings() {
        assert_eq!(parse_color("light-blue", false), Some(Color::LightBlue));
        assert_eq!(parse_color("208", false), Some(Color::Indexed(208)));
        assert_eq!(parse_color("#ff8700", true), Some(Color::Rgb(255, 135, 0)));
        assert_eq!(parse_color("#ff8700", false), Some(Color::Indexed(208)));
        assert_eq!(parse_color("#808080", false), Some(Color::Indexed(244)));
        assert_eq!(parse_color("#12", false), None);
        assert_eq!(parse_color("purple-ish", false), None);
    }

    #[test]
    fn bad_theme_names_the_key() {
        let e = Theme::parse("mine", "warn = \"orangey\"", false).unwrap_err();
        assert!(e.to_string().contains("\"warn\""), "{e}");
        let e = Theme::parse("mine", "wran = \"red\"", false).unwrap_err();
        assert!(e.to_string().contains("not a colour role"), "{e}");
        assert!(Theme::builtin("neon", false).is_err());
    }

    #[test]
    fn mono_has_no_colour_but_marks_crit() {
        let t = Theme::builtin("mono", true).unwrap();
        assert_eq!(t.color(Role::Crit), Color::Reset);
        assert!(t
            .style(Role::Crit)
            .add_modifier
            .contains(Modifier::REVERSED));
    }

    #[test]
    fn user_themes_replace_or_add_and_bad_ones_name_their_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("dark.toml"), "warn = \"red\"").unwrap();
        std::fs::write(dir.path().join("night.toml"), "fg = 250").unwrap();
        std::fs::write(dir.path().join("notes.txt"), "not a theme").unwrap();
        let user = load_user_themes(dir.path(), false).unwrap();
        let all = merge(Theme::all_builtin(false), user);
        let names: Vec<&str> = all.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["dark", "light", "high-contrast", "mono", "night"]);
        assert_eq!(all[0].color(Role::Warn), Color::Red);
        assert_eq!(all[4].color(Role::Fg), Color::Indexed(250));
        std::fs::write(dir.path().join("broken.toml"), "fg = [").unwrap();
        let e = load_user_themes(dir.path(), false).unwrap_err().to_string();
        assert!(e.contains("broken.toml"), "{e}");
        assert!(load_user_themes(&dir.path().join("absent"), false)
            .unwrap()
            .is_empty());
    }

    #[test]
    fn colorfgbg_tells_the_background_and_t_skips_what_is_unreadable_on_it() {
        assert_eq!(
            Background::from_colorfgbg(Some("15;0")),
            Some(Background::Dark)
        );
        assert_eq!(
            Background::from_colorfgbg(Some("15;default;8")),
            Some(Background::Dark)
        );
        assert_eq!(
            Background::from_colorfgbg(Some("0;15")),
            Some(Background::Light)
        );
        assert_eq!(
            Background::from_colorfgbg(Some("0;7")),
            Some(Background::Light)
        );
        assert_eq!(Background::from_colorfgbg(Some("default")), None);
        assert_eq!(Background::from_colorfgbg(None), None);
        for truecolor in [false, true] {
            let t = |name: &str| Theme::builtin(name, truecolor).unwrap();
            assert!(t("dark").suits(Background::Dark) && !t("dark").suits(Background::Light));
            assert!(t("light").suits(Background::Light) && !t("light").suits(Background::Dark));
            for any in ["high-contrast", "mono"] {
                assert!(t(any).suits(Background::Dark) && t(any).suits(Background::Light));
            }
        }
        let names = |bg: Option<&str>, first: &str| -> Vec<String> {
            crate::tui::themes(Some(first), false, false, None, bg)
                .unwrap()
                .into_iter()
                .map(|t| t.name)
                .collect()
        };
        let dark = names(Some("15;0"), "dark");
        assert!(!dark.contains(&"light".to_string()), "{dark:?}");
        assert!(dark.contains(&"high-contrast".to_string()), "{dark:?}");
        // Chosen with --theme, a theme stays first whatever the background.
        assert_eq!(names(Some("15;0"), "light")[0], "light");
        assert!(!names(Some("0;15"), "light").contains(&"dark".to_string()));
        // Unknown background: every theme.
        assert!(names(None, "dark").contains(&"light".to_string()));
    }

    #[test]
    fn truecolor_only_when_announced() {
        assert!(truecolor_from_env(Some("truecolor")));
        assert!(truecolor_from_env(Some("24bit")));
        assert!(!truecolor_from_env(Some("256")));
        assert!(!truecolor_from_env(None));
    }
}
