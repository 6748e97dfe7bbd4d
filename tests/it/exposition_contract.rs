//! Every metric and label the alert rules and the dashboard use exists in the exposition:
//! the names against a rendered twin pair (with a finding raised), the labels against the
//! families' label lists and the series written.

use dgscope::causes::Thresholds;
use dgscope::exposition::parse::parse;
use dgscope::exposition::{render, Format, PairSnapshot, FAMILIES};
use dgscope::pipeline::{Driver, DriverConfig};
use dgscope::sample::recording::Entry;
use dgscope::sample::Slot;
use dgscope::source::twin::{Scenario, Twin};
use dgscope::source::PullSource;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

fn root(p: &str) -> String {
    format!("{}/{p}", env!("CARGO_MANIFEST_DIR"))
}

/// PromQL expressions of the rules file (`expr:` lines) and their annotation templates.
fn rule_exprs() -> (Vec<String>, Vec<String>) {
    let text = std::fs::read_to_string(root("contrib/prometheus/dgscope.rules.yml")).unwrap();
    // `expr: …` on one line, or `expr: |` with the expression on the more indented lines
    // below (a YAML block scalar).
    let lines: Vec<&str> = text.lines().collect();
    let mut exprs = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(e) = l.trim().strip_prefix("expr:") else {
            continue;
        };
        if e.trim() != "|" {
            exprs.push(e.trim().to_string());
            continue;
        }
        let indent = l.len() - l.trim_start().len();
        let block: Vec<&str> = lines[i + 1..]
            .iter()
            .take_while(|b| b.trim().is_empty() || b.len() - b.trim_start().len() > indent)
            .map(|b| b.trim())
            .collect();
        exprs.push(block.join(" ").trim().to_string());
    }
    let templates = text
        .lines()
        .filter(|l| l.contains("$labels."))
        .map(str::to_string)
        .collect();
    (exprs, templates)
}

/// Expressions, legends and variable queries of the dashboard.
fn dashboard() -> (Vec<String>, Vec<String>) {
    let v: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root("contrib/grafana/dgscope.json")).unwrap(),
    )
    .unwrap();
    let mut exprs = Vec::new();
    let mut legends = Vec::new();
    for p in v["panels"].as_array().unwrap() {
        for t in p["targets"].as_array().unwrap() {
            exprs.push(t["expr"].as_str().unwrap().to_string());
            if let Some(l) = t["legendFormat"].as_str() {
                legends.push(l.to_string());
            }
        }
    }
    for var in v["templating"]["list"].as_array().unwrap() {
        if var["type"] == "query" {
            exprs.push(var["query"].as_str().unwrap().to_string());
        }
    }
    (exprs, legends)
}

fn ident_at(s: &str, i: usize) -> &str {
    let end = s[i..]
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .map_or(s.len(), |e| i + e);
    &s[i..end]
}

/// Metric names (`dgscope_…`) in an expression.
fn metrics_in(e: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut i = 0;
    while let Some(j) = e[i..].find("dgscope_") {
        let at = i + j;
        let prev = e[..at].chars().last();
        let word = ident_at(e, at);
        if !prev.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.') {
            out.insert(word.to_string());
        }
        i = at + word.len().max(1);
    }
    out
}

/// Label names in selectors `{a="x", b=~"y"}`, grouping `by (…)`/`on (…)`/… and
/// `label_values(m, l)`.
fn labels_in(e: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = e;
    while let Some(i) = rest.find('{') {
        let Some(j) = rest[i..].find('}') else { break };
        for m in rest[i + 1..i + j].split(',') {
            let m = m.trim();
            if let Some(k) = m.find(['=', '!']) {
                out.insert(m[..k].trim().to_string());
            }
        }
        rest = &rest[i + j..];
    }
    for kw in [
        "by",
        "without",
        "on",
        "ignoring",
        "group_left",
        "group_right",
    ] {
        let mut rest = e;
        while let Some(i) = rest.find(kw) {
            let after = rest[i + kw.len()..].trim_start();
            let boundary = rest[..i]
                .chars()
                .last()
                .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
            if boundary && after.starts_with('(') {
                let close = after.find(')').unwrap();
                for l in after[1..close].split(',') {
                    if !l.trim().is_empty() {
                        out.insert(l.trim().to_string());
                    }
                }
            }
            rest = &rest[i + kw.len()..];
        }
    }
    if let Some(i) = e.find("label_values(") {
        let args = &e[i + "label_values(".len()..];
        let close = args.find(')').unwrap();
        if let Some((_, l)) = args[..close].split_once(',') {
            out.insert(l.trim().to_string());
        }
    }
    out
}

/// A slow-srl pair after 90 s (a finding raised), rendered and read back.
fn exposition() -> dgscope::exposition::parse::Exposition {
    let mut d = Driver::new(DriverConfig::last_minute(Thresholds::default()));
    let mut twin = Twin::new(Scenario::SlowSrl, 1);
    for _ in 0..90 {
        for mut s in twin.next_tick().unwrap().samples {
            // The twin does not model fast-start failover or switchover readiness: the
            // primary reports them as a configuration with FSFO would.
            if s.slot == Slot::primary() {
                if let Some(db) = s.db.as_mut().map(std::sync::Arc::make_mut) {
                    db.fs_failover_status = Some("SYNCHRONIZED".into());
                    db.fs_failover_target = Some("prod_b".into());
                    db.fs_failover_observer_present = Some(true);
                    db.fs_failover_observer_host = Some("obs1".into());
                    db.switchover_status = Some("TO STANDBY".into());
                }
            }
            d.push(Entry::Sample(Box::new(s)));
        }
    }
    d.finish();
    let snap = PairSnapshot::from_engine(
        "twin-slow-srl",
        "twin",
        &[Slot::primary(), Slot::standby()],
        d.engine(),
        d.assessment(),
    );
    parse(&render(&[Arc::new(snap)], Format::Text), Format::Text).unwrap()
}

fn family_of(metric: &str) -> Option<&'static dgscope::exposition::Family> {
    FAMILIES.iter().find(|f| {
        f.name == metric
            || ["_bucket", "_count", "_sum"]
                .iter()
                .any(|s| metric.strip_suffix(s) == Some(f.name))
    })
}

#[test]
fn rules_and_dashboard_use_only_metrics_and_labels_that_exist() {
    let exp = exposition();
    let (rules, templates) = rule_exprs();
    let (dash, legends) = dashboard();
    assert_eq!(rules.len(), 17, "the rules file changed shape");
    assert!(dash.len() >= 10, "the dashboard changed shape");
    let mut used_metrics = BTreeMap::new();
    // Prometheus' own `up` for the dgscope job, with the target labels it attaches.
    let own = r#"up{job="dgscope"} == 0"#;
    assert!(rules.iter().any(|e| e == own), "no rule for dgscope itself");
    for e in rules.iter().chain(&dash).filter(|e| *e != own) {
        let ms = metrics_in(e);
        assert!(!ms.is_empty(), "no dgscope metric in {e:?}");
        let mut allowed: BTreeSet<String> = BTreeSet::new();
        for m in &ms {
            let fam = family_of(m).unwrap_or_else(|| panic!("{m} (in {e:?}) is no family"));
            assert!(
                !exp.series(m).is_empty(),
                "{m} (in {e:?}) is not in the exposition of a slow-srl pair"
            );
            allowed.extend(fam.labels.iter().map(|l| l.to_string()));
            if fam.kind == dgscope::exposition::Kind::Histogram {
                allowed.insert("le".into());
            }
            used_metrics.insert(m.clone(), e.clone());
        }
        for l in labels_in(e) {
            assert!(
                allowed.contains(&l),
                "label {l} (in {e:?}) is not exported by {ms:?}"
            );
        }
    }
    // Labels named in legends and annotation templates.
    let all_labels: BTreeSet<&str> = FAMILIES
        .iter()
        .flat_map(|f| f.labels.iter().copied())
        .chain(["job", "instance"])
        .collect();
    for l in &legends {
        let mut rest = l.as_str();
        while let Some(i) = rest.find("{{") {
            let j = rest[i..].find("}}").unwrap();
            let name = rest[i + 2..i + j].trim();
            assert!(
                all_labels.contains(name),
                "legend label {name} ({l:?}) is not exported"
            );
            rest = &rest[i + j..];
        }
    }
    for t in &templates {
        let mut rest = t.as_str();
        while let Some(i) = rest.find("$labels.") {
            let name = ident_at(rest, i + "$labels.".len());
            assert!(
                all_labels.contains(name),
                "template label {name} ({t:?}) is not exported"
            );
            rest = &rest[i + 8..];
        }
    }
    // The issue's panels and alerts are all there.
    for m in [
        "dgscope_finding",
        "dgscope_up",
        "dgscope_apply_lag_seconds",
        "dgscope_transport_lag_seconds",
        "dgscope_protection_degraded",
        "dgscope_wait_event_duration_seconds_bucket",
        "dgscope_user_commits_total",
        "dgscope_redo_size_bytes_total",
        "dgscope_fsfo_ready",
        "dgscope_fsfo_observer_present",
        "dgscope_apply_state",
        "dgscope_switchover_ready",
        "dgscope_apply_finish_seconds",
        "dgscope_apply_delay_seconds",
        "dgscope_build_info",
        "dgscope_recovery_area_used_bytes",
        "dgscope_recovery_area_reclaimable_bytes",
        "dgscope_recovery_area_limit_bytes",
        "dgscope_sessions_waiting",
    ] {
        assert!(used_metrics.contains_key(m), "{m} is not used");
    }
    // The three commit-path waits in one histogram_quantile panel, p50 and p99.
    for q in ["histogram_quantile(0.99", "histogram_quantile(0.5"] {
        assert!(dash.iter().any(|e| e.starts_with(q)
            && e.contains("log file sync|log file parallel write|SYNC Remote Write")));
    }
}

#[test]
fn the_scanner_finds_names_and_labels() {
    // A check on the checker: a made-up metric and label are caught.
    let e = r#"max by (pair, bogus) (dgscope_nope_total{slot="x", other=~"y"}) > 1"#;
    assert_eq!(
        metrics_in(e),
        BTreeSet::from(["dgscope_nope_total".to_string()])
    );
    assert!(family_of("dgscope_nope_total").is_none());
    let l = labels_in(e);
    for x in ["pair", "bogus", "slot", "other"] {
        assert!(l.contains(x), "{x} in {l:?}");
    }
}
