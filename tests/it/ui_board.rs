//! The fleet board (issue 42) on twin pairs in virtual time: snapshots at 80×24 and 160×48,
//! worst first and stable, the cursor staying on its pair, the filter, the sort, scrolling,
//! and an unreachable pair shown as UNKNOWN with its error.

use crate::common;

use common::board::board;
use dgscope::app::{Action, BoardOutcome, SortKey};
use dgscope::causes::Status;
use dgscope::sample::Slot;
use dgscope::source::{ConnState, SourceEvent};
use dgscope::ui::board_text;

#[test]
fn snapshots_at_both_sizes() {
    let (b, now) = board(12, 90);
    insta::assert_snapshot!("board_12_pairs_80x24", board_text(&b, 80, 24, now));
    insta::assert_snapshot!("board_12_pairs_160x48", board_text(&b, 160, 48, now));
}

fn rank(s: Status, error: bool) -> u8 {
    match s {
        Status::Crit => 4,
        Status::Unknown if error => 3,
        Status::Warn => 2,
        Status::Ok => 1,
        Status::Unknown => 0,
    }
}

#[test]
fn rows_are_worst_first_and_the_faults_are_not_ok() {
    let (b, _) = board(12, 90);
    let ranks: Vec<u8> = b
        .order
        .iter()
        .map(|&i| rank(b.pairs[i].row.status, b.pairs[i].row.error.is_some()))
        .collect();
    assert!(ranks.windows(2).all(|w| w[0] >= w[1]), "{ranks:?}");
    let status = |name: &str| {
        b.pairs
            .iter()
            .find(|p| p.name.ends_with(name))
            .map(|p| p.row.status)
            .unwrap()
    };
    assert_ne!(status("slow-srl"), Status::Ok);
    assert_ne!(status("apply-stopped"), Status::Ok);
    assert_eq!(status("01 healthy-sync"), Status::Ok);
    // The healthy pairs have figures, not dashes: commit ms and lags are read.
    let h = &b.pairs[0].row;
    assert!(h.commit_ms.is_some_and(|v| v > 0.0), "{h:?}");
    assert!(
        h.transport_lag_s.is_some() && h.apply_lag_s.is_some(),
        "{h:?}"
    );
    assert!(
        h.members.contains("→") && h.members.contains("SYNC"),
        "{}",
        h.members
    );
}

#[test]
fn the_cursor_stays_on_its_pair_and_the_order_is_stable() {
    let (mut b, _) = board(12, 90);
    let before = b.order.clone();
    // Re-reading every row with no new data changes nothing.
    for i in 0..b.pairs.len() {
        b.refresh_row(i);
    }
    b.reorder();
    assert_eq!(b.order, before);
    b.on_board_key(Some(Action::Down), None);
    b.on_board_key(Some(Action::Down), None);
    let chosen = b.cursor;
    assert_eq!(b.cursor_row(), Some(2));
    // Sorting by name moves the rows; the cursor stays on the pair it was on.
    assert_eq!(b.on_board_key(None, Some('s')), BoardOutcome::Changed);
    assert_eq!(b.sort, SortKey::Name);
    assert_eq!(b.cursor, chosen);
    let names: Vec<&str> = b.order.iter().map(|&i| b.pairs[i].name.as_str()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    // Enter opens it; Esc on its main screen goes back to it.
    b.on_board_key(Some(Action::Enter), None);
    assert_eq!(b.open, Some(chosen));
    assert!(b.goes_back(Some(Action::Back)));
    // With its help open, Esc closes the help first.
    b.pairs[chosen].app.overlay = Some(dgscope::app::Overlay::Help);
    assert!(!b.goes_back(Some(Action::Back)));
    b.pairs[chosen].app.overlay = None;
    b.close();
    assert_eq!(b.open, None);
    assert_eq!(b.cursor, chosen);
    // The sort cycles through all five and comes back.
    for _ in 0..5 {
        b.on_board_key(None, Some('s'));
    }
    assert_eq!(b.sort, SortKey::Name);
}

#[test]
fn the_filter_keeps_matching_names_and_esc_clears_it() {
    let (mut b, _) = board(12, 90);
    b.on_board_key(Some(Action::Search), Some('/'));
    assert!(b.filtering);
    for c in "HEALTHY".chars() {
        b.on_board_key(None, Some(c));
    }
    assert!(b.order.len() >= 2 && b.order.len() < 12, "{:?}", b.order);
    assert!(b.order.iter().all(|&i| b.pairs[i].name.contains("healthy")));
    // The cursor moved onto a shown pair.
    assert!(b.order.contains(&b.cursor));
    // `q` while typing is text, not quit.
    assert_eq!(
        b.on_board_key(Some(Action::Quit), Some('q')),
        BoardOutcome::Changed
    );
    assert!(b.order.is_empty());
    assert!(
        board_text(&b, 80, 24, dgscope::timestamp::Timestamp::default())
            .contains("no pair's name holds")
    );
    b.on_board_key(Some(Action::DeleteChar), None);
    b.on_board_key(Some(Action::Enter), None);
    assert!(!b.filtering && !b.filter.is_empty());
    b.on_board_key(Some(Action::Back), None);
    assert!(b.filter.is_empty());
    assert_eq!(b.order.len(), 12);
}

#[test]
fn a_long_board_scrolls_to_keep_the_cursor_in_view() {
    let (mut b, now) = board(40, 20);
    b.sort = SortKey::Name;
    b.reorder();
    b.on_board_key(Some(Action::Bottom), None);
    let rows = 24 - 3;
    b.scroll_into_view(rows);
    let last = b.pairs[b.cursor].name.clone();
    assert!(last.starts_with("40 "), "{last}");
    let text = board_text(&b, 80, 24, now);
    assert!(text.contains(&last[..9]), "{text}");
    assert!(!text.contains("01 healthy"), "{text}");
    b.on_board_key(Some(Action::Top), None);
    b.scroll_into_view(rows);
    assert!(board_text(&b, 80, 24, now).contains("01 healthy"));
}

/// A pair whose source cannot read it is UNKNOWN with its error, above the WARN pairs.
#[test]
fn an_unreachable_pair_is_unknown_with_its_error() {
    let (mut b, now) = board(6, 60);
    let reason = "ORA-12541: TNS:no listener";
    let i = 0;
    b.pairs[i].app.ingest(SourceEvent::Status {
        slot: Slot::standby(),
        state: ConnState::Reconnecting {
            next_try: now,
            attempt: 2,
            reason: reason.into(),
        },
    });
    b.refresh_row(i);
    b.reorder();
    let row = &b.pairs[i].row;
    assert_eq!(row.status, Status::Unknown);
    assert_eq!(row.error.as_deref(), Some(reason));
    let worst_other = b.order.iter().position(|&j| j == i).unwrap();
    let above: Vec<Status> = b.order[..worst_other]
        .iter()
        .map(|&j| b.pairs[j].row.status)
        .collect();
    assert!(above.iter().all(|s| *s == Status::Crit), "{above:?}");
    let text = board_text(&b, 160, 48, now);
    assert!(text.contains("unreachable: ORA-12541"), "{text}");
}
