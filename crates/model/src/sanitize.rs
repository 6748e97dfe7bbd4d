//! Text from recordings and databases (database and host names, destination names and errors,
//! marks, messages) is untrusted: a recording shared by a vendor can carry `ESC]0;…BEL`
//! titles, `ESC[2J` or OSC 52 clipboard writes, and a `|` or a newline in a name can forge
//! Markdown sections. Everything that reaches a terminal, an error message or a report goes
//! through one of these functions.

/// One control character as something visible: C0 as its Control Picture (`ESC` → `␛`), DEL
/// as `␡`, C1 (which some terminals read as CSI/OSC) and bidirectional overrides (which
/// reorder what a reader sees) as `\u{…}`.
fn visible(c: char, out: &mut String) {
    match c {
        '\u{0}'..='\u{1f}' => out.push(char::from_u32(0x2400 + c as u32).unwrap_or('?')),
        '\u{7f}' => out.push('␡'),
        '\u{80}'..='\u{9f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => {
            out.push_str(&format!("\\u{{{:x}}}", c as u32))
        }
        c => out.push(c),
    }
}

fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// A field on one line: every control character, newlines and tabs included, made visible.
pub fn field(s: &str) -> String {
    if !s.chars().any(needs_escape) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        visible(c, &mut out);
    }
    out
}

/// Whole output for a terminal or a file: lines and tabs kept, every other control character
/// made visible. The last line of defence behind [`field`] for anything printed.
pub fn output(s: &str) -> String {
    if !s.chars().any(|c| needs_escape(c) && c != '\n' && c != '\t') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' | '\t' => out.push(c),
            c => visible(c, &mut out),
        }
    }
    out
}

/// Markdown text inside a line (list items, headings, paragraphs): controls visible, and
/// nothing that Markdown reads as structure — a newline, a leading `#`, HTML (`<!--` would
/// hide the rest of the report), or a `|` that a table might take as a cell border.
pub fn md_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in field(s).chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '|' => out.push_str("\\|"),
            c => out.push(c),
        }
    }
    match out.strip_prefix('#') {
        Some(rest) => format!("\\#{rest}"),
        None => out,
    }
}

/// A Markdown table cell: as [`md_text`] (a `|` would split the cell, a newline end the table).
pub fn md_cell(s: &str) -> String {
    md_text(s.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_become_visible() {
        assert_eq!(field("a\u{1b}]0;pwned\u{7}b"), "a␛]0;pwned␇b");
        assert_eq!(field("x\ny\r"), "x␊y␍");
        assert_eq!(field("\u{9b}2J\u{7f}"), "\\u{9b}2J␡");
        assert_eq!(field("evil\u{202e}txt"), "evil\\u{202e}txt");
        assert_eq!(field("prod_a"), "prod_a");
        assert_eq!(output("a\n\tb\u{1b}[2J\n"), "a\n\tb␛[2J\n");
    }

    #[test]
    fn markdown_structure_is_escaped() {
        assert_eq!(md_cell("a|b"), "a\\|b");
        assert_eq!(
            md_text("# All healthy\n## Findings"),
            "\\# All healthy␊## Findings"
        );
        assert_eq!(md_text("<!-- hide"), "&lt;!-- hide");
        assert!(!md_cell("x\u{1b}[31m").contains('\u{1b}'));
    }
}
