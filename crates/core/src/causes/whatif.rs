//! What-if figures: "what would this change do here?", answered by a model (the twin) run on
//! parameters derived from the observed metrics. The causes engine only describes what was
//! observed and which changes fit a finding; the model is injected, so causes never depend
//! on a source. The data both sides share ([`Observed`], [`Change`], [`WhatIfModel`]) lives
//! in `sample::vocab::whatif`, below both.

use super::context::Context;
use super::finding::Finding;
use dgscope_model::sample::vocab::whatif::unavailable;
pub(crate) use dgscope_model::sample::vocab::whatif::{Change, Observed, WhatIfModel};

/// The observed figures of the engine `ctx` reads, for a model to mirror.
pub fn observed_from(ctx: &Context) -> Observed {
    let p = ctx.p();
    let transport = ctx
        .s_last()
        .and_then(|s| s.dg.as_ref())
        .and_then(|d| d.transport_lag_s);
    Observed {
        tps: p.and_then(|d| d.commits_per_s()),
        redo_mb_s: p.and_then(|d| d.redo_mb_s()),
        lfs_ms: ctx.lfs(),
        lfpw_ms: ctx.lfpw(),
        remote_ms: ctx.remote(),
        rfs_ms: ctx.sync_dest().and_then(|d| ctx.rfs_of(d)),
        sync_affirm: ctx.sync_dest().map(|d| d.affirm),
        srl_members: ctx
            .s_last()
            .and_then(|s| s.logs.as_ref())
            .and_then(|l| l.standby.iter().map(|g| g.members).max()),
        orl_mb: ctx
            .p_last()
            .and_then(|s| s.logs.as_ref())
            .and_then(|l| l.online.iter().map(|g| g.bytes).max())
            .map(|b| b as f64 / 1048576.0),
        switches_per_hour: super::rules::switches_per_hour(ctx).map(|s| s.1),
        log_mb_for_20_min: super::rates::log_size_for(ctx, 20.0).map(|z| z.mb),
        transport_lag_s: transport.map(|x| x.0),
        transport_lag_growth: super::standby_facts::transport_lag_slope(ctx, 60.0),
    }
}

/// The changes worth estimating for a finding (as its rule's record says).
pub(crate) fn changes_for(id: &str, observed: &Observed) -> Vec<Change> {
    super::rules::spec(id).map_or_else(Vec::new, |r| (r.what_ifs)(observed))
}

/// Fills each finding's what-if figures from the model.
/// Implausible observed figures are never handed to the model: each change says why instead.
pub fn annotate(findings: &mut [Finding], observed: &Observed, model: &dyn WhatIfModel) {
    let refused = observed.check_plausible().err();
    for f in findings {
        f.what_if = changes_for(f.id, observed)
            .into_iter()
            .filter_map(|c| match &refused {
                Some(reason) => Some(unavailable(c, reason)),
                None => model.what_if(observed, c),
            })
            .collect();
    }
}
