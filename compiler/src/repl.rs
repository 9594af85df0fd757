//! `iris repl`, and `iris` with no file on a terminal: read a line, evaluate it as a
//! script (its `let`, `const` and `class` declarations stay for the lines after it), run
//! the promise jobs it queued, print its completion value as node's REPL does.
//!
//! ```text
//!  rustyline line ─ incomplete (error at the end of the input)? ─ yes ─▶ "... " more lines
//!                                                                  no ─▶ Runtime::eval
//!  result ─ JsValue::inspect ─▶ stdout        uncaught ─▶ "Uncaught TypeError: ..."
//! ```
//! Ctrl-C clears the line being typed (twice on an empty line exits, as does Ctrl-D or
//! `.exit`) and stops a running evaluation; the history is kept in ~/.iris_repl_history.

use std::io::Write;

use compiler::driver::{self, CompileError, CompileOptions};
use host::Failure;
use rustyline::error::ReadlineError;
use vm::Runtime;

const HELP: &str = "\
.exit     Exit the REPL (also Ctrl-D, or Ctrl-C twice on an empty line)
.help     Print this help
.clear    Forget the lines typed so far of an unfinished input

Each input runs as a script: its let, const and class declarations stay for the next
inputs. An input that is not finished (an open bracket, a template literal, ...) goes on
on the next line. Ctrl-C stops an evaluation that runs on.";

/// Whether `source` failed to compile only because it ends too soon: an error at its end,
/// or one that says the end came (`got '<eof>'`, an unterminated template).
fn is_incomplete(source: &str, opts: &CompileOptions) -> bool {
    let Err(CompileError::Syntax(diags)) = driver::compile(source, "REPL", opts) else { return false };
    let text = source.trim_end();
    let last_line = text.lines().count().max(1) as u32;
    let end_col = text.lines().last().map_or(0, |l| l.encode_utf16().count()) as u32 + 1;
    diags.iter().any(|d| {
        d.message.contains("<eof>")
            || d.message.starts_with("Unterminated template")
            || d.line > last_line
            || (d.line == last_line && d.col >= end_col)
    })
}

/// What an uncaught exception prints: `Uncaught TypeError: message`, or the thrown value.
fn uncaught(e: &vm::JsError) -> String {
    let first = e.stack.lines().next().unwrap_or("");
    if !first.is_empty() {
        return format!("Uncaught {first}");
    }
    if e.name.is_empty() {
        format!("Uncaught {}", e.message)
    } else {
        format!("Uncaught {}: {}", e.name, e.message)
    }
}

/// Runs the REPL on `rt` (its compiler installed) until the user leaves.
pub fn run(rt: &mut Runtime, opts: &CompileOptions) -> Result<(), Failure> {
    let fail = |e: ReadlineError| Failure(format!("iris: the REPL cannot read its input: {e}"), 1);
    let mut editor = rustyline::DefaultEditor::new().map_err(fail)?;
    let history = std::env::var_os("HOME").map(|h| std::path::Path::new(&h).join(".iris_repl_history"));
    if let Some(h) = &history {
        let _ = editor.load_history(h);
    }
    println!("Welcome to Iris {}. Type \".help\" for more information.", env!("CARGO_PKG_VERSION"));
    let opts = CompileOptions { lower_here: false, ..opts.clone() };
    let mut input = String::new();
    let mut inputs = 0;
    let mut ctrl_c = false;
    loop {
        let line = match editor.readline(if input.is_empty() { "> " } else { "... " }) {
            Ok(line) => line,
            Err(ReadlineError::Interrupted) => {
                if !input.is_empty() {
                    input.clear();
                } else if ctrl_c {
                    break;
                } else {
                    println!("(To exit, press Ctrl+C again or Ctrl+D or type .exit)");
                    ctrl_c = true;
                }
                continue;
            }
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(fail(e)),
        };
        ctrl_c = false;
        if input.is_empty() {
            match line.trim() {
                "" => continue,
                ".exit" => break,
                ".help" => {
                    println!("{HELP}");
                    continue;
                }
                _ => {}
            }
        } else if line.trim() == ".clear" {
            input.clear();
            continue;
        }
        input.push_str(&line);
        input.push('\n');
        if is_incomplete(&input, &opts) {
            continue;
        }
        let _ = editor.add_history_entry(input.trim_end());
        inputs += 1;
        let result = rt.eval(&input, &format!("REPL{inputs}")).and_then(|v| rt.run_pending_jobs().map(|()| v));
        input.clear();
        match result {
            Ok(v) => {
                let text = v.inspect(rt);
                println!("{text}");
            }
            Err(e) => println!("{}", uncaught(&e)),
        }
        host::forget_sigints();
        let _ = std::io::stdout().flush();
    }
    if let Some(h) = &history {
        let _ = editor.save_history(h);
    }
    Ok(())
}
