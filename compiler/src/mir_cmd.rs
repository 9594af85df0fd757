//! `iris mir`: a native-tier MIR function from a file through the verifier and the passes,
//! printed as MIR, as Cranelift IR, as disassembled machine code, or compiled and run.
//!
//! ```text
//!  FILE ─ parse ─ verify ─ passes ─┬─▶ MIR text (default)
//!                                  ├─▶ --clif: Cranelift IR for --target
//!                                  ├─▶ --disasm: machine code for --target, through objdump
//!                                  └─▶ --run ARGS: machine code for this machine, run in a
//!                                       child process (a crash is reported, not suffered)
//! ```

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use native::lower::{self, Target};
use native::mir::{parse, verify, Function, Type};
use native::Callee;
use vm::runtime_interface;
use vm::{Runtime, RuntimeOptions};

/// What `iris mir` was asked for.
pub struct MirRequest<'a> {
    pub file: &'a Path,
    pub passes: &'a [String],
    pub clif: bool,
    pub disasm: bool,
    pub target: Option<&'a str>,
    pub run: Option<&'a str>,
    /// Time the compile (and the call, with `run`): the fastest of this many repetitions.
    pub time: Option<u32>,
}

/// The environment variable that makes `iris mir --run` run the code in this process (set
/// for the child the command starts).
const CHILD: &str = "IRIS_MIR_RUN_CHILD";

/// The registers a function may name under `--run`.
const WINDOW: usize = 256;

/// The registers `--run` allocates: windows for a chain of calls (each callee's starts
/// above its caller's). A chain deeper than they allow writes beyond them, which the child
/// process running the code does not survive.
const REGS: usize = 1 << 16;

/// Runs the request; the text to print, or an error message. A file may hold several
/// functions (a module): each goes through the verifier and the passes, they are printed
/// or compiled in order, and `--run` calls the first, which may `call` the others.
pub fn mir(req: &MirRequest) -> Result<String, String> {
    let name = req.file.display();
    let text = std::fs::read_to_string(req.file).map_err(|e| format!("iris: cannot read {name}: {e}"))?;
    let mut module = parse::parse_module(&text).map_err(|e| format!("{name}:{e}"))?;
    let mut errors = Vec::new();
    for f in &module {
        let within = if module.len() > 1 { format!("%{}: ", f.name) } else { String::new() };
        if let Err(es) = verify::verify(f) {
            errors.extend(es.iter().map(|e| format!("{name}: verifier: {within}{e}")));
        }
    }
    if !errors.is_empty() {
        return Err(errors.join("\n"));
    }
    let names: Vec<&str> = req.passes.iter().map(String::as_str).collect();
    let original = module[0].clone();
    if !names.is_empty() {
        for f in &mut module {
            native::passes::run(f, &names, true).map_err(|e| format!("{name}: {e}"))?;
        }
    }
    if req.run.is_none() && req.time.is_none() && !req.clif && !req.disasm {
        let texts: Vec<String> = module.iter().map(|f| f.to_string()).collect();
        return Ok(texts.join("\n"));
    }
    let callees = callees(&module).map_err(|e| format!("{name}: {e}"))?;
    let target = match req.target {
        Some(t) => Target::from_name(t).ok_or_else(|| format!("iris: unknown target '{t}' (x86_64, aarch64)"))?,
        None => Target::host().ok_or("iris: the native tier does not support this machine")?,
    };
    if let Some(args) = req.run {
        if Some(target) != Target::host() {
            return Err(format!("iris: --run runs on this machine, not {}", target.name()));
        }
        if std::env::var_os(CHILD).is_none() {
            return run_in_child(req.file, args, req.time);
        }
        let mut out = run_here(&module, &callees, args, req.time)?;
        if let Some(n) = req.time {
            out.push_str(&time_compile(&original, &names, target, &callees, n)?);
        }
        return Ok(out);
    }
    if let Some(n) = req.time {
        return time_compile(&original, &names, target, &callees, n);
    }
    {
        let mut out = String::new();
        for f in &module {
            let vm = runtime_interface::interface();
            if module.len() > 1 && req.disasm {
                let _ = writeln!(out, "%{}:", f.name);
            }
            if req.clif {
                out.push_str(&lower::clif(f, target, vm, &callees).map_err(|e| format!("{name}: {e}"))?);
            } else {
                let compiled = lower::compile(f, target, vm, &callees).map_err(|e| format!("{name}: {e}"))?;
                out.push_str(&disassemble(&compiled.code, target)?);
            }
        }
        Ok(out)
    }
}

/// The functions of a module that a `call` may reach, in the order of the context's table;
/// an error when a call names a function that is not there or cannot be called (a callee
/// takes and returns values).
fn callees(module: &[Function]) -> Result<Vec<Callee>, String> {
    let list: Vec<Callee> = module
        .iter()
        .map(|f| Callee { name: f.name.clone(), arity: f.entry().map_or(0, |b| f.block(b).params.len()) })
        .collect();
    for f in module {
        for &b in &f.layout {
            for inst in &f.block(b).insts {
                let native::mir::Op::Call(callee, _) = &inst.op else { continue };
                let Some(g) = module.iter().find(|g| &g.name == callee) else {
                    return Err(format!("%{} calls %{callee}, which the file does not define", f.name));
                };
                let params = g.entry().map_or(Vec::new(), |e| g.block(e).params.clone());
                if g.ret != Some(Type::Value) || params.iter().any(|&p| g.ty(p) != Type::Value) {
                    return Err(format!("%{callee} is called, so it must take and return values"));
                }
            }
        }
    }
    Ok(list)
}

/// Runs `iris mir --run` again in a child process and relays its output, so that code that
/// addresses memory it was not given takes down the child only.
fn run_in_child(file: &Path, args: &str, time: Option<u32>) -> Result<String, String> {
    let exe = std::env::current_exe().map_err(|e| format!("iris: cannot find its own executable: {e}"))?;
    let mut cmd = Command::new(exe);
    cmd.arg("mir").arg("--run").arg(args).arg(file).env(CHILD, "1");
    if let Some(n) = time {
        cmd.arg("--time").arg(n.to_string());
    }
    // The passes were applied in this process; the child repeats them from the arguments.
    let outer: Vec<String> = std::env::args().collect();
    let mut it = outer.iter();
    while let Some(a) = it.next() {
        if a == "--pass" {
            if let Some(p) = it.next() {
                cmd.arg("--pass").arg(p);
            }
        } else if let Some(p) = a.strip_prefix("--pass=") {
            cmd.arg("--pass").arg(p);
        }
    }
    let out = cmd.output().map_err(|e| format!("iris: cannot start the run: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if out.status.success() {
        return Ok(stdout);
    }
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    use std::os::unix::process::ExitStatusExt;
    match out.status.signal() {
        Some(sig) => Err(format!("{}: the compiled code crashed (signal {sig})", file.display())),
        None => Err(stderr.trim_end().to_string()),
    }
}

/// A buffer given to a `ptr` parameter.
struct Buffer {
    elem: Type,
    data: Vec<u64>,
    len: usize,
}

/// One `--run` argument for a parameter of type `ty`
/// (a `value` is a JavaScript expression, evaluated in `rt`).
fn parse_arg(text: &str, ty: Type, rt: &mut Runtime) -> Result<(u64, Option<Buffer>), String> {
    let bad = || format!("iris: '{text}' is not a {} argument", ty.name());
    Ok(match ty {
        Type::I32 => (text.parse::<i32>().map_err(|_| bad())? as u32 as u64, None),
        Type::I64 => (text.parse::<i64>().map_err(|_| bad())? as u64, None),
        Type::F64 => (text.parse::<f64>().map_err(|_| bad())?.to_bits(), None),
        Type::Value => {
            let bits = runtime_interface::evaluate(rt, text)
                .map_err(|e| format!("iris: the argument '{text}' did not evaluate: {e}"))?;
            (bits, None)
        }
        Type::Ptr => {
            // i32[1,2,3] or f64[0.5,2]: a buffer of those elements.
            let (elem, rest) = if let Some(r) = text.strip_prefix("i32[") {
                (Type::I32, r)
            } else if let Some(r) = text.strip_prefix("f64[") {
                (Type::F64, r)
            } else {
                return Err(format!("iris: a ptr argument is a buffer such as i32[1,2,3] or f64[0.5], not '{text}'"));
            };
            let body = rest.strip_suffix(']').ok_or_else(bad)?;
            let items: Vec<&str> = body.split(';').map(str::trim).filter(|s| !s.is_empty()).collect();
            let mut data = vec![0u64; items.len().max(1)];
            // SAFETY: viewing the u64 storage as bytes (u64 has no padding, and u8 any
            // alignment); the length is the storage's size in bytes.
            let bytes = unsafe { std::slice::from_raw_parts_mut(data.as_mut_ptr() as *mut u8, data.len() * 8) };
            for (i, item) in items.iter().enumerate() {
                match elem {
                    Type::I32 => {
                        let n = item.parse::<i32>().map_err(|_| bad())?;
                        bytes[4 * i..4 * i + 4].copy_from_slice(&n.to_ne_bytes());
                    }
                    _ => {
                        let n = item.parse::<f64>().map_err(|_| bad())?;
                        bytes[8 * i..8 * i + 8].copy_from_slice(&n.to_ne_bytes());
                    }
                }
            }
            (0, Some(Buffer { elem, data, len: items.len() }))
        }
    })
}

/// A value the code produced, as node's `util.inspect` shows it.
fn show_value(bits: u64, rt: &mut Runtime) -> String {
    // SAFETY: the code produced `bits` from the operands (rooted by `evaluate`), constants
    // and helper results; nothing collected since the helpers returned (the code ended).
    unsafe { runtime_interface::display(rt, bits) }
}

/// Splits `--run` arguments at the commas outside brackets and quotes.
fn split_args(text: &str) -> Vec<&str> {
    let (mut depth, mut quote, mut start) = (0i32, None, 0);
    let mut out = Vec::new();
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match (quote, c) {
            (Some(_), '\\') => {
                chars.next();
            }
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, ',') if depth == 0 => {
                out.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(text[start..].trim());
    out.retain(|s| !s.is_empty());
    out
}

fn show_buffer(b: &Buffer) -> String {
    // SAFETY: as in parse_arg: the u64 storage viewed as bytes.
    let bytes = unsafe { std::slice::from_raw_parts(b.data.as_ptr() as *const u8, b.data.len() * 8) };
    let items: Vec<String> = (0..b.len)
        .map(|i| match b.elem {
            Type::I32 => i32::from_ne_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap_or_default()).to_string(),
            _ => format!("{:?}", f64::from_ne_bytes(bytes[8 * i..8 * i + 8].try_into().unwrap_or_default())),
        })
        .collect();
    format!("{}[{}]", b.elem.name(), items.join("; "))
}

/// Compiles `f` for this machine and calls it with `args` (comma separated, one per entry
/// parameter; buffers separate their elements with ';'), in a runtime whose helpers the
/// code may call.
fn run_here(module: &[Function], callees: &[Callee], args: &str, time: Option<u32>) -> Result<String, String> {
    let f = &module[0];
    let vm = runtime_interface::interface();
    let mut rt = Runtime::new(RuntimeOptions::default());
    rt.set_compiler(crate::driver::compile_hook(crate::driver::CompileOptions::default()));
    let target = Target::host().ok_or("iris: the native tier does not support this machine")?;
    let params: Vec<Type> = match f.entry() {
        Some(b) => f.block(b).params.iter().map(|&p| f.ty(p)).collect(),
        None => Vec::new(),
    };
    let texts = split_args(args);
    if texts.len() != params.len() {
        return Err(format!("iris: %{} takes {} arguments, {} given", f.name, params.len(), texts.len()));
    }
    let mut words = Vec::new();
    let mut buffers: Vec<(usize, Buffer)> = Vec::new();
    for (i, (t, ty)) in texts.iter().zip(&params).enumerate() {
        let (w, buf) = parse_arg(t, *ty, &mut rt)?;
        words.push(w);
        if let Some(b) = buf {
            buffers.push((i, b));
        }
    }
    for (i, b) in &mut buffers {
        words[*i] = b.data.as_mut_ptr() as u64;
    }
    // The registers are REGS wide: a window beyond them would be written outside.
    if let Some(g) = module.iter().find(|g| g.window() as usize > WINDOW) {
        let r = g.window() - 1;
        return Err(format!("iris: --run gives each function {WINDOW} registers; %{} names r{r}", g.name));
    }
    let mut codes = Vec::new();
    for g in module {
        let compiled = lower::compile(g, target, vm, callees)?;
        codes.push(native::code_memory::CodeMemory::new(&compiled.code)?);
    }
    // SAFETY: each mapping holds a function compiled for this machine from verified MIR;
    // the table is only called through by that code, under the convention it was compiled
    // for.
    let table: Vec<native::CodeEntry> = codes.iter().map(|c| unsafe { c.entry() }).collect();
    let code = &codes[0];
    let mut regs = vec![vm.values.undefined; REGS];
    let mut ctx = native::Context::new(&mut rt as *mut Runtime as *mut std::ffi::c_void, runtime_interface::entries());
    ctx.functions = table.as_ptr();
    // SAFETY: the code was compiled for this machine from verified MIR; the context (with
    // this runtime, unused by anything else during the call, and its helper table), a
    // window of REGS registers (every register the MIR names, checked above) and one slot
    // per parameter are valid, value operands are live (rooted by `evaluate`), and buffers
    // stay alive across the call. MIR that addresses memory beyond what it was given is not
    // defended against here, which is why `iris mir --run` runs this in a child process.
    let status = unsafe { (code.entry())(&mut ctx, regs.as_mut_ptr(), words.as_ptr()) };
    let mut out = String::new();
    if status == 0 {
        let shown = match f.ret {
            Some(Type::I32) => (ctx.result as u32 as i32).to_string(),
            Some(Type::F64) => format!("{:?}", f64::from_bits(ctx.result)),
            Some(Type::Value) => show_value(ctx.result, &mut rt),
            _ => ctx.result.to_string(),
        };
        let _ = writeln!(out, "returned {shown}");
    } else {
        let e = ((status & 0xffff_ffff) - 1) as usize;
        let state = f.exits.get(e).ok_or_else(|| format!("iris: the code returned an unknown status {status}"))?;
        let shown: Vec<String> =
            state.regs.iter().map(|(r, _)| format!("r{r} = {}", show_value(regs[*r as usize], &mut rt))).collect();
        // Why a check left (a helper's throw and a callee's exit say so below).
        let why = if status & (native::THREW | native::INNER) == 0 {
            format!(" ({})", native::mir::Reason::of_status(status).describe())
        } else {
            String::new()
        };
        let _ = writeln!(out, "exit e{e} @{}: {}{why}", state.offset, shown.join(", "));
        // A callee that left first: its status is below its window, just above ours (its
        // own callee's, if it has INNER too, is above its window, whose size only its
        // code knows).
        if status & native::INNER != 0 {
            let w = f.window() as usize;
            let k = (regs[w] & 0xffff_ffff).wrapping_sub(1);
            let _ = writeln!(out, "a called function had left first, through its e{k} (its registers from r{})", w + 1);
        }
        if status & native::THREW != 0 {
            let _ = writeln!(out, "a helper threw {}", runtime_interface::take_exception(&mut rt));
        }
    }
    for (i, b) in &buffers {
        let _ = writeln!(out, "arg{i} = {}", show_buffer(b));
    }
    if let Some(n) = time {
        // The call again, timed; a kernel that changes its buffers or objects sees them as
        // the first call left them.
        let mut best = f64::INFINITY;
        for _ in 0..n.max(1) {
            let start = Instant::now();
            // SAFETY: as for the first call: the same code, context, registers and operands
            // (still rooted, buffers alive).
            unsafe { (code.entry())(&mut ctx, regs.as_mut_ptr(), words.as_ptr()) };
            best = best.min(start.elapsed().as_secs_f64());
        }
        let _ = writeln!(out, "run: {:.3} µs (fastest of {n})", best * 1e6);
    }
    Ok(out)
}

/// How long the passes and the machine-code generation take for `f`, per instruction of
/// the input: the fastest of `n` compiles.
fn time_compile(f: &Function, names: &[&str], target: Target, callees: &[Callee], n: u32) -> Result<String, String> {
    let vm = runtime_interface::interface();
    let insts: usize = f.layout.iter().map(|&b| f.block(b).insts.len()).sum();
    let (mut passes, mut codegen) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..n.max(1) {
        let mut g = f.clone();
        let start = Instant::now();
        if !names.is_empty() {
            native::passes::run(&mut g, names, false)?;
        }
        let mid = Instant::now();
        lower::compile(&g, target, vm, callees)?;
        let end = Instant::now();
        passes = passes.min((mid - start).as_secs_f64());
        codegen = codegen.min((end - mid).as_secs_f64());
    }
    let total = passes + codegen;
    Ok(format!(
        "compile: {insts} MIR instructions in {:.0} µs (passes {:.0} µs, machine code {:.0} µs): {:.2} µs per instruction (fastest of {n})\n",
        total * 1e6,
        passes * 1e6,
        codegen * 1e6,
        total * 1e6 / insts.max(1) as f64
    ))
}

/// What the JIT compiled in `rt` (which kept it: `RuntimeOptions::jit_dump`): each
/// function's MIR after the passes, and with `disasm` its machine code.
pub fn jit_report(rt: &Runtime, disasm: bool) -> Result<String, String> {
    let mut out = String::new();
    for (heading, mir, code) in runtime_interface::jit_dumps(rt) {
        let _ = writeln!(out, "; {heading}\n{mir}");
        if disasm {
            let target = Target::host().ok_or("iris: no machine code for this machine")?;
            let _ = writeln!(out, "; machine code ({} bytes)\n{}", code.len(), disassemble(code, target)?);
        }
    }
    Ok(out)
}

/// The machine code as objdump shows it (one instruction per line, offsets from 0).
fn disassemble(code: &[u8], target: Target) -> Result<String, String> {
    let (tool, arch) = match target {
        Target::X86_64 => ("objdump", "i386:x86-64"),
        Target::Aarch64 => ("aarch64-linux-gnu-objdump", "aarch64"),
    };
    let path = std::env::temp_dir().join(format!("iris-mir-{}-{}.bin", std::process::id(), target.name()));
    std::fs::write(&path, code).map_err(|e| format!("iris: cannot write {}: {e}", path.display()))?;
    let out = Command::new(tool).args(["-D", "-b", "binary", "-m", arch, "--no-show-raw-insn"]).arg(&path).output();
    let _ = std::fs::remove_file(&path);
    let out = out.map_err(|e| format!("iris: --disasm needs {tool} (binutils): {e}"))?;
    if !out.status.success() {
        return Err(format!("iris: {tool} failed: {}", String::from_utf8_lossy(&out.stderr).trim_end()));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = String::new();
    for l in text.lines() {
        // Instruction lines look like "   4:\tmov ..."; the rest is objdump's headers.
        if let Some((off, insn)) = l.split_once(":\t") {
            if off.trim().chars().all(|c| c.is_ascii_hexdigit()) && !off.trim().is_empty() {
                let _ = writeln!(lines, "{:>5}: {}", off.trim(), insn.split_whitespace().collect::<Vec<_>>().join(" "));
            }
        }
    }
    Ok(lines)
}
