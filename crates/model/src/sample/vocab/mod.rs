//! The words the causes engine and the sources share: which verification query backs a
//! finding ([`VerifyKey`], spelled in SQL by the Oracle source) and the what-if exchange
//! ([`WhatIfModel`], implemented with the twin). Plain data, so neither side imports the other.

pub mod verify;
pub mod whatif;

pub use verify::VerifyKey;
pub use whatif::{Change, Observed, WhatIf, WhatIfModel};
