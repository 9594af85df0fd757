//! `cargo test -p lit-tests`: builds `iris` for this profile (`cargo build -p compiler --bin
//! iris`; a test cannot name another package's binary through `CARGO_BIN_EXE_*`), then runs every
//! lit-test under `tests/` and fails with the reports of the failing ones.

use std::path::Path;
use std::time::Duration;

use lit_tests::runner::{self, Config, Mode};

#[test]
fn lit_tests() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let repo_root = manifest.parent().expect("lit-tests lives in the workspace root").to_path_buf();
    let iris = match runner::locate_iris(true, &repo_root) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    };
    let tests = runner::discover(&manifest.join("tests"), &[]);
    assert!(!tests.is_empty(), "no lit-tests found under {}", manifest.join("tests").display());
    let cfg = Config {
        iris: iris.clone(),
        iris_args: Vec::new(),
        repo_root: repo_root.clone(),
        tmp_root: iris.parent().expect("iris is in target/<profile>").join("lit-tmp"),
        mode: Mode::Check,
        node: "node".to_string(),
        timeout: Duration::from_secs(120),
    };
    let jobs = std::thread::available_parallelism().map_or(2, |n| n.get());
    let sum = runner::run_all(&cfg, &tests, jobs, false);
    for f in &sum.failures {
        eprintln!("{f}");
    }
    println!("lit: {} passed, {} failed", sum.passed, sum.failed);
    assert_eq!(sum.failed, 0, "{} lit-test(s) failed (reports above)", sum.failed);
}
