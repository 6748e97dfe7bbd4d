//! `/` search, as in less, k9s and lazygit: in a cause's drill-down or a zoomed pane (the lag
//! pane's notes on the timeline among them) it marks every match and `n`/`N` move the view to
//! the next and previous one; in the help it keeps the keys whose name or description match.
//! Case is ignored.

use super::{Action, App, Overlay, Screen};

/// A search being typed or made.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Search {
    pub query: String,
    /// Still typing (the footer shows the input); otherwise made (`n`/`N` move).
    pub editing: bool,
    /// The match the view was last moved to (an index into the match rows).
    pub current: usize,
}

/// The longest query taken.
pub(crate) const SEARCH_MAX_CHARS: usize = 80;

impl Search {
    /// Whether `text` holds the query (case ignored); an empty query matches nothing.
    pub fn matches(&self, text: &str) -> bool {
        !self.query.is_empty() && !match_spans(text, &self.query).is_empty()
    }
}

/// Where `query` occurs in `text`, case ignored, as `[start, end)` char positions.
pub fn match_spans(text: &str, query: &str) -> Vec<(usize, usize)> {
    let hay: Vec<char> = text.chars().flat_map(char::to_lowercase).collect();
    let needle: Vec<char> = query.chars().flat_map(char::to_lowercase).collect();
    // Lower-casing may change a char's length (rare outside ASCII): positions are only exact
    // when it does not, which is all the text dgscope draws.
    if needle.is_empty() || hay.len() != text.chars().count() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i + needle.len() <= hay.len() {
        if hay[i..i + needle.len()] == needle[..] {
            out.push((i, i + needle.len()));
            i += needle.len();
        } else {
            i += 1;
        }
    }
    out
}

/// Whether a search can be made where the app is now: a drill-down, a zoomed pane (the
/// lag pane's notes on the timeline among them), or the help.
fn searchable<T>(app: &App<T>) -> bool {
    matches!(app.overlay, Some(Overlay::Help)) || (app.overlay.is_none() && in_document(app))
}

/// A scrolled document is in view (a drill-down or a zoomed pane): where `n`/`N` move.
pub(super) fn in_document<T>(app: &App<T>) -> bool {
    matches!(app.screen, Screen::Cause(_) | Screen::Zoom(_))
}

/// Handles `action` for the search; true when it was taken.
pub(super) fn handle<T>(app: &mut App<T>, action: Action) -> bool {
    if action == Action::Search {
        if searchable(app) {
            app.search = Some(Search {
                editing: true,
                ..Search::default()
            });
        } else {
            app.status =
                Some("/ searches a drill-down, a zoomed pane (Enter) or the help (?)".into());
        }
        return true;
    }
    let Some(mut s) = app.search.take() else {
        return false;
    };
    if !searchable(app) {
        // The view searched was left: the search goes with it.
        return false;
    }
    if s.editing {
        match action {
            Action::Char(c) if s.query.chars().count() < SEARCH_MAX_CHARS => s.query.push(c),
            Action::DeleteChar => {
                s.query.pop();
            }
            Action::Enter => {
                if s.query.is_empty() {
                    return true; // an empty search is no search
                }
                s.editing = false;
                s.current = first_at_or_after(&app.search_rows, app.scroll);
                jump(app, s.current);
                if app.search_rows.is_empty() && in_document(app) {
                    app.status = Some(format!("/{}: no match", s.query));
                }
            }
            // Esc: the search is dropped, the view stays.
            Action::Back => return true,
            _ => {}
        }
        app.search = Some(s);
        return true;
    }
    match action {
        Action::SearchNext | Action::SearchPrev if !app.search_rows.is_empty() => {
            let n = app.search_rows.len();
            s.current = if action == Action::SearchNext {
                (s.current + 1) % n
            } else {
                (s.current + n - 1) % n
            };
            jump(app, s.current);
            app.search = Some(s);
            true
        }
        Action::SearchNext | Action::SearchPrev => {
            app.status = Some(format!("/{}: no match", s.query));
            app.search = Some(s);
            true
        }
        // Esc clears the search first; the next Esc leaves the view.
        Action::Back => true,
        _ => {
            app.search = Some(s);
            false
        }
    }
}

/// The first match row at or below the top of the view (wrapping to the first).
fn first_at_or_after(rows: &[u16], top: u16) -> usize {
    rows.iter().position(|r| *r >= top).unwrap_or(0)
}

/// Scrolls the drill-down so match `i` is in view, two rows of context above it.
fn jump<T>(app: &mut App<T>, i: usize) {
    if let Some(row) = app.search_rows.get(i) {
        app.scroll = row.saturating_sub(2).min(app.scroll_max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_ignore_case_and_do_not_overlap() {
        assert_eq!(
            match_spans("Log File Sync; log file", "log"),
            [(0, 3), (15, 18)]
        );
        assert_eq!(match_spans("aaaa", "aa"), [(0, 2), (2, 4)]);
        assert!(match_spans("abc", "").is_empty());
        assert!(match_spans("abc", "abcd").is_empty());
        assert_eq!(match_spans("µs ≤ 8 ms", "8 MS"), [(5, 9)]);
    }

    #[test]
    fn next_and_previous_wrap_around() {
        assert_eq!(first_at_or_after(&[3, 10, 40], 0), 0);
        assert_eq!(first_at_or_after(&[3, 10, 40], 11), 2);
        assert_eq!(first_at_or_after(&[3, 10, 40], 41), 0);
    }
}
