//! Pure helpers of the RegExp and String builtins: GetSubstitution (the `$` patterns of
//! `replace`), AdvanceStringIndex, and EscapeRegExpPattern (the `source` getter).

/// Looks a name up in the `namedCaptures` object of GetSubstitution: `Ok(None)` for
/// undefined, `Ok(Some(s))` for a value already converted with ToString, `Err` for an
/// abrupt completion of the Get or the ToString.
pub type NamedCaptureLookup<'a, E> = &'a mut dyn FnMut(&[u16]) -> Result<Option<Vec<u16>>, E>;

const DOLLAR: u16 = b'$' as u16;

fn is_digit(u: u16) -> bool {
    (u16::from(b'0')..=u16::from(b'9')).contains(&u)
}

/// 22.1.3.19.1 GetSubstitution (matched, str, position, captures, namedCaptures,
/// replacementTemplate), appending the result to `out`.
///
/// `captures` are captures 1..=m, already converted with ToString (None for undefined).
/// `named_captures` is None when namedCaptures is undefined.
pub fn get_substitution<E>(
    matched: &[u16],
    string: &[u16],
    position: usize,
    captures: &[Option<Vec<u16>>],
    mut named_captures: Option<NamedCaptureLookup<'_, E>>,
    template: &[u16],
    out: &mut Vec<u16>,
) -> Result<(), E> {
    // 1-2. Let stringLength be the length of str; position ≤ stringLength.
    let string_length = string.len();
    let position = position.min(string_length);
    // 5. Repeat, while templateRemainder is not the empty String,
    let mut i = 0;
    while i < template.len() {
        let rest = &template[i..];
        if rest[0] != DOLLAR || rest.len() == 1 {
            // g. Else: ref is the first code unit, copied as is.
            out.push(rest[0]);
            i += 1;
            continue;
        }
        let next = rest[1];
        match u8::try_from(next).map(char::from) {
            // a. `$$` is `$`.
            Ok('$') => {
                out.push(DOLLAR);
                i += 2;
            }
            // b. `` $` `` is the part of str before the match.
            Ok('`') => {
                out.extend_from_slice(&string[..position]);
                i += 2;
            }
            // c. `$&` is the match.
            Ok('&') => {
                out.extend_from_slice(matched);
                i += 2;
            }
            // d. `$'` is the part after the match; tailPos may pass the end only when a
            // user `exec` returned an odd result.
            Ok('\'') => {
                let tail = position.saturating_add(matched.len()).min(string_length);
                out.extend_from_slice(&string[tail..]);
                i += 2;
            }
            // e. `$n` or `$nn`.
            Ok('0'..='9') => {
                let capture_len = captures.len();
                let d1 = usize::from(next - u16::from(b'0'));
                let two = rest.get(2).copied().filter(|&u| is_digit(u));
                // i-vi. Two digits when there are two, unless that index exceeds the
                // captures: then one digit followed by a literal digit.
                let (digit_count, index) = match two {
                    Some(d2) => {
                        let index = d1 * 10 + usize::from(d2 - u16::from(b'0'));
                        if index > capture_len {
                            (1, d1)
                        } else {
                            (2, index)
                        }
                    }
                    None => (1, d1),
                };
                let reference = &rest[..1 + digit_count];
                // viii-ix. A capture in range is replaced (undefined by nothing), any other
                // reference stays as written.
                if (1..=capture_len).contains(&index) {
                    if let Some(capture) = &captures[index - 1] {
                        out.extend_from_slice(capture);
                    }
                } else {
                    out.extend_from_slice(reference);
                }
                i += 1 + digit_count;
            }
            // f. `$<name>`.
            Ok('<') => {
                let gt = rest.iter().position(|&u| u == u16::from(b'>'));
                match (gt, named_captures.as_mut()) {
                    (Some(gt), Some(lookup)) => {
                        let group_name = &rest[2..gt];
                        if let Some(capture) = lookup(group_name)? {
                            out.extend_from_slice(&capture);
                        }
                        i += gt + 1;
                    }
                    // ii. No `>` or no namedCaptures: `$<` stays as written.
                    _ => {
                        out.extend_from_slice(&rest[..2]);
                        i += 2;
                    }
                }
            }
            _ => {
                out.push(DOLLAR);
                i += 1;
            }
        }
    }
    Ok(())
}

/// 22.2.7.3 AdvanceStringIndex (S, index, unicode): the index after the code unit at
/// `index`, or after the code point there in Unicode mode.
pub fn advance_string_index(s: &[u16], index: usize, unicode: bool) -> usize {
    // 2. If unicode is false, return index + 1.
    if !unicode {
        return index + 1;
    }
    // 3-4. If index + 1 ≥ length, return index + 1.
    if index + 1 >= s.len() {
        return index + 1;
    }
    // 5-6. Return index + CodePointAt(S, index).[[CodeUnitCount]].
    let lead = s[index];
    let trail = s[index + 1];
    if (0xD800..=0xDBFF).contains(&lead) && (0xDC00..=0xDFFF).contains(&trail) {
        index + 2
    } else {
        index + 1
    }
}

/// 22.2.6.13.1 EscapeRegExpPattern: the `source` text for a pattern, such that
/// `/source/flags` reads back as the same regular expression. `/` outside a class becomes
/// `\/`, line terminators become escapes, and the empty pattern becomes `(?:)`. Classes
/// are tracked as the RegularExpressionLiteral grammar sees them (no nesting), which is
/// what matters for reading the literal back.
pub fn escape_source(pattern: &[u16]) -> Vec<u16> {
    if pattern.is_empty() {
        return "(?:)".encode_utf16().collect();
    }
    let mut out = Vec::with_capacity(pattern.len() + 2);
    let push_str = |out: &mut Vec<u16>, s: &str| out.extend(s.encode_utf16());
    let mut in_class = false;
    let mut i = 0;
    while i < pattern.len() {
        let u = pattern[i];
        i += 1;
        match u {
            0x5C => {
                // `\` and the escaped unit: kept, unless it is a line terminator.
                // A line terminator after a backslash: only its escape is written.
                match pattern.get(i) {
                    Some(&n) => match line_terminator_escape(n) {
                        Some(escape) => push_str(&mut out, escape),
                        None => {
                            out.push(u);
                            out.push(n);
                        }
                    },
                    None => out.push(u),
                }
                i += 1;
            }
            _ if line_terminator_escape(u).is_some() => {
                push_str(&mut out, line_terminator_escape(u).unwrap_or_default())
            }
            0x2F if !in_class => push_str(&mut out, "\\/"),
            0x5B => {
                in_class = true;
                out.push(u);
            }
            0x5D => {
                in_class = false;
                out.push(u);
            }
            _ => out.push(u),
        }
    }
    out
}

/// The escape written for a line terminator in `source`.
fn line_terminator_escape(u: u16) -> Option<&'static str> {
    match u {
        0x0A => Some("\\n"),
        0x0D => Some("\\r"),
        0x2028 => Some("\\u2028"),
        0x2029 => Some("\\u2029"),
        _ => None,
    }
}

/// RegExp.escape ( S ) steps 2-5 (ES2025): a pattern matching exactly `s`. A leading ASCII
/// letter or digit becomes `\xHH` (so it cannot extend a preceding `\1`, `\0` or `\c`);
/// every other character goes through EncodeForRegExpEscape.
pub fn regexp_escape(s: &[u16]) -> Vec<u16> {
    let mut out = Vec::with_capacity(s.len() * 2);
    let push_str = |out: &mut Vec<u16>, t: &str| out.extend(t.encode_utf16());
    for (k, c) in char::decode_utf16(s.iter().copied()).enumerate() {
        // Lone surrogates are code points of their own here (StringToCodePoints).
        let c = c.map_or_else(|e| u32::from(e.unpaired_surrogate()), u32::from);
        if k == 0 && char::from_u32(c).is_some_and(|ch| ch.is_ascii_alphanumeric()) {
            push_str(&mut out, &format!("\\x{c:02x}"));
            continue;
        }
        encode_for_regexp_escape(c, &mut out);
    }
    out
}

/// EncodeForRegExpEscape ( c ), appended to `out`.
fn encode_for_regexp_escape(c: u32, out: &mut Vec<u16>) {
    let push_str = |out: &mut Vec<u16>, t: &str| out.extend(t.encode_utf16());
    // 1. SyntaxCharacter or `/`: a backslash before it.
    if super::parse::is_syntax_char(c) || c == u32::from(b'/') {
        out.push(u16::from(b'\\'));
        out.push(c as u16);
        return;
    }
    // 2. ControlEscape characters.
    let control = match c {
        0x09 => Some("\\t"),
        0x0A => Some("\\n"),
        0x0B => Some("\\v"),
        0x0C => Some("\\f"),
        0x0D => Some("\\r"),
        _ => None,
    };
    if let Some(escape) = control {
        push_str(out, escape);
        return;
    }
    // 3-5. Other punctuators, WhiteSpace, LineTerminator and surrogates: `\xHH` when they
    // fit in a byte, else `\uHHHH` per code unit.
    let other_punctuator = char::from_u32(c).is_some_and(|ch| ",-=<>#&!%:;@~'`\"".contains(ch));
    let white_or_line = super::charset::space_set().contains(c);
    let surrogate = (0xD800..=0xDFFF).contains(&c);
    if other_punctuator || white_or_line || surrogate {
        if c <= 0xFF {
            push_str(out, &format!("\\x{c:02x}"));
        } else {
            let mut buf = [0u16; 2];
            let units: &[u16] = match char::from_u32(c) {
                Some(ch) => ch.encode_utf16(&mut buf),
                None => {
                    buf[0] = c as u16;
                    &buf[..1]
                }
            };
            for &unit in units {
                push_str(out, &format!("\\u{unit:04x}"));
            }
        }
        return;
    }
    // 6. UTF16EncodeCodePoint(c).
    match char::from_u32(c) {
        Some(ch) => {
            let mut buf = [0u16; 2];
            out.extend_from_slice(ch.encode_utf16(&mut buf));
        }
        None => out.push(c as u16),
    }
}
