//! A finding's impact and the window's decompositions as every JSON output writes them
//! (`check`, `report awr`, the incident report): one writer, so each figure is written one
//! way (docs/JSON.md).

use super::format::round;

/// A finding's impact as every JSON output writes it (docs/JSON.md): the symptom, what the
/// finding explains of it in the symptom's unit, its share and its share of DB time; `null`
/// where not known, never 0.
pub(crate) fn impact_json(i: &dgscope_core::causes::Impact) -> serde_json::Value {
    let r = |v: Option<f64>| v.map(|x| round(x, 4));
    serde_json::json!({
        "symptom": i.symptom,
        "amount": r(i.amount),
        "unit": i.unit,
        "of": r(i.of),
        "share": r(i.share),
        "db_time_share": r(i.db_time_share),
        "standby": i.standby,
        "instance": i.instance,
    })
}

pub(crate) fn commit_json(c: &dgscope_core::causes::CommitDecomposition) -> serde_json::Value {
    let r = |v: f64| round(v, 4);
    let o = |v: Option<f64>| v.map(|x| round(x, 4));
    let mut v = serde_json::json!({
        "amount": r(c.amount),
        "unit": c.unit,
        "waits": c.waits,
        "db_time_share": o(c.db_time_share),
        "write_ms": r(c.write_ms),
        "local_write_ms": o(c.local_ms),
        "sync_remote_write_ms": o(c.remote_ms),
        "rfs_write_ms": o(c.rfs_ms),
        "tail": c.tail.map(|t| serde_json::json!({
            "p50_ms": r(t.p50_ms),
            "p99_ms": r(t.p99_ms),
            "threshold_ms": r(t.threshold_ms),
            "wait_share": r(t.wait_share),
            "time_share": r(t.time_share),
            "stall_ms": r(t.stall_ms),
            "cause": t.cause.as_str(),
        })),
        "components": c.components.iter().map(|p| serde_json::json!({
            "name": p.part.as_str(),
            "amount": r(p.amount),
        })).collect::<Vec<_>>(),
    });
    if !c.instances.is_empty() {
        v["instances"] = c
            .instances
            .iter()
            .map(|(id, i)| (id.to_string(), commit_json(i)))
            .collect::<serde_json::Map<_, _>>()
            .into();
    }
    v
}

fn split_json<P: Copy + PartialEq>(
    s: &dgscope_core::causes::Split<P>,
    name: impl Fn(P) -> &'static str,
) -> serde_json::Value {
    serde_json::json!({
        "amount": round(s.amount, 3),
        "unit": s.unit,
        "components": s.components.iter().map(|c| serde_json::json!({
            "name": name(c.name),
            "amount": round(c.amount, 3),
        })).collect::<Vec<_>>(),
    })
}

/// The window's decompositions as every JSON output writes them (docs/JSON.md): the commit
/// split into its parts (and per RAC instance), each standby's lags split by state; `null`
/// where not known.
pub(crate) fn decomposition_json(d: &dgscope_core::causes::Decomposition) -> serde_json::Value {
    use dgscope_core::causes::{ApplyPart, TransportPart};
    serde_json::json!({
        "commit": d.commit.as_ref().map(commit_json),
        "lag": d.lag.iter().map(|(slot, l)| (slot.clone(), serde_json::json!({
            "transport": l.transport.as_ref().map(|s| split_json(s, TransportPart::as_str)),
            "apply": l.apply.as_ref().map(|s| split_json(s, ApplyPart::as_str)),
        }))).collect::<serde_json::Map<_, _>>(),
    })
}

/// A part's name as a DBA reads it in a table: "local write", "remote: RFS write".
fn part_label(p: dgscope_core::causes::CommitPart) -> &'static str {
    use dgscope_core::causes::CommitPart as P;
    match p {
        P::LocalWrite => "local write (log file parallel write)",
        P::RemoteNetwork => "remote leg: network",
        P::RemoteRfs => "remote leg: standby RFS write",
        P::RemoteLeg => "remote leg (network and standby write)",
        P::RacBroadcast => "RAC broadcast ack",
        P::Tail => "tail (a few long waits)",
        P::AdaptivePolling => "after the writes: adaptive polling",
        P::CpuScheduling => "after the writes: CPU scheduling",
        P::Unexplained => "after the writes: unexplained",
    }
}

/// The commit decomposition as table rows: part, ms, share of `log file sync`.
pub(crate) fn commit_rows(c: &dgscope_core::causes::CommitDecomposition) -> Vec<Vec<String>> {
    let share = |v: f64| {
        if c.amount > 0.0 {
            dgscope_model::display::evidence_value(v / c.amount * 100.0, "%")
        } else {
            "–".into()
        }
    };
    let mut rows: Vec<Vec<String>> = c
        .components
        .iter()
        .map(|p| {
            vec![
                part_label(p.part).to_string(),
                dgscope_model::display::ms(p.amount),
                share(p.amount),
            ]
        })
        .collect();
    rows.push(vec![
        "log file sync (foreground average)".into(),
        dgscope_model::display::ms(c.amount),
        c.db_time_share.map_or("–".into(), |d| {
            format!(
                "{} of DB time",
                dgscope_model::display::evidence_value(d * 100.0, "%")
            )
        }),
    ]);
    rows
}

/// One line: "log file sync 2.98 ms = local 0.69 + network 0.04 + RFS 0.07 + tail 1.63 +
/// other 0.55 ms; 12 % of DB time".
pub fn commit_line(c: &dgscope_core::causes::CommitDecomposition) -> String {
    // The parts that hold something, as the screen's bar shows them.
    let parts: Vec<String> = c
        .components
        .iter()
        .filter(|p| p.part == dgscope_core::causes::CommitPart::LocalWrite || p.amount >= 0.005)
        .map(|p| {
            format!(
                "{} {}",
                p.part.label(),
                dgscope_model::display::ms(p.amount)
            )
        })
        .collect();
    let mut s = format!(
        "log file sync {} ms = {} ms",
        dgscope_model::display::ms(c.amount),
        parts.join(" + ")
    );
    if let Some(d) = c.db_time_share {
        s.push_str(&format!(
            "; {} of DB time",
            dgscope_model::display::evidence_value(d * 100.0, "%")
        ));
    }
    s
}

/// One line of a lag's parts: "apply lag 29m02s = transport 1.0 s + off-by-design 29m01s".
pub fn lag_line<P: Copy + PartialEq>(
    what: &str,
    s: &dgscope_core::causes::Split<P>,
    name: impl Fn(P) -> &'static str,
) -> String {
    let parts: Vec<String> = s
        .components
        .iter()
        .filter(|c| c.amount > 0.0)
        .map(|c| format!("{} {}", name(c.name), dgscope_model::display::dur(c.amount)))
        .collect();
    format!(
        "{what} {} = {}",
        dgscope_model::display::dur(s.amount),
        if parts.is_empty() {
            "nothing".to_string()
        } else {
            parts.join(" + ")
        }
    )
}

/// The decomposition line a finding's impact is a part of, for the drill-down and the
/// report's finding: the commit's parts (its instance's on RAC) or its standby's lag.
pub fn arithmetic(
    f: &dgscope_core::causes::Finding,
    d: &dgscope_core::causes::Decomposition,
) -> Option<String> {
    use dgscope_core::causes::{ApplyPart, Symptom, TransportPart};
    match f.impact.symptom {
        Symptom::Commit => d
            .commit
            .as_ref()?
            .of_instance(f.impact.instance)
            .map(commit_line),
        Symptom::TransportLag | Symptom::ApplyLag => {
            let slot = f.impact.standby.as_ref()?;
            let l = d.lag.get(slot)?;
            if f.impact.symptom == Symptom::TransportLag {
                l.transport
                    .as_ref()
                    .map(|s| lag_line("transport lag", s, TransportPart::as_str))
            } else {
                l.apply
                    .as_ref()
                    .map(|s| lag_line("apply lag", s, ApplyPart::as_str))
            }
        }
        _ => None,
    }
}
