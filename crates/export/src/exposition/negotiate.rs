//! Which exposition format a scraper gets: OpenMetrics 1.0.0 when its `Accept` header asks
//! for `application/openmetrics-text` (with a non-zero quality), else the text format 0.0.4.

/// The two formats dgscope writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `text/plain; version=0.0.4`: the classic text format (node_exporter's textfile
    /// collector reads this one).
    Text,
    /// `application/openmetrics-text; version=1.0.0`: `_created` series and `# EOF`.
    OpenMetrics,
}

impl Format {
    pub fn content_type(self) -> &'static str {
        match self {
            Format::Text => "text/plain; version=0.0.4; charset=utf-8",
            Format::OpenMetrics => "application/openmetrics-text; version=1.0.0; charset=utf-8",
        }
    }

    /// From an `Accept` header value (absent: the text format). OpenMetrics is chosen when
    /// a media range `application/openmetrics-text` is listed with q > 0 and a version, if
    /// given, of 1.0.0 (0.0.1, its draft, is served 1.0.0 too: the same syntax for what we
    /// write). Quality values are otherwise not compared: a scraper that can read
    /// OpenMetrics gets it.
    pub fn from_accept(accept: Option<&str>) -> Format {
        let Some(accept) = accept else {
            return Format::Text;
        };
        for range in accept.split(',') {
            let mut parts = range.split(';').map(str::trim);
            let media = parts.next().unwrap_or("");
            if !media.eq_ignore_ascii_case("application/openmetrics-text") {
                continue;
            }
            let mut ok = true;
            for p in parts {
                let Some((k, v)) = p.split_once('=') else {
                    continue;
                };
                let (k, v) = (k.trim(), v.trim().trim_matches('"'));
                if k.eq_ignore_ascii_case("q") {
                    if v.parse::<f64>().map_or(true, |q| q <= 0.0) {
                        ok = false;
                    }
                } else if k.eq_ignore_ascii_case("version") && !matches!(v, "1.0.0" | "0.0.1") {
                    ok = false;
                }
            }
            if ok {
                return Format::OpenMetrics;
            }
        }
        Format::Text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prometheus_2_accept_header_gets_openmetrics() {
        let prom = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";
        assert_eq!(Format::from_accept(Some(prom)), Format::OpenMetrics);
        assert_eq!(
            Format::from_accept(Some("application/openmetrics-text")),
            Format::OpenMetrics
        );
    }

    #[test]
    fn everything_else_gets_the_text_format() {
        for a in [
            None,
            Some(""),
            Some("*/*"),
            Some("text/plain"),
            Some("text/plain;version=0.0.4"),
            Some("application/openmetrics-text;q=0"),
            Some("application/openmetrics-text; version=2.0.0"),
            Some("application/json"),
        ] {
            assert_eq!(Format::from_accept(a), Format::Text, "{a:?}");
        }
    }

    #[test]
    fn content_types_name_version_and_charset() {
        assert_eq!(
            Format::OpenMetrics.content_type(),
            "application/openmetrics-text; version=1.0.0; charset=utf-8"
        );
        assert_eq!(
            Format::Text.content_type(),
            "text/plain; version=0.0.4; charset=utf-8"
        );
    }
}
