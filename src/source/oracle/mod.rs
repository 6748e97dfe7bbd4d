//! The live Oracle source. All of dgscope's SQL lives in this module, and all of it is SELECT.

pub mod verify;
