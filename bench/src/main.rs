//! `iris-bench`: the V8 benchmark suite (Octane) with Iris and, in the same sitting, other
//! engines; prints each score, the geometric mean, the ratios and each run's peak memory.
//!
//! ```text
//!  for each round: for each benchmark: for each engine (interleaved, so drift hits all alike)
//!     script = print shim + base.js + <benchmark>.js + RunSuites(NotifyResult/Error/Score)
//!     ENGINE [ARGS] script ── stdout "Score: N" ─▶ score; wait4 ─▶ peak RSS
//! ```
//! A measuring tool, not a test: nothing fails on a time. A benchmark an engine cannot run is
//! reported as failed with the reason (its error, exit status or time limit), never hidden.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Duration;

use clap::Parser;
use iris_bench::measure;

/// The Octane benchmarks, in the suite's order.
const BENCHMARKS: [&str; 8] =
    ["richards", "deltablue", "crypto", "raytrace", "earley-boyer", "regexp", "splay", "navier-stokes"];

/// Runs the Octane benchmarks with Iris (and other engines given with --vs) and prints scores
/// (higher is better), their geometric mean, Iris's ratio to each other engine, and peak
/// resident memory per run.
#[derive(Parser, Debug)]
#[command(name = "iris-bench", version)]
struct Cli {
    /// Another engine to run in the same sitting: NAME=COMMAND, e.g. hermes=path/to/hermes or
    /// node=node; COMMAND may carry arguments ("hermes=path/to/hermes -O"). Repeatable.
    #[arg(long = "vs", value_name = "NAME=COMMAND")]
    vs: Vec<String>,

    /// The iris binary (default: the iris beside this executable, built first by cargo).
    #[arg(long, value_name = "PATH")]
    iris: Option<PathBuf>,

    /// Extra arguments for iris (e.g. --iris-arg=-O0), repeatable.
    #[arg(long = "iris-arg", allow_hyphen_values = true, value_name = "ARG")]
    iris_args: Vec<String>,

    /// Only these benchmarks (default: all eight), repeatable.
    #[arg(short, long = "bench", value_name = "NAME")]
    benches: Vec<String>,

    /// Rounds; each engine's best score per benchmark is reported.
    #[arg(short, long, default_value_t = 1)]
    rounds: usize,

    /// The Octane directory (default: ../shared/bench/octane beside the repository).
    #[arg(long, value_name = "DIR")]
    octane_dir: Option<PathBuf>,

    /// Time limit per run, seconds.
    #[arg(long, default_value_t = 600)]
    timeout: u64,

    /// Print every run's output lines as they finish.
    #[arg(short, long)]
    verbose: bool,
}

/// An engine to run.
#[derive(Clone, Debug)]
struct Engine {
    name: String,
    program: String,
    args: Vec<String>,
}

/// One run's outcome.
#[derive(Clone, Debug)]
enum Outcome {
    Score { score: f64, peak_rss_kb: u64, seconds: f64 },
    Failed(String),
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("bench lives in the workspace root").to_path_buf()
}

/// The iris beside this executable, built first (same profile) when run through cargo.
fn locate_iris() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this executable: {e}"))?;
    let dir = exe.parent().ok_or("executable without a directory")?.to_path_buf();
    if let Ok(cargo) = std::env::var("CARGO") {
        let profile = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let mut cmd = Command::new(cargo);
        cmd.current_dir(repo_root()).args(["build", "-p", "compiler", "--bin", "iris"]);
        match profile.as_str() {
            "debug" => {}
            "release" => {
                cmd.arg("--release");
            }
            p => {
                cmd.args(["--profile", p]);
            }
        }
        if let Some(t) = dir.parent() {
            cmd.env("CARGO_TARGET_DIR", t);
        }
        let st = cmd.status().map_err(|e| format!("cannot run cargo: {e}"))?;
        if !st.success() {
            return Err(format!("building iris failed ({st})"));
        }
        if profile == "debug" {
            eprintln!("warning: a debug build of iris; use `cargo run --release -p iris-bench` for real numbers");
        }
    }
    let iris = dir.join("iris");
    if iris.exists() {
        Ok(iris)
    } else {
        Err(format!(
            "{} not found: build it with `cargo build --release -p compiler --bin iris` or pass --iris",
            iris.display()
        ))
    }
}

/// The script for one benchmark: base.js, the benchmark and the lines that run it.
fn script(octane: &Path, bench: &str) -> Result<String, String> {
    let read = |f: &str| {
        std::fs::read_to_string(octane.join(f)).map_err(|e| format!("cannot read {}: {e}", octane.join(f).display()))
    };
    let mut s = String::from("if (typeof print === 'undefined') { globalThis.print = console.log; }\n");
    s.push_str(&read("base.js")?);
    s.push('\n');
    s.push_str(&read(&format!("{bench}.js"))?);
    s.push_str(
        "\nvar __bench_failed = false;\n\
         BenchmarkSuite.RunSuites({\n\
         \x20 NotifyResult: function (name, result) { print(name + ': ' + result); },\n\
         \x20 NotifyError: function (name, error) { __bench_failed = true; print(name + ': ERROR ' + error); },\n\
         \x20 NotifyScore: function (score) { if (!__bench_failed) print('Score: ' + score); }\n\
         });\n",
    );
    Ok(s)
}

/// Runs `engine` on `file`, measuring the child's peak RSS.
fn run(engine: &Engine, file: &Path, timeout: Duration) -> (Outcome, String) {
    let mut args = engine.args.clone();
    args.push(file.display().to_string());
    let m = match measure::run(&engine.program, &args, timeout) {
        Ok(m) => m,
        Err(e) => return (Outcome::Failed(e), String::new()),
    };
    let log = format!("{}{}", m.stdout, m.stderr);
    if m.timed_out {
        return (Outcome::Failed(format!("timed out after {}s", timeout.as_secs())), log);
    }
    if let Some(line) = m.stdout.lines().find(|l| l.contains(": ERROR ")) {
        return (Outcome::Failed(line.to_string()), log);
    }
    if !m.succeeded() {
        let first = m.stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
        return (Outcome::Failed(format!("{}: {first}", m.how())), log);
    }
    let score = m.stdout.lines().filter_map(|l| l.strip_prefix("Score: ")).find_map(|s| s.trim().parse::<f64>().ok());
    match score {
        Some(score) if score.is_finite() && score > 0.0 => {
            (Outcome::Score { score, peak_rss_kb: m.peak_rss_kb, seconds: m.seconds }, log)
        }
        _ => (Outcome::Failed("no score printed".to_string()), log),
    }
}

fn geomean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| (xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64).exp())
}

fn parse_engine(spec: &str) -> Result<Engine, String> {
    let (name, cmd) = spec.split_once('=').ok_or_else(|| format!("--vs wants NAME=COMMAND, got {spec:?}"))?;
    let mut words = cmd.split_whitespace().map(str::to_string);
    let program = words.next().ok_or_else(|| format!("--vs {name}= has no command"))?;
    Ok(Engine { name: name.trim().to_string(), program, args: words.collect() })
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let octane =
        cli.octane_dir.clone().unwrap_or_else(|| repo_root().join("..").join("shared").join("bench").join("octane"));
    if !octane.join("base.js").exists() {
        eprintln!("error: no Octane suite at {} (base.js missing); pass --octane-dir", octane.display());
        return ExitCode::from(2);
    }
    let iris = match cli.iris.clone().map(Ok).unwrap_or_else(locate_iris) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut engines =
        vec![Engine { name: "iris".into(), program: iris.display().to_string(), args: cli.iris_args.clone() }];
    for spec in &cli.vs {
        match parse_engine(spec) {
            Ok(e) => engines.push(e),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let benches: Vec<&str> = if cli.benches.is_empty() {
        BENCHMARKS.to_vec()
    } else {
        match cli
            .benches
            .iter()
            .map(|b| BENCHMARKS.iter().copied().find(|x| x == b).ok_or(b))
            .collect::<Result<Vec<_>, _>>()
        {
            Ok(v) => v,
            Err(b) => {
                eprintln!("error: unknown benchmark {b:?}; the suite has {}", BENCHMARKS.join(", "));
                return ExitCode::from(2);
            }
        }
    };
    let scratch = repo_root().join("target").join("bench");
    if let Err(e) = std::fs::create_dir_all(&scratch) {
        eprintln!("error: cannot create {}: {e}", scratch.display());
        return ExitCode::from(2);
    }
    let mut files = Vec::new();
    for b in &benches {
        let path = scratch.join(format!("{b}.js"));
        match script(&octane, b)
            .and_then(|s| std::fs::write(&path, s).map_err(|e| format!("cannot write {}: {e}", path.display())))
        {
            Ok(()) => files.push(path),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
    }
    // results[bench][engine]: the best outcome over the rounds.
    let mut results: Vec<Vec<Option<Outcome>>> = vec![vec![None; engines.len()]; benches.len()];
    let timeout = Duration::from_secs(cli.timeout);
    for round in 0..cli.rounds.max(1) {
        for (bi, b) in benches.iter().enumerate() {
            for (ei, e) in engines.iter().enumerate() {
                eprint!("round {}/{}: {b} with {} ... ", round + 1, cli.rounds.max(1), e.name);
                let (outcome, log) = run(e, &files[bi], timeout);
                match &outcome {
                    Outcome::Score { score, peak_rss_kb, seconds } => {
                        eprintln!("{score} ({seconds:.1}s, {} MiB peak)", peak_rss_kb / 1024)
                    }
                    Outcome::Failed(why) => eprintln!("FAILED: {why}"),
                }
                if cli.verbose {
                    for line in log.lines() {
                        eprintln!("    | {line}");
                    }
                }
                let slot = &mut results[bi][ei];
                let better = match (&slot, &outcome) {
                    (None, _) => true,
                    (Some(Outcome::Failed(_)), Outcome::Score { .. }) => true,
                    (Some(Outcome::Score { score: old, .. }), Outcome::Score { score: new, .. }) => new > old,
                    _ => false,
                };
                if better {
                    *slot = Some(outcome);
                }
            }
        }
    }
    print_table(&benches, &engines, &results);
    ExitCode::SUCCESS
}

fn print_table(benches: &[&str], engines: &[Engine], results: &[Vec<Option<Outcome>>]) {
    let score = |bi: usize, ei: usize| match &results[bi][ei] {
        Some(Outcome::Score { score, .. }) => Some(*score),
        _ => None,
    };
    let mut header = format!("{:<14}", "benchmark");
    for e in engines {
        header.push_str(&format!(" {:>12}", e.name));
    }
    for e in &engines[1..] {
        header.push_str(&format!(" {:>12}", format!("iris/{}", e.name)));
    }
    for e in engines {
        header.push_str(&format!(" {:>11}", format!("{} MiB", e.name)));
    }
    println!("\nOctane scores (higher is better), peak resident memory per run");
    println!("{header}");
    let mut failures = Vec::new();
    for (bi, b) in benches.iter().enumerate() {
        let mut row = format!("{b:<14}");
        for ei in 0..engines.len() {
            match &results[bi][ei] {
                Some(Outcome::Score { score, .. }) => row.push_str(&format!(" {score:>12.0}")),
                Some(Outcome::Failed(why)) => {
                    row.push_str(&format!(" {:>12}", "FAILED"));
                    failures.push(format!("{b} with {}: {why}", engines[ei].name));
                }
                None => row.push_str(&format!(" {:>12}", "-")),
            }
        }
        for ei in 1..engines.len() {
            match (score(bi, 0), score(bi, ei)) {
                (Some(a), Some(o)) => row.push_str(&format!(" {:>12.2}", a / o)),
                _ => row.push_str(&format!(" {:>12}", "-")),
            }
        }
        for r in &results[bi] {
            match r {
                Some(Outcome::Score { peak_rss_kb, .. }) => {
                    row.push_str(&format!(" {:>11.1}", *peak_rss_kb as f64 / 1024.0))
                }
                _ => row.push_str(&format!(" {:>11}", "-")),
            }
        }
        println!("{row}");
    }
    let mut row = format!("{:<14}", "geomean");
    for ei in 0..engines.len() {
        let xs: Vec<f64> = (0..benches.len()).filter_map(|bi| score(bi, ei)).collect();
        let cell = match geomean(&xs) {
            Some(g) if xs.len() == benches.len() => format!("{g:.0}"),
            Some(g) => format!("{g:.0}({}/{})", xs.len(), benches.len()),
            None => "-".to_string(),
        };
        row.push_str(&format!(" {cell:>12}"));
    }
    for ei in 1..engines.len() {
        // Ratio over the benchmarks both engines completed.
        let ratios: Vec<f64> = (0..benches.len()).filter_map(|bi| Some(score(bi, 0)? / score(bi, ei)?)).collect();
        row.push_str(&format!(" {:>12}", geomean(&ratios).map_or("-".to_string(), |g| format!("{g:.2}"))));
    }
    println!("{row}");
    if !failures.is_empty() {
        println!("\nfailed runs:");
        for f in failures {
            println!("  {f}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geomean_of_scores() {
        assert_eq!(geomean(&[]), None);
        assert!((geomean(&[4.0, 16.0]).unwrap() - 8.0).abs() < 1e-9);
    }

    #[test]
    fn engine_specs() {
        let e = parse_engine("hermes=/x/hermes -O").unwrap();
        assert_eq!(
            (e.name.as_str(), e.program.as_str(), e.args.clone()),
            ("hermes", "/x/hermes", vec!["-O".to_string()])
        );
        assert!(parse_engine("node").is_err());
        assert!(parse_engine("node=").is_err());
    }

    #[test]
    fn runs_a_benchmark_with_node_when_present() {
        // The runner end to end, with node standing in for an engine (skipped without node).
        if Command::new("node").arg("--version").output().is_err() {
            return;
        }
        let dir = std::env::temp_dir().join(format!("iris-bench-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let ok = dir.join("ok.js");
        std::fs::write(&ok, "print('Tiny: 42'); print('Score: 42');").unwrap();
        let node = Engine { name: "node".into(), program: "node".into(), args: vec!["-e".into(), "globalThis.print=console.log; require('vm').runInThisContext(require('fs').readFileSync(process.argv[1],'utf8'))".into()] };
        match run(&node, &ok, Duration::from_secs(60)).0 {
            Outcome::Score { score, peak_rss_kb, .. } => {
                assert_eq!(score, 42.0);
                assert!(peak_rss_kb > 1000, "node uses more than 1 MiB: {peak_rss_kb}");
            }
            o => panic!("{o:?}"),
        }
        let bad = dir.join("bad.js");
        std::fs::write(&bad, "print('Tiny: ERROR boom');").unwrap();
        assert!(matches!(run(&node, &bad, Duration::from_secs(60)).0, Outcome::Failed(w) if w.contains("boom")));
        let throws = dir.join("throws.js");
        std::fs::write(&throws, "throw new Error('x');").unwrap();
        assert!(
            matches!(run(&node, &throws, Duration::from_secs(60)).0, Outcome::Failed(w) if w.starts_with("exit status 1"))
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
