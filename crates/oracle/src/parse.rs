//! Pure parsers for the strings Oracle hands back: `V$DATAGUARD_STATS.VALUE` intervals,
//! `TIME_COMPUTED`/`DATUM_TIME` dates, and NUMBER columns fetched as text. None of them
//! panics; anything unexpected is `None` ("unknown"), never zero.

use dgscope_model::timestamp::Timestamp;

/// `[+-]DD HH:MI:SS[.fff]` (an INTERVAL DAY TO SECOND as text, e.g. `+00 00:04:11`,
/// `+00 00:00:00.000`, `-00 00:00:02`) → seconds. Also `HH:MI:SS` without days and a plain
/// number of seconds (`estimated startup time` reports `28`). Null/blank → `None`.
pub fn interval_secs(s: &str) -> Option<f64> {
    let s = s.trim();
    if s.is_empty() {
        return None;
    }
    let (neg, body) = match s.as_bytes()[0] {
        b'+' => (false, &s[1..]),
        b'-' => (true, &s[1..]),
        _ => (false, s),
    };
    let body = body.trim_start();
    let secs = if let Some((days, time)) = body.split_once(' ') {
        let days = small_digits(days, 1, 9)? as f64;
        days * 86_400.0 + clock_secs(time.trim())?
    } else if body.contains(':') {
        clock_secs(body)?
    } else {
        let v: f64 = body.parse().ok()?;
        if !v.is_finite() || body.contains(['e', 'E', 'i', 'n', 'N', 'I']) {
            return None;
        }
        v
    };
    Some(if neg { -secs } else { secs })
}

/// `HH:MI:SS[.fff]` → seconds. Hours may exceed 23 only when there is no day part.
fn clock_secs(s: &str) -> Option<f64> {
    let mut it = s.split(':');
    let h = small_digits(it.next()?, 1, 6)?;
    let m = small_digits(it.next()?, 2, 2)?;
    let sec_part = it.next()?;
    if it.next().is_some() || m > 59 {
        return None;
    }
    let (whole, frac) = match sec_part.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (sec_part, None),
    };
    let sec = small_digits(whole, 2, 2)?;
    if sec > 59 {
        return None;
    }
    let frac = match frac {
        Some(f) => {
            let d = small_digits(f, 1, 9)?;
            d as f64 / 10f64.powi(f.len() as i32)
        }
        None => 0.0,
    };
    Some(h as f64 * 3600.0 + m as f64 * 60.0 + sec as f64 + frac)
}

/// ASCII digits only, length within bounds.
fn small_digits(s: &str, min: usize, max: usize) -> Option<u64> {
    if s.len() < min || s.len() > max || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

const MONTHS: [&str; 12] = [
    "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC",
];

/// A date/time string as the database prints it, in the database's own time zone, to
/// seconds since 1970 *as if it were UTC* ("naive"); the caller subtracts the database's
/// UTC offset. Accepts `11/14/2010 20:00:19` (MM/DD/YYYY, 11.2), `24-JUL-2007 15:31:13`
/// (DD-MON-YYYY, 10.2; also DD-MON-YY), and `2010-11-14 20:00:19` / `2010-11-14T20:00:19`;
/// fractional seconds are ignored. The format depends on NLS settings that are not
/// documented for these columns, hence the leniency.
pub fn oracle_datetime_naive(s: &str) -> Option<i64> {
    let s = s.trim();
    // Split at the space; `T` only for ISO (`OCT` contains a T too).
    let (date, time) = match s.split_once(' ') {
        Some(p) => p,
        None => s.split_once('T')?,
    };
    let time = time.trim();
    let (y, mo, d) = if date.contains('/') {
        let mut p = date.split('/');
        let mo = small_digits(p.next()?, 1, 2)?;
        let d = small_digits(p.next()?, 1, 2)?;
        let y = small_digits(p.next()?, 4, 4)?;
        p.next().is_none().then_some((y, mo, d))?
    } else {
        let mut p = date.split('-');
        let a = p.next()?;
        let b = p.next()?;
        let c = p.next()?;
        if p.next().is_some() {
            return None;
        }
        if a.len() == 4 {
            (
                small_digits(a, 4, 4)?,
                small_digits(b, 1, 2)?,
                small_digits(c, 1, 2)?,
            )
        } else {
            let mon = MONTHS
                .iter()
                .position(|m| m.eq_ignore_ascii_case(b))
                .map(|i| i as u64 + 1)?;
            let y = match c.len() {
                4 => small_digits(c, 4, 4)?,
                // RR-style two-digit years: every date these views report is after 2000.
                2 => 2000 + small_digits(c, 2, 2)?,
                _ => return None,
            };
            (y, mon, small_digits(a, 1, 2)?)
        }
    };
    let time = time.split('.').next()?;
    let mut t = time.split(':');
    let h = small_digits(t.next()?, 1, 2)?;
    let mi = small_digits(t.next()?, 2, 2)?;
    let sec = small_digits(t.next()?, 2, 2)?;
    if t.next().is_some() {
        return None;
    }
    let rfc = format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{sec:02}Z");
    Timestamp::parse(&rfc).ok().map(|ts| ts.ms.div_euclid(1000))
}

/// A NUMBER fetched as text. Accepts a comma as decimal separator (NLS) and exponents.
pub fn number(s: &str) -> Option<f64> {
    let s = s.trim();
    if s.is_empty() {
        return None;
    }
    let v: f64 = match s.parse() {
        Ok(v) => v,
        Err(_) => s.replace(',', ".").parse().ok()?,
    };
    if !v.is_finite() || s.contains(['i', 'I', 'n', 'N']) {
        return None;
    }
    Some(v)
}

/// A cumulative counter: a non-negative whole number. Exact for integers beyond 2^53.
pub fn counter(s: &str) -> Option<u64> {
    let t = s.trim();
    if let Ok(v) = t.parse::<u64>() {
        return Some(v);
    }
    let v = number(t)?;
    (0.0..1.8e19).contains(&v).then(|| v.round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn intervals_from_the_documented_outputs() {
        assert_eq!(interval_secs("+00 00:04:11"), Some(251.0));
        assert_eq!(interval_secs("+00 00:00:00"), Some(0.0));
        assert_eq!(interval_secs("+00 00:00:00.000"), Some(0.0));
        assert_eq!(interval_secs("+01 02:03:04.5"), Some(93_784.5));
        assert_eq!(interval_secs("-00 00:00:02"), Some(-2.0));
        assert_eq!(interval_secs("  +00 00:00:07  "), Some(7.0));
        assert_eq!(interval_secs("00:01:00"), Some(60.0));
        assert_eq!(interval_secs("28"), Some(28.0));
        assert_eq!(interval_secs("+000000000 00:00:05.000000"), Some(5.0));
        for bad in [
            "",
            "   ",
            "+",
            "-",
            "+00 00:60:00",
            "+00 00:00:61",
            "abc",
            "+00 0:0:0",
            "NaN",
            "inf",
            "+00 00:00",
            "1e5",
        ] {
            assert_eq!(interval_secs(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn datetimes_in_each_observed_format() {
        let a = oracle_datetime_naive("11/14/2010 20:00:19").unwrap();
        assert_eq!(
            Timestamp::from_millis(a * 1000).to_string(),
            "2010-11-14T20:00:19.000Z"
        );
        let b = oracle_datetime_naive("24-JUL-2007 15:31:13").unwrap();
        assert_eq!(
            Timestamp::from_millis(b * 1000).to_string(),
            "2007-07-24T15:31:13.000Z"
        );
        assert_eq!(oracle_datetime_naive("24-jul-07 15:31:13"), Some(b));
        assert!(oracle_datetime_naive("01-OCT-1995 00:00:00").is_some());
        assert_eq!(oracle_datetime_naive("2010-11-14T20:00:19"), Some(a));
        assert_eq!(oracle_datetime_naive("2010-11-14 20:00:19.123"), Some(a));
        for bad in [
            "",
            "11/14/2010",
            "13/14/2010 20:00:19",
            "02/30/2010 00:00:00",
            "24-XXX-2007 15:31:13",
            "11/14/2010 25:00:00",
            "x y",
        ] {
            assert_eq!(oracle_datetime_naive(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn numbers_as_text() {
        assert_eq!(counter("18446744073709551615"), Some(u64::MAX));
        assert_eq!(counter("123"), Some(123));
        assert_eq!(counter("1.5E+3"), Some(1500));
        assert_eq!(counter("-1"), None);
        assert_eq!(number("0,25"), Some(0.25));
        assert_eq!(number(".5"), Some(0.5));
        assert_eq!(number("NaN"), None);
    }

    proptest! {
        #[test]
        fn interval_never_panics(s in "\\PC{0,40}") {
            let _ = interval_secs(&s);
        }

        #[test]
        fn interval_round_trips(neg: bool, d in 0u64..100, h in 0u64..24, m in 0u64..60, sec in 0u64..60, ms in 0u64..1000) {
            let s = format!("{}{:02} {:02}:{:02}:{:02}.{:03}", if neg { "-" } else { "+" }, d, h, m, sec, ms);
            let v = interval_secs(&s).unwrap();
            let want = (d * 86_400 + h * 3600 + m * 60 + sec) as f64 + ms as f64 / 1000.0;
            prop_assert!((v.abs() - want).abs() < 1e-6);
            prop_assert_eq!(v < 0.0, neg && want > 0.0);
        }

        #[test]
        fn datetime_never_panics(s in "\\PC{0,40}") {
            let _ = oracle_datetime_naive(&s);
        }

        #[test]
        fn datetime_formats_agree(days in 0i64..40_000, secs in 0i64..86_400) {
            let ms = (days * 86_400 + secs) * 1000;
            let iso = Timestamp::from_millis(ms).to_string();
            let (y, rest) = iso.split_at(4);
            let mo = &rest[1..3];
            let d = &rest[4..6];
            let clock = &rest[7..15];
            let us = format!("{mo}/{d}/{y} {clock}");
            let mon = MONTHS[mo.parse::<usize>().unwrap() - 1];
            let dmy = format!("{d}-{mon}-{y} {clock}");
            prop_assert_eq!(oracle_datetime_naive(&us), Some(ms / 1000));
            prop_assert_eq!(oracle_datetime_naive(&dmy), Some(ms / 1000));
        }

        #[test]
        fn numbers_never_panic(s in "\\PC{0,30}") {
            let _ = number(&s);
            let _ = counter(&s);
        }
    }
}
