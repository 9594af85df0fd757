//! The JIT: hot functions and loops run as machine code.
//!
//! ```text
//!  interpreter: a call of a warm function, or a back-edge of a warm loop
//!      └─▶ run_compiled(frame, at) ── code for `at`? ── no, and hot ─▶ compile:
//!                                      │                 bytecode + feedback (Profile)
//!                                      │                 ─▶ native::translate ─▶ MIR passes
//!                                      │                 ─▶ machine code (native::lower)
//!                                      ▼
//!          code(ctx, &frame registers, arguments)  ── its helpers run on the same frame
//!             ├─ returned v     ─▶ the interpreter returns v from the frame
//!             └─ left by exit k ─▶ the registers live there are in the frame: the
//!                                  interpreter resumes at exit k's instruction (throwing
//!                                  the pending exception if a helper threw)
//! ```
//!
//! The frame stays the interpreter's throughout: compiled code reads and writes its
//! registers, and helpers (and the collector, and stack traces) see it as any other frame.
//! Code whose speculations keep failing is dropped and compiled again from the feedback
//! gathered since, a few times, then the function stays interpreted. Generators and async
//! functions are not compiled.

use std::cell::RefCell;
use std::sync::Arc;
use std::time::Instant;

use bytecode::{FunctionFlags, Inst};
use native::translate::{self, Holder, Inlinee, PropertyCase, PropertySite, SlotAt};

use crate::code::compiled::{Compiled, Exit, InlinedExit};
use crate::code::{ic, info_ref, FuncRef, FunctionInfo};
use crate::gc::{CellKind, Gc};
use crate::object::{JsObject, Shape};
use crate::runtime::frame::{push_call_window, Frame, CONSTRUCT, ENTRY};
use crate::runtime::function::Closure;
use crate::runtime::{JsResult, Runtime};
use crate::runtime_interface;
use crate::value::{self, Value};

/// How compiled code for a frame ended.
pub(crate) enum Outcome {
    /// It returned this value.
    Returned(Value),
    /// It left through an exit: the interpreter resumes at this instruction (the frame's
    /// `ip` says so too).
    Resume(u32),
    /// A helper threw at this instruction (the frame's `ip`): the exception is pending.
    Threw(u32),
}

/// Exits through failed speculation after which code is dropped.
const MAX_DEOPTS: u32 = 64;
/// Times a function's code is dropped after which it stays interpreted. (Each of its
/// loops gets code of its own: a count of compiles would keep the later loops of a
/// function with many from ever being compiled.)
const MAX_DROPS: u32 = 4;
/// Back-edges of a warm function per call's worth of warmth (as in `code::feedback`).
const BACK_EDGES_PER_CALL: u32 = 64;
/// Bytecode instructions per threshold's worth of calls a function needs to be compiled.
const INSTS_PER_THRESHOLD: usize = 128;
/// Exits from inlined copies of a function after which it is not inlined any more.
const MAX_INLINE_EXITS: u32 = 128;

/// Runs frame `fi` (the top frame, about to run instruction `at`: 0 on entry, or a loop
/// header) in compiled code, compiling it first if it is hot enough. None: there is no
/// code for it, and the interpreter goes on.
pub(crate) fn run_compiled(rt: &mut Runtime, fi: usize, at: u32) -> Option<Outcome> {
    let threshold = rt.host.options.jit_threshold?;
    let frame = rt.calls.frames[fi];
    // SAFETY: a function of this runtime's bundles, used while the runtime lives.
    let info = unsafe { info_ref(frame.info) };
    let code = match info.jit.code(at) {
        Some(c) => c,
        None => {
            if info.jit.given_up.get() || !hot(rt, info, at, threshold) {
                return None;
            }
            compile(rt, info, at)?
        }
    };
    Some(enter(rt, fi, info, code, at))
}

/// A plain call (from compiled code) of `f` with the `argc` values at stack index `first`
/// (`this` first), when `f` is a closure whose function has code for its entry: its frame
/// is pushed and its code run right here, as the interpreter's call fast path would push
/// it. None: not such a call (the caller makes it the general way).
#[inline]
pub(crate) fn call_compiled(rt: &mut Runtime, f: Value, first: usize, argc: usize) -> Option<JsResult<Value>> {
    let code = push_compiled(rt, f, first, argc)?;
    let fi = rt.calls.frames.len() - 1;
    if rt.host.gc_stress || rt.host.interrupt.load(std::sync::atomic::Ordering::Relaxed) {
        if let Err(e) = rt.safepoint_slow() {
            return Some(finish(rt, fi, Err(e)));
        }
    }
    // SAFETY: a function of this runtime's bundles, used while the runtime lives.
    let info = unsafe { info_ref(rt.calls.frames[fi].info) };
    Some(match enter(rt, fi, info, code, 0) {
        // The common end: a plain frame (no constructor, no generator) returns.
        Outcome::Returned(v) => {
            pop_compiled(rt);
            Ok(v)
        }
        outcome => finish(rt, fi, Ok(outcome)),
    })
}

/// Pushes the frame of a plain call (from compiled code) of `f` with the `argc` values at
/// stack index `first` (`this` first) when `f` is a closure whose function has code for its
/// entry that takes those arguments as they are, and gives that code. None: not such a
/// call, and nothing changed. (The code is entered with the frame's registers and
/// arguments; `pop_compiled` pops the frame when it returns.)
#[inline(always)]
pub(crate) fn push_compiled<'a>(rt: &mut Runtime, f: Value, first: usize, argc: usize) -> Option<&'a Compiled> {
    if !f.is_object() || argc == 0 {
        return None;
    }
    let fo: Gc<JsObject> = f.gc();
    if rt.heap.kind_of(fo) != CellKind::Closure {
        return None;
    }
    // SAFETY: a function of this runtime's bundles, used while the runtime lives.
    let info = unsafe { info_ref(rt.heap.get(fo.cast::<Closure>()).func) };
    let code = info.jit.code(0)?;
    let at = rt.calls.stack.len();
    let need = argc + info.header.frame_size as usize;
    // Room for its window, and for the windows of the callees it inlined (which an exit
    // from one fills).
    let room = need.max(argc + code.extent as usize);
    if info.flags().contains(FunctionFlags::CLASS_CONSTRUCTOR)
        || (argc as u32) < code.params
        || at + room > rt.calls.stack_limit
        || rt.calls.frames.len() >= rt.host.options.max_stack_depth
    {
        return None;
    }
    push_call_window(&mut rt.calls.stack, first, argc, need);
    rt.note_entry(info);
    let realm = info.realm();
    rt.calls.frames.push(Frame {
        info: FuncRef::new(info),
        closure: f,
        new_target: Value::UNDEFINED,
        generator: Value::UNDEFINED,
        base: (at + argc) as u32,
        args: at as u32,
        argc: argc as u32,
        ip: 0,
        ret_reg: 0,
        flags: ENTRY,
        saved_realm: rt.realm,
    });
    rt.realm = realm;
    // (Its calls are not counted: it is compiled already. Should its code be dropped, the
    // interpreter counts them again.)
    Some(code)
}

/// Pops the frame `push_compiled` pushed, whose code returned.
#[inline(always)]
pub(crate) fn pop_compiled(rt: &mut Runtime) {
    if let Some(frame) = rt.calls.frames.pop() {
        rt.calls.stack.truncate(frame.args as usize);
        rt.realm = frame.saved_realm;
    }
}

/// Ends a call from compiled code whose callee's code ran (`outcome`): returns from the frame, or lets the interpreter run it
/// on from where its code left (or unwind it from where it threw).
pub(crate) fn finish(rt: &mut Runtime, fi: usize, outcome: JsResult<Outcome>) -> JsResult<Value> {
    let threw = match outcome {
        Ok(Outcome::Returned(v)) => match crate::interp::pop_frame(rt, fi, v) {
            Ok(v) => return Ok(v),
            Err(_) => true,
        },
        Ok(Outcome::Resume(_)) => false,
        Ok(Outcome::Threw(_)) | Err(_) => true,
    };
    // The frame's handlers may catch what it threw (or those of the frames its code's
    // exit pushed above it, for inlined callees); otherwise it is the caller's.
    let top = rt.calls.frames.len() - 1;
    debug_assert!(top >= fi);
    if threw && crate::interp::unwind(rt, top).is_none() {
        return Err(crate::runtime::Exception);
    }
    crate::interp::run(rt)
}

/// Whether `info` has run enough (since it started recording feedback) to compile it for
/// an entry at `at`. Compile time grows with the function's size while what it buys does
/// not, so a large function must run longer: the threshold counts once per
/// `INSTS_PER_THRESHOLD` instructions (a 1,000-instruction function that sets up a
/// benchmark and runs a hundred times is not worth 60 ms of Cranelift).
fn hot(rt: &Runtime, info: &FunctionInfo, at: u32, threshold: u32) -> bool {
    if !info.warm.profiling.get() {
        return false;
    }
    let size = (info.code().insts.len() / INSTS_PER_THRESHOLD).max(1) as u32;
    let after = threshold.saturating_sub(rt.host.options.profile_after.unwrap_or(0)).saturating_mul(size);
    if at == 0 {
        info.warm.entries.get() >= after
    } else {
        info.warm.back_edges.get() >= after.saturating_mul(BACK_EDGES_PER_CALL)
    }
}

/// Runs `code` for frame `fi` (about to run instruction `at`).
#[inline]
fn enter(rt: &mut Runtime, fi: usize, info: &FunctionInfo, code: &Compiled, at: u32) -> Outcome {
    let frame = rt.calls.frames[fi];
    if frame.base as usize + code.extent as usize > rt.calls.stack_limit {
        // No room for the windows of the callees it inlined: the interpreter runs it.
        return Outcome::Resume(at);
    }
    // The parameters: the frame's arguments where enough were passed (they precede its
    // registers on the stack), else a copy padded with undefined.
    let mut padded = Vec::new();
    let args: *const u64 =
        if code.params <= frame.argc {
            rt.calls.stack[frame.args as usize..].as_ptr() as *const u64
        } else {
            padded.extend((0..code.params).map(|i| {
                if i < frame.argc { rt.calls.stack[(frame.args + i) as usize] } else { Value::UNDEFINED }.bits()
            }));
            padded.as_ptr()
        };
    let regs = rt.calls.stack[frame.base as usize..].as_mut_ptr() as *mut u64;
    let mut ctx = native::Context::new(rt as *mut Runtime as *mut std::ffi::c_void, runtime_interface::entries());
    // SAFETY: the code was compiled by `native::lower` for this machine from this frame's
    // function against this runtime's interface. What it touches is valid for the call:
    // the context (a local), the frame's registers (its whole window is on the register
    // stack, which never reallocates), `args` (one value per parameter: the frame's
    // arguments, which the code only reads, or `padded`), and the cells its values point to
    // (rooted in the frame, or kept alive as `jit_shapes`). Its helpers get the runtime,
    // which nothing else uses while the code runs.
    let status = unsafe { (code.memory.entry())(&mut ctx, regs, args) };
    if status == 0 {
        return Outcome::Returned(value::from_bits(ctx.result));
    }
    left(rt, fi, info, code, status)
}

/// Where frame `fi` (the top one) goes on after its `code` (of function `info`) left
/// through an exit, with `status` (not 0).
pub(crate) fn left(rt: &mut Runtime, fi: usize, info: &FunctionInfo, code: &Compiled, status: u64) -> Outcome {
    let k = (status & 0xffff_ffff) as usize - 1;
    let none = Exit { ip: 0, inlined: Box::new([]), arguments: None, written: Box::new([]) };
    let exit = code.exits.get(k).unwrap_or(&none);
    if let Some(r) = exit.arguments {
        let arguments = crate::interp::ops::call::create_arguments(rt, fi);
        let base = rt.calls.frames[fi].base as usize;
        rt.calls.stack[base + r as usize] = arguments;
    }
    // Each caller resumes at its call once the callee pushed above it returns; the
    // innermost callee at the exit's instruction.
    let ip = exit.inlined.first().map_or(exit.ip, |i| i.call);
    rt.calls.frames[fi].ip = ip;
    let base = rt.calls.frames[fi].base;
    for (j, &inlined) in exit.inlined.iter().enumerate() {
        let resume = exit.inlined.get(j + 1).map_or(exit.ip, |next| next.call);
        push_inlined(rt, base, inlined, resume, &exit.written);
    }
    if rt.host.options.jit_log {
        let why = if status & native::THREW != 0 {
            "a helper threw"
        } else if rt.heap.should_collect() {
            "the heap is due for a collection"
        } else {
            native::mir::Reason::of_status(status).describe()
        };
        match exit.inlined.last() {
            None => eprintln!("jit: exit {} at pc {} ({why})", name_of(info), info.byte_pc(ip)),
            Some(i) => {
                // SAFETY: a function of this runtime's bundles, used while the runtime lives.
                let callee = unsafe { i.callee.as_ref() };
                let inner = callee.byte_pc(exit.ip);
                eprintln!("jit: exit {} inlined in {} at pc {inner} ({why})", name_of(callee), name_of(info));
            }
        }
    }
    if status & native::THREW != 0 {
        // Compiled code does not keep the frame's instruction index current: an interrupt
        // thrown in it reports where it was once the exit has set it.
        rt.retrace_uncatchable();
        return Outcome::Threw(ip);
    }
    if rt.heap.should_collect() {
        // Code that allocates without collecting (`create_this`) leaves when the heap is
        // due for a collection, which is not a failed speculation: the collection happens
        // here, where every live value is in a frame.
        return match rt.safepoint() {
            Ok(()) => Outcome::Resume(ip),
            Err(_) => Outcome::Threw(ip),
        };
    }
    let n = code.deopts.get() + 1;
    code.deopts.set(n);
    if n == MAX_DEOPTS {
        drop_code(rt, info);
    }
    Outcome::Resume(ip)
}

/// Pushes the frame of a callee an exit from its inlined copy left (resuming at its
/// instruction `ip`), above its caller's frame, which is the top one: the arguments from the
/// caller's registers (the call's operands, which the exit wrote back; for `f.apply(x,
/// arguments)`, `x` and the caller's own arguments), its registers where the exit wrote
/// them (just above the caller's window; `inlined.window` counts from `base`, the compiled
/// frame's first register), undefined where it did not (`written`: dead registers).
fn push_inlined(rt: &mut Runtime, base: u32, inlined: InlinedExit, ip: u32, written: &[u32]) {
    use native::mir::FrameKind;
    let caller = *rt.calls.frames.last().expect("the caller's frame");
    // SAFETY: functions of this runtime's bundles, used while the runtime lives.
    let (caller_info, callee) = unsafe { (info_ref(caller.info), inlined.callee.as_ref()) };
    let caller_base = caller.base as usize;
    // Where the arguments are (stack indices: `this`, then the others), the closure's
    // register, `new.target`'s, and the register the result goes to.
    let (this_at, rest_at, argc, closure, new_target, dst) =
        match (inlined.kind, caller_info.code().insts.get(inlined.call as usize)) {
            (FrameKind::Call, Some(&Inst::Call { dst, callee, first, argc })) => {
                let at = caller_base + first as usize;
                (at, at + 1, argc, callee, None, dst)
            }
            (FrameKind::Construct, Some(&Inst::Construct { dst, callee, new_target, first, argc })) => {
                let at = caller_base + first as usize;
                (at, at + 1, argc, callee, Some(new_target), dst)
            }
            (FrameKind::Forward, Some(&Inst::Call { dst, first, .. })) => {
                let at = caller_base + first as usize;
                (at + 1, caller.args as usize + 1, caller.argc, first, None, dst)
            }
            _ => unreachable!("an inlined callee's exit names its call"),
        };
    let at = rt.calls.stack.len();
    let args = argc as usize;
    let total = args + callee.header.frame_size as usize;
    assert!(
        args >= 1 && at == base as usize + inlined.window as usize - args && at + total <= rt.calls.stack_limit,
        "an inlined callee's window is above its caller's, on the stack"
    );
    assert!(this_at < at && rest_at + args - 1 <= at, "an inlined callee's arguments are below its window");
    let p = rt.calls.stack.as_mut_ptr();
    let window = base as usize + inlined.window as usize;
    // SAFETY: `[at, at + total)` is within the stack's capacity (checked above; the stack
    // never reallocates). The exit wrote the callee's live registers (those in `written`,
    // in `[at + args, at + total)` = `[window, window + frame size)`) with live values, and
    // the others are set to undefined here; the arguments are copied from below `at`
    // (checked above: the caller's registers or its arguments). All that is done before
    // the length covers them, so every value up to the new length is initialized.
    unsafe {
        p.add(at).write(*p.add(this_at));
        for i in 1..args {
            p.add(at + i).write(*p.add(rest_at + i - 1));
        }
        for r in at + args..at + total {
            let reg = (r - base as usize) as u32;
            if written.binary_search(&reg).is_err() {
                p.add(r).write(Value::UNDEFINED);
            }
        }
        rt.calls.stack.set_len(at + total);
    }
    debug_assert_eq!(at + args, window);
    let construct = new_target.is_some();
    rt.calls.frames.push(Frame {
        info: FuncRef::new(callee),
        closure: rt.calls.stack[caller_base + closure as usize],
        new_target: new_target.map_or(Value::UNDEFINED, |r| rt.calls.stack[caller_base + r as usize]),
        generator: Value::UNDEFINED,
        base: (at + args) as u32,
        args: at as u32,
        argc,
        ip,
        ret_reg: dst,
        flags: if construct { CONSTRUCT } else { 0 },
        saved_realm: rt.realm,
    });
    rt.realm = callee.realm();
    if let Some(r) = inlined.arguments {
        let fi = rt.calls.frames.len() - 1;
        let arguments = crate::interp::ops::call::create_arguments(rt, fi);
        rt.calls.stack[at + args + r as usize] = arguments;
    }
    callee.jit.inline_exits.set(callee.jit.inline_exits.get() + 1);
}

/// Drops a function's code after too many exits: it is compiled again from the feedback
/// gathered since, unless that happened too often.
fn drop_code(rt: &Runtime, info: &FunctionInfo) {
    info.jit.drop_all();
    info.jit.drops.set(info.jit.drops.get() + 1);
    if info.jit.drops.get() >= MAX_DROPS {
        info.jit.given_up.set(true);
    }
    if rt.host.options.jit_log {
        let again = if info.jit.given_up.get() { "it stays interpreted" } else { "to be compiled again" };
        eprintln!("jit: dropped the code of {} after {MAX_DEOPTS} exits, {again}", name_of(info));
    }
}

/// The function's name for the log.
fn name_of(info: &FunctionInfo) -> String {
    let name = info.display_name();
    format!("{}#{}", if name.is_empty() { "<anonymous>" } else { &name }, info.id)
}

/// What the interpreter observed, for the translator.
struct Observed<'a> {
    rt: &'a Runtime,
    info: &'a FunctionInfo,
    /// The shapes the code will compare with, and the prototypes it reads (of the
    /// function's and its inlined callees' sites).
    shapes: &'a RefCell<Vec<Gc<Shape>>>,
    holders: &'a RefCell<Vec<Gc<JsObject>>>,
    /// What the translation decided, for `--jit-log` (None: not logging).
    notes: Option<&'a RefCell<Vec<String>>>,
    /// Set when the code is given what holds only while the prototype epoch stays.
    epoch: &'a std::cell::Cell<bool>,
    /// The dictionary-mode shapes the code reads properties of at their slots.
    dictionaries: &'a RefCell<Vec<Gc<Shape>>>,
}

impl translate::Profile for Observed<'_> {
    fn kinds(&self, ip: u32) -> u8 {
        let code = self.info.code();
        match code.insts.get(ip as usize) {
            Some(inst) if !crate::code::feedback::is_call(inst) => code.feedback.sites[ip as usize].get(),
            _ => 0,
        }
    }

    fn property(&self, ip: u32) -> PropertySite {
        let slot = match self.info.code().insts.get(ip as usize) {
            Some(
                Inst::GetById { ic, .. }
                | Inst::GetGlobal { ic, .. }
                | Inst::TypeofGlobal { ic, .. }
                | Inst::PutById { ic, .. }
                | Inst::PutGlobal { ic, .. },
            ) => self.info.ic_base.get() as usize + *ic as usize,
            _ => return PropertySite::default(),
        };
        let Some(entries) = self.rt.code.ics.get(slot * ic::WAYS..slot * ic::WAYS + ic::WAYS) else {
            return PropertySite::default();
        };
        let mut cases = Vec::new();
        // Entries compiled code cannot serve (a missing property, a prototype that changed
        // since) stay the VM's, as do shapes past a full cache.
        let mut vm_cases = entries.iter().all(|e| e.kind != ic::NONE);
        for e in entries {
            let current = e.epoch == *self.rt.caches.proto_epoch;
            let (holder, transition) = match (e.kind, e.holder, e.new_shape) {
                (ic::OWN | ic::OWN_DICT, _, _) => (None, None),
                (ic::PROTO, Some(h), _) if current => {
                    self.epoch.set(true);
                    self.holders.borrow_mut().push(h);
                    (Some(Holder { object: h.addr() as u64, epoch: e.epoch }), None)
                }
                (ic::ADD, _, Some(to)) if current => {
                    self.epoch.set(true);
                    self.shapes.borrow_mut().push(to);
                    (None, Some(Holder { object: to.addr() as u64, epoch: e.epoch }))
                }
                (ic::NONE, _, _) => continue,
                _ => {
                    vm_cases = true;
                    continue;
                }
            };
            let Some(shape) = e.shape else { continue };
            self.shapes.borrow_mut().push(shape);
            let out_of_line = crate::object::OUT_OF_LINE;
            let slot =
                if e.loc & out_of_line != 0 { SlotAt::OutOfLine(e.loc & !out_of_line) } else { SlotAt::Inline(e.loc) };
            let dict_version = (e.kind == ic::OWN_DICT).then_some(e.epoch);
            if dict_version.is_some() {
                self.dictionaries.borrow_mut().push(shape);
            }
            // Only functions (whose `prototype` is made on first use) keep the empty marker
            // in a named slot.
            let kind = match e.holder.filter(|_| holder.is_some()) {
                Some(h) => self.rt.heap.kind_of(h),
                None => self.rt.heap.get(shape).object_kind,
            };
            let maybe_empty = kind != CellKind::Object;
            cases.push(PropertyCase {
                shape: shape.addr() as u64,
                slot,
                holder,
                dict_version,
                transition,
                maybe_empty,
            });
        }
        PropertySite { cases, megamorphic: vm_cases }
    }

    fn global_object(&self) -> u64 {
        self.rt.global_object().addr() as u64
    }

    fn string(&self, id: u32) -> u64 {
        self.info.bundle().strings.get(id as usize).map_or(Value::UNDEFINED, |&s| s).bits()
    }

    fn is_length(&self, id: u32) -> bool {
        // Bundle strings are atoms: the same text is the same value.
        self.info.bundle().strings.get(id as usize) == Some(&self.rt.names.length.value())
    }

    fn inlinee(&self, ip: u32) -> Option<Inlinee<'_>> {
        let code = self.info.code();
        let construct = match code.insts.get(ip as usize) {
            Some(Inst::Call { .. }) => false,
            Some(Inst::Construct { .. }) => true,
            _ => return None,
        };
        let [target] = code.feedback.call_targets(ip as usize)?[..] else { return None };
        // SAFETY: a call site's feedback records the address of the `FunctionInfo` it
        // called, a function of this runtime's bundles, which live as long as it.
        let callee: &FunctionInfo = unsafe { &*(target as *const FunctionInfo) };
        // A constructor inlined makes its `this` as a base constructor does.
        let flags = callee.flags();
        if construct && (!flags.contains(FunctionFlags::CONSTRUCTOR) || flags.contains(FunctionFlags::DERIVED)) {
            return None;
        }
        self.inlinee_of(callee)
    }

    fn polymorphic(&self, ip: u32) -> Vec<(u64, Option<Inlinee<'_>>)> {
        let code = self.info.code();
        let Some(Inst::Call { .. }) = code.insts.get(ip as usize) else { return Vec::new() };
        let targets = code.feedback.call_targets(ip as usize).unwrap_or_default();
        if targets.len() < 2 {
            return Vec::new();
        }
        targets
            .into_iter()
            .map(|t| {
                // SAFETY: as in `inlinee`.
                let callee: &FunctionInfo = unsafe { &*(t as *const FunctionInfo) };
                (t as u64, self.inlinee_of(callee))
            })
            .collect()
    }

    fn this_shape(&self, ip: u32) -> Option<u64> {
        let code = self.info.code();
        let Some(Inst::Construct { .. }) = code.insts.get(ip as usize) else { return None };
        let shape = code.feedback.this_shape(ip as usize, &self.rt.code.feedback_shapes)?;
        // Made by `create_this`: an ordinary object.
        if self.rt.heap.get(shape).object_kind != CellKind::Object {
            return None;
        }
        self.shapes.borrow_mut().push(shape);
        Some(shape.addr() as u64)
    }

    fn lookup(&self, shape: u64, name: u32) -> Option<translate::Found> {
        // Only shapes handed out for this compile, which are alive.
        let shape = self.shapes.borrow().iter().copied().find(|s| s.addr() as u64 == shape)?;
        let atom = *self.info.bundle().strings.get(name as usize)?;
        let crate::object::Key::Name(key) = self.rt.key_from_atom(atom) else { return None };
        let heap = &self.rt.heap;
        let own = heap.get(shape);
        if own.is_dictionary() || own.object_kind != CellKind::Object {
            return None;
        }
        let data = |attrs: u8| attrs & crate::object::shape::ACCESSOR == 0;
        if let Some((slot, attrs)) = own.lookup(key) {
            // Where an ordinary object of this shape keeps its slot.
            let cap = u32::from(own.inline_cap);
            let at = if slot < cap {
                SlotAt::Inline(crate::object::inline_offset::<JsObject>() + 8 * slot)
            } else {
                SlotAt::OutOfLine(slot - cap)
            };
            let case = PropertyCase {
                shape: shape.addr() as u64,
                slot: at,
                holder: None,
                dict_version: None,
                transition: None,
                maybe_empty: false,
            };
            return data(attrs).then_some(translate::Found { case, value: Value::UNDEFINED.bits() });
        }
        // Up the prototype chain, through ordinary objects only (whose named properties
        // are their shapes'): each is a prototype, whose layout changes bump the epoch.
        let mut proto = own.proto;
        for _ in 0..32 {
            if !proto.is_object() {
                return None;
            }
            let p: Gc<JsObject> = proto.gc();
            if heap.kind_of(p) != CellKind::Object {
                return None;
            }
            // A builtin object whose functions are not made yet: the interpreter looks up
            // (and makes them) first.
            if heap.get(p).header.flags & crate::object::LAZY_BUILTINS != 0 {
                return None;
            }
            let ps = heap.get(heap.get(p).shape);
            if ps.is_dictionary() {
                return None;
            }
            if let Some((slot, attrs)) = ps.lookup(key) {
                let loc = heap.slot_location(p, slot);
                let value = heap.slot_at(p, loc);
                if !data(attrs) || value.is_empty() {
                    return None;
                }
                self.epoch.set(true);
                self.holders.borrow_mut().push(p);
                let out_of_line = crate::object::OUT_OF_LINE;
                let at =
                    if loc & out_of_line != 0 { SlotAt::OutOfLine(loc & !out_of_line) } else { SlotAt::Inline(loc) };
                let holder = Holder { object: p.addr() as u64, epoch: *self.rt.caches.proto_epoch };
                let case = PropertyCase {
                    shape: shape.addr() as u64,
                    slot: at,
                    holder: Some(holder),
                    dict_version: None,
                    transition: None,
                    maybe_empty: false,
                };
                return Some(translate::Found { case, value: value.bits() });
            }
            proto = ps.proto;
        }
        None
    }

    fn closure_inlinee(&self, closure: u64) -> Option<Inlinee<'_>> {
        // The value of a property `lookup` just read: alive (nothing collects during a
        // compile), but anything.
        let v = value::from_bits(closure);
        if !v.is_object() || self.rt.heap.kind_of(v.gc::<JsObject>()) != CellKind::Closure {
            return None;
        }
        // SAFETY: a closure's function is one of this runtime's bundles, which live as
        // long as it.
        let callee = unsafe { info_ref(self.rt.heap.get(v.gc::<JsObject>().cast::<Closure>()).func) };
        self.inlinee_of(callee)
    }

    fn apply_function(&self) -> Option<u64> {
        let realm = &self.rt.realms[self.info.realm() as usize];
        Some(realm.intrinsic(crate::runtime::Intrinsic::FunctionProtoApply).bits())
    }

    fn logging(&self) -> bool {
        self.notes.is_some()
    }

    fn note(&self, ip: u32, what: String) {
        if let Some(notes) = self.notes {
            notes.borrow_mut().push(format!("{} at pc {}: {what}", name_of(self.info), self.info.byte_pc(ip)));
        }
    }
}

impl<'a> Observed<'a> {
    /// `callee` as an inlinee, if the VM lets it be inlined into this function.
    fn inlinee_of(&self, callee: &'a FunctionInfo) -> Option<Inlinee<'a>> {
        let target = FuncRef::new(callee).addr();
        let flags = callee.flags();
        let ok = !std::ptr::eq(callee, self.info)
            // Its globals are its realm's (functions compiled lazily have bundles of their
            // own: any bundle of the realm will do).
            && callee.realm() == self.info.realm()
            && ![
                FunctionFlags::GENERATOR,
                FunctionFlags::GENERATOR_INNER,
                FunctionFlags::ASYNC,
                FunctionFlags::CLASS_CONSTRUCTOR,
                FunctionFlags::LAZY,
            ]
            .into_iter()
            .any(|f| flags.contains(f))
            && callee.warm.profiling.get()
            && callee.jit.inline_exits.get() < MAX_INLINE_EXITS;
        let callee_code = callee.code_if_decoded()?;
        if !ok || !callee_code.handlers.is_empty() {
            return None;
        }
        Some(Inlinee {
            function: target as u64,
            name: name_of(callee),
            insts: &callee_code.insts,
            frame_size: callee.header.frame_size,
            profile: Box::new(Observed {
                rt: self.rt,
                info: callee,
                shapes: self.shapes,
                holders: self.holders,
                notes: self.notes,
                epoch: self.epoch,
                dictionaries: self.dictionaries,
            }),
        })
    }
}

/// What a compile made.
struct Made {
    code: Compiled,
    /// What the code refers to and the collector must keep: shapes, prototypes.
    shapes: Vec<Gc<Shape>>,
    holders: Vec<Gc<JsObject>>,
    /// The MIR text and machine code, when kept (`RuntimeOptions::jit_dump`).
    dump: Option<(String, Vec<u8>)>,
    /// What the translation decided (with `RuntimeOptions::jit_log`).
    notes: Vec<String>,
    /// Whether the code assumes the current prototype epoch, and the dictionary-mode
    /// shapes whose versions it assumes (see `invalidate`).
    epoch: bool,
    dictionaries: Vec<Gc<Shape>>,
}

/// Compiles `info` for an entry at `at` and keeps the code; None if it cannot be.
fn compile<'a>(rt: &mut Runtime, info: &'a FunctionInfo, at: u32) -> Option<&'a Compiled> {
    let start = Instant::now();
    let flags = info.flags();
    let name = name_of(info);
    let result = if flags.contains(FunctionFlags::GENERATOR)
        || flags.contains(FunctionFlags::GENERATOR_INNER)
        || flags.contains(FunctionFlags::ASYNC)
    {
        Err("generators and async functions stay interpreted".to_string())
    } else {
        // The translator and the code generator report what they cannot do as errors; a
        // panic (a bug) must not take the program down either: the function stays
        // interpreted.
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| machine_code(rt, info, at, &name)))
            .unwrap_or_else(|_| Err("internal error in the JIT".to_string()))
    };
    let Made { code, shapes, holders, dump, notes, epoch, dictionaries } = match result {
        Ok(r) => r,
        Err(e) => {
            if rt.host.options.jit_log {
                eprintln!("jit: {name} is not compiled: {e}");
            }
            info.jit.given_up.set(true);
            return None;
        }
    };
    rt.code.jit_shapes.extend(shapes);
    rt.code.jit_holders.extend(holders);
    if epoch {
        rt.code.epoch_dependents.push(FuncRef::new(info));
    }
    for d in dictionaries {
        if !rt.code.dictionary_dependents.iter().any(|&(s, f)| s == d && f == FuncRef::new(info)) {
            rt.code.dictionary_dependents.push((d, FuncRef::new(info)));
        }
    }
    let size = code.memory.len();
    let code = info.jit.install(at, code);
    if at == 0 && !flags.contains(FunctionFlags::CLASS_CONSTRUCTOR) {
        info.jit.enter_directly(code, info.header.frame_size, info.realm());
    }
    let entry = if at == 0 { "entry".to_string() } else { format!("loop at pc {}", info.byte_pc(at)) };
    if rt.host.options.jit_log {
        eprintln!(
            "jit: compiled {name} ({entry}): {} instructions, {size} bytes of machine code in {:.2} ms",
            info.code().insts.len(),
            start.elapsed().as_secs_f64() * 1e3
        );
        for note in notes {
            eprintln!("jit:   {note}");
        }
    }
    if rt.host.options.perf_map {
        perf_map_line(code.memory.address(), size, &format!("js:{name} ({entry})"));
    }
    if let Some((mir, bytes)) = dump {
        rt.code.jit_dumps.push((format!("{name} ({entry})"), mir, bytes));
    }
    Some(code)
}

/// Appends `start size name` to `/tmp/perf-<pid>.map` (the format perf reads); a failure
/// to write only loses the name in a profile.
fn perf_map_line(start: usize, size: usize, name: &str) {
    use std::io::Write;
    let path = format!("/tmp/perf-{}.map", std::process::id());
    if let Ok(mut file) = std::fs::OpenOptions::new().create(true).append(true).open(path) {
        let _ = writeln!(file, "{start:x} {size:x} {name}");
    }
}

/// Translates, optimizes and lowers `info` for an entry at `at`.
fn machine_code(rt: &Runtime, info: &FunctionInfo, at: u32, name: &str) -> Result<Made, String> {
    let code = info.code();
    let (shapes, holders, notes) = (RefCell::new(Vec::new()), RefCell::new(Vec::new()), RefCell::new(Vec::new()));
    let logging = rt.host.options.jit_log;
    let (epoch, dictionaries) = (std::cell::Cell::new(false), RefCell::new(Vec::new()));
    let observed = Observed {
        rt,
        info,
        shapes: &shapes,
        holders: &holders,
        notes: logging.then_some(&notes),
        epoch: &epoch,
        dictionaries: &dictionaries,
    };
    let source = translate::Source {
        name,
        insts: &code.insts,
        handlers: &code.handlers,
        frame_size: info.header.frame_size,
        entry: at,
        interrupt: Arc::as_ptr(&rt.host.interrupt) as u64,
        gc_due: rt.heap.due_address(),
        stress: rt.host.gc_stress,
        proto_epoch: &*rt.caches.proto_epoch as *const u32 as u64,
    };
    let vm = runtime_interface::interface();
    let mut mir = translate::translate(&source, &observed, vm)?;
    native::passes::run(&mut mir, native::passes::PIPELINE, cfg!(debug_assertions))?;
    let target = native::lower::Target::host().ok_or("no machine code for this machine")?;
    let compiled = native::lower::compile(&mir, target, vm, &[])?;
    let memory = native::code_memory::CodeMemory::new(&compiled.code)?;
    let params = mir.entry().map_or(0, |e| mir.block(e).params.len() as u32);
    let exits = mir
        .exits
        .iter()
        .map(|e| Exit {
            ip: e.offset,
            inlined: e
                .inlined
                .iter()
                .map(|i| InlinedExit {
                    callee: std::ptr::NonNull::from(
                        // SAFETY: the translator names inlined callees by what `inlinee`
                        // gave it: `FunctionInfo` addresses.
                        unsafe { &*(i.function as *const FunctionInfo) },
                    ),
                    call: i.call,
                    window: i.window,
                    kind: i.kind,
                    arguments: i.arguments,
                })
                .collect(),
            arguments: e.arguments,
            written: {
                let mut w: Vec<u32> = e.regs.iter().map(|&(r, _)| r).collect();
                w.sort_unstable();
                w.into()
            },
        })
        .collect();
    // Registers exits may make frames of: the frame's, and inlined callees' windows above
    // it.
    let windows = mir.exits.iter().flat_map(|e| {
        e.inlined.iter().map(|i| {
            // SAFETY: as above.
            let callee = unsafe { &*(i.function as *const FunctionInfo) };
            i.window + callee.header.frame_size
        })
    });
    let written = mir.exits.iter().flat_map(|e| e.regs.iter().map(|&(r, _)| r + 1));
    let extent = windows.chain(written).fold(info.header.frame_size, u32::max);
    let dump = rt.host.options.jit_dump.then(|| (mir.to_string(), compiled.code.clone()));
    let compiled = Compiled { memory, exits, extent, params, deopts: std::cell::Cell::new(0) };
    Ok(Made {
        code: compiled,
        shapes: shapes.into_inner(),
        holders: holders.into_inner(),
        dump,
        notes: notes.into_inner(),
        epoch: epoch.get(),
        dictionaries: dictionaries.into_inner(),
    })
}

#[cfg(test)]
mod tests {
    use crate::code::feedback;
    use native::translate::kind;

    #[test]
    fn the_translator_reads_the_feedback_bits_the_interpreter_writes() {
        let pairs = [
            (feedback::INT32, kind::INT32),
            (feedback::DOUBLE, kind::DOUBLE),
            (feedback::STRING, kind::STRING),
            (feedback::OTHER, kind::OTHER),
            (feedback::DENSE, kind::DENSE),
            (feedback::SLOW, kind::SLOW),
        ];
        for (vm, native) in pairs {
            assert_eq!(vm, native);
        }
    }
}
