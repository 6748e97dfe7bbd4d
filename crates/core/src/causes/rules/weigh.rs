//! How much of its symptom a finding explains, read from the window's one decomposition
//! (`causes::decomposition`): each rule names the part it owns and its healthy reference
//! here, and the engine ranks and gates by the answer (docs/FINDINGS.md, "Impact").

use crate::causes::context::Context;
use crate::causes::decomposition::{
    ApplyPart, CommitDecomposition, CommitPart, TailCause, TransportPart,
};
use crate::causes::impact::{Impact, Symptom};
use crate::causes::state::lags;
use crate::causes::thresholds::Thresholds;
use crate::metrics::Delta;
use dgscope_model::sample::names::event;

/// The commit parts `part` own above `reference` ms, of instance `inst`'s commits (the
/// cluster's with `None`).
pub(crate) fn commit(
    ctx: &Context,
    th: &Thresholds,
    inst: Option<u32>,
    owned: impl FnOnce(&CommitDecomposition) -> f64,
) -> Impact {
    match ctx.commit(th).and_then(|c| c.of_instance(inst)) {
        Some(c) => Impact::of(
            Symptom::Commit,
            Some(owned(c)),
            Some(c.amount),
            c.db_time_share,
        )
        .for_instance(inst),
        None => Impact::of(Symptom::Commit, None, ctx.lfs(), None).for_instance(inst),
    }
}

/// The commit symptom with nothing of it explained (an information finding).
pub(crate) fn commit_context(ctx: &Context, th: &Thresholds) -> Impact {
    match ctx.commit(th) {
        Some(c) => Impact::of(Symptom::Commit, None, Some(c.amount), c.db_time_share),
        None => Impact::of(Symptom::Commit, None, ctx.lfs(), None),
    }
}

/// `part` above `reference` ms.
pub(crate) fn above(c: &CommitDecomposition, part: CommitPart, reference: f64) -> f64 {
    (c.part(part) - reference).max(0.0)
}

/// The tail part when the window names `cause` as what makes it (0 otherwise).
pub(crate) fn tail_of_cause(c: &CommitDecomposition, cause: TailCause) -> f64 {
    match c.tail {
        Some(t) if t.cause == cause => c.part(CommitPart::Tail),
        _ => 0.0,
    }
}

/// The healthy post-wake rest: LGWR's group-commit queueing, about half the write a commit
/// arrives behind (`group_commit_queue_ratio`).
pub(crate) fn queueing(c: &CommitDecomposition, th: &Thresholds) -> f64 {
    th.group_commit_queue_ratio * c.write_ms
}

fn slot(ctx: &Context) -> Option<String> {
    ctx.standby_slot.as_ref().map(|s| s.to_string())
}

/// The transport lag's part `part` (all of it with `None`).
pub(crate) fn transport(ctx: &Context, th: &Thresholds, part: Option<TransportPart>) -> Impact {
    let t = lags(ctx, th).transport.as_ref();
    Impact::of(
        Symptom::TransportLag,
        t.map(|s| part.map_or(s.amount, |p| s.part(p))),
        t.map(|s| s.amount),
        None,
    )
    .for_standby(slot(ctx))
}

/// The apply lag's parts `parts` (all of it, net of any delay, with none): the symptom is
/// the lag net of DELAY.
pub(crate) fn apply(ctx: &Context, th: &Thresholds, parts: &[ApplyPart]) -> Impact {
    let l = lags(ctx, th);
    let net = l.apply_net();
    let amount = if parts.is_empty() {
        net
    } else {
        l.apply
            .as_ref()
            .map(|a| parts.iter().map(|p| a.part(*p)).sum())
    };
    Impact::of(Symptom::ApplyLag, amount, net, None).for_standby(slot(ctx))
}

/// Stall waits on the redo path: what sessions wait in the foreground when they cannot
/// generate redo (no room in the log buffer, a log switch not done).
const REDO_STALLS: &[&str] = &[
    event::LOG_BUFFER_SPACE,
    event::LOG_FILE_SWITCH_COMPLETION,
    event::LOG_FILE_SWITCH_ARCHIVING_NEEDED,
    event::LOG_FILE_SWITCH_CHECKPOINT_INCOMPLETE,
    "log file switch (private strand flush incomplete)",
];

/// Foreground seconds of `name` over the delta (the total where there is no split).
pub(crate) fn fg_secs(d: &Delta, name: &str) -> f64 {
    d.event(name)
        .map_or(0.0, |e| e.us_fg.unwrap_or(e.us) as f64 / 1e6)
}

/// One of the redo-stall waits.
pub(crate) fn is_redo_stall(name: &str) -> bool {
    REDO_STALLS.contains(&name)
}

/// The redo-stall symptom over the delta, s.
pub(crate) fn redo_stall_s(d: &Delta) -> f64 {
    REDO_STALLS.iter().map(|n| fg_secs(d, n)).sum()
}

/// `secs` of the window's redo stalls.
pub(crate) fn redo_stall(ctx: &Context, secs: f64) -> Impact {
    let Some(d) = ctx.p() else {
        return Impact::of(Symptom::RedoStall, Some(secs), None, None);
    };
    let total = redo_stall_s(d);
    let db = d.db_time_s().map(|db| total / db);
    Impact::of(Symptom::RedoStall, Some(secs), Some(total), db)
}

/// A risk: nothing it names takes time now.
pub(crate) fn risk() -> Impact {
    Impact::risk()
}
