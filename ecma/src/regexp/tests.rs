//! Syntax tests: flags, early errors with their messages, group names, `source`,
//! GetSubstitution and AdvanceStringIndex. Expected values come from node (v20) unless a
//! comment says the spec decides (node 20 predates RegExp modifiers and duplicate named
//! groups).

use super::*;

fn u(s: &str) -> Vec<u16> {
    s.encode_utf16().collect()
}

fn compile(pattern: &str, flags: &str) -> Result<CompiledRegExp, RegExpError> {
    CompiledRegExp::new(&u(pattern), &u(flags))
}

#[test]
fn flags_are_validated() {
    for ok in ["", "d", "g", "i", "m", "s", "u", "v", "y", "dgimsuy", "dgimsvy", "yusmigd"] {
        assert!(compile("a", ok).is_ok(), "flags {ok:?}");
    }
    for bad in ["gg", "uv", "vu", "x", "G", "gig", "\u{131}", " ", "g "] {
        let e = compile("a", bad).unwrap_err();
        assert_eq!(e.message, format!("Invalid flags supplied to RegExp constructor '{bad}'"));
    }
    let f = compile("a", "ysmig").unwrap().flags();
    assert!(f.sticky && f.dot_all && f.multiline && f.ignore_case && f.global);
    assert!(!f.unicode && !f.unicode_sets && !f.has_indices);
    assert_eq!(f.canonical(), "gimsy");
    assert_eq!(compile("a", "vdy").unwrap().flags().canonical(), "dvy");
}

#[test]
fn error_message_names_pattern_and_canonical_flags() {
    let e = compile("(", "ug").unwrap_err();
    assert_eq!(e.message, "Invalid regular expression: /(/gu: Unterminated group");
    assert_eq!(e.to_string(), e.message);
    let e = compile("/(", "").unwrap_err();
    assert_eq!(e.message, "Invalid regular expression: //(/: Unterminated group");
}

/// (pattern, [legacy, `u`, `v`]): "ok" or the message after the pattern.
const SYNTAX: &[(&str, [&str; 3])] = &[
    ("(", ["Unterminated group", "Unterminated group", "Unterminated group"]),
    (")", ["Unmatched ')'", "Unmatched ')'", "Unmatched ')'"]),
    ("a**", ["Nothing to repeat", "Nothing to repeat", "Nothing to repeat"]),
    ("*", ["Nothing to repeat", "Nothing to repeat", "Nothing to repeat"]),
    ("+a", ["Nothing to repeat", "Nothing to repeat", "Nothing to repeat"]),
    ("?", ["Nothing to repeat", "Nothing to repeat", "Nothing to repeat"]),
    ("{", ["ok", "Lone quantifier brackets", "Lone quantifier brackets"]),
    ("}", ["ok", "Lone quantifier brackets", "Lone quantifier brackets"]),
    ("]", ["ok", "Lone quantifier brackets", "Lone quantifier brackets"]),
    ("{1}", ["Nothing to repeat", "Nothing to repeat", "Nothing to repeat"]),
    (
        "a{2,1}",
        [
            "numbers out of order in {} quantifier",
            "numbers out of order in {} quantifier",
            "numbers out of order in {} quantifier",
        ],
    ),
    ("a{1", ["ok", "Incomplete quantifier", "Incomplete quantifier"]),
    (
        "[b-a]",
        [
            "Range out of order in character class",
            "Range out of order in character class",
            "Range out of order in character class",
        ],
    ),
    ("[\\d-a]", ["ok", "Invalid character class", "Invalid character class"]),
    ("[a-\\d]", ["ok", "Invalid character class", "Invalid character class"]),
    ("\\", ["\\ at end of pattern", "\\ at end of pattern", "\\ at end of pattern"]),
    ("a\\", ["\\ at end of pattern", "\\ at end of pattern", "\\ at end of pattern"]),
    ("\\1", ["ok", "Invalid escape", "Invalid escape"]),
    ("\\1(a)", ["ok", "ok", "ok"]),
    ("\\2(a)", ["ok", "Invalid escape", "Invalid escape"]),
    ("\\8", ["ok", "Invalid escape", "Invalid escape"]),
    ("\\01", ["ok", "Invalid decimal escape", "Invalid decimal escape"]),
    ("\\c", ["ok", "Invalid Unicode escape", "Invalid Unicode escape"]),
    ("\\c1", ["ok", "Invalid Unicode escape", "Invalid Unicode escape"]),
    ("\\k", ["ok", "Invalid named reference", "Invalid named reference"]),
    ("\\k<a>", ["ok", "Invalid named capture referenced", "Invalid named capture referenced"]),
    (
        "\\k<a>(?<b>.)",
        ["Invalid named capture referenced", "Invalid named capture referenced", "Invalid named capture referenced"],
    ),
    ("(?<a>.)\\k", ["Invalid named reference", "Invalid named reference", "Invalid named reference"]),
    ("(?<a>.)\\k<", ["Invalid capture group name", "Invalid capture group name", "Invalid capture group name"]),
    (
        "(?<a>.)\\k<b>",
        ["Invalid named capture referenced", "Invalid named capture referenced", "Invalid named capture referenced"],
    ),
    ("(?<a>.)\\k<a", ["Invalid capture group name", "Invalid capture group name", "Invalid capture group name"]),
    (
        "(?<a>.)(?<a>.)",
        ["Duplicate capture group name", "Duplicate capture group name", "Duplicate capture group name"],
    ),
    ("(?<", ["Invalid capture group name", "Invalid capture group name", "Invalid capture group name"]),
    ("(?<>.)", ["Invalid capture group name", "Invalid capture group name", "Invalid capture group name"]),
    ("(?<1>.)", ["Invalid capture group name", "Invalid capture group name", "Invalid capture group name"]),
    ("(?<a", ["Invalid capture group name", "Invalid capture group name", "Invalid capture group name"]),
    ("(?<a>", ["Unterminated group", "Unterminated group", "Unterminated group"]),
    ("(?", ["Invalid group", "Invalid group", "Invalid group"]),
    ("(?a)", ["Invalid group", "Invalid group", "Invalid group"]),
    ("(?=", ["Unterminated group", "Unterminated group", "Unterminated group"]),
    ("(?<=a)*", ["Invalid quantifier", "Invalid quantifier", "Invalid quantifier"]),
    ("(?=a)*", ["ok", "Invalid quantifier", "Invalid quantifier"]),
    ("(?!a)+", ["ok", "Invalid quantifier", "Invalid quantifier"]),
    ("\\b*", ["Nothing to repeat", "Nothing to repeat", "Nothing to repeat"]),
    ("\\B{2}", ["Nothing to repeat", "Nothing to repeat", "Nothing to repeat"]),
    ("^*", ["Nothing to repeat", "Nothing to repeat", "Nothing to repeat"]),
    ("$+", ["Nothing to repeat", "Nothing to repeat", "Nothing to repeat"]),
    ("x{2}{3}", ["Nothing to repeat", "Nothing to repeat", "Nothing to repeat"]),
    ("x*+", ["Nothing to repeat", "Nothing to repeat", "Nothing to repeat"]),
    ("x??+", ["Nothing to repeat", "Nothing to repeat", "Nothing to repeat"]),
    ("\\u{110000}", ["ok", "Invalid Unicode escape", "Invalid Unicode escape"]),
    ("\\u{FFFFFFFFFFFF}", ["ok", "Invalid Unicode escape", "Invalid Unicode escape"]),
    ("\\u{}", ["ok", "Invalid Unicode escape", "Invalid Unicode escape"]),
    ("\\u{12", ["ok", "Invalid Unicode escape", "Invalid Unicode escape"]),
    ("\\u12", ["ok", "Invalid Unicode escape", "Invalid Unicode escape"]),
    ("\\x1", ["ok", "Invalid escape", "Invalid escape"]),
    ("\\-", ["ok", "Invalid escape", "Invalid escape"]),
    ("[\\-]", ["ok", "ok", "ok"]),
    ("\\a", ["ok", "Invalid escape", "Invalid escape"]),
    ("\\/", ["ok", "ok", "ok"]),
    ("\\p", ["ok", "Invalid property name", "Invalid property name"]),
    ("\\p{", ["ok", "Invalid property name", "Invalid property name"]),
    ("\\p{L", ["ok", "Invalid property name", "Invalid property name"]),
    ("\\p{Foo}", ["ok", "Invalid property name", "Invalid property name"]),
    ("\\P{Foo}", ["ok", "Invalid property name", "Invalid property name"]),
    ("\\p{L}", ["ok", "ok", "ok"]),
    ("\\p{Script=Foo}", ["ok", "Invalid property name", "Invalid property name"]),
    ("\\p{Script}", ["ok", "Invalid property name", "Invalid property name"]),
    ("\\p{RGI_Emoji}", ["ok", "Invalid property name", "ok"]),
    ("\\P{RGI_Emoji}", ["ok", "Invalid property name", "Invalid property name"]),
    (
        "[^\\p{RGI_Emoji}]",
        ["ok", "Invalid property name in character class", "Negated character class may contain strings"],
    ),
    (
        "[\\P{RGI_Emoji}]",
        ["ok", "Invalid property name in character class", "Invalid property name in character class"],
    ),
    ("[\\p{RGI_Emoji}]", ["ok", "Invalid property name in character class", "ok"]),
    ("[[a]]", ["ok", "Lone quantifier brackets", "ok"]),
    ("[a&&b]", ["ok", "ok", "ok"]),
    ("[a&&&b]", ["ok", "ok", "Invalid character in character class"]),
    ("[a--b]", ["Range out of order in character class", "Range out of order in character class", "ok"]),
    ("[a-z--b]", ["ok", "ok", "Invalid set operation in character class"]),
    ("[[a-z]--b]", ["ok", "Lone quantifier brackets", "ok"]),
    (
        "[a&&b--c]",
        [
            "Range out of order in character class",
            "Range out of order in character class",
            "Invalid set operation in character class",
        ],
    ),
    ("[\\q{a}]", ["ok", "Invalid escape", "ok"]),
    ("[^\\q{ab}]", ["ok", "Invalid escape", "Negated character class may contain strings"]),
    ("[^\\q{a}]", ["ok", "Invalid escape", "ok"]),
    ("[(]", ["ok", "ok", "Invalid character in character class"]),
    ("[)]", ["ok", "ok", "Invalid character in character class"]),
    ("[{]", ["ok", "ok", "Invalid character in character class"]),
    ("[|]", ["ok", "ok", "Invalid character in character class"]),
    ("[/]", ["ok", "ok", "Invalid character in character class"]),
    ("[a-]", ["ok", "ok", "Invalid character in character class"]),
    ("[-a]", ["ok", "ok", "Invalid character in character class"]),
    ("[!!]", ["ok", "ok", "Invalid set operation in character class"]),
    ("[a!!]", ["ok", "ok", "Invalid set operation in character class"]),
    ("[\\!]", ["ok", "Invalid escape", "ok"]),
    ("[&&a]", ["ok", "ok", "Invalid set operation in character class"]),
    ("(?x:a)", ["Invalid group", "Invalid group", "Invalid group"]),
    ("(?I:a)", ["Invalid group", "Invalid group", "Invalid group"]),
    ("[\\b]", ["ok", "ok", "ok"]),
    ("[\\B]", ["ok", "Invalid escape", "Invalid escape"]),
    ("[\\c]", ["ok", "Invalid Unicode escape", "Invalid Unicode escape"]),
    ("[\\c_]", ["ok", "Invalid Unicode escape", "Invalid Unicode escape"]),
    ("[\\k]", ["ok", "Invalid escape", "Invalid escape"]),
    ("(?<a>.)[\\k]", ["Invalid escape", "Invalid escape", "Invalid escape"]),
    ("[\\8]", ["ok", "Invalid escape", "Invalid escape"]),
    ("[\\1]", ["ok", "Invalid class escape", "Invalid class escape"]),
    ("[\\01]", ["ok", "Invalid class escape", "Invalid class escape"]),
    ("[\\z]", ["ok", "Invalid escape", "Invalid escape"]),
    ("\\z", ["ok", "Invalid escape", "Invalid escape"]),
    ("a{,5}", ["ok", "Incomplete quantifier", "Incomplete quantifier"]),
    ("a{99999999999999999999}", ["ok", "ok", "ok"]),
    ("a{2,99999999999999999999}", ["ok", "ok", "ok"]),
    (
        "a{99999999999999999999,2}",
        [
            "numbers out of order in {} quantifier",
            "numbers out of order in {} quantifier",
            "numbers out of order in {} quantifier",
        ],
    ),
    ("[\\d-\\s]", ["ok", "Invalid character class", "Invalid character class"]),
    ("[a-\\d]", ["ok", "Invalid character class", "Invalid character class"]),
    ("(?<𝒜>.)", ["ok", "ok", "ok"]),
    ("(?<\\u{1D49C}>.)", ["ok", "ok", "ok"]),
    ("(?<\\uD835\\uDC9C>.)", ["ok", "ok", "ok"]),
    ("(?<a\\u0020>.)", ["Invalid capture group name", "Invalid capture group name", "Invalid capture group name"]),
    ("(?<\\u0061>.)\\k<a>", ["ok", "ok", "ok"]),
    ("(?<$>.)", ["ok", "ok", "ok"]),
    ("(?<_a>.)", ["ok", "ok", "ok"]),
    ("(?<a.>.)", ["Invalid capture group name", "Invalid capture group name", "Invalid capture group name"]),
    ("(?<℘>.)", ["ok", "ok", "ok"]),
    ("\\u{41}", ["ok", "ok", "ok"]),
    ("x{2}{3}", ["Nothing to repeat", "Nothing to repeat", "Nothing to repeat"]),
    ("a{,2}", ["ok", "Incomplete quantifier", "Incomplete quantifier"]),
    ("[\\c1]", ["ok", "Invalid Unicode escape", "Invalid Unicode escape"]),
    ("\\c1", ["ok", "Invalid Unicode escape", "Invalid Unicode escape"]),
    (
        "(?<a>x)(?<a>y)(",
        ["Duplicate capture group name", "Duplicate capture group name", "Duplicate capture group name"],
    ),
    ("(?<a>x)(?<a>*)", ["Nothing to repeat", "Nothing to repeat", "Nothing to repeat"]),
    ("${", ["ok", "Lone quantifier brackets", "Lone quantifier brackets"]),
    ("${1}", ["Nothing to repeat", "Nothing to repeat", "Nothing to repeat"]),
    ("^{2,1}", ["Nothing to repeat", "Nothing to repeat", "Nothing to repeat"]),
    ("(?<=a){", ["ok", "Incomplete quantifier", "Incomplete quantifier"]),
    ("\\k<b>*", ["ok", "Invalid named capture referenced", "Invalid named capture referenced"]),
    ("[\\q{a-b}]", ["ok", "Invalid escape", "Invalid character in character class"]),
    (
        "[a--]",
        [
            "Range out of order in character class",
            "Range out of order in character class",
            "Invalid character in character class",
        ],
    ),
    ("[\\d--]", ["ok", "Invalid character class", "Invalid character in character class"]),
    ("[[a]&&[b]--[c]]", ["ok", "Lone quantifier brackets", "Invalid set operation in character class"]),
    ("[\\p{L}--\\P{L}]", ["Range out of order in character class", "Invalid character class", "ok"]),
    ("[^\\p{L}]", ["ok", "ok", "ok"]),
    ("a{0,4294967296}", ["ok", "ok", "ok"]),
    ("\\u{10FFFF}", ["ok", "ok", "ok"]),
    ("\\u{0000000041}", ["ok", "ok", "ok"]),
    ("(?<a\\u{62}>.)\\k<ab>", ["ok", "ok", "ok"]),
    ("(?<\\u200C>.)", ["Invalid capture group name", "Invalid capture group name", "Invalid capture group name"]),
    ("(?<a\\u200C>.)", ["ok", "ok", "ok"]),
];

#[test]
fn early_errors_match_node() {
    let mut failures = Vec::new();
    for (pattern, expected) in SYNTAX {
        for (flags, expected) in ["", "u", "v"].iter().zip(expected) {
            let got = match compile(pattern, flags) {
                Ok(_) => "ok".to_string(),
                Err(e) => e.message,
            };
            let want = if *expected == "ok" {
                "ok".to_string()
            } else {
                format!("Invalid regular expression: /{pattern}/{flags}: {expected}")
            };
            if got != want {
                failures.push(format!("/{pattern}/{flags}: got {got:?}, want {want:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn modifiers_follow_the_spec() {
    // ES2025 RegularExpressionModifiers (node 20 predates them).
    for ok in ["(?i:a)", "(?m-s:a)", "(?-i:a)", "(?ims:a)", "(?i-:a)", "(?-ims:a)", "(?s:a)+"] {
        for flags in ["", "u", "v"] {
            assert!(compile(ok, flags).is_ok(), "/{ok}/{flags}");
        }
    }
    for bad in ["(?-:a)", "(?ii:a)", "(?i-i:a)", "(?m-im:a)", "(?x:a)", "(?i)", "(?I:a)", "(?i", "(?i-s"] {
        let e = compile(bad, "").unwrap_err();
        assert!(e.message.ends_with(": Invalid group"), "/{bad}/: {}", e.message);
    }
}

#[test]
fn duplicate_group_names_only_in_different_alternatives() {
    // ES2025 duplicate named capture groups (node 20 rejects them all).
    for ok in ["(?<a>x)|(?<a>y)", "(?:(?<a>x)|(?<a>y))\\k<a>", "((?<a>x)|(?<a>y))|(?<a>z)", "(?:(?<a>x)|y)|(?<a>z)"] {
        assert!(compile(ok, "").is_ok(), "/{ok}/");
    }
    for bad in [
        "(?<a>x)(?<a>y)",
        "(?<a>x)|(?<b>y)(?<b>z)",
        "(?:(?<a>x)|y)(?<a>z)",
        "(?<a>(?<a>x))",
        "((?<a>x)|y)|(?<a>z)(?<a>w)",
    ] {
        let e = compile(bad, "").unwrap_err();
        assert!(e.message.ends_with(": Duplicate capture group name"), "/{bad}/: {}", e.message);
    }
    let re = compile("(?<a>x)|(?<b>y)|(?<a>z)", "").unwrap();
    assert_eq!(re.group_count(), 3);
    assert_eq!(
        re.group_names(),
        &[GroupName { name: u("a"), indices: vec![1, 3] }, GroupName { name: u("b"), indices: vec![2] },]
    );
}

#[test]
fn group_count_and_names() {
    let re = compile(r"(a)(?:b)(?<year>c)(?=(d))d(?<\u{1d49c}>e)[(](?<$_>f)", "").unwrap();
    assert_eq!(re.group_count(), 5);
    assert!(re.has_named_groups());
    let names: Vec<String> = re.group_names().iter().map(|g| String::from_utf16_lossy(&g.name)).collect();
    assert_eq!(names, ["year", "\u{1d49c}", "$_"]);
    assert_eq!(re.name_of_group(1), None);
    assert_eq!(re.name_of_group(2), Some(&u("year")[..]));
    assert_eq!(re.name_of_group(4), Some(&u("\u{1d49c}")[..]));
    assert_eq!(re.name_of_group(6), None);
    let m = re.exec_at(Subject::Utf16(&u("abcde(f")), 0, &|| false).unwrap().unwrap();
    assert_eq!(re.named_capture(&m, &re.group_names()[0]), Some(2..3));
    assert!(!compile("(a)", "").unwrap().has_named_groups());
    assert_eq!(compile("", "").unwrap().group_count(), 0);
}

#[test]
fn limits_give_errors_not_crashes() {
    let deep = "(".repeat(300) + &")".repeat(300);
    assert!(compile(&deep, "").unwrap_err().message.ends_with("Regular expression too large"));
    let ok = "(".repeat(200) + "a" + &")".repeat(200);
    assert_eq!(compile(&ok, "").unwrap().group_count(), 200);
    let classes = "[".repeat(300) + &"]".repeat(300);
    assert!(compile(&classes, "v").unwrap_err().message.ends_with("Regular expression too large"));
    let many = "()".repeat(70000);
    assert!(compile(&many, "").unwrap_err().message.ends_with("Too many captures"));
    let big = "(?:ab){100000}c{4294967295,}";
    assert_eq!(compile(big, "").unwrap().exec_at(Subject::Utf16(&u("abab")), 0, &|| false), Ok(None));
}

/// (pattern, `source`) as node prints it.
const SOURCES: &[(&str, &str)] = &[
    ("", "(?:)"),
    ("/", "\\/"),
    ("a/b", "a\\/b"),
    ("[/]", "[/]"),
    ("\\/", "\\/"),
    ("\n", "\\n"),
    ("\r", "\\r"),
    ("\u{2028}", "\\u2028"),
    ("\u{2029}", "\\u2029"),
    ("\\\n", "\\n"),
    ("a\\\\/", "a\\\\\\/"),
    ("[a/]/", "[a/]\\/"),
    ("\\[/", "\\[\\/"),
    ("[\\]/]/", "[\\]/]\\/"),
    ("(?:)", "(?:)"),
    ("a\nb/c", "a\\nb\\/c"),
];

#[test]
fn escape_source_matches_node() {
    for (pattern, source) in SOURCES {
        assert_eq!(String::from_utf16_lossy(&escape_source(&u(pattern))), *source, "{pattern:?}");
    }
}

#[test]
fn advance_string_index_steps_over_pairs_in_unicode_mode() {
    let s = u("a\u{1F600}b");
    assert_eq!(advance_string_index(&s, 0, true), 1);
    assert_eq!(advance_string_index(&s, 1, true), 3);
    assert_eq!(advance_string_index(&s, 1, false), 2);
    assert_eq!(advance_string_index(&s, 2, true), 3);
    assert_eq!(advance_string_index(&s, 3, true), 4);
    assert_eq!(advance_string_index(&s, 4, true), 5);
    // A lone lead surrogate at the end, or followed by a non-trail unit, is one unit.
    assert_eq!(advance_string_index(&[0xD83D], 0, true), 1);
    assert_eq!(advance_string_index(&[0xD83D, 0x61], 0, true), 1);
}

/// (pattern, flags, input, replacement template, `input.replace(re, template)` in node).
const SUBSTITUTIONS: &[(&str, &str, &str, &str, &str)] = &[
    ("b", "", "abc", "[$&]", "a[b]c"),
    ("b", "", "abc", "[$`]", "a[a]c"),
    ("b", "", "abc", "[$']", "a[c]c"),
    ("b", "", "abc", "$$", "a$c"),
    ("b", "", "abc", "$", "a$c"),
    ("b", "", "abc", "x$", "ax$c"),
    ("(b)", "", "abc", "[$1]", "a[b]c"),
    ("(b)", "", "abc", "[$01]", "a[b]c"),
    ("(b)", "", "abc", "[$10]", "a[b0]c"),
    ("(b)", "", "abc", "[$2]", "a[$2]c"),
    ("(b)", "", "abc", "[$0]", "a[$0]c"),
    ("(b)", "", "abc", "[$00]", "a[$00]c"),
    ("(b)", "", "abc", "[$001]", "a[$001]c"),
    ("(b)(c)?", "", "abd", "[$2]", "a[]d"),
    ("(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)", "", "abcdefghijk", "$11-$10-$1$0-$12", "k-j-a$0-a2"),
    ("(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)", "", "abcdefghij", "$11-$10-$100", "a1-j-j0"),
    ("(?<x>b)", "", "abc", "[$<x>]", "a[b]c"),
    ("(?<x>b)", "", "abc", "[$<y>]", "a[]c"),
    ("(?<x>b)", "", "abc", "[$<x]", "a[$<x]c"),
    ("(b)", "", "abc", "[$<x>]", "a[$<x>]c"),
    ("(?<x>b)|(?<y>c)", "", "abc", "[$<y>|$<x>]", "a[|b]c"),
    ("b", "", "abc", "$<", "a$<c"),
    ("", "", "abc", "[$`|$'|$&]", "[|abc|]abc"),
    ("c", "", "abc", "[$']", "ab[]"),
    ("a", "", "abc", "[$`]", "[]bc"),
    ("(?<a>.)(?<b>.)", "", "xy", "$<b>$<a>$<b>", "yxy"),
    ("x", "", "abc", "unused", "abc"),
    ("b", "", "a😀bc", "$`", "a😀a😀c"),
];

/// String.prototype.replace with a RegExp, first match only, built on get_substitution.
fn replace(pattern: &str, flags: &str, input: &str, template: &str) -> String {
    let re = compile(pattern, flags).unwrap();
    let s = u(input);
    let Some(m) = re.exec_at(Subject::Utf16(&s), 0, &|| false).unwrap() else {
        return input.to_string();
    };
    let captures: Vec<Option<Vec<u16>>> = (1..=re.group_count()).map(|i| m.group(i).map(|r| s[r].to_vec())).collect();
    let mut lookup = |name: &[u16]| -> Result<Option<Vec<u16>>, ()> {
        Ok(re
            .group_names()
            .iter()
            .find(|g| g.name == name)
            .map(|g| re.named_capture(&m, g).map(|r| s[r].to_vec()).unwrap_or_default()))
    };
    let named: Option<NamedCaptureLookup<'_, ()>> = if re.has_named_groups() { Some(&mut lookup) } else { None };
    let mut out = s[..m.start()].to_vec();
    get_substitution(&s[m.range()], &s, m.start(), &captures, named, &u(template), &mut out).unwrap();
    out.extend_from_slice(&s[m.end()..]);
    String::from_utf16(&out).unwrap()
}

#[test]
fn get_substitution_matches_node() {
    for (pattern, flags, input, template, expected) in SUBSTITUTIONS {
        assert_eq!(replace(pattern, flags, input, template), *expected, "{pattern:?} {template:?}");
    }
}

#[test]
fn get_substitution_edge_cases() {
    let mut out = Vec::new();
    // $' with a position past what the match allows (a user `exec`): empty, no panic.
    get_substitution::<()>(&u("xyz"), &u("ab"), 1, &[], None, &u("[$'|$`]"), &mut out).unwrap();
    assert_eq!(String::from_utf16(&out).unwrap(), "[|a]");
    // An abrupt lookup propagates.
    let mut failing = |_: &[u16]| -> Result<Option<Vec<u16>>, &'static str> { Err("thrown") };
    let r = get_substitution(&u("b"), &u("abc"), 1, &[], Some(&mut failing), &u("$<x>"), &mut out);
    assert_eq!(r, Err("thrown"));
}

#[test]
fn regexp_escape_follows_test262() {
    let esc = |s: &[u16]| String::from_utf16(&regexp_escape(s)).unwrap();
    assert_eq!(esc(&u("")), "");
    assert_eq!(esc(&u("\t\n\u{b}\u{c}\r")), "\\t\\n\\v\\f\\r");
    assert_eq!(
        esc(&u(",-=<>#&!%:;@~'`\"")),
        "\\x2c\\x2d\\x3d\\x3c\\x3e\\x23\\x26\\x21\\x25\\x3a\\x3b\\x40\\x7e\\x27\\x60\\x22"
    );
    assert_eq!(esc(&[0xD800]), "\\ud800");
    assert_eq!(esc(&[0xDFFF, 0x61]), "\\udfffa");
    assert_eq!(esc(&u("1111")), "\\x31111");
    assert_eq!(esc(&u("aaa")), "\\x61aa");
    assert_eq!(esc(&u("\u{feff} \u{a0}\u{202f}")), "\\ufeff\\x20\\xa0\\u202f");
    assert_eq!(esc(&u("\u{2028}\u{2029}")), "\\u2028\\u2029");
    assert_eq!(esc(&u("Γειά σου")), "Γειά\\x20σου");
    assert_eq!(esc(&u(".hello\u{d7ff}world")), "\\.hello\u{d7ff}world");
    assert_eq!(esc(&u("^$\\.*+?()[]{}|/")), "\\^\\$\\\\\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\/");
    assert_eq!(esc(&u("_a\u{1F600}")), "_a\u{1F600}");
    // The escaped text matches exactly the original, in both modes.
    for flags in ["", "u", "v"] {
        let text = u("1.5*(x+y) = $z / [w]?");
        let re = CompiledRegExp::new(&regexp_escape(&text), &u(flags)).unwrap();
        let m = re.exec_at(Subject::Utf16(&text), 0, &|| false).unwrap().unwrap();
        assert_eq!(m.range(), 0..text.len());
    }
}
