//! Finding ids that more than one family of rules names (one links its findings to the
//! other's): kept apart so neither family reads the other's file.

/// The standby cannot be reached: raised by the lag family, named as the cause by the
/// standby-state family.
pub(super) const STANDBY_DOWN: &str = "standby-down";
