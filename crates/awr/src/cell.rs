//! Cells as printed: numbers with thousands separators and K/M/G suffixes, times with their
//! unit, snapshot times. Every figure keeps how precisely it was printed, so an average
//! rounded to a whole millisecond can be replaced by total ÷ waits.

/// A printed number and half its last printed digit (the rounding it may carry).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Fig {
    pub(crate) v: f64,
    pub(crate) half: f64,
}

impl Fig {
    #[cfg(test)]
    pub(crate) fn exact(v: f64) -> Self {
        Fig { v, half: 0.0 }
    }

    /// The relative rounding (∞ for a zero that may be anything below half a digit).
    pub(crate) fn rel(&self) -> f64 {
        if self.v.abs() > 0.0 {
            self.half / self.v.abs()
        } else {
            f64::INFINITY
        }
    }

    fn scale(self, k: f64) -> Self {
        Fig {
            v: self.v * k,
            half: self.half * k,
        }
    }
}

/// A plain number: `1,234`, `61.3K`, `.2`, `-1.5`, `2198.8K`, `1.2M`. `None` for an empty
/// cell or anything else (`#####` of an overflowed column, text).
pub(crate) fn num(cell: &str) -> Option<Fig> {
    let s: String = cell
        .trim()
        .chars()
        .filter(|c| *c != ',' && *c != ' ')
        .collect();
    if s.is_empty() {
        return None;
    }
    let (body, k) = match s.as_bytes()[s.len() - 1] {
        b'K' | b'k' => (&s[..s.len() - 1], 1e3),
        b'M' => (&s[..s.len() - 1], 1e6),
        b'G' => (&s[..s.len() - 1], 1e9),
        b'T' => (&s[..s.len() - 1], 1e12),
        _ => (s.as_str(), 1.0),
    };
    let digits_ok = !body.is_empty()
        && body
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-' || b == b'+')
        && body.bytes().any(|b| b.is_ascii_digit());
    if !digits_ok {
        return None;
    }
    let v: f64 = body.parse().ok()?;
    let decimals = body.find('.').map_or(0, |i| body.len() - i - 1);
    let half = 0.5 * 10f64.powi(-(decimals as i32));
    Some(Fig { v, half }.scale(k))
}

/// A count (waits, calls): a plain number that is finite, not negative and not beyond what
/// any database counts in a report's window (10^15). `None` for anything else: an
/// overflowed, garbled or impossible figure is unreadable, never a huge or negative count.
pub(crate) fn count(cell: &str) -> Option<Fig> {
    num(cell).filter(|f| f.v.is_finite() && f.v >= 0.0 && f.v <= 1e15)
}

/// A time in seconds a report can hold: finite, not negative, at most 10^11 s (a thousand
/// sessions waiting for three years).
pub(crate) fn plausible_s(s: f64) -> bool {
    s.is_finite() && (0.0..=1e11).contains(&s)
}

/// A duration cell in milliseconds: `738.14ns`, `816.55us`, `1.12ms`, `30.21 s`, `2.5m` (minutes);
/// a bare number is in `bare_unit_ms` (1 for an "(ms)" column, 1000 for "(s)").
pub(crate) fn millis(cell: &str, bare_unit_ms: f64) -> Option<Fig> {
    let s = cell.trim();
    let split = s
        .find(|c: char| c.is_ascii_alphabetic() && !matches!(c, 'K' | 'M' | 'G'))
        .unwrap_or(s.len());
    let (n, unit) = s.split_at(split);
    let unit = unit.trim();
    let k = match unit {
        "" => bare_unit_ms,
        "ns" => 1e-6,
        "us" | "µs" => 1e-3,
        "ms" => 1.0,
        "s" | "sec" => 1e3,
        "m" | "min" | "mins" => 60e3,
        "h" | "hr" => 3600e3,
        _ => return None,
    };
    num(n).map(|f| f.scale(k))
}

/// A snapshot or startup time as AWR prints it: `17-Feb-23 08:00:05`, `04-Dec-20 18:12`,
/// `08-Dec-23 00:29:40 (Fri)` (Compare Periods reports add the weekday).
/// The report says no time zone: the database host's clock is read as UTC.
/// Returns milliseconds since the epoch.
pub(crate) fn snap_time(cell: &str) -> Option<i64> {
    let s = cell.trim();
    let s = match s.rfind(" (") {
        Some(i) if s.ends_with(')') => s[..i].trim_end(),
        _ => s,
    };
    let (date, time) = s.split_once(' ')?;
    let mut d = date.split('-');
    let day: i64 = d.next()?.parse().ok()?;
    let mon = month(d.next()?)?;
    let yy: i64 = d.next()?.parse().ok()?;
    let year = match yy {
        0..=69 => 2000 + yy,
        70..=99 => 1900 + yy,
        _ => yy,
    };
    let mut t = time.trim().split(':');
    let h: i64 = t.next()?.parse().ok()?;
    let mi: i64 = t.next()?.parse().ok()?;
    let sec: i64 = t.next().map_or(Some(0), |x| x.parse().ok())?;
    if !(1..=31).contains(&day) || h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    let days = days_from_civil(year, mon, day);
    Some(((days * 24 + h) * 60 + mi) * 60_000 + sec * 1000)
}

fn month(m: &str) -> Option<i64> {
    const M: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let m = m.to_ascii_lowercase();
    M.iter()
        .position(|x| m.starts_with(x))
        .map(|i| i as i64 + 1)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The minutes of an `Elapsed:` or `DB Time:` cell: `60.28 (mins)`, `37,825.75 (mins)`.
pub(crate) fn minutes(cell: &str) -> Option<Fig> {
    let n = cell.split('(').next()?;
    num(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_their_precision() {
        assert_eq!(
            num("1,234"),
            Some(Fig {
                v: 1234.0,
                half: 0.5
            })
        );
        let k = num("61.3K").unwrap();
        assert!((k.v - 61300.0).abs() < 1e-9 && (k.half - 50.0).abs() < 1e-9);
        assert_eq!(num(".2").map(|f| f.v), Some(0.2));
        assert_eq!(num(""), None);
        assert_eq!(num("####"), None);
        assert_eq!(num("YES"), None);
        // Counts: nothing negative, nothing beyond what a window can hold.
        assert_eq!(count("1,234").map(|f| f.v), Some(1234.0));
        assert_eq!(count("-3"), None);
        assert_eq!(count("99999999999999999999999"), None);
        assert!(!plausible_s(f64::NAN) && !plausible_s(1e12) && plausible_s(3475.0));
    }

    #[test]
    fn durations_carry_their_unit() {
        let f = millis("816.55us", 1.0).unwrap();
        assert!((f.v - 0.81655).abs() < 1e-12);
        assert!((millis("1.12ms", 1.0).unwrap().v - 1.12).abs() < 1e-12);
        assert!((millis("30.21 s", 1.0).unwrap().v - 30210.0).abs() < 1e-9);
        assert_eq!(millis("76", 1.0).map(|f| (f.v, f.half)), Some((76.0, 0.5)));
        assert_eq!(millis("3x", 1.0), None);
    }

    #[test]
    fn snapshot_times() {
        assert_eq!(snap_time("01-Jan-70 00:00:01"), Some(1000));
        assert_eq!(snap_time("17-Feb-23 08:00:05"), Some(1_676_620_805_000));
        assert_eq!(snap_time("17-Foo-23 08:00:05"), None);
        assert_eq!(
            snap_time("17-Feb-23 08:00:05 (Fri)"),
            Some(1_676_620_805_000)
        );
    }
}
