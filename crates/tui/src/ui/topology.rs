//! The Data Guard configuration as the header draws it: the primary, then every member that
//! receives redo, each after the member that sends it (a far sync before its terminal
//! standbys), with the transport mode of each hop. Read from `V$DATAGUARD_CONFIG`
//! (`Sample::dg_config`, 12.2+) of any monitored database, and from the destinations
//! (`V$ARCHIVE_DEST`) of the sender; without a configuration view, the primary's
//! destinations and the monitored standbys.

use dgscope_core::metrics::Engine;
use dgscope_model::sample::{Dest, Sample, Slot};

/// One member that receives redo.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Member {
    /// `DB_UNIQUE_NAME`.
    pub name: String,
    /// The member that sends it redo (`PARENT_DBUN`), the primary for a direct destination.
    pub parent: String,
    /// How deep in the chain: 1 for the primary's own destinations, 2 behind a far sync or a
    /// cascading standby.
    pub depth: usize,
    /// `FAR SYNC` members are transport only.
    pub far_sync: bool,
    /// The hop into it: `SYNC AFFIRM`, `ASYNC` …; `None` when the sender is not monitored
    /// (a far sync's own destinations are only in its own `V$ARCHIVE_DEST`).
    pub transport: Option<String>,
    /// The hop has a gap or an error.
    pub alarm: bool,
    /// The monitored slot with this database, when there is one.
    pub slot: Option<Slot>,
}

/// The primary's name and the members in drawing order (depth first, configuration order).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Topology {
    pub primary: String,
    pub members: Vec<Member>,
}

fn last_good<'a>(e: &'a Engine, slot: &Slot) -> Option<&'a Sample> {
    e.slot(slot).and_then(|s| s.last_good()).map(|a| &**a)
}

fn db_name(s: &Sample) -> Option<&str> {
    s.db.as_ref().and_then(|d| d.name.as_deref())
}

fn same(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

/// The destination in `dests` that ships to `name` (by `DB_UNIQUE_NAME`, then by target).
pub(crate) fn dest_to<'a>(dests: &'a [Dest], name: &str) -> Option<&'a Dest> {
    dests
        .iter()
        .find(|d| d.db_unique_name.as_deref().is_some_and(|n| same(n, name)))
        .or_else(|| {
            dests
                .iter()
                .find(|d| d.name.as_deref().is_some_and(|n| same(n, name)))
        })
}

/// How a destination ships: `SYNC AFFIRM`, `SYNC NOAFFIRM`, `ASYNC`.
pub(crate) fn transport(d: &Dest) -> String {
    let mut s = d.mode.to_string();
    if d.mode.is_sync() {
        s.push_str(if d.affirm { " AFFIRM" } else { " NOAFFIRM" });
    }
    s
}

fn alarm(d: &Dest) -> bool {
    d.has_gap() || d.error.as_deref().is_some_and(|e| !e.is_empty())
}

/// The configuration as the engine's newest good samples describe it.
pub(crate) fn read(e: &Engine) -> Topology {
    let samples: Vec<(&Slot, &Sample)> = e
        .slots()
        .filter_map(|(k, _)| last_good(e, k).map(|s| (k, s)))
        .collect();
    let primary_sample = e.primary_slot().and_then(|p| last_good(e, p));
    let primary = primary_sample
        .and_then(db_name)
        .unwrap_or("primary")
        .to_string();
    let slot_of = |name: &str| {
        samples
            .iter()
            .find(|(_, s)| db_name(s).is_some_and(|n| same(n, name)))
            .map(|(k, _)| (*k).clone())
    };
    let sample_of = |name: &str| {
        if same(name, &primary) {
            return primary_sample;
        }
        samples
            .iter()
            .find(|(_, s)| db_name(s).is_some_and(|n| same(n, name)))
            .map(|(_, s)| *s)
    };
    // Who sends redo to whom: the configuration view, the primary's first.
    let config = primary_sample
        .and_then(|s| s.dg_config.as_ref())
        .filter(|c| !c.is_empty())
        .or_else(|| {
            samples
                .iter()
                .filter_map(|(_, s)| s.dg_config.as_ref())
                .find(|c| !c.is_empty())
        });
    let mut links: Vec<(String, String, bool)> = Vec::new();
    match config {
        Some(rows) => {
            for r in rows.iter() {
                let is_primary = r
                    .role
                    .as_deref()
                    .is_some_and(|x| x.to_ascii_uppercase().contains("PRIMARY"))
                    || same(&r.name, &primary);
                if is_primary {
                    continue;
                }
                let parent = r
                    .parent
                    .as_deref()
                    .filter(|p| !p.is_empty())
                    .map_or_else(|| primary.clone(), String::from);
                let fs = r
                    .role
                    .as_deref()
                    .is_some_and(|x| x.to_ascii_uppercase().contains("FAR SYNC"));
                links.push((r.name.to_string(), parent, fs));
            }
        }
        None => {
            for d in primary_sample.map(|s| s.dests.as_slice()).unwrap_or(&[]) {
                if let Some(n) = d.db_unique_name.as_deref().or(d.name.as_deref()) {
                    links.push((n.to_string(), primary.clone(), false));
                }
            }
        }
    }
    // A monitored standby the configuration does not name still gets drawn.
    for (k, s) in &samples {
        if Some(*k) == e.primary_slot() {
            continue;
        }
        let name = db_name(s)
            .map(str::to_string)
            .unwrap_or_else(|| k.to_string());
        if !links.iter().any(|(n, _, _)| same(n, &name)) && !same(&name, &primary) {
            let fs = matches!(s.role(), Some(dgscope_model::sample::Role::FarSync));
            links.push((name, primary.clone(), fs));
        }
    }
    for (n, _, fs) in links.iter_mut() {
        if let Some(s) = sample_of(n) {
            *fs |= matches!(s.role(), Some(dgscope_model::sample::Role::FarSync));
        }
    }
    // Depth first from the primary, in configuration order; members whose sender is not
    // in the configuration hang off the primary.
    let mut members = Vec::new();
    let known = |p: &str| same(p, &primary) || links.iter().any(|(n, _, _)| same(n, p));
    fn walk(
        parent: &str,
        depth: usize,
        links: &[(String, String, bool)],
        out: &mut Vec<(String, String, usize, bool)>,
    ) {
        for (n, p, fs) in links {
            if same(p, parent) && !out.iter().any(|(x, ..)| same(x, n)) && depth < 8 {
                out.push((n.clone(), p.clone(), depth, *fs));
                walk(n, depth + 1, links, out);
            }
        }
    }
    let links: Vec<(String, String, bool)> = links
        .iter()
        .map(|(n, p, fs)| {
            let p = if known(p) { p.clone() } else { primary.clone() };
            (n.clone(), p, *fs)
        })
        .collect();
    let mut order = Vec::new();
    walk(&primary, 1, &links, &mut order);
    for (name, parent, depth, far_sync) in order {
        let dest = sample_of(&parent).and_then(|s| dest_to(&s.dests, &name));
        members.push(Member {
            transport: dest.map(transport),
            alarm: dest.is_some_and(alarm),
            slot: slot_of(&name),
            name,
            parent,
            depth,
            far_sync,
        });
    }
    Topology { primary, members }
}
