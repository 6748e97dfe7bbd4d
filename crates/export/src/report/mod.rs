//! Reports: the last stage of the headless pipeline (text, JSON, Markdown).

pub mod awr;
pub mod check;
pub(crate) mod commit_path;
pub mod decomposition;
pub(crate) mod format;
pub mod histogram;
pub mod impact;
pub mod incident;
pub(crate) mod overview;
pub(crate) mod perfdata;
pub(crate) mod range;
pub(crate) mod scan;
pub mod text;

pub use format::Format;
pub use range::{Limits, Ranges};
pub use scan::{span_text, ReportError};
