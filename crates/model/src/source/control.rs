//! Messages from the screen to a source, for keys only a source can act on. A source that
//! does not understand a message ignores it (a live database cannot change speed).

use std::time::Duration;

#[derive(Debug, Clone, PartialEq)]
pub enum Control {
    /// Replay/twin: stop or resume producing samples (the display pause is the app's own).
    Pause(bool),
    /// Replay and the paced twin: playback speed, 1.0 = real time.
    Speed(f64),
    /// Live and twin: sampling interval.
    Interval(Duration),
    /// Twin: inject a fault scenario by its catalog name (`slow-srl` …).
    SetScenario(String),
}
