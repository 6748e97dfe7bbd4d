//! The header line: mode and clock, who is primary and who is standby, how redo travels,
//! protection mode, window, pace, recording and baseline.

use super::theme::Role;
use super::{fmt, Ctx};
use crate::app::{Mode, Pace};
use dgscope_model::sample::{Dest, Sample};
use dgscope_model::source::Checking;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

fn db_name(s: Option<&Sample>, fallback: &str) -> String {
    s.and_then(|s| s.db.as_ref())
        .and_then(|d| d.name.as_deref())
        .unwrap_or(fallback)
        .to_string()
}

fn protection(p: &str) -> &str {
    match p {
        "MAXIMUM AVAILABILITY" => "MaxAvail",
        "MAXIMUM PERFORMANCE" => "MaxPerf",
        "MAXIMUM PROTECTION" => "MaxProt",
        "RESYNCHRONIZATION" => "RESYNC",
        "UNPROTECTED" => "UNPROTECTED",
        other => other,
    }
}

/// The destination on the primary that ships to `standby_name` (by DB_UNIQUE_NAME), or the
/// first remote one.
pub(crate) fn dest_for<'a>(
    primary: Option<&'a Sample>,
    standby_name: Option<&str>,
) -> Option<&'a Dest> {
    let dests = &primary?.dests;
    standby_name
        .and_then(|n| {
            dests
                .iter()
                .find(|d| d.name.as_deref().is_some_and(|x| x.eq_ignore_ascii_case(n)))
        })
        .or_else(|| dests.first())
}

/// One field of the header: dropped (or shortened to `short`) when the line is too long,
/// lowest priority first. Rank 0 is never dropped: mode, clock, speed, the primary, the
/// standby the panes show, REC, baseline and the injected fault.
struct Field<'a> {
    rank: u8,
    spans: Vec<Span<'a>>,
    short: Option<Vec<Span<'a>>>,
    /// A second, lower-priority step: once shortened, the field is shortened again to this
    /// at that rank (an arrow loses AFFIRM first, its mode last).
    then: Option<(u8, Vec<Span<'a>>)>,
}

fn push(
    fields: &mut Vec<Field<'static>>,
    rank: u8,
    spans: Vec<Span<'static>>,
    short: Option<Vec<Span<'static>>>,
) {
    fields.push(Field {
        rank,
        spans,
        short,
        then: None,
    })
}

fn width(spans: &[Span]) -> usize {
    spans.iter().map(|s| s.width()).sum()
}

/// The fields that fit in `room` columns: the lowest-priority ones go first (shortened when
/// they have a short form), whole fields only.
fn fit_fields<'a>(mut fields: Vec<Field<'a>>, room: usize) -> Vec<Span<'a>> {
    let total = |f: &[Field]| f.iter().map(|x| width(&x.spans)).sum::<usize>();
    for rank in (1..=u8::MAX).rev() {
        if total(&fields) <= room {
            break;
        }
        for f in fields.iter_mut().filter(|f| f.rank == rank) {
            f.spans = f.short.take().unwrap_or_default();
            if let Some((r, next)) = f.then.take() {
                f.rank = r;
                f.short = Some(next);
            }
        }
        if rank == 1 {
            break;
        }
    }
    let mut spans: Vec<Span<'a>> = fields.into_iter().flat_map(|f| f.spans).collect();
    // Still too long with only what is never dropped: one space between fields, not two.
    if width(&spans) > room {
        for s in spans.iter_mut() {
            if s.content.starts_with("  ") {
                s.content = s.content[1..].to_string().into();
            }
        }
    }
    spans
}

pub(crate) fn render(frame: &mut Frame, area: Rect, cx: &Ctx, wide: bool) {
    let line = line(cx, wide, area.width as usize);
    frame.render_widget(Paragraph::new(line).style(cx.theme.header()), area);
}

/// The header line for `room` columns.
pub(crate) fn line(cx: &Ctx, wide: bool, room: usize) -> Line<'static> {
    let app = cx.app;
    let t = cx.theme;
    let h = t.header();
    let bold = h.add_modifier(ratatui::style::Modifier::BOLD);
    let e = app.engine();
    let primary = app
        .primary()
        .and_then(|s| e.slot(s))
        .and_then(|s| s.last_good())
        .map(|a| &**a);
    let standby_slot = app.standby();
    let standby = standby_slot
        .and_then(|s| e.slot(s))
        .and_then(|s| s.last_good())
        .map(|a| &**a);
    let mut fields: Vec<Field<'static>> = Vec::new();
    push(&mut fields, 7, vec![Span::styled(" dgscope ", bold)], None);
    // On the fleet board's pair: which pair this is (Esc goes back to the board).
    if let Some(pair) = &app.cfg.pair {
        push(
            &mut fields,
            0,
            vec![Span::styled(format!("[{pair}] "), bold)],
            None,
        );
    }

    // Mode, clock and pace: the clock is the source's (virtual in the demo, the recording's
    // in replay), and the header says so with the speed.
    let mode = match (app.paused_at, app.cfg.mode) {
        (Some(_), _) => "PAUSED".to_string(),
        (None, m) => m.label().to_string(),
    };
    let mode_style = if app.paused_at.is_some() {
        t.style(Role::Warn).bg(t.color(Role::HeaderBg))
    } else {
        bold
    };
    let mut mode_spans = vec![Span::styled(format!(" {mode} "), mode_style)];
    if app.cfg.mode == Mode::Replay && app.ended && app.paused_at.is_none() {
        mode_spans.push(Span::styled("END ", h));
    }
    push(&mut fields, 0, mode_spans, None);
    let mut clock = app.clock().clock();
    if let Some(zone) = dgscope_model::timestamp::zone_label(app.clock()) {
        clock = format!("{clock} {zone}"); // --tz other than UTC: say which zone
    }
    if let (Some(p), Some(latest)) = (app.paused_at, e.latest()) {
        let back = latest.secs_since(p);
        if back > 0.0 {
            clock.push_str(&format!(" (-{})", fmt::dur(back)));
        }
    }
    push(&mut fields, 0, vec![Span::styled(clock, h)], None);
    let x = if cx.ascii { "x" } else { "×" };
    let speed = match app.pace {
        Pace::Speed(s) => format!("{x}{}", trim(s)),
        Pace::Interval(i) => format!("every {} s", i.as_secs().max(1)),
        Pace::Fixed => format!("every {} s", app.cfg.interval.as_secs().max(1)),
    };
    let (pace, short) = match (app.cfg.one_window, app.cfg.mode) {
        // A report is one window, not a pace: say how long it is.
        (Some(w), _) => (
            format!(" report window {}", fmt::dur(w.as_secs_f64())),
            Some(format!(" win {}", fmt::dur(w.as_secs_f64()))),
        ),
        (None, Mode::Demo) => (format!(" simulated {speed}"), Some(format!(" sim {speed}"))),
        (None, Mode::Replay) => (format!(" recorded {speed}"), Some(format!(" rec {speed}"))),
        (None, Mode::Live) => (format!(" {speed}"), None),
    };
    push(
        &mut fields,
        if app.cfg.mode == Mode::Live { 2 } else { 4 },
        vec![Span::styled(pace, h)],
        short.map(|s| vec![Span::styled(s, h)]),
    );
    // A long recording read through behind the screen: how far, or that a line is damaged
    // (playback stops there; the message is said in full on leaving).
    match &app.checking {
        Some(Checking::Reading(p)) => {
            let p = p.map_or_else(String::new, |p| format!(" {p} %"));
            push(
                &mut fields,
                5,
                vec![Span::styled(format!(" checking{p}"), h)],
                None,
            );
        }
        Some(Checking::Damaged { last_good, .. }) => {
            let crit = t.style(Role::Crit).bg(t.color(Role::HeaderBg));
            let at = last_good.map_or_else(String::new, |good| format!(" after {}", good.clock()));
            push(
                &mut fields,
                1,
                vec![Span::styled(format!(" DAMAGED{at}"), crit)],
                Some(vec![Span::styled(" DAMAGED", crit)]),
            );
        }
        Some(Checking::Stopped) => {
            push(
                &mut fields,
                5,
                vec![Span::styled(" not read through", h)],
                None,
            );
        }
        Some(Checking::Whole) | None => {}
    }

    // Topology: primary ══ SYNC AFFIRM ══▶ standby (open mode).
    let pname = db_name(primary, "primary");
    let sname = db_name(
        standby,
        standby_slot.map(|s| s.as_str()).unwrap_or("no standby"),
    );
    let pdb = primary.and_then(|s| s.db.as_ref());
    push(
        &mut fields,
        0,
        vec![Span::styled(format!("  {pname}"), bold)],
        None,
    );
    if wide {
        let role = pdb.and_then(|d| d.role.as_ref()).map(|r| r.to_string());
        let version = pdb.and_then(|d| d.version.as_deref().map(String::from));
        let extra: Vec<String> = [role, version].into_iter().flatten().collect();
        if !extra.is_empty() {
            push(
                &mut fields,
                6,
                vec![Span::styled(format!(" {}", extra.join(" ")), h)],
                None,
            );
        }
    }
    // The whole configuration: every member after the one that sends it redo, the mode
    // of each hop on its arrow. The path to the standby panes 3–4 show is never dropped
    // (its arrows shorten to bare ones); the other members go before the details.
    let topo = super::topology::read(e);
    // An arrow loses AFFIRM/NOAFFIRM first (rank 3) and its mode last (rank 1).
    let arrow_for = |transport: Option<&str>, alarm: bool| {
        let transport = transport.unwrap_or("?");
        let mode = transport.split(' ').next().unwrap_or("?");
        let draw = |m: &str| match (cx.ascii, wide) {
            (true, true) => format!(" == {m} ==> "),
            (true, false) => format!(" ={m}=> "),
            (false, true) => format!(" ══ {m} ══▶ "),
            (false, false) => format!(" ═{m}═▶ "),
        };
        let style = if alarm {
            t.style(Role::Crit).bg(t.color(Role::HeaderBg))
        } else {
            h
        };
        let bare = if cx.ascii { " => " } else { " ▶ " };
        Field {
            rank: 3,
            spans: vec![Span::styled(draw(transport), style)],
            short: Some(vec![Span::styled(draw(mode), style)]),
            then: Some((1, vec![Span::styled(bare, style)])),
        }
    };
    // The chosen standby's role and open mode, right after its name (wide only).
    let standby_extra = || -> Option<Vec<Span<'static>>> {
        if !wide {
            return None;
        }
        let sdb = standby.and_then(|s| s.db.as_ref());
        // A far sync's role is already in its label ("(far sync)").
        let role = sdb
            .and_then(|d| d.role.as_ref())
            .filter(|r| !matches!(r, dgscope_model::sample::Role::FarSync))
            .map(|r| r.to_string());
        let open = sdb
            .and_then(|d| d.open_mode.as_ref())
            .map(|o| format!("({o})"));
        let extra: Vec<String> = [role, open].into_iter().flatten().collect();
        (!extra.is_empty()).then(|| vec![Span::styled(format!(" {}", extra.join(" ")), h)])
    };
    let several = e.standby_slots().len() > 1;
    if topo.members.is_empty() {
        fields.push(arrow_for(None, false));
        push(
            &mut fields,
            0,
            vec![Span::styled(sname.clone(), bold)],
            None,
        );
        if let Some(x) = standby_extra() {
            push(&mut fields, 6, x, None);
        }
    }
    // The chosen standby and the members it receives through.
    let mut on_path: Vec<String> = Vec::new();
    if let Some(mut at) = topo
        .members
        .iter()
        .find(|m| m.slot.is_some() && m.slot.as_ref() == standby_slot)
    {
        on_path.push(at.name.clone());
        while let Some(up) = topo.members.iter().find(|m| m.name == at.parent) {
            on_path.push(up.name.clone());
            at = up;
        }
    }
    for (i, m) in topo.members.iter().enumerate() {
        let path = on_path.contains(&m.name);
        let chosen = m.slot.is_some() && m.slot.as_ref() == standby_slot;
        let arrow = arrow_for(m.transport.as_deref(), m.alarm);
        let name = if chosen && several {
            format!("[{}]", m.name)
        } else {
            m.name.clone()
        };
        let name_style = if chosen { bold } else { h };
        // A new branch from the primary: a comma takes the reader back to it (dropped with
        // the branches it separates).
        if i > 0 && m.depth == 1 {
            push(&mut fields, 4, vec![Span::styled(",", h)], None);
        }
        if path {
            fields.push(arrow);
            // A member the chosen standby receives through gives way (to "…") last.
            let (rank, short) = if chosen {
                (0, None)
            } else {
                (1, Some(vec![Span::styled("…", h)]))
            };
            push(
                &mut fields,
                rank,
                vec![Span::styled(name, name_style)],
                short,
            );
            if m.far_sync {
                push(&mut fields, 2, vec![Span::styled(" (far sync)", h)], None);
            }
            if chosen {
                if let Some(x) = standby_extra() {
                    push(&mut fields, 6, x, None);
                }
            }
        } else {
            let mut spans = arrow.spans;
            spans.push(Span::styled(name, name_style));
            if m.far_sync {
                spans.push(Span::styled(" (far sync)", h));
            }
            push(&mut fields, 4, spans, None);
        }
    }
    if let Some(p) = pdb.and_then(|d| d.protection_mode.as_deref()) {
        push(
            &mut fields,
            5,
            vec![Span::styled(format!("  {}", protection(p)), h)],
            None,
        );
    }

    // Window, recording, baseline, fault.
    push(
        &mut fields,
        2,
        vec![Span::styled(format!("  win {}", app.window_label()), h)],
        None,
    );
    let alarm = t.style(Role::Crit).bg(t.color(Role::HeaderBg));
    if let Some(rec) = &app.recording {
        let dot = if cx.ascii { "*" } else { "●" };
        let name = std::path::Path::new(rec)
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_else(|| rec.clone());
        push(
            &mut fields,
            0,
            vec![Span::styled(format!("  {dot}REC"), alarm)],
            None,
        );
        push(
            &mut fields,
            5,
            vec![Span::styled(format!(" {name}"), alarm)],
            None,
        );
    }
    if let Some(b) = e.baseline() {
        push(
            &mut fields,
            0,
            vec![Span::styled(format!("  base@{}", b.clock()), h)],
            None,
        );
    }
    if let Some(s) = &app.active_scenario {
        push(
            &mut fields,
            0,
            vec![Span::styled(format!("  fault {s}"), h)],
            None,
        );
    }
    Line::from(fit_fields(fields, room))
}

fn trim(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}
