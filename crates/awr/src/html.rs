//! The report's HTML as the reader needs it: a flat list of texts (titles, headings,
//! paragraphs) and tables (rows of cell texts), in document order. AWR's tables are flat and
//! titled by the text just before them, so no tree is built.

use html5gum::{Token, Tokenizer};

/// One piece of the document.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Block {
    /// Text outside any table (a heading, a paragraph, the report's title line).
    Text(String),
    Table(Table),
}

/// A table: its rows of cell texts (header rows included: AWR writes them as `th` cells in
/// the first rows) and the text that stood before it, which names it.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Table {
    pub(crate) title: String,
    pub(crate) rows: Vec<Vec<String>>,
    /// How many leading rows hold `th` cells only: the header.
    pub(crate) header_rows: usize,
}

impl Table {
    /// The header rows' cells, all of them (two-level headers included).
    pub(crate) fn header_cells(&self) -> impl Iterator<Item = &str> {
        self.rows[..self.header_rows.min(self.rows.len())]
            .iter()
            .flatten()
            .map(String::as_str)
    }

    /// The last header row: the one whose cells name the data columns.
    pub(crate) fn columns(&self) -> &[String] {
        match self.header_rows {
            0 => &[],
            n => self.rows.get(n - 1).map_or(&[][..], Vec::as_slice),
        }
    }

    /// The index of the first column whose header starts with `prefix` (case-insensitive).
    pub(crate) fn col(&self, prefix: &str) -> Option<usize> {
        let p = prefix.to_ascii_lowercase();
        self.columns()
            .iter()
            .position(|c| c.to_ascii_lowercase().starts_with(&p))
    }

    pub(crate) fn body(&self) -> &[Vec<String>] {
        &self.rows[self.header_rows.min(self.rows.len())..]
    }

    pub(crate) fn has_header(&self, cell: &str) -> bool {
        self.header_cells().any(|c| c.eq_ignore_ascii_case(cell))
    }
}

/// The tables among `blocks`, in document order.
pub(crate) fn tables(blocks: &[Block]) -> Vec<&Table> {
    blocks
        .iter()
        .filter_map(|b| match b {
            Block::Table(t) => Some(t),
            Block::Text(_) => None,
        })
        .collect()
}

/// Removes `<script>` and `<style>` elements before tokenizing: the tokenizer alone does not
/// switch to raw-text states, and a `<` inside a script would open a false tag that swallows
/// the text after it.
fn strip_raw(src: &str) -> String {
    let lower = src.to_ascii_lowercase();
    let mut out = String::with_capacity(src.len());
    let mut at = 0;
    while at < src.len() {
        let next = ["<script", "<style"]
            .iter()
            .filter_map(|t| lower[at..].find(t).map(|i| (at + i, *t)))
            .min_by_key(|(i, _)| *i);
        let Some((start, tag)) = next else { break };
        out.push_str(&src[at..start]);
        let close = format!("</{}", &tag[1..]);
        at = match lower[start..].find(&close) {
            Some(i) => {
                let end = start + i;
                lower[end..].find('>').map_or(src.len(), |j| end + j + 1)
            }
            None => src.len(),
        };
    }
    if at < src.len() {
        out.push_str(&src[at..]);
    }
    out
}

/// Collapses runs of white space (and non-breaking spaces) to one space and trims.
pub(crate) fn squash(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for w in s.split(|c: char| c.is_whitespace() || c == '\u{a0}') {
        if w.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// Tags that end a line of text outside tables (so a heading and the paragraph after it stay
/// two texts).
fn breaks_text(name: &[u8]) -> bool {
    matches!(
        name,
        b"h1"
            | b"h2"
            | b"h3"
            | b"h4"
            | b"h5"
            | b"p"
            | b"br"
            | b"div"
            | b"li"
            | b"ul"
            | b"hr"
            | b"title"
            | b"body"
            | b"pre"
    )
}

/// Reads the document into blocks.
pub(crate) fn blocks(src: &str) -> Vec<Block> {
    let src = strip_raw(src);
    let mut out = Vec::new();
    // Open tables, innermost last (a nested table is its own block).
    let mut stack: Vec<Table> = Vec::new();
    let mut row: Option<Vec<String>> = None;
    // Which of the row's cells are `th` (a header row: `th` cells and empty `td`s only).
    let mut row_th: Vec<bool> = Vec::new();
    let mut cell: Option<String> = None;
    let mut text = String::new();
    // The newest heading or paragraph names the next table (some are titled by a heading,
    // others by a `<p />` line); notes in list items ("-> ordered by wait time") between a
    // title and its table do not.
    let mut last_text = String::new();
    let mut titling = true;
    let flush_text = |text: &mut String, out: &mut Vec<Block>, last: &mut String, title: bool| {
        let t = squash(text);
        text.clear();
        if !t.is_empty() {
            if title || last.is_empty() {
                *last = t.clone();
            }
            out.push(Block::Text(t));
        }
    };
    // Reading from a string cannot fail (the error type is `Infallible`).
    for Ok(token) in Tokenizer::new(src.as_str()) {
        match token {
            Token::StartTag(tag) => {
                let name = tag.name.as_slice();
                match name {
                    b"table" => {
                        if stack.is_empty() {
                            flush_text(&mut text, &mut out, &mut last_text, titling);
                        }
                        stack.push(Table {
                            title: last_text.clone(),
                            ..Table::default()
                        });
                    }
                    b"tr" if !stack.is_empty() => {
                        row = Some(Vec::new());
                        row_th.clear();
                        cell = None;
                    }
                    b"td" | b"th" if !stack.is_empty() => {
                        if let (Some(r), Some(c)) = (row.as_mut(), cell.take()) {
                            r.push(squash(&c));
                        }
                        if row.is_none() {
                            row = Some(Vec::new());
                            row_th.clear();
                        }
                        row_th.push(name == b"th");
                        cell = Some(String::new());
                    }
                    b"br" if cell.is_some() => {
                        if let Some(c) = cell.as_mut() {
                            c.push(' ');
                        }
                    }
                    n if stack.is_empty() && breaks_text(n) => {
                        flush_text(&mut text, &mut out, &mut last_text, titling);
                        titling = !is_note(n);
                    }
                    _ => {}
                }
            }
            Token::EndTag(tag) => match tag.name.as_slice() {
                b"td" | b"th" => {
                    if let (Some(r), Some(c)) = (row.as_mut(), cell.take()) {
                        r.push(squash(&c));
                    }
                }
                b"tr" => {
                    end_row(&mut stack, &mut row, &mut cell, &row_th);
                }
                b"table" => {
                    end_row(&mut stack, &mut row, &mut cell, &row_th);
                    if let Some(t) = stack.pop() {
                        out.push(Block::Table(t));
                    }
                }
                n if stack.is_empty() && breaks_text(n) => {
                    flush_text(&mut text, &mut out, &mut last_text, titling);
                    titling = true;
                }
                _ => {}
            },
            Token::String(s) => {
                let s = String::from_utf8_lossy(s.as_slice());
                match cell.as_mut() {
                    Some(c) => c.push_str(&s),
                    None if stack.is_empty() => text.push_str(&s),
                    // Text inside a table but outside a cell (stray captions): ignored.
                    None => {}
                }
            }
            _ => {}
        }
    }
    end_row(&mut stack, &mut row, &mut cell, &row_th);
    // Tables left open by a cut file still count.
    while let Some(t) = stack.pop() {
        out.push(Block::Table(t));
    }
    flush_text(&mut text, &mut out, &mut last_text, titling);
    out
}

fn is_note(name: &[u8]) -> bool {
    matches!(name, b"li" | b"ul")
}

fn end_row(
    stack: &mut [Table],
    row: &mut Option<Vec<String>>,
    cell: &mut Option<String>,
    th: &[bool],
) {
    let Some(mut r) = row.take() else { return };
    if let Some(c) = cell.take() {
        r.push(squash(&c));
    }
    let Some(t) = stack.last_mut() else { return };
    if r.is_empty() {
        return;
    }
    let is_th = |i: usize| th.get(i).copied().unwrap_or(false);
    let header =
        (0..r.len()).any(is_th) && r.iter().enumerate().all(|(i, c)| is_th(i) || c.is_empty());
    if header && t.rows.len() == t.header_rows {
        t.header_rows += 1;
    }
    t.rows.push(r);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_take_the_text_before_them_as_title() {
        let b = blocks(
            "<h3 class=awr>Load Profile</h3><TABLE><TR><TH>a</TH><TH>b</TH></TR>\r\n\
             <TR><TD>1&nbsp;</TD><TD>x<br>y</TD></TR></TABLE><p>after",
        );
        let Block::Table(t) = &b[1] else {
            panic!("no table: {b:?}")
        };
        assert_eq!(t.title, "Load Profile");
        assert_eq!(t.header_rows, 1);
        assert_eq!(t.rows[1], vec!["1".to_string(), "x y".to_string()]);
        assert_eq!(b[2], Block::Text("after".into()));
    }

    #[test]
    fn a_header_row_may_hold_empty_td_cells() {
        // Global reports' two-level headers: empty `td`s beside a caption `th`.
        let b = blocks(
            "<h3>S</h3><table><tr><td>&#160;</td><th>per Second</th></tr>\
             <tr><th>Statistic</th><th>Total</th></tr><tr><td>x</td><td>1</td></tr>\
             <tr><td></td><th>not a header</th></tr></table>",
        );
        let Block::Table(t) = &b[1] else {
            panic!("no table: {b:?}")
        };
        assert_eq!(t.header_rows, 2);
        assert_eq!(t.col("Total"), Some(1));
        assert_eq!(t.body().len(), 2);
    }

    #[test]
    fn scripts_are_not_read_as_markup() {
        let b = blocks("<script>if (a<b) {}</script><h3>T</h3><table><tr><td>1</td></tr></table>");
        assert!(matches!(&b[1], Block::Table(t) if t.title == "T" && t.rows.len() == 1));
    }
}
