//! A recording line's bytes → `Sample`, by hand: a full pass over a day spent 84 % of its
//! time in `serde_json::from_str::<Sample>`. This parser matches keys as borrowed bytes, skips
//! unknown keys without building them and allocates only the `String`s the `Sample` keeps.
//!
//! It gives exactly what serde gives. It handles the common forms itself and hands every
//! other token (a string with an escape, a fraction, a negative number) to serde_json for
//! that token alone, so spellings and float rounding have one definition. Anything it does
//! not handle (an error, a repeated field, a struct written as an array) makes `parse` run
//! serde on the whole line and return its result, so error messages stay serde's.
//!
//! The same code merges: `merge_into` applies a line as a JSON Merge Patch (RFC 7396) over the
//! Sample's JSON shape, for lines that hold only what changed.

use super::*;
use serde::de::IgnoredAny;
use std::borrow::Cow;

/// Parses one sample line: the same `Ok` value and the same error as
/// `serde_json::from_slice::<Sample>(line)`.
pub fn parse(line: &[u8]) -> Result<Sample, serde_json::Error> {
    // One UTF-8 check of the whole line costs less than one per string; a line that fails it
    // goes to serde, which names where the bad byte is (or skips it, in a value it ignores).
    let Ok(text) = std::str::from_utf8(line) else {
        return serde_json::from_slice(line);
    };
    match P::new(text).document(Sample::from_json) {
        Ok(s) => Ok(s),
        // `from_slice` as above, not `from_str`: the same answer for valid UTF-8, and one copy
        // of serde's `Sample` reader in the crate instead of two (measured: the crate and its
        // unit tests built in 30 s of CPU instead of 33).
        Err(_) => serde_json::from_slice(line),
    }
}

/// The hand parser alone, `None` where `parse` would ask serde: for the differential tests
/// and the fuzz target, which check that it never accepts what serde refuses.
#[doc(hidden)]
pub fn hand_only(line: &[u8]) -> Option<Sample> {
    let text = std::str::from_utf8(line).ok()?;
    P::new(text).document(Sample::from_json).ok()
}

/// A patch line that could not be applied: what and at which byte of the line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad change line at byte {offset}: {what}")]
pub struct MergeError {
    pub offset: usize,
    pub what: String,
}

/// Applies `line` to `s` as a JSON Merge Patch (RFC 7396) over the Sample's JSON shape: a key
/// present overwrites; structs and maps merge recursively; `null` sets an `Option` to `None`,
/// removes a map entry, and empties a list or map that has a default; lists and scalars
/// replace whole; a struct or map that does not exist yet is parsed as a full value (its
/// required fields required). A field repeated in one object is an error (RFC 8259 leaves it
/// undefined); a map key repeated applies twice, in order.
///
/// On error `s` may hold part of the patch: merge into a copy.
pub fn merge_into(line: &[u8], s: &mut Sample) -> Result<(), MergeError> {
    let text = std::str::from_utf8(line).map_err(|e| MergeError {
        offset: e.valid_up_to(),
        what: "not UTF-8".into(),
    })?;
    P::new(text)
        .document(|p| {
            if p.peek() != Some(b'{') {
                return Err(p.bail("a change line is a JSON object"));
            }
            Sample::merge_json(p, s)
        })
        .map_err(|b| MergeError {
            offset: b.at,
            what: b.what.into_owned(),
        })
}

/// Why the hand parser stopped; `parse` then asks serde, `merge_into` reports it.
#[derive(Debug)]
struct Bail {
    at: usize,
    what: Cow<'static, str>,
}

type R<T> = Result<T, Bail>;

/// Bytes that end a plain run in a string: `"`, `\\` and the control characters JSON forbids.
static STOP: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 0x20 {
        t[c] = true;
        c += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// Deeper than serde's recursion limit (128) is an error there; stop well before it.
const MAX_DEPTH: u32 = 64;

/// Over text already checked for UTF-8: a slice between two ASCII quotes is a `str`.
struct P<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
    depth: u32,
}

impl<'a> P<'a> {
    fn new(s: &'a str) -> Self {
        P {
            s,
            b: s.as_bytes(),
            i: 0,
            depth: 0,
        }
    }

    fn bail(&self, what: &'static str) -> Bail {
        Bail {
            at: self.i,
            what: Cow::Borrowed(what),
        }
    }

    /// One value and nothing but whitespace after it.
    fn document<T>(&mut self, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        self.ws();
        let v = f(self)?;
        self.ws();
        if self.i != self.b.len() {
            return Err(self.bail("trailing characters after the object"));
        }
        Ok(v)
    }

    #[inline]
    fn ws(&mut self) {
        while let Some(&c) = self.b.get(self.i) {
            if !matches!(c, b' ' | b'\n' | b'\t' | b'\r') {
                break;
            }
            self.i += 1;
        }
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    #[inline]
    fn eat(&mut self, c: u8, what: &'static str) -> R<()> {
        self.ws();
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err(self.bail(what))
        }
    }

    /// `null` here: consumes it.
    #[inline]
    fn null(&mut self) -> bool {
        self.ws();
        if self.b[self.i..].starts_with(b"null") {
            self.i += 4;
            true
        } else {
            false
        }
    }

    fn literal(&mut self, word: &'static [u8]) -> R<()> {
        if self.b[self.i..].starts_with(word) {
            self.i += word.len();
            Ok(())
        } else {
            Err(self.bail("expected a value"))
        }
    }

    fn enter(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.bail("nested too deep"));
        }
        Ok(())
    }

    /// Consumes `{`; the caller then loops on `key`.
    #[inline]
    fn object(&mut self) -> R<()> {
        self.ws();
        if self.peek() != Some(b'{') {
            return Err(self.bail("expected an object"));
        }
        self.i += 1;
        self.enter()
    }

    /// The next key of an object and its `:`, or `None` at its `}`.
    #[inline]
    fn key(&mut self, first: &mut bool) -> R<Option<Cow<'a, str>>> {
        self.ws();
        match self.peek() {
            Some(b'}') => {
                self.i += 1;
                self.depth -= 1;
                return Ok(None);
            }
            Some(b',') if !*first => {
                self.i += 1;
                self.ws();
            }
            _ if *first => {}
            _ => return Err(self.bail("expected , or }")),
        }
        *first = false;
        if self.peek() != Some(b'"') {
            return Err(self.bail("expected a key"));
        }
        let k = self.string()?;
        self.eat(b':', "expected :")?;
        self.ws();
        Ok(Some(k))
    }

    /// Consumes `[`; the caller then loops on `more`.
    #[inline]
    fn array(&mut self) -> R<()> {
        self.ws();
        if self.peek() != Some(b'[') {
            return Err(self.bail("expected an array"));
        }
        self.i += 1;
        self.enter()
    }

    /// Whether another element follows (consuming its `,`), or `false` at the `]`.
    #[inline]
    fn more(&mut self, first: &mut bool) -> R<bool> {
        self.ws();
        match self.peek() {
            Some(b']') => {
                self.i += 1;
                self.depth -= 1;
                Ok(false)
            }
            Some(b',') if !*first => {
                self.i += 1;
                self.ws();
                Ok(true)
            }
            _ if *first => {
                *first = false;
                Ok(true)
            }
            _ => Err(self.bail("expected , or ]")),
        }
    }

    /// A string at `"`: borrowed when it has no escape, else unescaped by serde.
    #[inline]
    fn string(&mut self) -> R<Cow<'a, str>> {
        let start = self.i;
        let b = self.b;
        let mut i = start + 1;
        // Plain bytes in a row without a branch each: the table marks `"`, `\\` and controls.
        while i < b.len() && !STOP[usize::from(b[i])] {
            i += 1;
        }
        match b.get(i) {
            Some(b'"') => {
                self.i = i + 1;
                Ok(Cow::Borrowed(&self.s[start + 1..i]))
            }
            Some(b'\\') => {
                let tok = self.string_token()?;
                serde_json::from_slice::<String>(tok)
                    .map(Cow::Owned)
                    .map_err(|e| self.serde(start, e))
            }
            Some(_) => {
                self.i = i;
                Err(self.bail("control character in a string"))
            }
            None => {
                self.i = i;
                Err(self.bail("unterminated string"))
            }
        }
    }

    /// A string value (after any whitespace): borrowed when it has no escape.
    #[inline]
    fn string_value(&mut self) -> R<Cow<'a, str>> {
        self.ws();
        if self.peek() != Some(b'"') {
            return Err(self.bail("expected a string"));
        }
        self.string()
    }

    /// The whole string token at `"`, escapes unchecked (serde checks them).
    fn string_token(&mut self) -> R<&'a [u8]> {
        let start = self.i;
        self.i += 1;
        while let Some(&c) = self.b.get(self.i) {
            match c {
                b'"' => {
                    self.i += 1;
                    return Ok(&self.b[start..self.i]);
                }
                b'\\' => self.i += 2,
                0..=0x1f => return Err(self.bail("control character in a string")),
                _ => self.i += 1,
            }
        }
        Err(self.bail("unterminated string"))
    }

    fn serde(&self, at: usize, e: serde_json::Error) -> Bail {
        Bail {
            at,
            what: Cow::Owned(e.to_string()),
        }
    }

    /// A number token by JSON's grammar; `Some(n)` when it is a plain non-negative integer
    /// that fits `u64` (the common case), `None` for any other valid number.
    #[inline]
    fn number(&mut self) -> R<(&'a [u8], Option<u64>)> {
        let start = self.i;
        let b = self.b;
        let mut simple = true;
        if b.get(self.i) == Some(&b'-') {
            self.i += 1;
            simple = false;
        }
        let mut n: u64 = 0;
        match b.get(self.i) {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => {
                let from = self.i;
                while let Some(&c @ b'0'..=b'9') = b.get(self.i) {
                    // 19 digits always fit a u64; only a 20th can overflow.
                    if self.i - from < 19 {
                        n = n * 10 + u64::from(c - b'0');
                    } else {
                        match n
                            .checked_mul(10)
                            .and_then(|m| m.checked_add(u64::from(c - b'0')))
                        {
                            Some(m) => n = m,
                            None => simple = false,
                        }
                    }
                    self.i += 1;
                }
            }
            _ => return Err(self.bail("expected a number")),
        }
        if b.get(self.i) == Some(&b'.') {
            simple = false;
            self.i += 1;
            self.digits()?;
        }
        if matches!(b.get(self.i), Some(b'e' | b'E')) {
            simple = false;
            self.i += 1;
            if matches!(b.get(self.i), Some(b'+' | b'-')) {
                self.i += 1;
            }
            self.digits()?;
        }
        Ok((&self.b[start..self.i], simple.then_some(n)))
    }

    fn digits(&mut self) -> R<()> {
        let from = self.i;
        while matches!(self.b.get(self.i), Some(b'0'..=b'9')) {
            self.i += 1;
        }
        if self.i == from {
            return Err(self.bail("expected digits"));
        }
        Ok(())
    }

    /// Any number token into `T`, by serde for the forms `number` does not compute.
    fn number_as<T: serde::de::DeserializeOwned>(&mut self, tok: &[u8], at: usize) -> R<T> {
        serde_json::from_slice::<T>(tok).map_err(|e| self.serde(at, e))
    }

    fn u64(&mut self) -> R<u64> {
        self.ws();
        let at = self.i;
        match self.number()? {
            (_, Some(n)) => Ok(n),
            (tok, None) => self.number_as(tok, at),
        }
    }

    /// Skips a value without building it, as strictly as serde's `IgnoredAny`.
    fn skip(&mut self) -> R<()> {
        self.ws();
        match self.peek() {
            Some(b'"') => {
                let at = self.i;
                let tok = self.string_token()?;
                if tok.contains(&b'\\') {
                    serde_json::from_slice::<IgnoredAny>(tok).map_err(|e| self.serde(at, e))?;
                }
                Ok(())
            }
            Some(b'{') => {
                self.object()?;
                let mut first = true;
                while self.key(&mut first)?.is_some() {
                    self.skip()?;
                }
                Ok(())
            }
            Some(b'[') => {
                self.array()?;
                let mut first = true;
                while self.more(&mut first)? {
                    self.skip()?;
                }
                Ok(())
            }
            Some(b't') => self.literal(b"true"),
            Some(b'f') => self.literal(b"false"),
            Some(b'n') => self.literal(b"null"),
            _ => self.number().map(|_| ()),
        }
    }
}

/// A value of the Sample's JSON shape: parsed whole, or merged into an existing one.
trait Json: Sized {
    fn from_json(p: &mut P) -> R<Self>;
    /// Scalars and lists replace whole; structs and maps override this to merge.
    fn merge_json(p: &mut P, cur: &mut Self) -> R<()> {
        *cur = Self::from_json(p)?;
        Ok(())
    }
}

impl Json for u64 {
    #[inline]
    fn from_json(p: &mut P) -> R<Self> {
        p.u64()
    }
}

impl Json for u32 {
    #[inline]
    fn from_json(p: &mut P) -> R<Self> {
        p.ws();
        let at = p.i;
        match p.number()? {
            (_, Some(n)) => u32::try_from(n).map_err(|_| p.bail("out of range for u32")),
            (tok, None) => p.number_as(tok, at),
        }
    }
}

impl Json for i64 {
    fn from_json(p: &mut P) -> R<Self> {
        p.ws();
        let at = p.i;
        match p.number()? {
            (_, Some(n)) => i64::try_from(n).map_err(|_| p.bail("out of range for i64")),
            (tok, None) => p.number_as(tok, at),
        }
    }
}

impl Json for f64 {
    #[inline]
    fn from_json(p: &mut P) -> R<Self> {
        p.ws();
        let at = p.i;
        match p.number()? {
            // serde converts an integer token the same way.
            (_, Some(n)) => Ok(n as f64),
            (tok, None) => p.number_as(tok, at),
        }
    }
}

impl Json for bool {
    fn from_json(p: &mut P) -> R<Self> {
        p.ws();
        match p.peek() {
            Some(b't') => p.literal(b"true").map(|_| true),
            Some(b'f') => p.literal(b"false").map(|_| false),
            _ => Err(p.bail("expected a boolean")),
        }
    }
}

impl Json for String {
    #[inline]
    fn from_json(p: &mut P) -> R<Self> {
        p.string_value().map(Cow::into_owned)
    }
}

impl Json for Name {
    #[inline]
    fn from_json(p: &mut P) -> R<Self> {
        p.string_value().map(|s| match s {
            Cow::Borrowed(s) => Name::new(s),
            Cow::Owned(s) => Name::from(s),
        })
    }
}

impl Json for Timestamp {
    fn from_json(p: &mut P) -> R<Self> {
        p.ws();
        let at = p.i;
        if p.peek() != Some(b'"') {
            return Err(p.bail("expected a time"));
        }
        let s = p.string()?;
        Timestamp::parse(&s).map_err(|e| Bail {
            at,
            what: Cow::Owned(e.to_string()),
        })
    }
}

impl Json for Micros {
    #[inline]
    fn from_json(p: &mut P) -> R<Self> {
        p.u64().map(Micros)
    }
}

impl Json for Secs {
    fn from_json(p: &mut P) -> R<Self> {
        f64::from_json(p).map(Secs)
    }
}

impl Json for Slot {
    fn from_json(p: &mut P) -> R<Self> {
        Name::from_json(p).map(Slot)
    }
}

/// The enums' one spelling is their `From<String>`.
macro_rules! json_from_string {
    ($($t:ty),+) => {$(
        impl Json for $t {
            fn from_json(p: &mut P) -> R<Self> {
                String::from_json(p).map(<$t>::from)
            }
        }
    )+};
}
json_from_string!(
    Role,
    OpenMode,
    TransmitMode,
    DestStatus,
    LogStatus,
    SampleErrorKind
);

impl<T: Json> Json for Vec<T> {
    fn from_json(p: &mut P) -> R<Self> {
        p.array()?;
        let mut v = Vec::new();
        let mut first = true;
        while p.more(&mut first)? {
            v.push(T::from_json(p)?);
        }
        Ok(v)
    }

    /// A list replaces whole, except that an object changes the elements its keys index
    /// (recording version 2 writes an array of objects that keeps its length that way).
    fn merge_json(p: &mut P, cur: &mut Self) -> R<()> {
        p.ws();
        if p.peek() != Some(b'{') {
            // Replaced whole, into the list's own buffer: a histogram is replaced on every
            // changes line, and a fresh buffer each time was an allocation and a free.
            p.array()?;
            cur.clear();
            let mut first = true;
            while p.more(&mut first)? {
                cur.push(T::from_json(p)?);
            }
            return Ok(());
        }
        p.object()?;
        let mut first = true;
        while let Some(k) = p.key(&mut first)? {
            let el = k
                .parse::<usize>()
                .ok()
                .and_then(|i| cur.get_mut(i))
                .ok_or_else(|| p.bail("a change of an element past the end of the list"))?;
            T::merge_json(p, el)?;
        }
        Ok(())
    }
}

/// A part several samples share (the slow parts, carried from the sample that read them):
/// merging into it changes this sample's copy only.
impl<T: Json + Clone> Json for std::sync::Arc<T> {
    fn from_json(p: &mut P) -> R<Self> {
        T::from_json(p).map(std::sync::Arc::new)
    }

    fn merge_json(p: &mut P, cur: &mut Self) -> R<()> {
        T::merge_json(p, std::sync::Arc::make_mut(cur))
    }
}

/// `[a, b]`: what serde reads a pair or a two-field tuple struct from.
fn pair<A: Json, B: Json>(p: &mut P) -> R<(A, B)> {
    p.array()?;
    let mut first = true;
    if !p.more(&mut first)? {
        return Err(p.bail("expected two elements"));
    }
    let a = A::from_json(p)?;
    if !p.more(&mut first)? {
        return Err(p.bail("expected two elements"));
    }
    let b = B::from_json(p)?;
    if p.more(&mut first)? {
        return Err(p.bail("expected two elements"));
    }
    Ok((a, b))
}

impl Json for (u64, u64) {
    fn from_json(p: &mut P) -> R<Self> {
        pair(p)
    }
}

impl Json for Bucket {
    #[inline]
    fn from_json(p: &mut P) -> R<Self> {
        pair::<Micros, u64>(p).map(|(a, b)| Bucket(a, b))
    }
}

/// A map keyed by names, from a JSON object: the same for the sample's sorted maps and the
/// parameters' `BTreeMap`.
macro_rules! name_map_json {
    ($map:ident) => {
        impl<V: Json> Json for $map<Name, V> {
            fn from_json(p: &mut P) -> R<Self> {
                p.object()?;
                let mut m = $map::new();
                let mut first = true;
                while let Some(k) = p.key(&mut first)? {
                    // A repeated key: the last wins, as in serde's map.
                    m.insert(Name::from(&*k), V::from_json(p)?);
                }
                Ok(m)
            }

            fn merge_json(p: &mut P, cur: &mut Self) -> R<()> {
                p.object()?;
                let mut first = true;
                while let Some(k) = p.key(&mut first)? {
                    if p.null() {
                        cur.remove(&*k);
                    } else if let Some(v) = cur.get_mut(&*k) {
                        V::merge_json(p, v)?;
                    } else {
                        cur.insert(Name::from(&*k), V::from_json(p)?);
                    }
                }
                Ok(())
            }
        }
    };
}

name_map_json!(BTreeMap);
name_map_json!(FlatMap);

/// One field of a struct, parsed whole: `req` must be present (not `null`), `def` falls back
/// to its default when absent (`null` is an error, as in serde), `opt` is `None` when absent
/// or `null`.
macro_rules! full_field {
    (req, $p:ident, $t:ty) => {
        Some(<$t>::from_json($p)?)
    };
    (def, $p:ident, $t:ty) => {
        Some(<$t>::from_json($p)?)
    };
    (opt, $p:ident, $t:ty) => {
        if $p.null() {
            None
        } else {
            Some(<$t>::from_json($p)?)
        }
    };
}

macro_rules! finish_field {
    (req, $p:ident, $v:expr) => {
        match $v {
            Some(v) => v,
            None => return Err($p.bail("missing field")),
        }
    };
    (def, $p:ident, $v:expr) => {
        $v.unwrap_or_default()
    };
    (opt, $p:ident, $v:expr) => {
        $v
    };
}

/// One field of a struct merged into an existing value.
macro_rules! merge_field {
    (req, $p:ident, $t:ty, $cur:expr) => {
        if $p.null() {
            return Err($p.bail("null on a required field"));
        } else {
            <$t>::merge_json($p, $cur)?
        }
    };
    (def, $p:ident, $t:ty, $cur:expr) => {
        if $p.null() {
            *$cur = Default::default();
        } else {
            <$t>::merge_json($p, $cur)?
        }
    };
    (opt, $p:ident, $t:ty, $cur:expr) => {
        if $p.null() {
            *$cur = None;
        } else {
            match $cur {
                Some(v) => <$t>::merge_json($p, v)?,
                None => *$cur = Some(<$t>::from_json($p)?),
            }
        }
    };
}

/// `name`'s place in `names`, at compile time.
const fn index_of(names: &[&str], name: &str) -> usize {
    let mut i = 0;
    while i < names.len() {
        let (a, b) = (names[i].as_bytes(), name.as_bytes());
        if a.len() == b.len() {
            let mut j = 0;
            while j < a.len() && a[j] == b[j] {
                j += 1;
            }
            if j == a.len() {
                return i;
            }
        }
        i += 1;
    }
    panic!("not a field name")
}

/// A struct's fields as serde names them: the full parse (every field built once, required
/// ones required, repeated ones refused as serde refuses them) and the merge, from one list.
/// The struct literal names every field, so a field added to the type without its line here
/// does not compile.
macro_rules! json_struct {
    ($ty:ident { $($kind:ident $name:literal $field:ident : $t:ty),+ $(,)? }) => {
        impl $ty {
            const NAMES: &'static [&'static str] = &[$($name),+];
        }

        impl Json for $ty {
            fn from_json(p: &mut P) -> R<Self> {
                p.object()?;
                $( let mut $field: Option<$t> = None; )+
                let mut seen = 0u64;
                let mut first = true;
                while let Some(k) = p.key(&mut first)? {
                    // Literal patterns: a length test each, bytes compared inline.
                    match &*k {
                        $(
                            $name => {
                                const BIT: u64 = 1 << index_of($ty::NAMES, $name);
                                if seen & BIT != 0 {
                                    return Err(p.bail("duplicate field"));
                                }
                                seen |= BIT;
                                $field = full_field!($kind, p, $t);
                            }
                        )+
                        _ => p.skip()?,
                    }
                }
                Ok($ty { $( $field: finish_field!($kind, p, $field), )+ })
            }

            fn merge_json(p: &mut P, cur: &mut Self) -> R<()> {
                p.object()?;
                let mut seen = 0u64;
                let mut first = true;
                while let Some(k) = p.key(&mut first)? {
                    // Literal patterns: a length test each, bytes compared inline.
                    match &*k {
                        $(
                            $name => {
                                const BIT: u64 = 1 << index_of($ty::NAMES, $name);
                                if seen & BIT != 0 {
                                    return Err(p.bail("duplicate field"));
                                }
                                seen |= BIT;
                                merge_field!($kind, p, $t, &mut cur.$field);
                            }
                        )+
                        _ => p.skip()?,
                    }
                }
                Ok(())
            }
        }
    };
}

json_struct!(Sample {
    req "t" t: Timestamp,
    req "slot" slot: Slot,
    opt "query_us" query_us: Micros,
    opt "db" db: Arc<DbInfo>,
    def "events" events: FlatMap<Name, Event>,
    def "stats" stats: FlatMap<Name, u64>,
    def "time_model" time_model: FlatMap<Name, u64>,
    def "os" os: FlatMap<Name, f64>,
    def "iostat" iostat: FlatMap<Name, IoStat>,
    def "dests" dests: Vec<Dest>,
    opt "logs" logs: Arc<Logs>,
    opt "switches" switches: Arc<Vec<LogSwitch>>,
    opt "dg" dg: DgStats,
    opt "lag_hist" lag_hist: Vec<LagHistRow>,
    opt "recovery" recovery: Recovery,
    def "processes" processes: Arc<Vec<Process>>,
    opt "params" params: Arc<BTreeMap<Name, Name>>,
    opt "gaps" gaps: Vec<Gap>,
    opt "fra" fra: Fra,
    opt "dg_messages" dg_messages: Vec<DgMessage>,
    opt "instances" instances: Vec<InstanceSample>,
    opt "dg_config" dg_config: Arc<Vec<DgMember>>,
    opt "cdb" cdb: bool,
    opt "unrecoverable" unrecoverable: Arc<Vec<Unrecoverable>>,
    opt "waits_now" waits_now: Vec<WaitNow>,
    def "errors" errors: Vec<PartError>,
    opt "error" error: SampleError,
});

json_struct!(DbInfo {
    opt "name" name: Name,
    opt "role" role: Role,
    opt "open_mode" open_mode: OpenMode,
    opt "protection_mode" protection_mode: Name,
    opt "protection_level" protection_level: Name,
    opt "version" version: Name,
    opt "startup" startup: Timestamp,
    opt "host" host: Name,
    opt "instances" instances: u32,
    opt "switchover_status" switchover_status: Name,
    opt "dataguard_broker" dataguard_broker: Name,
    opt "fs_failover_status" fs_failover_status: Name,
    opt "fs_failover_target" fs_failover_target: Name,
    opt "fs_failover_threshold_s" fs_failover_threshold_s: u64,
    opt "fs_failover_observer_present" fs_failover_observer_present: bool,
    opt "fs_failover_observer_host" fs_failover_observer_host: Name,
    opt "fs_failover_lag_limit_s" fs_failover_lag_limit_s: u64,
    opt "force_logging" force_logging: Name,
    opt "flashback_on" flashback_on: Name,
    opt "intended_state" intended_state: Name,
});

json_struct!(InstanceSample {
    req "inst_id" inst_id: u32,
    opt "host" host: Name,
    def "events" events: FlatMap<Name, Event>,
    def "stats" stats: FlatMap<Name, u64>,
    def "os" os: FlatMap<Name, f64>,
});

json_struct!(DgMember {
    req "name" name: Name,
    opt "parent" parent: Name,
    opt "role" role: Name,
});

json_struct!(Event {
    req "waits" waits: u64,
    req "us" us: Micros,
    def "hist" hist: Vec<Bucket>,
    opt "waits_fg" waits_fg: u64,
    opt "us_fg" us_fg: Micros,
    opt "class" class: Name,
});

json_struct!(IoStat {
    req "rreq" rreq: u64,
    req "wreq" wreq: u64,
    req "rmb" rmb: u64,
    req "wmb" wmb: u64,
    req "rms" rms: u64,
    req "wms" wms: u64,
});

json_struct!(Dest {
    req "id" id: u32,
    opt "name" name: Name,
    req "status" status: DestStatus,
    req "mode" mode: TransmitMode,
    def "affirm" affirm: bool,
    opt "compression" compression: Name,
    opt "net_timeout_s" net_timeout_s: u64,
    opt "gap" gap: Name,
    opt "error" error: Name,
    opt "archived_seq" archived_seq: u64,
    opt "applied_seq" applied_seq: u64,
    def "resp_hist" resp_hist: Vec<(u64, u64)>,
    opt "db_unique_name" db_unique_name: Name,
    opt "type" dest_type: Name,
    opt "delay_mins" delay_mins: u32,
    opt "recovery_mode" recovery_mode: Name,
    opt "database_mode" database_mode: Name,
    opt "synchronization_status" synchronization_status: Name,
    opt "srl_count" srl_count: u32,
    opt "srl_active" srl_active: u32,
    opt "reopen_secs" reopen_secs: u64,
    opt "max_failure" max_failure: u32,
    opt "failure_count" failure_count: u32,
    opt "fail_date" fail_date: Timestamp,
    opt "binding" binding: Name,
});

json_struct!(Unrecoverable {
    req "file" file: u32,
    req "change" change: u64,
    opt "time" time: Timestamp,
});

json_struct!(WaitNow {
    req "event" event: Name,
    opt "class" class: Name,
    req "sessions" sessions: u32,
    req "longest_s" longest_s: f64,
    opt "blocker" blocker: Name,
});

json_struct!(Logs {
    def "online" online: Vec<Log>,
    def "standby" standby: Vec<Log>,
});

json_struct!(Log {
    req "group" group: u32,
    req "thread" thread: u32,
    req "sequence" sequence: u64,
    req "bytes" bytes: u64,
    req "members" members: u32,
    req "status" status: LogStatus,
    opt "used" used: u64,
    opt "blocksize" blocksize: u32,
});

json_struct!(LogSwitch {
    req "thread" thread: u32,
    req "sequence" sequence: u64,
    req "time" time: Timestamp,
});

json_struct!(DgStats {
    opt "transport_lag_s" transport_lag_s: Secs,
    opt "apply_lag_s" apply_lag_s: Secs,
    opt "apply_finish_s" apply_finish_s: Secs,
    opt "computed" computed: Timestamp,
    opt "datum" datum: Timestamp,
    opt "inst_id" inst_id: u32,
});

json_struct!(LagHistRow {
    req "name" name: Name,
    req "lag_s" lag_s: u64,
    req "count" count: u64,
});

json_struct!(Recovery {
    opt "active_apply_kbps" active_apply_kbps: f64,
    opt "average_apply_kbps" average_apply_kbps: f64,
    opt "max_apply_kbps" max_apply_kbps: f64,
    opt "redo_applied_mb" redo_applied_mb: f64,
    opt "last_applied" last_applied: Timestamp,
    opt "apply_time_per_log_s" apply_time_per_log_s: f64,
    opt "checkpoint_time_per_log_s" checkpoint_time_per_log_s: f64,
});

json_struct!(Process {
    req "name" name: Name,
    opt "role" role: Name,
    opt "action" action: Name,
    opt "thread" thread: u32,
    opt "sequence" sequence: u64,
    opt "delay_mins" delay_mins: u32,
    opt "inst_id" inst_id: u32,
});

json_struct!(Gap {
    req "thread" thread: u32,
    req "low" low: u64,
    req "high" high: u64,
});

json_struct!(Fra {
    req "limit_bytes" limit_bytes: u64,
    req "used_bytes" used_bytes: u64,
    def "reclaimable_bytes" reclaimable_bytes: u64,
    opt "files" files: u64,
});

json_struct!(DgMessage {
    req "time" time: Timestamp,
    req "severity" severity: String,
    opt "facility" facility: String,
    opt "error_code" error_code: i64,
    opt "dest_id" dest_id: u32,
    req "message" message: String,
});

json_struct!(PartError {
    req "part" part: String,
    req "code" code: String,
    req "message" message: String,
});

json_struct!(SampleError {
    req "kind" kind: SampleErrorKind,
    req "message" message: String,
});

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(line: &str) -> Option<Sample> {
        hand_only(line.as_bytes())
    }

    // `parse` and serde agree: the same value or the same message.
    use crate::sample::test_support::parse_as_serde as same;

    const HEAD: &str = r#""t":"2026-11-30T05:00:00.000Z","slot":"primary""#;

    fn line(rest: &str) -> String {
        if rest.is_empty() {
            format!("{{{HEAD}}}")
        } else {
            format!("{{{HEAD},{rest}}}")
        }
    }

    #[test]
    fn every_field_of_every_type_round_trips() {
        let full = line(concat!(
            r#""query_us":12,"db":{"name":"a","role":"physical standby","open_mode":"MOUNTED","#,
            r#""protection_mode":"MAXIMUM AVAILABILITY","protection_level":"x","version":"19","#,
            r#""startup":"2026-11-20T01:02:03+02:00","host":"h","instances":2,"#,
            r#""switchover_status":"TO STANDBY","dataguard_broker":"ENABLED","#,
            r#""fs_failover_status":"SYNCHRONIZED","fs_failover_target":"sb","#,
            r#""fs_failover_threshold_s":30,"fs_failover_observer_present":true,"#,
            r#""fs_failover_observer_host":"obs","fs_failover_lag_limit_s":30,"#,
            r#""force_logging":"YES","flashback_on":"NO","intended_state":"APPLY-ON"},"#,
            r#""events":{"log file sync":{"waits":5,"us":7,"hist":[[1,2],[4,5]],"waits_fg":1,"us_fg":2}},"#,
            r#""stats":{"user commits":9},"os":{"LOAD":1.25,"NUM_CPUS":8,"BIG":1e3,"NEG":-2},"#,
            r#""iostat":{"Log File":{"rreq":1,"wreq":2,"rmb":3,"wmb":4,"rms":5,"wms":6}},"#,
            r#""dests":[{"id":2,"name":"d","status":"VALID","mode":"SYNC","affirm":true,"#,
            r#""compression":"DISABLE","net_timeout_s":30,"gap":"NO GAP","error":null,"#,
            r#""archived_seq":4,"applied_seq":3,"resp_hist":[[1,9]],"db_unique_name":"sb","#,
            r#""type":"PHYSICAL","delay_mins":0,"recovery_mode":"IDLE","database_mode":"M","#,
            r#""synchronization_status":"OK","srl_count":4,"srl_active":1,"reopen_secs":300,"#,
            r#""max_failure":0,"failure_count":2,"fail_date":"2026-11-30T04:58:00.000Z","#,
            r#""binding":"MANDATORY"}],"#,
            r#""logs":{"online":[{"group":1,"thread":1,"sequence":9,"bytes":100,"members":2,"#,
            r#""status":"CURRENT","used":5,"blocksize":512}]},"#,
            r#""switches":[{"thread":1,"sequence":8,"time":"2026-11-30T04:59:00.000Z"}],"#,
            r#""dg":{"transport_lag_s":0.5,"apply_lag_s":null,"apply_finish_s":1,"#,
            r#""computed":"2026-11-30T05:00:00.000Z","datum":"2026-11-30T05:00:00.000Z","inst_id":1},"#,
            r#""lag_hist":[{"name":"apply lag","lag_s":1,"count":3}],"#,
            r#""recovery":{"active_apply_kbps":1.5,"average_apply_kbps":2,"max_apply_kbps":3,"#,
            r#""redo_applied_mb":4.25,"last_applied":"2026-11-30T05:00:00.000Z","#,
            r#""apply_time_per_log_s":0.1,"checkpoint_time_per_log_s":0.2},"#,
            r#""processes":[{"name":"MRP0","role":"recovery","action":"APPLYING_LOG","thread":1,"#,
            r#""sequence":9,"delay_mins":0,"inst_id":1}],"params":{"a":"b"},"#,
            r#""gaps":[{"thread":1,"low":3,"high":4}],"#,
            r#""fra":{"limit_bytes":10,"used_bytes":5,"reclaimable_bytes":1,"files":3},"#,
            r#""dg_messages":[{"time":"2026-11-30T05:00:00.000Z","severity":"Error","#,
            r#""facility":"f","error_code":-16198,"dest_id":2,"message":"m"}],"#,
            r#""instances":[{"inst_id":1,"host":"h1","events":{},"stats":{"x":1},"os":{"LOAD":0.5}}],"#,
            r#""dg_config":[{"name":"a","parent":"b","role":"PHYSICAL STANDBY"}],"cdb":false,"#,
            r#""unrecoverable":[{"file":4,"change":1234,"time":"2026-11-30T04:59:00.000Z"}],"#,
            r#""waits_now":[{"event":"log file switch (archiving needed)","class":"Configuration","#,
            r#""sessions":12,"longest_s":41.5,"blocker":"oracle@db1 (ARC1)"},"#,
            r#"{"event":"log file sync","sessions":1,"longest_s":0.004}],"#,
            r#""errors":[{"part":"p","code":"ORA-00942","message":"m"}],"#,
            r#""error":{"kind":"timeout","message":"m"}"#
        ));
        let s = same(&full).unwrap();
        assert!(
            hand(&full).is_some(),
            "the hand parser reads every field itself"
        );
        assert_eq!(s.dests[0].dest_type.as_deref(), Some("PHYSICAL"));
        assert_eq!(s.os["NEG"], -2.0);
        assert_eq!(s.dg_messages.unwrap()[0].error_code, Some(-16198));
        assert_eq!(s.dests[0].reopen_secs, Some(300));
        assert!(s.dests[0].is_mandatory());
        let db = s.db.as_ref().unwrap();
        assert_eq!(db.fs_failover_observer_present, Some(true));
        assert_eq!(db.intended_state.as_deref(), Some("APPLY-ON"));
        assert_eq!(s.unrecoverable.as_deref().unwrap()[0].change, 1234);
        let w = s.waits_now.as_deref().unwrap();
        assert_eq!((w[0].sessions, w[0].longest_s), (12, 41.5));
        assert_eq!(w[0].blocker_short(), Some("ARC1"));
        assert_eq!(
            (w[1].class.as_deref(), w[1].blocker.as_deref()),
            (None, None)
        );
    }

    #[test]
    fn unknown_keys_are_skipped_and_checked_like_serde() {
        let s = same(&line(
            r#""new":{"a":[1,-2.5e3,"x\u00e9",true,null,{}]},"kind":"sample""#,
        ));
        assert!(s.is_ok());
        assert!(hand(&line(r#""new":{"a":[1,"x",true,null,{}]}"#)).is_some());
        // Skipped, yet invalid: serde's errors.
        for bad in [
            r#""new":01"#,
            r#""new":"a\qb""#,
            r#""new":[1,]"#,
            r#""new":tru"#,
            r#""new":1."#,
            r#""new":-"#,
            "\"new\":\"a\u{1}b\"",
        ] {
            assert!(same(&line(bad)).is_err(), "{bad}");
        }
        // A lone surrogate is fine when ignored, not when kept.
        assert!(same(&line(r#""new":"\ud800""#)).is_ok());
        assert!(same(&line(r#""cdb":true,"slot2":"\ud800x""#)).is_ok());
        assert!(same(r#"{"t":"2026-11-30T05:00:00.000Z","slot":"\ud800"}"#).is_err());
    }

    #[test]
    fn bytes_that_are_not_utf8_are_refused_where_serde_refuses_them() {
        let with = |part: &str| {
            let l = line(part).into_bytes();
            let at = l.iter().position(|&c| c == b'~').unwrap();
            let mut l = l;
            l[at] = 0xff;
            let ours = parse(&l).map_err(|e| e.to_string());
            let theirs = serde_json::from_slice::<Sample>(&l).map_err(|e| e.to_string());
            assert_eq!(ours, theirs, "{part}");
            if let Some(h) = hand_only(&l) {
                assert_eq!(Ok(h), theirs);
            }
            ours.is_ok()
        };
        // serde's slice reader checks the strings it keeps and every key, not skipped values.
        assert!(with(r#""new":"a~b""#));
        assert!(!with(r#""db":{"name":"a~b"}"#));
        assert!(!with(r#""n~w":1"#));
        assert!(!with(r#""stats":{"a~":1}"#));
        assert!(!with(r#""cdb":~"#));
    }

    #[test]
    fn strings_with_escapes_are_unescaped_by_serde() {
        let s = same(&line(r#""db":{"name":"a\"b\\c\u00e9\n"}"#)).unwrap();
        assert_eq!(s.db.unwrap().name.as_deref(), Some("a\"b\\c\u{e9}\n"));
        let k = same(&line(r#""stats":{"us\u0065r commits":3}"#)).unwrap();
        assert_eq!(k.stats["user commits"], 3);
        // An escaped field name is still that field.
        let t = same(r#"{"\u0074":"2026-11-30T05:00:00.000Z","slot":"primary"}"#).unwrap();
        assert_eq!(t.slot.as_str(), "primary");
    }

    #[test]
    fn numbers_convert_exactly_as_serde() {
        for os in [
            "0.1",
            "1.7976931348623157e308",
            "2.2250738585072014e-308",
            "123456789012345678901",
            "0.30000000000000004",
            "-0",
            "-0.0",
            "1E2",
            "18446744073709551615",
            "18446744073709551616",
            "5e-324",
            "1e400",
        ] {
            let _ = same(&line(&format!(r#""os":{{"X":{os}}}"#)));
        }
        for n in [
            "-0",
            "-1",
            "1.0",
            "1e2",
            "18446744073709551615",
            "18446744073709551616",
            "01",
        ] {
            let _ = same(&line(&format!(r#""query_us":{n}"#)));
            let _ = same(&line(&format!(r#""db":{{"instances":{n}}}"#)));
        }
        assert!(same(&line(r#""db":{"instances":4294967296}"#)).is_err());
        assert!(same(&line(r#""db":{"instances":4294967295}"#)).is_ok());
    }

    #[test]
    fn what_serde_refuses_is_refused_with_serde_s_message() {
        for bad in [
            line(r#""cdb":true,"cdb":false"#),
            line(r#""dests":null"#),
            line(r#""events":{"x":{"waits":1}}"#),
            line(r#""events":{"x":{"waits":1,"us":null}}"#),
            line(r#""fra":{"limit_bytes":1,"used_bytes":2,"reclaimable_bytes":null}"#),
            line(r#""events":{"x":{"waits":1,"us":2,"hist":[[1,2,3]]}}"#),
            line(r#""events":{"x":{"waits":1,"us":2,"hist":[[1]]}}"#),
            line(r#""dests":[{"id":1,"status":"VALID","mode":"SYNC","affirm":null}]"#),
            line(r#""cdb":1"#),
            format!("{} x", line("")),
            format!("{},", line("")),
            r#"{"slot":"primary"}"#.into(),
            r#"{"t":"yesterday","slot":"primary"}"#.into(),
            r#"{"t":"2026-11-30T05:00:00.000Z","slot":"primary""#.into(),
            "[]".into(),
            "".into(),
        ] {
            let e = same(&bad).unwrap_err();
            assert!(!e.is_empty());
        }
    }

    #[test]
    fn odd_but_valid_forms_equal_serde() {
        // Whitespace everywhere, a repeated map key (the last wins), a struct as an array.
        let spaced = " {\n\t\"t\" : \"2026-11-30T05:00:00.000Z\" , \"slot\":\"primary\",\r\"stats\" : { \"a\" : 1 , \"a\" : 2 } } \n";
        assert_eq!(same(spaced).unwrap().stats["a"], 2);
        assert!(hand(spaced).is_some());
        assert!(same(r#"["2026-11-30T05:00:00.000Z","primary"]"#).is_ok());
        assert!(same(&line(r#""gaps":[[1,2,3]]"#)).is_ok());
        // Past our depth limit serde decides, up to its own.
        for depth in [60, 70, 126, 127, 128] {
            let deep = format!(r#""new":{}1{}"#, "[".repeat(depth), "]".repeat(depth));
            let _ = same(&line(&deep));
        }
        let deep = format!(r#""new":{}1{}"#, "[".repeat(100), "]".repeat(100));
        assert!(same(&line(&deep)).is_ok());
        // serde skips an unknown value without a depth limit; we hand it over past ours.
        let deeper = format!(r#""new":{}1{}"#, "[".repeat(5000), "]".repeat(5000));
        assert!(same(&line(&deeper)).is_ok());
        assert!(hand(&line(&deeper)).is_none());
    }

    fn sample() -> Sample {
        parse(line(concat!(
            r#""db":{"name":"a","role":"PRIMARY"},"events":{"e1":{"waits":1,"us":2,"hist":[[1,1]]},"#,
            r#""e2":{"waits":3,"us":4}},"stats":{"s":1},"dests":[{"id":2,"status":"VALID","mode":"SYNC"}],"#,
            r#""params":{"p":"1","q":"2"},"cdb":true"#
        ))
        .as_bytes())
        .unwrap()
    }

    #[test]
    fn merge_overwrites_merges_and_removes() {
        let mut s = sample();
        merge_into(
            concat!(
                r#"{"t":"2026-11-30T05:00:01.000Z","db":{"role":"PHYSICAL STANDBY","host":"h"},"#,
                r#""events":{"e1":{"waits":5},"e2":null,"e3":{"waits":7,"us":8}},"#,
                r#""stats":null,"params":{"q":null,"r":"3"},"cdb":null,"#,
                r#""fra":{"limit_bytes":1,"used_bytes":0},"dests":[]}"#
            )
            .as_bytes(),
            &mut s,
        )
        .unwrap();
        assert_eq!(s.t, Timestamp::parse("2026-11-30T05:00:01.000Z").unwrap());
        let db = s.db.as_ref().unwrap();
        assert_eq!(db.name.as_deref(), Some("a"), "untouched keys stay");
        assert_eq!(db.role, Some(Role::PhysicalStandby));
        assert_eq!(db.host.as_deref(), Some("h"));
        let e1 = &s.events["e1"];
        assert_eq!((e1.waits, e1.us, e1.hist.len()), (5, Micros(2), 1));
        assert!(!s.events.contains_key("e2"));
        assert_eq!(s.events["e3"].us, Micros(8));
        assert!(s.stats.is_empty());
        let params = s.params.as_ref().unwrap();
        assert_eq!(params.get("q"), None);
        assert_eq!(params["r"], "3");
        assert_eq!(s.cdb, None);
        assert_eq!(s.fra.unwrap().reclaimable_bytes, 0);
        assert!(s.dests.is_empty());
        // An empty patch changes nothing.
        let before = s.clone();
        merge_into(b" {} ", &mut s).unwrap();
        assert_eq!(s, before);
    }

    #[test]
    fn a_list_replaced_whole_takes_the_new_length_and_a_shared_part_changes_here_only() {
        let mut s = sample();
        let shared = s.clone();
        assert!(Arc::ptr_eq(
            s.params.as_ref().unwrap(),
            shared.params.as_ref().unwrap()
        ));
        merge_into(
            br#"{"events":{"e1":{"hist":[[4,1],[8,2],[16,3]]}}}"#,
            &mut s,
        )
        .unwrap();
        assert_eq!(
            s.events["e1"].hist,
            vec![
                Bucket(Micros(4), 1),
                Bucket(Micros(8), 2),
                Bucket(Micros(16), 3)
            ]
        );
        merge_into(br#"{"events":{"e1":{"hist":[[32,9]]}}}"#, &mut s).unwrap();
        assert_eq!(s.events["e1"].hist, vec![Bucket(Micros(32), 9)]);
        merge_into(
            br#"{"events":{"e1":{"hist":[]}},"params":{"p":"9"}}"#,
            &mut s,
        )
        .unwrap();
        assert!(s.events["e1"].hist.is_empty());
        assert_eq!(s.params.as_ref().unwrap()["p"], "9");
        // The sample it was cloned from still holds what it held.
        assert_eq!(shared.events["e1"].hist, vec![Bucket(Micros(1), 1)]);
        assert_eq!(shared.params.as_ref().unwrap()["p"], "1");
    }

    #[test]
    fn merge_refuses_what_it_cannot_apply_and_says_where() {
        for (patch, what) in [
            (r#"{"t":null}"#, "null on a required field"),
            (r#"{"events":{"new":{"waits":1}}}"#, "missing field"),
            (r#"{"fra":{"limit_bytes":1}}"#, "missing field"),
            (r#"{"cdb":true,"cdb":false}"#, "duplicate field"),
            (r#"{"db":[1]}"#, "expected an object"),
            (r#"{"stats":{"s":"x"}}"#, "expected a number"),
            (r#"[]"#, "a change line is a JSON object"),
            (r#"{"cdb":true} x"#, "trailing characters"),
        ] {
            let e = merge_into(patch.as_bytes(), &mut sample()).unwrap_err();
            assert!(e.what.contains(what), "{patch}: {e}");
            assert!(e.to_string().contains(&format!("byte {}", e.offset)));
        }
        let e = merge_into(br#"{"stats":{"s":1.5}}"#, &mut sample()).unwrap_err();
        assert!(e.what.contains("invalid type: floating point"), "{e}");
    }
}
