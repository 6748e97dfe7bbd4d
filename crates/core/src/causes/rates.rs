//! Quantities more than one place shows, computed once: log switch rates (per thread and in
//! total) and the log size that lasts a given time. The findings, the what-if and the screen
//! all call these, so the same figure never reads two ways.

use super::context::Context;
use dgscope_model::sample::LogSwitch;
use dgscope_model::timestamp::Timestamp;
use dgscope_model::units::MIB;
use std::collections::BTreeMap;

/// One thread's log switches in the hour up to a sample.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ThreadSwitches {
    pub thread: u32,
    /// Switches in the last hour.
    pub in_hour: usize,
    /// Switches per hour at the thread's pace: with two or more switches, the gaps between
    /// them scaled to an hour (a fresh instance is judged by its pace, not by its age); with
    /// one, that one (the pace is unknown, the count is not).
    pub per_hour: f64,
    /// True when `per_hour` is a pace (two or more switches), not a bare count.
    pub paced: bool,
}

/// Switch rates of every thread in the hour up to `end`, by thread number.
pub fn switch_rates(switches: &[LogSwitch], end: Timestamp) -> Vec<ThreadSwitches> {
    let hour_ago = end.add_millis(-3_600_000);
    let mut by_thread: BTreeMap<u32, Vec<Timestamp>> = BTreeMap::new();
    for s in switches
        .iter()
        .filter(|s| s.time > hour_ago && s.time <= end)
    {
        by_thread.entry(s.thread).or_default().push(s.time);
    }
    by_thread
        .into_iter()
        .map(|(thread, mut times)| {
            times.sort();
            let n = times.len();
            let span = times[n - 1].secs_since(times[0]);
            let (per_hour, paced) = if n >= 2 && span > 0.0 {
                ((n - 1) as f64 * 3600.0 / span, true)
            } else {
                (n as f64, false)
            };
            ThreadSwitches {
                thread,
                in_hour: n,
                per_hour,
                paced,
            }
        })
        .collect()
}

/// The thread that switches fastest, judged only where a pace is known.
pub(crate) fn busiest(rates: &[ThreadSwitches]) -> Option<ThreadSwitches> {
    rates
        .iter()
        .filter(|r| r.paced)
        .copied()
        .max_by(|a, b| a.per_hour.total_cmp(&b.per_hour))
}

/// Switches per hour of all threads together: the sum of the threads' rates. The screen's
/// "/h total" and the findings' "in total" are this figure.
pub fn total_per_hour(rates: &[ThreadSwitches]) -> f64 {
    rates.iter().map(|r| r.per_hour).sum()
}

/// Switch rates from the primary's newest sample.
pub(crate) fn primary_switch_rates(ctx: &Context) -> Vec<ThreadSwitches> {
    ctx.p_last()
        .and_then(|p| Some(switch_rates(p.switches.as_ref()?, p.t)))
        .unwrap_or_default()
}

/// The size a log needs to last `minutes` on the busiest thread.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct LogSizing {
    /// The thread the size is for (`None` when the switch history does not say).
    pub thread: Option<u32>,
    /// That thread's redo rate (MB/s): its share of the primary's redo over the window.
    pub thread_mb_s: f64,
    /// The primary's redo rate over the window, all threads (V$SYSSTAT).
    pub total_mb_s: f64,
    pub minutes: f64,
    /// `thread_mb_s × minutes × 60`.
    pub mb: f64,
}

/// How large a log must be to last `minutes` at the window's redo rate, per thread.
///
/// Logs belong to a thread, so "a log lasts 20 minutes" is about one thread's redo, not the
/// database's: under RAC the total redo rate would oversize every log by the thread count.
/// The busiest thread's share of the redo is the share of the log bytes it switched in the
/// last hour (its pace × its log size); without a switch history the redo is split evenly
/// over the threads that have online logs. The rate is the window's average (the figure every
/// other piece of evidence uses); sizing for a busier hour is the DBA's call, and the advice
/// says so.
pub(crate) fn log_size_for(ctx: &Context, minutes: f64) -> Option<LogSizing> {
    let total = ctx.p()?.redo_mb_s().filter(|r| *r > 0.0)?;
    let logs = ctx.p_last().and_then(|s| s.logs.as_ref());
    let log_mb = |thread: u32| {
        logs.and_then(|l| {
            l.online
                .iter()
                .filter(|g| g.thread == thread)
                .map(|g| g.bytes)
                .max()
        })
        .map_or(0.0, |b| b as f64 / MIB)
    };
    let rates = primary_switch_rates(ctx);
    let switched: Vec<(u32, f64)> = rates
        .iter()
        .map(|r| (r.thread, r.per_hour * log_mb(r.thread)))
        .collect();
    let all: f64 = switched.iter().map(|s| s.1).sum();
    let (thread, share) = match busiest(&rates) {
        Some(b) if all > 0.0 => {
            let own = switched
                .iter()
                .find(|s| s.0 == b.thread)
                .map_or(0.0, |s| s.1);
            (Some(b.thread), own / all)
        }
        _ => {
            let threads = logs
                .map(|l| {
                    l.online
                        .iter()
                        .map(|g| g.thread)
                        .collect::<std::collections::BTreeSet<_>>()
                        .len()
                })
                .unwrap_or(1)
                .max(1);
            let only = logs.and_then(|l| l.online.first()).map(|g| g.thread);
            (
                (threads == 1).then_some(only).flatten(),
                1.0 / threads as f64,
            )
        }
    };
    let thread_mb_s = total * share;
    Some(LogSizing {
        thread,
        thread_mb_s,
        total_mb_s: total,
        minutes,
        mb: thread_mb_s * minutes * 60.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sw(thread: u32, secs: i64) -> LogSwitch {
        LogSwitch {
            thread,
            sequence: secs as u64,
            time: Timestamp::default().add_millis(secs * 1000),
        }
    }

    #[test]
    fn total_is_the_sum_of_the_threads_and_names_the_busiest() {
        // Thread 1 switches every 2 min, thread 2 every 4 min, thread 3 once.
        let mut v: Vec<LogSwitch> = (0..10).map(|i| sw(1, i * 120)).collect();
        v.extend((0..5).map(|i| sw(2, i * 240)));
        v.push(sw(3, 600));
        let end = Timestamp::default().add_millis(1_200_000);
        let r = switch_rates(&v, end);
        assert_eq!(r.len(), 3);
        assert!((r[0].per_hour - 30.0).abs() < 1e-9);
        assert!((r[1].per_hour - 15.0).abs() < 1e-9);
        assert_eq!((r[2].per_hour, r[2].paced), (1.0, false));
        assert!((total_per_hour(&r) - 46.0).abs() < 1e-9);
        assert_eq!(busiest(&r).map(|b| b.thread), Some(1));
    }

    #[test]
    fn switches_older_than_an_hour_do_not_count() {
        let v = vec![sw(1, 0), sw(1, 100), sw(1, 4000), sw(1, 4100)];
        let end = Timestamp::default().add_millis(4_200_000);
        let r = switch_rates(&v, end);
        assert_eq!(r[0].in_hour, 2);
        assert!((r[0].per_hour - 36.0).abs() < 1e-9);
    }
}
