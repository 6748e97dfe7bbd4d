//! `dgscope serve`'s engine room: one [`Driver`] per pair as a task of its own, each publishing
//! an immutable [`PairSnapshot`] to a [`Board`]; the HTTP side ([`http`]) renders whatever is
//! on the board at each scrape and never waits for a database.

pub mod http;
pub mod shard;
pub mod web_config;

use crate::exposition::{Format, PairSnapshot, Rendered};
use dgscope_core::pipeline::{Driver, DriverConfig};
use dgscope_model::sample::Slot;
use dgscope_model::source::{ConnState, SourceEvent};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

/// The latest snapshot of every pair, rendered. A publisher renders its pair's lines in both
/// formats on its own task and swaps a pointer under the lock; a scrape clones the pointers
/// and joins the lines without holding it: each pair is rendered once per change, not once
/// per scrape.
#[derive(Debug)]
pub struct Board {
    pairs: Vec<Mutex<Arc<Published>>>,
}

/// A pair's snapshot with its lines in the text format and in OpenMetrics.
#[derive(Debug)]
pub struct Published {
    pub snap: Arc<PairSnapshot>,
    pub text: Rendered,
    pub open_metrics: Rendered,
}

impl Published {
    fn of(snap: PairSnapshot) -> Self {
        Published {
            text: Rendered::of(&snap, Format::Text),
            open_metrics: Rendered::of(&snap, Format::OpenMetrics),
            snap: Arc::new(snap),
        }
    }

    /// The lines in `format`.
    pub fn lines(&self, format: Format) -> &Rendered {
        match format {
            Format::OpenMetrics => &self.open_metrics,
            Format::Text => &self.text,
        }
    }
}

impl Board {
    /// A board holding these (usually pending) snapshots, in this order.
    pub fn new(initial: Vec<PairSnapshot>) -> Arc<Self> {
        Arc::new(Board {
            pairs: initial
                .into_iter()
                .map(|p| Mutex::new(Arc::new(Published::of(p))))
                .collect(),
        })
    }

    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    pub fn publish(&self, index: usize, snap: PairSnapshot) {
        if let Some(slot) = self.pairs.get(index) {
            let published = Arc::new(Published::of(snap));
            *slot.lock().unwrap_or_else(|e| e.into_inner()) = published;
        }
    }

    /// Every pair's newest snapshot, rendered, in board order.
    pub fn published(&self) -> Vec<Arc<Published>> {
        self.pairs
            .iter()
            .map(|m| m.lock().unwrap_or_else(|e| e.into_inner()).clone())
            .collect()
    }

    /// Every pair's newest snapshot, in board order.
    pub fn snapshot(&self) -> Vec<Arc<PairSnapshot>> {
        self.published()
            .into_iter()
            .map(|p| p.snap.clone())
            .collect()
    }
}

/// One pair's event stream, as a source produces it.
pub struct PairSource {
    /// The `pair` label.
    pub pair: String,
    /// What is sampled, without secrets.
    pub describe: String,
    /// The slots the source was configured with, primary first.
    pub slots: Vec<Slot>,
    pub rx: mpsc::Receiver<SourceEvent>,
}

/// Why a slot without data is down, from the connection state the source last reported.
fn pending_reason(state: Option<&ConnState>) -> &'static str {
    match state {
        Some(ConnState::Connecting) | None => "connecting",
        Some(ConnState::Connected) => "no_data",
        Some(ConnState::Reconnecting { .. }) => "reconnecting",
        Some(ConnState::Failed { .. }) => "failed",
    }
}

/// Runs a pair's [`Driver`] as a task on `rt`, publishing the pair's snapshot after each
/// batch of events (every slot of a sampling instant that arrived together is judged before
/// one render). A process with hundreds of pairs runs them all on one small runtime: a
/// thread per pair (and per twin) cost 200 pairs 165 of their 645 MB, in stacks and
/// allocator arenas (benches/serve.rs). A pair whose pipeline panics ends alone, as its
/// thread did.
pub fn spawn_driver(
    rt: &tokio::runtime::Handle,
    board: Arc<Board>,
    index: usize,
    mut src: PairSource,
    config: DriverConfig,
) -> tokio::task::JoinHandle<()> {
    rt.spawn(async move {
        let mut driver = Driver::new(config);
        let mut states: BTreeMap<Slot, ConnState> = BTreeMap::new();
        while let Some(first) = src.rx.recv().await {
            let mut next = Some(first);
            let mut end = false;
            while let Some(ev) = next.take() {
                end = matches!(ev, SourceEvent::End);
                if let SourceEvent::Status { slot, state } = &ev {
                    states.insert(slot.clone(), state.clone());
                }
                driver.on_event(ev);
                if end {
                    driver.finish();
                    break;
                }
                next = src.rx.try_recv().ok();
            }
            let mut snap = PairSnapshot::from_engine(
                &src.pair,
                &src.describe,
                &src.slots,
                driver.engine(),
                driver.assessment(),
            );
            for s in &mut snap.slots {
                if s.last_good.is_none() && s.error.as_deref() == Some("no_data") {
                    s.error = Some(pending_reason(states.get(&s.slot)).to_string());
                }
            }
            board.publish(index, snap);
            if end {
                break;
            }
            // Others' turn between instants: the runtime's threads are shared.
            tokio::task::yield_now().await;
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scrape joins lines rendered at publish time: the same document, byte for byte, as
    /// rendering the snapshots at the scrape, in both formats.
    #[test]
    fn a_scrape_of_published_lines_is_the_rendered_document() {
        let slots = [Slot::primary(), Slot::standby()];
        let board = Board::new(vec![
            PairSnapshot::pending("a", "twin", &slots, "connecting"),
            PairSnapshot::pending("b\"q", "oracle", &slots[..1], "no_client_library"),
        ]);
        board.publish(
            0,
            PairSnapshot::pending("a", "twin", &slots, "reconnecting"),
        );
        let snaps = board.snapshot();
        for format in [Format::Text, Format::OpenMetrics] {
            let published = board.published();
            let lines: Vec<&Rendered> = published.iter().map(|p| p.lines(format)).collect();
            let mut joined = String::new();
            crate::exposition::assemble_into(&mut joined, &lines, format);
            assert_eq!(joined, crate::exposition::render(&snaps, format));
            assert!(joined.contains("reconnecting"), "{joined}");
            assert!(joined.contains("b\\\"q"), "{joined}");
        }
    }
}
