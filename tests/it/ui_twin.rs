//! The triage screen on the digital twin with the real causes engine: snapshots of what a DBA
//! sees for seed 000's slow standby redo logs, and the README's screenshot, rendered from the
//! same frame so the README cannot drift from the product.
//!
//! Regenerate after an intended change: `INSTA_UPDATE=always UPDATE_ASSETS=1 cargo test --test it ui_twin::`.

use dgscope::app::{update, Action, Mode};
use dgscope::pipeline::ScreenAssessor;
use dgscope::source::twin::{Scenario, Twin};
use dgscope::source::{PullSource, SourceEvent};
use dgscope::tui::{self, TuiOptions};
use dgscope::ui::{self, theme::Theme, App};
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use ratatui::Terminal;

/// Three minutes of `slow-srl` (seed 7) through the real pipeline, as `dgscope demo` shows it.
fn demo_app(secs: usize) -> App {
    let mut twin = Twin::new(Scenario::SlowSrl, 7);
    let mut opts = TuiOptions::new(Mode::Demo, twin.describe(), twin.interval());
    opts.scenarios = Scenario::names().into_iter().map(String::from).collect();
    // No what-if model: its background thread would make frames depend on timing.
    let assessor = ScreenAssessor::new(None).into_assessor();
    let mut app = tui::build_app(&opts, Theme::all_builtin(true), assessor);
    for _ in 0..secs {
        let tick = twin.next_tick().unwrap();
        for s in tick.samples {
            app.ingest(SourceEvent::Sample(Box::new(s)));
        }
        app.refresh();
    }
    app.status = None;
    app.now = app.engine().latest().unwrap_or_default();
    app
}

fn buffer(app: &App, w: u16, h: u16) -> Buffer {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| ui::draw(f, app)).unwrap();
    t.backend().buffer().clone()
}

fn text(app: &App, w: u16, h: u16) -> String {
    ui::buffer_text(&buffer(app, w, h))
}

#[test]
fn slow_srl_main_screen() {
    let app = demo_app(180);
    let wide = text(&app, 160, 48);
    // The causes engine, not a fixture, put the SRL finding first.
    let first_finding = wide
        .lines()
        .find(|l| l.contains("WARN") || l.contains("CRIT"))
        .unwrap();
    assert!(
        first_finding.contains("Standby redo log writes are slow"),
        "{first_finding}"
    );
    insta::assert_snapshot!("twin_slow_srl_160x48", wide);
    insta::assert_snapshot!("twin_slow_srl_80x24", text(&app, 80, 24));
}

#[test]
fn slow_srl_drill_down() {
    let mut app = demo_app(180);
    for a in [Action::Focus(5), Action::Enter] {
        update(&mut app, a);
    }
    let wide = text(&app, 160, 48);
    assert!(wide.contains("standby-redo-write-slow"));
    assert!(wide.contains("What to check"));
    insta::assert_snapshot!("twin_slow_srl_drill_160x48", wide);
    insta::assert_snapshot!("twin_slow_srl_drill_80x24", text(&app, 80, 24));
}

#[test]
fn readme_screenshot_is_the_real_screen() {
    let app = demo_app(180);
    let svg = to_svg(&buffer(&app, 160, 48));
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/screenshot.svg");
    if std::env::var_os("UPDATE_ASSETS").is_some() {
        std::fs::write(&path, &svg).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == svg,
        "assets/screenshot.svg differs from the screen; regenerate with UPDATE_ASSETS=1 cargo test --test it ui_twin::"
    );
}

/// A terminal frame as SVG: one `<text>` per run of cells with the same style.
fn to_svg(buf: &Buffer) -> String {
    const CW: f64 = 8.4;
    const CH: f64 = 17.0;
    let (w, h) = (buf.area.width, buf.area.height);
    let bg_default = "#1c1c1c";
    let colour = |c: Color, default: &str| -> String {
        match c {
            Color::Reset => default.to_string(),
            Color::Rgb(r, g, b) => format!("#{r:02x}{g:02x}{b:02x}"),
            Color::Indexed(i) => indexed(i),
            named => named_colour(named).to_string(),
        }
    };
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0}\" height=\"{:.0}\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" font-size=\"14\">\n<rect width=\"100%\" height=\"100%\" fill=\"{bg_default}\"/>\n",
        f64::from(w) * CW,
        f64::from(h) * CH
    );
    for y in 0..h {
        let mut x = 0;
        while x < w {
            let cell = &buf[(x, y)];
            let style = (cell.fg, cell.bg, cell.modifier);
            let start = x;
            let mut run = String::new();
            while x < w && {
                let c = &buf[(x, y)];
                (c.fg, c.bg, c.modifier) == style
            } {
                run.push_str(buf[(x, y)].symbol());
                x += 1;
            }
            let (px, py) = (f64::from(start) * CW, f64::from(y) * CH);
            let bg = colour(style.1, bg_default);
            if bg != bg_default {
                out.push_str(&format!(
                    "<rect x=\"{px:.1}\" y=\"{py:.1}\" width=\"{:.1}\" height=\"{CH}\" fill=\"{bg}\"/>\n",
                    f64::from(x - start) * CW
                ));
            }
            if run.trim().is_empty() {
                continue;
            }
            let weight = if style.2.contains(Modifier::BOLD) {
                " font-weight=\"bold\""
            } else {
                ""
            };
            // ASCII runs as one text; other glyphs (braille, box drawing, blocks) come from
            // fallback fonts of other widths, so each is placed on the terminal's grid alone.
            let fill = colour(style.0, "#d0d0d0");
            let y_text = py + CH * 0.78;
            let mut ascii = String::new();
            let mut ascii_x = start;
            let flush = |out: &mut String, text: &mut String, at: u16| {
                if !text.trim().is_empty() {
                    out.push_str(&format!(
                        "<text x=\"{:.1}\" y=\"{y_text:.1}\" fill=\"{fill}\"{weight} xml:space=\"preserve\">{}</text>\n",
                        f64::from(at) * CW,
                        escape(text)
                    ));
                }
                text.clear();
            };
            for (cx, ch) in (start..).zip(run.chars()) {
                if ch.is_ascii() {
                    if ascii.is_empty() {
                        ascii_x = cx;
                    }
                    ascii.push(ch);
                } else {
                    flush(&mut out, &mut ascii, ascii_x);
                    let mut one = ch.to_string();
                    flush(&mut out, &mut one, cx);
                }
            }
            flush(&mut out, &mut ascii, ascii_x);
        }
    }
    out.push_str("</svg>\n");
    out
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn named_colour(c: Color) -> &'static str {
    match c {
        Color::Black => "#000000",
        Color::Red => "#cd3131",
        Color::Green => "#0dbc79",
        Color::Yellow => "#e5e510",
        Color::Blue => "#2472c8",
        Color::Magenta => "#bc3fbc",
        Color::Cyan => "#11a8cd",
        Color::Gray => "#e5e5e5",
        Color::DarkGray => "#666666",
        Color::LightRed => "#f14c4c",
        Color::LightGreen => "#23d18b",
        Color::LightYellow => "#f5f543",
        Color::LightBlue => "#3b8eea",
        Color::LightMagenta => "#d670d6",
        Color::LightCyan => "#29b8db",
        _ => "#ffffff",
    }
}

/// xterm's 256-colour palette.
fn indexed(i: u8) -> String {
    const BASE: [&str; 16] = [
        "#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd", "#00cdcd", "#e5e5e5",
        "#7f7f7f", "#ff0000", "#00ff00", "#ffff00", "#5c5cff", "#ff00ff", "#00ffff", "#ffffff",
    ];
    match i {
        0..=15 => BASE[i as usize].to_string(),
        16..=231 => {
            let n = i - 16;
            let v = |k: u8| if k == 0 { 0 } else { 55 + k * 40 };
            format!("#{:02x}{:02x}{:02x}", v(n / 36), v(n / 6 % 6), v(n % 6))
        }
        _ => {
            let g = 8 + (i - 232) * 10;
            format!("#{g:02x}{g:02x}{g:02x}")
        }
    }
}
