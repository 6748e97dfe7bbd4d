//! How quantities are written, one way everywhere (screen, reports, findings, what-ifs): fixed
//! widths, units, thousands grouped, "–" for absent data, so columns stay aligned and the same
//! figure never reads two ways.

/// Absent data: never printed as zero.
pub const NONE: &str = "–";

/// `v` with `dec` decimals; integers from 1 000 up are grouped with a space ("7 814").
pub fn num(v: f64, dec: usize) -> String {
    if !v.is_finite() {
        return NONE.into();
    }
    if dec == 0 {
        let r = v.round() as i64;
        return group(r);
    }
    format!("{v:.dec$}")
}

fn group(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if n < 0 {
        out.push('-');
    }
    let len = digits.len();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (len - i).is_multiple_of(3) && len > 3 {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

pub fn opt(v: Option<f64>, dec: usize) -> String {
    v.map_or_else(|| NONE.to_string(), |v| num(v, dec))
}

/// Whole numbers as counts ("2"), others with [`auto`] decimals.
pub fn count_or_auto(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        num(v, 0)
    } else {
        auto(v)
    }
}

/// Decimals that keep about three significant figures for rates and sizes.
pub fn auto(v: f64) -> String {
    let a = v.abs();
    if a >= 100.0 {
        num(v, 0)
    } else if a >= 10.0 {
        num(v, 1)
    } else {
        num(v, 2)
    }
}

pub fn opt_auto(v: Option<f64>) -> String {
    v.map_or_else(|| NONE.to_string(), auto)
}

/// A percentile in Oracle's open-ended last bucket: only a lower bound, ">2097s".
pub fn bound_above(ms: f64, ascii: bool) -> String {
    // A lower bound rounds down, never up past what is known.
    if ms >= 10_000.0 {
        format!(">{:.0}s", (ms / 1000.0).floor())
    } else {
        format!(">{}", bound_value(ms, ascii))
    }
}

/// A percentile as a bucket bound: "≤8", "≤0.5" ("<=8" in ASCII).
pub fn bound(ms: Option<f64>, ascii: bool) -> String {
    let Some(ms) = ms else {
        return NONE.into();
    };
    let v = bound_value(ms, ascii);
    if ascii {
        format!("<={v}")
    } else {
        format!("≤{v}")
    }
}

/// A bucket bound's number and unit as [`bound`] writes it.
fn bound_value(ms: f64, ascii: bool) -> String {
    // Below a millisecond Oracle's micro buckets are powers of two µs: "≤512µ".
    if ms >= 1000.0 {
        // Oracle's millisecond buckets double up to 32768 ms: "≤33s", never "≤32768".
        let s = ms / 1000.0;
        if s >= 10.0 {
            format!("{:.0}s", s.ceil())
        } else {
            format!("{:.1}s", (s * 10.0).ceil() / 10.0)
        }
    } else if ms >= 1.0 || ms == 0.0 {
        format!("{ms:.0}")
    } else {
        format!("{:.0}{}", ms * 1000.0, if ascii { "u" } else { "µ" })
    }
}

/// Change vs baseline: "+576.5 %", "-20.3 %".
pub fn change(base: Option<f64>, now: Option<f64>) -> Option<String> {
    let (b, n) = (base?, now?);
    if b == 0.0 || !b.is_finite() || !n.is_finite() {
        return None;
    }
    Some(pct_change((n - b) / b * 100.0))
}

pub fn pct_change(p: f64) -> String {
    format!("{p:+.1} %")
}

/// `n` and its noun, singular for one: "1 sample", "2 samples", "0 marks".
pub fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A duration, one format everywhere on the screen: seconds below a minute ("0.4 s",
/// "12 s"), then "2m59s", "2h10m", "3d04h".
pub fn dur(s: f64) -> String {
    if !s.is_finite() {
        return NONE.into();
    }
    let s = s.max(0.0);
    if s < 9.95 {
        return format!("{s:.1} s");
    }
    let whole = s.round() as u64;
    if whole < 60 {
        format!("{whole} s")
    } else if whole < 3600 {
        format!("{}m{:02}s", whole / 60, whole % 60)
    } else if whole < 86_400 {
        let m = (whole + 30) / 60;
        format!("{}h{:02}m", m / 60, m % 60)
    } else {
        let h = (whole + 1800) / 3600;
        format!("{}d{:02}h", h / 24, h % 24)
    }
}

/// An evidence value with its unit, one format per quantity wherever a finding is shown (the
/// causes pane, the drill-down, `check` and the incident report): durations as [`dur`]
/// ("2m09s", seconds below a minute), latencies in ms as [`ms`], shares as
/// [`crate::units::pct`] (never rounded onto 100 %), the rest as [`count_or_auto`]; "–" for
/// text-only evidence (NaN).
pub fn evidence_value(v: f64, unit: &str) -> String {
    if v.is_nan() {
        return NONE.into();
    }
    match unit {
        "s" => dur(v),
        "min" => dur(v * 60.0),
        "ms" => format!("{} ms", ms(v)),
        "%" => format!("{} %", crate::units::pct(v)),
        "" => count_or_auto(v),
        // A count of one thing is singular: "1 log", never "1 logs".
        u if v == 1.0 && is_plural_noun(u) => format!("1 {}", &u[..u.len() - 1]),
        u => format!("{} {u}", count_or_auto(v)),
    }
}

/// A unit that is a plural noun ("logs", "files", "sessions"), not a unit symbol ("ms",
/// "s", "MB/s", "GB").
fn is_plural_noun(unit: &str) -> bool {
    unit.len() > 2 && unit.ends_with('s') && unit.chars().all(|c| c.is_ascii_lowercase())
}

/// A lag in seconds ([`dur`]).
pub fn lag(s: f64) -> String {
    dur(s)
}

pub fn opt_lag(v: Option<f64>) -> String {
    v.map_or_else(|| NONE.to_string(), lag)
}

/// An age in whole seconds, otherwise as [`dur`]: "1 s", "42 s", "2m05s".
pub fn age(secs: f64) -> String {
    let s = secs.max(0.0).round();
    if s < 60.0 {
        format!("{s:.0} s")
    } else {
        dur(s)
    }
}

/// A latency in ms in at most 6 columns, so tables keep their columns whatever the wait:
/// "0.62", "45.6", "812", "29 999" (a 30 s wait), "1 234k" beyond.
/// A busy percentage (CPU): whole when it is within 0.05 of a whole number ("42"), else one
/// decimal ("99.5"); "100" only from 99.95 on, so a busy host is never rounded onto a full
/// one.
pub fn busy_pct(v: f64) -> String {
    if !v.is_finite() {
        return NONE.into();
    }
    if v >= 99.95 {
        return "100".into();
    }
    let r = v.round();
    if (v - r).abs() < 0.05 {
        format!("{r:.0}")
    } else {
        format!("{:.1}", (v * 10.0).round() / 10.0)
    }
}

/// A RAC instance as every screen and finding names it: `inst 2 on dbhost2` (`inst 2`
/// when the host is unknown).
pub fn instance_label(inst_id: u32, host: Option<&str>) -> String {
    match host {
        Some(h) => format!("inst {inst_id} on {h}"),
        None => format!("inst {inst_id}"),
    }
}

pub fn ms(v: f64) -> String {
    if !v.is_finite() {
        return NONE.into();
    }
    let a = v.abs();
    if a < 10.0 {
        format!("{v:.2}")
    } else if a < 100.0 {
        format!("{v:.1}")
    } else if a < 100_000.0 {
        num(v, 0)
    } else {
        format!("{}k", num(v / 1000.0, 0))
    }
}

pub fn opt_ms(v: Option<f64>) -> String {
    v.map_or_else(|| NONE.to_string(), ms)
}

const BLOCKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
const ASCII_LEVELS: [char; 8] = ['_', '.', ',', '-', '=', '+', '*', '#'];

/// A sparkline of the last `width` values, scaled from zero to the largest shown (a zero floor
/// keeps a flat series flat instead of magnifying noise). Absent values are blank.
pub fn sparkline(values: &[Option<f64>], width: usize, ascii: bool) -> String {
    let start = values.len().saturating_sub(width);
    let shown = &values[start..];
    let max = shown.iter().flatten().fold(0.0f64, |m, v| m.max(*v));
    let min = shown.iter().flatten().fold(f64::INFINITY, |m, v| m.min(*v));
    // A steady series scales from 3/4 of its peak, so small changes still show as ripples;
    // a series that moves a lot scales from zero, so a drop reads as a drop.
    let lo = if min.is_finite() && max > 0.0 && max - min < 0.25 * max {
        0.75 * max
    } else {
        0.0
    };
    let levels = if ascii { &ASCII_LEVELS } else { &BLOCKS };
    let mut out = String::with_capacity(width * 3);
    for _ in shown.len()..width {
        out.push(' ');
    }
    for v in shown {
        match v {
            Some(v) if max > lo && v.is_finite() => {
                let i = (((v - lo).max(0.0) / (max - lo)) * 7.0).round() as usize;
                out.push(levels[i.min(7)]);
            }
            Some(_) => out.push(levels[0]),
            None => out.push(' '),
        }
    }
    out
}

/// Pads or cuts `s` to exactly `w` display columns (left-aligned).
pub fn fit(s: &str, w: usize) -> String {
    let n = s.chars().count();
    if n <= w {
        format!("{s}{}", " ".repeat(w - n))
    } else if w == 0 {
        String::new()
    } else {
        let mut t: String = s.chars().take(w.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

/// Right-aligns `s` in `w` columns.
pub fn rfit(s: &str, w: usize) -> String {
    let n = s.chars().count();
    if n >= w {
        s.to_string()
    } else {
        format!("{}{s}", " ".repeat(w - n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_open_bucket_bound_reads_as_a_lower_bound() {
        assert_eq!(bound_above(2_097_152.0, false), ">2097s");
        assert_eq!(bound_above(8.0, true), ">8");
    }

    /// Review m3: "1 logs" is "1 log"; units stay as they are.
    #[test]
    fn a_count_of_one_is_singular() {
        assert_eq!(evidence_value(1.0, "logs"), "1 log");
        assert_eq!(evidence_value(2.0, "logs"), "2 logs");
        assert_eq!(evidence_value(1.0, "ms"), "1.00 ms");
        assert_eq!(evidence_value(1.0, "MB/s"), "1 MB/s");
        assert_eq!(evidence_value(1.0, "s"), dur(1.0));
    }

    /// Review m3: a host 99.5 % busy is not "CPU 100 %".
    #[test]
    fn busy_percent_is_never_rounded_onto_a_full_host() {
        assert_eq!(busy_pct(99.5), "99.5");
        assert_eq!(busy_pct(99.94), "99.9");
        assert_eq!(busy_pct(99.95), "100");
        assert_eq!(busy_pct(100.0), "100");
        assert_eq!(busy_pct(42.0), "42");
        assert_eq!(busy_pct(41.98), "42");
        assert_eq!(busy_pct(42.46), "42.5");
        assert_eq!(busy_pct(f64::NAN), NONE);
    }

    #[test]
    fn numbers_group_and_keep_widths() {
        assert_eq!(num(7814.4, 0), "7 814");
        assert_eq!(num(1_234_567.0, 0), "1 234 567");
        assert_eq!(num(999.0, 0), "999");
        assert_eq!(num(-20.3, 1), "-20.3");
        assert_eq!(opt(None, 2), "–");
        assert_eq!(auto(0.617), "0.62");
        assert_eq!(auto(25.04), "25.0");
        assert_eq!(auto(6224.0), "6 224");
    }

    #[test]
    fn counts_say_one_in_the_singular() {
        assert_eq!(count(1, "sample"), "1 sample");
        assert_eq!(count(0, "mark"), "0 marks");
        assert_eq!(count(172_800, "sample"), "172800 samples");
    }

    #[test]
    fn bounds_changes_and_lags() {
        assert_eq!(bound(Some(8.0), false), "≤8");
        assert_eq!(bound(Some(0.512), true), "<=512u");
        assert_eq!(bound(Some(0.512), false), "≤512µ");
        assert_eq!(bound(None, false), "–");
        assert_eq!(change(Some(7814.92), Some(6224.03)).unwrap(), "-20.4 %");
        assert_eq!(change(Some(0.0), Some(1.0)), None);
        assert_eq!(lag(0.4), "0.4 s");
        assert_eq!(lag(245.0), "4m05s");
        assert_eq!(lag(7800.0), "2h10m");
        assert_eq!(lag(179.0), "2m59s");
        assert_eq!(lag(59.7), "1m00s");
        assert_eq!(lag(9.96), "10 s");
        assert_eq!(lag(0.0), "0.0 s");
        assert_eq!(age(1.0), "1 s");
        assert_eq!(age(12.4), "12 s");
        assert_eq!(age(125.4), "2m05s");
        assert_eq!(dur(90_000.0), "1d01h");
        assert_eq!(ms(29_999.76), "30 000");
        assert_eq!(ms(812.4), "812");
        assert_eq!(ms(250_000.0), "250k");
        assert_eq!(ms(0.617), "0.62");
        assert_eq!(bound(Some(32_768.0), false), "≤33s");
        assert_eq!(bound(Some(1024.0), true), "<=1.1s");
    }

    #[test]
    fn sparklines_scale_from_zero_and_pad() {
        let v = [Some(1.0), Some(2.0), None, Some(4.0)];
        assert_eq!(sparkline(&v, 6, false), "  ▃▅ █");
        assert_eq!(sparkline(&v, 2, true), " #");
        assert_eq!(sparkline(&[Some(0.0)], 1, false), "▁");
        // Steady around 100: ripples, not a solid bar.
        let v = [Some(96.0), Some(100.0), Some(98.0)];
        assert_eq!(sparkline(&v, 3, false), "▇█▇");
        // A 20 % drop in view reads as a drop.
        let v = [Some(100.0), Some(80.0)];
        assert_eq!(sparkline(&v, 2, false), "█▂");
    }

    #[test]
    fn fit_pads_and_cuts() {
        assert_eq!(fit("abc", 5), "abc  ");
        assert_eq!(fit("abcdef", 4), "abc…");
        assert_eq!(rfit("7", 3), "  7");
    }
}
