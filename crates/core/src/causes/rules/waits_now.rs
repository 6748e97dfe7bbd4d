//! What the primary's sessions wait on now (`V$SESSION`, in flight): the evidence a hang
//! leaves before any wait completes. Completed waits (`V$SYSTEM_EVENT`) count a wait only
//! when it ends; a session stuck for a minute on a log switch shows here from its first
//! second. Read from the primary's newest sample only when it has data: a failed newest
//! sample makes the last good summary stale, and stale is never shown as now.

// Durations in titles in the screen's one format ("42 s", "5m22s").
use super::ev;
use super::spec::Reads;
use crate::causes::context::Context;
use crate::causes::finding::Evidence;
use dgscope_model::display::dur as secs;
use dgscope_model::sample::names::event;
use dgscope_model::sample::WaitNow;

/// What the commit-path rules read: the window's averages, and the `log file sync` waits in
/// flight now, shown as evidence when longer than the window's average.
pub const COMMIT_PATH_READS: &[Reads] = &[Reads::Window, Reads::WaitsNow];

/// Where the summary comes from, for the evidence.
pub const SESSION_VIEW: &str = "V$SESSION";

/// A commit waits on these when the primary cannot write redo: the commit itself, any log
/// switch (archiving needed, checkpoint incomplete, completion …), the log buffer.
pub fn on_commit_path(name: &str) -> bool {
    name == event::LOG_FILE_SYNC
        || name.starts_with("log file switch")
        || name == event::LOG_BUFFER_SPACE
}

/// The primary's in-flight waits now: `None` when not read or when its newest sample failed.
pub fn primary_now<'a>(ctx: &'a Context) -> Option<&'a [WaitNow]> {
    ctx.primary?.current()?.waits_now.as_deref()
}

/// The commit-path waits in flight for at least `min_s` seconds, longest first.
pub fn commit_path_stalled<'a>(ctx: &'a Context, min_s: f64) -> Vec<&'a WaitNow> {
    let mut v: Vec<&WaitNow> = primary_now(ctx)
        .unwrap_or_default()
        .iter()
        .filter(|w| on_commit_path(&w.event) && w.longest_s >= min_s)
        .collect();
    v.sort_by(|a, b| b.longest_s.total_cmp(&a.longest_s));
    v
}

/// "12 sessions waiting on log file sync, longest 41.5 s, blocker LGWR".
pub fn describe(w: &WaitNow) -> String {
    let n = w.sessions;
    let mut s = format!(
        "{n} session{} waiting on {}, longest {}",
        if n == 1 { "" } else { "s" },
        w.event,
        secs(w.longest_s)
    );
    if let Some(b) = w.blocker.as_deref() {
        s.push_str(&format!(", blocker {b}"));
    }
    s
}

/// One in-flight wait as evidence: its description, the longest wait in seconds.
pub fn evidence(w: &WaitNow, threshold: Option<String>) -> Evidence {
    ev(
        &format!("in flight now: {}", describe(w)),
        w.longest_s,
        "s",
        threshold,
        SESSION_VIEW,
    )
}

/// `log file sync` waits in flight now longer than the window's average `log file sync`
/// (and at least a second, so a commit caught mid-flight is not news): a commit path that
/// stalls now, beyond what the averages say. Additive evidence for the commit-path rules.
pub fn lfs_beyond_average(ctx: &Context) -> Option<Evidence> {
    let avg_ms = ctx.lfs()?;
    let w = primary_now(ctx)?
        .iter()
        .find(|w| w.event == event::LOG_FILE_SYNC)?;
    (w.longest_s * 1000.0 > avg_ms && w.longest_s >= 1.0).then(|| {
        evidence(
            w,
            Some(format!(
                "> the window's average log file sync ({avg_ms:.1} ms)"
            )),
        )
    })
}
