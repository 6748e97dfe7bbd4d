//! What of a database's release changes the SQL a DBA is shown to verify a finding: which
//! views exist and whether they are per instance. Read from the samples (`db.version`,
//! `db.instances`); the SQL itself is spelled by the Oracle source (`dgscope-oracle`'s
//! `verify`), which is above this crate, while the core and the reports, which are not below
//! it, carry the releases of what they judged.

use super::Sample;

/// What of a release changes the verification SQL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Release {
    /// `V$EVENT_HISTOGRAM_MICRO` exists (12.1.0.2+).
    pub micro_hist: bool,
    /// `V$DATAGUARD_PROCESS` exists (12.2+); else `V$MANAGED_STANDBY`.
    pub dg_process: bool,
    /// 11.x names the SYNC transport wait `LNS wait on SENDREQ`.
    pub lns_events: bool,
    /// More than one instance: per-instance views as `GV$` with `INST_ID`.
    pub rac: bool,
}

impl Default for Release {
    /// A current single-instance release (19c), for a database whose version is unknown.
    fn default() -> Self {
        Release::from_db(None, None)
    }
}

impl Release {
    /// From `db.version` (`"19.21.0.0.0"`, `"11.2.0.4.0"`) and `db.instances`; an unknown
    /// version is taken as a current release.
    pub fn from_db(version: Option<&str>, instances: Option<u32>) -> Release {
        let v: Vec<u32> = version
            .map(|s| {
                s.trim()
                    .split('.')
                    .map_while(|p| p.trim().parse().ok())
                    .collect()
            })
            .unwrap_or_default();
        let at_least = |want: &[u32]| {
            if v.is_empty() {
                return true;
            }
            for (i, w) in want.iter().enumerate() {
                let have = v.get(i).copied().unwrap_or(0);
                if have != *w {
                    return have > *w;
                }
            }
            true
        };
        Release {
            micro_hist: at_least(&[12, 1, 0, 2]),
            dg_process: at_least(&[12, 2]),
            lns_events: !at_least(&[12, 1]),
            rac: instances.is_some_and(|n| n > 1),
        }
    }

    /// The release of the database a sample came from.
    pub fn of(s: &Sample) -> Release {
        let db = s.db.as_ref();
        Release::from_db(
            db.and_then(|d| d.version.as_deref()),
            db.and_then(|d| d.instances),
        )
    }

    /// For a query run on both databases: what works on each.
    pub fn common(a: Release, b: Release) -> Release {
        Release {
            micro_hist: a.micro_hist && b.micro_hist,
            dg_process: a.dg_process && b.dg_process,
            lns_events: a.lns_events || b.lns_events,
            rac: a.rac || b.rac,
        }
    }
}

/// The releases of the pair a finding is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Releases {
    pub primary: Release,
    pub standby: Release,
}

impl Releases {
    /// From the newest primary and standby samples (a failed sample has no `db`: pass the
    /// last good one; a release does not go stale).
    pub fn from_samples(primary: Option<&Sample>, standby: Option<&Sample>) -> Releases {
        let of = |s: Option<&Sample>| {
            s.filter(|s| s.db.is_some())
                .map_or_else(Release::default, Release::of)
        };
        Releases {
            primary: of(primary),
            standby: of(standby),
        }
    }
}
