//! Case-insensitive tests of Oracle's texts (process names, alert and Data Guard messages)
//! without upper- or lower-cased copies: the rules ask them of every process and message of
//! the window at every judged instant.

/// `text` starts with `prefix`, ignoring ASCII case.
pub(crate) fn starts_with_ignore_case(text: &str, prefix: &str) -> bool {
    text.as_bytes()
        .get(..prefix.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(prefix.as_bytes()))
}

/// `text` contains `needle`, ignoring ASCII case. Compares only where the needle's first
/// byte occurs (found in either case by a SIMD search): cheaper than a lower-cased copy and a
/// searcher per call, for texts scanned again at every judged instant.
pub(crate) fn contains_ignore_case(text: &str, needle: &str) -> bool {
    let (t, n) = (text.as_bytes(), needle.as_bytes());
    let Some((&first, rest)) = n.split_first() else {
        return true;
    };
    let Some(last_start) = t.len().checked_sub(n.len()) else {
        return false;
    };
    let (lo, up) = (first.to_ascii_lowercase(), first.to_ascii_uppercase());
    memchr::memchr2_iter(lo, up, &t[..=last_start])
        .any(|i| t[i + 1..i + n.len()].eq_ignore_ascii_case(rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_is_ignored_and_only_ascii_folds() {
        assert!(starts_with_ignore_case("mrp0", "MRP"));
        assert!(starts_with_ignore_case("MRP0", "MRP"));
        assert!(!starts_with_ignore_case("MR", "MRP"));
        assert!(!starts_with_ignore_case("XMRP", "MRP"));
        // A multi-byte character where the prefix would end is no panic and no match.
        assert!(!starts_with_ignore_case("Mé", "MRP"));
        assert!(contains_ignore_case(
            "ORA-19809: limit exceeded for recovery files",
            "ora-19809"
        ));
        assert!(contains_ignore_case(
            "RECOVERY AREA IS 100.00% USED",
            "100.00%"
        ));
        assert!(!contains_ignore_case("ora-1980", "ora-19809"));
        assert!(contains_ignore_case("anything", ""));
        assert!(!contains_ignore_case("STRASSE", "ß"));
    }
}
