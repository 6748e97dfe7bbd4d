//! What every source of samples speaks: the twin (`dgscope-twin`), a recording ([`replay`],
//! here, beside the recording formats it reads) and live Oracle databases (`dgscope-oracle`).
//! Every source emits raw cumulative counters as `Sample`s; nothing here computes a rate.

pub mod control;
pub mod replay;
mod seek;

pub use seek::StartAt;

pub use control::Control;

use crate::sample::{Mark, Sample, Slot};
use crate::timestamp::Timestamp;
use std::time::Duration;

/// A source that produces all slots' samples for one sampling instant when asked. The twin
/// and replay are pull sources; the Oracle collector pushes from one thread per database.
pub trait PullSource: Send {
    /// For the recording header's `source` (e.g. `twin:slow-srl seed=7`).
    fn describe(&self) -> String;
    /// Time between sampling instants.
    fn interval(&self) -> Duration;
    /// Advances to the next sampling instant and returns its samples (one per slot) and any
    /// marks; `None` when the source has ended (a recording ran out).
    fn next_tick(&mut self) -> Option<Tick>;
}

/// What one sampling instant produced.
#[derive(Debug, Clone, Default)]
pub struct Tick {
    pub t: Timestamp,
    pub samples: Vec<Sample>,
    pub marks: Vec<Mark>,
}

/// Connection state of one slot, for the spinner, the countdown and stale panes.
#[derive(Debug, Clone, PartialEq)]
pub enum ConnState {
    Connecting,
    Connected,
    /// Lost; the next attempt is at `next_try` (the screen shows the countdown).
    Reconnecting {
        next_try: Timestamp,
        attempt: u32,
        reason: String,
    },
    /// Not retried: retrying cannot help and may hurt (a wrong password retried would lock
    /// the account). `reason` says what to fix.
    Failed {
        reason: String,
    },
}

/// What flows from any source to the app and the recorder.
#[derive(Debug, Clone)]
pub enum SourceEvent {
    Sample(Box<Sample>),
    Mark(Mark),
    Status {
        slot: Slot,
        state: ConnState,
    },
    /// The source has no more data (end of a recording, duration reached).
    End,
    /// How a pass over the whole source behind the screen goes (replay reads a long
    /// recording through while it plays, to find a damaged line before playback reaches it).
    Checking(Checking),
    /// What the source had ready at once is sent (a replay's first instants or `--from`
    /// stretch, the demo's pre-rolled minute): the first frame may be painted now, rather
    /// than after a pause in the events.
    CaughtUp,
}

/// A background read of the whole source, as [`SourceEvent::Checking`] reports it.
#[derive(Debug, Clone, PartialEq)]
pub enum Checking {
    /// This many per cent of the file read so far; `None` when it cannot be told (a FIFO).
    Reading(Option<u8>),
    /// Read through: every line is whole.
    Whole,
    /// A damaged line. `message` names the file and the line; playback stops after
    /// `last_good`, the time of the last sample before it (as stamped).
    Damaged {
        message: String,
        last_good: Option<Timestamp>,
    },
    /// The read-through stopped before the end without saying why: the file is not known
    /// whole.
    Stopped,
}
