//! One streaming pass over a recording that accumulates any number of windows per slot. Memory
//! does not grow with the file: only the boundaries of each window are kept.

use dgscope_core::metrics::{Delta, WindowAcc, WindowBound, WindowDeltas, WindowSpec};
use dgscope_model::sample::recording::{Entry, RecordingError, RecordingReader};
use dgscope_model::sample::{Sample, Slot};
use dgscope_model::timestamp::Timestamp;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// Bad input to a report: every variant is one line a user can act on.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error(transparent)]
    Recording(#[from] RecordingError),
    #[error("{0}")]
    Window(#[from] dgscope_core::metrics::WindowSpecError),
    #[error("{path}: the recording holds no samples (only a header); record for longer")]
    NoSamples { path: String },
    #[error("{path}: window {spec} holds fewer than two samples of slot {slot} (the recording spans {span}); pick a window inside it")]
    EmptyWindow {
        path: String,
        spec: String,
        slot: String,
        span: String,
    },
    #[error("{path}: window {spec} holds fewer than two samples (the recording spans {span}); pick a window inside it")]
    WindowOutside {
        path: String,
        spec: String,
        span: String,
    },
    #[error("{path}: no slot {slot:?} in this recording; it has: {available}")]
    UnknownSlot {
        path: String,
        slot: String,
        available: String,
    },
    #[error("{path}: no event {event:?} on slot {slot}; events with data: {available}")]
    UnknownEvent {
        path: String,
        event: String,
        slot: String,
        available: String,
    },
}

/// A window as given and as resolved against the recording.
#[derive(Debug, Clone)]
pub struct ScannedWindow {
    pub spec: WindowSpec,
    pub text: String,
    pub from: Timestamp,
    pub to: Timestamp,
    pub slots: BTreeMap<Slot, WindowAcc>,
}

impl ScannedWindow {
    pub fn delta(&self, slot: &Slot) -> Option<Delta> {
        self.slots.get(slot)?.delta()
    }

    /// Primary and first standby deltas, picked by slot name as the recording names them.
    pub fn deltas(&self) -> WindowDeltas {
        let standby = self.slots.keys().find(|s| s.is_standby()).cloned();
        WindowDeltas {
            primary: self.delta(&Slot::primary()),
            standby: standby.and_then(|s| self.delta(&s)),
        }
    }
}

#[derive(Debug)]
pub(crate) struct Scan {
    pub path: String,
    pub first: Timestamp,
    pub last: Timestamp,
    pub windows: Vec<ScannedWindow>,
    pub last_by_slot: BTreeMap<Slot, Arc<Sample>>,
    /// Samples out of time order or repeated (skipped by the window accumulators), as one
    /// line for stderr and the JSON `warnings`; empty when there were none.
    pub warnings: Vec<String>,
}

impl Scan {
    /// "0s..1h 2m (2026-11-30T05:00:00.000Z..…)" for messages.
    pub(crate) fn span(&self) -> String {
        span_text(self.first, self.last)
    }

    /// Fails with a clear message when a window is empty for `slot`.
    pub(crate) fn require(&self, slot: &Slot) -> Result<(), ReportError> {
        if !self.last_by_slot.contains_key(slot) {
            return Err(ReportError::UnknownSlot {
                path: self.path.clone(),
                slot: slot.to_string(),
                available: self
                    .last_by_slot
                    .keys()
                    .map(Slot::as_str)
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
        for w in &self.windows {
            if w.delta(slot).is_none() {
                return Err(ReportError::EmptyWindow {
                    path: self.path.clone(),
                    spec: w.text.clone(),
                    slot: slot.to_string(),
                    span: self.span(),
                });
            }
        }
        Ok(())
    }
}

/// A recording's extent for messages: "0s..1h 2m (2026-11-30T05:00:00.000Z..…)".
pub fn span_text(first: Timestamp, last: Timestamp) -> String {
    let secs = last.secs_since(first).max(0.0);
    format!(
        "0s..{} ({first}..{last})",
        humantime::format_duration(std::time::Duration::from_secs(secs as u64)),
    )
}

/// Reads `path` once, accumulating each of `specs` (with their original text for messages).
pub(crate) fn scan(path: &Path, specs: &[(String, WindowSpec)]) -> Result<Scan, ReportError> {
    // A whole pass: parse on a second core while this one accumulates.
    let mut reader = dgscope_model::sample::ahead::recording_ahead(RecordingReader::open(path)?);
    let display = reader.path().to_string();
    let mut first: Option<Timestamp> = None;
    let mut last = Timestamp::default();
    let mut windows: Vec<ScannedWindow> = Vec::new();
    let mut last_by_slot: BTreeMap<Slot, Arc<Sample>> = BTreeMap::new();
    let mut order = dgscope_core::pipeline::OrderCheck::default();
    // A lone sample far ahead is taken out and a step back of the clock followed on, as the
    // check and the incident report do.
    let mut steady = dgscope_core::pipeline::Steady::new(reader.by_ref());

    for entry in steady.by_ref() {
        let sample = match entry? {
            Entry::Mark(_) => continue,
            Entry::Sample(s) => Arc::<Sample>::from(s),
        };
        if first.is_none() {
            // Offsets count from the first sample, so windows resolve when it arrives; an open
            // end stays open (far future) until the file ends.
            let far = Timestamp::from_millis(i64::MAX / 2);
            windows = specs
                .iter()
                .map(|(text, spec)| {
                    let (from, to) = spec.resolve(sample.t, far);
                    ScannedWindow {
                        spec: *spec,
                        text: text.clone(),
                        from,
                        to,
                        slots: BTreeMap::new(),
                    }
                })
                .collect();
            first = Some(sample.t);
        }
        order.see(&sample.slot, sample.t);
        last = last.max(sample.t);
        for w in &mut windows {
            if sample.t >= w.from && sample.t <= w.to {
                w.slots
                    .entry(sample.slot.clone())
                    .or_default()
                    .push(&sample);
            }
        }
        last_by_slot.insert(sample.slot.clone(), sample);
    }
    let Some(first) = first else {
        return Err(ReportError::NoSamples { path: display });
    };
    for w in &mut windows {
        if w.spec.to == WindowBound::Open {
            w.to = last;
        }
    }
    Ok(Scan {
        path: display,
        first,
        last,
        windows,
        last_by_slot,
        warnings: steady
            .warnings("the report")
            .into_iter()
            .chain(order.warning("the report"))
            .chain(reader.truncated_tail().then(|| {
                format!(
                    "{}: {}; read up to it",
                    reader.path(),
                    dgscope_model::sample::recording::TRUNCATED_TAIL
                )
            }))
            .collect(),
    })
}
