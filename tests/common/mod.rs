//! Shared test support: deterministic samples, hand-built findings, app and screen helpers.

#![allow(dead_code)]

pub mod findings;
pub mod pty;
pub mod screen;
pub mod synthetic;
