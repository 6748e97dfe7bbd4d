//! Where DB time goes when it is not the commit path (docs/FINDINGS.md,
//! `db-time-elsewhere`): "there is always something that has to be top", so the first
//! question is whether commits matter at all. dgscope names the top of DB time, DB CPU and
//! the foreground waits by share; it diagnoses no further.

use super::spec::{Reads, RuleSpec, BASE};
use super::{ev, weigh, Draft};
use crate::causes::context::Context;
use crate::causes::finding::{Finding, Severity};
use crate::causes::impact::{FindingKind, Impact, Symptom};
use crate::causes::thresholds::Thresholds;
use crate::causes::verify::VerifyKey as V;
use dgscope_model::sample::names::{event, time_model};
use std::collections::BTreeMap;

pub(super) const DB_TIME_ELSEWHERE: &str = "db-time-elsewhere";

/// This family's rules, registered (see [`super::spec`]).
pub(super) const RULES: &[RuleSpec] = &[RuleSpec {
    id: DB_TIME_ELSEWHERE,
    eval: db_time_elsewhere,
    severity: "INFO",
    finding: FindingKind::Info,
    reads: &[Reads::Window],
    verify: &[V::TopWaits],
    ..BASE
}];

/// How many of the top items the finding names.
const NAMED: usize = 3;

pub(super) fn db_time_elsewhere(ctx: &Context, th: &Thresholds) -> Option<Finding> {
    let d = ctx.p()?;
    let db = d.db_time_s()?;
    let commits = d.lfs_fg().map_or(0.0, |x| x.2 / 1e6);
    let stalls = weigh::redo_stall_s(d);
    let ours = ((commits + stalls) / db).clamp(0.0, 1.0);
    if ours * 100.0 >= th.db_time_elsewhere_pct {
        return None;
    }
    // What takes it instead: DB CPU, and the foreground waits read with their wait class
    // (the top of the database's waits, never idle ones) other than the commit path's.
    let mut items: Vec<(String, Option<String>, f64)> = Vec::new();
    if let Some(cpu) = d.time_model_s(time_model::DB_CPU) {
        items.push(("DB CPU".into(), None, cpu));
    }
    for (name, class) in &d.classes {
        if class.trim().eq_ignore_ascii_case("Idle") || name.as_str() == event::LOG_FILE_SYNC {
            continue;
        }
        let secs = weigh::fg_secs(d, name);
        if secs > 0.0 && !weigh::is_redo_stall(name) {
            items.push((name.to_string(), Some(class.to_string()), secs));
        }
    }
    items.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)));
    if items.is_empty() {
        return None;
    }
    let share = |s: f64| (s / db * 100.0).clamp(0.0, 100.0);
    let mut classes: BTreeMap<&str, f64> = BTreeMap::new();
    for (_, c, s) in &items {
        if let Some(c) = c {
            *classes.entry(c.as_str()).or_default() += s;
        }
    }
    let top_class = classes
        .into_iter()
        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(a.0)));
    let mut evidence = vec![
        ev(
            "DB time (average active sessions)",
            db / d.secs.max(1e-9),
            "",
            None,
            "V$SYS_TIME_MODEL",
        ),
        ev(
            "commit path and redo stalls, share of DB time",
            ours * 100.0,
            "%",
            Some(format!("< {} %", th.db_time_elsewhere_pct)),
            "V$SYSTEM_EVENT, V$SYS_TIME_MODEL",
        ),
    ];
    for (name, class, secs) in items.iter().take(NAMED) {
        evidence.push(ev(
            &match class {
                Some(c) => format!("{name} ({c}), share of DB time"),
                None => format!("{name}, share of DB time"),
            },
            share(*secs),
            "%",
            None,
            if class.is_some() {
                "V$SYSTEM_EVENT"
            } else {
                "V$SYS_TIME_MODEL"
            },
        ));
    }
    if let Some((c, s)) = top_class {
        evidence.push(ev(
            &format!("wait class {c} (its events above), share of DB time"),
            share(s),
            "%",
            None,
            "V$SYSTEM_EVENT",
        ));
    }
    let named: Vec<String> = items
        .iter()
        .take(NAMED)
        .map(|(n, _, s)| {
            format!(
                "{n} {}",
                dgscope_model::display::evidence_value(share(*s), "%")
            )
        })
        .collect();
    Some(
        Draft {
            id: DB_TIME_ELSEWHERE,
            severity: Severity::Info,
            title: format!(
                "DB time goes elsewhere: commits and redo stalls take {} of it; {}",
                dgscope_model::display::evidence_value(ours * 100.0, "%"),
                named.join(", ")
            ),
            evidence,
            meaning: "The commit path and Data Guard explain little of the database's time: whatever the commit findings say, making commits faster would barely be felt. The top of DB time is named here so you know where to look; dgscope does not diagnose it.",
            advice: &[
                "Look where DB time goes: the top events and the SQL behind them (AWR's Top Events and SQL ordered by Elapsed Time, or ASH where licensed).",
                "Weigh the commit and Data Guard findings by their share of DB time, which each one states.",
            ],
            impact: Impact::of(
                Symptom::DbTime,
                Some((1.0 - ours) * db),
                Some(db),
                Some(1.0),
            ),
        }
        .finish(ctx),
    )
}
