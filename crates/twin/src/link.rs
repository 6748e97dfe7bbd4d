//! The state of the redo destination as the primary sees it: connected, stalled inside
//! NET_TIMEOUT (SYNC only: LGWR waits), or down until the next REOPEN attempt.

/// Nanoseconds of virtual time.
pub(crate) type Ns = u64;

pub(crate) const NS_PER_S: f64 = 1e9;

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum LinkState {
    Connected,
    /// SYNC: LGWR waits for the standby until `until` (NET_TIMEOUT after the failure).
    Stalled {
        until: Ns,
    },
    /// Marked failed; LGWR/NSA retries at `next_try` (every REOPEN seconds).
    Down {
        next_try: Ns,
    },
}

#[derive(Debug, Clone)]
pub(crate) struct Link {
    pub state: LinkState,
    /// Set at reconnect after an outage, cleared when the backlog is shipped: the gap.
    pub resolving_gap: bool,
    pub failures: u64,
    /// `V$ARCHIVE_DEST.FAILURE_COUNT`: failed attempts since the last success (the failure
    /// itself, then each failed REOPEN retry); 0 once the destination reconnects.
    pub failure_count: u32,
    /// `V$ARCHIVE_DEST.FAIL_DATE`: when the destination last failed (the failure, or the
    /// last failed retry); kept after it reconnects, as Oracle keeps the last error's date.
    pub fail_at: Option<Ns>,
}

impl Default for Link {
    fn default() -> Self {
        Link {
            state: LinkState::Connected,
            resolving_gap: false,
            failures: 0,
            failure_count: 0,
            fail_at: None,
        }
    }
}

impl Link {
    /// Advances the state machine at `t` given whether the standby answers. `sync` decides
    /// whether a failure first stalls for NET_TIMEOUT. Returns true when it just reconnected.
    pub(crate) fn observe(
        &mut self,
        t: Ns,
        up: bool,
        sync: bool,
        net_timeout_s: f64,
        reopen_s: f64,
    ) -> bool {
        let reopen = (reopen_s * NS_PER_S) as Ns;
        match self.state {
            LinkState::Connected if !up => {
                self.failures += 1;
                self.state = if sync {
                    LinkState::Stalled {
                        until: t + (net_timeout_s * NS_PER_S) as Ns,
                    }
                } else {
                    self.failure_count = 1;
                    self.fail_at = Some(t);
                    LinkState::Down {
                        next_try: t + reopen,
                    }
                };
                false
            }
            LinkState::Stalled { until } if t >= until => {
                // NET_TIMEOUT expired: the destination is marked failed now.
                self.failure_count = 1;
                self.fail_at = Some(until);
                self.state = LinkState::Down {
                    next_try: until + reopen,
                };
                self.observe(t, up, sync, net_timeout_s, reopen_s)
            }
            LinkState::Down { next_try } if t >= next_try => {
                if up {
                    self.state = LinkState::Connected;
                    self.resolving_gap = true;
                    self.failure_count = 0;
                    true
                } else {
                    let mut n = next_try;
                    while n <= t {
                        // Each REOPEN retry that fails counts and dates the failure.
                        self.failure_count += 1;
                        self.fail_at = Some(n);
                        n += reopen.max(1);
                    }
                    self.state = LinkState::Down { next_try: n };
                    false
                }
            }
            _ => false,
        }
    }

    pub(crate) fn is_connected(&self) -> bool {
        self.state == LinkState::Connected
    }

    pub(crate) fn is_error(&self) -> bool {
        matches!(self.state, LinkState::Down { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Ns = 1_000_000_000;

    #[test]
    fn sync_stalls_for_net_timeout_then_retries_every_reopen() {
        let mut l = Link::default();
        assert!(!l.observe(10 * S, false, true, 30.0, 300.0));
        assert_eq!(l.state, LinkState::Stalled { until: 40 * S });
        assert_eq!(
            (l.failure_count, l.fail_at),
            (0, None),
            "within NET_TIMEOUT"
        );
        l.observe(41 * S, false, true, 30.0, 300.0);
        assert_eq!(l.state, LinkState::Down { next_try: 340 * S });
        assert_eq!((l.failure_count, l.fail_at), (1, Some(40 * S)));
        l.observe(345 * S, false, true, 30.0, 300.0);
        assert_eq!(l.state, LinkState::Down { next_try: 640 * S });
        assert_eq!((l.failure_count, l.fail_at), (2, Some(340 * S)));
        assert!(!l.observe(600 * S, true, true, 30.0, 300.0));
        assert!(l.observe(640 * S, true, true, 30.0, 300.0));
        assert!(l.is_connected() && l.resolving_gap);
        assert_eq!(l.failures, 1);
        assert_eq!((l.failure_count, l.fail_at), (0, Some(340 * S)));
    }

    #[test]
    fn async_fails_without_stalling() {
        let mut l = Link::default();
        l.observe(5 * S, false, false, 30.0, 300.0);
        assert!(l.is_error());
    }
}
