//! The expectations file: the tests known to fail, one `path mode` per line, sorted.
//!
//! ```text
//! # comment lines and blank lines are ignored
//! built-ins/Array/prototype/map/create-proxy.js sloppy
//! built-ins/Array/prototype/map/create-proxy.js strict
//! ```
//! `--check` fails on a failing test that is not listed (a regression) and lists the listed
//! tests that now pass; `--update` rewrites the entries of the tests that ran and keeps the rest.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use crate::discover::Mode;

/// A test in one mode.
pub type Key = (String, Mode);

/// The header written at the top of the file.
const HEADER: &str = "# test262 tests known to fail with Iris: `<path under test/> <mode>` per line, sorted.\n\
# `cargo run -p test262-runner -- --check` (the CI gate, dev profile) fails on a failure not\n\
# listed here; `cargo run -p test262-runner -- --update` rewrites this file from a run.\n";

/// Reads the expectations; a missing file is an empty set.
pub fn read(path: &Path) -> Result<BTreeSet<Key>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeSet::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses the expectations text.
pub fn parse(text: &str) -> Result<BTreeSet<Key>, String> {
    let mut set = BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (path, mode) = line.rsplit_once(' ').ok_or_else(|| format!("line {}: expected `<path> <mode>`", i + 1))?;
        let mode = Mode::from_name(mode.trim()).ok_or_else(|| format!("line {}: unknown mode {mode:?}", i + 1))?;
        set.insert((path.trim().to_string(), mode));
    }
    Ok(set)
}

/// The file's text for a set.
pub fn render(set: &BTreeSet<Key>) -> String {
    let mut out = HEADER.to_string();
    for (path, mode) in set {
        out.push_str(&format!("{path} {mode}\n"));
    }
    out
}

/// The outcome of comparing a run with the expectations.
#[derive(Debug, Default)]
pub struct Comparison {
    /// Failing, not listed: regressions.
    pub new_failures: Vec<Key>,
    /// Listed, but passed.
    pub new_passes: Vec<Key>,
}

/// Compares `results` (every test that ran: key → passed) with `expected` failures.
pub fn compare(expected: &BTreeSet<Key>, results: &HashMap<Key, bool>) -> Comparison {
    let mut c = Comparison::default();
    for (key, &passed) in results {
        match (passed, expected.contains(key)) {
            (false, false) => c.new_failures.push(key.clone()),
            (true, true) => c.new_passes.push(key.clone()),
            _ => {}
        }
    }
    c.new_failures.sort();
    c.new_passes.sort();
    c
}

/// The expectations after a run: the entries of tests that did not run are kept; the tests that
/// ran are listed exactly when they failed.
pub fn updated(expected: &BTreeSet<Key>, results: &HashMap<Key, bool>) -> BTreeSet<Key> {
    let mut set: BTreeSet<Key> = expected.iter().filter(|k| !results.contains_key(*k)).cloned().collect();
    set.extend(results.iter().filter(|(_, &passed)| !passed).map(|(k, _)| k.clone()));
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(p: &str, m: Mode) -> Key {
        (p.to_string(), m)
    }

    #[test]
    fn parse_render_round_trip() {
        let set: BTreeSet<Key> =
            [key("b/x.js", Mode::Strict), key("a/y.js", Mode::Sloppy), key("a/y.js", Mode::Strict)].into();
        let text = render(&set);
        assert!(text.find("a/y.js sloppy").unwrap() < text.find("b/x.js strict").unwrap());
        assert_eq!(parse(&text).unwrap(), set);
        assert!(parse("a.js fast\n").is_err());
        assert!(parse("a.js\n").is_err());
    }

    #[test]
    fn compare_and_update() {
        let expected: BTreeSet<Key> =
            [key("fail.js", Mode::Sloppy), key("fixed.js", Mode::Sloppy), key("not-run.js", Mode::Strict)].into();
        let results: HashMap<Key, bool> = [
            (key("fail.js", Mode::Sloppy), false),
            (key("fixed.js", Mode::Sloppy), true),
            (key("broke.js", Mode::Strict), false),
            (key("ok.js", Mode::Sloppy), true),
        ]
        .into();
        let c = compare(&expected, &results);
        assert_eq!(c.new_failures, vec![key("broke.js", Mode::Strict)]);
        assert_eq!(c.new_passes, vec![key("fixed.js", Mode::Sloppy)]);
        let u = updated(&expected, &results);
        let want: BTreeSet<Key> =
            [key("fail.js", Mode::Sloppy), key("broke.js", Mode::Strict), key("not-run.js", Mode::Strict)].into();
        assert_eq!(u, want);
    }

    #[test]
    fn missing_file_is_empty() {
        assert!(read(Path::new("/nonexistent/expectations.txt")).unwrap().is_empty());
    }
}
