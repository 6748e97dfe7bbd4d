//! dgscope-model: the bottom two layers of dgscope, a crate of their own so that the compiler
//! keeps them from reaching up. It depends on nothing of dgscope; the `dgscope` crate
//! re-exports each module under its old name (`dgscope::sample`, `dgscope::units` …).
//!
//! 1. base: `units`, `timestamp`, `sanitize`, `output`, `display`
//! 2. `sample`: the `Sample` contract every source emits, `sample::vocab` (the words causes
//!    and sources share) and the recording formats (lines, changes lines, zstd, the index)
//! 3. `source`: the contract every source keeps (`PullSource`, `Tick`, `SourceEvent`,
//!    `Control`) and the one source that needs nothing more than this crate, a recording's
//!    replay. The twin and the Oracle source are crates of their own above this one.
//!
//! Within the crate, base does not import `sample` (`tests/layers.rs` checks it).

// What is not named public here is `pub(crate)`; this lint keeps it so.
#![warn(unreachable_pub)]

pub mod display;
pub mod output;
pub mod sample;
pub mod sanitize;
pub mod source;
pub mod timestamp;
pub mod units;
