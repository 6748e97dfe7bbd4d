//! One OS thread per database (the `oracle` crate is blocking FFI). Each thread owns its
//! session, samples at instants aligned to the interval, and pushes `SourceEvent`s into the
//! channel; a slow or dead standby never delays the primary. Lost sessions reconnect with
//! capped exponential backoff; failures become error samples so recordings keep the gap.

use super::clock::{backoff, next_aligned, Clock, StopSignal, SystemClock};
use super::driver::{Conn, Driver, LoginSpec, Row};
use super::errors::{explain, ErrCode, ErrContext, Explanation, OraError};
use super::log;
use super::map::{self, MapInput};
use super::messages::MessageCursor;
use super::probe::{self, Probe};
use super::sql::{self, Part};
use dgscope_model::sample::{PartError, Sample, Slot};
use dgscope_model::source::{ConnState, SourceEvent};
use dgscope_model::timestamp::Timestamp;
use dgscope_model::units::Micros;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::mpsc as std_mpsc;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tokio::sync::mpsc::Sender;

/// One database to watch.
#[derive(Debug, Clone)]
pub struct TargetConfig {
    pub slot: Slot,
    pub login: LoginSpec,
}

#[derive(Debug, Clone)]
pub struct CollectorConfig {
    pub targets: Vec<TargetConfig>,
    pub interval: Duration,
    /// Slow-changing parts (parameters, logs, switches) come this often.
    pub slow_every: Duration,
    pub connect_timeout: Duration,
    pub backoff_initial: Duration,
    pub backoff_max: Duration,
}

impl CollectorConfig {
    pub fn new(targets: Vec<TargetConfig>, interval: Duration) -> Self {
        CollectorConfig {
            targets,
            interval,
            slow_every: Duration::from_secs(60),
            connect_timeout: Duration::from_secs(15),
            backoff_initial: Duration::from_secs(1),
            backoff_max: Duration::from_secs(30),
        }
    }

    /// For the recording header: `oracle primary=mon@//h/p standby=…` (never a password).
    pub fn describe(&self) -> String {
        let mut s = String::from("oracle");
        for t in &self.targets {
            s.push_str(&format!(" {}={}", t.slot, t.login.conn));
        }
        s
    }
}

/// The running collector. Dropping it asks the threads to stop.
pub struct CollectorHandle {
    stop: StopSignal,
    threads: Vec<JoinHandle<()>>,
}

impl CollectorHandle {
    /// Asks every thread to stop; returns at once. A thread inside a database call stops
    /// when the call returns (bounded by the call timeout).
    pub fn stop(&self) {
        self.stop.stop();
    }

    /// Stops and waits for the threads.
    pub fn join(mut self) {
        self.stop.stop();
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

impl Drop for CollectorHandle {
    fn drop(&mut self) {
        self.stop.stop();
    }
}

/// Starts one thread per target on the wall clock.
pub fn spawn_collector(
    config: CollectorConfig,
    driver: Arc<dyn Driver>,
    tx: Sender<SourceEvent>,
) -> CollectorHandle {
    spawn_collector_with_clock(config, driver, Arc::new(SystemClock), tx)
}

/// As [`spawn_collector`], with a chosen clock (tests use `VirtualClock`).
pub fn spawn_collector_with_clock(
    config: CollectorConfig,
    driver: Arc<dyn Driver>,
    clock: Arc<dyn Clock>,
    tx: Sender<SourceEvent>,
) -> CollectorHandle {
    let stop = StopSignal::default();
    let config = Arc::new(config);
    let threads = (0..config.targets.len())
        .map(|i| {
            let w = Worker {
                target: config.targets[i].clone(),
                config: Arc::clone(&config),
                driver: Arc::clone(&driver),
                clock: Arc::clone(&clock),
                stop: stop.clone(),
                tx: tx.clone(),
                pending_connect: None,
                messages: MessageCursor::default(),
            };
            std::thread::Builder::new()
                .name(format!("dgscope-{}", config.targets[i].slot))
                .spawn(move || w.run())
                .expect("spawning a collector thread")
        })
        .collect();
    CollectorHandle { stop, threads }
}

type ConnectResult = Result<Box<dyn Conn>, OraError>;

struct Worker {
    target: TargetConfig,
    config: Arc<CollectorConfig>,
    driver: Arc<dyn Driver>,
    clock: Arc<dyn Clock>,
    stop: StopSignal,
    tx: Sender<SourceEvent>,
    /// A connect that outlived the connect timeout and may still be running.
    pending_connect: Option<std_mpsc::Receiver<ConnectResult>>,
    /// Which Data Guard messages earlier samples carried; outlives a session, so a
    /// reconnect does not repeat them.
    messages: MessageCursor,
}

/// A connected, probed session and what it has learnt about denied parts.
struct Session {
    conn: Box<dyn Conn>,
    probe: Probe,
    parts: Vec<Part>,
    denied: BTreeMap<&'static str, PartError>,
    last_slow: Option<Timestamp>,
}

/// How a tick ended.
enum TickError {
    /// The session is unusable: reconnect.
    Lost(OraError),
    /// The session is fine but nothing could be read (every part denied).
    Empty(OraError, Vec<String>),
}

impl Worker {
    fn send(&self, ev: SourceEvent) -> bool {
        self.tx.blocking_send(ev).is_ok()
    }

    fn status(&self, state: ConnState) -> bool {
        self.send(SourceEvent::Status {
            slot: self.target.slot.clone(),
            state,
        })
    }

    fn context(&self, views: Vec<String>) -> ErrContext {
        let c = &self.target.login.conn;
        ErrContext {
            target: c.to_string(),
            user: c.user.clone(),
            host_port: c.host_port(),
            service: c.service(),
            privilege: self.target.login.privilege.as_str().to_string(),
            views,
            call_timeout_s: Some(self.target.login.call_timeout.as_secs()),
        }
    }

    fn failed_sample(&self, ex: &Explanation) -> bool {
        let s = Sample::failed(
            self.clock.now(),
            self.target.slot.clone(),
            ex.kind.clone(),
            ex.one_line(),
        );
        self.send(SourceEvent::Sample(Box::new(s)))
    }

    fn run(mut self) {
        let mut session: Option<Session> = None;
        let mut attempt: u32 = 0;
        while !self.stop.is_stopped() {
            let Some(sess) = session.as_mut() else {
                if !self.status(ConnState::Connecting) {
                    return;
                }
                let login = &self.target.login;
                log::connecting(
                    &self.target.slot,
                    &login.conn.to_string(),
                    login.privilege.as_str(),
                );
                match self.connect() {
                    Ok(s) => {
                        log::connected(&self.target.slot, &s.probe);
                        attempt = 0;
                        session = Some(s);
                        if !self.status(ConnState::Connected) {
                            return;
                        }
                    }
                    Err((e, views)) => {
                        attempt += 1;
                        let ex = explain(&e, &self.context(views));
                        log::error(&self.target.slot, &e, &ex);
                        if !self.failed_sample(&ex) {
                            return;
                        }
                        if ex.give_up {
                            log::gave_up(&self.target.slot, &ex.summary);
                            self.status(ConnState::Failed {
                                reason: ex.one_line(),
                            });
                            return;
                        }
                        if !self.wait_backoff(attempt, &ex) {
                            return;
                        }
                    }
                }
                continue;
            };
            let tick = next_aligned(self.clock.now(), self.config.interval);
            if !self.clock.sleep_until(tick, &self.stop) {
                return;
            }
            match self.tick(sess, tick) {
                Ok(sample) => {
                    let role_changed = sample.role() != Some(&sess.probe.role);
                    if !self.send(SourceEvent::Sample(Box::new(sample))) {
                        return;
                    }
                    if role_changed {
                        // Switchover or failover: the other role needs other parts.
                        match probe::run(sess.conn.as_mut()) {
                            Ok(p) => {
                                log::reprobed(&self.target.slot, &p);
                                sess.parts = sql::parts(p.kind(), p.features);
                                sess.probe = p;
                                sess.denied.clear();
                            }
                            Err(e) => {
                                log::disconnected(&self.target.slot, &e.to_string());
                                session = None;
                            }
                        }
                    }
                }
                Err(TickError::Empty(e, views)) => {
                    let ex = explain(&e, &self.context(views));
                    log::error(&self.target.slot, &e, &ex);
                    if !self.failed_sample(&ex) {
                        return;
                    }
                }
                Err(TickError::Lost(e)) => {
                    session = None;
                    attempt = 1;
                    let ex = explain(&e, &self.context(Vec::new()));
                    log::error(&self.target.slot, &e, &ex);
                    log::disconnected(&self.target.slot, &ex.summary);
                    if !self.failed_sample(&ex) || !self.wait_backoff(attempt, &ex) {
                        return;
                    }
                }
            }
        }
    }

    /// Announces the next try and sleeps until then. False when stopping.
    fn wait_backoff(&self, attempt: u32, ex: &Explanation) -> bool {
        let delay = backoff(
            attempt,
            self.config.backoff_initial,
            self.config.backoff_max,
        );
        log::backoff(&self.target.slot, attempt, delay);
        let next_try = self.clock.now().add_millis(delay.as_millis() as i64);
        if !self.status(ConnState::Reconnecting {
            next_try,
            attempt,
            reason: ex.one_line(),
        }) {
            return false;
        }
        self.clock.sleep_until(next_try, &self.stop)
    }

    /// Connects and probes. A part-level error of the probe comes with the probe's views,
    /// so the message can name the grants.
    fn connect(&mut self) -> Result<Session, (OraError, Vec<String>)> {
        let mut conn = self.connect_with_timeout().map_err(|e| (e, Vec::new()))?;
        let probe = probe::run(conn.as_mut()).map_err(|e| {
            let views = if e.is_part_level() {
                sql::PROBE_VIEWS.iter().map(|v| v.to_string()).collect()
            } else {
                Vec::new()
            };
            (e, views)
        })?;
        let parts = sql::parts(probe.kind(), probe.features);
        Ok(Session {
            conn,
            probe,
            parts,
            denied: BTreeMap::new(),
            last_slow: None,
        })
    }

    /// The client library has no connect timeout of its own for every connect-string form,
    /// so the connect runs on a helper thread and is abandoned after the timeout. At most
    /// one abandoned attempt exists per database: a second is not started while it runs.
    fn connect_with_timeout(&mut self) -> Result<Box<dyn Conn>, OraError> {
        let timeout = self.config.connect_timeout;
        if let Some(rx) = &self.pending_connect {
            match rx.try_recv() {
                Err(std_mpsc::TryRecvError::Empty) => {
                    return Err(OraError::new(
                        ErrCode::ConnectTimeout,
                        "the previous connect attempt is still waiting for the network",
                    ))
                }
                // Finished late: whatever it produced is stale; start afresh.
                _ => self.pending_connect = None,
            }
        }
        let (tx, rx) = std_mpsc::channel();
        let driver = Arc::clone(&self.driver);
        let login = self.target.login.clone();
        std::thread::Builder::new()
            .name(format!("dgscope-connect-{}", self.target.slot))
            .spawn(move || {
                let _ = tx.send(driver.connect(&login));
            })
            .map_err(|e| OraError::new(ErrCode::Other, format!("cannot start a thread: {e}")))?;
        match rx.recv_timeout(timeout) {
            Ok(r) => r,
            Err(std_mpsc::RecvTimeoutError::Timeout) => {
                self.pending_connect = Some(rx);
                Err(OraError::new(
                    ErrCode::ConnectTimeout,
                    format!("no answer within {} s", timeout.as_secs()),
                ))
            }
            Err(std_mpsc::RecvTimeoutError::Disconnected) => Err(OraError::new(
                ErrCode::Other,
                "the connect attempt ended without a result",
            )),
        }
    }

    fn part_error(&self, p: &Part, e: &OraError) -> PartError {
        let ex = explain(
            e,
            &self.context(p.views.iter().map(|v| v.to_string()).collect()),
        );
        log::part_denied(&self.target.slot, p.name, e, &ex);
        PartError {
            part: p.name.to_string(),
            code: e.code.to_string(),
            message: ex.one_line(),
        }
    }

    /// One sample: one statement, or on a part-level error one statement per part to find
    /// and drop the failing ones (a UNION ALL fails as a whole on ORA-00942).
    fn tick(&mut self, sess: &mut Session, tick: Timestamp) -> Result<Sample, TickError> {
        let slow = sess
            .last_slow
            .is_none_or(|l| tick.ms - l.ms >= self.config.slow_every.as_millis() as i64);
        let started = Instant::now();
        let mut rows: Vec<Row> = Vec::new();
        let mut included: BTreeSet<&'static str> = BTreeSet::new();
        let active: Vec<Part> = sess
            .parts
            .iter()
            .filter(|p| !sess.denied.contains_key(p.name) && (slow || !p.slow))
            .cloned()
            .collect();
        let mut fell_back = false;
        if !active.is_empty() {
            match sess.conn.query(&sql::statement(&active)) {
                Ok(r) => {
                    rows = r;
                    included.extend(active.iter().map(|p| p.name));
                }
                Err(e) if e.is_part_level() => {
                    fell_back = true;
                    for p in &active {
                        let mut result = sess.conn.query(&p.sql);
                        if let (Err(e), Some(alt)) = (&result, &p.alt_sql) {
                            if e.code == ErrCode::Ora(904) {
                                result = sess.conn.query(alt);
                                if result.is_ok() {
                                    // This release lacks a column: use the other text from now on.
                                    if let Some(sp) =
                                        sess.parts.iter_mut().find(|x| x.name == p.name)
                                    {
                                        sp.sql = alt.clone();
                                        sp.alt_sql = None;
                                    }
                                }
                            }
                        }
                        match result {
                            Ok(r) => {
                                rows.extend(r);
                                included.insert(p.name);
                            }
                            Err(e) if e.is_part_level() => {
                                let pe = self.part_error(p, &e);
                                sess.denied.insert(p.name, pe);
                            }
                            Err(e) => return Err(TickError::Lost(e)),
                        }
                    }
                }
                Err(e) => return Err(TickError::Lost(e)),
            }
        }
        if slow && !fell_back {
            // A DBA may run the GRANT mid-incident: look again once a minute.
            let retry: Vec<Part> = sess
                .parts
                .iter()
                .filter(|p| sess.denied.contains_key(p.name))
                .cloned()
                .collect();
            for p in &retry {
                match sess.conn.query(&p.sql) {
                    Ok(r) => {
                        rows.extend(r);
                        included.insert(p.name);
                        sess.denied.remove(p.name);
                        log::part_restored(&self.target.slot, p.name);
                    }
                    Err(e) if e.is_part_level() => {}
                    Err(e) => return Err(TickError::Lost(e)),
                }
            }
        }
        if slow {
            sess.last_slow = Some(tick);
        }
        if included.is_empty() {
            let views: Vec<String> = sess
                .parts
                .iter()
                .flat_map(|p| p.views.iter().map(|v| v.to_string()))
                .collect();
            let code = sess
                .denied
                .values()
                .next()
                .map(|pe| crate::errors::code_in(&pe.code))
                .unwrap_or(ErrCode::Ora(942));
            return Err(TickError::Empty(
                OraError::new(code, "every part of the sample was refused"),
                views,
            ));
        }
        let query_us = Micros(started.elapsed().as_micros() as u64);
        let t = self.clock.now();
        Ok(map::to_sample_with(
            &rows,
            MapInput {
                t,
                slot: self.target.slot.clone(),
                query_us: Some(query_us),
                probe: &sess.probe,
                included: &included,
                errors: sess.denied.values().cloned().collect(),
            },
            &mut self.messages,
        ))
    }
}
