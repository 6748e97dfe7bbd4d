//! The lag decomposition (docs/FINDINGS.md, "Impact"): each of a standby's lags split by
//! what the member's state says it is, state first. Transport lag is either time since
//! anything shipped (a gap, an error, a stall, the standby down, a deferred destination) or
//! redo that ships but not as fast as it is generated; apply lag is the redo not yet received,
//! a configured DELAY, and then what apply itself is doing.
//!
//! A pure function of the lags and the state's verdicts (`causes::state` maps its own into
//! [`TransportCause`] and [`ApplyCause`]), so every consumer reads one answer.

use serde::Serialize;

/// One named part of a transport lag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TransportPart {
    /// Seconds since nothing has shipped.
    NotShipping,
    /// Redo that ships, slower than it is generated (ASYNC; also the normal second or so).
    ShippingShort,
}

/// One named part of an apply lag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ApplyPart {
    /// Redo not received yet: no apply can be ahead of its transport.
    Transport,
    /// A configured DELAY (`DELAY_MINS`): by design, not behind.
    Delay,
    /// A snapshot standby, broker APPLY-OFF, or recovery cancelled on purpose.
    OffByDesign,
    /// Apply stopped by an error, with nobody meaning it to.
    Stopped,
    /// MRP0 waits for an archive gap to be resolved.
    WaitingForGap,
    /// Apply runs slower than redo arrives.
    SlowerThanArrival,
    /// The lag shrinks: apply works through a backlog.
    CatchingUp,
    /// Apply keeps up with what arrives: the few seconds of applying itself.
    Applying,
    /// None of the above could be shown.
    Unexplained,
}

impl TransportPart {
    pub fn as_str(self) -> &'static str {
        match self {
            TransportPart::NotShipping => "not-shipping",
            TransportPart::ShippingShort => "shipping-short",
        }
    }
}

impl ApplyPart {
    pub fn as_str(self) -> &'static str {
        match self {
            ApplyPart::Transport => "transport",
            ApplyPart::Delay => "delay",
            ApplyPart::OffByDesign => "off-by-design",
            ApplyPart::Stopped => "stopped",
            ApplyPart::WaitingForGap => "waiting-for-gap",
            ApplyPart::SlowerThanArrival => "slower-than-arrival",
            ApplyPart::CatchingUp => "catching-up",
            ApplyPart::Applying => "applying",
            ApplyPart::Unexplained => "unexplained",
        }
    }
}

/// What the state says of shipping to the standby.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TransportCause {
    /// Nothing ships, for `since_s` seconds where that is known.
    NotShipping { since_s: Option<f64> },
    /// It ships (as fast as it can, or catching up).
    Shipping,
}

/// What the state says of redo apply on the standby.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApplyCause {
    OffByDesign,
    Stopped,
    WaitingForGap,
    SlowerThanArrival,
    CatchingUp,
    FollowsTransport,
    Undetermined,
}

/// One lag and its parts, in seconds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Split<P> {
    pub amount: f64,
    pub unit: &'static str,
    pub components: Vec<Part<P>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Part<P> {
    pub name: P,
    pub amount: f64,
}

impl<P: Copy + PartialEq> Split<P> {
    /// The amount of one part (0 when absent).
    pub fn part(&self, p: P) -> f64 {
        self.components
            .iter()
            .filter(|c| c.name == p)
            .map(|c| c.amount)
            .sum()
    }
}

/// A standby's two lags, each split; `None` where the lag is not known (NULL in
/// `V$DATAGUARD_STATS`, or the standby's figures are stale).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct LagDecomposition {
    pub transport: Option<Split<TransportPart>>,
    pub apply: Option<Split<ApplyPart>>,
}

/// The standby's lags and its state's verdicts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LagInputs {
    pub transport_lag_s: Option<f64>,
    pub apply_lag_s: Option<f64>,
    pub delay_s: f64,
    pub transport: TransportCause,
    pub apply: ApplyCause,
}

fn part<P>(name: P, amount: f64) -> Part<P> {
    Part {
        name,
        amount: amount.max(0.0),
    }
}

impl LagDecomposition {
    pub fn of(i: LagInputs) -> Self {
        let finite = |x: Option<f64>| x.filter(|v| v.is_finite()).map(|v| v.max(0.0));
        let transport = finite(i.transport_lag_s).map(|lag| {
            let not = match i.transport {
                TransportCause::NotShipping { since_s } => {
                    finite(since_s).map_or(lag, |s| s.min(lag))
                }
                TransportCause::Shipping => 0.0,
            };
            Split {
                amount: lag,
                unit: "s",
                components: vec![
                    part(TransportPart::NotShipping, not),
                    part(TransportPart::ShippingShort, lag - not),
                ],
            }
        });
        let apply = finite(i.apply_lag_s).map(|lag| {
            let delay = i.delay_s.max(0.0).min(lag);
            let received = finite(i.transport_lag_s).unwrap_or(0.0).min(lag - delay);
            let rest = lag - delay - received;
            let state = match i.apply {
                ApplyCause::OffByDesign => ApplyPart::OffByDesign,
                ApplyCause::Stopped => ApplyPart::Stopped,
                ApplyCause::WaitingForGap => ApplyPart::WaitingForGap,
                ApplyCause::SlowerThanArrival => ApplyPart::SlowerThanArrival,
                ApplyCause::CatchingUp => ApplyPart::CatchingUp,
                ApplyCause::FollowsTransport => ApplyPart::Applying,
                ApplyCause::Undetermined => ApplyPart::Unexplained,
            };
            let mut components = vec![part(ApplyPart::Transport, received)];
            if delay > 0.0 {
                components.push(part(ApplyPart::Delay, delay));
            }
            components.push(part(state, rest));
            Split {
                amount: lag,
                unit: "s",
                components,
            }
        });
        LagDecomposition { transport, apply }
    }

    /// The apply lag net of its configured delay: the symptom `apply-lag` weighs.
    pub fn apply_net(&self) -> Option<f64> {
        self.apply
            .as_ref()
            .map(|a| a.amount - a.part(ApplyPart::Delay))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sum<P>(s: &Split<P>) -> f64 {
        s.components.iter().map(|c| c.amount).sum()
    }

    #[test]
    fn a_lag_is_split_by_state_and_the_parts_sum_to_it() {
        // Nothing has shipped for 40 s of a 55 s transport lag; apply stopped.
        let d = LagDecomposition::of(LagInputs {
            transport_lag_s: Some(55.0),
            apply_lag_s: Some(900.0),
            delay_s: 0.0,
            transport: TransportCause::NotShipping {
                since_s: Some(40.0),
            },
            apply: ApplyCause::Stopped,
        });
        let t = d.transport.as_ref().unwrap();
        assert_eq!(t.part(TransportPart::NotShipping), 40.0);
        assert_eq!(t.part(TransportPart::ShippingShort), 15.0);
        let a = d.apply.as_ref().unwrap();
        assert_eq!(a.part(ApplyPart::Transport), 55.0);
        assert_eq!(a.part(ApplyPart::Stopped), 845.0);
        assert_eq!((sum(t), sum(a)), (55.0, 900.0));
    }

    #[test]
    fn a_delay_is_its_own_part_and_not_of_the_net_lag() {
        let d = LagDecomposition::of(LagInputs {
            transport_lag_s: Some(1.0),
            apply_lag_s: Some(1802.0),
            delay_s: 1800.0,
            transport: TransportCause::Shipping,
            apply: ApplyCause::FollowsTransport,
        });
        let a = d.apply.as_ref().unwrap();
        assert_eq!(a.part(ApplyPart::Delay), 1800.0);
        assert_eq!(a.part(ApplyPart::Applying), 1.0);
        assert_eq!(d.apply_net(), Some(2.0));
        assert_eq!(sum(a), 1802.0);
    }

    #[test]
    fn unknown_lags_are_not_split() {
        let d = LagDecomposition::of(LagInputs {
            transport_lag_s: None,
            apply_lag_s: Some(f64::NAN),
            delay_s: 0.0,
            transport: TransportCause::NotShipping { since_s: None },
            apply: ApplyCause::Undetermined,
        });
        assert_eq!(d, LagDecomposition::default());
    }
}
