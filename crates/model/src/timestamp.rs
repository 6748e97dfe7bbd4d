//! UTC instants with millisecond precision, written as RFC 3339 (`2026-11-30T05:00:01.000Z`).
//!
//! Hand-rolled rather than pulling a date crate: the recording format only needs UTC civil
//! time <-> epoch milliseconds, and readers must accept offsets (`+02:00`) people paste in.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Timestamp {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    pub ms: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not an RFC 3339 time (expected e.g. 2026-11-30T05:00:01.000Z): {0:?}")]
pub struct TimestampError(pub String);

impl Timestamp {
    pub const fn from_millis(ms: i64) -> Self {
        Timestamp { ms }
    }

    pub fn now() -> Self {
        let d = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        Timestamp {
            ms: d.as_millis() as i64,
        }
    }

    /// Seconds from `earlier` to `self` (negative when `self` is earlier).
    pub fn secs_since(self, earlier: Timestamp) -> f64 {
        (self.ms - earlier.ms) as f64 / 1000.0
    }

    pub fn add_millis(self, ms: i64) -> Self {
        Timestamp { ms: self.ms + ms }
    }

    pub fn parse(s: &str) -> Result<Self, TimestampError> {
        parse_rfc3339(s).ok_or_else(|| TimestampError(s.to_string()))
    }

    /// `HH:MM:SS` in the display zone (`--tz`; UTC unless set), for headers and timelines.
    pub fn clock(self) -> String {
        if let Some(z) = zoned(self) {
            return z.strftime("%H:%M:%S").to_string();
        }
        let secs = self.ms.div_euclid(1000).rem_euclid(86_400);
        format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
    }

    /// RFC 3339 in the display zone, for text output (check text, reports): the `Z` form in
    /// UTC, else with the offset (`2026-11-30T06:00:01.000+01:00`). JSON and recordings use
    /// `Display`/`Serialize`, always UTC.
    pub fn text(self) -> String {
        match zoned(self) {
            Some(z) => z.strftime("%Y-%m-%dT%H:%M:%S%.3f%:z").to_string(),
            None => self.to_string(),
        }
    }
}

/// The zone text output is written in; unset means UTC. Set once, at startup, from `--tz`
/// or the config's `tz` (one process shows one zone).
static DISPLAY_ZONE: std::sync::OnceLock<jiff::tz::TimeZone> = std::sync::OnceLock::new();

/// A `--tz` value: `utc`, `local` (the system zone: `TZ`, else /etc/localtime) or an IANA
/// name (`Europe/Berlin`, read from the system tz database).
pub fn parse_zone(name: &str) -> Result<jiff::tz::TimeZone, String> {
    match name.to_ascii_lowercase().as_str() {
        "utc" | "z" => Ok(jiff::tz::TimeZone::UTC),
        "local" => jiff::tz::TimeZone::try_system()
            .map_err(|e| format!("--tz local: cannot find the system time zone ({e}); set TZ or use --tz Area/City")),
        _ => jiff::tz::TimeZone::get(name).map_err(|_| {
            format!("--tz {name:?}: not a time zone in the system tz database (/usr/share/zoneinfo); use utc, local or an IANA name such as Europe/Berlin")
        }),
    }
}

/// Sets the display zone (first call wins). UTC leaves the `Z` forms.
pub fn set_display_zone(tz: jiff::tz::TimeZone) {
    let _ = DISPLAY_ZONE.set(tz);
}

/// The display zone's abbreviation at `t` (`CET`), `None` in UTC: the screen header says
/// which zone its clock is in.
pub fn zone_label(t: Timestamp) -> Option<String> {
    zoned(t).map(|z| z.strftime("%Z").to_string())
}

fn zoned(t: Timestamp) -> Option<jiff::ZonedDateTime> {
    let tz = DISPLAY_ZONE
        .get()
        .filter(|z| z.iana_name() != Some("UTC") && !is_utc(z))?;
    let ts = jiff::Timestamp::from_millisecond(t.ms).ok()?;
    Some(ts.to_zoned_datetime(tz.clone()))
}

fn is_utc(z: &jiff::tz::TimeZone) -> bool {
    // A fixed zero offset (TimeZone::UTC, Etc/UTC, a system zone that is UTC) keeps `Z`.
    z.to_fixed_offset().is_ok_and(|o| o.seconds() == 0)
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let days = self.ms.div_euclid(86_400_000);
        let in_day = self.ms.rem_euclid(86_400_000);
        let (y, m, d) = civil_from_days(days);
        let secs = in_day / 1000;
        write!(
            f,
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
            secs / 3600,
            secs / 60 % 60,
            secs % 60,
            in_day % 1000
        )
    }
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Timestamp::parse(&s).map_err(serde::de::Error::custom)
    }
}

fn digits(b: &[u8]) -> Option<i64> {
    if b.is_empty() || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(b.iter().fold(0i64, |acc, c| acc * 10 + i64::from(c - b'0')))
}

fn parse_rfc3339(s: &str) -> Option<Timestamp> {
    let b = s.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || b[13] != b':' || b[16] != b':' {
        return None;
    }
    if !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    let year = digits(&b[0..4])?;
    let month = digits(&b[5..7])?;
    let day = digits(&b[8..10])?;
    let hour = digits(&b[11..13])?;
    let min = digits(&b[14..16])?;
    let sec = digits(&b[17..19])?;
    if !(1..=12).contains(&month)
        || day < 1
        || day > days_in_month(year, month)
        || hour > 23
        || min > 59
        || sec > 60
    {
        return None;
    }
    let mut rest = &b[19..];
    let mut millis = 0i64;
    if rest.first() == Some(&b'.') {
        let frac_len = rest[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if frac_len == 0 {
            return None;
        }
        let frac = &rest[1..1 + frac_len];
        // Milliseconds: take three digits, right-pad shorter fractions.
        for i in 0..3 {
            millis = millis * 10 + frac.get(i).map_or(0, |c| i64::from(c - b'0'));
        }
        rest = &rest[1 + frac_len..];
    }
    let offset_min = match rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let h = digits(&[*h1, *h2])?;
            let m = digits(&[*m1, *m2])?;
            if h > 23 || m > 59 {
                return None;
            }
            let v = h * 60 + m;
            if *sign == b'-' {
                -v
            } else {
                v
            }
        }
        _ => return None,
    };
    let days = days_from_civil(year, month, day);
    let secs = days * 86_400 + hour * 3600 + min * 60 + sec.min(59) - offset_min * 60;
    Some(Timestamp {
        ms: secs * 1000 + millis,
    })
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if is_leap(y) => 29,
        _ => 28,
    }
}

// Howard Hinnant's days_from_civil / civil_from_days (public-domain algorithms).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (
        if m <= 2 {
            yoe + era * 400 + 1
        } else {
            yoe + era * 400
        },
        m,
        d,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parses_and_formats_the_contract_example() {
        let t = Timestamp::parse("2026-11-30T05:00:01.000Z").unwrap();
        assert_eq!(t.to_string(), "2026-11-30T05:00:01.000Z");
        assert_eq!(t.ms, 1_796_014_801_000); // date -u -d @1796014801
        assert_eq!(t.clock(), "05:00:01");
    }

    #[test]
    fn accepts_offsets_and_short_fractions() {
        let a = Timestamp::parse("2026-11-30T07:00:01.5+02:00").unwrap();
        assert_eq!(a.to_string(), "2026-11-30T05:00:01.500Z");
        let b = Timestamp::parse("2026-11-20T01:02:03Z").unwrap();
        assert_eq!(b.to_string(), "2026-11-20T01:02:03.000Z");
    }

    #[test]
    fn rejects_garbage() {
        for s in [
            "",
            "2026-13-01T00:00:00Z",
            "2026-02-30T00:00:00Z",
            "2026-11-30T05:00:01",
            "2026-11-30T05:00:01.Z",
            "yesterday",
            "2026-11-30T25:00:00Z",
        ] {
            assert!(Timestamp::parse(s).is_err(), "{s}");
        }
    }

    proptest! {
        #[test]
        fn format_parse_round_trips(ms in -2_000_000_000_000i64..8_000_000_000_000i64) {
            let t = Timestamp::from_millis(ms);
            prop_assert_eq!(Timestamp::parse(&t.to_string()).unwrap(), t);
        }

        #[test]
        fn parse_never_panics(s in "\\PC{0,40}") {
            let _ = Timestamp::parse(&s);
        }
    }
}
