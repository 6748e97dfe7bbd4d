//! Writing what the twin accumulated into a sample's events: who waited (foreground or
//! background), and the waits of a member that receives redo. Shared by the pair's samples
//! (`emit`) and a topology's extra members (`members`), which both read it and neither
//! reads the other's.

use super::hist::EventAcc;
use dgscope_model::sample::names::event;
use dgscope_model::sample::{Event, Sample};

/// Who waits on an event, for `TOTAL_WAITS_FG`/`TIME_WAITED_MICRO_FG`: committing sessions
/// wait on `log file sync`; LGWR, NSS, RFS, MRP and DBWR are background processes.
#[derive(Clone, Copy)]
pub(super) enum Waiter {
    Foreground,
    Background,
}

pub(super) fn put_event(s: &mut Sample, name: &str, acc: &EventAcc, who: Waiter) {
    if !acc.is_empty() {
        let e = acc.to_event();
        let (waits_fg, us_fg) = match who {
            Waiter::Foreground => (e.waits, e.us),
            Waiter::Background => (0, dgscope_model::units::Micros(0)),
        };
        s.events.insert(
            name.into(),
            Event {
                waits_fg: Some(waits_fg),
                us_fg: Some(us_fg),
                ..e
            },
        );
    }
}

/// The background waits of a member that receives redo (RFS writing the standby logs, and
/// what applying it costs): the same for a standby and a topology's extra member.
pub(super) fn put_receiver_events(s: &mut Sample, c: &super::fluid::StandbyCounters) {
    let bg = Waiter::Background;
    put_event(s, event::RFS_WRITE, &c.rfs_write, bg);
    put_event(s, event::CHECKPOINT_COMPLETED, &c.checkpoint_completed, bg);
    put_event(s, event::RECOVERY_READ, &c.recovery_read, bg);
    put_event(
        s,
        event::DB_FILE_SEQUENTIAL_READ,
        &c.db_file_sequential_read,
        bg,
    );
    put_event(
        s,
        event::DB_FILE_PARALLEL_WRITE,
        &c.db_file_parallel_write,
        bg,
    );
}
