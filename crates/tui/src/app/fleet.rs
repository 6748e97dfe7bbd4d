//! The fleet board: one row per pair, each pair an [`App`] of its own (its own Driver, the
//! same one its triage screen shows when opened). The board adds no pipeline: a row is read
//! from its pair's assessment and engine after each batch of that pair's samples.

use super::action::Action;
use super::state::{App, Screen};
use dgscope_core::causes::{Finding, Severity, Status};
use dgscope_model::source::ConnState;
use dgscope_model::timestamp::Timestamp;

/// Points of lag history a row's sparkline shows (the widest layout's column).
pub const SPARK_POINTS: usize = 24;

/// How the board orders its rows (`s` cycles).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortKey {
    /// Status (CRIT, unreachable, WARN, OK, warming up), then the top finding's weight.
    Worst,
    Name,
    /// Average `log file sync`, longest first.
    Commit,
    /// The worst transport or apply lag, longest first.
    Lag,
    /// The oldest figures first.
    Age,
}

impl SortKey {
    pub fn next(self) -> SortKey {
        match self {
            SortKey::Worst => SortKey::Name,
            SortKey::Name => SortKey::Commit,
            SortKey::Commit => SortKey::Lag,
            SortKey::Lag => SortKey::Age,
            SortKey::Age => SortKey::Worst,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            SortKey::Worst => "worst first",
            SortKey::Name => "name",
            SortKey::Commit => "commit",
            SortKey::Lag => "lag",
            SortKey::Age => "age",
        }
    }
}

/// One pair's row, as its pair last judged it.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// As `check` would say it; `Unknown` while warming up or unreachable.
    pub status: Status,
    /// Why the pair cannot be read now (its source's own words), when it cannot.
    pub error: Option<String>,
    pub warming_up: bool,
    /// `prod_a → prod_b SYNC, prod_c ASYNC` (names as the databases give them).
    pub members: String,
    /// The first finding as the engine ranks it.
    pub top: Option<Finding>,
    /// Average foreground `log file sync` over the window, ms.
    pub commit_ms: Option<f64>,
    pub transport_lag_s: Option<f64>,
    pub apply_lag_s: Option<f64>,
    /// The newest sample's instant (the figures' age is read against the pair's clock).
    pub as_of: Option<Timestamp>,
    /// The worst lag at each of the last points, oldest first.
    pub spark: Vec<Option<f64>>,
}

impl Row {
    /// The row of a pair whose first sample has not arrived.
    fn pending() -> Row {
        Row {
            status: Status::Unknown,
            error: None,
            warming_up: true,
            members: String::new(),
            top: None,
            commit_ms: None,
            transport_lag_s: None,
            apply_lag_s: None,
            as_of: None,
            spark: Vec::new(),
        }
    }

    /// Where the status puts the row when sorting worst first: CRIT, then a pair that cannot
    /// be read (it may be down hard), WARN, OK, and pairs still warming up last.
    fn rank(&self) -> u8 {
        match self.status {
            Status::Crit => 4,
            Status::Unknown if self.error.is_some() => 3,
            Status::Warn => 2,
            Status::Ok => 1,
            Status::Unknown => 0,
        }
    }

    /// The top finding's weight in whole percent (share of DB time where known, else of its
    /// symptom): rounding keeps rows from trading places on noise between frames.
    fn weight(&self) -> u32 {
        self.top
            .as_ref()
            .filter(|f| f.severity > Severity::Info)
            .and_then(|f| f.impact.db_time_share.or(f.impact.share))
            .map_or(0, |s| (s * 100.0).round() as u32)
    }

    /// The worse of the two lags.
    pub fn worst_lag_s(&self) -> Option<f64> {
        match (self.transport_lag_s, self.apply_lag_s) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        }
    }

    pub fn of<T>(app: &App<T>) -> Row {
        let engine = app.engine();
        let a = &app.assessment;
        let latest = engine.latest();
        // A source that cannot read the pair says why on its slots' states.
        let error = app.conn.values().find_map(|c| match c {
            ConnState::Reconnecting { reason, .. } | ConnState::Failed { reason } => {
                Some(reason.clone())
            }
            _ => None,
        });
        if latest.is_none() {
            return Row {
                error,
                ..Row::pending()
            };
        }
        let o = &a.overview;
        let primary = o
            .primary
            .as_ref()
            .and_then(|p| p.name.clone())
            .unwrap_or_else(|| "primary".to_string());
        let standbys: Vec<String> = o
            .standbys
            .iter()
            .map(|m| {
                let name = m.name.clone().unwrap_or_else(|| m.slot.clone());
                match &m.transport_mode {
                    Some(mode) => format!("{name} {mode}"),
                    None => name,
                }
            })
            .collect();
        let members = if standbys.is_empty() {
            primary
        } else {
            format!("{primary} → {}", standbys.join(", "))
        };
        let worst = |f: fn(&dgscope_core::causes::MemberState) -> Option<f64>| {
            o.standbys
                .iter()
                .filter_map(f)
                .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))
        };
        let transport_lag_s = worst(|m| m.transport_lag_s);
        let apply_lag_s = worst(|m| m.apply_lag_s);
        let mut spark: Vec<Option<f64>> = Vec::with_capacity(SPARK_POINTS);
        let series: Vec<_> = engine
            .standby_slots()
            .into_iter()
            .filter_map(|s| engine.slot(s))
            .collect();
        if let Some(first) = series.first() {
            let n = first.points().len();
            for i in n.saturating_sub(SPARK_POINTS)..n {
                let v = series
                    .iter()
                    .filter_map(|s| s.points().get(i))
                    .flat_map(|p| [p.transport_lag_s, p.apply_lag_s])
                    .flatten()
                    .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))));
                spark.push(v);
            }
        }
        // Unreachable now: UNKNOWN with its error, whatever the last good figures said.
        let status = if error.is_some() {
            Status::Unknown
        } else {
            a.status()
        };
        Row {
            status,
            error,
            warming_up: a.warming_up,
            members,
            top: a.findings.first().cloned(),
            commit_ms: a.decomposition.commit.as_ref().map(|c| c.amount),
            transport_lag_s,
            apply_lag_s,
            as_of: latest,
            spark,
        }
    }
}

/// One pair on the board.
pub struct FleetPair<T> {
    /// The pair's name (its profile, or the twin's).
    pub name: String,
    pub app: App<T>,
    pub row: Row,
}

/// What a key on the board asks of the event loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardOutcome {
    /// Nothing to do.
    None,
    /// The board changed: redraw.
    Changed,
    Quit {
        keep_frame: bool,
    },
}

/// The board and every pair behind it.
pub struct Fleet<T> {
    pub pairs: Vec<FleetPair<T>>,
    /// Whether there is a board to return to (false: one pair's screen, as `watch PROFILE`).
    pub board: bool,
    /// The pair whose triage screen is open; `None`: the board.
    pub open: Option<usize>,
    pub sort: SortKey,
    pub filter: String,
    /// `/` typed and not yet ended with Enter or Esc.
    pub filtering: bool,
    /// The selected pair (by index into `pairs`: it stays on its pair when rows move).
    pub cursor: usize,
    /// The rows shown, in order: indices into `pairs`, filtered and sorted.
    pub order: Vec<usize>,
    /// The first row shown (the board scrolls to keep the cursor in view).
    pub top: usize,
    /// The board's help overlay.
    pub help: bool,
    /// Header of the board: what the pairs are (`LIVE`, `DEMO`).
    pub label: String,
}

impl<T> Fleet<T> {
    /// One pair's screen, without a board (the single-pair commands).
    pub fn single(name: String, app: App<T>) -> Self {
        let mut f = Fleet::board(vec![(name, app)], String::new());
        f.board = false;
        f.open = Some(0);
        f
    }

    /// A board over these pairs, opened on the board.
    pub fn board(pairs: Vec<(String, App<T>)>, label: String) -> Self {
        let mut f = Fleet {
            pairs: pairs
                .into_iter()
                .map(|(name, app)| FleetPair {
                    name,
                    app,
                    row: Row::pending(),
                })
                .collect(),
            board: true,
            open: None,
            sort: SortKey::Worst,
            filter: String::new(),
            filtering: false,
            cursor: 0,
            order: Vec::new(),
            top: 0,
            help: false,
            label,
        };
        f.reorder();
        if let Some(first) = f.order.first() {
            f.cursor = *first;
        }
        f
    }

    /// The open pair's app, if a pair's screen is open.
    pub fn current(&self) -> Option<&App<T>> {
        self.open.and_then(|i| self.pairs.get(i)).map(|p| &p.app)
    }

    pub fn current_mut(&mut self) -> Option<&mut App<T>> {
        self.open
            .and_then(|i| self.pairs.get_mut(i))
            .map(|p| &mut p.app)
    }

    /// Re-reads a pair's row after its samples (call after `App::refresh`).
    pub fn refresh_row(&mut self, i: usize) {
        if let Some(p) = self.pairs.get_mut(i) {
            p.row = Row::of(&p.app);
        }
    }

    /// Sorts and filters the rows again; the cursor stays on its pair while it is shown.
    pub fn reorder(&mut self) {
        let needle = self.filter.to_lowercase();
        let mut order: Vec<usize> = (0..self.pairs.len())
            .filter(|&i| needle.is_empty() || self.pairs[i].name.to_lowercase().contains(&needle))
            .collect();
        let pairs = &self.pairs;
        let desc = |v: Option<f64>| std::cmp::Reverse(v.map(|v| (v * 1000.0).round() as i64));
        match self.sort {
            SortKey::Worst => order.sort_by_key(|&i| {
                let r = &pairs[i].row;
                (
                    std::cmp::Reverse(r.rank()),
                    std::cmp::Reverse(r.weight()),
                    pairs[i].name.clone(),
                )
            }),
            SortKey::Name => order.sort_by_key(|&i| pairs[i].name.clone()),
            SortKey::Commit => {
                order.sort_by_key(|&i| (desc(pairs[i].row.commit_ms), pairs[i].name.clone()))
            }
            SortKey::Lag => {
                order.sort_by_key(|&i| (desc(pairs[i].row.worst_lag_s()), pairs[i].name.clone()))
            }
            // Oldest figures first; a pair with none at all before any with some.
            SortKey::Age => order.sort_by_key(|&i| {
                (
                    pairs[i].row.as_of.map(|t| t.ms).unwrap_or(i64::MIN),
                    pairs[i].name.clone(),
                )
            }),
        }
        self.order = order;
        if !self.order.contains(&self.cursor) {
            if let Some(first) = self.order.first() {
                self.cursor = *first;
            }
        }
    }

    /// The cursor's position among the rows shown.
    pub fn cursor_row(&self) -> Option<usize> {
        self.order.iter().position(|&i| i == self.cursor)
    }

    /// Keeps the cursor within `rows` visible rows.
    pub fn scroll_into_view(&mut self, rows: usize) {
        let Some(at) = self.cursor_row() else {
            self.top = 0;
            return;
        };
        let rows = rows.max(1);
        if at < self.top {
            self.top = at;
        } else if at >= self.top + rows {
            self.top = at + 1 - rows;
        }
        self.top = self.top.min(self.order.len().saturating_sub(rows));
    }

    fn move_cursor(&mut self, by: i64) {
        if self.order.is_empty() {
            return;
        }
        let at = self.cursor_row().unwrap_or(0) as i64;
        let to = (at + by).clamp(0, self.order.len() as i64 - 1) as usize;
        self.cursor = self.order[to];
    }

    /// Opens the selected pair's triage screen.
    fn open_selected(&mut self) {
        if self.cursor_row().is_some() {
            self.open = Some(self.cursor);
        }
    }

    /// A key on the board, as the keymap reads it (`action`), or as typed (`ch`, for `s`
    /// and the filter's text).
    pub fn on_board_key(&mut self, action: Option<Action>, ch: Option<char>) -> BoardOutcome {
        if self.filtering {
            match (action, ch) {
                (_, Some(c)) if !c.is_control() => self.filter.push(c),
                (Some(Action::DeleteChar), _) => {
                    self.filter.pop();
                }
                // Enter keeps the filter; Esc drops it.
                (Some(Action::Enter), _) => self.filtering = false,
                (Some(Action::Back), _) => {
                    self.filtering = false;
                    self.filter.clear();
                }
                _ => return BoardOutcome::None,
            }
            self.reorder();
            return BoardOutcome::Changed;
        }
        if self.help {
            if matches!(action, Some(Action::Quit) | Some(Action::QuitKeepFrame)) {
                return self.quit(action);
            }
            self.help = false;
            return BoardOutcome::Changed;
        }
        // `s` sorts and `/` filters on the board whatever the triage screen binds them to.
        match ch {
            Some('s') => {
                self.sort = self.sort.next();
                self.reorder();
                return BoardOutcome::Changed;
            }
            Some('/') => {
                self.filtering = true;
                return BoardOutcome::Changed;
            }
            _ => {}
        }
        match action {
            Some(Action::Quit) | Some(Action::QuitKeepFrame) => return self.quit(action),
            Some(Action::Down) => self.move_cursor(1),
            Some(Action::Up) => self.move_cursor(-1),
            Some(Action::Top) => self.move_cursor(i64::MIN / 2),
            Some(Action::Bottom) | Some(Action::Live) => self.move_cursor(i64::MAX / 2),
            Some(Action::Enter) => self.open_selected(),
            Some(Action::Help) => self.help = true,
            // Esc on the board clears a filter left in place.
            Some(Action::Back) if !self.filter.is_empty() => {
                self.filter.clear();
                self.reorder();
            }
            _ => return BoardOutcome::None,
        }
        BoardOutcome::Changed
    }

    fn quit(&self, action: Option<Action>) -> BoardOutcome {
        BoardOutcome::Quit {
            keep_frame: action == Some(Action::QuitKeepFrame),
        }
    }

    /// Selects the row at `row` of those shown from the top of the list (a click).
    pub fn click_row(&mut self, row: usize) -> bool {
        match self.order.get(self.top + row) {
            Some(&i) => {
                let again = i == self.cursor;
                self.cursor = i;
                // A second click on the selected row opens it, as Enter does.
                if again {
                    self.open_selected();
                }
                true
            }
            None => false,
        }
    }

    /// Whether `action` on the open pair's screen goes back to the board: Esc on its main
    /// screen with nothing open over it (a drill-down, an overlay or a search close first).
    pub fn goes_back(&self, action: Option<Action>) -> bool {
        self.board
            && action == Some(Action::Back)
            && self.current().is_some_and(|a| {
                a.screen == Screen::Main && a.overlay.is_none() && a.search.is_none()
            })
    }

    /// Back to the board where it was left.
    pub fn close(&mut self) {
        self.open = None;
    }

    /// Pairs by status, for the board's header: (CRIT, WARN, UNKNOWN, OK).
    pub fn counts(&self) -> [usize; 4] {
        let mut c = [0; 4];
        for p in &self.pairs {
            let i = match p.row.status {
                Status::Crit => 0,
                Status::Warn => 1,
                Status::Unknown => 2,
                Status::Ok => 3,
            };
            c[i] += 1;
        }
        c
    }
}
