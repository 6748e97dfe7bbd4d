//! The commit-path table's rows: `log file sync`, `log file parallel write` and `SYNC Remote
//! Write` over a delta, as the incident report, the screen's copy and the text writer show
//! them.

/// One line of the commit-path table: a wait event's average and percentile bounds (a lower
/// bound in Oracle's open-ended last bucket).
#[derive(Debug, Clone, PartialEq)]
pub struct CommitRow {
    pub event: &'static str,
    pub avg_ms: Option<f64>,
    pub p50: Option<dgscope_core::metrics::Percentile>,
    pub p90: Option<dgscope_core::metrics::Percentile>,
    pub p99: Option<dgscope_core::metrics::Percentile>,
}

/// `log file sync`, `log file parallel write` and `SYNC Remote Write` over a delta.
pub fn commit_rows(d: Option<&dgscope_core::metrics::Delta>) -> Vec<CommitRow> {
    use dgscope_model::sample::names::event;
    [
        event::LOG_FILE_SYNC,
        event::LOG_FILE_PARALLEL_WRITE,
        event::SYNC_REMOTE_WRITE,
    ]
    .into_iter()
    .map(|name| {
        let e = d.and_then(|d| d.event(name));
        let p = |q| e.and_then(|e| e.hist.percentile(q));
        CommitRow {
            event: name,
            avg_ms: e.and_then(|e| e.avg()).map(|m| m.0),
            p50: p(0.5),
            p90: p(0.9),
            p99: p(0.99),
        }
    })
    .collect()
}
