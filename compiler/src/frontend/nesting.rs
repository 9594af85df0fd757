//! A bound on how deeply a program nests, found before swc parses it.
//!
//! swc's parser descends recursively and has no depth limit of its own: 100,000 nested
//! parentheses or a million `!` overflow the lowering thread's stack, which aborts the
//! process. This scan runs first, over the raw text, and rejects a program whose nesting
//! estimate passes [`LIMIT`] with a SyntaxError at the token where it does.
//!
//! The estimate counts, at every point, the open brackets (`(`, `[`, `{`, `${`) plus, for
//! each open bracket level, the operators and keywords since that level's last `;` or `,` or
//! statement boundary (an operand right after an operand: `x = 1⏎y = 2`). Each recursion of
//! the parser (a nested expression, a prefix operator, an `if` without braces, an arrow's
//! body, the right side of `=`) consumes one of these, so the estimate is at least the
//! parser's depth; a program it rejects is one the scope analysis would reject too
//! (`scope::MAX_DEPTH` levels of syntax). A left-associative binary operator (`a + b + c`)
//! counts only `1 / UNIT` of a level: the parser reads a chain of them with a loop, and the
//! scope analysis and IRGen walk it as a list; what stays recursive is dropping the syntax
//! tree, one small frame per operator, which `LIMIT * UNIT` operators fit in the lowering
//! thread's stack. Strings, comments, template text and regular
//! expressions are skipped; where a `/` is ambiguous the guess can only move brackets inside
//! a literal into the count, and a wrong guess ends at the line's end.

use super::Diagnostic;
use super::LineTable;

/// Where a program nests too deeply: the byte offset of the token that passes the limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooDeep(pub u32);

impl TooDeep {
    /// The SyntaxError, located with `lines`.
    pub fn diagnostic(self, lines: &LineTable) -> Diagnostic {
        let (line, col) = lines.loc(self.0);
        Diagnostic::new("the program is nested too deeply", line, col)
    }
}

/// The deepest nesting estimate a program may reach: three times what the scope analysis
/// accepts (so the estimate's overcounting rejects nothing it would take), and far below the
/// depth that overflows the parser's stack (about 85,000 parentheses).
pub const LIMIT: u32 = 3 * super::scope::MAX_DEPTH;

/// What one level counts in the operator estimate; a left-associative binary operator
/// counts 1.
const UNIT: u32 = 32;

/// What kind of bracket is open.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    Paren,
    /// The parentheses after `if`, `while`, `for` or `with`: a statement follows them, not
    /// an operator.
    Condition,
    Square,
    Brace,
    /// `${` in a template: its `}` goes back to the template's text.
    Substitution,
}

/// Checks the nesting of `source`; the error is at the token that nests too deeply.
pub fn check(source: &str) -> Result<(), TooDeep> {
    let b = source.as_bytes();
    // Open brackets, each with the operator count of the level it interrupted.
    let mut stack: Vec<(Open, u32)> = Vec::new();
    // Operators since the last boundary at this level, and the sum over interrupted levels.
    let (mut chain, mut saved) = (0u32, 0u32);
    // The previous token ended an operand (a `/` after it divides; an operand after it
    // starts a new statement).
    let mut after_operand = false;
    // The previous token was `if`, `while`, `for` or `with`.
    let mut control = false;
    let mut i = 0usize;
    while i < b.len() {
        let c = b[i];
        if !c.is_ascii_whitespace() && c != b'(' && c != b'/' {
            control = false;
        }
        match c {
            b' ' | b'\t' | b'\r' | b'\n' => {
                i += 1;
                while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\r' | b'\n') {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |k| i + k);
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = memchr::memmem::find(&b[i + 2..], b"*/").map_or(b.len(), |k| i + 2 + k + 2);
            }
            b'\'' | b'"' => {
                i = skip_string(b, i);
                if after_operand {
                    chain = 0;
                }
                after_operand = true;
            }
            b'`' => {
                if after_operand {
                    chain = 0;
                }
                (i, after_operand) = template_text(b, i + 1, &mut stack, &mut saved, &mut chain);
            }
            b'/' if !after_operand => {
                i = skip_regexp(b, i + 1);
                after_operand = true;
            }
            b'(' | b'[' | b'{' => {
                let kind = match c {
                    b'(' if std::mem::take(&mut control) => Open::Condition,
                    b'(' => Open::Paren,
                    b'[' => Open::Square,
                    _ => Open::Brace,
                };
                open(&mut stack, &mut saved, &mut chain, kind);
                i += 1;
                after_operand = false;
            }
            b')' | b']' | b'}' => {
                match stack.pop() {
                    Some((kind, outer)) => {
                        saved -= outer;
                        chain = outer;
                        if kind == Open::Condition {
                            i += 1;
                            after_operand = false;
                            continue;
                        }
                        if kind == Open::Substitution {
                            // Back into the template's text.
                            (i, after_operand) = template_text(b, i + 1, &mut stack, &mut saved, &mut chain);
                            continue;
                        }
                    }
                    // Unbalanced: the parser reports it.
                    None => chain = 0,
                }
                i += 1;
                after_operand = true;
            }
            b';' | b',' => {
                chain = 0;
                i += 1;
                after_operand = false;
            }
            b'.' if b.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                i = skip_word(b, i + 1);
                after_operand = true;
            }
            b'.' if b.get(i + 1) == Some(&b'.') && b.get(i + 2) == Some(&b'.') => {
                chain += UNIT;
                i += 3;
                after_operand = false;
            }
            // Member access does not nest.
            b'.' => {
                i += 1;
                after_operand = false;
            }
            b':' => {
                i += 1;
                after_operand = false;
            }
            _ if WORD[c as usize] || c == b'\\' => {
                let start = i;
                i = skip_word(b, i);
                let word = &b[start..i];
                if c.is_ascii_digit() {
                    if after_operand {
                        chain = 0;
                    }
                    after_operand = true;
                } else if matches!(word, b"in" | b"instanceof") {
                    chain += if after_operand { 1 } else { UNIT };
                    after_operand = false;
                } else {
                    if after_operand {
                        chain = 0;
                    }
                    if is_operator_keyword(word) {
                        chain += UNIT;
                        after_operand = false;
                        control = matches!(word, b"if" | b"while" | b"for" | b"with");
                    } else {
                        after_operand = true;
                    }
                }
            }
            _ => {
                // An operator: one more level at this bracket level (`a?b:c` counts its
                // `?`), or a fraction of one for a binary operator between operands.
                let len = punctuator_len(&b[i..]);
                let token = &b[i..i + len];
                i += len;
                let postfix = after_operand && matches!(token, b"++" | b"--");
                if !postfix {
                    chain += if after_operand && is_left_binary(token) { 1 } else { UNIT };
                }
                after_operand = postfix;
            }
        }
        if stack.len() as u32 + (saved + chain) / UNIT > LIMIT {
            return Err(TooDeep(i.saturating_sub(1).min(b.len().saturating_sub(1)) as u32));
        }
    }
    Ok(())
}

/// Opens a bracket level of `kind`: the current level's operator count waits in the stack.
fn open(stack: &mut Vec<(Open, u32)>, saved: &mut u32, chain: &mut u32, kind: Open) {
    stack.push((kind, *chain));
    *saved += *chain;
    *chain = 0;
}

/// Skips template text from `i` (after a backquote or a substitution's `}`), opening a
/// substitution level when `${` ends it: where to go on, and whether an operand ended there.
fn template_text(b: &[u8], i: usize, stack: &mut Vec<(Open, u32)>, saved: &mut u32, chain: &mut u32) -> (usize, bool) {
    match skip_template(b, i) {
        (next, true) => {
            open(stack, saved, chain, Open::Substitution);
            (next, false)
        }
        (next, false) => (next, true),
    }
}

/// The length of the punctuator at the start of `b` (one byte for anything else).
fn punctuator_len(b: &[u8]) -> usize {
    // Every longer punctuator goes on with one of these.
    if !b.get(1).is_some_and(|c| b"=>.&|?+-*<".contains(c)) {
        return 1;
    }
    const LONG: [&[u8]; 33] = [
        b">>>=", b"...", b"===", b"!==", b"**=", b"<<=", b">>=", b">>>", b"&&=", b"||=", b"??=", b"=>", b"==", b"!=",
        b"<=", b">=", b"&&", b"||", b"??", b"++", b"--", b"+=", b"-=", b"*=", b"/=", b"%=", b"&=", b"|=", b"^=", b"**",
        b"<<", b">>", b"?.",
    ];
    for p in LONG {
        if b.starts_with(p) && !(p == b"?." && b.get(2).is_some_and(u8::is_ascii_digit)) {
            return p.len();
        }
    }
    1
}

/// Whether `token` is a left-associative binary operator (`**` is right-associative).
fn is_left_binary(token: &[u8]) -> bool {
    matches!(
        token,
        b"+" | b"-"
            | b"*"
            | b"/"
            | b"%"
            | b"<"
            | b">"
            | b"<="
            | b">="
            | b"=="
            | b"!="
            | b"==="
            | b"!=="
            | b"&"
            | b"|"
            | b"^"
            | b"&&"
            | b"||"
            | b"??"
            | b"<<"
            | b">>"
            | b">>>"
    )
}

/// Keywords after which an expression or a statement follows, nested one level deeper.
fn is_operator_keyword(word: &[u8]) -> bool {
    // Most words are not keywords: these tests settle them before the comparisons.
    (2..=8).contains(&word.len())
        && matches!(word[0], b'a' | b'c' | b'd' | b'e' | b'f' | b'i' | b'n' | b'r' | b't' | b'v' | b'w' | b'y')
        && matches!(
            word,
            b"typeof"
                | b"void"
                | b"delete"
                | b"new"
                | b"await"
                | b"yield"
                | b"return"
                | b"throw"
                | b"if"
                | b"else"
                | b"for"
                | b"while"
                | b"do"
                | b"with"
                | b"case"
                | b"async"
                | b"function"
                | b"class"
                | b"extends"
        )
}

/// The bytes of identifiers, keywords and numbers other than `\\` (escapes): ASCII letters
/// and digits, `_`, `$` and every byte of a non-ASCII character.
static WORD: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80;
        c += 1;
    }
    t
};

/// Past an identifier, keyword or number (escapes and non-ASCII included).
fn skip_word(b: &[u8], mut i: usize) -> usize {
    loop {
        i += b[i..].iter().position(|&c| !WORD[c as usize]).unwrap_or(b.len() - i);
        if b.get(i) != Some(&b'\\') {
            return i;
        }
        // An escape: `\u{...}` whole, else the backslash and the `u` of `\uXXXX`.
        i += 1;
        if b.get(i) == Some(&b'u') && b.get(i + 1) == Some(&b'{') {
            i = memchr::memchr(b'}', &b[i..]).map_or(b.len(), |k| i + k + 1);
        }
    }
}

/// Past a string literal starting at `i` (its quote); an unterminated one ends at the line.
fn skip_string(b: &[u8], i: usize) -> usize {
    let quote = b[i];
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'\n' => return j,
            x if x == quote => return j + 1,
            _ => j += 1,
        }
    }
    j
}

/// Past template text from `i` (just after a backquote or a substitution's `}`): where it
/// ends, and whether a `${` ended it (true) or the closing backquote (false).
fn skip_template(b: &[u8], mut i: usize) -> (usize, bool) {
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'`' => return (i + 1, false),
            b'$' if b.get(i + 1) == Some(&b'{') => return (i + 2, true),
            _ => i += 1,
        }
    }
    (i, false)
}

/// Past a regular expression literal from `i` (just after its `/`), flags included; one that
/// does not end on its line ends there.
fn skip_regexp(b: &[u8], mut i: usize) -> usize {
    let mut class = false;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'\n' => return i,
            b'[' => {
                class = true;
                i += 1;
            }
            b']' => {
                class = false;
                i += 1;
            }
            b'/' if !class => return skip_word(b, i + 1),
            _ => i += 1,
        }
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth_error(src: &str) -> Option<(u32, u32)> {
        check(src).err().map(|e| e.diagnostic(&LineTable::new(src))).map(|d| (d.line, d.col))
    }

    #[test]
    fn ordinary_programs_pass() {
        for src in [
            "var x = (1 + 2) * [3, 4][0]; if (x) { f(x); } else { g(`a${x}b${[1, 2]}c`); }",
            "var r = /[(]{2,}\\//g.test('((('); var s = \"[[[\" + '{{{'; // ((((\n/* [[[[ */ x = a / b / c;",
            "a = b ? c : d ? e : f; x => y => z; !!x; typeof void 0;",
        ] {
            assert_eq!(depth_error(src), None, "{src}");
        }
        // Many statements, separated by semicolons or by newlines only, do not add up.
        let lines: String = (0..20_000).map(|i| format!("x{i} = {i} + 1\n")).collect();
        assert_eq!(depth_error(&lines), None);
        let literal =
            format!("var o = {{{}}};", (0..20_000).map(|i| format!("p{i}: -{i}")).collect::<Vec<_>>().join(", "));
        assert_eq!(depth_error(&literal), None);
    }

    #[test]
    fn deep_nesting_is_found_where_it_passes_the_limit() {
        let n = LIMIT as usize + 10;
        for (open, close) in [("(", ")"), ("[", "]"), ("{a:", "}"), ("`${", "}`"), ("f(", ")")] {
            let src = format!("x = {}1{};", open.repeat(n), close.repeat(n));
            let (line, col) = depth_error(&src).unwrap_or_else(|| panic!("{open} nested {n} deep passed"));
            assert_eq!(line, 1);
            assert!(
                col > LIMIT / 2 && col as usize <= 1 + 4 + open.len() * (LIMIT as usize + 1),
                "{open}: column {col}"
            );
        }
        for chain in ["!", "- ", "typeof ", "a = ", "x => ", "a ? 1 : ", "if (a) ", "new "] {
            let src = format!("{}1;", chain.repeat(n));
            assert!(depth_error(&src).is_some(), "{chain:?} repeated {n} times passed");
        }
        // On a later line.
        let src = format!("ok();\n  x = {}1{};", "(".repeat(n), ")".repeat(n));
        assert_eq!(depth_error(&src).map(|(l, _)| l), Some(2));
    }

    #[test]
    fn binary_operator_chains_count_a_fraction_of_a_level() {
        let chain = |op: &str, n: usize| format!("x = a{};", format!(" {op} a").repeat(n));
        for op in ["+", "-", "*", "/", "<", "===", "&&", "||", "??", ">>>", "instanceof"] {
            assert_eq!(depth_error(&chain(op, 100_000)), None, "{op}");
            assert!(depth_error(&chain(op, (LIMIT * UNIT) as usize + 10)).is_some(), "{op}");
        }
        // Mixed precedences, postfix operators and a prefix operator on each operand.
        let mixed = format!("x = a{};", " + b * c - d++".repeat(20_000));
        assert_eq!(depth_error(&mixed), None);
        let prefixed = format!("x = a{};", " + -a".repeat(LIMIT as usize + 10));
        assert!(depth_error(&prefixed).is_some());
        // Right-associative operators nest.
        for op in ["**", "=", "+="] {
            assert!(depth_error(&chain(op, LIMIT as usize + 10)).is_some(), "{op}");
        }
    }

    #[test]
    fn nesting_just_under_the_limit_passes() {
        let n = LIMIT as usize - 10;
        assert_eq!(depth_error(&format!("x = {}1{};", "(".repeat(n), ")".repeat(n))), None);
    }
}
