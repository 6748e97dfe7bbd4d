//! A fake database for tests and demos of the Oracle source. It holds rows of the documented
//! views (column names as in Oracle's Reference, values as text) and answers dgscope's
//! statements the way Oracle would: ORA-00942 for a view that does not exist in its release
//! or is not granted, ORA-00904 for a column the branch needs but does not name, and each
//! UNION ALL branch projected from the view rows. It knows no dgscope types: a wrong mapping
//! in `map.rs` cannot be mirrored here.

use super::connect::Privilege;
use super::driver::{Conn, Driver, LoginSpec, Row};
use super::errors::OraError;
use super::parse;
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::sync::{Arc, Mutex};

/// One row of a view: column → value (absent = NULL).
pub type ViewRow = BTreeMap<String, String>;

pub fn vrow(cols: &[(&str, &str)]) -> ViewRow {
    cols.iter()
        .map(|(k, v)| (k.to_ascii_uppercase(), v.to_string()))
        .collect()
}

/// A database as the fake sees it.
#[derive(Debug, Clone, Default)]
pub struct FakeDb {
    /// `V$X` → rows (with `INST_ID`). A view absent from the map does not exist in this
    /// release (ORA-00942, and not listed in `V$FIXED_TABLE`).
    pub views: BTreeMap<String, Vec<ViewRow>>,
    /// Views the user may not read (ORA-00942), as `V$X`.
    pub denied: BTreeSet<String>,
    /// Views whose queries fail with this error (e.g. ORA-04031), as `V$X`.
    pub failing: BTreeMap<String, OraError>,
    /// `SYSDATE` and `SYS_EXTRACT_UTC(SYSTIMESTAMP)` as `YYYY-MM-DD HH24:MI:SS`.
    pub sysdate: String,
    pub utc_now: String,
    /// Connect attempts fail with these, in order, before one succeeds.
    pub connect_errors: VecDeque<OraError>,
    /// Every connect fails with this (after `connect_errors`).
    pub connect_always: Option<OraError>,
    /// After this many queries on a session, the next fails with the error and the session
    /// is dead (later queries: DPI-1010).
    pub lose_after: Option<(usize, OraError)>,
    /// The password the fake accepts (`None`: any).
    pub password: Option<String>,
    /// A normal login to a MOUNTED database is refused (ORA-01033) as Oracle does.
    pub mounted: bool,
    /// Which privileges the password file grants (empty: all).
    pub admin_privileges: BTreeSet<&'static str>,
    /// Columns this release lacks (lower case): a branch naming one fails with ORA-00904.
    pub missing_columns: BTreeSet<String>,
    /// Connecting takes this long (real time): a host that does not answer.
    pub connect_delay: Option<std::time::Duration>,
    /// Every query after the first `n` on a session takes this long (real time) before it
    /// answers: a database that hangs in the middle of a session (`(n, delay)`).
    pub query_delay: Option<(usize, std::time::Duration)>,
    /// A CDB common user without `CONTAINER_DATA`: container data objects return only the
    /// rows of the whole CDB and of the root (`CON_ID` 0 and 1), as Oracle documents.
    pub root_only: bool,
}

impl FakeDb {
    pub fn view(&mut self, name: &str) -> &mut Vec<ViewRow> {
        self.views.entry(name.to_ascii_uppercase()).or_default()
    }
}

/// What the fake saw, for assertions.
#[derive(Debug, Clone, Default)]
pub struct FakeLog {
    /// `(connect string, privilege)` per successful or failed attempt.
    pub logins: Vec<(String, Privilege)>,
    /// `(connect string, statement)` per query.
    pub statements: Vec<(String, String)>,
}

#[derive(Debug, Default)]
struct State {
    dbs: HashMap<String, FakeDb>,
    log: FakeLog,
}

/// The fake driver: databases keyed by connect string (`//h:1521/prod_a`).
#[derive(Debug, Clone, Default)]
pub struct FakeDriver {
    state: Arc<Mutex<State>>,
}

impl FakeDriver {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn add(&self, connect: &str, db: FakeDb) {
        self.lock().dbs.insert(connect.to_string(), db);
    }

    /// Changes a database while collectors run (e.g. the DBA grants a view).
    pub fn update(&self, connect: &str, f: impl FnOnce(&mut FakeDb)) {
        if let Some(db) = self.lock().dbs.get_mut(connect) {
            f(db);
        }
    }

    pub fn log(&self) -> FakeLog {
        self.lock().log.clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Driver for FakeDriver {
    fn connect(&self, login: &LoginSpec) -> Result<Box<dyn Conn>, OraError> {
        let key = login.conn.connect.clone();
        let delay = {
            let mut st = self.lock();
            st.log.logins.push((key.clone(), login.privilege));
            st.dbs.get(&key).and_then(|d| d.connect_delay)
        };
        if let Some(d) = delay {
            std::thread::sleep(d);
        }
        let mut st = self.lock();
        let Some(db) = st.dbs.get_mut(&key) else {
            return Err(OraError::ora(12541, "TNS:no listener"));
        };
        if let Some(e) = db.connect_errors.pop_front() {
            return Err(e);
        }
        if let Some(e) = &db.connect_always {
            return Err(e.clone());
        }
        if let (Some(want), false) = (&db.password, login.conn.external_auth()) {
            if login.password.as_ref().map(|p| p.expose()) != Some(want.as_str()) {
                return Err(OraError::ora(
                    1017,
                    "invalid username/password; logon denied",
                ));
            }
        }
        match login.privilege {
            Privilege::Normal if db.mounted => {
                return Err(OraError::ora(
                    1033,
                    "ORACLE initialization or shutdown in progress",
                ))
            }
            Privilege::Sysdg | Privilege::Sysdba
                if !db.admin_privileges.is_empty()
                    && !db.admin_privileges.contains(login.privilege.as_str()) =>
            {
                return Err(OraError::ora(1031, "insufficient privileges"))
            }
            _ => {}
        }
        Ok(Box::new(FakeConn {
            state: Arc::clone(&self.state),
            key,
            queries: 0,
            dead: false,
        }))
    }
}

struct FakeConn {
    state: Arc<Mutex<State>>,
    key: String,
    queries: usize,
    dead: bool,
}

impl Conn for FakeConn {
    fn query(&mut self, sql: &str) -> Result<Vec<Row>, OraError> {
        let delay = {
            let st = self.state.lock().unwrap_or_else(|e| e.into_inner());
            st.dbs
                .get(&self.key)
                .and_then(|d| d.query_delay)
                .filter(|(n, _)| self.queries >= *n)
                .map(|(_, d)| d)
        };
        // Outside the lock: the other databases' sessions answer meanwhile.
        if let Some(d) = delay {
            std::thread::sleep(d);
        }
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        st.log.statements.push((self.key.clone(), sql.to_string()));
        if self.dead {
            return Err(OraError::dpi(1010, "not connected"));
        }
        let db = st
            .dbs
            .get(&self.key)
            .ok_or_else(|| OraError::ora(3113, "end-of-file on communication channel"))?;
        if let Some((n, e)) = &db.lose_after {
            if self.queries >= *n {
                self.dead = true;
                return Err(e.clone());
            }
        }
        self.queries += 1;
        answer(db, sql)
    }
}

fn ora942() -> OraError {
    OraError::ora(942, "table or view does not exist")
}

/// Views a statement names after FROM/JOIN, as (`V$X`, global?).
fn views_in(sql: &str) -> Vec<(String, bool)> {
    let lower = sql.to_ascii_lowercase();
    let toks: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == ',')
        .filter(|t| !t.is_empty())
        .collect();
    toks.windows(2)
        .filter(|w| w[0] == "from" || w[0] == "join")
        .filter_map(|w| {
            let t = w[1];
            if let Some(rest) = t.strip_prefix("gv$") {
                Some((format!("V${}", rest.to_ascii_uppercase()), true))
            } else {
                t.strip_prefix("v$")
                    .map(|rest| (format!("V${}", rest.to_ascii_uppercase()), false))
            }
        })
        .collect()
}

/// The names of an `IN ('a','b')` list following `col IN (`.
fn in_list(branch: &str, col: &str) -> BTreeSet<String> {
    let key = format!("{col} IN (");
    let Some(i) = branch.find(&key) else {
        return BTreeSet::new();
    };
    let rest = &branch[i + key.len()..];
    let mut out = BTreeSet::new();
    let mut cur = String::new();
    let mut in_str = false;
    let mut chars = rest.chars().peekable();
    while let Some(c) = chars.next() {
        match (in_str, c) {
            (false, '\'') => in_str = true,
            (true, '\'') if chars.peek() == Some(&'\'') => {
                chars.next();
                cur.push('\'');
            }
            (true, '\'') => {
                in_str = false;
                out.insert(std::mem::take(&mut cur));
            }
            (true, c) => cur.push(c),
            (false, ')') => break,
            _ => {}
        }
    }
    out
}

fn answer(db: &FakeDb, sql: &str) -> Result<Vec<Row>, OraError> {
    for (v, _) in views_in(sql) {
        if !db.views.contains_key(&v) || db.denied.contains(&v) {
            return Err(ora942());
        }
        if let Some(e) = db.failing.get(&v) {
            return Err(e.clone());
        }
    }
    if sql.contains("FROM v$fixed_table") {
        let wanted = in_list(sql, "name");
        return Ok(wanted
            .into_iter()
            .filter(|n| {
                let local = n.strip_prefix('G').unwrap_or(n);
                db.views.contains_key(local)
            })
            .map(|n| vec![Some(n)])
            .collect());
    }
    if sql.starts_with("SELECT i.version_full, d.cdb FROM") {
        let inst = db.views["V$INSTANCE"].first();
        let d = db.views["V$DATABASE"].first();
        return match (
            inst.and_then(|r| r.get("VERSION_FULL")),
            d.and_then(|r| r.get("CDB")),
        ) {
            (Some(v), Some(c)) => Ok(vec![vec![Some(v.clone()), Some(c.clone())]]),
            (None, _) => Err(OraError::ora(
                904,
                "\"I\".\"VERSION_FULL\": invalid identifier",
            )),
            (_, None) => Err(OraError::ora(904, "\"D\".\"CDB\": invalid identifier")),
        };
    }
    if sql.starts_with("SELECT cdb FROM") {
        let d = db.views["V$DATABASE"].first();
        return match d.and_then(|r| r.get("CDB")) {
            Some(v) => Ok(vec![vec![Some(v.clone())]]),
            None => Err(OraError::ora(904, "\"CDB\": invalid identifier")),
        };
    }
    if sql.starts_with("SELECT i.version") {
        let i = db.views["V$INSTANCE"]
            .iter()
            .find(|r| r.get("INST_ID").map(String::as_str) == Some("1"))
            .cloned()
            .unwrap_or_default();
        let d = db.views["V$DATABASE"].first().cloned().unwrap_or_default();
        let g = |r: &ViewRow, c: &str| r.get(c).cloned();
        return Ok(vec![vec![
            g(&i, "VERSION"),
            g(&i, "INSTANCE_NUMBER"),
            g(&i, "STATUS"),
            g(&d, "DATABASE_ROLE"),
            g(&d, "OPEN_MODE"),
            g(&d, "DB_UNIQUE_NAME"),
            g(&d, "PROTECTION_MODE"),
            g(&d, "PROTECTION_LEVEL"),
            Some(db.views["V$INSTANCE"].len().to_string()),
        ]]);
    }
    let lower = sql.to_ascii_lowercase();
    for c in &db.missing_columns {
        if lower.contains(c.as_str()) {
            return Err(OraError::ora(
                904,
                &format!("\"{}\": invalid identifier", c.to_uppercase()),
            ));
        }
    }
    let mut out = Vec::new();
    for branch in sql.split("\nUNION ALL\n") {
        out.extend(project(db, branch)?);
    }
    Ok(out)
}

/// Rows of a view as a branch sees them: GV$ all instances, V$ the local one (inst 1).
fn rows_of<'a>(db: &'a FakeDb, branch: &str, view: &str) -> Vec<&'a ViewRow> {
    let global = views_in(branch).iter().any(|(v, g)| v == view && *g);
    db.views
        .get(view)
        .map(|rs| {
            rs.iter()
                .filter(|r| global || r.get("INST_ID").is_none_or(|i| i == "1"))
                .filter(|r| {
                    !db.root_only
                        || r.get("CON_ID")
                            .and_then(|c| c.parse::<u64>().ok())
                            .is_none_or(|c| c <= 1)
                })
                .collect()
        })
        .unwrap_or_default()
}

/// DATE text → seconds since 1970 in the database's zone, as `(d - DATE '1970-01-01')*86400`.
fn epoch(s: Option<&String>) -> Option<String> {
    s.and_then(|s| parse::oracle_datetime_naive(s))
        .map(|n| n.to_string())
}

fn needs(branch: &str, cols: &[&str]) -> Result<(), OraError> {
    let lower = branch.to_ascii_lowercase();
    for c in cols {
        if !lower.contains(&c.to_ascii_lowercase()) {
            return Err(OraError::ora(904, &format!("\"{c}\": invalid identifier")));
        }
    }
    Ok(())
}

fn uniform(
    tag: &str,
    inst: Option<String>,
    k1: Option<String>,
    k2: Option<String>,
    ns: Vec<Option<String>>,
    s1: Option<String>,
) -> Row {
    let mut r = vec![Some(tag.to_string()), inst, k1, k2];
    for i in 0..6 {
        r.push(ns.get(i).cloned().flatten());
    }
    r.push(s1);
    r
}

fn join31(parts: &[Option<&String>]) -> Option<String> {
    Some(
        parts
            .iter()
            .map(|p| p.map(String::as_str).unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\u{1f}"),
    )
}

fn num_gt0(v: Option<&String>) -> bool {
    v.and_then(|s| s.parse::<f64>().ok())
        .is_some_and(|n| n > 0.0)
}

/// `V$SESSION` as the WAIT branch reads it: in-flight non-idle waits grouped by event
/// (sessions, longest `WAIT_TIME_MICRO`), the blocker's `PROGRAM` taken from the longest
/// waiter that has a blocker (`KEEP (DENSE_RANK LAST ORDER BY NVL2(b.program, 1, 0), …)`),
/// longest first, cut at the branch's `ROWNUM <= n`.
fn waits_now(db: &FakeDb, b: &str) -> Vec<Row> {
    let sessions = rows_of(db, b, "V$SESSION");
    fn get<'a>(r: &'a ViewRow, k: &str) -> Option<&'a str> {
        r.get(k).map(String::as_str)
    }
    let micro = |r: &ViewRow| {
        get(r, "WAIT_TIME_MICRO")
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(f64::NEG_INFINITY)
    };
    let program_of = |r: &ViewRow| -> Option<String> {
        let (i, sid) = (get(r, "BLOCKING_INSTANCE")?, get(r, "BLOCKING_SESSION")?);
        sessions
            .iter()
            .find(|s| get(s, "INST_ID").unwrap_or("1") == i && get(s, "SID") == Some(sid))
            .and_then(|s| s.get("PROGRAM").cloned())
    };
    let mut groups: BTreeMap<String, Vec<&ViewRow>> = BTreeMap::new();
    for r in &sessions {
        if get(r, "STATE") == Some("WAITING") && get(r, "WAIT_CLASS").is_some_and(|c| c != "Idle") {
            if let Some(e) = get(r, "EVENT") {
                groups.entry(e.to_string()).or_default().push(r);
            }
        }
    }
    let mut rows: Vec<(f64, Row)> = groups
        .into_iter()
        .map(|(event, ws)| {
            let longest = ws
                .iter()
                .map(|r| micro(r))
                .fold(f64::NEG_INFINITY, f64::max);
            let blocker = ws
                .iter()
                .map(|r| (program_of(r), micro(r)))
                .max_by(|a, b| {
                    (a.0.is_some(), a.1)
                        .partial_cmp(&(b.0.is_some(), b.1))
                        .unwrap()
                })
                .and_then(|(p, _)| p);
            let class = ws.iter().filter_map(|r| r.get("WAIT_CLASS")).max().cloned();
            let row = uniform(
                "WAIT",
                None,
                Some(event),
                class,
                vec![
                    Some(ws.len().to_string()),
                    longest.is_finite().then(|| longest.to_string()),
                ],
                blocker,
            );
            (longest, row)
        })
        .collect();
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    let limit = b
        .rsplit("ROWNUM <= ")
        .next()
        .and_then(|n| n.trim().parse::<usize>().ok())
        .unwrap_or(usize::MAX);
    rows.into_iter().take(limit).map(|r| r.1).collect()
}

/// `V$SYSTEM_EVENT` as the TOPW branch reads it: non-idle events summed over the instances,
/// the most foreground time first, cut at the branch's `ROWNUM <= n`.
fn top_waits(db: &FakeDb, b: &str) -> Vec<Row> {
    let mut by: BTreeMap<String, (String, [u64; 4])> = BTreeMap::new();
    for r in rows_of(db, b, "V$SYSTEM_EVENT") {
        let (Some(ev), Some(cls)) = (r.get("EVENT"), r.get("WAIT_CLASS")) else {
            continue;
        };
        if cls == "Idle" {
            continue;
        }
        let e = by.entry(ev.clone()).or_insert((cls.clone(), [0; 4]));
        for (i, c) in [
            "TOTAL_WAITS",
            "TIME_WAITED_MICRO",
            "TOTAL_WAITS_FG",
            "TIME_WAITED_MICRO_FG",
        ]
        .iter()
        .enumerate()
        {
            e.1[i] += r.get(*c).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
        }
    }
    let mut rows: Vec<(String, (String, [u64; 4]))> = by.into_iter().collect();
    rows.sort_by(|a, b| b.1 .1[3].cmp(&a.1 .1[3]).then(a.0.cmp(&b.0)));
    let limit = b
        .rsplit("ROWNUM <=")
        .next()
        .and_then(|n| n.trim().parse::<usize>().ok())
        .unwrap_or(usize::MAX);
    rows.into_iter()
        .take(limit)
        .map(|(ev, (cls, n))| {
            uniform(
                "TOPW",
                None,
                Some(ev),
                Some(cls),
                n.iter().map(|x| Some(x.to_string())).collect(),
                None,
            )
        })
        .collect()
}

fn project(db: &FakeDb, b: &str) -> Result<Vec<Row>, OraError> {
    let tag = b
        .strip_prefix("SELECT '")
        .and_then(|s| s.split('\'').next())
        .unwrap_or("");
    let c = |r: &ViewRow, k: &str| r.get(k).cloned();
    let mut out = Vec::new();
    match tag {
        "CLK" => {
            needs(
                b,
                &["inst_id", "status", "version", "startup_time", "host_name"],
            )?;
            for r in rows_of(db, b, "V$INSTANCE") {
                out.push(uniform(
                    tag,
                    c(r, "INST_ID"),
                    c(r, "STATUS"),
                    c(r, "VERSION"),
                    vec![
                        epoch(r.get("STARTUP_TIME")),
                        epoch(Some(&db.sysdate)),
                        epoch(Some(&db.utc_now)),
                    ],
                    c(r, "HOST_NAME"),
                ));
            }
        }
        "DB" => {
            needs(
                b,
                &[
                    "database_role",
                    "open_mode",
                    "db_unique_name",
                    "protection_mode",
                    "protection_level",
                    "switchover_status",
                    "dataguard_broker",
                    "fs_failover_status",
                    "fs_failover_current_target",
                    "fs_failover_threshold",
                    "fs_failover_observer_present",
                    "fs_failover_observer_host",
                    "force_logging",
                    "flashback_on",
                ],
            )?;
            for r in rows_of(db, b, "V$DATABASE") {
                out.push(uniform(
                    tag,
                    None,
                    c(r, "DATABASE_ROLE"),
                    c(r, "OPEN_MODE"),
                    vec![c(r, "FS_FAILOVER_THRESHOLD")],
                    join31(&[
                        r.get("DB_UNIQUE_NAME"),
                        r.get("PROTECTION_MODE"),
                        r.get("PROTECTION_LEVEL"),
                        r.get("SWITCHOVER_STATUS"),
                        r.get("DATAGUARD_BROKER"),
                        r.get("FS_FAILOVER_STATUS"),
                        r.get("FS_FAILOVER_CURRENT_TARGET"),
                        r.get("FS_FAILOVER_OBSERVER_PRESENT"),
                        r.get("FS_FAILOVER_OBSERVER_HOST"),
                        r.get("FORCE_LOGGING"),
                        r.get("FLASHBACK_ON"),
                    ]),
                ));
            }
        }
        "FSL" => {
            needs(b, &["property", "value"])?;
            for r in rows_of(db, b, "V$DG_BROKER_PROPERTY") {
                if r.get("PROPERTY").map(String::as_str) == Some("FastStartFailoverLagLimit") {
                    out.push(uniform(
                        tag,
                        None,
                        c(r, "PROPERTY"),
                        None,
                        vec![],
                        c(r, "VALUE"),
                    ));
                }
            }
        }
        "UNR" => {
            needs(b, &["file#", "unrecoverable_change#", "unrecoverable_time"])?;
            for r in rows_of(db, b, "V$DATAFILE") {
                if num_gt0(r.get("UNRECOVERABLE_CHANGE#")) {
                    out.push(uniform(
                        tag,
                        None,
                        None,
                        None,
                        vec![
                            c(r, "FILE#"),
                            c(r, "UNRECOVERABLE_CHANGE#"),
                            epoch(r.get("UNRECOVERABLE_TIME")),
                        ],
                        None,
                    ));
                }
            }
        }
        "WAIT" => {
            needs(
                b,
                &[
                    "event",
                    "wait_class",
                    "state",
                    "wait_time_micro",
                    "blocking_instance",
                    "blocking_session",
                    "program",
                    "sid",
                ],
            )?;
            out.extend(waits_now(db, b));
        }
        "TOPW" => {
            needs(
                b,
                &[
                    "event",
                    "wait_class",
                    "total_waits",
                    "time_waited_micro",
                    "total_waits_fg",
                    "time_waited_micro_fg",
                ],
            )?;
            out.extend(top_waits(db, b));
        }
        "TM" => {
            needs(b, &["stat_name", "value"])?;
            let names = in_list(b, "stat_name");
            let mut sums: BTreeMap<String, u64> = BTreeMap::new();
            for r in rows_of(db, b, "V$SYS_TIME_MODEL") {
                let (Some(n), Some(v)) = (r.get("STAT_NAME"), r.get("VALUE")) else {
                    continue;
                };
                if names.contains(n) {
                    *sums.entry(n.clone()).or_default() += v.parse::<u64>().unwrap_or(0);
                }
            }
            for (n, v) in sums {
                out.push(uniform(
                    tag,
                    None,
                    Some(n),
                    None,
                    vec![Some(v.to_string())],
                    None,
                ));
            }
        }
        "EVT" => {
            needs(
                b,
                &[
                    "event",
                    "total_waits",
                    "time_waited_micro",
                    "total_waits_fg",
                    "time_waited_micro_fg",
                ],
            )?;
            let names = in_list(b, "event");
            for r in rows_of(db, b, "V$SYSTEM_EVENT") {
                if r.get("EVENT").is_some_and(|e| names.contains(e)) {
                    out.push(uniform(
                        tag,
                        c(r, "INST_ID"),
                        c(r, "EVENT"),
                        None,
                        vec![
                            c(r, "TOTAL_WAITS"),
                            c(r, "TIME_WAITED_MICRO"),
                            c(r, "TOTAL_WAITS_FG"),
                            c(r, "TIME_WAITED_MICRO_FG"),
                        ],
                        None,
                    ));
                }
            }
        }
        "HIST" => {
            let names = in_list(b, "event");
            let (view, col, unit) = if b.contains("gv$event_histogram_micro") {
                ("V$EVENT_HISTOGRAM_MICRO", "WAIT_TIME_MICRO", "us")
            } else {
                ("V$EVENT_HISTOGRAM", "WAIT_TIME_MILLI", "ms")
            };
            needs(b, &["event", col, "wait_count"])?;
            for r in rows_of(db, b, view) {
                if r.get("EVENT").is_some_and(|e| names.contains(e)) && num_gt0(r.get("WAIT_COUNT"))
                {
                    out.push(uniform(
                        tag,
                        c(r, "INST_ID"),
                        c(r, "EVENT"),
                        Some(unit.into()),
                        vec![c(r, col), c(r, "WAIT_COUNT")],
                        None,
                    ));
                }
            }
        }
        "STAT" => {
            needs(b, &["name", "value"])?;
            let names = in_list(b, "name");
            for r in rows_of(db, b, "V$SYSSTAT") {
                let n = r.get("NAME").cloned().unwrap_or_default();
                if names.contains(&n) || n.starts_with("redo write size count") {
                    out.push(uniform(
                        tag,
                        c(r, "INST_ID"),
                        Some(n),
                        None,
                        vec![c(r, "VALUE")],
                        None,
                    ));
                }
            }
        }
        "RESP" => {
            needs(b, &["dest_id", "duration", "frequency"])?;
            for r in rows_of(db, b, "V$REDO_DEST_RESP_HISTOGRAM") {
                if num_gt0(r.get("FREQUENCY")) {
                    out.push(uniform(
                        tag,
                        c(r, "INST_ID"),
                        c(r, "DEST_ID"),
                        None,
                        vec![c(r, "DURATION"), c(r, "FREQUENCY")],
                        None,
                    ));
                }
            }
        }
        "DEST" => {
            needs(
                b,
                &[
                    "transmit_mode",
                    "net_timeout",
                    "archived_seq#",
                    "applied_seq#",
                    "affirm",
                    "gap_status",
                    "target",
                    "d.delay_mins",
                    "standby_logfile_count",
                    "standby_logfile_active",
                    "s.type",
                    "recovery_mode",
                    "database_mode",
                    "d.reopen_secs",
                    "d.max_failure",
                    "d.failure_count",
                    "d.fail_date",
                    "d.binding",
                ],
            )?;
            let with_compression = b.contains("d.compression");
            let with_sync = b.contains("s.synchronization_status");
            let st = rows_of(db, b, "V$ARCHIVE_DEST_STATUS");
            for d in rows_of(db, b, "V$ARCHIVE_DEST") {
                let status = d.get("STATUS").map(String::as_str).unwrap_or("");
                let target = d.get("TARGET").map(String::as_str).unwrap_or("");
                if status == "INACTIVE" || !matches!(target, "STANDBY" | "REMOTE") {
                    continue;
                }
                let Some(s) = st.iter().find(|s| {
                    s.get("INST_ID") == d.get("INST_ID") && s.get("DEST_ID") == d.get("DEST_ID")
                }) else {
                    continue;
                };
                let err = d.get("ERROR").filter(|e| !e.is_empty()).or(s.get("ERROR"));
                out.push(uniform(
                    tag,
                    c(d, "INST_ID"),
                    c(d, "DEST_ID"),
                    c(d, "TRANSMIT_MODE"),
                    vec![
                        c(d, "NET_TIMEOUT"),
                        c(s, "ARCHIVED_SEQ#"),
                        c(s, "APPLIED_SEQ#"),
                        c(d, "DELAY_MINS"),
                        c(s, "STANDBY_LOGFILE_COUNT"),
                        c(s, "STANDBY_LOGFILE_ACTIVE"),
                    ],
                    join31(&[
                        d.get("STATUS"),
                        d.get("AFFIRM"),
                        d.get("COMPRESSION").filter(|_| with_compression),
                        d.get("DB_UNIQUE_NAME"),
                        d.get("DESTINATION"),
                        s.get("GAP_STATUS"),
                        err,
                        s.get("TYPE"),
                        s.get("RECOVERY_MODE"),
                        s.get("DATABASE_MODE"),
                        s.get("SYNCHRONIZATION_STATUS").filter(|_| with_sync),
                        d.get("REOPEN_SECS"),
                        d.get("MAX_FAILURE"),
                        d.get("FAILURE_COUNT"),
                        epoch(d.get("FAIL_DATE")).as_ref(),
                        d.get("BINDING"),
                    ]),
                ));
            }
        }
        "OS" => {
            needs(b, &["stat_name", "value"])?;
            let names = in_list(b, "stat_name");
            for r in rows_of(db, b, "V$OSSTAT") {
                if r.get("STAT_NAME").is_some_and(|n| names.contains(n)) {
                    out.push(uniform(
                        tag,
                        c(r, "INST_ID"),
                        c(r, "STAT_NAME"),
                        None,
                        vec![c(r, "VALUE")],
                        None,
                    ));
                }
            }
        }
        "IOF" => {
            needs(
                b,
                &[
                    "filetype_name",
                    "small_read_reqs",
                    "large_write_servicetime",
                ],
            )?;
            let with_con = b.contains("MAX(con_id)");
            let mut g: BTreeMap<(String, String), [u64; 6]> = BTreeMap::new();
            let mut con: BTreeMap<(String, String), u64> = BTreeMap::new();
            for r in rows_of(db, b, "V$IOSTAT_FILE") {
                let n = |k: &str| r.get(k).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
                let key = (
                    r.get("INST_ID").cloned().unwrap_or_default(),
                    r.get("FILETYPE_NAME").cloned().unwrap_or_default(),
                );
                if let Some(c) = r.get("CON_ID").and_then(|v| v.parse::<u64>().ok()) {
                    let m = con.entry(key.clone()).or_default();
                    *m = (*m).max(c);
                }
                let e = g.entry(key).or_default();
                let vals = [
                    n("SMALL_READ_REQS") + n("LARGE_READ_REQS"),
                    n("SMALL_WRITE_REQS") + n("LARGE_WRITE_REQS"),
                    n("SMALL_READ_MEGABYTES") + n("LARGE_READ_MEGABYTES"),
                    n("SMALL_WRITE_MEGABYTES") + n("LARGE_WRITE_MEGABYTES"),
                    n("SMALL_READ_SERVICETIME") + n("LARGE_READ_SERVICETIME"),
                    n("SMALL_WRITE_SERVICETIME") + n("LARGE_WRITE_SERVICETIME"),
                ];
                for i in 0..6 {
                    e[i] += vals[i];
                }
            }
            for ((inst, ft), v) in g {
                let max_con = con
                    .get(&(inst.clone(), ft.clone()))
                    .filter(|_| with_con)
                    .map(|c| c.to_string());
                out.push(uniform(
                    tag,
                    Some(inst),
                    Some(ft),
                    None,
                    v.iter().map(|x| Some(x.to_string())).collect(),
                    max_con,
                ));
            }
        }
        "DGS" => {
            needs(
                b,
                &[
                    "inst_id",
                    "name",
                    "unit",
                    "value",
                    "time_computed",
                    "datum_time",
                ],
            )?;
            for r in rows_of(db, b, "V$DATAGUARD_STATS") {
                out.push(uniform(
                    tag,
                    c(r, "INST_ID"),
                    r.get("NAME").map(|n| n.to_lowercase()),
                    c(r, "UNIT"),
                    vec![],
                    join31(&[r.get("VALUE"), r.get("TIME_COMPUTED"), r.get("DATUM_TIME")]),
                ));
            }
        }
        "RP" => {
            needs(
                b,
                &[
                    "item",
                    "units",
                    "sofar",
                    "total",
                    "timestamp",
                    "start_time",
                    "type",
                ],
            )?;
            let rows = rows_of(db, b, "V$RECOVERY_PROGRESS");
            let media: Vec<&&ViewRow> = rows
                .iter()
                .filter(|r| {
                    r.get("TYPE")
                        .is_some_and(|t| t.eq_ignore_ascii_case("MEDIA RECOVERY"))
                })
                .collect();
            let latest = media
                .iter()
                .filter_map(|r| epoch(r.get("START_TIME"))?.parse::<i64>().ok())
                .max();
            for r in media {
                if epoch(r.get("START_TIME")).and_then(|s| s.parse::<i64>().ok()) == latest {
                    out.push(uniform(
                        tag,
                        c(r, "INST_ID"),
                        c(r, "ITEM"),
                        c(r, "UNITS"),
                        vec![c(r, "SOFAR"), c(r, "TOTAL"), epoch(r.get("TIMESTAMP"))],
                        None,
                    ));
                }
            }
        }
        "PROC" => {
            if b.contains("gv$dataguard_process") {
                needs(b, &["name", "role", "thread#", "sequence#", "action"])?;
                let with_delay = b.contains("delay_mins");
                for r in rows_of(db, b, "V$DATAGUARD_PROCESS") {
                    out.push(uniform(
                        tag,
                        c(r, "INST_ID"),
                        c(r, "NAME"),
                        c(r, "ROLE"),
                        vec![
                            c(r, "THREAD#"),
                            c(r, "SEQUENCE#"),
                            c(r, "DELAY_MINS").filter(|_| with_delay),
                        ],
                        c(r, "ACTION"),
                    ));
                }
            } else {
                needs(
                    b,
                    &["process", "thread#", "sequence#", "status", "delay_mins"],
                )?;
                for r in rows_of(db, b, "V$MANAGED_STANDBY") {
                    out.push(uniform(
                        tag,
                        c(r, "INST_ID"),
                        c(r, "PROCESS"),
                        None,
                        vec![c(r, "THREAD#"), c(r, "SEQUENCE#"), c(r, "DELAY_MINS")],
                        c(r, "STATUS"),
                    ));
                }
            }
        }
        "SEH" => {
            needs(b, &["name", "unit", "\"time\"", "\"count\""])?;
            for r in rows_of(db, b, "V$STANDBY_EVENT_HISTOGRAM") {
                if num_gt0(r.get("COUNT")) {
                    out.push(uniform(
                        tag,
                        None,
                        r.get("NAME").map(|n| n.to_lowercase()),
                        c(r, "UNIT"),
                        vec![c(r, "TIME"), c(r, "COUNT")],
                        None,
                    ));
                }
            }
        }
        "PAR" => {
            needs(b, &["name", "value", "isdefault"])?;
            let names = in_list(b, "name");
            for r in rows_of(db, b, "V$PARAMETER") {
                let n = r.get("NAME").cloned().unwrap_or_default();
                let v = r.get("VALUE").filter(|v| !v.is_empty());
                let dest = n.starts_with("log_archive_dest_")
                    && v.is_some()
                    && r.get("ISDEFAULT").map(String::as_str) == Some("FALSE");
                if dest || names.contains(&n) {
                    out.push(uniform(tag, None, Some(n), None, vec![], v.cloned()));
                }
            }
        }
        "LOG" => {
            needs(
                b,
                &[
                    "thread#",
                    "group#",
                    "status",
                    "bytes",
                    "sequence#",
                    "members",
                    "blocksize",
                    "archived",
                ],
            )?;
            for r in rows_of(db, b, "V$LOG") {
                out.push(uniform(
                    tag,
                    c(r, "THREAD#"),
                    c(r, "GROUP#"),
                    c(r, "STATUS"),
                    vec![
                        c(r, "BYTES"),
                        c(r, "SEQUENCE#"),
                        c(r, "MEMBERS"),
                        None,
                        c(r, "BLOCKSIZE"),
                    ],
                    c(r, "ARCHIVED"),
                ));
            }
        }
        "SRL" => {
            needs(
                b,
                &[
                    "thread#",
                    "group#",
                    "status",
                    "bytes",
                    "sequence#",
                    "used",
                    "blocksize",
                    "archived",
                    "v$logfile",
                ],
            )?;
            let files = rows_of(db, b, "V$LOGFILE");
            for r in rows_of(db, b, "V$STANDBY_LOG") {
                let members = files
                    .iter()
                    .filter(|f| f.get("GROUP#") == r.get("GROUP#"))
                    .count();
                out.push(uniform(
                    tag,
                    c(r, "THREAD#"),
                    c(r, "GROUP#"),
                    c(r, "STATUS"),
                    vec![
                        c(r, "BYTES"),
                        c(r, "SEQUENCE#"),
                        Some(members.to_string()),
                        c(r, "USED"),
                        c(r, "BLOCKSIZE"),
                    ],
                    c(r, "ARCHIVED"),
                ));
            }
        }
        "SW" => {
            needs(b, &["thread#", "sequence#", "first_time"])?;
            let now: i64 = epoch(Some(&db.sysdate))
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
            for r in rows_of(db, b, "V$LOG_HISTORY") {
                let Some(t) = epoch(r.get("FIRST_TIME")).and_then(|s| s.parse::<i64>().ok()) else {
                    continue;
                };
                if t > now - 3600 {
                    out.push(uniform(
                        tag,
                        c(r, "THREAD#"),
                        None,
                        None,
                        vec![c(r, "SEQUENCE#"), Some(t.to_string())],
                        None,
                    ));
                }
            }
        }
        "DGC" => {
            needs(b, &["db_unique_name", "dest_role", "parent_dbun"])?;
            for r in rows_of(db, b, "V$DATAGUARD_CONFIG") {
                out.push(uniform(
                    tag,
                    None,
                    c(r, "DB_UNIQUE_NAME"),
                    c(r, "DEST_ROLE"),
                    vec![],
                    c(r, "PARENT_DBUN"),
                ));
            }
        }
        "GAP" => {
            needs(b, &["thread#", "low_sequence#", "high_sequence#"])?;
            for r in rows_of(db, b, "V$ARCHIVE_GAP") {
                out.push(uniform(
                    tag,
                    c(r, "THREAD#"),
                    None,
                    None,
                    vec![c(r, "LOW_SEQUENCE#"), c(r, "HIGH_SEQUENCE#")],
                    None,
                ));
            }
        }
        "FRA" => {
            needs(
                b,
                &[
                    "name",
                    "space_limit",
                    "space_used",
                    "space_reclaimable",
                    "number_of_files",
                ],
            )?;
            for r in rows_of(db, b, "V$RECOVERY_FILE_DEST") {
                out.push(uniform(
                    tag,
                    None,
                    c(r, "NAME"),
                    None,
                    vec![
                        c(r, "SPACE_LIMIT"),
                        c(r, "SPACE_USED"),
                        c(r, "SPACE_RECLAIMABLE"),
                        c(r, "NUMBER_OF_FILES"),
                    ],
                    None,
                ));
            }
        }
        "DGM" => {
            needs(
                b,
                &[
                    "inst_id",
                    "severity",
                    "facility",
                    "message_num",
                    "error_code",
                    "dest_id",
                    "\"timestamp\"",
                    "message",
                ],
            )?;
            // `"TIMESTAMP" > SYSDATE - n/1440`: the window the statement asks for.
            let minutes: i64 = b
                .split("SYSDATE - ")
                .nth(1)
                .and_then(|t| t.split("/1440").next())
                .and_then(|n| n.trim().parse().ok())
                .ok_or_else(|| OraError::ora(900, "fake: DGM branch without a time window"))?;
            let now: i64 = epoch(Some(&db.sysdate))
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
            for r in rows_of(db, b, "V$DATAGUARD_STATUS") {
                let t = epoch(r.get("TIMESTAMP")).and_then(|s| s.parse::<i64>().ok());
                if t.is_some_and(|t| t > now - minutes * 60) {
                    out.push(uniform(
                        tag,
                        c(r, "INST_ID"),
                        c(r, "SEVERITY"),
                        c(r, "FACILITY"),
                        vec![
                            c(r, "MESSAGE_NUM"),
                            c(r, "ERROR_CODE"),
                            c(r, "DEST_ID"),
                            t.map(|t| t.to_string()),
                        ],
                        c(r, "MESSAGE"),
                    ));
                }
            }
        }
        other => {
            return Err(OraError::ora(
                900,
                &format!("invalid SQL statement (fake: unknown branch {other:?})"),
            ));
        }
    }
    Ok(out)
}
