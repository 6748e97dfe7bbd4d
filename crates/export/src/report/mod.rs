//! Reports: the last stage of the headless pipeline (text, JSON, Markdown).

pub mod awr;
pub mod check;
pub mod format;
pub mod histogram;
pub mod impact;
pub mod incident;
pub mod overview;
pub mod perfdata;
pub mod range;
pub mod scan;
pub mod text;

pub use format::Format;
pub use scan::ReportError;
