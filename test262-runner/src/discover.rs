//! Finding test262 and its tests, and turning each test into jobs (one per mode it runs in).

use std::fmt;
use std::path::{Path, PathBuf};

use crate::frontmatter::Metadata;

/// The repository root (the parent of this crate's directory).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the runner lives in the workspace root").to_path_buf()
}

/// `$TEST262_DIR` if set, else `../shared/test262` beside the repository, if it exists.
pub fn default_test262_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("TEST262_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d));
    }
    let shared = repo_root().join("..").join("shared").join("test262");
    shared.is_dir().then(|| std::fs::canonicalize(&shared).unwrap_or(shared))
}

/// How a test is run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mode {
    /// Non-strict script code (also `raw` tests).
    Sloppy,
    /// `"use strict";` prepended.
    Strict,
    /// Module code (`flags: [module]`).
    Module,
}

impl Mode {
    /// The mode's name in the expectations file and the JSON results.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Sloppy => "sloppy",
            Mode::Strict => "strict",
            Mode::Module => "module",
        }
    }

    /// The inverse of [`Mode::name`].
    pub fn from_name(s: &str) -> Option<Mode> {
        match s {
            "sloppy" => Some(Mode::Sloppy),
            "strict" => Some(Mode::Strict),
            "module" => Some(Mode::Module),
            _ => None,
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The modes a test runs in, from its flags (INTERPRETING.md, "Strict Mode").
pub fn modes_for(meta: &Metadata) -> Vec<Mode> {
    if meta.has_flag("module") {
        vec![Mode::Module]
    } else if meta.has_flag("raw") || meta.has_flag("noStrict") {
        vec![Mode::Sloppy]
    } else if meta.has_flag("onlyStrict") {
        vec![Mode::Strict]
    } else {
        vec![Mode::Sloppy, Mode::Strict]
    }
}

/// Directories under `test/` that a plain run leaves out: `intl402` (Iris has no Intl) and
/// `staging` (not carried by the shared copy). Naming them in a filter runs them.
pub const EXCLUDED_DIRS: [&str; 2] = ["intl402", "staging"];

/// The tests under `root/test` (paths relative to `test/`, `/`-separated, sorted), keeping
/// those selected by `filters`: a filter naming a file or directory (relative to `test/`, to
/// the test262 root, or absolute) selects what is under it; any other filter selects paths
/// containing it. `_FIXTURE` files are module fixtures, not tests.
pub fn find_tests(root: &Path, filters: &[String]) -> Vec<String> {
    let test_dir = root.join("test");
    let mut out = Vec::new();
    let mut stack = vec![test_dir.clone()];
    while let Some(dir) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            let Ok(ft) = e.file_type() else { continue };
            if ft.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "js") && !p.to_string_lossy().contains("_FIXTURE") {
                if let Ok(rel) = p.strip_prefix(&test_dir) {
                    out.push(rel.to_string_lossy().replace('\\', "/"));
                }
            }
        }
    }
    out.sort();
    let selectors: Vec<Selector> = filters.iter().map(|f| Selector::new(root, f)).collect();
    out.retain(|rel| {
        if selectors.is_empty() {
            let top = rel.split('/').next().unwrap_or("");
            return !EXCLUDED_DIRS.contains(&top);
        }
        selectors.iter().any(|s| s.matches(rel))
    });
    out
}

enum Selector {
    Under(String),
    Contains(String),
}

impl Selector {
    fn new(root: &Path, f: &str) -> Selector {
        let test_dir = root.join("test");
        let candidates = [Path::new(f).to_path_buf(), test_dir.join(f), root.join(f)];
        for c in candidates {
            if c.exists() {
                if let (Ok(c), Ok(t)) = (std::fs::canonicalize(&c), std::fs::canonicalize(&test_dir)) {
                    if let Ok(rel) = c.strip_prefix(&t) {
                        return Selector::Under(rel.to_string_lossy().replace('\\', "/"));
                    }
                }
            }
        }
        Selector::Contains(f.to_string())
    }

    fn matches(&self, rel: &str) -> bool {
        match self {
            Selector::Under(p) if p.is_empty() => true,
            Selector::Under(p) => rel == p || rel.starts_with(&format!("{p}/")),
            Selector::Contains(s) => rel.contains(s.as_str()),
        }
    }
}

/// The summary group of a test: its first two path components (`built-ins/Array`), or its
/// directory when it is shallower.
pub fn group_of(rel: &str) -> String {
    let parts: Vec<&str> = rel.split('/').collect();
    let n = parts.len().saturating_sub(1).clamp(1, 2);
    parts[..n].join("/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontmatter;

    #[test]
    fn modes_follow_flags() {
        let m = |s: &str| modes_for(&frontmatter::parse(&format!("/*---\nflags: [{s}]\n---*/")).unwrap());
        assert_eq!(m(""), vec![Mode::Sloppy, Mode::Strict]);
        assert_eq!(m("onlyStrict"), vec![Mode::Strict]);
        assert_eq!(m("noStrict"), vec![Mode::Sloppy]);
        assert_eq!(m("raw"), vec![Mode::Sloppy]);
        assert_eq!(m("module, async"), vec![Mode::Module]);
        for mode in [Mode::Sloppy, Mode::Strict, Mode::Module] {
            assert_eq!(Mode::from_name(mode.name()), Some(mode));
        }
    }

    #[test]
    fn groups() {
        assert_eq!(group_of("built-ins/Array/prototype/map/x.js"), "built-ins/Array");
        assert_eq!(group_of("language/expressions/a.js"), "language/expressions");
        assert_eq!(group_of("harness/assert.js"), "harness");
    }

    #[test]
    fn find_and_filter() {
        let root = std::env::temp_dir().join(format!("t262-find-{}", std::process::id()));
        for f in [
            "test/built-ins/Array/a.js",
            "test/built-ins/Array/b_FIXTURE.js",
            "test/intl402/x.js",
            "test/language/c.js",
            "test/language/d.txt",
        ] {
            let p = root.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "").unwrap();
        }
        assert_eq!(find_tests(&root, &[]), vec!["built-ins/Array/a.js", "language/c.js"]);
        assert_eq!(find_tests(&root, &["intl402".into()]), vec!["intl402/x.js"]);
        assert_eq!(find_tests(&root, &["test/language".into()]), vec!["language/c.js"]);
        assert_eq!(find_tests(&root, &["a.js".into()]), vec!["built-ins/Array/a.js"]);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
