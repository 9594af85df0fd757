//! `iris-stress`: large and hostile programs, generated at several sizes and run with a time
//! and a memory limit each, so that what once took Iris seconds, gigabytes or the whole
//! process does not come back.
//!
//! ```text
//!  for each program: for each size: write stress-<name>-<size>.js ─ iris FILE ─▶
//!     the output (or the error) it must give, within the program's time and memory limits
//! ```
//! A program passes when it ends the way it must: printing what node prints for it, or with
//! the JavaScript error it must raise (exit status 1, never a signal), inside its limits.
//! `--scaling` runs the size-linear programs at ten times the largest size too and prints how
//! the time grows; `--vs NAME=COMMAND` runs another engine on the same files for comparison
//! (reported, never judged).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use iris_bench::measure::{self, Measured};

/// Generates large and hostile JavaScript programs and runs each with Iris, under a time and
/// a memory limit; fails when one ends otherwise than it must.
#[derive(Parser, Debug)]
#[command(name = "iris-stress", version)]
struct Cli {
    /// The iris binary (default: the iris beside this executable).
    #[arg(long, value_name = "PATH")]
    iris: Option<PathBuf>,

    /// Another engine to run on the same files, for comparison only: NAME=COMMAND. Repeatable.
    #[arg(long = "vs", value_name = "NAME=COMMAND")]
    vs: Vec<String>,

    /// Only the programs whose names contain this, repeatable.
    #[arg(short, long = "only", value_name = "NAME")]
    only: Vec<String>,

    /// Also run each size-linear program at ten times its largest size and print how its
    /// time grows.
    #[arg(long)]
    scaling: bool,

    /// Where to write the programs (default: a directory under the system's temporary one).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// How a program must end.
#[derive(Clone, Debug)]
enum Expect {
    /// Exit status 0, printing exactly this (trailing whitespace aside).
    Prints(String),
    /// Exit status 1 with this text on stderr (the name of the error).
    Throws(&'static str),
}

/// One program at one size.
struct Case {
    name: &'static str,
    size: usize,
    make: fn(usize) -> (String, Expect),
    /// Seconds and MiB it may take.
    seconds: f64,
    mib: u64,
    /// Options for Iris before the file (the other engines do not run the program).
    iris_args: &'static [&'static str],
}

/// A family of programs: its sizes and how to make one.
struct Program {
    name: &'static str,
    /// Sizes run by default; the time grows about linearly with them.
    sizes: &'static [usize],
    linear: bool,
    seconds: f64,
    mib: u64,
    /// Options for Iris (a small heap limit, say); programs that have them are Iris's only.
    iris_args: &'static [&'static str],
    make: fn(usize) -> (String, Expect),
}

/// `s += i;` n times at the top level (a megabyte of statements at 100,000).
fn straight_line(n: usize) -> (String, Expect) {
    let mut s = String::from("var s = 0;\n");
    for i in 0..n {
        let _ = writeln!(s, "s += {i};");
    }
    s.push_str("console.log(s);\n");
    let sum = (n as u64) * (n as u64).saturating_sub(1) / 2;
    (s, Expect::Prints(sum.to_string()))
}

/// `var x = (a, a, ..., a)` with n operands.
fn comma(n: usize) -> (String, Expect) {
    let mut s = String::from("var a = 7;\nvar x = (a");
    for _ in 1..n {
        s.push_str(",a");
    }
    s.push_str(");\nconsole.log(x);\n");
    (s, Expect::Prints("7".into()))
}

/// A function whose `switch` has n cases.
fn switch(n: usize) -> (String, Expect) {
    let mut s = String::from("function f(x) {\n  switch (x) {\n");
    for i in 0..n {
        let _ = writeln!(s, "    case {i}: return {};", 2 * i);
    }
    s.push_str("  }\n  return -1;\n}\nvar t = 0;\nfor (var i = 0; i < 1000; i++) t += f(i);\n");
    let _ = writeln!(s, "console.log(t, f({}), f(-5));", n - 1);
    let t: u64 = (0..1000u64).map(|i| if (i as usize) < n { 2 * i } else { u64::MAX }).fold(0, |t, x| {
        if x == u64::MAX {
            t.wrapping_sub(1)
        } else {
            t + x
        }
    });
    (s, Expect::Prints(format!("{t} {} -1", 2 * (n - 1))))
}

/// An object literal with n properties.
fn object_literal(n: usize) -> (String, Expect) {
    let mut s = String::from("var o = {\n");
    for i in 0..n {
        let _ = writeln!(s, "  p{i}: {i},");
    }
    s.push_str("};\nvar k = Object.keys(o);\n");
    let _ = writeln!(s, "console.log(k.length, o.p{});", n - 1);
    (s, Expect::Prints(format!("{n} {}", n - 1)))
}

/// An array literal with n elements.
fn array_literal(n: usize) -> (String, Expect) {
    let mut s = String::from("var a = [");
    for i in 0..n {
        let _ = write!(s, "{},", i % 10);
    }
    s.push_str("];\nvar t = 0;\nfor (var i = 0; i < a.length; i++) t += a[i];\nconsole.log(a.length, t);\n");
    let t: usize = (0..n).map(|i| i % 10).sum();
    (s, Expect::Prints(format!("{n} {t}")))
}

/// n functions, each calling the one before.
fn many_functions(n: usize) -> (String, Expect) {
    let mut s = String::from("function f0(x) { return x + 1; }\n");
    for i in 1..n {
        let _ = writeln!(s, "function f{i}(x) {{ return f{}(x) + 1; }}", i - 1);
    }
    let _ = writeln!(s, "console.log(f{}(0));", n.min(2000) - 1);
    (s, Expect::Prints(n.min(2000).to_string()))
}

/// A loop that throws and catches n errors: garbage from the exception path is collected.
fn throw_loop(n: usize) -> (String, Expect) {
    let s = format!(
        "var c = 0;\nfor (var i = 0; i < {n}; i++) {{\n  try {{ throw new Error('x' + i); }} catch (e) {{ c++; }}\n}}\n\
         console.log(c);\n"
    );
    (s, Expect::Prints(n.to_string()))
}

/// `var x = ((...(1)...));` nested n deep: too deep for the compiler, a SyntaxError.
fn nested_parens(n: usize) -> (String, Expect) {
    let s = format!("var x = {}1{};\nconsole.log(x);\n", "(".repeat(n), ")".repeat(n));
    (s, Expect::Throws("SyntaxError"))
}

/// `var x = !!...!1;` with n `!`: a SyntaxError, not a parser that overflows its stack.
fn nested_unary(n: usize) -> (String, Expect) {
    (format!("var x = {}1;\nconsole.log(x);\n", "!".repeat(n)), Expect::Throws("SyntaxError"))
}

/// A loop that makes n arrays of 10,000 elements with `new Array` (a native allocating for
/// a loop that may be compiled): each is garbage by the next iteration.
fn construct_loop(n: usize) -> (String, Expect) {
    let s = format!("var a;\nfor (var i = 0; i < {n}; i++) a = new Array(10000);\nconsole.log(a.length);\n");
    (s, Expect::Prints("10000".into()))
}

/// A loop whose only way back is a throw caught in it, throwing n arrays of 10,000 elements.
fn throw_array_loop(n: usize) -> (String, Expect) {
    let s = format!(
        "var c = 0;\nfor (let i = 0; i < {n}; i++) {{ try {{ throw new Array(10000); }} catch (e) {{ c += e.length; }} }}\n\
         console.log(c);\n"
    );
    (s, Expect::Prints((n * 10000).to_string()))
}

/// forEach and indexOf over a sparse array-like of length n with two elements: probing each
/// index must not make a string for it.
fn sparse_array_like(n: usize) -> (String, Expect) {
    let s = format!(
        "var seen = [];\nArray.prototype.forEach.call({{ length: {n}, 7: 'x', {last}: 'y' }}, function (v, i) {{ seen.push(i + ':' + v); }});\n\
         console.log(seen.join(' '), Array.prototype.indexOf.call({{ length: {n}, {last}: 1 }}, 1));\n",
        last = n - 1
    );
    (s, Expect::Prints(format!("7:x {}:y {}", n - 1, n - 1)))
}

/// A Map that grows until the heap limit: its tables count, so the loop ends in a
/// RangeError the program catches (run with a small limit).
fn map_heap_limit(_: usize) -> (String, Expect) {
    let s = "try { const m = new Map(); for (let i = 0;; i++) m.set(i, 'v' + i); }\n\
             catch (e) { console.log(e.name); }\n";
    (s.into(), Expect::Prints("RangeError".into()))
}

/// A Map that n keys pass through (each set, then deleted): its tombstones are dropped.
fn map_churn(n: usize) -> (String, Expect) {
    let s = format!(
        "const m = new Map(), s = new Set();\n\
         for (let i = 0; i < {n}; i++) {{ m.set(i, 'v' + i); m.delete(i); s.add(i); s.delete(i); }}\n\
         console.log(m.size + s.size);\n"
    );
    (s, Expect::Prints("0".into()))
}

/// An object that gets properties until the heap limit: its property table counts.
fn properties_heap_limit(_: usize) -> (String, Expect) {
    let s = "try { const o = {}; for (let i = 0;; i++) o['k' + i] = i; }\n\
             catch (e) { console.log(e.name); }\n";
    (s.into(), Expect::Prints("RangeError".into()))
}

/// A global regexp replace over a string of n characters: no memory per match.
fn regexp_replace(n: usize) -> (String, Expect) {
    let s = format!("console.log('a'.repeat({n}).replace(/a/g, 'bb').length);\n");
    (s, Expect::Prints((2 * n).to_string()))
}

/// Array.from over an iterator of n elements: each step's result object is garbage.
fn array_from_iterator(n: usize) -> (String, Expect) {
    let s = format!("console.log(Array.from(new Array({n}).fill(1).values()).length);\n");
    (s, Expect::Prints(n.to_string()))
}

/// A chain of n binds: the names are ropes, not quadratic copies.
fn bind_chain(n: usize) -> (String, Expect) {
    let s = format!(
        "let f = function g() {{}};\nfor (let i = 0; i < {n}; i++) f = f.bind(null);\nconsole.log(f.name.length);\n"
    );
    (s, Expect::Prints((6 * n + 1).to_string()))
}

/// Builtins asked for strings past the maximum length throw before building them; a
/// replace grows its result one byte a unit and never past the maximum; escape (three units
/// for each control character) stops at the maximum.
fn string_too_long(_: usize) -> (String, Expect) {
    let s = "const big = 'x'.repeat(2 ** 28);\nconst out = [];\n\
             const makers = [() => String.raw({ raw: { length: 5 } }, big, big, big, big), () => [big, big, big].join(''),\n\
             () => 'a'.repeat(2 ** 20).replace(/a/g, '$&'.repeat(600)), () => escape('\\x01'.repeat(2 ** 28))];\n\
             for (const f of makers) { try { f(); out.push('made'); } catch (e) { out.push(e.name); } }\n\
             console.log(out.join(' '));\n";
    (s.into(), Expect::Prints("RangeError RangeError RangeError RangeError".into()))
}

/// JSON.stringify past the maximum string length throws as the text reaches it: a string
/// of control characters (six units each when escaped) and an array that shares its halves
/// thirty levels deep (2^30 strings of a thousand units from a few kilobytes of heap).
fn json_too_long(_: usize) -> (String, Expect) {
    let s = "const makers = [() => JSON.stringify('\\x01'.repeat(2 ** 27)),\n\
             () => { let a = ['x'.repeat(1000)]; for (let i = 0; i < 30; i++) a = [a, a]; return JSON.stringify(a); }];\n\
             const out = [];\n\
             for (const f of makers) { try { f(); out.push('made'); } catch (e) { out.push(e.name); } }\n\
             console.log(out.join(' '));\n";
    (s.into(), Expect::Prints("RangeError RangeError".into()))
}

/// `join` over n numbers: each element's string is garbage once copied, and the join
/// collects as it goes.
fn join_garbage(n: usize) -> (String, Expect) {
    let s = format!("console.log(new Array({n}).fill(1.5).join().length);\n");
    (s, Expect::Prints((4 * n - 1).to_string()))
}

/// A live heap of n records (tens of MiB: the collector marks it incrementally) that the
/// program rewrites while it is marked: new records into old arrays, old records moved
/// between slots, links both ways, Map and WeakMap entries; then every record is checked.
fn heap_rewritten_while_marked(n: usize) -> (String, Expect) {
    let s = format!(
        "var N = {n}, R = 3 * N, seed = 12345;\n\
         function next() {{ seed = (seed * 1103515245 + 12345) % 2147483648; return seed; }}\n\
         function make(id) {{ return {{ id: id, payload: [id, 'p' + id, {{ back: id }}], link: null }}; }}\n\
         var recs = new Array(N), m = new Map(), wm = new WeakMap();\n\
         for (var i = 0; i < N; i++) {{ recs[i] = make(i); m.set(i, recs[i].payload); wm.set(recs[i], i); }}\n\
         for (var round = 0; round < R; round++) {{\n\
           var i = next() % N, j = next() % N, k = next() % N;\n\
           var r = make(recs[i].id);\n\
           r.link = recs[j]; recs[k].link = r; recs[i] = r;\n\
           m.set(r.id, r.payload); wm.set(r, r.id);\n\
           var t = recs[j]; recs[j] = recs[k]; recs[k] = t;\n\
         }}\n\
         var good = 0;\n\
         for (var i = 0; i < N; i++) {{\n\
           var x = recs[i], p = x.payload, l = x.link;\n\
           if (p[0] === x.id && p[1] === 'p' + x.id && p[2].back === x.id && m.get(x.id) === p &&\n\
               wm.get(x) === x.id && (l === null || l.payload[0] === l.id)) good++;\n\
         }}\n\
         console.log(good === N && m.size === N ? 'ok' : 'bad ' + good);\n"
    );
    (s, Expect::Prints("ok".into()))
}

const PROGRAMS: &[Program] = &[
    Program {
        name: "straight-line",
        sizes: &[10_000, 100_000],
        linear: true,
        seconds: 5.0,
        mib: 250,
        iris_args: &[],
        make: straight_line,
    },
    Program {
        name: "comma",
        sizes: &[20_000, 200_000],
        linear: true,
        seconds: 5.0,
        mib: 150,
        iris_args: &[],
        make: comma,
    },
    Program {
        name: "switch",
        sizes: &[4_000, 40_000],
        linear: true,
        seconds: 5.0,
        mib: 150,
        iris_args: &[],
        make: switch,
    },
    Program {
        name: "object-literal",
        sizes: &[20_000, 200_000],
        linear: true,
        seconds: 5.0,
        mib: 400,
        iris_args: &[],
        make: object_literal,
    },
    Program {
        name: "array-literal",
        sizes: &[20_000, 200_000],
        linear: true,
        seconds: 5.0,
        mib: 400,
        iris_args: &[],
        make: array_literal,
    },
    Program {
        name: "many-functions",
        sizes: &[2_000, 20_000],
        linear: true,
        seconds: 5.0,
        mib: 400,
        iris_args: &[],
        make: many_functions,
    },
    Program {
        name: "nested-parens",
        sizes: &[10_000, 100_000],
        linear: false,
        seconds: 5.0,
        mib: 400,
        iris_args: &[],
        make: nested_parens,
    },
    Program {
        name: "nested-unary",
        sizes: &[1_000_000],
        linear: false,
        seconds: 5.0,
        mib: 400,
        iris_args: &[],
        make: nested_unary,
    },
    Program {
        name: "construct-loop",
        sizes: &[100_000],
        linear: false,
        seconds: 10.0,
        mib: 200,
        iris_args: &[],
        make: construct_loop,
    },
    Program {
        name: "throw-array-loop",
        sizes: &[100_000],
        linear: false,
        seconds: 10.0,
        mib: 200,
        iris_args: &[],
        make: throw_array_loop,
    },
    Program {
        name: "sparse-array-like",
        sizes: &[3_000_000],
        linear: false,
        seconds: 5.0,
        mib: 64,
        iris_args: &[],
        make: sparse_array_like,
    },
    Program {
        name: "throw-loop",
        sizes: &[1_000_000],
        linear: false,
        seconds: 10.0,
        mib: 400,
        iris_args: &[],
        make: throw_loop,
    },
    Program {
        name: "map-heap-limit",
        sizes: &[1],
        linear: false,
        seconds: 10.0,
        mib: 400,
        iris_args: &["--heap-limit", "64"],
        make: map_heap_limit,
    },
    Program {
        name: "map-churn",
        sizes: &[5_000_000],
        linear: false,
        seconds: 10.0,
        mib: 64,
        iris_args: &[],
        make: map_churn,
    },
    Program {
        name: "properties-heap-limit",
        sizes: &[1],
        linear: false,
        seconds: 10.0,
        mib: 400,
        iris_args: &["--heap-limit", "64"],
        make: properties_heap_limit,
    },
    Program {
        name: "regexp-replace",
        sizes: &[4_000_000],
        linear: false,
        seconds: 10.0,
        mib: 300,
        iris_args: &[],
        make: regexp_replace,
    },
    Program {
        name: "array-from-iterator",
        sizes: &[5_000_000],
        linear: false,
        seconds: 10.0,
        mib: 220,
        iris_args: &[],
        make: array_from_iterator,
    },
    Program {
        name: "join-garbage",
        sizes: &[10_000_000],
        linear: false,
        seconds: 10.0,
        mib: 400,
        iris_args: &[],
        make: join_garbage,
    },
    Program {
        name: "bind-chain",
        sizes: &[100_000],
        linear: false,
        seconds: 5.0,
        mib: 200,
        iris_args: &[],
        make: bind_chain,
    },
    Program {
        name: "rewritten-while-marked",
        sizes: &[100_000],
        linear: false,
        seconds: 20.0,
        mib: 400,
        iris_args: &[],
        make: heap_rewritten_while_marked,
    },
    Program {
        name: "string-too-long",
        sizes: &[1],
        linear: false,
        seconds: 20.0,
        mib: 2000,
        iris_args: &[],
        make: string_too_long,
    },
    Program {
        name: "json-too-long",
        sizes: &[1],
        linear: false,
        seconds: 20.0,
        mib: 2500,
        iris_args: &[],
        make: json_too_long,
    },
];

/// Whether `m` ended as `expect` says; why not otherwise.
fn judge(m: &Measured, expect: &Expect) -> Result<(), String> {
    let first_err = || m.stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim().to_string();
    match expect {
        Expect::Prints(want) => {
            if !m.succeeded() {
                return Err(format!("{}: {}", m.how(), first_err()));
            }
            let got = m.stdout.trim_end();
            if got != want {
                return Err(format!("printed {got:?}, not {want:?}"));
            }
        }
        Expect::Throws(name) => {
            if m.exit_code != Some(1) || !m.stderr.contains(name) {
                return Err(format!("{}, not a {name}: {}", m.how(), first_err()));
            }
        }
    }
    Ok(())
}

fn locate_iris() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this executable: {e}"))?;
    let iris = exe.with_file_name("iris");
    if iris.exists() {
        Ok(iris)
    } else {
        Err(format!(
            "{} not found: build it (cargo build --release -p compiler --bin iris) or pass --iris",
            iris.display()
        ))
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let iris = match cli.iris.clone().map(Ok).unwrap_or_else(locate_iris) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut others: Vec<(String, String, Vec<String>)> = Vec::new();
    for spec in &cli.vs {
        let Some((name, cmd)) = spec.split_once('=') else {
            eprintln!("error: --vs wants NAME=COMMAND, got {spec:?}");
            return ExitCode::from(2);
        };
        let mut words = cmd.split_whitespace().map(str::to_string);
        let Some(program) = words.next() else {
            eprintln!("error: --vs {name}= has no command");
            return ExitCode::from(2);
        };
        others.push((name.to_string(), program, words.collect()));
    }
    let dir =
        cli.dir.clone().unwrap_or_else(|| std::env::temp_dir().join(format!("iris-stress-{}", std::process::id())));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("error: cannot create {}: {e}", dir.display());
        return ExitCode::from(2);
    }

    let mut cases = Vec::new();
    for p in PROGRAMS {
        if !cli.only.is_empty() && !cli.only.iter().any(|o| p.name.contains(o.as_str())) {
            continue;
        }
        let mut sizes = p.sizes.to_vec();
        if cli.scaling && p.linear {
            sizes.push(10 * p.sizes[p.sizes.len() - 1]);
        }
        for size in sizes {
            // The larger sizes of --scaling get the limits scaled with them.
            let scale = (size / p.sizes[p.sizes.len() - 1]).max(1);
            cases.push(Case {
                name: p.name,
                size,
                make: p.make,
                seconds: p.seconds * scale as f64,
                mib: p.mib * scale as u64,
                iris_args: p.iris_args,
            });
        }
    }

    println!("{:<22} {:>9} {:>9} {:>9}  {:<8} others", "program", "size", "seconds", "MiB", "verdict");
    let mut failures = 0;
    let mut times: Vec<(&str, usize, f64)> = Vec::new();
    for case in &cases {
        let file = dir.join(format!("stress-{}-{}.js", case.name, case.size));
        // Made here and dropped before the runs: a child's peak resident memory counts
        // what this process holds when it starts one.
        let expect = {
            let (source, expect) = (case.make)(case.size);
            if let Err(e) = std::fs::write(&file, source) {
                eprintln!("error: cannot write {}: {e}", file.display());
                return ExitCode::from(2);
            }
            expect
        };
        let limit = Duration::from_secs_f64(case.seconds);
        let mut args: Vec<String> = case.iris_args.iter().map(|a| a.to_string()).collect();
        args.push(file.display().to_string());
        let verdict = match measure::run(&iris.display().to_string(), &args, limit) {
            Err(e) => Err((e, None)),
            Ok(m) => {
                let mib = m.peak_rss_kb as f64 / 1024.0;
                let judged = judge(&m, &expect).and_then(|()| {
                    if m.seconds > case.seconds {
                        Err(format!("took {:.2} s, over its {} s", m.seconds, case.seconds))
                    } else if mib > case.mib as f64 {
                        Err(format!("took {mib:.0} MiB, over its {} MiB", case.mib))
                    } else {
                        Ok(())
                    }
                });
                match judged {
                    Ok(()) => Ok(m),
                    Err(e) => Err((e, Some(m))),
                }
            }
        };
        let mut compare = String::new();
        for (name, program, extra) in others.iter().filter(|_| case.iris_args.is_empty()) {
            let mut a = extra.clone();
            a.push(file.display().to_string());
            match measure::run(program, &a, limit) {
                Ok(m) => {
                    let _ =
                        write!(compare, "{name} {:.2} s {:.0} MiB{}  ", m.seconds, m.peak_rss_kb as f64 / 1024.0, {
                            if judge(&m, &expect).is_ok() {
                                String::new()
                            } else {
                                format!(" ({})", m.how())
                            }
                        });
                }
                Err(e) => {
                    let _ = write!(compare, "{name}: {e}  ");
                }
            }
        }
        match verdict {
            Ok(m) => {
                println!(
                    "{:<22} {:>9} {:>9.2} {:>9.0}  {:<8} {compare}",
                    case.name,
                    case.size,
                    m.seconds,
                    m.peak_rss_kb as f64 / 1024.0,
                    "ok"
                );
                times.push((case.name, case.size, m.seconds));
            }
            Err((why, m)) => {
                failures += 1;
                let (secs, mib) = m.map_or((f64::NAN, f64::NAN), |m| (m.seconds, m.peak_rss_kb as f64 / 1024.0));
                println!("{:<22} {:>9} {:>9.2} {:>9.0}  {:<8} {compare}", case.name, case.size, secs, mib, "FAIL");
                println!("    {}: {why}", file.display());
            }
        }
    }
    if cli.scaling {
        println!("\ntime growth per tenfold size:");
        for w in times.windows(2) {
            let ((n0, s0, t0), (n1, s1, t1)) = (w[0], w[1]);
            if n0 == n1 {
                println!("  {n0:<16} {s0:>9} -> {s1:>9}: {:.1}x", t1 / t0.max(1e-3));
            }
        }
    }
    let _ = cleanup(&dir, cli.dir.is_none());
    if failures > 0 {
        println!("\n{failures} of {} programs failed", cases.len());
        ExitCode::from(1)
    } else {
        println!("\nall {} programs passed", cases.len());
        ExitCode::SUCCESS
    }
}

/// Removes the programs' directory when this run made it.
fn cleanup(dir: &Path, ours: bool) -> std::io::Result<()> {
    if ours {
        std::fs::remove_dir_all(dir)?;
    }
    Ok(())
}
