//! Suggested causes: rules over metrics → ranked findings with evidence and advice.

pub mod finding;

pub use finding::{Assessment, Evidence, Finding, Severity, Status, WhatIf};
