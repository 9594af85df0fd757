//! `iris-mutate`: a campaign of random mutations of real bundles, each run by `iris` under a
//! time and a heap limit, to show that no bundle can hurt the process that loads it.
//!
//! ```text
//!  JS files ─ iris compile ─▶ bundles ─ mutate a few bytes, recompute the checksum ─▶
//!     iris --timeout --heap-limit BUNDLE ─▶ rejected │ ran │ anything else (a failure)
//! ```
//! The checksum is recomputed after each mutation, so every mutated bundle reaches the
//! verifier and, if it passes, the interpreter and the JIT. A mutated bundle must end in one
//! of two ways: **rejected** (the verifier's "invalid bundle" error, exit status 1) or **ran**
//! (exit status 0, an uncaught JavaScript error with status 1, or status 124 when `--timeout`
//! stopped it). Anything else (a signal, a panic's status 101, any other status, or still
//! running well after its own time limit) is a failure: the bundle is kept in the output
//! directory with a note of how it ended, and the campaign exits with status 1.
//!
//! Mutations are chosen from a seed and the mutation's number, so a failure's bundle can be
//! made again with `--seed S --first N --count 1`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use bytecode::bundle::format::{checksum, HEADER_SIZE, OFF_CHECKSUM, SECTION_COUNT};
use clap::Parser;
use iris_bench::measure;

/// Mutates real bundles (checksum recomputed) and runs each with Iris under limits; fails
/// when one ends otherwise than rejected or run safely.
#[derive(Parser, Debug)]
#[command(name = "iris-mutate", version)]
struct Cli {
    /// JavaScript files (or directories of them) to compile into the starting bundles.
    #[arg(required = true, value_name = "JS")]
    inputs: Vec<PathBuf>,

    /// The iris binary (default: the iris beside this executable).
    #[arg(long, value_name = "PATH")]
    iris: Option<PathBuf>,

    /// How many mutated bundles to run.
    #[arg(short = 'n', long, default_value_t = 1000)]
    count: u64,

    /// The number of the first mutation (with `--seed`, names a mutation exactly).
    #[arg(long, default_value_t = 0)]
    first: u64,

    /// The seed the mutations are drawn from.
    #[arg(long, default_value_t = 1)]
    seed: u64,

    /// Bundles run at once.
    #[arg(short = 'j', long, default_value_t = 2)]
    jobs: usize,

    /// Seconds each bundle may run (`iris --timeout`); one still running at three times
    /// this is killed and counted as a hang.
    #[arg(long, default_value_t = 2.0)]
    timeout: f64,

    /// MiB of heap each bundle may use (`iris --heap-limit`).
    #[arg(long, default_value_t = 256)]
    heap_limit: u64,

    /// More options for `iris` when it runs a mutated bundle (`--jit-threshold=0`, say).
    #[arg(long = "iris-arg", value_name = "ARG", allow_hyphen_values = true)]
    iris_args: Vec<String>,

    /// Where to write the starting bundles and keep the failing ones (default: a directory
    /// under the system's temporary one).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// How one mutated bundle ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Rejected,
    Ran,
    Failed,
}

/// splitmix64: a small, well-mixed generator; each mutation seeds its own.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The `(offset, size)` of each used section of a bundle, from its section table.
fn sections(bundle: &[u8]) -> Vec<(usize, usize)> {
    let table = HEADER_SIZE - 8 * SECTION_COUNT;
    let word = |at: usize| u32::from_le_bytes(bundle[at..at + 4].try_into().expect("4 bytes")) as usize;
    (0..SECTION_COUNT)
        .map(|i| (word(table + 8 * i), word(table + 8 * i + 4)))
        .filter(|&(offset, size)| size > 0 && offset + size <= bundle.len())
        .collect()
}

/// Values that sit on the edges of counts, indices and offsets.
const EDGES: [u32; 10] = [0, 1, 2, 0x7f, 0x80, 0xff, 0xffff, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff];

/// Mutates `bytes` (a valid bundle) in one to four places and recomputes the checksum.
/// Places are drawn from the header or a section chosen at random, so that the small
/// sections (function entries, info records, code) are hit as often as the large ones.
fn mutate(bytes: &mut [u8], rng: &mut Rng) {
    let mut regions = sections(bytes);
    regions.push((0, HEADER_SIZE));
    for _ in 0..1 + rng.below(4) {
        let (start, size) = regions[rng.below(regions.len())];
        let at = start + rng.below(size);
        match rng.below(6) {
            // One bit.
            0 => bytes[at] ^= 1 << rng.below(8),
            // One byte, anything.
            1 => bytes[at] = rng.next() as u8,
            // One byte, nudged (a LEB128 digit, an operand, an opcode next to the old one).
            2 => bytes[at] = bytes[at].wrapping_add(if rng.below(2) == 0 { 1 } else { 0xff }),
            // A 32-bit word (counts, offsets, sizes): an edge value or a random one.
            3 | 4 => {
                let at = (at & !3).min(bytes.len() - 4);
                let v = if rng.below(2) == 0 { EDGES[rng.below(EDGES.len())] } else { rng.next() as u32 };
                bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
            }
            // A run of bytes copied from elsewhere in the bundle.
            _ => {
                let len = 1 + rng.below(16.min(bytes.len() - at));
                let from = rng.below(bytes.len() - len + 1);
                bytes.copy_within(from..from + len, at);
            }
        }
    }
    let sum = checksum(bytes);
    bytes[OFF_CHECKSUM..OFF_CHECKSUM + 8].copy_from_slice(&sum.to_le_bytes());
}

/// The `.js` files named, directories searched (not recursively), in a stable order.
fn js_files(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let entries = std::fs::read_dir(input).map_err(|e| format!("{}: {e}", input.display()))?;
            let mut found: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "js"))
                .collect();
            found.sort();
            files.extend(found);
        } else {
            files.push(input.clone());
        }
    }
    Ok(files)
}

/// Compiles each file into a bundle in `dir`; the files that do not compile are left out.
fn compile_all(iris: &str, files: &[PathBuf], dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut bundles = Vec::new();
    for (i, file) in files.iter().enumerate() {
        let out = dir.join(format!("start-{i}.irb"));
        let args = vec!["compile".to_string(), file.display().to_string(), "-o".into(), out.display().to_string()];
        let compiled = measure::run(iris, &args, Duration::from_secs(120)).is_ok_and(|m| m.succeeded());
        match std::fs::read(&out) {
            Ok(bytes) if compiled && bytes.len() > HEADER_SIZE => bundles.push((file.display().to_string(), bytes)),
            _ => eprintln!("iris-mutate: {} does not compile; left out", file.display()),
        }
    }
    bundles
}

/// Runs one mutated bundle and says how it ended, with a description for a failure.
fn run_one(cli: &Cli, iris: &str, path: &Path) -> Result<(Outcome, String), String> {
    let mut args = vec![format!("--timeout={}", cli.timeout), format!("--heap-limit={}", cli.heap_limit)];
    args.extend(cli.iris_args.iter().cloned());
    args.push(path.display().to_string());
    let m = measure::run(iris, &args, Duration::from_secs_f64(cli.timeout * 3.0 + 5.0))?;
    let outcome = match (m.timed_out, m.exit_code) {
        (false, Some(1)) if m.stderr.contains("invalid bundle") => Outcome::Rejected,
        (false, Some(0 | 1 | 124)) => Outcome::Ran,
        _ => Outcome::Failed,
    };
    // What it said: a panic's message (before any backtrace), else its last lines.
    let lines: Vec<&str> = m.stderr.lines().collect();
    let said = match lines.iter().position(|l| l.contains("panicked at")) {
        Some(i) => &lines[i..lines.len().min(i + 2)],
        None => &lines[lines.len().saturating_sub(3)..],
    };
    Ok((outcome, format!("{}: {}", m.how(), said.join(" / "))))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let iris = match &cli.iris {
        Some(p) => p.clone(),
        None => match std::env::current_exe() {
            Ok(exe) => exe.with_file_name("iris"),
            Err(e) => {
                eprintln!("iris-mutate: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let iris = iris.display().to_string();
    let dir =
        cli.dir.clone().unwrap_or_else(|| std::env::temp_dir().join(format!("iris-mutate-{}", std::process::id())));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("iris-mutate: {}: {e}", dir.display());
        return ExitCode::from(2);
    }
    let files = match js_files(&cli.inputs) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("iris-mutate: {e}");
            return ExitCode::from(2);
        }
    };
    let bundles = compile_all(&iris, &files, &dir);
    if bundles.is_empty() {
        eprintln!("iris-mutate: no bundle to mutate");
        return ExitCode::from(2);
    }
    println!("iris-mutate: {} mutations of {} bundles, seed {}", cli.count, bundles.len(), cli.seed);

    let next = AtomicU64::new(cli.first);
    let counts = [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)];
    let failures = Mutex::new(Vec::new());
    let errors = Mutex::new(Vec::new());
    let start = Instant::now();
    let end = cli.first + cli.count;
    std::thread::scope(|s| {
        for job in 0..cli.jobs.max(1) {
            let (cli, iris, dir, bundles) = (&cli, &iris, &dir, &bundles);
            let (next, counts, failures, errors) = (&next, &counts, &failures, &errors);
            s.spawn(move || {
                let path = dir.join(format!("job-{job}.irb"));
                loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    if n >= end {
                        break;
                    }
                    let mut rng = Rng(cli.seed.wrapping_mul(0x1000_0000_01b3) ^ n);
                    let (source, original) = &bundles[rng.below(bundles.len())];
                    let mut bytes = original.clone();
                    mutate(&mut bytes, &mut rng);
                    let ran = std::fs::write(&path, &bytes)
                        .map_err(|e| format!("{}: {e}", path.display()))
                        .and_then(|()| run_one(cli, iris, &path));
                    let (outcome, how) = match ran {
                        Ok(r) => r,
                        Err(e) => {
                            errors.lock().expect("not poisoned").push(e);
                            break;
                        }
                    };
                    counts[outcome as usize].fetch_add(1, Ordering::Relaxed);
                    if outcome == Outcome::Failed {
                        let kept = dir.join(format!("failed-{n}.irb"));
                        let _ = std::fs::write(&kept, &bytes);
                        let note = format!("mutation {n} of {source} ({}): {how}", kept.display());
                        eprintln!("iris-mutate: FAILED {note}");
                        failures.lock().expect("not poisoned").push(note);
                    }
                    let done = n + 1 - cli.first;
                    if done % 10_000 == 0 {
                        eprintln!("iris-mutate: {done} run ({:.0} s)", start.elapsed().as_secs_f64());
                    }
                }
                let _ = std::fs::remove_file(&path);
            });
        }
    });
    let errors = errors.into_inner().expect("not poisoned");
    if let Some(e) = errors.first() {
        eprintln!("iris-mutate: {e}");
        return ExitCode::from(2);
    }
    let [rejected, ran, failed] = counts.map(|c| c.into_inner());
    println!(
        "iris-mutate: {} mutated bundles in {:.0} s: {rejected} rejected, {ran} ran safely, {failed} failed",
        rejected + ran + failed,
        start.elapsed().as_secs_f64()
    );
    if failed > 0 {
        for note in failures.into_inner().expect("not poisoned") {
            println!("  {note}");
        }
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
