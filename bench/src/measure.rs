//! Running a command with a time limit and measuring its peak resident memory (wait4), for
//! `iris-bench` and `iris-stress`.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a finished (or killed) command did.
#[derive(Clone, Debug)]
pub struct Measured {
    /// Wall-clock seconds until it ended (or was killed).
    pub seconds: f64,
    /// Peak resident memory, KiB.
    pub peak_rss_kb: u64,
    /// It ran past the time limit and was killed.
    pub timed_out: bool,
    /// `Some(code)` when it exited, `None` when a signal ended it.
    pub exit_code: Option<i32>,
    /// The signal that ended it.
    pub signal: Option<i32>,
    /// What it printed.
    pub stdout: String,
    /// What it printed on stderr.
    pub stderr: String,
}

impl Measured {
    /// Exited with status 0.
    pub fn succeeded(&self) -> bool {
        !self.timed_out && self.exit_code == Some(0)
    }

    /// How it ended, for a report: "exit status 1", "killed by signal 6", "timed out".
    pub fn how(&self) -> String {
        match (self.timed_out, self.exit_code, self.signal) {
            (true, ..) => "timed out".to_string(),
            (_, Some(c), _) => format!("exit status {c}"),
            (_, None, Some(s)) => format!("killed by signal {s}"),
            _ => "ended".to_string(),
        }
    }
}

/// Runs `program args...` with stdin closed, killing it after `timeout`.
pub fn run(program: &str, args: &[String], timeout: Duration) -> Result<Measured, String> {
    let start = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {program}: {e}"))?;
    let mut out = child.stdout.take().expect("piped");
    let mut err = child.stderr.take().expect("piped");
    let out_t = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        String::from_utf8_lossy(&s).into_owned()
    });
    let err_t = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        String::from_utf8_lossy(&s).into_owned()
    });
    let pid = libc::pid_t::try_from(child.id()).map_err(|_| "child pid out of range".to_string())?;
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain old data; wait4 fills it in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut timed_out = false;
    loop {
        // SAFETY: pid is our own child, not yet reaped; status and usage are valid out-pointers.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            break;
        }
        if r < 0 {
            return Err(format!("wait4 failed: {}", std::io::Error::last_os_error()));
        }
        if start.elapsed() > timeout && !timed_out {
            timed_out = true;
            let _ = child.kill();
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let seconds = start.elapsed().as_secs_f64();
    let stdout = out_t.join().unwrap_or_default();
    let stderr = err_t.join().unwrap_or_default();
    let (exit_code, signal) = if libc::WIFEXITED(status) {
        (Some(libc::WEXITSTATUS(status)), None)
    } else if libc::WIFSIGNALED(status) {
        (None, Some(libc::WTERMSIG(status)))
    } else {
        (None, None)
    };
    Ok(Measured {
        seconds,
        // ru_maxrss is in KiB on Linux.
        peak_rss_kb: u64::try_from(usage.ru_maxrss).unwrap_or(0),
        timed_out,
        exit_code,
        signal,
        stdout,
        stderr,
    })
}
