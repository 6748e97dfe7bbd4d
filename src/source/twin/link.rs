//! The state of the redo destination as the primary sees it: connected, stalled inside
//! NET_TIMEOUT (SYNC only: LGWR waits), or down until the next REOPEN attempt.

/// Nanoseconds of virtual time.
pub type Ns = u64;

pub const NS_PER_S: f64 = 1e9;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LinkState {
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
pub struct Link {
    pub state: LinkState,
    /// Set at reconnect after an outage, cleared when the backlog is shipped: the gap.
    pub resolving_gap: bool,
    pub failures: u64,
}

impl Default for Link {
    fn default() -> Self {
        Link {
            state: LinkState::Connected,
            resolving_gap: false,
            failures: 0,
        }
    }
}

impl Link {
    /// Advances the state machine at `t` given whether the standby answers. `sync` decides
    /// whether a failure first stalls for NET_TIMEOUT. Returns true when it just reconnected.
    pub fn observe(
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
                    LinkState::Down {
                        next_try: t + reopen,
                    }
                };
                false
            }
            LinkState::Stalled { until } if t >= until => {
                self.state = LinkState::Down {
                    next_try: until + reopen,
                };
                self.observe(t, up, sync, net_timeout_s, reopen_s)
            }
            LinkState::Down { next_try } if t >= next_try => {
                if up {
                    self.state = LinkState::Connected;
                    self.resolving_gap = true;
                    true
                } else {
                    let mut n = next_try;
                    while n <= t {
                        n += reopen.max(1);
                    }
                    self.state = LinkState::Down { next_try: n };
                    false
                }
            }
            _ => false,
        }
    }

    pub fn is_connected(&self) -> bool {
        self.state == LinkState::Connected
    }

    pub fn is_error(&self) -> bool {
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
        l.observe(41 * S, false, true, 30.0, 300.0);
        assert_eq!(l.state, LinkState::Down { next_try: 340 * S });
        l.observe(345 * S, false, true, 30.0, 300.0);
        assert_eq!(l.state, LinkState::Down { next_try: 640 * S });
        assert!(!l.observe(600 * S, true, true, 30.0, 300.0));
        assert!(l.observe(640 * S, true, true, 30.0, 300.0));
        assert!(l.is_connected() && l.resolving_gap);
        assert_eq!(l.failures, 1);
    }

    #[test]
    fn async_fails_without_stalling() {
        let mut l = Link::default();
        l.observe(5 * S, false, false, 30.0, 300.0);
        assert!(l.is_error());
    }
}
