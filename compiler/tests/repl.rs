//! `iris repl` driven through a pseudo-terminal, as a person at a terminal uses it: each
//! line is typed once the prompt for it has appeared, and what the terminal shows (escape
//! sequences removed) is compared with what node's REPL shows for the same input.

#![cfg(unix)]

use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A pseudo-terminal: the master side (ours) and the slave side (the REPL's terminal).
fn openpty() -> (std::fs::File, OwnedFd) {
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty writes two descriptors; the name, termios and winsize are not asked for.
    let r = unsafe { libc::openpty(&mut master, &mut slave, std::ptr::null_mut(), std::ptr::null(), std::ptr::null()) };
    assert_eq!(r, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors are new and ours alone.
    unsafe { (std::fs::File::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) }
}

/// What the terminal showed, without escape sequences and carriage returns.
fn plain(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\x1b' => {
                // CSI: ESC [ parameters final-byte.
                if chars.peek() == Some(&'[') {
                    chars.next();
                    while let Some(&p) = chars.peek() {
                        chars.next();
                        if p.is_ascii_alphabetic() || p == '~' {
                            break;
                        }
                    }
                }
            }
            '\r' => {}
            _ => out.push(c),
        }
    }
    out
}

/// Whether `f` has something to read within `wait`.
fn readable(f: &std::fs::File, wait: Duration) -> bool {
    use std::os::fd::AsRawFd;
    let mut fds = libc::pollfd { fd: f.as_raw_fd(), events: libc::POLLIN, revents: 0 };
    // SAFETY: one pollfd, valid for the call.
    let n = unsafe { libc::poll(&mut fds, 1, wait.as_millis() as libc::c_int) };
    n > 0
}

/// Types each line of `input` into `iris repl` once its prompt is up; gives the screen.
fn session(input: &[&str]) -> String {
    let (mut master, slave) = openpty();
    let child_io = || Stdio::from(slave.try_clone().expect("dup the pty"));
    let home = std::env::temp_dir().join(format!("iris-repl-test-{}", std::process::id()));
    std::fs::create_dir_all(&home).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_iris"))
        .arg("repl")
        .env("HOME", &home)
        .env("TERM", "xterm")
        .stdin(child_io())
        .stdout(child_io())
        .stderr(child_io())
        .spawn()
        .expect("start iris repl");
    drop(slave);
    let mut screen = Vec::new();
    let mut buf = [0u8; 4096];
    let deadline = Instant::now() + Duration::from_secs(60);
    // A read returns what the REPL wrote so far; wait for a prompt that was not yet answered.
    let mut prompts_seen = 0;
    let mut lines = input.iter();
    let mut next = lines.next();
    while Instant::now() < deadline {
        if !readable(&master, Duration::from_millis(200)) {
            continue;
        }
        let n = match master.read(&mut buf) {
            Ok(0) | Err(_) => break, // the REPL exited (EIO once the slave side is closed)
            Ok(n) => n,
        };
        screen.extend_from_slice(&buf[..n]);
        let shown = plain(&screen);
        let prompts = shown.matches("\n> ").count() + shown.matches("\n... ").count();
        if prompts > prompts_seen && (shown.ends_with("> ") || shown.ends_with("... ")) {
            prompts_seen = prompts;
            match next {
                Some(line) => {
                    master.write_all(line.as_bytes()).unwrap();
                    master.write_all(b"\r").unwrap();
                    next = lines.next();
                }
                None => break,
            }
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&home);
    plain(&screen)
}

#[test]
fn a_session_prints_what_node_prints() {
    let screen = session(&[
        "let x = 20",
        "x + 22",
        "'str'",
        "({ a: [1, 2], s: 't' })",
        "function f() {",
        "  return x * 2",
        "}",
        "f()",
        "throw new TypeError('bad')",
        "Promise.resolve(5)",
        "`a",
        "b`",
        "const y = 1",
        "y",
        ".help",
        ".exit",
    ]);
    let expected = [
        "> let x = 20",
        "undefined",
        "> x + 22",
        "42",
        "> 'str'",
        "'str'",
        "> ({ a: [1, 2], s: 't' })",
        "{ a: [ 1, 2 ], s: 't' }",
        "> function f() {",
        "...   return x * 2",
        "... }",
        "undefined",
        "> f()",
        "40",
        "> throw new TypeError('bad')",
        "Uncaught TypeError: bad",
        "> Promise.resolve(5)",
        "Promise { 5 }",
        "> `a",
        "... b`",
        "'a\\nb'",
        "> const y = 1",
        "undefined",
        "> y",
        "1",
        "> .help",
        ".exit     Exit the REPL",
    ];
    let mut rest = screen.as_str();
    for want in expected {
        match rest.find(want) {
            Some(at) => rest = &rest[at + want.len()..],
            None => panic!("the REPL did not show {want:?} where expected; the screen:\n{screen}"),
        }
    }
}
