//! `check --format openmetrics` and `check --textfile DIR`: a check run's final state as the
//! `serve` families.

use super::{textfile, Format, PairSnapshot};
use dgscope_core::pipeline::Checked;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The run's final state as the `serve` families, in `format`.
pub fn exposition(checked: &Checked, pair: &str, format: Format) -> String {
    let engine = checked.driver.engine();
    let snap = PairSnapshot::from_engine(pair, "check", &[], engine, &checked.result.assessment);
    super::render(&[Arc::new(snap)], format)
}

/// `--textfile DIR`: the text format 0.0.4 (what node_exporter's textfile collector
/// reads) written atomically to `DIR/dgscope_<pair>.prom`.
pub fn write_textfile(checked: &Checked, dir: &Path, pair: &str) -> Result<PathBuf, String> {
    let body = exposition(checked, pair, Format::Text);
    let name = textfile::file_name(pair);
    textfile::write_atomic(dir, &name, &body).map_err(|e| {
        format!(
            "--textfile {}: cannot write {name}: {e}; give an existing, writable directory",
            dir.display()
        )
    })
}
