//! The configuration overview in `check`'s outputs: one row per member as DGMGRL `show
//! configuration` gives it (text), the `overview` object (JSON), and each member's own
//! figures in the performance data. Built from the assessment's [`Overview`] (every member's
//! state at the instant of the verdict) and the window's per-standby figures, so a figure is
//! always printed on its own member's row, never next to another member's.
//!
//! Apply lag is shown net of any DELAY (what `lag-high` judges), the gross figure beside it.
//! A stale member (its newest sample failed) has no figure shown as now: its lags are
//! unknown, and the text says how old its last good word is.

use dgscope_core::causes::{
    ApplyOff, ApplyState, MemberState, Overview, PrimaryState, TransportState,
};
use dgscope_core::pipeline::StandbyMetrics;
use dgscope_model::display::dur;
use serde_json::{json, Value};

/// What a member is called in the text and the performance data: its database name, else
/// its slot.
pub(crate) fn member_label(m: &MemberState) -> &str {
    m.name
        .as_deref()
        .filter(|n| !n.is_empty())
        .unwrap_or(&m.slot)
}

/// The member's apply lag net of its DELAY (never below 0); `None` while unknown, stale, or
/// on a far sync (which applies nothing).
pub(crate) fn net_apply_lag(m: &MemberState) -> Option<f64> {
    if m.apply == ApplyState::NotApplicable {
        return None;
    }
    let lag = m.apply_lag_s.filter(|v| v.is_finite())?;
    Some((lag - m.delay_s.unwrap_or(0.0)).max(0.0))
}

fn rfs_of<'a>(figures: &'a [StandbyMetrics], m: &MemberState) -> Option<&'a StandbyMetrics> {
    figures.iter().find(|f| f.slot == m.slot)
}

fn apply_off_code(o: ApplyOff) -> &'static str {
    match o {
        ApplyOff::SnapshotStandby => "snapshot-standby",
        ApplyOff::BrokerApplyOff => "broker-apply-off",
        ApplyOff::Cancelled => "cancelled",
    }
}

/// The apply state's machine name (`running`, `waiting-for-gap`, `stopped`, `off`,
/// `not-applicable`, `unknown`): the JSON's `apply.state` and the exporter's `state` label.
pub(crate) fn apply_code(a: &ApplyState) -> &'static str {
    match a {
        ApplyState::Running => "running",
        ApplyState::WaitingForGap => "waiting-for-gap",
        ApplyState::Stopped(_) => "stopped",
        ApplyState::Off(_) => "off",
        ApplyState::NotApplicable => "not-applicable",
        ApplyState::Unknown => "unknown",
    }
}

/// The transport state's machine name (`shipping`, `gap`, `error`, `not-shipping`,
/// `standby-down`, `unknown`).
pub(crate) fn transport_code(t: &TransportState) -> &'static str {
    match t {
        TransportState::Shipping => "shipping",
        TransportState::Gap(_) => "gap",
        TransportState::Error { .. } => "error",
        TransportState::NotShipping(_) => "not-shipping",
        TransportState::StandbyDown => "standby-down",
        TransportState::Unknown => "unknown",
    }
}

fn r4(v: Option<f64>) -> Value {
    v.filter(|x| x.is_finite())
        .map_or(Value::Null, |x| json!(super::format::round(x, 4)))
}

fn primary_json(p: &PrimaryState) -> Value {
    json!({
        "name": p.name,
        "as_of": p.as_of,
        "stale": p.stale,
        "protection_mode": p.protection_mode,
        "protection_level": p.protection_level,
        "switchover_status": p.switchover_status,
        "broker": p.broker,
        "force_logging": p.force_logging,
        "flashback_on": p.flashback_on,
        "fsfo": p.fsfo.as_ref().map(|f| json!({
            "status": f.status,
            "enabled": f.enabled(),
            "ready": f.ready(),
            "target": f.target,
            "threshold_s": f.threshold_s,
            "observer_present": f.observer_present,
            "observer_host": f.observer_host,
            "lag_limit_s": f.lag_limit_s,
        })),
    })
}

fn member_json(m: &MemberState, figures: &[StandbyMetrics]) -> Value {
    let (t_detail, retry_at) = match &m.transport {
        TransportState::Gap(g) => (Some(g.clone()), None),
        TransportState::Error { message, retry_at } => (Some(message.clone()), *retry_at),
        TransportState::NotShipping(s) => (Some(s.clone()), None),
        _ => (None, None),
    };
    let a_detail = match &m.apply {
        ApplyState::Stopped(r) => Some(r.clone()),
        ApplyState::Off(o) => Some(apply_off_code(*o).to_string()),
        _ => None,
    };
    json!({
        "slot": m.slot,
        "name": m.name,
        "role": m.role,
        "open_mode": m.open_mode,
        "as_of": m.as_of,
        "stale": m.stale,
        "dest_id": m.dest_id,
        "transport_mode": m.transport_mode,
        "transport": {"state": transport_code(&m.transport), "detail": t_detail, "retry_at": retry_at},
        "apply": {"state": apply_code(&m.apply), "detail": a_detail},
        "transport_lag_s": r4(m.transport_lag_s),
        "apply_lag_s": r4(m.apply_lag_s),
        "delay_s": r4(m.delay_s),
        "apply_lag_net_s": r4(net_apply_lag(m)),
        "apply_finish_s": r4(m.apply_finish_s),
        "rfs_random_io_ms": r4(rfs_of(figures, m).and_then(|f| f.rfs_random_io_ms)),
        "switchover_status": m.switchover_status,
        "intended_state": m.intended_state,
    })
}

/// The `overview` object of `check --format json`.
pub(crate) fn json(o: &Overview, figures: &[StandbyMetrics]) -> Value {
    json!({
        "primary": o.primary.as_ref().map(primary_json),
        "standbys": o.standbys.iter().map(|m| member_json(m, figures)).collect::<Vec<_>>(),
    })
}

const NONE: &str = "–";

fn or_none(v: Option<&str>) -> String {
    v.filter(|s| !s.trim().is_empty())
        .unwrap_or(NONE)
        .to_string()
}

fn lag_cell(v: Option<f64>) -> String {
    v.filter(|x| x.is_finite()).map_or(NONE.to_string(), dur)
}

/// The configuration block of `check`'s text: a line on the primary's protection and
/// fast-start failover, one row per member, and a note per delayed or stale member. Empty
/// when nothing is known about any member.
pub(crate) fn text(o: &Overview, figures: &[StandbyMetrics]) -> String {
    use super::text::{plain, Block};
    if o.primary.is_none() && o.standbys.is_empty() {
        return String::new();
    }
    let mut head_parts: Vec<String> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let mut rows: Vec<Vec<String>> = Vec::new();
    if let Some(p) = &o.primary {
        match (&p.protection_mode, &p.protection_level) {
            (Some(m), Some(l)) if m.trim().eq_ignore_ascii_case(l.trim()) => {
                head_parts.push(format!("protection {m}"))
            }
            (Some(m), Some(l)) => head_parts.push(format!("protection {m}, level {l}")),
            (Some(m), None) => head_parts.push(format!("protection {m}")),
            (None, Some(l)) => head_parts.push(format!("protection level {l}")),
            (None, None) => {}
        }
        if let Some(f) = p.fsfo.as_ref() {
            if f.enabled() {
                let mut s = format!("fast-start failover {}", f.status.trim());
                if let Some(t) = &f.target {
                    s.push_str(&format!(", target {t}"));
                }
                match (f.observer_present, &f.observer_host) {
                    (Some(true), Some(h)) => s.push_str(&format!(", observer on {h}")),
                    (Some(true), None) => s.push_str(", observer present"),
                    (Some(false), _) => s.push_str(", NO observer"),
                    (None, _) => {}
                }
                if let Some(t) = f.threshold_s {
                    s.push_str(&format!(", threshold {t} s"));
                }
                if let Some(l) = f.lag_limit_s {
                    s.push_str(&format!(", lag limit {l} s"));
                }
                head_parts.push(s);
            } else {
                head_parts.push("fast-start failover disabled".into());
            }
        }
        let name = or_none(p.name.as_deref());
        rows.push(vec![
            name.clone(),
            "PRIMARY".into(),
            NONE.into(),
            NONE.into(),
            NONE.into(),
            NONE.into(),
            NONE.into(),
            NONE.into(),
            NONE.into(),
            or_none(p.switchover_status.as_deref().filter(|_| !p.stale)),
        ]);
        if p.stale {
            notes.push(stale_note(&name, p.as_of));
        }
    }
    for m in &o.standbys {
        let label = member_label(m).to_string();
        let net = net_apply_lag(m);
        rows.push(vec![
            label.clone(),
            or_none(m.role.as_deref()),
            or_none(m.transport_mode.as_deref()),
            m.transport.label().to_string(),
            m.apply.label().to_string(),
            lag_cell(m.transport_lag_s),
            lag_cell(net),
            lag_cell(m.apply_finish_s),
            rfs_of(figures, m)
                .and_then(|f| f.rfs_random_io_ms)
                .map_or(NONE.to_string(), |v| {
                    format!("{} ms", dgscope_model::display::ms(v))
                }),
            or_none(m.switchover_status.as_deref()),
        ]);
        if m.stale {
            notes.push(stale_note(&label, m.as_of));
        } else if let Some(d) = m.delay_s.filter(|d| *d > 0.0) {
            notes.push(format!(
                "{label}: apply delayed on purpose by {} (DELAY); its apply lag {} is net of it ({} gross)",
                dur(d),
                lag_cell(net),
                lag_cell(m.apply_lag_s)
            ));
        }
    }
    let mut out = String::from("configuration");
    if !head_parts.is_empty() {
        out.push_str(": ");
        out.push_str(&head_parts.join("; "));
    }
    out.push('\n');
    let head = [
        "member",
        "role",
        "mode",
        "transport",
        "apply",
        "transport lag",
        "apply lag (net)",
        "apply finish",
        "RFS random i/o",
        "switchover",
    ]
    .map(String::from)
    .to_vec();
    for l in plain(&[Block::Table { head, rows }]).lines() {
        out.push_str("  ");
        out.push_str(l);
        out.push('\n');
    }
    for n in notes {
        out.push_str("  ");
        out.push_str(&dgscope_model::sanitize::field(&n));
        out.push('\n');
    }
    out
}

fn stale_note(label: &str, as_of: Option<dgscope_model::timestamp::Timestamp>) -> String {
    match as_of {
        Some(t) => format!(
            "{label}: stale, not answering; its last good sample is as of {}: no figure of it is shown as now",
            t.text()
        ),
        None => format!("{label}: no sample yet: nothing of it is known"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dgscope_core::causes::Fsfo;

    fn member(name: &str) -> MemberState {
        MemberState {
            slot: "standby".into(),
            name: Some(name.into()),
            role: Some("PHYSICAL STANDBY".into()),
            open_mode: Some("MOUNTED".into()),
            as_of: None,
            stale: false,
            dest_id: Some(2),
            transport_mode: Some("ASYNC".into()),
            transport: TransportState::Shipping,
            apply: ApplyState::Running,
            transport_lag_s: Some(12.0),
            apply_lag_s: Some(1900.0),
            apply_finish_s: Some(40.0),
            delay_s: Some(1800.0),
            switchover_status: Some("NOT ALLOWED".into()),
            intended_state: None,
        }
    }

    #[test]
    fn the_block_names_protection_fsfo_and_each_member_with_its_net_apply_lag() {
        let o = Overview {
            primary: Some(PrimaryState {
                name: Some("prod_a".into()),
                protection_mode: Some("MAXIMUM AVAILABILITY".into()),
                protection_level: Some("RESYNCHRONIZATION".into()),
                switchover_status: Some("TO STANDBY".into()),
                fsfo: Some(Fsfo {
                    status: "TARGET OVER LAG LIMIT".into(),
                    target: Some("prod_b".into()),
                    threshold_s: Some(30),
                    observer_present: Some(false),
                    observer_host: None,
                    lag_limit_s: Some(30),
                }),
                ..PrimaryState::default()
            }),
            standbys: vec![member("prod_b")],
        };
        let t = text(&o, &[]);
        let first = t.lines().next().unwrap();
        assert!(
            first.contains("protection MAXIMUM AVAILABILITY, level RESYNCHRONIZATION"),
            "{t}"
        );
        assert!(
            first.contains("fast-start failover TARGET OVER LAG LIMIT, target prod_b, NO observer"),
            "{t}"
        );
        let row = t.lines().find(|l| l.contains("prod_b  ")).unwrap();
        assert!(row.contains("1m40s"), "net of the 30 min DELAY: {row}");
        assert!(!row.contains("31m"), "{row}");
        assert!(t.contains("apply delayed on purpose by 30m00s"), "{t}");
        assert!(!t.contains('|'), "{t}");
        let v = json(&o, &[]);
        assert_eq!(v["standbys"][0]["apply_lag_net_s"], 100.0);
        assert_eq!(v["standbys"][0]["apply_lag_s"], 1900.0);
        assert_eq!(v["primary"]["fsfo"]["ready"], false);
        assert_eq!(v["primary"]["fsfo"]["observer_present"], false);
        assert!(v["primary"]["fsfo"]["observer_host"].is_null());
    }

    #[test]
    fn a_far_sync_has_no_apply_lag_and_unknowns_are_null() {
        let mut m = member("prod_fs");
        m.apply = ApplyState::NotApplicable;
        m.delay_s = None;
        m.apply_finish_s = None;
        assert_eq!(net_apply_lag(&m), None);
        let v = json(
            &Overview {
                primary: None,
                standbys: vec![m],
            },
            &[],
        );
        assert!(v["primary"].is_null());
        let s = &v["standbys"][0];
        assert!(s["apply_lag_net_s"].is_null() && s["delay_s"].is_null());
        assert!(s["apply_finish_s"].is_null() && s["rfs_random_io_ms"].is_null());
        assert_eq!(s["apply"]["state"], "not-applicable");
    }
}
