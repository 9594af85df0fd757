//! The supervisor: runs the jobs in a worker child process (this same executable with
//! `--worker`) and survives what a test can do to a process.
//!
//! Tests run in process, in parallel, inside the worker; the supervisor exists so that a test
//! that kills its process (a stack overflow in native code, an abort, a runaway allocation) or
//! hangs where no interrupt check reaches costs only that test:
//! ```text
//!  jobs ─▶ worker child ─ S/D lines ─▶ results
//!            │ dies or hangs
//!            ▼
//!  the tests it had started run again one at a time in fresh children: the one that kills its
//!  child again is reported as crashed (with the child's last stderr lines); the jobs never
//!  started go to a new child
//! ```

use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::worker::{self, JobSpec};

/// How to start a worker.
#[derive(Clone, Debug)]
pub struct SupervisorConfig {
    /// The executable (normally `current_exe()`).
    pub exe: PathBuf,
    /// Arguments common to every worker (test262 dir, timeout, heap limit, ...).
    pub worker_args: Vec<String>,
    /// Threads in a normal worker.
    pub threads: usize,
    /// A test running longer than this is considered hung: its worker is killed.
    pub hard_limit: Duration,
    /// Where jobs files go.
    pub scratch: PathBuf,
}

/// What happened to one worker child.
struct ChildRun {
    /// Jobs started and not finished when the child ended.
    in_flight: Vec<usize>,
    /// Jobs killed for running past the hard limit.
    hung: Vec<usize>,
    /// How the child ended, when it did not finish its jobs normally.
    death: Option<String>,
}

fn kill(child: &mut Child) {
    let _ = child.kill();
}

/// Runs one worker child over `jobs`, calling `report(idx, passed, reason)` per finished job.
fn run_child(
    cfg: &SupervisorConfig,
    jobs: &[JobSpec],
    threads: usize,
    report: &mut dyn FnMut(usize, bool, String),
) -> Result<ChildRun, String> {
    std::fs::create_dir_all(&cfg.scratch).map_err(|e| format!("cannot create {}: {e}", cfg.scratch.display()))?;
    let jobs_file = cfg.scratch.join(format!("jobs-{}.txt", std::process::id()));
    worker::write_jobs(&jobs_file, jobs).map_err(|e| format!("cannot write {}: {e}", jobs_file.display()))?;
    let mut child = Command::new(&cfg.exe)
        .arg("--worker")
        .arg("--jobs-file")
        .arg(&jobs_file)
        .arg("--threads")
        .arg(threads.to_string())
        .args(&cfg.worker_args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the worker {}: {e}", cfg.exe.display()))?;
    let stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let (tx, rx) = mpsc::channel::<String>();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let err_reader = std::thread::spawn(move || {
        // Keep the tail: it explains a crash.
        let mut all = Vec::new();
        let _ = stderr.read_to_end(&mut all);
        let text = String::from_utf8_lossy(&all).into_owned();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(12)..].join("\n")
    });
    let mut started: HashMap<usize, Instant> = HashMap::new();
    let mut done = 0usize;
    let mut hung = Vec::new();
    loop {
        match rx.recv_timeout(Duration::from_millis(500)) {
            Ok(line) => {
                let mut parts = line.splitn(4, '\t');
                match (parts.next(), parts.next().and_then(|s| s.parse::<usize>().ok())) {
                    (Some("S"), Some(idx)) => {
                        started.insert(idx, Instant::now());
                    }
                    (Some("D"), Some(idx)) => {
                        let passed = parts.next() == Some("P");
                        let reason = worker::unescape(parts.next().unwrap_or(""));
                        started.remove(&idx);
                        done += 1;
                        report(idx, passed, reason);
                    }
                    // Anything else on stdout (stray output from native code) is not protocol.
                    _ => {}
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let now = Instant::now();
                let overdue: Vec<usize> =
                    started.iter().filter(|(_, t)| now.duration_since(**t) > cfg.hard_limit).map(|(i, _)| *i).collect();
                if !overdue.is_empty() {
                    kill(&mut child);
                    for i in &overdue {
                        started.remove(i);
                    }
                    hung = overdue;
                    break;
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    let status = child.wait().map_err(|e| format!("cannot wait for the worker: {e}"))?;
    let _ = reader.join();
    let tail = err_reader.join().unwrap_or_default();
    let _ = std::fs::remove_file(&jobs_file);
    let finished_all = done + hung.len() == jobs.len() && started.is_empty();
    let death = if finished_all && hung.is_empty() {
        None
    } else if !hung.is_empty() {
        Some("killed: past the hard time limit".to_string())
    } else {
        Some(format!("worker died ({status}){}", if tail.is_empty() { String::new() } else { format!(": {tail}") }))
    };
    let mut in_flight: Vec<usize> = started.into_keys().collect();
    in_flight.sort();
    Ok(ChildRun { in_flight, hung, death })
}

/// Runs every job, calling `report(idx, passed, reason)` exactly once per job.
pub fn run_all(
    cfg: &SupervisorConfig,
    jobs: &[JobSpec],
    report: &mut dyn FnMut(usize, bool, String),
) -> Result<(), String> {
    let by_idx: HashMap<usize, &JobSpec> = jobs.iter().map(|j| (j.idx, j)).collect();
    let mut reported: std::collections::HashSet<usize> = std::collections::HashSet::new();
    let mut pending: VecDeque<JobSpec> = jobs.iter().cloned().collect();
    while !pending.is_empty() {
        let batch: Vec<JobSpec> = pending.drain(..).collect();
        let before = reported.len();
        let run = {
            let mut rep = |idx: usize, passed: bool, reason: String| {
                if reported.insert(idx) {
                    report(idx, passed, reason);
                }
            };
            run_child(cfg, &batch, cfg.threads, &mut rep)?
        };
        for idx in &run.hung {
            if reported.insert(*idx) {
                report(
                    *idx,
                    false,
                    format!(
                        "timeout: still running after {:?}; the interrupt did not stop it, the worker was killed",
                        cfg.hard_limit
                    ),
                );
            }
        }
        let death = run.death.clone().unwrap_or_default();
        if run.death.is_some() && reported.len() == before && run.in_flight.is_empty() && run.hung.is_empty() {
            // The worker died before starting anything: retrying would fail the same way.
            for j in &batch {
                reported.insert(j.idx);
                report(j.idx, false, format!("the worker could not run: {death}"));
            }
            break;
        }
        if run.in_flight.len() == 1 && run.hung.is_empty() {
            let idx = run.in_flight[0];
            if reported.insert(idx) {
                report(idx, false, format!("crash: {death}"));
            }
        } else {
            // Several tests were running: find the culprit by running each alone.
            for idx in &run.in_flight {
                if reported.contains(idx) {
                    continue;
                }
                let job = by_idx[idx].clone();
                let solo = {
                    let mut rep = |i: usize, passed: bool, reason: String| {
                        if reported.insert(i) {
                            report(i, passed, reason);
                        }
                    };
                    run_child(cfg, std::slice::from_ref(&job), 1, &mut rep)?
                };
                for h in &solo.hung {
                    if reported.insert(*h) {
                        report(*h, false, format!("timeout: still running after {:?}; the interrupt did not stop it, the worker was killed", cfg.hard_limit));
                    }
                }
                if !reported.contains(idx) {
                    reported.insert(*idx);
                    report(
                        *idx,
                        false,
                        format!("crash: {}", solo.death.unwrap_or_else(|| "worker ended without a result".into())),
                    );
                }
            }
        }
        pending = batch.into_iter().filter(|j| !reported.contains(&j.idx)).collect();
        if run.death.is_none() && !pending.is_empty() {
            // A clean exit that left jobs undone would loop forever.
            for j in pending.drain(..) {
                reported.insert(j.idx);
                report(j.idx, false, "the worker exited without running this test".into());
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discover::Mode;
    use std::os::unix::fs::PermissionsExt;

    /// A stand-in worker speaking the protocol: "crash" kills its process, "hang" never ends,
    /// anything else passes ("bad" fails).
    const FAKE_WORKER: &str = r#"#!/bin/bash
jobs="$3"
while IFS=$'\t' read -r idx path mode; do
  printf 'S\t%s\n' "$idx"
  case "$path" in
    *crash*) echo "fatal runtime error: stack overflow" >&2; kill -ABRT $$ ;;
    *hang*) exec sleep 60 ;;
    *bad*) printf 'D\t%s\tF\tTest262Error: line\\nnext\n' "$idx" ;;
    *) printf 'D\t%s\tP\t\n' "$idx" ;;
  esac
done < "$jobs"
"#;

    #[test]
    fn crashes_and_hangs_cost_one_test() {
        let dir = std::env::temp_dir().join(format!("t262-sup-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let exe = dir.join("fake-worker.sh");
        std::fs::write(&exe, FAKE_WORKER).unwrap();
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        let names = ["a.js", "crash.js", "b.js", "bad.js", "hang.js", "c.js"];
        let jobs: Vec<JobSpec> = names
            .iter()
            .enumerate()
            .map(|(i, n)| JobSpec { idx: i, path: n.to_string(), mode: Mode::Sloppy })
            .collect();
        let cfg = SupervisorConfig {
            exe,
            worker_args: vec![],
            threads: 1,
            hard_limit: Duration::from_secs(1),
            scratch: dir.clone(),
        };
        let mut got: HashMap<usize, (bool, String)> = HashMap::new();
        run_all(&cfg, &jobs, &mut |i, p, r| {
            assert!(got.insert(i, (p, r)).is_none(), "job {i} reported twice");
        })
        .unwrap();
        assert_eq!(got.len(), names.len());
        for (i, n) in names.iter().enumerate() {
            let (passed, reason) = &got[&i];
            match *n {
                "crash.js" => {
                    assert!(!passed && reason.starts_with("crash:") && reason.contains("stack overflow"), "{reason}")
                }
                "hang.js" => assert!(!passed && reason.starts_with("timeout"), "{reason}"),
                "bad.js" => assert_eq!((*passed, reason.as_str()), (false, "Test262Error: line\nnext")),
                _ => assert!(passed, "{n}: {reason}"),
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
