//! A strict reader of what [`render`](super::render) writes, for tests and the benchmark:
//! it checks the rules of the text format 0.0.4 and OpenMetrics 1.0.0 that dgscope relies on
//! (contiguous families with HELP/TYPE, names, label escaping, no duplicate series, counter
//! suffixes, histogram buckets ascending and cumulative with `+Inf` = `_count`, `_created` and
//! `# EOF` in OpenMetrics only) and returns the series.

use super::negotiate::Format;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub name: String,
    pub labels: BTreeMap<String, String>,
    pub value: f64,
}

impl Series {
    pub fn label(&self, k: &str) -> Option<&str> {
        self.labels.get(k).map(String::as_str)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct ParsedFamily {
    pub name: String,
    pub kind: String,
    pub help: Option<String>,
    pub series: Vec<Series>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Exposition {
    pub families: Vec<ParsedFamily>,
}

impl Exposition {
    /// Every series with this exact name.
    pub fn series(&self, name: &str) -> Vec<&Series> {
        self.families
            .iter()
            .flat_map(|f| f.series.iter())
            .filter(|s| s.name == name)
            .collect()
    }

    /// The series named `name` whose labels include all of `labels`.
    pub fn matching(&self, name: &str, labels: &[(&str, &str)]) -> Vec<&Series> {
        self.series(name)
            .into_iter()
            .filter(|s| labels.iter().all(|(k, v)| s.label(k) == Some(*v)))
            .collect()
    }

    /// The value of the one series matching, `None` when none does; panics on several.
    pub fn value(&self, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
        let m = self.matching(name, labels);
        assert!(m.len() <= 1, "{name} {labels:?} matches {} series", m.len());
        m.first().map(|s| s.value)
    }

    pub fn family(&self, name: &str) -> Option<&ParsedFamily> {
        self.families.iter().find(|f| f.name == name)
    }
}

fn valid_metric_name(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(x) if x.is_ascii_alphabetic() || x == '_' || x == ':')
        && c.all(|x| x.is_ascii_alphanumeric() || x == '_' || x == ':')
}

fn valid_label_name(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(x) if x.is_ascii_alphabetic() || x == '_')
        && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
}

fn parse_value(s: &str) -> Result<f64, String> {
    match s {
        "+Inf" | "Inf" => Ok(f64::INFINITY),
        "-Inf" => Ok(f64::NEG_INFINITY),
        "NaN" => Ok(f64::NAN),
        _ => s.parse::<f64>().map_err(|_| format!("bad value {s:?}")),
    }
}

/// `name{a="x",b="y"} value` → (name, labels, value).
fn parse_sample(line: &str) -> Result<Series, String> {
    let name_end = line
        .find(['{', ' '])
        .ok_or_else(|| format!("no value: {line:?}"))?;
    let name = &line[..name_end];
    if !valid_metric_name(name) {
        return Err(format!("bad metric name {name:?}"));
    }
    let mut labels = BTreeMap::new();
    let mut rest = &line[name_end..];
    if let Some(r) = rest.strip_prefix('{') {
        let mut chars = r.char_indices().peekable();
        let end;
        loop {
            // label name
            let start = match chars.peek() {
                Some((_, '}')) => {
                    let (i, _) = chars.next().unwrap();
                    end = Some(i);
                    break;
                }
                Some((i, _)) => *i,
                None => return Err(format!("unterminated labels: {line:?}")),
            };
            let mut eq = None;
            for (i, c) in chars.by_ref() {
                if c == '=' {
                    eq = Some(i);
                    break;
                }
            }
            let eq = eq.ok_or_else(|| format!("label without '=': {line:?}"))?;
            let key = &r[start..eq];
            if !valid_label_name(key) {
                return Err(format!("bad label name {key:?} in {line:?}"));
            }
            if chars.next().map(|x| x.1) != Some('"') {
                return Err(format!("label value not quoted: {line:?}"));
            }
            let mut value = String::new();
            loop {
                match chars.next() {
                    Some((_, '\\')) => match chars.next().map(|x| x.1) {
                        Some('\\') => value.push('\\'),
                        Some('"') => value.push('"'),
                        Some('n') => value.push('\n'),
                        other => return Err(format!("bad escape \\{other:?} in {line:?}")),
                    },
                    Some((_, '"')) => break,
                    Some((_, '\n')) => return Err("raw newline in a label value".into()),
                    Some((_, c)) => value.push(c),
                    None => return Err(format!("unterminated label value: {line:?}")),
                }
            }
            if labels.insert(key.to_string(), value).is_some() {
                return Err(format!("label {key} twice in {line:?}"));
            }
            match chars.next() {
                Some((_, ',')) => continue,
                Some((i, '}')) => {
                    end = Some(i);
                    break;
                }
                _ => return Err(format!("expected ',' or '}}' in {line:?}")),
            }
        }
        rest = &r[end.unwrap() + 1..];
    }
    let rest = rest
        .strip_prefix(' ')
        .ok_or_else(|| format!("expected one space before the value: {line:?}"))?;
    let mut parts = rest.split(' ');
    let value = parse_value(parts.next().unwrap_or(""))?;
    if let Some(ts) = parts.next() {
        ts.parse::<f64>()
            .map_err(|_| format!("bad timestamp {ts:?}"))?;
    }
    if parts.next().is_some() {
        return Err(format!("trailing text: {line:?}"));
    }
    Ok(Series {
        name: name.to_string(),
        labels,
        value,
    })
}

/// The sample names a family may hold.
fn allowed(family: &str, kind: &str, om: bool, sample: &str) -> bool {
    let suffix = match sample.strip_prefix(family) {
        Some(s) => s,
        None => return false,
    };
    match (kind, om) {
        ("counter", false) => suffix.is_empty(),
        ("counter", true) => matches!(suffix, "_total" | "_created"),
        ("histogram", false) => matches!(suffix, "_bucket" | "_count" | "_sum"),
        ("histogram", true) => matches!(suffix, "_bucket" | "_count" | "_sum" | "_created"),
        _ => suffix.is_empty(),
    }
}

pub fn parse(text: &str, format: Format) -> Result<Exposition, String> {
    let om = format == Format::OpenMetrics;
    if om {
        if !text.ends_with("# EOF\n") && !text.ends_with("# EOF") {
            return Err("OpenMetrics text does not end with # EOF".into());
        }
    } else if text.contains("# EOF") {
        return Err("# EOF in the text format".into());
    }
    let mut exp = Exposition::default();
    let mut seen_families = BTreeSet::new();
    let mut seen_series = BTreeSet::new();
    let mut eof = false;
    for (n, line) in text.lines().enumerate() {
        let at = |e: String| format!("line {}: {e}", n + 1);
        if eof {
            return Err(at("text after # EOF".into()));
        }
        if line == "# EOF" {
            if !om {
                return Err(at("# EOF in the text format".into()));
            }
            eof = true;
            continue;
        }
        if let Some(c) = line.strip_prefix("# ") {
            let mut w = c.splitn(3, ' ');
            let (kw, name, rest) = (w.next(), w.next(), w.next());
            match (kw, name) {
                (Some("HELP"), Some(name)) => {
                    if !seen_families.contains(name) {
                        if !seen_families.insert(name.to_string()) {
                            return Err(at(format!("family {name} again")));
                        }
                        exp.families.push(ParsedFamily {
                            name: name.to_string(),
                            kind: "unknown".into(),
                            help: None,
                            series: Vec::new(),
                        });
                    }
                    let f = exp.families.last_mut().unwrap();
                    if f.name != name || f.help.is_some() || !f.series.is_empty() {
                        return Err(at(format!("HELP of {name} out of place")));
                    }
                    f.help = Some(rest.unwrap_or("").to_string());
                }
                (Some("TYPE"), Some(name)) => {
                    let kind = rest.unwrap_or("");
                    if !matches!(
                        kind,
                        "counter"
                            | "gauge"
                            | "histogram"
                            | "summary"
                            | "untyped"
                            | "unknown"
                            | "info"
                            | "stateset"
                            | "gaugehistogram"
                    ) {
                        return Err(at(format!("bad type {kind:?}")));
                    }
                    if om && kind == "counter" && name.ends_with("_total") {
                        return Err(at(format!(
                            "OpenMetrics counter family {name} ends in _total"
                        )));
                    }
                    if !seen_families.contains(name) {
                        seen_families.insert(name.to_string());
                        exp.families.push(ParsedFamily {
                            name: name.to_string(),
                            kind: kind.into(),
                            help: None,
                            series: Vec::new(),
                        });
                    } else {
                        let f = exp.families.last_mut().unwrap();
                        if f.name != name || f.kind != "unknown" || !f.series.is_empty() {
                            return Err(at(format!("TYPE of {name} out of place")));
                        }
                        f.kind = kind.into();
                    }
                }
                _ if om => return Err(at(format!("comment not allowed in OpenMetrics: {line:?}"))),
                _ => {}
            }
            continue;
        }
        if line.starts_with('#') {
            if om {
                return Err(at("bare comment in OpenMetrics".into()));
            }
            continue;
        }
        if line.is_empty() {
            if om {
                return Err(at("empty line in OpenMetrics".into()));
            }
            continue;
        }
        let s = parse_sample(line).map_err(at)?;
        let Some(f) = exp.families.last_mut() else {
            return Err(at(format!("{} before any TYPE", s.name)));
        };
        if !allowed(&f.name, &f.kind, om, &s.name) {
            return Err(at(format!(
                "{} does not belong to family {} ({})",
                s.name, f.name, f.kind
            )));
        }
        if f.kind == "counter"
            && !s.name.ends_with("_created")
            && !(s.value >= 0.0 && s.value.is_finite())
        {
            return Err(at(format!("counter {} is {}", s.name, s.value)));
        }
        let key = format!("{}{:?}", s.name, s.labels);
        if !seen_series.insert(key) {
            return Err(at(format!("duplicate series {line:?}")));
        }
        f.series.push(s);
    }
    if om && !eof {
        return Err("no # EOF".into());
    }
    for f in &exp.families {
        if f.kind == "unknown" {
            return Err(format!("family {} has no TYPE", f.name));
        }
        if f.kind == "histogram" {
            check_histogram(f)?;
        }
    }
    Ok(exp)
}

/// Per label set (without `le`): the buckets as (le, count) and the `_count`.
type Groups = BTreeMap<Vec<(String, String)>, (Vec<(f64, f64)>, Option<f64>)>;

fn check_histogram(f: &ParsedFamily) -> Result<(), String> {
    let mut groups: Groups = BTreeMap::new();
    for s in &f.series {
        let key: Vec<_> = s
            .labels
            .iter()
            .filter(|(k, _)| k.as_str() != "le")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let g = groups.entry(key).or_default();
        if s.name.ends_with("_bucket") {
            let le = s
                .label("le")
                .ok_or_else(|| format!("{} bucket without le", f.name))?;
            g.0.push((parse_value(le)?, s.value));
        } else if s.name.ends_with("_count") {
            g.1 = Some(s.value);
        } else if s.label("le").is_some() {
            return Err(format!("{} has le", s.name));
        }
    }
    for (labels, (buckets, count)) in groups {
        let last = buckets
            .last()
            .ok_or_else(|| format!("{} {labels:?}: no buckets", f.name))?;
        if last.0 != f64::INFINITY {
            return Err(format!("{} {labels:?}: last bucket is not +Inf", f.name));
        }
        for w in buckets.windows(2) {
            if w[1].0 <= w[0].0 {
                return Err(format!("{} {labels:?}: le not ascending", f.name));
            }
            if w[1].1 < w[0].1 {
                return Err(format!("{} {labels:?}: buckets not cumulative", f.name));
            }
        }
        if count != Some(last.1) {
            return Err(format!(
                "{} {labels:?}: _count {count:?} is not the +Inf bucket {}",
                f.name, last.1
            ));
        }
    }
    Ok(())
}
