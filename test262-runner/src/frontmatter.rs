//! test262 metadata: the YAML between `/*---` and `---*/` at the top of each test.
//!
//! Only the keys the runner acts on are read (`includes`, `flags`, `negative`, `features`), with
//! the two list forms test262 uses (`[a, b]` and indented `- a` lines) and the `negative` block
//! mapping. Other keys (`description`, `info`, `esid`, ...) and their multi-line values are
//! skipped.

/// The phase a negative test expects its error in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Parsing or early errors: the driver's compile error.
    Parse,
    /// Module resolution (module tests only).
    Resolution,
    /// Evaluation: an uncaught exception.
    Runtime,
}

/// A negative test's expectation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Negative {
    /// When the error must happen.
    pub phase: Phase,
    /// The expected error constructor's name (`SyntaxError`, `Test262Error`, ...).
    pub error_type: String,
}

/// The metadata the runner uses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metadata {
    /// Harness files to load before the test, in order.
    pub includes: Vec<String>,
    /// `flags:` entries (`onlyStrict`, `noStrict`, `raw`, `module`, `async`, ...).
    pub flags: Vec<String>,
    /// `features:` entries (reported only: a feature never skips a test).
    pub features: Vec<String>,
    /// The negative expectation, if any.
    pub negative: Option<Negative>,
}

impl Metadata {
    /// Whether `flag` is among the flags.
    pub fn has_flag(&self, flag: &str) -> bool {
        self.flags.iter().any(|f| f == flag)
    }
}

fn parse_inline_list(s: &str) -> Option<Vec<String>> {
    let inner = s.trim().strip_prefix('[')?.strip_suffix(']')?;
    Some(inner.split(',').map(|x| unquote(x.trim())).filter(|x| !x.is_empty()).collect())
}

fn unquote(s: &str) -> String {
    let s = s.trim();
    for q in ['"', '\''] {
        if let Some(inner) = s.strip_prefix(q).and_then(|r| r.strip_suffix(q)) {
            return inner.to_string();
        }
    }
    s.to_string()
}

/// Parses the metadata block of a test's source.
pub fn parse(source: &str) -> Result<Metadata, String> {
    let start = source.find("/*---").ok_or("no /*--- metadata block")?;
    let body_start = start + "/*---".len();
    let len = source[body_start..].find("---*/").ok_or("unterminated /*--- metadata block")?;
    let block = &source[body_start..body_start + len];
    // YAML line breaks: LF, CRLF and a lone CR (a few tests are written with CR only).
    let block = block.replace("\r\n", "\n").replace('\r', "\n");
    let lines: Vec<&str> = block.lines().collect();
    let mut meta = Metadata::default();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        if line.trim().is_empty()
            || line.starts_with(' ')
            || line.starts_with('\t')
            || line.trim_start().starts_with('#')
        {
            continue;
        }
        let Some((key, value)) = line.split_once(':') else { continue };
        let key = key.trim();
        let value = value.trim();
        // The indented lines that belong to this key.
        let mut nested = Vec::new();
        while i < lines.len() && (lines[i].starts_with(' ') || lines[i].starts_with('\t') || lines[i].trim().is_empty())
        {
            if !lines[i].trim().is_empty() {
                nested.push(lines[i].trim());
            }
            i += 1;
        }
        let list = || -> Result<Vec<String>, String> {
            if value.is_empty() {
                nested
                    .iter()
                    .map(|l| l.strip_prefix('-').map(unquote).ok_or_else(|| format!("bad list item {l:?} under {key}")))
                    .collect()
            } else {
                parse_inline_list(value).ok_or_else(|| format!("bad list {value:?} for {key}"))
            }
        };
        match key {
            "includes" => meta.includes = list()?,
            "flags" => meta.flags = list()?,
            "features" => meta.features = list()?,
            "negative" => {
                let mut phase = None;
                let mut ty = None;
                let pairs: Vec<&str> = if value.starts_with('{') {
                    value.trim_matches(|c| c == '{' || c == '}').split(',').collect()
                } else {
                    nested.clone()
                };
                for p in pairs {
                    let Some((k, v)) = p.split_once(':') else { continue };
                    match k.trim() {
                        "phase" => phase = Some(v.trim().to_string()),
                        "type" => ty = Some(unquote(v)),
                        _ => {}
                    }
                }
                let phase = match phase.as_deref() {
                    Some("parse") | Some("early") => Phase::Parse,
                    Some("resolution") => Phase::Resolution,
                    Some("runtime") => Phase::Runtime,
                    other => return Err(format!("negative test with unknown phase {other:?}")),
                };
                let error_type = ty.ok_or("negative test without a type")?;
                meta.negative = Some(Negative { phase, error_type });
            }
            _ => {}
        }
    }
    Ok(meta)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn carriage_returns_end_lines() {
        let src = "/*---\rincludes: [a.js, b.js]\rflags: [raw]\r\nnegative:\r\n  phase: parse\r\n  type: SyntaxError\rfeatures: [x]\r---*/\r";
        let m = parse(src).unwrap();
        assert_eq!(m.negative, Some(Negative { phase: Phase::Parse, error_type: "SyntaxError".into() }));
        assert_eq!(m.includes, vec!["a.js", "b.js"]);
        assert_eq!(m.flags, vec!["raw"]);
        assert_eq!(m.features, vec!["x"]);
    }

    #[test]
    fn inline_lists_and_negative() {
        let src = "// Copyright\n/*---\nesid: sec-x\ndescription: >\n  multi\n  line: not a key\nincludes: [propertyHelper.js, compareArray.js]\nflags: [onlyStrict, async]\nnegative:\n  phase: parse\n  type: SyntaxError\nfeatures: [BigInt]\n---*/\ncode();\n";
        let m = parse(src).unwrap();
        assert_eq!(m.includes, vec!["propertyHelper.js", "compareArray.js"]);
        assert_eq!(m.flags, vec!["onlyStrict", "async"]);
        assert_eq!(m.features, vec!["BigInt"]);
        assert_eq!(m.negative, Some(Negative { phase: Phase::Parse, error_type: "SyntaxError".into() }));
        assert!(m.has_flag("async") && !m.has_flag("raw"));
    }

    #[test]
    fn block_lists_and_empty_lists() {
        let src = "/*---\nincludes:\n  - a.js\n  - \"b.js\"\nflags: []\ninfo: |\n  flags: [raw]\n---*/";
        let m = parse(src).unwrap();
        assert_eq!(m.includes, vec!["a.js", "b.js"]);
        assert!(m.flags.is_empty());
        assert_eq!(m.negative, None);
    }

    #[test]
    fn runtime_negative_and_errors() {
        let m = parse("/*---\nnegative:\n  phase: runtime\n  type: Test262Error\n---*/").unwrap();
        assert_eq!(m.negative.unwrap().phase, Phase::Runtime);
        assert!(parse("no block").is_err());
        assert!(parse("/*---\nnegative:\n  phase: later\n  type: X\n---*/").is_err());
        assert!(parse("/*---\nflags: [a\n---*/").is_err());
    }

    #[test]
    fn every_shared_test_parses() {
        // The shared copy of test262, when present, must parse completely.
        let root = crate::discover::default_test262_dir();
        let Some(root) = root.filter(|r| r.join("test").is_dir()) else { return };
        let mut n = 0;
        for dir in ["test/built-ins/Array/prototype/map", "test/language/statements/class/subclass"] {
            for e in std::fs::read_dir(root.join(dir)).unwrap().flatten() {
                let p = e.path();
                if p.extension().is_some_and(|e| e == "js") {
                    let src = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
                    parse(&src).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                    n += 1;
                }
            }
        }
        assert!(n > 10);
    }
}
