//! Samples a slot delivered out of time order or twice: the engine and the reports' window
//! accumulators skip them, and every reader of a stream (check, report impact, report
//! histogram) tells the user with this one check. Clock steps are the model's
//! ([`Steady`], re-exported here).

use dgscope_model::sample::Slot;
use dgscope_model::timestamp::Timestamp;

/// Samples a slot delivered out of time order or twice; the engine skips them, the user is told.
#[derive(Debug, Default)]
pub struct OrderCheck {
    last: std::collections::BTreeMap<Slot, Timestamp>,
    earlier: usize,
    repeated: usize,
    first_bad: Option<(Slot, Timestamp)>,
}

impl OrderCheck {
    pub fn see(&mut self, slot: &Slot, t: Timestamp) {
        match self.last.get(slot) {
            Some(&prev) if t <= prev => {
                if t == prev {
                    self.repeated += 1;
                } else {
                    self.earlier += 1;
                }
                self.first_bad.get_or_insert((slot.clone(), t));
            }
            // The driver feeds at most MAX_SLOTS slots: so many are watched here too.
            None if self.last.len() >= super::MAX_SLOTS => {}
            _ => {
                self.last.insert(slot.clone(), t);
            }
        }
    }

    /// When the first skipped sample was stamped, if any was.
    pub fn first_at(&self) -> Option<Timestamp> {
        self.first_bad.as_ref().map(|f| f.1)
    }

    /// One line for stderr and the JSON `warnings` (`user`: who uses the rest, e.g.
    /// "the judgement", "the report"), when anything was skipped.
    pub fn warning(&self, user: &str) -> Option<String> {
        let (slot, t) = self.first_bad.as_ref()?;
        Some(format!(
            "{} sample(s) earlier than the one before and {} repeated sample(s) were skipped (first: slot {slot} at {t}); {user} uses the rest",
            self.earlier, self.repeated
        ))
    }
}

pub use dgscope_model::sample::order::Steady;
