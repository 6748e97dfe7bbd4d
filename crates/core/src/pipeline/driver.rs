//! [`Driver`]: owns a metrics [`Engine`] and a [`CauseEngine`], consumes entries in time order
//! and assesses at every completed sampling instant. An instant is complete when an entry of
//! a later instant arrives (every slot of the earlier one is then in); [`Driver::finish`]
//! completes the last one when the stream ends.

use crate::causes::{Assessment, CauseEngine, Thresholds, Transition};
use crate::metrics::{Engine, EngineConfig, Window};
use dgscope_model::sample::recording::Entry;
use dgscope_model::sample::Slot;
use dgscope_model::source::SourceEvent;
use dgscope_model::timestamp::Timestamp;
use std::collections::BTreeSet;
use std::time::Duration;

/// A minute beyond what the rules read: a condition that has just reached its span is seen
/// whole, with the sample before it.
const MARGIN_S: f64 = 60.0;

/// The most history any setting makes a driver keep: a threshold of a year (finite, so the
/// config accepts it) must not ask for a year of raw samples, nor overflow a `Duration`.
const MAX_KEPT_S: f64 = 86_400.0;

/// How far back the registered rules read raw samples under `th`, derived from their records
/// ([`crate::causes::rules::needs`]): the longest raw span any of them reads (a state held
/// for `state_hold_s`, a datum unchanged for `stale_datum_s` …) plus a minute, at most a day.
fn rules_raw_span(th: &Thresholds) -> Duration {
    Duration::from_secs_f64((crate::causes::rules::needs(th).raw_s + MARGIN_S).min(MAX_KEPT_S))
}

/// The raw span a `check` run of known length keeps: what the rules read, and at least 5
/// minutes.
fn recent_span(th: &Thresholds) -> Duration {
    rules_raw_span(th).max(Duration::from_secs(300))
}

/// Trend points the rules read (one a sample; 1 s is the finest interval), with the margin,
/// at most a day's.
fn trend_points(th: &Thresholds) -> usize {
    (crate::causes::rules::needs(th).trend_s + MARGIN_S)
        .min(MAX_KEPT_S)
        .ceil() as usize
}

/// The raw span and history of an engine that keeps at least `raw_span` and `history_len`,
/// and whatever more the registered rules read under `th`.
fn engine_config(th: &Thresholds, raw_span: Duration, history_len: usize) -> EngineConfig {
    EngineConfig {
        raw_span: raw_span.max(rules_raw_span(th)),
        history_len: history_len.max(trend_points(th)),
    }
}

/// How a driver keeps and judges its data.
#[derive(Debug, Clone)]
pub struct DriverConfig {
    pub engine: EngineConfig,
    /// The causes window (`check`: as long as the run; the screen and serve: the last minute).
    pub window: Window,
    pub thresholds: Thresholds,
}

impl DriverConfig {
    /// The screen's and serve's setting: causes over the last minute, raw samples for it and
    /// for what the rules read further back.
    pub fn last_minute(thresholds: Thresholds) -> Self {
        DriverConfig {
            engine: engine_config(&thresholds, Duration::from_secs(60), 120),
            window: Window::Last(Duration::from_secs(60)),
            thresholds,
        }
    }

    /// The triage screen's setting: causes over the last minute like `serve`, raw samples for
    /// the engine's default span (windows up to 15 minutes, the `[`/`]` keys) and `history`
    /// points per database for the charts (the config file's `history`).
    pub fn for_screen(thresholds: Thresholds, history: usize) -> Self {
        let d = EngineConfig::default();
        DriverConfig {
            engine: engine_config(&thresholds, d.raw_span, history.max(1)),
            ..DriverConfig::last_minute(thresholds)
        }
    }

    /// The incident report's setting: causes over the last minute like the screen, raw
    /// samples for the engine's default span (the impact table compares up to 15 minutes).
    pub fn for_report(thresholds: Thresholds) -> Self {
        let d = EngineConfig::default();
        DriverConfig {
            engine: engine_config(&thresholds, d.raw_span, d.history_len),
            ..DriverConfig::last_minute(thresholds)
        }
    }

    /// A source that is one observation of a window `span` long (an AWR or Statspack
    /// report): judged over all of it, as `check` judges a run of that length, with
    /// [`Thresholds::for_one_window`].
    pub fn for_one_window(span: Duration, thresholds: Thresholds) -> Self {
        // A run of known length reaches back to its first sample (the begin snapshot).
        Self::for_check(
            Some(span + Duration::from_secs(1)),
            thresholds.for_one_window(),
        )
    }

    /// `check`'s setting for a run of `duration` (`None`: an hour): the window is as long as
    /// the run, at least a minute. A run of known length never outgrows its window, which
    /// then always reaches back to the first sample and is answered by the engine's running
    /// accumulator: raw samples are kept only for the rules' recent checks
    /// ([`recent_span`]), so memory does not grow with `--duration`. Without a duration (a replay of unknown
    /// length) the last hour slides and is kept raw.
    pub fn for_check(duration: Option<Duration>, thresholds: Thresholds) -> Self {
        let span = duration
            .unwrap_or(Duration::from_secs(3600))
            .max(Duration::from_secs(60));
        let raw_span = match duration {
            Some(_) => span.min(recent_span(&thresholds)),
            None => span.max(recent_span(&thresholds)),
        };
        DriverConfig {
            engine: EngineConfig {
                raw_span,
                history_len: 3600.max(trend_points(&thresholds)),
            },
            window: Window::Last(span),
            thresholds,
        }
    }
}

/// A finding about the standby `slot` (not the first): it says which, in its title too,
/// since every output shows the title.
fn of_standby(mut f: crate::causes::Finding, slot: &str) -> crate::causes::Finding {
    f.title = format!("{slot}: {}", f.title);
    f.standby = Some(slot.to_string());
    f
}

/// Whether the rule `id` is judged for every standby, not only with the first.
fn each_standby(id: &str) -> bool {
    crate::causes::rules::spec(id)
        .is_some_and(|r| r.scope == crate::causes::rules::Scope::EachStandby)
}

/// The metrics → causes half of the pipeline: when to assess and what the newest assessment
/// is. Only a [`Driver`] has one, paired with the engine it owns: every consumer, the screen
/// included, judges through a driver.
#[derive(Debug)]
struct Judge {
    causes: CauseEngine,
    /// Every standby after the first is judged for its own state by a causes engine of its
    /// own (its own hysteresis), so a second standby's stopped apply is raised too.
    others: std::collections::BTreeMap<Slot, CauseEngine>,
    window: Window,
    assessment: Assessment,
    /// The instant of the newest entry: assessed once a later one begins.
    tick: Option<Timestamp>,
    first: Option<Timestamp>,
    samples: usize,
    assessments: u64,
    session: super::SessionLog,
}

impl Judge {
    pub(crate) fn new(window: Window, thresholds: Thresholds) -> Self {
        Judge {
            causes: CauseEngine::new(thresholds),
            others: std::collections::BTreeMap::new(),
            window,
            assessment: Assessment {
                warming_up: true,
                ..Assessment::default()
            },
            tick: None,
            first: None,
            samples: 0,
            assessments: 0,
            session: super::SessionLog::default(),
        }
    }

    /// An entry of instant `t` is about to go into `engine`: when it begins a later instant
    /// than the previous entry, the previous instant is assessed first (with every slot in).
    pub(crate) fn begin(&mut self, engine: &Engine, t: Timestamp, sample: bool) -> Vec<Transition> {
        self.first.get_or_insert(t);
        let transitions = if self.tick.is_some_and(|k| t > k) {
            self.assess_now(engine)
        } else {
            Vec::new()
        };
        self.tick = Some(self.tick.map_or(t, |k| k.max(t)));
        if sample {
            self.samples += 1;
        }
        transitions
    }

    /// Assesses `engine` at its newest instant now (the causes engine does not advance its
    /// hysteresis twice for one instant).
    pub(crate) fn assess_now(&mut self, engine: &Engine) -> Vec<Transition> {
        let (mut a, mut tr) = self.causes.assess_for(engine, self.window, None);
        let others: Vec<Slot> = engine
            .standby_slots()
            .iter()
            .skip(1)
            .map(|s| (*s).clone())
            .collect();
        for slot in others {
            let first = &self.causes;
            let causes = self
                .others
                .entry(slot.clone())
                .or_insert_with(|| CauseEngine::new(first.thresholds().clone()));
            let (b, more) = causes.assess_for(engine, self.window, Some(&slot));
            let name = slot.to_string();
            a.findings.extend(
                b.findings
                    .into_iter()
                    .filter(|f| each_standby(f.id))
                    .map(|f| of_standby(f, &name)),
            );
            tr.extend(more.into_iter().filter_map(|t| match t {
                Transition::Raised(f) if each_standby(f.id) => {
                    Some(Transition::Raised(of_standby(f, &name)))
                }
                Transition::Cleared { id, at, .. } if each_standby(id) => {
                    Some(Transition::Cleared {
                        id,
                        at,
                        standby: Some(name.clone()),
                    })
                }
                _ => None,
            }));
        }
        crate::causes::rank(&mut a.findings);
        let (overview, lags) =
            crate::causes::state::overview(engine, self.window, self.causes.thresholds());
        a.overview = overview;
        a.decomposition.lag = lags;
        self.session.assessed(&tr, &a.findings);
        self.assessment = a;
        self.assessments += 1;
        tr
    }

    /// The stream ended: assesses the last instant (when there is one).
    pub(crate) fn finish(&mut self, engine: &Engine) -> Vec<Transition> {
        if self.tick.is_some() {
            self.assess_now(engine)
        } else {
            Vec::new()
        }
    }

    /// The newest assessment (warming up before the first).
    pub(crate) fn assessment(&self) -> &Assessment {
        &self.assessment
    }

    pub(crate) fn window(&self) -> Window {
        self.window
    }

    pub(crate) fn thresholds(&self) -> &Thresholds {
        self.causes.thresholds()
    }

    /// Instant of the first entry seen.
    pub(crate) fn first(&self) -> Option<Timestamp> {
        self.first
    }

    /// Samples seen (good or failed).
    pub(crate) fn samples(&self) -> usize {
        self.samples
    }

    /// How many times the causes were evaluated.
    pub(crate) fn assessments(&self) -> u64 {
        self.assessments
    }
}

/// Slots one driver keeps (the model's [`dgscope_model::sample::MAX_SLOTS`]): samples of
/// further slots are skipped and counted ([`Driver::skipped`]).
pub use dgscope_model::sample::MAX_SLOTS;

/// Samples a driver did not feed because their slot was beyond [`MAX_SLOTS`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Skipped {
    pub samples: usize,
    pub slots: usize,
    /// The first slot skipped.
    pub first: Option<Slot>,
    /// The instant of the first skipped sample.
    at: Option<Timestamp>,
}

/// source → metrics → causes for one pair, fed in order.
#[derive(Debug)]
pub struct Driver {
    engine: Engine,
    judge: Judge,
    slots: BTreeSet<Slot>,
    skipped: Skipped,
}

impl Driver {
    pub fn new(config: DriverConfig) -> Self {
        Driver {
            engine: Engine::new(config.engine),
            judge: Judge::new(config.window, config.thresholds),
            slots: BTreeSet::new(),
            skipped: Skipped::default(),
        }
    }

    /// Whether a sample of `slot` is fed: slots are admitted in the order they first
    /// appear, up to [`MAX_SLOTS`].
    fn admit(&mut self, slot: &Slot, t: Timestamp) -> bool {
        if self.slots.contains(slot) {
            return true;
        }
        if self.slots.len() < MAX_SLOTS {
            self.slots.insert(slot.clone());
            return true;
        }
        let k = &mut self.skipped;
        k.samples += 1;
        k.first.get_or_insert_with(|| slot.clone());
        // Every slot has one sample per instant: the skipped samples of the first instant
        // that had any are the slots skipped (no set of names that would grow with them).
        let at = *k.at.get_or_insert(t);
        if t == at {
            k.slots += 1;
        }
        false
    }

    /// Feeds one entry. When it begins a later instant than the previous entry, the previous
    /// instant is assessed first (with every slot in) and what was raised or cleared then is
    /// returned.
    pub fn push(&mut self, entry: Entry) -> Vec<Transition> {
        if let Entry::Sample(s) = &entry {
            if !self.admit(&s.slot, s.t) {
                return Vec::new();
            }
        }
        let transitions = self.begin(&entry);
        if let Entry::Mark(m) = &entry {
            self.judge.session.mark(m);
        }
        self.engine.push(entry);
        transitions
    }

    /// The first half of [`push`](Self::push): assesses the previous instant when `entry`
    /// begins a later one, without feeding it yet, so a caller can read the engine as it was
    /// before the entry (the incident report's "first minute" and baseline). Pushing the
    /// entry afterwards does not assess again.
    pub fn begin(&mut self, entry: &Entry) -> Vec<Transition> {
        let sample = matches!(entry, Entry::Sample(_));
        self.judge.begin(&self.engine, entry.t(), sample)
    }

    /// Feeds a source event: samples and marks as [`push`](Self::push); connection states
    /// and the end carry no data for the engine. Returns whether the event was data.
    pub fn on_event(&mut self, ev: SourceEvent) -> (bool, Vec<Transition>) {
        match ev {
            SourceEvent::Sample(s) => (true, self.push(Entry::Sample(s))),
            SourceEvent::Mark(m) => (true, self.push(Entry::Mark(m))),
            SourceEvent::Status { .. }
            | SourceEvent::End
            | SourceEvent::Checking(_)
            | SourceEvent::CaughtUp => (false, Vec::new()),
        }
    }

    /// The stream ended: assesses the last instant (when there is one).
    pub fn finish(&mut self) -> Vec<Transition> {
        self.judge.finish(&self.engine)
    }

    /// Assesses at the engine's newest instant now (the causes engine does not advance its
    /// hysteresis twice for one instant).
    pub fn assess_now(&mut self) -> Vec<Transition> {
        self.judge.assess_now(&self.engine)
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Samples skipped because their slot was beyond [`MAX_SLOTS`].
    pub fn skipped(&self) -> &Skipped {
        &self.skipped
    }

    /// The skipped samples as one line for stderr and the JSON `warnings`, when any were.
    pub fn skipped_warning(&self) -> Option<String> {
        let k = &self.skipped;
        let first = k.first.as_ref()?;
        Some(format!(
            "{} sample(s) of {} slot(s) beyond the first {MAX_SLOTS} were skipped (first: slot {first}); a primary has at most 31 destinations, the judgement uses the first {MAX_SLOTS} slots",
            k.samples, k.slots
        ))
    }

    /// One line when a slot's cumulative statistics went down without a restart (see
    /// `SlotSeries::counters_down`): every slot's count, the first one's where and what.
    pub fn counters_down_warning(&self) -> Option<String> {
        let mut total = 0;
        let mut first: Option<(&Slot, &(Timestamp, String))> = None;
        for (slot, series) in self.engine.slots() {
            let (n, at) = series.counters_down();
            total += n;
            if let Some(at) = at {
                if first.is_none_or(|(_, f)| at.0 < f.0) {
                    first = Some((slot, at));
                }
            }
        }
        let (slot, (t, name)) = first?;
        Some(format!(
            "{total} sample(s) had a cumulative statistic lower than the sample before with the same startup time (first: slot {slot}, '{name}' at {t}): counters V$SYSSTAT does not give, or a RAC instance restarted under the sum; rates over those intervals mean little"
        ))
    }

    /// Sets the baseline the screen compares with (`b`): the window current now.
    pub fn set_baseline(&mut self, window: Window) {
        self.engine.set_baseline(window);
    }

    pub fn clear_baseline(&mut self) {
        self.engine.clear_baseline();
    }

    /// The newest assessment (warming up before the first).
    pub fn assessment(&self) -> &Assessment {
        self.judge.assessment()
    }

    /// Everything raised, cleared and marked since the driver started.
    pub fn session(&self) -> &super::SessionLog {
        &self.judge.session
    }

    pub fn window(&self) -> Window {
        self.judge.window()
    }

    pub fn thresholds(&self) -> &Thresholds {
        self.judge.thresholds()
    }

    /// Instant of the first entry fed.
    pub fn first(&self) -> Option<Timestamp> {
        self.judge.first()
    }

    /// Samples fed (good or failed).
    pub fn samples(&self) -> usize {
        self.judge.samples()
    }

    /// How many times the causes were evaluated.
    pub fn assessments(&self) -> u64 {
        self.judge.assessments()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dgscope_model::source::PullSource;
    use dgscope_twin::{Scenario, Twin};

    fn feed(d: &mut Driver, twin: &mut Twin, ticks: usize) -> Vec<Transition> {
        let mut tr = Vec::new();
        for _ in 0..ticks {
            let tick = twin.next_tick().unwrap();
            for s in tick.samples {
                tr.extend(d.push(Entry::Sample(Box::new(s))));
            }
        }
        tr
    }

    #[test]
    fn assesses_once_per_completed_instant_not_per_sample() {
        let mut d = Driver::new(DriverConfig::last_minute(Thresholds::default()));
        let mut twin = Twin::new(Scenario::HealthySync, 1);
        feed(&mut d, &mut twin, 10);
        // Two slots per instant, ten instants: nine completed while feeding.
        assert_eq!(d.samples(), 20);
        assert_eq!(d.assessments(), 9);
        d.finish();
        assert_eq!(d.assessments(), 10);
    }

    #[test]
    fn raises_the_scenario_finding_with_hysteresis() {
        let mut d = Driver::new(DriverConfig::last_minute(Thresholds::default()));
        let mut twin = Twin::new(Scenario::SlowSrl, 1);
        let tr = feed(&mut d, &mut twin, 90);
        d.finish();
        let ids: Vec<_> = d.assessment().findings.iter().map(|f| f.id).collect();
        assert!(ids.contains(&"standby-redo-write-slow"), "{ids:?}");
        assert!(tr
            .iter()
            .any(|t| matches!(t, Transition::Raised(f) if f.id == "standby-redo-write-slow")));
        assert!(!d.assessment().warming_up);
    }

    #[test]
    fn the_overview_has_every_member_with_its_state_at_the_same_instant() {
        use crate::causes::{ApplyState, TransportState};
        let mut d = Driver::new(DriverConfig::last_minute(Thresholds::default()));
        let mut twin = Twin::new(Scenario::TwoStandbys, 3);
        feed(&mut d, &mut twin, 60);
        let o = &d.assessment().overview;
        let p = o.primary.as_ref().expect("the primary's row");
        assert!(!p.stale);
        assert_eq!(p.protection_mode.as_deref(), Some("MAXIMUM AVAILABILITY"));
        assert_eq!(o.standbys.len(), 2, "{o:#?}");
        for m in &o.standbys {
            assert!(!m.stale, "{m:#?}");
            assert_eq!(m.apply, ApplyState::Running, "{m:#?}");
            assert_eq!(m.transport, TransportState::Shipping, "{m:#?}");
            assert!(m.transport_lag_s.is_some() && m.apply_lag_s.is_some());
            assert!(
                m.dest_id.is_some(),
                "each standby matched to its destination"
            );
        }
        assert_ne!(o.standbys[0].dest_id, o.standbys[1].dest_id);
    }

    /// The SYNC link back but the destination still in ERROR: the evidence says the REOPEN
    /// retry is what keeps it down, and when it is due.
    #[test]
    fn a_failed_destination_says_when_reopen_retries_it() {
        let mut d = Driver::new(DriverConfig::last_minute(Thresholds::default()));
        let mut twin = Twin::new(Scenario::SyncNetTimeout, 2);
        feed(&mut d, &mut twin, 200);
        let f = d
            .assessment()
            .findings
            .iter()
            .find(|f| f.id == "dest-error")
            .expect("dest-error");
        let reopen = f
            .evidence
            .iter()
            .find(|e| e.metric.contains("REOPEN"))
            .expect("the REOPEN evidence");
        assert_eq!(reopen.value, 300.0);
        assert!(
            reopen.metric.contains("next retry 05:06:30"),
            "{}",
            reopen.metric
        );
        assert!(f
            .evidence
            .iter()
            .any(|e| e.metric.ends_with("failures") && e.value >= 1.0));
    }

    #[test]
    fn a_standby_that_does_not_answer_is_stale_in_the_overview_with_no_figures_as_now() {
        use crate::causes::{ApplyState, TransportState};
        let mut d = Driver::new(DriverConfig::last_minute(Thresholds::default()));
        let mut twin = Twin::new(Scenario::StandbyDown, 1);
        feed(&mut d, &mut twin, 240);
        let m = &d.assessment().overview.standbys[0];
        assert!(m.stale, "{m:#?}");
        assert_eq!(m.transport, TransportState::StandbyDown);
        assert_eq!(m.apply, ApplyState::Unknown);
        assert_eq!((m.transport_lag_s, m.apply_lag_s), (None, None));
        assert!(m.as_of.is_some(), "the last good word is dated");
    }

    #[test]
    fn begin_assesses_before_the_entry_goes_in_and_push_does_not_repeat_it() {
        let mut d = Driver::new(DriverConfig::last_minute(Thresholds::default()));
        let mut twin = Twin::new(Scenario::HealthySync, 1);
        feed(&mut d, &mut twin, 3);
        let next = twin.next_tick().unwrap().samples;
        let before = d.engine().latest();
        let entry = Entry::Sample(Box::new(next[0].clone()));
        d.begin(&entry);
        assert_eq!(d.assessments(), 3, "the third instant is assessed");
        assert_eq!(d.engine().latest(), before, "the entry is not in yet");
        d.push(entry);
        assert_eq!(d.assessments(), 3);
        assert!(d.engine().latest() > before);
    }

    #[test]
    fn slots_beyond_the_limit_are_skipped_and_counted() {
        let mut d = Driver::new(DriverConfig::last_minute(Thresholds::default()));
        let extra = 10;
        for t in 0..3 {
            for i in 0..MAX_SLOTS + extra {
                let s = dgscope_model::sample::Sample::new(
                    Timestamp::from_millis(t * 1000),
                    Slot::named_standby(&format!("sb{i:03}")),
                );
                d.push(Entry::Sample(Box::new(s)));
            }
        }
        assert_eq!(d.engine().slots().count(), MAX_SLOTS);
        assert_eq!(d.samples(), 3 * MAX_SLOTS);
        let k = d.skipped();
        assert_eq!((k.samples, k.slots), (3 * extra, extra));
        assert_eq!(
            k.first,
            Some(Slot::named_standby(&format!("sb{MAX_SLOTS:03}")))
        );
        let w = d.skipped_warning().unwrap();
        assert!(
            w.starts_with("30 sample(s) of 10 slot(s) beyond the first 64"),
            "{w}"
        );
    }

    #[test]
    fn status_events_are_not_data() {
        let mut d = Driver::new(DriverConfig::last_minute(Thresholds::default()));
        let (data, _) = d.on_event(SourceEvent::End);
        assert!(!data);
        assert_eq!(d.samples(), 0);
        assert!(d.finish().is_empty());
        assert!(d.assessment().warming_up);
    }

    /// A testkit pair driven second by second through a driver with `config`, as `serve`
    /// and `check` drive a source.
    fn drive(config: DriverConfig, pair: &crate::causes::testkit::Pair, secs: i64) -> Driver {
        let mut d = Driver::new(config);
        let mut acc = crate::causes::testkit::Acc::default();
        for i in 0..secs {
            acc.advance(pair);
            d.push(Entry::Sample(Box::new(pair.primary(i, &acc))));
            d.push(Entry::Sample(Box::new(pair.standby(i, &acc))));
        }
        d.finish();
        d
    }

    fn severity_of(d: &Driver, id: &str) -> Option<crate::causes::Severity> {
        let a = d.assessment();
        a.findings.iter().find(|f| f.id == id).map(|f| f.severity)
    }

    /// `serve`'s and `check --duration`'s settings, with `th`.
    fn headless(th: &Thresholds) -> [(&'static str, DriverConfig); 2] {
        [
            ("serve", DriverConfig::last_minute(th.clone())),
            (
                "check --duration 15m",
                DriverConfig::for_check(Some(Duration::from_secs(900)), th.clone()),
            ),
        ]
    }

    #[test]
    fn a_log_switch_gap_that_lasts_ten_minutes_is_warn_under_serve_and_check_duration() {
        let pair = crate::causes::testkit::Pair {
            sync: false,
            remote_ms: None,
            gap: "LOG SWITCH GAP".into(),
            ..Default::default()
        };
        let th = Thresholds::default();
        for (what, config) in headless(&th) {
            let short = drive(config.clone(), &pair, 120);
            assert_eq!(
                severity_of(&short, "dest-error"),
                Some(crate::causes::Severity::Info),
                "{what}: two minutes of a log switch gap is routine"
            );
            let long = drive(config, &pair, 640);
            assert_eq!(
                severity_of(&long, "dest-error"),
                Some(crate::causes::Severity::Warn),
                "{what}: past log_switch_gap_max_s the gap is WARN"
            );
        }
    }

    #[test]
    fn state_findings_held_for_a_long_state_hold_are_raised_under_serve_and_check_duration() {
        use crate::causes::testkit::Pair;
        let th = Thresholds {
            state_hold_s: 240.0,
            ..Thresholds::default()
        };
        let cases = [
            (
                "apply-stopped",
                Pair {
                    mrp_action: None,
                    apply_lag_growth: 1.0,
                    ..Pair::default()
                },
            ),
            (
                "transport-lag-unknown",
                Pair {
                    transport_lag_null: true,
                    ..Pair::default()
                },
            ),
            (
                "protection-degraded",
                Pair {
                    protection_mode: Some("MAXIMUM AVAILABILITY".into()),
                    protection_level: Some("RESYNCHRONIZATION".into()),
                    ..Pair::default()
                },
            ),
        ];
        for (what, config) in headless(&th) {
            for (id, pair) in &cases {
                let early = drive(config.clone(), pair, 200);
                assert_eq!(severity_of(&early, id), None, "{what}: {id} before 240 s");
                let held = drive(config.clone(), pair, 260);
                assert_eq!(
                    severity_of(&held, id),
                    Some(crate::causes::Severity::Crit),
                    "{what}: {id} held past state_hold_s"
                );
            }
        }
    }

    #[test]
    fn retention_follows_what_the_rules_read() {
        // By default the rules read little raw history: serve keeps about what it kept.
        let th = Thresholds::default();
        let serve = DriverConfig::last_minute(th.clone()).engine;
        assert!(
            serve.raw_span <= Duration::from_secs(120),
            "{:?}",
            serve.raw_span
        );
        // A longer state hold is kept longer, everywhere (a run of known length needs no
        // more than itself).
        let longer = Thresholds {
            state_hold_s: 1800.0,
            ..th
        };
        let reads = 1800.0 - longer.raise_after_s;
        for config in [
            DriverConfig::last_minute(longer.clone()),
            DriverConfig::for_report(longer.clone()),
            DriverConfig::for_screen(longer.clone(), 100),
            DriverConfig::for_check(None, longer.clone()),
        ] {
            assert!(
                config.engine.raw_span.as_secs_f64() >= reads,
                "{:?}",
                config.engine.raw_span
            );
        }
        let run = Duration::from_secs(900);
        assert_eq!(
            DriverConfig::for_check(Some(run), longer).engine.raw_span,
            run
        );
        let trend = Thresholds {
            apply_rate_window_s: 600.0,
            ..Thresholds::default()
        };
        assert!(DriverConfig::last_minute(trend).engine.history_len >= 600);
        // A finite but absurd setting (the config accepts any finite number) keeps at most a
        // day, and does not panic on the way.
        let absurd = Thresholds {
            state_hold_s: 1e300,
            apply_rate_window_s: 1e300,
            ..Thresholds::default()
        };
        for config in [
            DriverConfig::last_minute(absurd.clone()),
            DriverConfig::for_screen(absurd.clone(), 100),
            DriverConfig::for_check(None, absurd.clone()),
        ] {
            assert_eq!(config.engine.raw_span, Duration::from_secs(86_400));
            assert_eq!(config.engine.history_len, 86_400);
        }
    }
}
