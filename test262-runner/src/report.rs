//! Results: the summary table (overall, per top-level area, per directory two levels deep) and
//! the JSON file with every result.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use crate::discover::{group_of, Mode};

/// The result of one test in one mode.
#[derive(Clone, Debug)]
pub struct TestResult {
    /// Path under `test/`.
    pub path: String,
    /// Mode.
    pub mode: Mode,
    /// Passed?
    pub passed: bool,
    /// Why it failed (empty when it passed).
    pub reason: String,
}

/// Passed and total counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    /// Runs that passed.
    pub passed: usize,
    /// All runs.
    pub total: usize,
}

impl Count {
    fn add(&mut self, passed: bool) {
        self.total += 1;
        self.passed += usize::from(passed);
    }

    fn pct(self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            100.0 * self.passed as f64 / self.total as f64
        }
    }
}

/// Counts by key.
pub fn tally<'a>(
    results: impl IntoIterator<Item = &'a TestResult>,
    key: impl Fn(&TestResult) -> String,
) -> BTreeMap<String, Count> {
    let mut map: BTreeMap<String, Count> = BTreeMap::new();
    for r in results {
        map.entry(key(r)).or_default().add(r.passed);
    }
    map
}

fn row(out: &mut String, name: &str, c: Count) {
    let _ = writeln!(
        out,
        "  {name:<44} {:>6} / {:<6} failed {:>6}  {:>5.1}%",
        c.passed,
        c.total,
        c.total - c.passed,
        c.pct()
    );
}

/// The summary text printed after a run.
pub fn summary(results: &[TestResult], elapsed: Duration) -> String {
    let mut out = String::new();
    let all = tally(results, |_| String::new()).remove("").unwrap_or_default();
    let files = results.iter().map(|r| r.path.as_str()).collect::<std::collections::HashSet<_>>().len();
    let _ = writeln!(out, "test262: {} runs of {files} tests in {:.1}s", all.total, elapsed.as_secs_f64());
    let _ = writeln!(out, "by directory:");
    for (g, c) in tally(results, |r| group_of(&r.path)) {
        row(&mut out, &g, c);
    }
    let _ = writeln!(out, "by area:");
    for (g, c) in tally(results, |r| r.path.split('/').next().unwrap_or("").to_string()) {
        row(&mut out, &g, c);
    }
    let _ = writeln!(out, "by mode:");
    for (g, c) in tally(results, |r| r.mode.name().to_string()) {
        row(&mut out, &g, c);
    }
    row(&mut out, "total", all);
    out
}

/// Writes every result, with the totals, as JSON.
pub fn write_json(path: &Path, results: &[TestResult], elapsed: Duration, commit: &str) -> Result<(), String> {
    let groups: serde_json::Map<String, serde_json::Value> = tally(results, |r| group_of(&r.path))
        .into_iter()
        .map(|(g, c)| (g, serde_json::json!({ "passed": c.passed, "total": c.total })))
        .collect();
    let all = tally(results, |_| String::new()).remove("").unwrap_or_default();
    let list: Vec<serde_json::Value> = results
        .iter()
        .map(|r| {
            serde_json::json!({
                "path": r.path,
                "mode": r.mode.name(),
                "result": if r.passed { "pass" } else { "fail" },
                "reason": r.reason,
            })
        })
        .collect();
    let doc = serde_json::json!({
        "test262_commit": commit,
        "elapsed_seconds": elapsed.as_secs_f64(),
        "passed": all.passed,
        "failed": all.total - all.passed,
        "total": all.total,
        "groups": groups,
        "results": list,
    });
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(path: &str, mode: Mode, passed: bool) -> TestResult {
        TestResult {
            path: path.into(),
            mode,
            passed,
            reason: if passed { String::new() } else { "Test262Error: x".into() },
        }
    }

    #[test]
    fn summary_counts_by_group() {
        let results = vec![
            r("built-ins/Array/a.js", Mode::Sloppy, true),
            r("built-ins/Array/a.js", Mode::Strict, false),
            r("built-ins/Array/prototype/map/b.js", Mode::Strict, true),
            r("language/expressions/c.js", Mode::Sloppy, true),
        ];
        let g = tally(&results, |r| group_of(&r.path));
        assert_eq!(g["built-ins/Array"], Count { passed: 2, total: 3 });
        assert_eq!(g["language/expressions"], Count { passed: 1, total: 1 });
        let s = summary(&results, Duration::from_secs(2));
        assert!(s.contains("4 runs of 3 tests"), "{s}");
        assert!(s.lines().any(|l| l.contains("total") && l.contains("3 / 4")), "{s}");
    }

    #[test]
    fn json_has_every_result() {
        let p = std::env::temp_dir().join(format!("t262-json-{}.json", std::process::id()));
        let results = vec![r("a/b.js", Mode::Sloppy, true), r("a/c.js", Mode::Strict, false)];
        write_json(&p, &results, Duration::from_secs(1), "abc").unwrap();
        let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
        assert_eq!(v["total"], 2);
        assert_eq!(v["results"][1]["result"], "fail");
        assert_eq!(v["results"][1]["reason"], "Test262Error: x");
        std::fs::remove_file(&p).unwrap();
    }
}
