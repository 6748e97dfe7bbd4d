//! dgscope-model: the bottom two layers of dgscope, a crate of their own so that the compiler
//! keeps them from reaching up. It depends on nothing of dgscope; the `dgscope` crate
//! re-exports each module under its old name (`dgscope::sample`, `dgscope::units` …).
//!
//! 1. base: `units`, `timestamp`, `sanitize`, `output`, `display`
//! 2. `sample`: the `Sample` contract every source emits, `sample::vocab` (the words causes
//!    and sources share) and the recording formats (lines, changes lines, zstd, the index)
//!
//! Within the crate, base does not import `sample` (`tests/layers.rs` checks it).

pub mod display;
pub mod output;
pub mod sample;
pub mod sanitize;
pub mod timestamp;
pub mod units;
