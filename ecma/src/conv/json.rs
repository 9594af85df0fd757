//! JSON text: QuoteJSONString for `JSON.stringify` (ECMA-262 25.5.2.3) and the parser
//! core of `JSON.parse` (25.5.1) producing an abstract [`JsonValue`] tree.
//!
//! The parser follows the ECMA-404 grammar that 25.5.1 step 2 requires (JSON whitespace
//! is only TAB, LF, CR and SPACE; no comments, no trailing commas, no leading zeros)
//! and is iterative: nesting is kept on an explicit stack, so deep input cannot
//! overflow the Rust stack. Because the finished tree is still dropped and walked
//! recursively, nesting is capped at a configurable depth ([`DEFAULT_MAX_DEPTH`]),
//! reported as [`JsonErrorKind::TooDeep`] for the VM to throw as a RangeError.
//!
//! Objects keep their keys in source order. A key repeated in one object keeps the
//! position of its first occurrence and the value of its last, which is what
//! 25.5.1's CreateDataProperty calls produce on an ordinary object. Ordering
//! integer-like keys first is the object model's business, not this module's.
//!
//! Error messages match V8's (what node prints), e.g. `Unexpected token ']', "[1,]" is
//! not valid JSON` or `Expected ',' or '}' after property value in JSON at position 7`;
//! every [`JsonError`] also carries the code unit position where parsing stopped.

use std::collections::HashMap;

use super::string_ops::{utf16_to_string_lossy, CodeUnit};

/// A parsed JSON value, for the VM to turn into JavaScript values (25.5.1 step 4
/// evaluates the parsed text as a script literal: objects are ordinary objects created
/// with CreateDataProperty in source order, arrays are dense).
#[derive(Clone, Debug, PartialEq)]
pub enum JsonValue {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number (may be ±Infinity for out-of-range literals like `1e400`, or −0 for `-0`).
    Number(f64),
    /// A string as UTF-16 code units (escapes resolved; lone surrogates kept).
    String(Vec<u16>),
    /// An array's elements.
    Array(Vec<JsonValue>),
    /// An object's properties in order of first appearance, duplicates resolved to the
    /// last value.
    Object(Vec<(Vec<u16>, JsonValue)>),
}

/// What went wrong in [`parse`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonErrorKind {
    /// The text is not valid JSON: throw a SyntaxError.
    Syntax,
    /// The text nests deeper than the limit: throw a RangeError.
    TooDeep,
}

/// A JSON.parse failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    /// The error kind (which constructor to throw).
    pub kind: JsonErrorKind,
    /// The message, worded as V8 words it.
    pub message: String,
    /// The code unit index in the text where the error was detected.
    pub position: usize,
}

/// The default nesting limit of [`parse`]: arrays and objects nested deeper than this
/// are rejected with [`JsonErrorKind::TooDeep`].
pub const DEFAULT_MAX_DEPTH: usize = 5000;

/// 25.5.1 JSON.parse steps 2–3: parses `text` (the already ToString'd argument) with
/// the default nesting limit.
pub fn parse<T: CodeUnit>(text: &[T]) -> Result<JsonValue, JsonError> {
    parse_with_max_depth(text, DEFAULT_MAX_DEPTH)
}

/// [`parse`] with an explicit nesting limit.
pub fn parse_with_max_depth<T: CodeUnit>(text: &[T], max_depth: usize) -> Result<JsonValue, JsonError> {
    Parser { text, pos: 0 }.parse(max_depth)
}

/// An open array or object while its elements are being parsed.
enum Frame {
    Array(Vec<JsonValue>),
    Object {
        entries: Vec<(Vec<u16>, JsonValue)>,
        /// Key → index in `entries`, built once the object grows past a few entries so
        /// duplicate detection stays linear overall.
        index: Option<HashMap<Vec<u16>, usize>>,
        /// The key whose value is being parsed.
        key: Vec<u16>,
    },
}

/// Objects up to this many entries find duplicate keys by a linear scan.
const LINEAR_SCAN_LIMIT: usize = 16;

impl Frame {
    /// Adds `key: value` to an object frame, replacing the value of an earlier
    /// occurrence of the same key in place.
    fn insert(
        entries: &mut Vec<(Vec<u16>, JsonValue)>,
        index: &mut Option<HashMap<Vec<u16>, usize>>,
        key: Vec<u16>,
        value: JsonValue,
    ) {
        if let Some(map) = index {
            if let Some(&i) = map.get(&key) {
                entries[i].1 = value;
            } else {
                map.insert(key.clone(), entries.len());
                entries.push((key, value));
            }
            return;
        }
        if let Some(existing) = entries.iter_mut().find(|(k, _)| *k == key) {
            existing.1 = value;
            return;
        }
        entries.push((key, value));
        if entries.len() > LINEAR_SCAN_LIMIT {
            *index = Some(entries.iter().enumerate().map(|(i, (k, _))| (k.clone(), i)).collect());
        }
    }
}

struct Parser<'a, T: CodeUnit> {
    text: &'a [T],
    pos: usize,
}

/// The source strings V8 reports whole ("\"undefined\" is not valid JSON"): the usual
/// results of passing a non-JSON value through ToString.
const SPECIAL_SOURCES: &[&str] = &["NaN", "Infinity", "undefined", "[object Object]"];

impl<T: CodeUnit> Parser<'_, T> {
    #[inline]
    fn peek(&self) -> Option<u16> {
        self.text.get(self.pos).map(|u| u.unit())
    }

    /// JSON whitespace: TAB, LF, CR, SPACE (ECMA-404), nothing else.
    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(0x09 | 0x0A | 0x0D | 0x20)) {
            self.pos += 1;
        }
    }

    fn error(&self, kind: JsonErrorKind, message: String, position: usize) -> JsonError {
        JsonError { kind, message, position }
    }

    /// The error "`what` in JSON at position N".
    fn expected(&self, what: &str) -> JsonError {
        self.error(JsonErrorKind::Syntax, format!("{what} in JSON at position {}", self.pos), self.pos)
    }

    /// The error for an unexpected code unit (or the end) at the current position
    /// where no more specific message applies.
    fn unexpected(&self) -> JsonError {
        let pos = self.pos;
        let message = match self.peek() {
            None => "Unexpected end of JSON input".to_owned(),
            Some(0x30..=0x39 | 0x2D) => format!("Unexpected number in JSON at position {pos}"),
            Some(0x22) => format!("Unexpected string in JSON at position {pos}"),
            Some(_) => {
                let source = utf16_to_string_lossy(self.text);
                if SPECIAL_SOURCES.contains(&source.as_str()) {
                    format!("\"{source}\" is not valid JSON")
                } else {
                    let token = utf16_to_string_lossy(&self.text[pos..pos + 1]);
                    format!("Unexpected token '{token}', {} is not valid JSON", self.context(pos))
                }
            }
        };
        self.error(JsonErrorKind::Syntax, message, pos)
    }

    /// The source quoted for an "Unexpected token" message: the whole text when at most
    /// 20 code units, else 10 code units either side of `pos` with "..." marking cuts.
    fn context(&self, pos: usize) -> String {
        const WHOLE_SOURCE_LIMIT: usize = 20;
        const RADIUS: usize = 10;
        let len = self.text.len();
        if len <= WHOLE_SOURCE_LIMIT {
            return format!("\"{}\"", utf16_to_string_lossy(self.text));
        }
        // V8 marks the start as cut whenever the error is at least RADIUS units in, even
        // when that cut falls exactly on the first unit.
        let (start, prefix) = if pos >= RADIUS { (pos - RADIUS, "...") } else { (0, "") };
        let (end, suffix) = if pos + RADIUS < len { (pos + RADIUS, "...") } else { (len, "") };
        format!("{prefix}\"{}\"{suffix}", utf16_to_string_lossy(&self.text[start..end]))
    }

    fn parse(mut self, max_depth: usize) -> Result<JsonValue, JsonError> {
        let mut stack: Vec<Frame> = Vec::new();
        'value: loop {
            // Parse one value; an opening bracket pushes a frame and starts over with
            // its first element.
            self.skip_whitespace();
            let mut value = match self.peek() {
                Some(0x7B) => {
                    // '{'
                    self.pos += 1;
                    self.skip_whitespace();
                    if self.peek() == Some(0x7D) {
                        self.pos += 1;
                        JsonValue::Object(Vec::new())
                    } else {
                        if self.peek() != Some(0x22) {
                            return Err(self.expected("Expected property name or '}'"));
                        }
                        let key = self.parse_string()?;
                        self.skip_whitespace();
                        if self.peek() != Some(0x3A) {
                            return Err(self.expected("Expected ':' after property name"));
                        }
                        self.pos += 1;
                        self.check_depth(stack.len(), max_depth)?;
                        stack.push(Frame::Object { entries: Vec::new(), index: None, key });
                        continue 'value;
                    }
                }
                Some(0x5B) => {
                    // '['
                    self.pos += 1;
                    self.skip_whitespace();
                    if self.peek() == Some(0x5D) {
                        self.pos += 1;
                        JsonValue::Array(Vec::new())
                    } else {
                        self.check_depth(stack.len(), max_depth)?;
                        stack.push(Frame::Array(Vec::new()));
                        continue 'value;
                    }
                }
                Some(0x22) => JsonValue::String(self.parse_string()?),
                Some(0x2D | 0x30..=0x39) => JsonValue::Number(self.parse_number()?),
                Some(0x74) => {
                    self.parse_literal(b"true")?;
                    JsonValue::Bool(true)
                }
                Some(0x66) => {
                    self.parse_literal(b"false")?;
                    JsonValue::Bool(false)
                }
                Some(0x6E) => {
                    self.parse_literal(b"null")?;
                    JsonValue::Null
                }
                _ => return Err(self.unexpected()),
            };
            // Attach the finished value to its container; a closing bracket finishes
            // the container, which is attached in turn.
            loop {
                self.skip_whitespace();
                match stack.last_mut() {
                    None => {
                        if self.pos < self.text.len() {
                            let pos = self.pos;
                            let message = format!("Unexpected non-whitespace character after JSON at position {pos}");
                            return Err(self.error(JsonErrorKind::Syntax, message, pos));
                        }
                        return Ok(value);
                    }
                    Some(Frame::Array(items)) => {
                        items.push(value);
                        match self.peek() {
                            Some(0x2C) => {
                                self.pos += 1;
                                continue 'value;
                            }
                            Some(0x5D) => {
                                self.pos += 1;
                                let Some(Frame::Array(items)) = stack.pop() else { unreachable!() };
                                value = JsonValue::Array(items);
                            }
                            _ => return Err(self.expected("Expected ',' or ']' after array element")),
                        }
                    }
                    Some(Frame::Object { entries, index, key }) => {
                        Frame::insert(entries, index, std::mem::take(key), value);
                        match self.peek() {
                            Some(0x2C) => {
                                self.pos += 1;
                                self.skip_whitespace();
                                if self.peek() != Some(0x22) {
                                    return Err(self.expected("Expected double-quoted property name"));
                                }
                                *key = self.parse_string()?;
                                self.skip_whitespace();
                                // V8 words a missing ':' after the first key specially
                                // but not after later ones.
                                if self.peek() != Some(0x3A) {
                                    return Err(self.unexpected());
                                }
                                self.pos += 1;
                                continue 'value;
                            }
                            Some(0x7D) => {
                                self.pos += 1;
                                let Some(Frame::Object { entries, .. }) = stack.pop() else { unreachable!() };
                                value = JsonValue::Object(entries);
                            }
                            _ => return Err(self.expected("Expected ',' or '}' after property value")),
                        }
                    }
                }
            }
        }
    }

    fn check_depth(&self, depth: usize, max_depth: usize) -> Result<(), JsonError> {
        if depth >= max_depth {
            return Err(self.error(
                JsonErrorKind::TooDeep,
                format!("JSON nesting depth exceeds {max_depth} at position {}", self.pos),
                self.pos,
            ));
        }
        Ok(())
    }

    /// `true`, `false` or `null`; the first letter has been seen.
    fn parse_literal(&mut self, word: &[u8]) -> Result<(), JsonError> {
        for &b in word {
            if self.peek() != Some(b as u16) {
                return Err(self.unexpected());
            }
            self.pos += 1;
        }
        Ok(())
    }

    /// A JSON string at the opening quote; returns its code units.
    fn parse_string(&mut self) -> Result<Vec<u16>, JsonError> {
        self.pos += 1;
        let mut out = Vec::new();
        loop {
            // Copy a run of ordinary code units at once.
            let start = self.pos;
            while let Some(u) = self.peek() {
                if u == 0x22 || u == 0x5C || u < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            out.extend(self.text[start..self.pos].iter().map(|u| u.unit()));
            match self.peek() {
                None => return Err(self.expected("Unterminated string")),
                Some(0x22) => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(0x5C) => {
                    self.pos += 1;
                    let unit = match self.peek() {
                        None => return Err(self.unexpected()),
                        Some(0x22) => 0x22,
                        Some(0x5C) => 0x5C,
                        Some(0x2F) => 0x2F,
                        Some(0x62) => 0x08,
                        Some(0x66) => 0x0C,
                        Some(0x6E) => 0x0A,
                        Some(0x72) => 0x0D,
                        Some(0x74) => 0x09,
                        Some(0x75) => {
                            let mut v = 0u16;
                            for _ in 0..4 {
                                self.pos += 1;
                                let digit = match self.peek() {
                                    Some(d @ 0x30..=0x39) => d - 0x30,
                                    Some(d @ 0x41..=0x46) => d - 0x41 + 10,
                                    Some(d @ 0x61..=0x66) => d - 0x61 + 10,
                                    _ => return Err(self.expected("Bad Unicode escape")),
                                };
                                v = v * 16 + digit;
                            }
                            v
                        }
                        Some(_) => return Err(self.expected("Bad escaped character")),
                    };
                    out.push(unit);
                    self.pos += 1;
                }
                Some(_) => return Err(self.expected("Bad control character in string literal")),
            }
        }
    }

    /// A JSON number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    fn parse_number(&mut self) -> Result<f64, JsonError> {
        let start = self.pos;
        let is_digit = |u: Option<u16>| matches!(u, Some(0x30..=0x39));
        if self.peek() == Some(0x2D) {
            self.pos += 1;
            if !is_digit(self.peek()) {
                return Err(self.expected("No number after minus sign"));
            }
        }
        if self.peek() == Some(0x30) {
            self.pos += 1;
            if is_digit(self.peek()) {
                return Err(self.unexpected());
            }
        } else {
            while is_digit(self.peek()) {
                self.pos += 1;
            }
        }
        if self.peek() == Some(0x2E) {
            self.pos += 1;
            if !is_digit(self.peek()) {
                return Err(self.expected("Unterminated fractional number"));
            }
            while is_digit(self.peek()) {
                self.pos += 1;
            }
        }
        if matches!(self.peek(), Some(0x45 | 0x65)) {
            self.pos += 1;
            if matches!(self.peek(), Some(0x2B | 0x2D)) {
                self.pos += 1;
            }
            if !is_digit(self.peek()) {
                return Err(self.expected("Exponent part is missing a number"));
            }
            while is_digit(self.peek()) {
                self.pos += 1;
            }
        }
        let ascii: String = self.text[start..self.pos].iter().map(|u| u.unit() as u8 as char).collect();
        // The text matched the JSON number grammar, which Rust's correctly rounded parser
        // accepts; huge exponents give ±Infinity or ±0 as in JavaScript.
        Ok(ascii.parse::<f64>().unwrap_or(f64::NAN))
    }
}

/// 25.5.2.3 QuoteJSONString(value): appends `value` wrapped in double quotes with the
/// JSON escapes: `\b \t \n \f \r \" \\` by name, other code points below U+0020 and
/// lone surrogates as `\uXXXX` with lowercase hex digits, everything else unchanged.
///
/// `out` may not grow past `max_len` units: when the quoted string would take it past, `out`
/// is left as it was and the result is false (escapes can make the quoted string six times
/// as long as `value`, so this is checked as it goes, never by allocating it first).
pub fn quote_json_string<T: CodeUnit>(value: &[T], out: &mut Vec<u16>, max_len: usize) -> bool {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let start = out.len();
    // Every unit takes at least one unit of the result, and an escape at most six: the
    // length is checked up front for the units and after each escape for the rest.
    if start + value.len() + 2 > max_len {
        return false;
    }
    // 1. Let product be the String value consisting solely of the code unit 0x0022.
    out.reserve(value.len() + 2);
    out.push(0x22);
    // 2. For each code point C of StringToCodePoints(value), do
    let mut i = 0;
    while i < value.len() {
        let u = value[i].unit();
        i += 1;
        // a. C listed in Table 75 (JSON Single Character Escape Sequences).
        let named = match u {
            0x08 => Some(b'b'),
            0x09 => Some(b't'),
            0x0A => Some(b'n'),
            0x0C => Some(b'f'),
            0x0D => Some(b'r'),
            0x22 => Some(b'"'),
            0x5C => Some(b'\\'),
            _ => None,
        };
        if let Some(c) = named {
            out.extend_from_slice(&[0x5C, c as u16]);
            if out.len() + (value.len() - i) + 1 > max_len {
                out.truncate(start);
                return false;
            }
            continue;
        }
        // b. C < 0x20 or C a leading/trailing surrogate not part of a pair:
        //    UnicodeEscape(C).
        let lone_surrogate = match u {
            0xD800..=0xDBFF => {
                if i < value.len() && (0xDC00..=0xDFFF).contains(&value[i].unit()) {
                    // c. A pair: both code units pass through.
                    out.push(u);
                    out.push(value[i].unit());
                    i += 1;
                    continue;
                }
                true
            }
            0xDC00..=0xDFFF => true,
            _ => false,
        };
        if u < 0x20 || lone_surrogate {
            out.extend_from_slice(&[0x5C, 0x75]);
            for shift in [12, 8, 4, 0] {
                out.push(HEX[((u >> shift) & 0xF) as usize] as u16);
            }
            if out.len() + (value.len() - i) + 1 > max_len {
                out.truncate(start);
                return false;
            }
        } else {
            // c. UTF16EncodeCodePoint(C).
            out.push(u);
        }
    }
    // 3. Append 0x0022 and return product.
    out.push(0x22);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conv::string_ops::str_to_utf16;

    fn parse_str(s: &str) -> Result<JsonValue, JsonError> {
        parse(&str_to_utf16(s))
    }

    fn err(s: &str) -> String {
        match parse_str(s) {
            Ok(v) => panic!("{s:?} parsed as {v:?}"),
            Err(e) => e.message,
        }
    }

    fn string(s: &str) -> JsonValue {
        JsonValue::String(str_to_utf16(s))
    }

    fn quote(units: &[u16]) -> String {
        let mut out = Vec::new();
        assert!(quote_json_string(units, &mut out, usize::MAX));
        String::from_utf16(&out).unwrap()
    }

    #[test]
    fn parses_values() {
        use JsonValue::*;
        assert_eq!(parse_str(" [ ] "), Ok(Array(vec![])));
        assert_eq!(parse_str("[\n1,\r\n2\t]"), Ok(Array(vec![Number(1.0), Number(2.0)])));
        assert_eq!(
            parse_str("{ \"a\" : 1 , \"b\" : [ true, false, null ] }"),
            Ok(Object(vec![
                (str_to_utf16("a"), Number(1.0)),
                (str_to_utf16("b"), Array(vec![Bool(true), Bool(false), Null])),
            ]))
        );
        assert_eq!(parse_str("{\"\":0}"), Ok(Object(vec![(vec![], Number(0.0))])));
        assert_eq!(parse_str("{\"__proto__\":1}"), Ok(Object(vec![(str_to_utf16("__proto__"), Number(1.0))])));
        // Numbers: node prints JSON.parse("1e400") as Infinity (stringified to null),
        // "-0" as -0, "1E+2" as 100.
        assert_eq!(parse_str("1e400"), Ok(Number(f64::INFINITY)));
        let Ok(Number(z)) = parse_str("-0.0e-0") else { panic!() };
        assert!(z == 0.0 && z.is_sign_negative());
        assert_eq!(parse_str("1E+2"), Ok(Number(100.0)));
        assert_eq!(parse_str("-12.5e-1"), Ok(Number(-1.25)));
        // Strings: escapes, surrogates (paired and lone), NUL via escape.
        assert_eq!(parse_str(r#""\/\b\f\n\r\t\"\\""#), Ok(string("/\u{8}\u{c}\n\r\t\"\\")));
        assert_eq!(parse_str(r#""\ud834\udd1e""#), Ok(string("\u{1d11e}")));
        assert_eq!(parse_str(r#""\uD800""#), Ok(String(vec![0xD800])));
        assert_eq!(parse_str(r#""\ud800\u0041""#), Ok(String(vec![0xD800, 0x41])));
        assert_eq!(parse(&[0x22u16, 0xD800, 0x22]), Ok(String(vec![0xD800])));
        assert_eq!(parse_str("{\"a\\u0000\":1}"), Ok(Object(vec![(vec![0x61, 0], Number(1.0))])));
        // One-byte input.
        assert_eq!(parse(b"\"caf\xe9\"".as_slice()), Ok(string("café")));
    }

    #[test]
    fn duplicate_keys_keep_first_position_and_last_value() {
        use JsonValue::*;
        // node: JSON.stringify(JSON.parse('{"a":1,"a":2,"b":3}')) === '{"a":2,"b":3}'.
        assert_eq!(
            parse_str(r#"{"a":1,"b":3,"a":2}"#),
            Ok(Object(vec![(str_to_utf16("a"), Number(2.0)), (str_to_utf16("b"), Number(3.0))]))
        );
        // Past the linear-scan size the hash index takes over.
        let mut text = std::string::String::from("{");
        for i in 0..40 {
            text.push_str(&format!("\"k{i}\":{i},"));
        }
        text.push_str("\"k3\":\"x\",\"k39\":true}");
        let Ok(Object(entries)) = parse_str(&text) else { panic!() };
        assert_eq!(entries.len(), 40);
        assert_eq!(entries[3], (str_to_utf16("k3"), string("x")));
        assert_eq!(entries[39], (str_to_utf16("k39"), Bool(true)));
    }

    #[test]
    fn error_messages_match_node() {
        // (text, error.message) from node's JSON.parse.
        let cases: &[(&str, &str)] = &[
            ("", "Unexpected end of JSON input"),
            (" ", "Unexpected end of JSON input"),
            ("{", "Expected property name or '}' in JSON at position 1"),
            ("[", "Unexpected end of JSON input"),
            ("[1,]", "Unexpected token ']', \"[1,]\" is not valid JSON"),
            ("{\"a\":}", "Unexpected token '}', \"{\"a\":}\" is not valid JSON"),
            ("{\"a\" 1}", "Expected ':' after property name in JSON at position 5"),
            ("{\"a\":1,}", "Expected double-quoted property name in JSON at position 7"),
            ("{a:1}", "Expected property name or '}' in JSON at position 1"),
            ("[1 2]", "Expected ',' or ']' after array element in JSON at position 3"),
            ("{\"a\":1 \"b\":2}", "Expected ',' or '}' after property value in JSON at position 7"),
            ("tru", "Unexpected end of JSON input"),
            ("nul", "Unexpected end of JSON input"),
            ("true false", "Unexpected non-whitespace character after JSON at position 5"),
            ("\"abc", "Unterminated string in JSON at position 4"),
            ("\"a\u{1}\"", "Bad control character in string literal in JSON at position 2"),
            ("\"\\x\"", "Bad escaped character in JSON at position 2"),
            ("\"\\u12G4\"", "Bad Unicode escape in JSON at position 5"),
            ("-", "No number after minus sign in JSON at position 1"),
            ("-a", "No number after minus sign in JSON at position 1"),
            ("01", "Unexpected number in JSON at position 1"),
            ("1.", "Unterminated fractional number in JSON at position 2"),
            ("1.e5", "Unterminated fractional number in JSON at position 2"),
            ("1e", "Exponent part is missing a number in JSON at position 2"),
            ("1e+", "Exponent part is missing a number in JSON at position 3"),
            (".5", "Unexpected token '.', \".5\" is not valid JSON"),
            ("+1", "Unexpected token '+', \"+1\" is not valid JSON"),
            ("\"\t\"", "Bad control character in string literal in JSON at position 1"),
            ("'a'", "Unexpected token ''', \"'a'\" is not valid JSON"),
            ("[1,2", "Expected ',' or ']' after array element in JSON at position 4"),
            ("{\"a\":1", "Expected ',' or '}' after property value in JSON at position 6"),
            ("NaN", "\"NaN\" is not valid JSON"),
            ("Infinity", "\"Infinity\" is not valid JSON"),
            ("undefined", "\"undefined\" is not valid JSON"),
            ("[object Object]", "\"[object Object]\" is not valid JSON"),
            ("NaN ", "Unexpected token 'N', \"NaN \" is not valid JSON"),
            ("\u{a0}1", "Unexpected token '\u{a0}', \"\u{a0}1\" is not valid JSON"),
            ("\u{feff}1", "Unexpected token '\u{feff}', \"\u{feff}1\" is not valid JSON"),
            ("1 ]", "Unexpected non-whitespace character after JSON at position 2"),
            ("{\"a\":[1,{\"b\":2}]}x", "Unexpected non-whitespace character after JSON at position 17"),
            ("0x10", "Unexpected non-whitespace character after JSON at position 1"),
            ("[1,,2]", "Unexpected token ',', \"[1,,2]\" is not valid JSON"),
            ("{\"a\":1,,}", "Expected double-quoted property name in JSON at position 7"),
            ("[]]", "Unexpected non-whitespace character after JSON at position 2"),
            ("{\"a\"", "Expected ':' after property name in JSON at position 4"),
            ("{\"a\":", "Unexpected end of JSON input"),
            ("\"\\", "Unexpected end of JSON input"),
            ("\"\\u00", "Bad Unicode escape in JSON at position 5"),
            ("123abc", "Unexpected non-whitespace character after JSON at position 3"),
            ("falsey", "Unexpected non-whitespace character after JSON at position 5"),
            ("{,}", "Expected property name or '}' in JSON at position 1"),
            ("[01]", "Unexpected number in JSON at position 2"),
            ("-01", "Unexpected number in JSON at position 2"),
            ("[1e]", "Exponent part is missing a number in JSON at position 3"),
            ("[-]", "No number after minus sign in JSON at position 2"),
            ("-Infinity", "No number after minus sign in JSON at position 1"),
            ("{\"a\":1,\"b\"}", "Unexpected token '}', \"{\"a\":1,\"b\"}\" is not valid JSON"),
            ("{\"a\":1,\"b\" 1}", "Unexpected number in JSON at position 11"),
            ("{\"a\":1,\"b\"", "Unexpected end of JSON input"),
            ("{\"a\":{\"b\" 3}}", "Expected ':' after property name in JSON at position 10"),
            ("[{\"a\":1,\"b\" 3}]", "Unexpected number in JSON at position 12"),
            ("{\"a\":tx}", "Unexpected token 'x', \"{\"a\":tx}\" is not valid JSON"),
            ("[true,tru", "Unexpected end of JSON input"),
            ("\"\\u0041", "Unterminated string in JSON at position 7"),
            ("[\"\\u00zz\"]", "Bad Unicode escape in JSON at position 6"),
            ("\"a\n\"", "Bad control character in string literal in JSON at position 2"),
            ("[[[]]", "Expected ',' or ']' after array element in JSON at position 5"),
            ("{\"a\":1,\"b\":2,x", "Expected double-quoted property name in JSON at position 13"),
            ("{\"a\":1,\"b\":{} x}", "Expected ',' or '}' after property value in JSON at position 14"),
            ("{\"\\x\":1}", "Bad escaped character in JSON at position 3"),
        ];
        for &(text, message) in cases {
            assert_eq!(err(text), message, "JSON.parse({text:?})");
        }
    }

    #[test]
    fn long_sources_are_quoted_around_the_error() {
        // From node: sources longer than 20 code units are quoted 10 code units either
        // side of the error, with "..." at cuts.
        let cases: &[(String, &str)] = &[
            (format!("[{}]", "1,".repeat(5)), "Unexpected token ']', \"[1,1,1,1,1,]\" is not valid JSON"),
            (format!("[{}]", "1,".repeat(20)), "Unexpected token ']', ...\"1,1,1,1,1,]\" is not valid JSON"),
            (format!("[1,]{}", " ".repeat(50)), "Unexpected token ']', \"[1,]         \"... is not valid JSON"),
            (
                format!("{}[1,]{}", " ".repeat(30), " ".repeat(30)),
                "Unexpected token ']', ...\"       [1,]         \"... is not valid JSON",
            ),
            (
                format!("[{}x]", "\"abcdefghij\",".repeat(10)),
                "Unexpected token 'x', ...\"cdefghij\",x]\" is not valid JSON",
            ),
            // Whole up to 20 code units.
            (format!("x{}", " ".repeat(19)), "Unexpected token 'x', \"x                   \" is not valid JSON"),
            (format!("x{}", " ".repeat(20)), "Unexpected token 'x', \"x         \"... is not valid JSON"),
            (format!("{}x", " ".repeat(20)), "Unexpected token 'x', ...\"          x\" is not valid JSON"),
            // An error exactly 10 units in still gets the leading "...".
            (
                "{\"x\":{\"y\":.{\"z\":[0]}}}".to_owned(),
                "Unexpected token '.', ...\"{\"x\":{\"y\":.{\"z\":[0]}\"... is not valid JSON",
            ),
        ];
        for (text, message) in cases {
            assert_eq!(err(text), *message, "JSON.parse({text:?})");
        }
        let e = parse_str("[1,]").unwrap_err();
        assert_eq!((e.kind, e.position), (JsonErrorKind::Syntax, 3));
    }

    #[test]
    fn nesting_is_iterative_and_limited() {
        let depth = 100_000;
        let deep = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let e = parse_str(&deep).unwrap_err();
        assert_eq!(e.kind, JsonErrorKind::TooDeep);
        assert_eq!(e.position, DEFAULT_MAX_DEPTH + 1);
        // At the limit it parses.
        let ok = format!("{}1{}", "[{\"a\":".repeat(1000), "}]".repeat(1000));
        assert!(parse_with_max_depth(&str_to_utf16(&ok), 2000).is_ok());
        assert_eq!(parse_with_max_depth(&str_to_utf16(&ok), 1999).unwrap_err().kind, JsonErrorKind::TooDeep);
        // The deepest tree the default limit admits is parsed and dropped (recursively)
        // within a test thread's 2 MiB stack.
        let deepest = format!("{}{}", "[".repeat(DEFAULT_MAX_DEPTH), "]".repeat(DEFAULT_MAX_DEPTH));
        assert!(parse_str(&deepest).is_ok());
        // An unclosed deep text reports the end without recursing.
        let unclosed = "[".repeat(4000);
        assert_eq!(err(&unclosed), "Unexpected end of JSON input");
    }

    #[test]
    fn quote_matches_node() {
        // JSON.stringify(s) in node.
        assert_eq!(quote(&str_to_utf16("abc")), r#""abc""#);
        assert_eq!(quote(&str_to_utf16("\u{8}\t\n\u{c}\r\"\\/")), r#""\b\t\n\f\r\"\\/""#);
        assert_eq!(quote(&str_to_utf16("\u{0}\u{1f}\u{7f}")), "\"\\u0000\\u001f\u{7f}\"");
        assert_eq!(quote(&str_to_utf16("\u{2028}😀é")), "\"\u{2028}😀é\"");
        assert_eq!(quote(&[0xD800]), r#""\ud800""#);
        assert_eq!(quote(&[0xDC00, 0xD83D, 0xDE00, 0xDBFF]), "\"\\udc00😀\\udbff\"");
        assert_eq!(quote(&[0xD83D, 0x41]), r#""\ud83dA""#);
        let mut out = Vec::new();
        assert!(quote_json_string(b"a\"\xe9".as_slice(), &mut out, usize::MAX));
        assert_eq!(String::from_utf16(&out).unwrap(), "\"a\\\"é\"");
    }

    #[test]
    fn quote_stops_at_the_length_limit_before_growing_past_it() {
        // "\u0001\u0001" quoted is 14 units.
        let two = str_to_utf16("\u{1}\u{1}");
        let mut out = str_to_utf16("x");
        assert!(!quote_json_string(&two, &mut out, 14));
        assert_eq!(out, str_to_utf16("x"));
        assert!(quote_json_string(&two, &mut out, 15));
        assert_eq!(out.len(), 15);
        // The up-front bound: two plain units and the quotes.
        let mut out = Vec::new();
        assert!(!quote_json_string(b"ab".as_slice(), &mut out, 3));
        assert!(out.is_empty());
        assert!(quote_json_string(b"ab".as_slice(), &mut out, 4));
    }
}
