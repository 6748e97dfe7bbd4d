//! `dgscope serve`'s engine room: one [`Driver`] per pair on its own thread, each publishing
//! an immutable [`PairSnapshot`] to a [`Board`]; the HTTP side ([`http`]) renders whatever is
//! on the board at each scrape and never waits for a database.

pub mod http;
pub mod web_config;

use crate::exposition::PairSnapshot;
use dgscope_core::pipeline::{Driver, DriverConfig};
use dgscope_model::sample::Slot;
use dgscope_model::source::{ConnState, SourceEvent};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use tokio::sync::mpsc;

/// The latest snapshot of every pair. A publisher swaps a pointer under the lock; a scrape
/// clones the pointers and renders without holding it.
#[derive(Debug)]
pub struct Board {
    pairs: Vec<Mutex<Arc<PairSnapshot>>>,
}

impl Board {
    /// A board holding these (usually pending) snapshots, in this order.
    pub fn new(initial: Vec<PairSnapshot>) -> Arc<Self> {
        Arc::new(Board {
            pairs: initial
                .into_iter()
                .map(|p| Mutex::new(Arc::new(p)))
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
            *slot.lock().unwrap_or_else(|e| e.into_inner()) = Arc::new(snap);
        }
    }

    /// Every pair's newest snapshot, in board order.
    pub fn snapshot(&self) -> Vec<Arc<PairSnapshot>> {
        self.pairs
            .iter()
            .map(|m| m.lock().unwrap_or_else(|e| e.into_inner()).clone())
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

/// Runs the pair's driver on its own thread until the source ends (or its sender is
/// dropped), publishing a snapshot at `index` after every event.
pub fn spawn_driver(
    board: Arc<Board>,
    index: usize,
    mut src: PairSource,
    config: DriverConfig,
) -> std::io::Result<JoinHandle<()>> {
    std::thread::Builder::new()
        .name(format!("dgscope-pair-{index}"))
        .spawn(move || {
            let mut driver = Driver::new(config);
            let mut states: BTreeMap<Slot, ConnState> = BTreeMap::new();
            while let Some(ev) = src.rx.blocking_recv() {
                let end = matches!(ev, SourceEvent::End);
                if let SourceEvent::Status { slot, state } = &ev {
                    states.insert(slot.clone(), state.clone());
                }
                driver.on_event(ev);
                if end {
                    driver.finish();
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
            }
        })
}
