//! The JIT's front end: a function's decoded bytecode and what the interpreter observed
//! running it become MIR.
//!
//! ```text
//!  Source (instructions, handlers, frame size, entry)   Profile (operand kinds, element
//!        │                                                kinds, property cases seen)
//!        └────────────▶ translate ◀───────────────────────┘
//!                          │  1. blocks: the instructions reachable from the entry, split at
//!                          │     jump targets (handlers are reached only by unwinding, which
//!                          │     the interpreter does: they are not translated)
//!                          │  2. liveness of every register at every instruction (handler
//!                          │     edges included: what a handler reads is live where it may
//!                          │     be entered)
//!                          │  3. each block: its live registers as block parameters, each
//!                          │     instruction as MIR over SSA values, boxed (`repr` unboxes)
//!                          ▼
//!                   MIR function: params = the frame's arguments (`this` first, padded
//!                   with undefined), returns the function's result
//! ```
//!
//! What it speculates on, from the profile: int32 or f64 arithmetic and comparisons, own
//! data properties of a few shapes (a shape compare and a slot access each), dense
//! elements. Everything else, and every speculation without feedback, runs through the
//! `exec` helper, which runs that one instruction the way the interpreter does; conditional
//! jumps that compiled code cannot decide ask it whether they are taken. So the slow paths
//! exist once, in the VM.
//!
//! Exits and the collector: every check names an exit at the instruction's offset whose
//! state is the registers live there, so the interpreter re-runs the whole instruction.
//! Before each helper call (which may collect), the registers live there whose frame slot
//! is stale are stored: the collector scans frames, and the heap does not move, so values
//! held in machine registers stay valid across the call.

use std::collections::HashMap;

use bytecode::{BuiltinId, Inst};

use crate::lower::const_bits;
use crate::mir::verify::Dominators;
use crate::mir::{
    Block, CheckedOp, ExitId, ExitState, ExitValue, FloatCC, FloatOp, FrameKind, Function, Ieee64, InlinedFrame, IntCC,
    IntOp, JsConst, Op, Reason, Tag, Type, Val,
};
use crate::Interface;

/// Operand kinds in a profile's answers (the same bits as the VM's feedback).
pub mod kind {
    /// A number with an int32 value (not -0).
    pub const INT32: u8 = 1;
    /// Another number.
    pub const DOUBLE: u8 = 2;
    pub const STRING: u8 = 4;
    pub const OTHER: u8 = 8;
    /// An element access the dense fast path served.
    pub const DENSE: u8 = 16;
    /// An element access that took the slow path.
    pub const SLOW: u8 = 32;
    /// An element access the TypedArray fast path served.
    pub const TYPED: u8 = 64;
}

/// Where objects of one shape keep a property.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotAt {
    /// At this byte offset in the object.
    Inline(u32),
    /// At this index of the out-of-line slot vector.
    OutOfLine(u32),
}

/// A shape an instruction's inline cache saw, with where its objects hold the property.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PropertyCase {
    /// The receiver's shape's address.
    pub shape: u64,
    pub slot: SlotAt,
    /// The property is not the receiver's own but this prototype's (a read).
    pub holder: Option<Holder>,
    /// The shape is a dictionary, whose layout holds while its version is this one.
    pub dict_version: Option<u32>,
    /// A write that adds the property: objects move to this shape (while the prototype
    /// epoch is `Holder::epoch`: no prototype got a setter or read-only property).
    pub transition: Option<Holder>,
    /// The slot may hold the VM's empty marker (a function's `prototype` not made yet):
    /// a read that finds it leaves for the VM.
    pub maybe_empty: bool,
}

/// What a property access's inline cache saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PropertySite {
    pub cases: Vec<PropertyCase>,
    /// The cache is full: the site may see more shapes than it holds, so a shape outside
    /// `cases` goes to the VM. Otherwise such a shape is new here and leaves compiled code,
    /// so that code compiled again (once the cache has it) covers it too.
    pub megamorphic: bool,
}

/// The prototype that holds a property, which receivers of the case's shape inherit while
/// no prototype changed its layout: while the runtime's prototype epoch is `epoch`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Holder {
    /// The prototype's address.
    pub object: u64,
    pub epoch: u32,
}

/// What the interpreter observed, by instruction index.
pub trait Profile {
    /// Operand (or element) kinds seen at an instruction (`kind` bits; 0: never ran).
    fn kinds(&self, ip: u32) -> u8;
    /// Data properties a property access found, own or (for a read) of a prototype; for a
    /// write, own ones it overwrote or added.
    fn property(&self, ip: u32) -> PropertySite;
    /// The global object's address (the receiver of `get_global`).
    fn global_object(&self) -> u64;
    /// The value bits of string `id` of the function's bundle (which keeps it alive).
    fn string(&self, id: u32) -> u64;
    /// Whether string `id` of the function's bundle is "length".
    fn is_length(&self, id: u32) -> bool;
    /// The one function the call (or `construct`) at `ip` called, when the VM lets it be
    /// inlined there.
    fn inlinee(&self, _ip: u32) -> Option<Inlinee<'_>> {
        None
    }
    /// The functions the call at `ip` called, when it called a few (two or more), first
    /// seen first: each (as the VM identifies it) with its inlinee if it may be inlined.
    fn polymorphic(&self, _ip: u32) -> Vec<(u64, Option<Inlinee<'_>>)> {
        Vec::new()
    }
    /// The one shape of the objects the `construct` at `ip` made as `this` (which fixes
    /// their prototype), if it saw one.
    fn this_shape(&self, _ip: u32) -> Option<u64> {
        None
    }
    /// Property `name` (a string id of the function's bundle) of the objects of `shape`:
    /// where they have it, when it is a data property of their own or of a prototype (a
    /// lookup the VM makes now, which holds while the prototype epoch stays), and the value
    /// it has now.
    fn lookup(&self, _shape: u64, _name: u32) -> Option<Found> {
        None
    }
    /// The function a closure (a value's bits, read while compiling) would be inlined as.
    fn closure_inlinee(&self, _closure: u64) -> Option<Inlinee<'_>> {
        None
    }
    /// The bits of `Function.prototype.apply` of the function's realm.
    fn apply_function(&self) -> Option<u64> {
        None
    }
    /// Whether `note` keeps what it is told (the translation's decisions, for a log).
    fn logging(&self) -> bool {
        false
    }
    /// What the translation decided at instruction `ip` of this function (inlined a
    /// callee there, or why not).
    fn note(&self, _ip: u32, _what: String) {}
}

/// A property as `Profile::lookup` finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// Where it is (the case's shape is the one looked up; no transition).
    pub case: PropertyCase,
    /// Its value now (the bits of a value; a guess for what compiled code will load).
    pub value: u64,
}

/// A callee a call site may inline.
pub struct Inlinee<'a> {
    /// How the VM identifies the callee: what a closure of it holds as its function.
    pub function: u64,
    pub name: String,
    /// Its decoded instructions (it has no exception handlers).
    pub insts: &'a [Inst],
    pub frame_size: u32,
    /// What the interpreter observed running it.
    pub profile: Box<dyn Profile + 'a>,
}

/// The most instructions an inlined callee may have, with the callees inlined into it.
const MAX_INLINE: usize = 48;
/// The most inlined calls nested in one another (a callee inlined into a callee ...).
const MAX_INLINE_DEPTH: usize = 4;

/// Whether callee `g`, called at depth `depth` (1: from the function being compiled), can
/// be translated into its caller: small (with the callees it inlines, which `budget`
/// counts down), without loops, and made of instructions compiled inline and calls it can
/// inline in turn (where one would need the VM, an inlined callee leaves compiled code
/// instead, with its frame rebuilt: it has none while it runs inline).
fn inlinable(g: &Inlinee, depth: usize, budget: &mut usize) -> bool {
    if depth > MAX_INLINE_DEPTH || g.insts.len() > *budget {
        return false;
    }
    *budget -= g.insts.len();
    let forwarded = forwarded_arguments(g.insts);
    g.insts.iter().enumerate().all(|(ip, inst)| {
        let ip = ip as u32;
        match *inst {
            // `f.apply(x, arguments)`: whether `f` can be inlined is known only where the
            // callee is inlined (see `Tx::inline_forwarded`).
            Inst::CreateArguments { .. } | Inst::Call { .. }
                if forwarded.is_some_and(|(made, _, call)| ip == made || ip == call) =>
            {
                true
            }
            Inst::Call { argc, .. } => {
                argc > 0
                    && match g.profile.inlinee(ip) {
                        Some(h) => inlinable(&h, depth + 1, budget),
                        // A few callees: every one inlined.
                        None => {
                            let seen = g.profile.polymorphic(ip);
                            !seen.is_empty()
                                && seen.iter().all(|(_, h)| h.as_ref().is_some_and(|h| inlinable(h, depth + 1, budget)))
                        }
                    }
            }
            Inst::Construct { callee, new_target, .. } => {
                callee == new_target
                    && g.profile.this_shape(ip).is_some()
                    && g.profile.inlinee(ip).is_some_and(|h| inlinable(&h, depth + 1, budget))
            }
            _ => leaf_inlinable(inst),
        }
    })
}

/// Whether an instruction of a callee compiles inline (see `inlinable`).
fn leaf_inlinable(inst: &Inst) -> bool {
    inst.branch_offset().is_none_or(|o| o > 0)
        && matches!(
            inst,
            Inst::Wide {}
                | Inst::Mov { .. }
                | Inst::LoadConstUndefined { .. }
                | Inst::LoadConstNull { .. }
                | Inst::LoadConstTrue { .. }
                | Inst::LoadConstFalse { .. }
                | Inst::LoadConstInt { .. }
                | Inst::LoadConstDouble { .. }
                | Inst::LoadConstString { .. }
                | Inst::LoadParam { .. }
                | Inst::LoadThisNS { .. }
                | Inst::Add { .. }
                | Inst::AddN { .. }
                | Inst::Sub { .. }
                | Inst::SubN { .. }
                | Inst::Mul { .. }
                | Inst::MulN { .. }
                | Inst::Div { .. }
                | Inst::DivN { .. }
                | Inst::BitAnd { .. }
                | Inst::BitOr { .. }
                | Inst::BitXor { .. }
                | Inst::Shl { .. }
                | Inst::Shr { .. }
                | Inst::UShr { .. }
                | Inst::Inc { .. }
                | Inst::Dec { .. }
                | Inst::PostInc { .. }
                | Inst::PostDec { .. }
                | Inst::Negate { .. }
                | Inst::Less { .. }
                | Inst::LessN { .. }
                | Inst::LessEq { .. }
                | Inst::LessEqN { .. }
                | Inst::Greater { .. }
                | Inst::GreaterN { .. }
                | Inst::GreaterEq { .. }
                | Inst::GreaterEqN { .. }
                | Inst::Eq { .. }
                | Inst::Neq { .. }
                | Inst::StrictEq { .. }
                | Inst::StrictNeq { .. }
                | Inst::Not { .. }
                | Inst::Jmp { .. }
                | Inst::JmpTrue { .. }
                | Inst::JmpFalse { .. }
                | Inst::JmpUndefined { .. }
                | Inst::JmpNotUndefined { .. }
                | Inst::JmpNullish { .. }
                | Inst::JmpNotNullish { .. }
                | Inst::JmpEq { .. }
                | Inst::JmpNeq { .. }
                | Inst::JmpStrictEq { .. }
                | Inst::JmpStrictNeq { .. }
                | Inst::JmpLess { .. }
                | Inst::JmpNotLess { .. }
                | Inst::JmpLessEq { .. }
                | Inst::JmpNotLessEq { .. }
                | Inst::JmpGreater { .. }
                | Inst::JmpNotGreater { .. }
                | Inst::JmpGreaterEq { .. }
                | Inst::JmpNotGreaterEq { .. }
                | Inst::GetById { .. }
                | Inst::GetGlobal { .. }
                | Inst::TypeofGlobal { .. }
                | Inst::PutById { .. }
                | Inst::PutGlobal { .. }
                | Inst::GetByVal { .. }
                | Inst::PutByVal { .. }
                | Inst::GetGlobalObject { .. }
                | Inst::ToNumeric { .. }
                | Inst::Ret { .. }
                | Inst::RetUndefined {}
                | Inst::Trap {}
                // It leaves: the interpreter throws in the frame the exit rebuilds.
                | Inst::Throw { .. }
                | Inst::ThrowError { .. }
        )
}

/// The function to translate.
pub struct Source<'a> {
    pub name: &'a str,
    /// Decoded instructions; jump offsets are instruction-index deltas.
    pub insts: &'a [Inst],
    /// Exception handlers as `(start, end, target)` instruction indices.
    pub handlers: &'a [(u32, u32, u32)],
    /// The registers of the frame.
    pub frame_size: u32,
    /// Where compiled code starts: 0, or a loop header (entry from the interpreter, OSR).
    pub entry: u32,
    /// The address of a byte that is non-zero when the runtime is asked to stop (polled at
    /// back-edges).
    pub interrupt: u64,
    /// The address of a u32 that is non-zero when the heap is due for a collection (polled
    /// at back-edges with the interrupt flag).
    pub gc_due: u64,
    /// Call the safepoint helper at every back-edge (to collect there under stress).
    pub stress: bool,
    /// The address of the runtime's prototype epoch (a u32; see `Holder`).
    pub proto_epoch: u64,
}

/// Most `instructions × registers` a function may have (the liveness sets' size).
const MAX_LIVENESS_BITS: usize = 1 << 26;

/// Most bytecode instructions a function may have. Compile time grows faster than the size
/// in places that are not ours (Cranelift's register allocator on tens of thousands of
/// blocks): a 20,000-instruction function of additions took 3 s, so the largest functions
/// stay in the interpreter, as V8's optimizing tiers leave theirs.
const MAX_INSTRUCTIONS: usize = 8_000;

/// A set of registers.
#[derive(Clone, PartialEq)]
struct Regs(Vec<u64>);

impl Regs {
    fn new(n: u32) -> Regs {
        Regs(vec![0; (n as usize).div_ceil(64)])
    }
    fn insert(&mut self, r: u32) {
        if let Some(w) = self.0.get_mut(r as usize / 64) {
            *w |= 1 << (r % 64);
        }
    }
    fn remove(&mut self, r: u32) {
        if let Some(w) = self.0.get_mut(r as usize / 64) {
            *w &= !(1 << (r % 64));
        }
    }
    fn union(&mut self, other: &Regs) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }
    fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.0
            .iter()
            .enumerate()
            .flat_map(|(i, &w)| (0..64).filter(move |b| w & (1 << b) != 0).map(move |b| (i * 64 + b) as u32))
    }
}

/// The instruction's successors in normal control flow (in compiled code when
/// `compiled`: none after an instruction it leaves at).
fn successors(insts: &[Inst], ip: u32, compiled: bool) -> Vec<u32> {
    let inst = &insts[ip as usize];
    let mut out = Vec::new();
    if let Some(off) = inst.branch_offset() {
        out.push((ip as i64 + off as i64) as u32);
    }
    let leaves = inst.opcode().is_terminator() || (compiled && unsupported(inst));
    let falls_through = !leaves;
    if falls_through && (ip as usize + 1) < insts.len() {
        out.push(ip + 1);
    }
    out
}

/// Instructions compiled code never runs: it leaves for the interpreter there.
fn unsupported(inst: &Inst) -> bool {
    matches!(
        inst,
        Inst::Catch { .. }
            | Inst::CreateGenerator { .. }
            | Inst::StartGenerator {}
            | Inst::SaveGenerator { .. }
            | Inst::ResumeGenerator { .. }
            | Inst::CompleteGenerator {}
    )
}

/// The registers live on entry to every instruction.
fn liveness(src: &Source) -> Vec<Regs> {
    let n = src.insts.len();
    let empty = Regs::new(src.frame_size);
    let mut live = vec![empty.clone(); n];
    let mut succs: Vec<Vec<u32>> = (0..n as u32).map(|i| successors(src.insts, i, false)).collect();
    for &(s, e, t) in src.handlers {
        for i in s..e.min(n as u32) {
            succs[i as usize].push(t);
        }
    }
    let mut changed = true;
    while changed {
        changed = false;
        for i in (0..n).rev() {
            let mut set = empty.clone();
            for &s in &succs[i] {
                if let Some(l) = live.get(s as usize) {
                    set.union(l);
                }
            }
            let inst = &src.insts[i];
            inst.for_each_register(|r, writes| {
                if writes {
                    set.remove(r);
                }
            });
            inst.for_each_register(|r, writes| {
                if !writes {
                    set.insert(r);
                }
            });
            if set != live[i] {
                live[i] = set;
                changed = true;
            }
        }
    }
    live
}

struct Tx<'a> {
    src: &'a Source<'a>,
    profile: &'a dyn Profile,
    vm: &'a Interface,
    f: Function,
    live: Vec<Regs>,
    /// The MIR block of each block-starting instruction.
    blocks: HashMap<u32, Block>,
    /// The frame's arguments (entry parameters).
    params: Vec<Val>,
    /// The block being filled.
    cur: Block,
    /// Each register's value, and whether its frame slot is stale.
    regs: Vec<Option<Val>>,
    dirty: Vec<bool>,
    /// The exit made last and its instruction, while the registers stay the same.
    last_exit: Option<(u32, ExitId)>,
    /// Set while translating a callee inlined into its caller.
    inline: Option<Inline>,
    /// Arrays `new_array` made that the program cannot have seen yet (values that hold
    /// one): an array literal being filled.
    fresh_arrays: std::collections::HashSet<Val>,
    /// The register of the frame's arguments object and the value (undefined) standing for
    /// it, when the code only forwards the frame's arguments (see `forwarding`).
    forwarded: Option<(u32, Val)>,
    /// Object values whose shape is known here: the object a constructor inlined here
    /// made, and what the properties it was given made of it. (Kept along straight-line
    /// code only, and forgotten wherever something else could change a shape.)
    known: HashMap<Val, u64>,
    /// What values loaded from a prototype held when this was compiled (`Found::value`):
    /// a guess, which code may speculate on behind a guard (the callee `apply` calls).
    guesses: HashMap<Val, u64>,
    /// Set in an inlined callee that cannot be translated inline after all: its caller
    /// throws the translation away and makes the call the general way.
    failed: bool,
}

/// `f.apply(x, arguments)` in a function that uses its arguments object for nothing else:
/// the instruction that makes the object, its register, and the call. Compiled code then
/// does not make the object: the call forwards the frame's arguments (`call_forwarding`),
/// and an exit while the register is live has the VM make it (`ExitState::arguments`).
/// Only in a function without handlers (a throw caught in it could resume where the
/// object is needed) or loops (a loop header's resume exit would lose it).
fn forwarding(src: &Source) -> Option<(u32, u32, u32)> {
    if src.entry != 0 || !src.handlers.is_empty() {
        return None;
    }
    forwarded_arguments(src.insts)
}

/// `forwarding` in code without handlers, entered at its start.
fn forwarded_arguments(insts: &[Inst]) -> Option<(u32, u32, u32)> {
    let mut made = None;
    let mut call = None;
    for (ip, inst) in insts.iter().enumerate() {
        if inst.branch_offset().is_some_and(|o| o <= 0) {
            return None;
        }
        match *inst {
            Inst::CreateArguments { dst } if made.is_none() => made = Some((ip as u32, dst)),
            Inst::Call { first, argc: 3, .. } if call.is_none() => call = Some((ip as u32, first + 2)),
            _ => {}
        }
    }
    let ((at, r), (call_ip, arg)) = (made?, call?);
    if arg != r || call_ip <= at {
        return None;
    }
    // Nothing else touches the register (and the call's callee and `this` are others).
    let mut other_use = false;
    for (ip, inst) in insts.iter().enumerate() {
        let ip = ip as u32;
        if ip == at {
            continue;
        }
        let mut mentions = 0;
        inst.for_each_register(|reg, _| mentions += u32::from(reg == r));
        other_use |= if ip == call_ip { mentions != 1 } else { mentions != 0 };
    }
    (!other_use).then_some((at, r, call_ip))
}

/// What translating an inlined callee needs of its caller.
struct Inline {
    /// The registers of the callers (the function's live at its call, and every register
    /// of each inlined caller's window), which every exit of the callee restores.
    outer: Vec<(u32, ExitValue)>,
    /// The register of the function's arguments object that its code did not make, if it
    /// is among `outer` (see `ExitState::arguments`).
    outer_arguments: Option<u32>,
    /// The frames of the inlined callers and of this callee, outermost first.
    frames: Vec<InlinedFrame>,
    /// Where a return goes: the caller's block after the call (its parameter the result).
    ret: Block,
    /// The arguments it was called with (`this` first), as many as were passed.
    args: Vec<Val>,
    /// For a constructor: the object made as `this` (what a return of anything but an
    /// object gives).
    this: Option<Val>,
}

/// The state of a translation to go back to when inlining a callee fails (`Tx::failed`).
struct Saved {
    f: Function,
    cur: Block,
    regs: Vec<Option<Val>>,
    dirty: Vec<bool>,
    last_exit: Option<(u32, ExitId)>,
}

/// The instructions reachable from the entry, and those that start a block.
fn reach(src: &Source) -> Result<(Vec<bool>, Vec<bool>), String> {
    let n = src.insts.len();
    if n == 0 || src.entry as usize >= n {
        return Err(format!("{}: no instruction at {}", src.name, src.entry));
    }
    if n > MAX_INSTRUCTIONS || n.saturating_mul(src.frame_size.max(1) as usize) > MAX_LIVENESS_BITS {
        return Err(format!("{}: too large to compile ({n} instructions, {} registers)", src.name, src.frame_size));
    }
    let mut reached = vec![false; n];
    let mut starts = vec![false; n];
    starts[src.entry as usize] = true;
    let mut work = vec![src.entry];
    while let Some(ip) = work.pop() {
        if std::mem::replace(&mut reached[ip as usize], true) {
            continue;
        }
        let inst = &src.insts[ip as usize];
        let ends = inst.branch_offset().is_some() || inst.opcode().is_terminator() || unsupported(inst);
        for s in successors(src.insts, ip, true) {
            if s as usize >= n {
                return Err(format!("{}: a jump leaves the function", src.name));
            }
            if ends {
                starts[s as usize] = true;
            }
            work.push(s);
        }
    }
    Ok((reached, starts))
}

/// How many arguments (`this` first) the reachable code reads.
fn params_read(src: &Source, reached: &[bool]) -> u32 {
    src.insts
        .iter()
        .enumerate()
        .filter(|&(i, _)| reached[i])
        .filter_map(|(_, inst)| match inst {
            Inst::LoadParam { index, .. } => Some(index + 1),
            Inst::LoadThisNS { .. } => Some(1),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

/// Translates `src` into MIR.
pub fn translate(src: &Source, profile: &dyn Profile, vm: &Interface) -> Result<Function, String> {
    let (reached, starts) = reach(src)?;
    let mut f = Function::new(src.name, Type::Value);
    let entry = f.add_block();
    let params: Vec<Val> = (0..params_read(src, &reached)).map(|_| f.add_param(entry, Type::Value)).collect();
    let mut tx = Tx::new(src, profile, vm, f, params, entry, None);
    tx.body(&reached, &starts)?;
    let Tx { mut f, live, blocks, .. } = tx;
    // Loop headers: the targets of back edges.
    let dom = Dominators::new(&f);
    for &b in &f.layout.clone() {
        let succs: Vec<Block> = f
            .block(b)
            .insts
            .last()
            .map(|i| i.op.successors().into_iter().map(|(s, _)| s).collect())
            .unwrap_or_default();
        for s in succs {
            if dom.reachable(b) && dom.dominates(s, b) {
                f.blocks[s.0 as usize].is_loop = true;
            }
        }
    }
    // Each loop header's resume exit: the interpreter at the loop's first instruction with
    // the registers live there, which are the header's parameters.
    let mut headers: Vec<(u32, Block)> = blocks.into_iter().filter(|&(_, b)| f.block(b).is_loop).collect();
    headers.sort();
    for (ip, b) in headers {
        let params = &f.block(b).params;
        let regs = live[ip as usize].iter().zip(params).map(|(r, &p)| (r, ExitValue::Val(p))).collect();
        let e = f.add_exit(ExitState { offset: ip, regs, ..ExitState::default() });
        f.blocks[b.0 as usize].resume = Some(e);
    }
    Ok(f)
}

impl<'a> Tx<'a> {
    fn new(
        src: &'a Source<'a>,
        profile: &'a dyn Profile,
        vm: &'a Interface,
        f: Function,
        params: Vec<Val>,
        cur: Block,
        inline: Option<Inline>,
    ) -> Tx<'a> {
        Tx {
            src,
            profile,
            vm,
            f,
            live: liveness(src),
            blocks: HashMap::new(),
            params,
            cur,
            regs: vec![None; src.frame_size as usize],
            dirty: vec![false; src.frame_size as usize],
            last_exit: None,
            inline,
            fresh_arrays: Default::default(),
            forwarded: None,
            known: HashMap::new(),
            guesses: HashMap::new(),
            failed: false,
        }
    }

    /// Translates the reachable code, from the block being filled (which jumps to the
    /// entry instruction).
    fn body(&mut self, reached: &[bool], starts: &[bool]) -> Result<(), String> {
        let n = self.src.insts.len();
        for ip in (0..n).filter(|&i| starts[i] && reached[i]) {
            let b = self.f.add_block();
            for _ in self.live[ip].iter() {
                self.f.add_param(b, Type::Value);
            }
            self.blocks.insert(ip as u32, b);
        }
        // Code entered by calls sets its registers to undefined first: a compiled caller
        // pushes the frame without (see `CallPath`), and the collector reads them. Nothing
        // reaches a safepoint in between.
        if self.inline.is_none() && self.src.entry == 0 {
            let undefined = self.vconst(JsConst::Undefined);
            for r in 0..self.src.frame_size {
                self.effect(Op::StoreReg(r, undefined));
            }
        }
        // The prologue: the live registers from the frame (an inlined callee has none yet:
        // they would be undefined).
        for r in self.live[self.src.entry as usize].clone().iter() {
            let v = match self.inline {
                None => self.push(Op::LoadReg(r), Type::Value),
                Some(_) => self.vconst(JsConst::Undefined),
            };
            self.regs[r as usize] = Some(v);
        }
        self.jump(self.src.entry);
        for ip in (0..n as u32).filter(|&i| starts[i as usize] && reached[i as usize]) {
            self.block(ip, starts)?;
        }
        Ok(())
    }
}

impl Tx<'_> {
    fn push(&mut self, op: Op, ty: Type) -> Val {
        self.f.push(self.cur, op, Some(ty), None).expect("an instruction with a type has a result")
    }

    fn push_exit(&mut self, op: Op, ty: Option<Type>, exit: ExitId) -> Option<Val> {
        self.f.push(self.cur, op, ty, Some(exit))
    }

    fn effect(&mut self, op: Op) {
        self.f.push(self.cur, op, None, None);
    }

    fn iconst(&mut self, ty: Type, n: i64) -> Val {
        self.push(Op::Iconst(ty, n), ty)
    }

    fn vconst(&mut self, c: JsConst) -> Val {
        self.push(Op::Vconst(c), Type::Value)
    }

    /// Register `dst` = a constant.
    fn constant(&mut self, dst: u32, c: JsConst) {
        let v = self.vconst(c);
        self.set(dst, v);
    }

    /// A helper operand that is an integer, not a JavaScript value: `n` as the value's bits.
    fn raw(&mut self, n: u32) -> Val {
        let bits = self.iconst(Type::I64, n as i64);
        self.push(Op::FromBits(bits), Type::Value)
    }

    fn number(&mut self, x: f64) -> Val {
        self.vconst(JsConst::Number(Ieee64::new(x)))
    }

    /// The bits of a constant, as an i64.
    fn const_bits(&mut self, c: JsConst) -> Val {
        let bits = const_bits(&self.vm.values, c);
        self.iconst(Type::I64, bits as i64)
    }

    /// Register `r`'s value.
    fn get(&mut self, r: u32) -> Val {
        match self.regs[r as usize] {
            Some(v) => v,
            // Not live here by the liveness (read before any write on every path): what
            // the frame holds (undefined, in an inlined callee's frame to be).
            None => {
                let v = match self.inline {
                    None => self.push(Op::LoadReg(r), Type::Value),
                    Some(_) => self.vconst(JsConst::Undefined),
                };
                self.regs[r as usize] = Some(v);
                self.last_exit = None;
                v
            }
        }
    }

    fn set(&mut self, r: u32, v: Val) {
        self.last_exit = None;
        self.regs[r as usize] = Some(v);
        self.dirty[r as usize] = true;
    }

    /// An exit resuming the interpreter at `ip` with the registers live there (one per
    /// instruction while the registers keep their values).
    fn exit(&mut self, ip: u32) -> ExitId {
        if let Some((at, e)) = self.last_exit {
            if at == ip {
                return e;
            }
        }
        let e = self.new_exit(ip);
        self.last_exit = Some((ip, e));
        e
    }

    fn new_exit(&mut self, ip: u32) -> ExitId {
        let (regs, inlined, arguments) = self.exit_state(ip);
        self.f.add_exit(ExitState { offset: ip, regs, inlined, arguments })
    }

    /// The registers an exit at `ip` writes, the inlined frames it rebuilds, and the
    /// register of the function's arguments object that the VM makes (as does each
    /// frame's, where the code forwarded its arguments without making the object and the
    /// register is live).
    fn exit_state(&mut self, ip: u32) -> (Vec<(u32, ExitValue)>, Vec<InlinedFrame>, Option<u32>) {
        let live = self.live[ip as usize].clone();
        let window = self.window();
        let (regs, mut frames, mut arguments) = match &self.inline {
            None => (live.iter().map(|r| (r, ExitValue::Val(self.get(r)))).collect(), Vec::new(), None),
            Some(inline) => {
                // The callers' registers, then the callee's live ones in its window to be
                // (the VM makes the frame of what the exit writes, and sets the others to
                // undefined).
                let (mut regs, frames, arguments) =
                    (inline.outer.clone(), inline.frames.clone(), inline.outer_arguments);
                for r in live.iter() {
                    regs.push((window + r, ExitValue::Val(self.get(r))));
                }
                (regs, frames, arguments)
            }
        };
        // The arguments object the code did not make, if its register is live here.
        let unmade = self.forwarded.and_then(|(r, v)| {
            regs.iter().any(|&(reg, value)| reg == window + r && value == ExitValue::Val(v)).then_some(r)
        });
        match frames.last_mut() {
            Some(frame) => frame.arguments = unmade,
            None => arguments = unmade,
        }
        (regs, frames, arguments)
    }

    /// Where this code's register 0 is among the function's (0, or an inlined callee's
    /// window).
    fn window(&self) -> u32 {
        self.inline.as_ref().and_then(|i| i.frames.last()).map_or(0, |f| f.window)
    }

    /// Makes `b` the block being filled; its registers' frame slots are stale until stored.
    fn switch_to(&mut self, b: Block) {
        self.cur = b;
        self.last_exit = None;
        self.dirty.iter_mut().for_each(|d| *d = true);
    }

    /// The arguments a jump to the block at `ip` passes.
    fn args(&mut self, ip: u32) -> Vec<Val> {
        self.live[ip as usize].clone().iter().map(|r| self.get(r)).collect()
    }

    fn jump(&mut self, ip: u32) {
        let args = self.args(ip);
        let b = self.blocks[&ip];
        self.effect(Op::Jump(b, args));
    }

    /// Ends the block: to the block at `yes` when `cond` (i32) is non-zero, else at `no`.
    fn branch(&mut self, cond: Val, yes: u32, no: u32) {
        let (ya, na) = (self.args(yes), self.args(no));
        let (yb, nb) = (self.blocks[&yes], self.blocks[&no]);
        self.effect(Op::Brif(cond, yb, ya, nb, na));
    }

    /// Stores the registers live at `ip` whose frame slots are stale.
    fn flush(&mut self, ip: u32) {
        if self.inline.is_some() {
            // An inlined callee has no frame (and calls no helper).
            return;
        }
        for r in self.live[ip as usize].clone().iter() {
            if self.dirty[r as usize] {
                let v = self.get(r);
                self.effect(Op::StoreReg(r, v));
                self.dirty[r as usize] = false;
            }
        }
    }

    /// Calls helper `name` for the instruction at `ip` (which resumes in the interpreter,
    /// throwing, if the helper throws).
    fn helper(&mut self, ip: u32, name: &str, args: Vec<Val>) -> Val {
        if self.inline.is_some() {
            // Helpers run on the frame of the code that calls them, which an inlined callee
            // does not have: it leaves, and the interpreter runs the instruction in the
            // frame the exit rebuilds. (What follows is unreachable.)
            let exit = self.exit(ip);
            self.push_exit(Op::Deopt(Reason::Unsupported), None, exit);
            self.cur = self.f.add_block();
            self.last_exit = None;
            return self.vconst(JsConst::Undefined);
        }
        self.flush(ip);
        // It may run JavaScript, which may change any object's shape.
        self.known.clear();
        // Every register live here is in the frame now: the exit has nothing to store.
        let exit = self.f.add_exit(ExitState { offset: ip, ..ExitState::default() });
        self.push_exit(Op::CallHelper(name.to_string(), args), Some(Type::Value), exit).expect("a helper's result")
    }

    /// Calls helper `name` for the instruction at `ip`, a helper that runs no JavaScript,
    /// never collects and does not use the frame (`HelperSig::pure`): nothing needs to be
    /// in the frame, and an inlined callee may call it too. If it throws, its exit writes
    /// the registers (and rebuilds the frames) as a check's would.
    fn pure_helper(&mut self, ip: u32, name: &str, args: Vec<Val>) -> Val {
        debug_assert!(self.vm.helpers.iter().any(|h| h.name == name && h.pure), "@{name} is a pure helper");
        let exit = self.exit(ip);
        self.push_exit(Op::CallHelper(name.to_string(), args), Some(Type::Value), exit).expect("a helper's result")
    }

    /// Runs the instruction at `ip` through the VM (`exec`); its results come back in the
    /// frame. Returns the helper's result (a comparison's or a jump's outcome).
    fn exec(&mut self, ip: u32) -> Val {
        let at = self.number(ip as f64);
        let r = self.helper(ip, "exec", vec![at]);
        let mut defs = Vec::new();
        self.src.insts[ip as usize].for_each_register(|r, writes| {
            if writes {
                defs.push(r)
            }
        });
        for d in defs {
            let v = self.push(Op::LoadReg(d), Type::Value);
            self.regs[d as usize] = Some(v);
            self.dirty[d as usize] = false;
            self.last_exit = None;
        }
        r
    }

    /// Whether a value is `true` (i32).
    fn is_true(&mut self, v: Val) -> Val {
        let bits = self.push(Op::Bits(v), Type::I64);
        let t = self.const_bits(JsConst::True);
        self.push(Op::Icmp(IntCC::Eq, bits, t), Type::I32)
    }

    /// Whether a value's bits are a constant's (i32).
    fn is_const(&mut self, v: Val, c: JsConst) -> Val {
        let bits = self.push(Op::Bits(v), Type::I64);
        let k = self.const_bits(c);
        self.push(Op::Icmp(IntCC::Eq, bits, k), Type::I32)
    }

    /// A boolean value from an i32 condition.
    fn boolean(&mut self, c: Val) -> Val {
        let wide = self.push(Op::Sext(c), Type::I64);
        let f = self.const_bits(JsConst::False);
        let bits = self.push(Op::Int(IntOp::Add, wide, f), Type::I64);
        self.push(Op::FromBits(bits), Type::Value)
    }

    /// A new block with one parameter of type `ty` where paths join.
    fn join(&mut self, ty: Type) -> (Block, Val) {
        let b = self.f.add_block();
        let v = self.f.add_param(b, ty);
        (b, v)
    }

    /// Polls for interrupts and a due collection (collects always, under stress) at a
    /// back-edge from `ip`.
    fn poll(&mut self, ip: u32) {
        if self.src.stress {
            self.helper(ip, "safepoint", vec![]);
            return;
        }
        let addr = self.iconst(Type::Ptr, self.src.interrupt as i64);
        let word = self.push(Op::Load(Type::I32, addr, 0), Type::I32);
        let mask = self.iconst(Type::I32, 0xff);
        let interrupt = self.push(Op::Int(IntOp::And, word, mask), Type::I32);
        let due_addr = self.iconst(Type::Ptr, self.src.gc_due as i64);
        let due = self.push(Op::Load(Type::I32, due_addr, 0), Type::I32);
        let flag = self.push(Op::Int(IntOp::Or, interrupt, due), Type::I32);
        let slow = self.f.add_block();
        let cont = self.f.add_block();
        self.effect(Op::Brif(flag, slow, vec![], cont, vec![]));
        let saved = self.dirty.clone();
        self.cur = slow;
        self.helper(ip, "safepoint", vec![]);
        self.effect(Op::Jump(cont, vec![]));
        // A register whose slot was current before is current on both paths.
        self.cur = cont;
        self.dirty = saved;
    }

    /// Translates the block starting at `ip`.
    fn block(&mut self, start: u32, starts: &[bool]) -> Result<(), String> {
        let b = self.blocks[&start];
        // What is known of shapes holds along straight-line code: into an inlined
        // callee's first block, whose one predecessor is its caller's call.
        if self.inline.is_none() || start != self.src.entry {
            self.known.clear();
        }
        self.regs.iter_mut().for_each(|r| *r = None);
        let params = self.f.block(b).params.clone();
        for (r, v) in self.live[start as usize].clone().iter().zip(params) {
            self.regs[r as usize] = Some(v);
        }
        self.switch_to(b);
        let mut ip = start;
        loop {
            if ip != start && starts[ip as usize] {
                self.jump(ip);
                return Ok(());
            }
            if self.inst(ip)? {
                return Ok(());
            }
            ip += 1;
        }
    }

    /// The int32 operands of an instruction whose feedback saw only int32s.
    fn int_operands(&mut self, ip: u32, lhs: u32, rhs: u32) -> (Val, Val) {
        let exit = self.exit(ip);
        let (a, b) = (self.get(lhs), self.get(rhs));
        let x = self.push_exit(Op::UnboxI32(a), Some(Type::I32), exit).expect("a result");
        let y = self.push_exit(Op::UnboxI32(b), Some(Type::I32), exit).expect("a result");
        (x, y)
    }

    fn float_operands(&mut self, ip: u32, lhs: u32, rhs: u32) -> (Val, Val) {
        let exit = self.exit(ip);
        let (a, b) = (self.get(lhs), self.get(rhs));
        let x = self.push_exit(Op::UnboxF64(a), Some(Type::F64), exit).expect("a result");
        let y = self.push_exit(Op::UnboxF64(b), Some(Type::F64), exit).expect("a result");
        (x, y)
    }

    /// The operand kinds at `ip` if they are all numbers: Some(true) if all int32.
    fn numbers(&self, ip: u32) -> Option<bool> {
        let k = self.profile.kinds(ip) & (kind::INT32 | kind::DOUBLE | kind::STRING | kind::OTHER);
        match k {
            0 => None,
            kind::INT32 => Some(true),
            _ if k & (kind::STRING | kind::OTHER) == 0 => Some(false),
            _ => None,
        }
    }

    /// For an instruction that never ran in the interpreter (so nothing to speculate on):
    /// `fast` on two numbers as f64 inline, anything else by the VM (`slow`); the result
    /// is of type `ty`.
    fn numbers_or_vm(
        &mut self,
        ip: u32,
        lhs: u32,
        rhs: u32,
        ty: Type,
        fast: impl FnOnce(&mut Self, Val, Val) -> Val,
        slow: impl FnOnce(&mut Self) -> Val,
    ) -> Val {
        let (a, b) = (self.get(lhs), self.get(rhs));
        let (join, result) = self.join(ty);
        let saved = self.dirty.clone();
        let na = self.push(Op::TagIs(Tag::Number, a), Type::I32);
        let nb = self.push(Op::TagIs(Tag::Number, b), Type::I32);
        let both = self.push(Op::Int(IntOp::And, na, nb), Type::I32);
        let yes = self.f.add_block();
        let no = self.f.add_block();
        self.effect(Op::Brif(both, yes, vec![], no, vec![]));
        self.cur = yes;
        let exit = self.exit(ip);
        let x = self.push_exit(Op::UnboxF64(a), Some(Type::F64), exit).expect("a result");
        let y = self.push_exit(Op::UnboxF64(b), Some(Type::F64), exit).expect("a result");
        let r = fast(self, x, y);
        self.effect(Op::Jump(join, vec![r]));
        self.cur = no;
        let r = slow(self);
        self.effect(Op::Jump(join, vec![r]));
        self.cur = join;
        self.dirty = saved;
        result
    }

    /// Whether the instruction at `ip` never ran in the interpreter.
    fn unprofiled(&self, ip: u32) -> bool {
        self.profile.kinds(ip) == 0
    }

    /// Arithmetic at an instruction that never ran (see `numbers_or_vm`).
    fn unprofiled_arith(&mut self, ip: u32, op: FloatOp, dst: u32, lhs: u32, rhs: u32, k: Option<f64>) -> Val {
        self.numbers_or_vm(
            ip,
            lhs,
            rhs,
            Type::Value,
            |tx, x, y| {
                let y = match k {
                    Some(k) => tx.push(Op::Fconst(Ieee64::new(k)), Type::F64),
                    None => y,
                };
                let r = tx.push(Op::Float(op, x, y), Type::F64);
                tx.push(Op::BoxF64(r), Type::Value)
            },
            |tx| {
                tx.exec(ip);
                tx.get(dst)
            },
        )
    }

    /// Whether a comparison that never ran holds (see `numbers_or_vm`).
    fn unprofiled_compare(&mut self, ip: u32, cc: FloatCC, lhs: u32, rhs: u32) -> Val {
        self.numbers_or_vm(
            ip,
            lhs,
            rhs,
            Type::I32,
            |tx, x, y| tx.push(Op::Fcmp(cc, x, y), Type::I32),
            |tx| tx.comparison_holds(ip),
        )
    }

    /// `lhs op rhs` for arithmetic; None when the feedback does not allow it inline.
    fn arith(&mut self, ip: u32, op: FloatOp, lhs: u32, rhs: u32) -> Option<Val> {
        let ints = self.numbers(ip)?;
        if ints && op != FloatOp::Div {
            let (x, y) = self.int_operands(ip, lhs, rhs);
            let exit = self.exit(ip);
            let checked = match op {
                FloatOp::Add => CheckedOp::Add,
                FloatOp::Sub => CheckedOp::Sub,
                _ => CheckedOp::Mul,
            };
            let r = self.push_exit(Op::Checked(checked, x, y), Some(Type::I32), exit).expect("a result");
            if checked == CheckedOp::Mul {
                // 0 times a negative number is -0, which is not an int32.
                let zero = self.iconst(Type::I32, 0);
                let is_zero = self.push(Op::Icmp(IntCC::Eq, r, zero), Type::I32);
                let either = self.push(Op::Int(IntOp::Or, x, y), Type::I32);
                let negative = self.push(Op::Icmp(IntCC::Slt, either, zero), Type::I32);
                let minus_zero = self.push(Op::Int(IntOp::And, is_zero, negative), Type::I32);
                self.push_exit(Op::Check(minus_zero, Reason::MinusZero), None, exit);
            }
            return Some(self.push(Op::BoxI32(r), Type::Value));
        }
        let (x, y) = self.float_operands(ip, lhs, rhs);
        let r = self.push(Op::Float(op, x, y), Type::F64);
        Some(self.push(Op::BoxF64(r), Type::Value))
    }

    /// `lhs op rhs` for the int32 bitwise operators; None when not all numbers. The
    /// operands go through ToInt32 even where the feedback saw only int32s: one conversion,
    /// where checking that a number is an int32 takes two (and `fold` drops both where the
    /// operand was an i32 already).
    fn bitwise(&mut self, ip: u32, op: IntOp, lhs: u32, rhs: u32) -> Option<Val> {
        self.numbers(ip)?;
        let (x, y) = self.float_operands(ip, lhs, rhs);
        let exit = self.exit(ip);
        let x = self.push_exit(Op::ToInt32(x), Some(Type::I32), exit).expect("a result");
        let y = self.push_exit(Op::ToInt32(y), Some(Type::I32), exit).expect("a result");
        let r = self.push(Op::Int(op, x, y), Type::I32);
        if op != IntOp::Ushr {
            return Some(self.push(Op::BoxI32(r), Type::Value));
        }
        // An unsigned result: the i32 as f64, plus 2^32 when its sign bit is set.
        let f = self.push(Op::I32ToF64(r), Type::F64);
        let thirty_one = self.iconst(Type::I32, 31);
        let sign = self.push(Op::Int(IntOp::Sshr, r, thirty_one), Type::I32);
        let sign = self.push(Op::I32ToF64(sign), Type::F64);
        let k = self.push(Op::Fconst(Ieee64::new(-4294967296.0)), Type::F64);
        let fix = self.push(Op::Float(FloatOp::Mul, sign, k), Type::F64);
        let u = self.push(Op::Float(FloatOp::Add, f, fix), Type::F64);
        Some(self.push(Op::BoxF64(u), Type::Value))
    }

    /// `v ± 1`; None when the feedback does not allow it inline.
    fn step_by_one(&mut self, ip: u32, src: u32, delta: i32) -> Option<Val> {
        let ints = self.numbers(ip)?;
        let exit = self.exit(ip);
        let a = self.get(src);
        if ints {
            let x = self.push_exit(Op::UnboxI32(a), Some(Type::I32), exit).expect("a result");
            let one = self.iconst(Type::I32, delta as i64);
            let r = self.push_exit(Op::Checked(CheckedOp::Add, x, one), Some(Type::I32), exit).expect("a result");
            return Some(self.push(Op::BoxI32(r), Type::Value));
        }
        let x = self.push_exit(Op::UnboxF64(a), Some(Type::F64), exit).expect("a result");
        let one = self.push(Op::Fconst(Ieee64::new(delta as f64)), Type::F64);
        let r = self.push(Op::Float(FloatOp::Add, x, one), Type::F64);
        Some(self.push(Op::BoxF64(r), Type::Value))
    }

    /// A numeric comparison as an i32; None when the feedback does not allow it inline.
    /// (Int32s compare as int32s here, unlike at `numbers_equal`: loop conditions are
    /// comparisons, and `repr` keeps a loop's counters i32 where the loop unboxes them so.)
    fn compare(&mut self, ip: u32, cc: FloatCC, lhs: u32, rhs: u32) -> Option<Val> {
        let ints = self.numbers(ip)?;
        if ints {
            let (x, y) = self.int_operands(ip, lhs, rhs);
            return Some(self.push(Op::Icmp(cc.for_int32s(), x, y), Type::I32));
        }
        let (x, y) = self.float_operands(ip, lhs, rhs);
        Some(self.push(Op::Fcmp(cc, x, y), Type::I32))
    }

    /// `lhs === rhs` as an i32: decided inline when either side is an object, a symbol,
    /// undefined, null or a boolean (then only the same bits are equal) or both are
    /// numbers; otherwise by the VM.
    fn strict_equal(&mut self, ip: u32, lhs: u32, rhs: u32) -> Val {
        if let Some(r) = self.numbers_equal(ip, lhs, rhs) {
            return r;
        }
        let (a, b) = (self.get(lhs), self.get(rhs));
        let (join, result) = self.join(Type::I32);
        let ab = self.push(Op::Bits(a), Type::I64);
        let bb = self.push(Op::Bits(b), Type::I64);
        let same = self.push(Op::Icmp(IntCC::Eq, ab, bb), Type::I32);
        let mut identity = None;
        for v in [a, b] {
            for tag in [
                crate::mir::Tag::Object,
                crate::mir::Tag::Undefined,
                crate::mir::Tag::Null,
                crate::mir::Tag::Boolean,
                crate::mir::Tag::Symbol,
            ] {
                let t = self.push(Op::TagIs(tag, v), Type::I32);
                identity = Some(match identity {
                    None => t,
                    Some(acc) => self.push(Op::Int(IntOp::Or, acc, t), Type::I32),
                });
            }
        }
        let saved = self.dirty.clone();
        self.decide_if(identity.expect("tags tested"), join, same);
        let r = self.numbers_or_vm(
            ip,
            lhs,
            rhs,
            Type::I32,
            |tx, x, y| tx.push(Op::Fcmp(FloatCC::Eq, x, y), Type::I32),
            |tx| tx.comparison_holds(ip),
        );
        self.effect(Op::Jump(join, vec![r]));
        self.cur = join;
        self.dirty = saved;
        result
    }

    /// `lhs == rhs` (loose or strict: the same on numbers) as an i32 where the feedback saw
    /// only numbers: compared as f64s, anything else leaves. (Int32s too: checking that a
    /// boxed number is an int32 costs two conversions, which `fold` saves where both sides
    /// were i32s.) None: the feedback saw other values, or nothing.
    fn numbers_equal(&mut self, ip: u32, lhs: u32, rhs: u32) -> Option<Val> {
        let k = self.profile.kinds(ip);
        if k == 0 || k & !(kind::INT32 | kind::DOUBLE) != 0 {
            return None;
        }
        let (x, y) = self.float_operands(ip, lhs, rhs);
        Some(self.push(Op::Fcmp(FloatCC::Eq, x, y), Type::I32))
    }

    /// Ends the block: to `join` with `value` when `cond`, else on in a new block.
    fn decide_if(&mut self, cond: Val, join: Block, value: Val) {
        let next = self.f.add_block();
        self.effect(Op::Brif(cond, join, vec![value], next, vec![]));
        self.cur = next;
    }

    /// `lhs == rhs` as an i32: decided inline for two numbers, two objects, two booleans,
    /// or undefined or null on either side; otherwise by the VM.
    fn loose_equal(&mut self, ip: u32, lhs: u32, rhs: u32) -> Val {
        if let Some(r) = self.numbers_equal(ip, lhs, rhs) {
            return r;
        }
        let (a, b) = (self.get(lhs), self.get(rhs));
        let (join, result) = self.join(Type::I32);
        let saved = self.dirty.clone();
        let ab = self.push(Op::Bits(a), Type::I64);
        let bb = self.push(Op::Bits(b), Type::I64);
        let same = self.push(Op::Icmp(IntCC::Eq, ab, bb), Type::I32);
        for tag in [Tag::Object, Tag::Boolean] {
            let x = self.push(Op::TagIs(tag, a), Type::I32);
            let y = self.push(Op::TagIs(tag, b), Type::I32);
            let both = self.push(Op::Int(IntOp::And, x, y), Type::I32);
            self.decide_if(both, join, same);
        }
        let mut nullish = [a, b];
        for (i, v) in [a, b].into_iter().enumerate() {
            let u = self.push(Op::TagIs(Tag::Undefined, v), Type::I32);
            let n = self.push(Op::TagIs(Tag::Null, v), Type::I32);
            nullish[i] = self.push(Op::Int(IntOp::Or, u, n), Type::I32);
        }
        let either = self.push(Op::Int(IntOp::Or, nullish[0], nullish[1]), Type::I32);
        let both = self.push(Op::Int(IntOp::And, nullish[0], nullish[1]), Type::I32);
        self.decide_if(either, join, both);
        let r = self.numbers_or_vm(
            ip,
            lhs,
            rhs,
            Type::I32,
            |tx, x, y| tx.push(Op::Fcmp(FloatCC::Eq, x, y), Type::I32),
            |tx| tx.comparison_holds(ip),
        );
        self.effect(Op::Jump(join, vec![r]));
        self.cur = join;
        self.dirty = saved;
        result
    }

    /// Runs the comparison (or the jump on one) at `ip` through the VM: whether the
    /// comparison holds (the VM says whether `!=` holds or a `jmp_not_less` jumps: the
    /// opposite).
    fn comparison_holds(&mut self, ip: u32) -> Val {
        let r = self.exec_outcome(ip);
        let negated = matches!(
            self.src.insts[ip as usize],
            Inst::Neq { .. }
                | Inst::StrictNeq { .. }
                | Inst::JmpNeq { .. }
                | Inst::JmpStrictNeq { .. }
                | Inst::JmpNotLess { .. }
                | Inst::JmpNotLessEq { .. }
                | Inst::JmpNotGreater { .. }
                | Inst::JmpNotGreaterEq { .. }
        );
        if negated {
            self.not(r)
        } else {
            r
        }
    }

    /// Runs the instruction at `ip` through the VM and gives its outcome as an i32.
    fn exec_outcome(&mut self, ip: u32) -> Val {
        let r = self.exec(ip);
        self.is_true(r)
    }

    /// ToBoolean of a register as an i32, for the instruction at `ip` (`jmp_true`,
    /// `jmp_false` or `not`): inline for booleans, objects, undefined, null and numbers,
    /// else by the VM.
    fn truthy(&mut self, ip: u32, cond: u32) -> Val {
        let v = self.get(cond);
        let (join, result) = self.join(Type::I32);
        let saved = self.dirty.clone();
        let bits = self.push(Op::Bits(v), Type::I64);
        let f = self.const_bits(JsConst::False);
        let t = self.push(Op::Int(IntOp::Sub, bits, f), Type::I64);
        let one = self.iconst(Type::I64, 1);
        let is_bool = self.push(Op::Icmp(IntCC::Ule, t, one), Type::I32);
        let small = self.push(Op::Trunc(t), Type::I32);
        self.decide_if(is_bool, join, small);
        let object = self.push(Op::TagIs(Tag::Object, v), Type::I32);
        let yes = self.iconst(Type::I32, 1);
        self.decide_if(object, join, yes);
        let u = self.push(Op::TagIs(Tag::Undefined, v), Type::I32);
        let n = self.push(Op::TagIs(Tag::Null, v), Type::I32);
        let nullish = self.push(Op::Int(IntOp::Or, u, n), Type::I32);
        let no = self.iconst(Type::I32, 0);
        self.decide_if(nullish, join, no);
        let number = self.push(Op::TagIs(Tag::Number, v), Type::I32);
        let numbers = self.f.add_block();
        let slow = self.f.add_block();
        self.effect(Op::Brif(number, numbers, vec![], slow, vec![]));
        self.cur = numbers;
        // A number is truthy unless it is 0, -0 or NaN.
        let exit = self.exit(ip);
        let x = self.push_exit(Op::UnboxF64(v), Some(Type::F64), exit).expect("a result");
        let zero = self.push(Op::Fconst(Ieee64::new(0.0)), Type::F64);
        let above = self.push(Op::Fcmp(FloatCC::Gt, x, zero), Type::I32);
        let below = self.push(Op::Fcmp(FloatCC::Lt, x, zero), Type::I32);
        let nonzero = self.push(Op::Int(IntOp::Or, above, below), Type::I32);
        self.effect(Op::Jump(join, vec![nonzero]));
        self.cur = slow;
        // The VM gives the jump's outcome, or `!v` for `not`.
        let mut r = self.exec_outcome(ip);
        if matches!(self.src.insts[ip as usize], Inst::JmpFalse { .. } | Inst::Not { .. }) {
            r = self.not(r);
        }
        self.effect(Op::Jump(join, vec![r]));
        self.cur = join;
        self.dirty = saved;
        result
    }

    /// Moves the object `p` to the shape of transition `t`, after checking (exiting
    /// otherwise) that nothing forbids adding the property: the object is extensible and
    /// not a prototype, and no prototype changed since the transition was seen.
    fn transition(&mut self, ip: u32, p: Val, t: Holder) {
        let exit = self.exit(ip);
        let objects = self.vm.objects;
        let flags = self.header_byte(p, objects.cell_flags);
        let mask = self.iconst(Type::I32, i64::from(objects.extensible | objects.is_prototype));
        let relevant = self.push(Op::Int(IntOp::And, flags, mask), Type::I32);
        let want = self.iconst(Type::I32, i64::from(objects.extensible));
        let forbidden = self.push(Op::Icmp(IntCC::Ne, relevant, want), Type::I32);
        self.push_exit(Op::Check(forbidden, Reason::NotExtensible), None, exit);
        self.check_epoch(t.epoch, exit);
        let shape = self.iconst(Type::Ptr, t.object as i64);
        self.effect(Op::StoreShape(p, shape));
    }

    /// Leaves through `exit` unless the prototype epoch is still `epoch` (no prototype
    /// changed its layout since a property was found).
    fn check_epoch(&mut self, epoch: u32, exit: ExitId) {
        let addr = self.iconst(Type::Ptr, self.src.proto_epoch as i64);
        let now = self.push(Op::Load(Type::I32, addr, 0), Type::I32);
        let then = self.iconst(Type::I32, epoch as i32 as i64);
        let changed = self.push(Op::Icmp(IntCC::Ne, now, then), Type::I32);
        self.push_exit(Op::Check(changed, Reason::Prototype), None, exit);
    }

    /// The value in `slot` of the object `p` points to.
    fn load_slot(&mut self, p: Val, slot: SlotAt) -> Val {
        match slot {
            SlotAt::Inline(off) => self.push(Op::LoadSlot(p, off), Type::Value),
            SlotAt::OutOfLine(i) => self.push(Op::LoadOolSlot(p, i), Type::Value),
        }
    }

    /// `obj.name` (property `name`, a string id) where the object's shape is known
    /// (`known`): read where objects of that shape have it, as the VM finds it now
    /// (`Profile::lookup`), with no check but the prototype epoch's for a prototype's.
    /// False (nothing done): not known, or not a data property found so.
    fn known_get(&mut self, ip: u32, dst: u32, obj: u32, name: u32) -> bool {
        let v = self.get(obj);
        let Some(&shape) = self.known.get(&v) else { return false };
        let Some(found) = self.profile.lookup(shape, name) else { return false };
        let exit = self.exit(ip);
        let p = self.push_exit(Op::UnboxObject(v), Some(Type::Ptr), exit).expect("a result");
        let at = match found.case.holder {
            None => p,
            Some(h) => {
                self.check_epoch(h.epoch, exit);
                self.iconst(Type::Ptr, h.object as i64)
            }
        };
        let loaded = self.load_slot(at, found.case.slot);
        self.set(dst, loaded);
        self.guesses.insert(loaded, found.value);
        true
    }

    /// `obj.name = value` where the object's shape is known (`known`) and the inline cache
    /// saw that shape: its case without a shape guard, and the shape it gives is known
    /// after. False (nothing done): not so.
    fn known_put(&mut self, ip: u32, obj: u32, value: u32) -> bool {
        let o = self.get(obj);
        let Some(&shape) = self.known.get(&o) else { return false };
        let (cases, _) = self.property_cases(ip, |c| {
            c.shape == shape
                && c.holder.is_none()
                && c.dict_version.is_none()
                && (c.transition.is_none() || matches!(c.slot, SlotAt::Inline(_)))
        });
        let Some(case) = cases.first().copied() else { return false };
        let exit = self.exit(ip);
        let v = self.get(value);
        let p = self.push_exit(Op::UnboxObject(o), Some(Type::Ptr), exit).expect("a result");
        if let Some(t) = case.transition {
            self.transition(ip, p, t);
            self.known.insert(o, t.object);
        }
        match case.slot {
            SlotAt::Inline(off) => self.effect(Op::StoreSlot(p, off, v)),
            SlotAt::OutOfLine(i) => self.effect(Op::StoreOolSlot(p, i, v)),
        }
        true
    }

    /// The byte at `offset` (one of the first four) of the cell `p` points to, as an i32.
    fn header_byte(&mut self, p: Val, offset: i32) -> Val {
        let word = self.push(Op::Load(Type::I32, p, 0), Type::I32);
        let shift = self.iconst(Type::I32, 8 * i64::from(offset));
        let shifted = self.push(Op::Int(IntOp::Ushr, word, shift), Type::I32);
        let mask = self.iconst(Type::I32, 0xff);
        self.push(Op::Int(IntOp::And, shifted, mask), Type::I32)
    }

    /// `obj.length` where no inline cache serves it: an array's length inline, anything
    /// else (a string, an object with a `length` property) by the VM.
    fn get_length(&mut self, ip: u32, dst: u32, obj: u32) {
        let v = self.get(obj);
        let (join, result) = self.join(Type::Value);
        let saved = self.dirty.clone();
        let object = self.push(Op::TagIs(Tag::Object, v), Type::I32);
        let maybe = self.f.add_block();
        let slow = self.f.add_block();
        self.effect(Op::Brif(object, maybe, vec![], slow, vec![]));
        self.cur = maybe;
        let exit = self.exit(ip);
        let p = self.push_exit(Op::UnboxObject(v), Some(Type::Ptr), exit).expect("a result");
        let kind = self.header_byte(p, self.vm.objects.cell_kind);
        let array = self.iconst(Type::I32, i64::from(self.vm.objects.array_kind));
        let is_array = self.push(Op::Icmp(IntCC::Eq, kind, array), Type::I32);
        let yes = self.f.add_block();
        self.effect(Op::Brif(is_array, yes, vec![], slow, vec![]));
        self.cur = yes;
        let n = self.push_exit(Op::ArrayLength(p), Some(Type::I32), exit).expect("a result");
        let boxed = self.push(Op::BoxI32(n), Type::Value);
        self.effect(Op::Jump(join, vec![boxed]));
        self.cur = slow;
        self.exec(ip);
        let r = self.get(dst);
        self.effect(Op::Jump(join, vec![r]));
        self.switch_to(join);
        self.dirty = saved;
        self.set(dst, result);
    }

    /// Register `dst` = `v` when `fast` (i32) holds, else what the VM makes of the
    /// instruction at `ip` (a conversion that is the identity on the values `fast` admits).
    fn itself_or_vm(&mut self, ip: u32, dst: u32, v: Val, fast: Val) {
        let (join, r) = self.join(Type::Value);
        let saved = self.dirty.clone();
        self.decide_if(fast, join, v);
        self.exec(ip);
        let converted = self.get(dst);
        self.effect(Op::Jump(join, vec![converted]));
        self.cur = join;
        self.dirty = saved;
        self.set(dst, r);
    }

    /// The cases of the property access at `ip` that `keep` admits, and whether other
    /// shapes go to the VM (a megamorphic site, or cases not kept) rather than leave.
    fn property_cases(&self, ip: u32, keep: impl Fn(&PropertyCase) -> bool) -> (Vec<PropertyCase>, bool) {
        let site = self.profile.property(ip);
        let seen = site.cases.len();
        let cases: Vec<PropertyCase> = site.cases.into_iter().filter(|c| keep(c)).collect();
        let megamorphic = site.megamorphic || cases.len() < seen;
        (cases, megamorphic)
    }

    /// Whether an object's `shape` is the case's (i32): the same shape and, for a
    /// dictionary, the same version of it.
    fn shape_is(&mut self, shape: Val, case: &PropertyCase) -> Val {
        let k = self.iconst(Type::Ptr, case.shape as i64);
        let same = self.push(Op::Icmp(IntCC::Eq, shape, k), Type::I32);
        let Some(version) = case.dict_version else { return same };
        // The case's shape is alive (the VM keeps it), so its version can be read whatever
        // the object's shape.
        let now = self.push(Op::Load(Type::I32, k, self.vm.objects.shape_dict_version), Type::I32);
        let then = self.iconst(Type::I32, version as i32 as i64);
        let current = self.push(Op::Icmp(IntCC::Eq, now, then), Type::I32);
        self.push(Op::Int(IntOp::And, same, current), Type::I32)
    }

    /// A property read through the shapes the inline cache saw; another shape leaves
    /// compiled code, or at a megamorphic site goes to the VM.
    fn get_property(&mut self, ip: u32, dst: u32, obj: Option<u32>) -> bool {
        let (cases, megamorphic) = self.property_cases(ip, |c| c.transition.is_none());
        if cases.is_empty() {
            return false;
        }
        let exit = self.exit(ip);
        let p = match obj {
            Some(o) => {
                let v = self.get(o);
                self.push_exit(Op::UnboxObject(v), Some(Type::Ptr), exit).expect("a result")
            }
            None => {
                let g = self.profile.global_object();
                self.iconst(Type::Ptr, g as i64)
            }
        };
        let shape = self.push(Op::LoadShape(p), Type::Ptr);
        let (join, result) = self.join(Type::Value);
        let saved = self.dirty.clone();
        for case in cases {
            let hit = self.shape_is(shape, &case);
            let yes = self.f.add_block();
            let no = self.f.add_block();
            self.effect(Op::Brif(hit, yes, vec![], no, vec![]));
            self.cur = yes;
            let at = match case.holder {
                None => p,
                Some(h) => {
                    // A prototype's property: still there while the epoch is the same.
                    self.check_epoch(h.epoch, exit);
                    self.iconst(Type::Ptr, h.object as i64)
                }
            };
            let v = self.load_slot(at, case.slot);
            if case.maybe_empty {
                // The VM makes what an empty slot stands for.
                let empty = self.is_const(v, JsConst::Empty);
                self.push_exit(Op::Check(empty, Reason::Empty), None, exit);
            }
            self.effect(Op::Jump(join, vec![v]));
            self.cur = no;
        }
        if !megamorphic {
            self.push_exit(Op::Deopt(Reason::Shape), None, exit);
            self.switch_to(join);
            self.dirty = saved;
            self.set(dst, result);
            return true;
        }
        self.exec(ip);
        let v = self.get(dst);
        self.effect(Op::Jump(join, vec![v]));
        self.switch_to(join);
        self.dirty = saved;
        self.set(dst, result);
        true
    }

    /// A property write to an own data property of the shapes the inline cache saw (or an
    /// addition it saw) on `obj`, or on the global object when `obj` is `None`; another shape
    /// leaves compiled code, or at a megamorphic site goes to the VM.
    fn put_property(&mut self, ip: u32, obj: Option<u32>, value: u32) -> bool {
        // Own properties, and additions to inline slots.
        let (cases, megamorphic) = self.property_cases(ip, |c| {
            c.holder.is_none() && (c.transition.is_none() || matches!(c.slot, SlotAt::Inline(_)))
        });
        if cases.is_empty() {
            return false;
        }
        let exit = self.exit(ip);
        let v = self.get(value);
        let p = match obj {
            Some(o) => {
                let o = self.get(o);
                self.push_exit(Op::UnboxObject(o), Some(Type::Ptr), exit).expect("a result")
            }
            None => {
                let g = self.profile.global_object();
                self.iconst(Type::Ptr, g as i64)
            }
        };
        let shape = self.push(Op::LoadShape(p), Type::Ptr);
        let join = self.f.add_block();
        let saved = self.dirty.clone();
        for case in cases {
            let hit = self.shape_is(shape, &case);
            let yes = self.f.add_block();
            let no = self.f.add_block();
            self.effect(Op::Brif(hit, yes, vec![], no, vec![]));
            self.cur = yes;
            if let Some(t) = case.transition {
                self.transition(ip, p, t);
            }
            match case.slot {
                SlotAt::Inline(off) => self.effect(Op::StoreSlot(p, off, v)),
                SlotAt::OutOfLine(i) => self.effect(Op::StoreOolSlot(p, i, v)),
            }
            self.effect(Op::Jump(join, vec![]));
            self.cur = no;
        }
        if megamorphic {
            self.exec(ip);
            self.effect(Op::Jump(join, vec![]));
        } else {
            self.push_exit(Op::Deopt(Reason::Shape), None, exit);
        }
        self.switch_to(join);
        self.dirty = saved;
        true
    }

    /// Translates the instruction at `ip`; whether it ended the block.
    fn inst(&mut self, ip: u32) -> Result<bool, String> {
        let inst = self.src.insts[ip as usize];
        let target = |off: i32| (ip as i64 + off as i64) as u32;
        macro_rules! arith {
            ($dst:expr, $lhs:expr, $rhs:expr, $op:expr) => {{
                match self.arith(ip, $op, $lhs, $rhs) {
                    Some(v) => self.set($dst, v),
                    None if self.unprofiled(ip) => {
                        let v = self.unprofiled_arith(ip, $op, $dst, $lhs, $rhs, None);
                        self.set($dst, v);
                    }
                    None => {
                        self.exec(ip);
                    }
                }
            }};
        }
        macro_rules! bitwise {
            ($dst:expr, $lhs:expr, $rhs:expr, $op:expr) => {{
                match self.bitwise(ip, $op, $lhs, $rhs) {
                    Some(v) => self.set($dst, v),
                    None => {
                        self.exec(ip);
                    }
                }
            }};
        }
        // A comparison into a register.
        macro_rules! compare {
            ($dst:expr, $lhs:expr, $rhs:expr, $cc:expr) => {{
                let c = match self.compare(ip, $cc, $lhs, $rhs) {
                    Some(c) => Some(c),
                    None if self.unprofiled(ip) => Some(self.unprofiled_compare(ip, $cc, $lhs, $rhs)),
                    None => None,
                };
                match c {
                    Some(c) => {
                        let v = self.boolean(c);
                        self.set($dst, v);
                    }
                    None => {
                        self.exec(ip);
                    }
                }
            }};
        }
        // A conditional jump on a comparison; `$negate` for the `not` forms.
        macro_rules! jump_if {
            ($off:expr, $lhs:expr, $rhs:expr, $cc:expr, $negate:expr) => {{
                let holds = match self.compare(ip, $cc, $lhs, $rhs) {
                    Some(c) => Some(c),
                    None if self.unprofiled(ip) => Some(self.unprofiled_compare(ip, $cc, $lhs, $rhs)),
                    None => None,
                };
                let c = match holds {
                    Some(c) if $negate => self.not(c),
                    Some(c) => c,
                    None => self.exec_outcome(ip),
                };
                self.cond_jump(ip, c, target($off));
                return Ok(true);
            }};
        }
        macro_rules! jump_on {
            ($off:expr, $c:expr) => {{
                let c = $c;
                self.cond_jump(ip, c, target($off));
                return Ok(true);
            }};
        }
        match inst {
            Inst::Wide {} | Inst::Debugger {} => {}
            Inst::Mov { dst, src } => {
                let v = self.get(src);
                self.set(dst, v);
            }
            Inst::LoadConstUndefined { dst } => self.constant(dst, JsConst::Undefined),
            Inst::LoadConstNull { dst } => self.constant(dst, JsConst::Null),
            Inst::LoadConstTrue { dst } => self.constant(dst, JsConst::True),
            Inst::LoadConstFalse { dst } => self.constant(dst, JsConst::False),
            Inst::LoadConstEmpty { dst } => self.constant(dst, JsConst::Empty),
            Inst::LoadConstInt { dst, value } => self.constant(dst, JsConst::Number(Ieee64::new(value as f64))),
            Inst::LoadConstDouble { dst, value } => self.constant(dst, JsConst::Number(Ieee64::new(value))),
            Inst::LoadParam { dst, index } => {
                let v = self.params[index as usize];
                self.set(dst, v);
            }
            Inst::Add { dst, lhs, rhs } | Inst::AddN { dst, lhs, rhs } => arith!(dst, lhs, rhs, FloatOp::Add),
            Inst::Sub { dst, lhs, rhs } | Inst::SubN { dst, lhs, rhs } => arith!(dst, lhs, rhs, FloatOp::Sub),
            Inst::Mul { dst, lhs, rhs } | Inst::MulN { dst, lhs, rhs } => arith!(dst, lhs, rhs, FloatOp::Mul),
            Inst::Div { dst, lhs, rhs } | Inst::DivN { dst, lhs, rhs } => arith!(dst, lhs, rhs, FloatOp::Div),
            Inst::BitAnd { dst, lhs, rhs } => bitwise!(dst, lhs, rhs, IntOp::And),
            Inst::BitOr { dst, lhs, rhs } => bitwise!(dst, lhs, rhs, IntOp::Or),
            Inst::BitXor { dst, lhs, rhs } => bitwise!(dst, lhs, rhs, IntOp::Xor),
            Inst::Shl { dst, lhs, rhs } => bitwise!(dst, lhs, rhs, IntOp::Shl),
            Inst::Shr { dst, lhs, rhs } => bitwise!(dst, lhs, rhs, IntOp::Sshr),
            Inst::UShr { dst, lhs, rhs } => bitwise!(dst, lhs, rhs, IntOp::Ushr),
            Inst::Inc { dst, src } | Inst::Dec { dst, src } => {
                let delta = if matches!(inst, Inst::Inc { .. }) { 1 } else { -1 };
                match self.step_by_one(ip, src, delta) {
                    Some(v) => self.set(dst, v),
                    None if self.unprofiled(ip) => {
                        let v = self.unprofiled_arith(ip, FloatOp::Add, dst, src, src, Some(delta as f64));
                        self.set(dst, v);
                    }
                    None => {
                        self.exec(ip);
                    }
                }
            }
            Inst::PostInc { old, dst, src } | Inst::PostDec { old, dst, src } => {
                let delta = if matches!(inst, Inst::PostInc { .. }) { 1 } else { -1 };
                let a = self.get(src);
                match self.step_by_one(ip, src, delta) {
                    // `src` is a number past the step's guard: it is its own ToNumeric.
                    Some(v) => {
                        self.set(old, a);
                        self.set(dst, v);
                    }
                    None => {
                        self.exec(ip);
                    }
                }
            }
            Inst::Negate { dst, src } => match self.numbers(ip) {
                Some(_) => {
                    let exit = self.exit(ip);
                    let a = self.get(src);
                    let x = self.push_exit(Op::UnboxF64(a), Some(Type::F64), exit).expect("a result");
                    let r = self.push(Op::Fneg(x), Type::F64);
                    let v = self.push(Op::BoxF64(r), Type::Value);
                    self.set(dst, v);
                }
                None => {
                    self.exec(ip);
                }
            },
            Inst::Less { dst, lhs, rhs } | Inst::LessN { dst, lhs, rhs } => compare!(dst, lhs, rhs, FloatCC::Lt),
            Inst::LessEq { dst, lhs, rhs } | Inst::LessEqN { dst, lhs, rhs } => compare!(dst, lhs, rhs, FloatCC::Le),
            Inst::Greater { dst, lhs, rhs } | Inst::GreaterN { dst, lhs, rhs } => compare!(dst, lhs, rhs, FloatCC::Gt),
            Inst::GreaterEq { dst, lhs, rhs } | Inst::GreaterEqN { dst, lhs, rhs } => {
                compare!(dst, lhs, rhs, FloatCC::Ge)
            }
            Inst::Eq { dst, lhs, rhs } | Inst::Neq { dst, lhs, rhs } => {
                let mut c = self.loose_equal(ip, lhs, rhs);
                if matches!(inst, Inst::Neq { .. }) {
                    c = self.not(c);
                }
                let v = self.boolean(c);
                self.set(dst, v);
            }
            Inst::LoadThisNS { dst } if self.known.contains_key(&self.params[0]) => {
                let this = self.params[0];
                self.set(dst, this);
            }
            Inst::LoadThisNS { dst } => {
                // An object `this` is itself; the VM converts the others.
                let this = self.params[0];
                let object = self.push(Op::TagIs(crate::mir::Tag::Object, this), Type::I32);
                self.itself_or_vm(ip, dst, this, object);
            }
            Inst::StrictEq { dst, lhs, rhs } | Inst::StrictNeq { dst, lhs, rhs } => {
                let mut c = self.strict_equal(ip, lhs, rhs);
                if matches!(inst, Inst::StrictNeq { .. }) {
                    let one = self.iconst(Type::I32, 1);
                    c = self.push(Op::Int(IntOp::Xor, c, one), Type::I32);
                }
                let v = self.boolean(c);
                self.set(dst, v);
            }
            Inst::Jmp { off } => {
                let t = target(off);
                if t <= ip {
                    self.poll(ip);
                }
                self.jump(t);
                return Ok(true);
            }
            Inst::JmpTrue { off, cond } => jump_on!(off, self.truthy(ip, cond)),
            Inst::JmpFalse { off, cond } => {
                let c = self.truthy(ip, cond);
                jump_on!(off, self.not(c))
            }
            Inst::Not { dst, src } => {
                let c = self.truthy(ip, src);
                let c = self.not(c);
                let v = self.boolean(c);
                self.set(dst, v);
            }
            Inst::GetGlobalObject { dst } => {
                let g = self.profile.global_object();
                let p = self.iconst(Type::Ptr, g as i64);
                let v = self.push(Op::BoxObject(p), Type::Value);
                self.set(dst, v);
            }
            Inst::JmpUndefined { off, value } => {
                let v = self.get(value);
                jump_on!(off, self.is_const(v, JsConst::Undefined))
            }
            Inst::JmpNotUndefined { off, value } => {
                let v = self.get(value);
                let c = self.is_const(v, JsConst::Undefined);
                jump_on!(off, self.not(c))
            }
            Inst::JmpEmpty { off, value } => {
                let v = self.get(value);
                jump_on!(off, self.is_const(v, JsConst::Empty))
            }
            Inst::JmpNotEmpty { off, value } => {
                let v = self.get(value);
                let c = self.is_const(v, JsConst::Empty);
                jump_on!(off, self.not(c))
            }
            Inst::JmpNullish { off, value } => {
                let c = self.nullish(value);
                jump_on!(off, c)
            }
            Inst::JmpNotNullish { off, value } => {
                let c = self.nullish(value);
                jump_on!(off, self.not(c))
            }
            Inst::JmpEq { off, lhs, rhs } => jump_on!(off, self.loose_equal(ip, lhs, rhs)),
            Inst::JmpNeq { off, lhs, rhs } => {
                let c = self.loose_equal(ip, lhs, rhs);
                jump_on!(off, self.not(c))
            }
            Inst::JmpStrictEq { off, lhs, rhs } => jump_on!(off, self.strict_equal(ip, lhs, rhs)),
            Inst::JmpStrictNeq { off, lhs, rhs } => {
                let c = self.strict_equal(ip, lhs, rhs);
                jump_on!(off, self.not(c))
            }
            Inst::JmpLess { off, lhs, rhs } => jump_if!(off, lhs, rhs, FloatCC::Lt, false),
            Inst::JmpNotLess { off, lhs, rhs } => jump_if!(off, lhs, rhs, FloatCC::Lt, true),
            Inst::JmpLessEq { off, lhs, rhs } => jump_if!(off, lhs, rhs, FloatCC::Le, false),
            Inst::JmpNotLessEq { off, lhs, rhs } => jump_if!(off, lhs, rhs, FloatCC::Le, true),
            Inst::JmpGreater { off, lhs, rhs } => jump_if!(off, lhs, rhs, FloatCC::Gt, false),
            Inst::JmpNotGreater { off, lhs, rhs } => jump_if!(off, lhs, rhs, FloatCC::Gt, true),
            Inst::JmpGreaterEq { off, lhs, rhs } => jump_if!(off, lhs, rhs, FloatCC::Ge, false),
            Inst::JmpNotGreaterEq { off, lhs, rhs } => jump_if!(off, lhs, rhs, FloatCC::Ge, true),
            Inst::Ret { value } => {
                let v = self.get(value);
                self.ret(Some(v));
                return Ok(true);
            }
            Inst::RetUndefined {} => {
                self.ret(None);
                return Ok(true);
            }
            Inst::Throw { .. } | Inst::ThrowError { .. } | Inst::Trap {} => {
                // The VM throws; the exit after it is never taken.
                self.exec(ip);
                let exit = self.exit(ip);
                self.push_exit(Op::Deopt(Reason::Check), None, exit);
                return Ok(true);
            }
            Inst::GetById { dst, obj, name, .. } => {
                if !self.known_get(ip, dst, obj, name) && !self.get_property(ip, dst, Some(obj)) {
                    if self.profile.is_length(name) {
                        self.get_length(ip, dst, obj);
                    } else {
                        self.exec(ip);
                    }
                }
            }
            Inst::GetGlobal { dst, .. } | Inst::TypeofGlobal { dst, .. } => {
                if !self.get_property(ip, dst, None) {
                    self.exec(ip);
                }
            }
            Inst::PutById { obj, value, .. } => {
                if !self.known_put(ip, obj, value) {
                    // The object may be one whose shape is known.
                    self.known.clear();
                    if !self.put_property(ip, Some(obj), value) {
                        self.exec(ip);
                    }
                }
            }
            Inst::PutGlobal { value, .. } => {
                // A setter on the global object may change any object's shape.
                self.known.clear();
                if !self.put_property(ip, None, value) {
                    self.exec(ip);
                }
            }
            Inst::GetByVal { .. } | Inst::PutByVal { .. } if self.unprofiled(ip) => {
                // It never ran before this was compiled (its loop was first entered in compiled
                // code, which records no feedback): the interpreter runs it, and records what
                // it sees there for the code compiled once this one has left often enough.
                let exit = self.exit(ip);
                self.push_exit(Op::Deopt(Reason::Unprofiled), None, exit);
                return Ok(true);
            }
            Inst::GetByVal { dst, obj, key } if self.dense(ip) => {
                let exit = self.exit(ip);
                let (o, k) = (self.get(obj), self.get(key));
                let p = self.push_exit(Op::UnboxObject(o), Some(Type::Ptr), exit).expect("a result");
                let i = self.push_exit(Op::UnboxI32(k), Some(Type::I32), exit).expect("a result");
                let v = self.push_exit(Op::LoadElem(p, i), Some(Type::Value), exit).expect("a result");
                self.set(dst, v);
            }
            Inst::PutByVal { obj, key, value } if self.dense(ip) => {
                let exit = self.exit(ip);
                let (o, k, v) = (self.get(obj), self.get(key), self.get(value));
                let p = self.push_exit(Op::UnboxObject(o), Some(Type::Ptr), exit).expect("a result");
                let i = self.push_exit(Op::UnboxI32(k), Some(Type::I32), exit).expect("a result");
                self.push_exit(Op::StoreElem(p, i, v), None, exit);
            }
            Inst::GetByVal { dst, obj, key } if self.typed(ip) => {
                // A TypedArray element: read by a pure helper; anything else leaves.
                let exit = self.exit(ip);
                let (o, k) = (self.get(obj), self.get(key));
                let v = self.pure_helper(ip, "typed_get", vec![o, k]);
                let empty = self.is_const(v, JsConst::Empty);
                self.push_exit(Op::Check(empty, Reason::NoElement), None, exit);
                self.set(dst, v);
            }
            Inst::PutByVal { obj, key, value } if self.typed(ip) => {
                let exit = self.exit(ip);
                let (o, k, v) = (self.get(obj), self.get(key), self.get(value));
                let stored = self.pure_helper(ip, "typed_set", vec![o, k, v]);
                let f = self.is_const(stored, JsConst::False);
                self.push_exit(Op::Check(f, Reason::NoElement), None, exit);
            }
            Inst::GetByVal { dst, obj, key } if self.sometimes_dense(ip) => {
                self.element_or_vm(ip, obj, key, Some(dst), None);
            }
            Inst::PutByVal { obj, key, value } if self.sometimes_dense(ip) => {
                self.element_or_vm(ip, obj, key, None, Some(value));
            }
            Inst::CreateArguments { dst } if forwarding(self.src).is_some_and(|f| f.0 == ip) => {
                // Not made (see `forwarding`).
                let u = self.vconst(JsConst::Undefined);
                self.set(dst, u);
                self.forwarded = Some((dst, u));
            }
            Inst::Call { dst, callee, first, argc }
                if self.forwarded.is_some() && forwarding(self.src).is_some_and(|f| f.2 == ip) =>
            {
                if self.inline.is_some() {
                    // An inlined callee calls no helper: `f` is inlined too, or this is not.
                    if !self.inline_forwarded(ip, dst, callee, first) {
                        self.give_up(ip);
                        return Ok(true);
                    }
                } else {
                    let undefined = self.vconst(JsConst::Undefined);
                    self.call(ip, "call_forwarding", dst, callee, first, argc, undefined);
                }
            }
            Inst::NewArray { dst, .. } => {
                self.exec(ip);
                let v = self.get(dst);
                self.fresh_arrays.insert(v);
            }
            Inst::PutOwnByIndex { obj, index, value } if self.holds_fresh_array(obj) => {
                // An element of the literal: a store into the slot `new_array` made for it.
                let exit = self.exit(ip);
                let o = self.get(obj);
                let p = self.push_exit(Op::UnboxObject(o), Some(Type::Ptr), exit).expect("a result");
                let i = self.iconst(Type::I32, i64::from(index));
                let v = self.get(value);
                self.push_exit(Op::InitElem(p, i, v), None, exit);
            }
            Inst::Call { dst, callee, first, argc } => {
                let inlined = match self.profile.inlinee(ip) {
                    Some(g) if argc > 0 && self.may_inline(ip, &g) => {
                        self.inline_call(ip, &g, dst, callee, first, argc)
                    }
                    Some(_) => false,
                    None if argc > 0 => self.inline_polymorphic(ip, dst, callee, first, argc),
                    None => false,
                };
                if !inlined {
                    if self.inline.is_some() {
                        self.give_up(ip);
                        return Ok(true);
                    }
                    let undefined = self.vconst(JsConst::Undefined);
                    self.call(ip, "call", dst, callee, first, argc, undefined);
                }
            }
            Inst::Construct { dst, callee, new_target, first, argc } => {
                if !self.inline_construct(ip, dst, callee, new_target, first, argc) {
                    if self.inline.is_some() {
                        self.give_up(ip);
                        return Ok(true);
                    }
                    let nt = self.get(new_target);
                    self.call(ip, "construct", dst, callee, first, argc, nt);
                }
            }
            Inst::InstanceOf { dst, lhs, rhs } => {
                let operands = vec![self.get(lhs), self.get(rhs)];
                let v = self.helper(ip, "instance_of", operands);
                self.set(dst, v);
            }
            Inst::LoadConstString { dst, id } => {
                let bits = self.profile.string(id);
                let k = self.iconst(Type::I64, bits as i64);
                let v = self.push(Op::FromBits(k), Type::Value);
                self.set(dst, v);
            }
            Inst::ToPropertyKey { dst, src } => {
                // Numbers, strings and symbols are keys already; the VM converts the others.
                let v = self.get(src);
                let n = self.push(Op::TagIs(Tag::Number, v), Type::I32);
                let st = self.push(Op::TagIs(Tag::String, v), Type::I32);
                let sy = self.push(Op::TagIs(Tag::Symbol, v), Type::I32);
                let either = self.push(Op::Int(IntOp::Or, n, st), Type::I32);
                let key = self.push(Op::Int(IntOp::Or, either, sy), Type::I32);
                self.itself_or_vm(ip, dst, v, key);
            }
            Inst::CallBuiltin { dst, builtin, first, .. } if builtin == BuiltinId::RequireObjectCoercible as u8 => {
                // The value itself unless it is undefined or null (the VM throws then).
                let v = self.get(first);
                let bad = self.nullish(first);
                let fine = self.not(bad);
                self.itself_or_vm(ip, dst, v, fine);
            }
            Inst::ToNumeric { dst, src } => {
                // A number is itself; the VM converts the others.
                let v = self.get(src);
                let number = self.push(Op::TagIs(crate::mir::Tag::Number, v), Type::I32);
                self.itself_or_vm(ip, dst, v, number);
            }
            Inst::LoadFromEnvironment { dst, env, slot } => {
                let exit = self.exit(ip);
                let e = self.get(env);
                let v = self.push_exit(Op::LoadEnv(e, slot), Some(Type::Value), exit).expect("a result");
                self.set(dst, v);
            }
            Inst::StoreToEnvironment { env, slot, value } => {
                let exit = self.exit(ip);
                let (e, v) = (self.get(env), self.get(value));
                self.push_exit(Op::StoreEnv(e, slot, v), None, exit);
            }
            _ if unsupported(&inst) => {
                let exit = self.exit(ip);
                self.push_exit(Op::Deopt(Reason::Unsupported), None, exit);
                return Ok(true);
            }
            _ => {
                self.exec(ip);
            }
        }
        if self.src.insts[ip as usize].opcode().is_terminator() {
            return Err(format!("{}: a terminator at {ip} that is not translated", self.src.name));
        }
        Ok(false)
    }

    /// Ends the block returning `v` (None: undefined): from the function, or from an
    /// inlined callee to its caller (from a constructor, what `new` gives: `v` if it is an
    /// object, else `this`).
    fn ret(&mut self, v: Option<Val>) {
        let Some(inline) = &self.inline else {
            let v = v.unwrap_or_else(|| self.vconst(JsConst::Undefined));
            self.effect(Op::Return(v));
            return;
        };
        let (ret, this) = (inline.ret, inline.this);
        let v = match (v, this) {
            (None, Some(this)) => this,
            (Some(v), Some(this)) if v != this => {
                let object = self.push(Op::TagIs(Tag::Object, v), Type::I32);
                self.decide_if(object, ret, v);
                this
            }
            (Some(v), _) => v,
            (None, None) => self.vconst(JsConst::Undefined),
        };
        self.effect(Op::Jump(ret, vec![v]));
    }

    /// The state to go back to if inlining fails.
    fn save(&self) -> Saved {
        Saved {
            f: self.f.clone(),
            cur: self.cur,
            regs: self.regs.clone(),
            dirty: self.dirty.clone(),
            last_exit: self.last_exit,
        }
    }

    fn restore(&mut self, saved: Saved) {
        let Saved { f, cur, regs, dirty, last_exit } = saved;
        (self.f, self.cur, self.regs, self.dirty, self.last_exit) = (f, cur, regs, dirty, last_exit);
    }

    /// Gives up translating this inlined callee inline (see `failed`); what follows is
    /// unreachable.
    fn give_up(&mut self, ip: u32) {
        self.failed = true;
        let exit = self.exit(ip);
        self.push_exit(Op::Deopt(Reason::Unsupported), None, exit);
        self.cur = self.f.add_block();
        self.last_exit = None;
    }

    /// Guards (leaving through `exit`) that value `v` is a closure of the function the VM
    /// identifies as `function`.
    fn guard_closure(&mut self, v: Val, function: u64, exit: ExitId) {
        let objects = self.vm.objects;
        let p = self.push_exit(Op::UnboxObject(v), Some(Type::Ptr), exit).expect("a result");
        let kind = self.header_byte(p, objects.cell_kind);
        let closure = self.iconst(Type::I32, i64::from(objects.closure_kind));
        let not_closure = self.push(Op::Icmp(IntCC::Ne, kind, closure), Type::I32);
        self.push_exit(Op::Check(not_closure, Reason::Callee), None, exit);
        let f = self.push(Op::Load(Type::I64, p, objects.closure_func), Type::I64);
        let want = self.iconst(Type::I64, function as i64);
        let other = self.push(Op::Icmp(IntCC::Ne, f, want), Type::I32);
        self.push_exit(Op::Check(other, Reason::Callee), None, exit);
    }

    /// The call at `ip` of the one closure the feedback saw, of function `g`, translated
    /// inline: a guard that the callee is a closure of `g` (the call leaves otherwise),
    /// then `g`'s code on the arguments, its returns joining after the call with the result
    /// in `dst`. False (nothing changed): `g` could not be translated inline.
    fn inline_call(&mut self, ip: u32, g: &Inlinee, dst: u32, callee: u32, first: u32, argc: u32) -> bool {
        let saved = self.save();
        let exit = self.exit(ip);
        let v = self.get(callee);
        self.guard_closure(v, g.function, exit);
        let args = (0..argc).map(|i| self.get(first + i)).collect();
        self.inline(ip, g, FrameKind::Call, args, dst, saved)
    }

    /// The call at `ip` of the few functions the feedback saw, each that can be inlined
    /// translated inline behind a test of the callee's function; other callees are called
    /// the general way (or leave, in an inlined callee, where every one seen must be
    /// inlined). False (nothing changed): none could be inlined.
    fn inline_polymorphic(&mut self, ip: u32, dst: u32, callee: u32, first: u32, argc: u32) -> bool {
        let seen = self.profile.polymorphic(ip);
        let all = seen.len();
        let targets: Vec<Inlinee> =
            seen.into_iter().filter_map(|(_, g)| g).filter(|g| self.may_inline(ip, g)).collect();
        if targets.is_empty() || (self.inline.is_some() && targets.len() < all) {
            return false;
        }
        let saved_all = self.save();
        // The registers live here are loaded now, before the paths part.
        let exit = self.exit(ip);
        let objects = self.vm.objects;
        let v = self.get(callee);
        let p = self.push_exit(Op::UnboxObject(v), Some(Type::Ptr), exit).expect("a result");
        let kind = self.header_byte(p, objects.cell_kind);
        let closure = self.iconst(Type::I32, i64::from(objects.closure_kind));
        let not_closure = self.push(Op::Icmp(IntCC::Ne, kind, closure), Type::I32);
        self.push_exit(Op::Check(not_closure, Reason::Callee), None, exit);
        let function = self.push(Op::Load(Type::I64, p, objects.closure_func), Type::I64);
        let args: Vec<Val> = (0..argc).map(|i| self.get(first + i)).collect();
        let (join, result) = self.join(Type::Value);
        // Each path starts from the registers as they are here.
        let (regs, dirty) = (self.regs.clone(), self.dirty.clone());
        for g in &targets {
            let want = self.iconst(Type::I64, g.function as i64);
            let is = self.push(Op::Icmp(IntCC::Eq, function, want), Type::I32);
            let (yes, no) = (self.f.add_block(), self.f.add_block());
            self.effect(Op::Brif(is, yes, vec![], no, vec![]));
            self.cur = yes;
            let saved = self.save();
            if !self.inline(ip, g, FrameKind::Call, args.clone(), dst, saved) {
                if self.inline.is_some() {
                    self.restore(saved_all);
                    return false;
                }
                let undefined = self.vconst(JsConst::Undefined);
                self.call(ip, "call", dst, callee, first, argc, undefined);
            }
            let r = self.get(dst);
            self.effect(Op::Jump(join, vec![r]));
            self.cur = no;
            (self.regs, self.dirty) = (regs.clone(), dirty.clone());
            self.last_exit = None;
        }
        // Another callee.
        if self.inline.is_some() {
            let exit = self.exit(ip);
            self.push_exit(Op::Deopt(Reason::Callee), None, exit);
        } else {
            let undefined = self.vconst(JsConst::Undefined);
            self.call(ip, "call", dst, callee, first, argc, undefined);
            let r = self.get(dst);
            self.effect(Op::Jump(join, vec![r]));
        }
        self.switch_to(join);
        self.known.clear();
        self.set(dst, result);
        true
    }

    /// `new callee(...)` at `ip` (the `construct` with `argc` registers from `first`, `this`
    /// first) of the one function `g` the feedback saw, whose objects had one shape, inlined:
    /// a guard that the callee is a closure of `g`, the object made (`create_this`) and
    /// guarded to have that shape, then `g`'s code on it and the arguments. False (nothing
    /// changed): not such a site, or `g` could not be inlined.
    fn inline_construct(&mut self, ip: u32, dst: u32, callee: u32, new_target: u32, first: u32, argc: u32) -> bool {
        // `new C(...)`: `new.target` is the callee.
        if new_target != callee {
            return false;
        }
        let Some(g) = self.profile.inlinee(ip) else { return false };
        let Some(shape) = self.profile.this_shape(ip) else {
            if self.profile.logging() {
                self.profile.note(ip, format!("not inlined {} (a constructor): objects of several shapes", g.name));
            }
            return false;
        };
        if !self.may_inline(ip, &g) {
            return false;
        }
        let saved = self.save();
        let exit = self.exit(ip);
        let v = self.get(callee);
        self.guard_closure(v, g.function, exit);
        // An object of the shape the site saw, if the callee's prototype is still that
        // shape's; else undefined, and the interpreter runs the `construct`. Also
        // undefined when the heap is due for a collection, which the VM makes as the code
        // leaves.
        let values = self.vm.values;
        let cell = self.iconst(Type::I64, ((values.tag_cell << values.tag_shift) | shape) as i64);
        let shape_cell = self.push(Op::FromBits(cell), Type::Value);
        let this = self.pure_helper(ip, "create_this", vec![v, shape_cell]);
        self.push_exit(Op::UnboxObject(this), Some(Type::Ptr), exit);
        self.known.insert(this, shape);
        let args = std::iter::once(this).chain((1..argc).map(|i| self.get(first + i))).collect();
        self.inline(ip, &g, FrameKind::Construct, args, dst, saved)
    }

    /// `f.apply(x, arguments)` at `ip` in an inlined callee that only forwards its
    /// arguments (see `forwarding`), when `f` was loaded from a prototype and held a
    /// closure of a function that can be inlined: guards that the callee is `apply` and
    /// `f` a closure of that function, then its code on `x` and the arguments this callee
    /// got. False: it cannot be made inline.
    fn inline_forwarded(&mut self, ip: u32, dst: u32, callee: u32, first: u32) -> bool {
        let (Some(apply), Some(inline)) = (self.profile.apply_function(), &self.inline) else { return false };
        let passed: Vec<Val> = inline.args[1..].to_vec();
        let f = self.get(first);
        let Some(g) = self.guesses.get(&f).and_then(|&bits| self.profile.closure_inlinee(bits)) else {
            if self.profile.logging() {
                self.profile.note(ip, "not inlined the callee of apply: not known while compiling".to_string());
            }
            return false;
        };
        if !self.may_inline(ip, &g) {
            return false;
        }
        let saved = self.save();
        let exit = self.exit(ip);
        let a = self.get(callee);
        let bits = self.push(Op::Bits(a), Type::I64);
        let want = self.iconst(Type::I64, apply as i64);
        let other = self.push(Op::Icmp(IntCC::Ne, bits, want), Type::I32);
        self.push_exit(Op::Check(other, Reason::Callee), None, exit);
        self.guard_closure(f, g.function, exit);
        let this = self.get(first + 1);
        let args = std::iter::once(this).chain(passed).collect();
        self.inline(ip, &g, FrameKind::Forward, args, dst, saved)
    }

    /// Translates callee `g` into this code for the call at `ip` (after the guards that
    /// it is the callee) on `args` (`this` first, as passed), its result in `dst`; a
    /// constructor's `this` is `args[0]`. On failure, goes back to `saved` and gives false.
    fn inline(&mut self, ip: u32, g: &Inlinee, kind: FrameKind, args: Vec<Val>, dst: u32, saved: Saved) -> bool {
        let src = Source {
            name: &g.name,
            insts: g.insts,
            handlers: &[],
            frame_size: g.frame_size,
            entry: 0,
            interrupt: self.src.interrupt,
            gc_due: self.src.gc_due,
            stress: self.src.stress,
            proto_epoch: self.src.proto_epoch,
        };
        let Ok((reached, starts)) = reach(&src) else {
            self.restore(saved);
            return false;
        };
        let mut params = args.clone();
        params.resize_with(params_read(&src, &reached).max(args.len() as u32) as usize, || {
            self.f.push(self.cur, Op::Vconst(JsConst::Undefined), Some(Type::Value), None).expect("a constant")
        });
        // An exit in the callee restores the registers an exit here would (a
        // constructor's `this` in the register of the call's `this`), and its frame goes
        // above this code's window, after its arguments.
        let (mut outer, mut frames, outer_arguments) = self.exit_state(ip);
        let this = (kind == FrameKind::Construct).then(|| args[0]);
        if let (Some(this), Inst::Construct { first, .. }) = (this, self.src.insts[ip as usize]) {
            let r = self.window() + first;
            match outer.iter_mut().find(|(reg, _)| *reg == r) {
                Some(entry) => entry.1 = ExitValue::Val(this),
                None => outer.push((r, ExitValue::Val(this))),
            }
        }
        let (ret, result) = self.join(Type::Value);
        let window = self.window() + self.src.frame_size + args.len() as u32;
        frames.push(InlinedFrame { function: g.function, call: ip, window, kind, arguments: None });
        let known: HashMap<Val, u64> =
            args.first().and_then(|a| self.known.get(a).map(|&s| (*a, s))).into_iter().collect();
        let f = std::mem::take(&mut self.f);
        let inline = Inline { outer, outer_arguments, frames, ret, args, this };
        let mut callee = Tx::new(&src, &*g.profile, self.vm, f, params, self.cur, Some(inline));
        callee.known = known;
        let translated = callee.body(&reached, &starts);
        let failed = callee.failed || translated.is_err();
        self.f = callee.f;
        if self.profile.logging() {
            let how = match kind {
                FrameKind::Call => "",
                FrameKind::Construct => " (a constructor)",
                FrameKind::Forward => " (called by apply)",
            };
            let what = match (&translated, failed) {
                (Err(e), _) => format!("not inlined {}{how}: {e}", g.name),
                (Ok(()), true) => format!("not inlined {}{how}: it makes a call that cannot be", g.name),
                (Ok(()), false) => format!("inlined {}{how}", g.name),
            };
            self.profile.note(ip, what);
        }
        if failed {
            self.restore(saved);
            return false;
        }
        // On in the caller, whose registers the callee left as they were (but any object
        // may have changed shape).
        self.known.clear();
        self.cur = ret;
        self.last_exit = None;
        self.set(dst, result);
        true
    }

    /// Whether callee `g` can be inlined at `ip` (with what it inlines in turn).
    fn may_inline(&self, ip: u32, g: &Inlinee) -> bool {
        let depth = self.inline.as_ref().map_or(0, |i| i.frames.len());
        // The budget is per call from the function being compiled: an inlined caller
        // checked its own (this callee included) when it was inlined.
        let mut budget = MAX_INLINE;
        let ok = inlinable(g, depth + 1, &mut budget);
        if !ok && self.profile.logging() {
            self.profile.note(ip, format!("not inlined {}: too large, too deep, or code that cannot be", g.name));
        }
        ok
    }

    /// A call (`helper` "call" or "construct") of register `callee` with the `argc`
    /// registers from `first`; its result in `dst`.
    #[allow(clippy::too_many_arguments)]
    fn call(&mut self, ip: u32, helper: &str, dst: u32, callee: u32, first: u32, argc: u32, new_target: Val) {
        let operands = vec![self.raw(ip), self.get(callee), self.raw(first), self.raw(argc), new_target];
        let v = self.helper(ip, helper, operands);
        self.set(dst, v);
    }

    /// Whether register `r` holds an array literal being filled (see `fresh_arrays`).
    fn holds_fresh_array(&mut self, r: u32) -> bool {
        let v = self.get(r);
        self.fresh_arrays.contains(&v)
    }

    /// Whether an element access only ever took the dense fast path.
    fn dense(&self, ip: u32) -> bool {
        let k = self.profile.kinds(ip);
        k & kind::DENSE != 0 && k & kind::SLOW == 0
    }

    /// Whether an element access was always a TypedArray element the fast path served.
    fn typed(&self, ip: u32) -> bool {
        let k = self.profile.kinds(ip);
        k & kind::TYPED != 0 && k & (kind::DENSE | kind::SLOW) == 0
    }

    /// Whether an element access found a dense element at some runs and not at others
    /// (filling the holes of `new Array(n)`, reading past the end).
    fn sometimes_dense(&self, ip: u32) -> bool {
        let k = self.profile.kinds(ip);
        k & kind::DENSE != 0 && k & kind::SLOW != 0
    }

    /// The element access at `ip` (`obj[key]`, a read into `dst` or a write of `value`):
    /// inline where the object has a dense element there (in bounds, no hole), by the VM
    /// (`exec`) anywhere else.
    fn element_or_vm(&mut self, ip: u32, obj: u32, key: u32, dst: Option<u32>, value: Option<u32>) {
        let exit = self.exit(ip);
        let (o, k) = (self.get(obj), self.get(key));
        let (join, result) = self.join(Type::Value);
        let saved = self.dirty.clone();
        let (number_key, has, slow) = (self.f.add_block(), self.f.add_block(), self.f.add_block());
        let is_object = self.push(Op::TagIs(Tag::Object, o), Type::I32);
        let is_number = self.push(Op::TagIs(Tag::Number, k), Type::I32);
        let both = self.push(Op::Int(IntOp::And, is_object, is_number), Type::I32);
        self.effect(Op::Brif(both, number_key, vec![], slow, vec![]));
        self.cur = number_key;
        let p = self.push_exit(Op::UnboxObject(o), Some(Type::Ptr), exit).expect("a result");
        let d = self.push_exit(Op::UnboxF64(k), Some(Type::F64), exit).expect("a result");
        // A fraction leaves (rare as an index; the interpreter reads or writes a property).
        let i = self.push_exit(Op::F64ToI32(d), Some(Type::I32), exit).expect("a result");
        let there = self.push(Op::HasElem(p, i), Type::I32);
        self.effect(Op::Brif(there, has, vec![], slow, vec![]));
        self.cur = has;
        let v = match value {
            Some(r) => {
                let v = self.get(r);
                self.push_exit(Op::StoreElem(p, i, v), None, exit);
                v
            }
            None => self.push_exit(Op::LoadElem(p, i), Some(Type::Value), exit).expect("a result"),
        };
        self.effect(Op::Jump(join, vec![v]));
        self.cur = slow;
        self.exec(ip);
        let v = match dst {
            Some(r) => self.get(r),
            None => o,
        };
        self.effect(Op::Jump(join, vec![v]));
        self.switch_to(join);
        self.dirty = saved;
        if let Some(r) = dst {
            self.set(r, result);
        }
    }

    fn not(&mut self, c: Val) -> Val {
        let one = self.iconst(Type::I32, 1);
        self.push(Op::Int(IntOp::Xor, c, one), Type::I32)
    }

    /// Whether a register holds undefined or null (i32).
    fn nullish(&mut self, r: u32) -> Val {
        let v = self.get(r);
        let u = self.is_const(v, JsConst::Undefined);
        let n = self.is_const(v, JsConst::Null);
        self.push(Op::Int(IntOp::Or, u, n), Type::I32)
    }

    /// Ends the block of the conditional jump at `ip`: to `to` when `c`, else on.
    fn cond_jump(&mut self, ip: u32, c: Val, to: u32) {
        if to <= ip {
            self.poll(ip);
        }
        self.branch(c, to, ip + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mir::verify::verify;

    /// Feedback by instruction index, and the callee the call (or `construct`) at
    /// instruction 3 always called, if any: its instructions, frame size and profile (which
    /// may name a callee in turn, to nest inlined calls). The callee is function 0x5e00 +
    /// its frame size. For a `construct`: the shape of the objects it made, when it saw
    /// one. What `lookup` finds (whatever the shape and name), and the function (0x6e00 +
    /// its frame size) a closure it found is.
    #[derive(Default)]
    struct Seen {
        kinds: Vec<(u32, u8)>,
        callee: Option<(Vec<Inst>, u32, Box<Seen>)>,
        this_shape: Option<u64>,
        properties: Vec<(u32, PropertySite)>,
        found: Option<Found>,
        closure: Option<(Vec<Inst>, u32, Box<Seen>)>,
        /// The callees the call at instruction 3 saw when it saw several.
        several: Vec<(Vec<Inst>, u32, Box<Seen>)>,
    }

    /// The bits of `Function.prototype.apply` in tests.
    const APPLY: u64 = 0xa991;

    impl Seen {
        fn of(kinds: Vec<(u32, u8)>) -> Seen {
            Seen { kinds, ..Seen::default() }
        }
    }

    fn inlinee_of(function: u64, callee: &Option<(Vec<Inst>, u32, Box<Seen>)>) -> Option<Inlinee<'_>> {
        let (insts, frame_size, profile) = callee.as_ref()?;
        Some(Inlinee {
            function: function + u64::from(*frame_size),
            name: format!("g{frame_size}"),
            insts,
            frame_size: *frame_size,
            profile: Box::new(SeenRef(profile)),
        })
    }

    impl Profile for Seen {
        fn kinds(&self, ip: u32) -> u8 {
            self.kinds.iter().find(|&&(i, _)| i == ip).map_or(0, |&(_, k)| k)
        }
        fn property(&self, ip: u32) -> PropertySite {
            self.properties.iter().find(|(i, _)| *i == ip).map(|(_, p)| p.clone()).unwrap_or_default()
        }
        fn global_object(&self) -> u64 {
            0x1000
        }
        fn string(&self, id: u32) -> u64 {
            0x2000 + u64::from(id)
        }
        fn is_length(&self, _id: u32) -> bool {
            false
        }
        fn inlinee(&self, ip: u32) -> Option<Inlinee<'_>> {
            inlinee_of(0x5e00, &self.callee).filter(|_| ip == 3)
        }
        fn polymorphic(&self, ip: u32) -> Vec<(u64, Option<Inlinee<'_>>)> {
            if ip != 3 {
                return Vec::new();
            }
            self.several
                .iter()
                .map(|(insts, frame_size, profile)| {
                    let g = Inlinee {
                        function: 0x5e00 + u64::from(*frame_size),
                        name: format!("g{frame_size}"),
                        insts,
                        frame_size: *frame_size,
                        profile: Box::new(SeenRef(profile)),
                    };
                    (g.function, Some(g))
                })
                .collect()
        }
        fn this_shape(&self, ip: u32) -> Option<u64> {
            self.this_shape.filter(|_| ip == 3)
        }
        fn lookup(&self, shape: u64, _name: u32) -> Option<Found> {
            self.found.map(|f| Found { case: PropertyCase { shape, ..f.case }, ..f })
        }
        fn closure_inlinee(&self, closure: u64) -> Option<Inlinee<'_>> {
            inlinee_of(0x6e00, &self.closure).filter(|_| self.found.is_some_and(|f| f.value == closure))
        }
        fn apply_function(&self) -> Option<u64> {
            Some(APPLY)
        }
    }

    /// A callee's profile, borrowed from its caller's.
    struct SeenRef<'a>(&'a Seen);

    impl Profile for SeenRef<'_> {
        fn kinds(&self, ip: u32) -> u8 {
            self.0.kinds(ip)
        }
        fn property(&self, ip: u32) -> PropertySite {
            self.0.property(ip)
        }
        fn global_object(&self) -> u64 {
            self.0.global_object()
        }
        fn string(&self, id: u32) -> u64 {
            self.0.string(id)
        }
        fn is_length(&self, id: u32) -> bool {
            self.0.is_length(id)
        }
        fn inlinee(&self, ip: u32) -> Option<Inlinee<'_>> {
            self.0.inlinee(ip)
        }
        fn polymorphic(&self, ip: u32) -> Vec<(u64, Option<Inlinee<'_>>)> {
            self.0.polymorphic(ip)
        }
        fn this_shape(&self, ip: u32) -> Option<u64> {
            self.0.this_shape(ip)
        }
        fn lookup(&self, shape: u64, name: u32) -> Option<Found> {
            self.0.lookup(shape, name)
        }
        fn closure_inlinee(&self, closure: u64) -> Option<Inlinee<'_>> {
            self.0.closure_inlinee(closure)
        }
        fn apply_function(&self) -> Option<u64> {
            self.0.apply_function()
        }
    }

    /// An inlined frame of a plain call.
    fn frame(function: u64, call: u32, window: u32) -> InlinedFrame {
        InlinedFrame { function, call, window, kind: FrameKind::Call, arguments: None }
    }

    fn vm() -> Interface {
        crate::test_interface(&[
            ("exec", 1),
            ("safepoint", 0),
            ("call", 5),
            ("construct", 5),
            ("instance_of", 2),
            ("create_this", 2),
            ("typed_get", 2),
            ("typed_set", 3),
        ])
    }

    fn translate_all(insts: &[Inst], handlers: &[(u32, u32, u32)], seen: Seen) -> Function {
        let src = Source {
            name: "f",
            insts,
            handlers,
            frame_size: 4,
            entry: 0,
            interrupt: 0x2000,
            gc_due: 0x2004,
            stress: false,
            proto_epoch: 0x3000,
        };
        let f = translate(&src, &seen, &vm()).expect("translates");
        if let Err(e) = verify(&f) {
            panic!("{e:?}\n{f}");
        }
        f
    }

    fn ops(f: &Function) -> Vec<Op> {
        f.layout.iter().flat_map(|&b| f.block(b).insts.iter().map(|i| i.op.clone())).collect()
    }

    /// `return a + b` over the parameters.
    fn add_params() -> Vec<Inst> {
        vec![
            Inst::LoadParam { dst: 0, index: 1 },
            Inst::LoadParam { dst: 1, index: 2 },
            Inst::Add { dst: 2, lhs: 0, rhs: 1 },
            Inst::Ret { value: 2 },
        ]
    }

    #[test]
    fn int32_feedback_speculates_with_an_overflow_exit() {
        let f = translate_all(&add_params(), &[], Seen::of(vec![(2, kind::INT32)]));
        assert_eq!(f.block(f.entry().unwrap()).params.len(), 3, "this and two arguments");
        assert!(ops(&f).iter().any(|op| matches!(op, Op::Checked(CheckedOp::Add, ..))));
        assert!(!ops(&f).iter().any(|op| matches!(op, Op::CallHelper(..))), "no slow path: it exits");
        let exit = f.exits.iter().find(|e| e.offset == 2).expect("an exit at the add");
        let live: Vec<u32> = exit.regs.iter().map(|&(r, _)| r).collect();
        assert_eq!(live, vec![0, 1], "the add's operands are live there");
    }

    #[test]
    fn doubles_use_f64_and_other_kinds_the_vm() {
        let f = translate_all(&add_params(), &[], Seen::of(vec![(2, kind::INT32 | kind::DOUBLE)]));
        assert!(ops(&f).iter().any(|op| matches!(op, Op::Float(FloatOp::Add, ..))));
        let f = translate_all(&add_params(), &[], Seen::of(vec![(2, kind::STRING)]));
        assert!(ops(&f).iter().any(|op| matches!(op, Op::CallHelper(name, _) if name == "exec")));
        assert!(!ops(&f).iter().any(|op| matches!(op, Op::Float(..))));
        // Never ran: numbers inline, anything else through the VM.
        let f = translate_all(&add_params(), &[], Seen::of(vec![]));
        assert!(ops(&f).iter().any(|op| matches!(op, Op::Float(FloatOp::Add, ..))));
        assert!(ops(&f).iter().any(|op| matches!(op, Op::CallHelper(name, _) if name == "exec")));
    }

    #[test]
    fn bitwise_operators_on_doubles_convert_inline() {
        let insts = [
            Inst::LoadParam { dst: 0, index: 1 },
            Inst::LoadParam { dst: 1, index: 2 },
            Inst::BitOr { dst: 2, lhs: 0, rhs: 1 },
            Inst::Ret { value: 2 },
        ];
        let f = translate_all(&insts, &[], Seen::of(vec![(2, kind::INT32 | kind::DOUBLE)]));
        assert_eq!(ops(&f).iter().filter(|op| matches!(op, Op::ToInt32(_))).count(), 2);
        assert!(!ops(&f).iter().any(|op| matches!(op, Op::CallHelper(..))));
    }

    #[test]
    fn calls_go_to_the_call_helper_with_their_operands() {
        // r0 = f(this = r1, r2)
        let insts = [
            Inst::LoadParam { dst: 0, index: 1 },
            Inst::LoadConstUndefined { dst: 1 },
            Inst::LoadParam { dst: 2, index: 2 },
            Inst::Call { dst: 0, callee: 0, first: 1, argc: 2 },
            Inst::Ret { value: 0 },
        ];
        let f = translate_all(&insts, &[], Seen::of(vec![]));
        let call = ops(&f).into_iter().find_map(|op| match op {
            Op::CallHelper(name, args) if name == "call" => Some(args),
            _ => None,
        });
        assert_eq!(call.map(|a| a.len()), Some(5), "ip, callee, first, argc, new.target");
        // The arguments are in the frame for the callee's window.
        assert!(ops(&f).iter().any(|op| matches!(op, Op::StoreReg(2, _))));
    }

    #[test]
    fn a_call_of_a_small_callee_is_inlined_and_its_exits_rebuild_its_frame() {
        // f(x) { return g(x) }, g(a) { return a + 1 }
        let g = vec![Inst::LoadParam { dst: 0, index: 1 }, Inst::Inc { dst: 1, src: 0 }, Inst::Ret { value: 1 }];
        let insts = [
            Inst::LoadParam { dst: 0, index: 1 },
            Inst::LoadConstUndefined { dst: 1 },
            Inst::Mov { dst: 2, src: 0 },
            Inst::Call { dst: 0, callee: 3, first: 1, argc: 2 },
            Inst::Ret { value: 0 },
        ];
        let src = Source {
            name: "f",
            insts: &insts,
            handlers: &[],
            frame_size: 4,
            entry: 0,
            interrupt: 0x2000,
            gc_due: 0x2004,
            stress: false,
            proto_epoch: 0x3000,
        };
        let f = translate(
            &src,
            &Seen {
                kinds: vec![(3, kind::INT32)],
                callee: Some((g, 2, Box::new(Seen::of(vec![(1, kind::INT32)])))),
                ..Seen::default()
            },
            &vm(),
        )
        .expect("translates");
        verify(&f).unwrap_or_else(|e| panic!("{e:?}\n{f}"));
        assert!(!ops(&f).iter().any(|op| matches!(op, Op::CallHelper(..))), "no call left:\n{f}");
        assert!(ops(&f).iter().any(|op| matches!(op, Op::Load(Type::I64, _, 32))), "the closure's function checked");
        // The increment's overflow exit rebuilds g's frame: the caller's registers live at
        // the call, then g's live one above the caller's window and its arguments (the VM
        // sets the others to undefined).
        let exit = f.exits.iter().find(|e| !e.inlined.is_empty()).expect("an exit inside g");
        assert_eq!(exit.offset, 1);
        assert_eq!(exit.inlined, vec![frame(0x5e02, 3, 6)]);
        let regs: Vec<u32> = exit.regs.iter().map(|&(r, _)| r).collect();
        assert_eq!(regs, vec![1, 2, 3, 6]);
    }

    #[test]
    fn a_callee_inlined_into_an_inlined_callee_rebuilds_both_frames_at_its_exits() {
        // f(x) { return h(x) }, h(x) { return g(x) }, g(a) { return a + 1 }: g's overflow
        // exit rebuilds h's frame above f's window, then g's above h's.
        let call = |frame| {
            vec![
                Inst::LoadParam { dst: 0, index: 1 },
                Inst::LoadConstUndefined { dst: 1 },
                Inst::Mov { dst: 2, src: 0 },
                Inst::Call { dst: 0, callee: 3, first: 1, argc: 2 },
                Inst::Ret { value: 0 },
            ]
            .into_iter()
            .take(frame)
            .collect::<Vec<_>>()
        };
        let g = vec![Inst::LoadParam { dst: 0, index: 1 }, Inst::Inc { dst: 1, src: 0 }, Inst::Ret { value: 1 }];
        let leaf = Seen::of(vec![(1, kind::INT32)]);
        let h = Seen { callee: Some((g, 2, Box::new(leaf))), ..Seen::default() };
        let f = Seen { callee: Some((call(5), 4, Box::new(h))), ..Seen::default() };
        let insts = call(5);
        let src = Source {
            name: "f",
            insts: &insts,
            handlers: &[],
            frame_size: 4,
            entry: 0,
            interrupt: 0x2000,
            gc_due: 0x2004,
            stress: false,
            proto_epoch: 0x3000,
        };
        let m = translate(&src, &f, &vm()).expect("translates");
        verify(&m).unwrap_or_else(|e| panic!("{e:?}\n{m}"));
        assert!(!ops(&m).iter().any(|op| matches!(op, Op::CallHelper(..))), "no call left:\n{m}");
        let exit = m.exits.iter().find(|e| e.inlined.len() == 2).expect("an exit inside g");
        assert_eq!(exit.offset, 1);
        assert_eq!(exit.inlined, vec![frame(0x5e04, 3, 6), frame(0x5e02, 3, 12)]);
        // f's registers live at its call, h's live at its own, then g's.
        let regs: Vec<u32> = exit.regs.iter().map(|&(r, _)| r).collect();
        assert_eq!(regs, vec![1, 2, 3, 7, 8, 9, 12]);
    }

    #[test]
    fn what_a_handler_reads_is_live_where_it_may_be_entered() {
        // r0 = 1; throw (inside a try whose handler returns r0).
        let insts = [
            Inst::LoadConstInt { dst: 0, value: 1 },
            Inst::Jmp { off: 4 },
            Inst::Catch { dst: 2 },
            Inst::Mov { dst: 1, src: 0 },
            Inst::Ret { value: 1 },
            Inst::ThrowError { kind: 0, msg: 0 },
        ];
        let f = translate_all(&insts, &[(5, 6, 2)], Seen::of(vec![]));
        // The helper's exit stores nothing (the registers were stored before the call)...
        let call = f
            .layout
            .iter()
            .flat_map(|&b| f.block(b).insts.iter())
            .find(|i| matches!(i.op, Op::CallHelper(..)))
            .expect("the throw goes through the VM");
        assert!(f.exits[call.exit.unwrap().0 as usize].regs.is_empty());
        // ... because r0, which the handler reads, was stored first.
        assert!(ops(&f).iter().any(|op| matches!(op, Op::StoreReg(0, _))));
    }

    #[test]
    fn back_edges_poll_and_mark_their_loop() {
        // for (r0 = 0; r0 < r1; r0++) {}
        let insts = [
            Inst::LoadConstInt { dst: 0, value: 0 },
            Inst::LoadParam { dst: 1, index: 1 },
            Inst::Inc { dst: 0, src: 0 },
            Inst::JmpLess { off: -1, lhs: 0, rhs: 1 },
            Inst::RetUndefined {},
        ];
        let f = translate_all(&insts, &[], Seen::of(vec![(2, kind::INT32), (3, kind::INT32)]));
        assert!(f.layout.iter().any(|&b| f.block(b).is_loop));
        assert!(ops(&f).iter().any(|op| matches!(op, Op::Load(Type::I32, ..))), "the interrupt flag is read");
        assert!(ops(&f).iter().any(|op| matches!(op, Op::CallHelper(name, _) if name == "safepoint")));
    }

    #[test]
    fn an_element_access_that_never_ran_leaves_instead_of_asking_the_vm() {
        // return a[i], compiled before the access ever ran (no feedback): the interpreter
        // runs it and records what it sees, for the next compile; with dense feedback it
        // is a bounds-checked load.
        let insts = [
            Inst::LoadParam { dst: 0, index: 1 },
            Inst::LoadParam { dst: 1, index: 2 },
            Inst::GetByVal { dst: 2, obj: 0, key: 1 },
            Inst::Ret { value: 2 },
        ];
        let cold = ops(&translate_all(&insts, &[], Seen::of(vec![])));
        assert!(cold.iter().any(|op| matches!(op, Op::Deopt(_))), "{cold:?}");
        assert!(!cold.iter().any(|op| matches!(op, Op::CallHelper(..))), "{cold:?}");
        let warm = ops(&translate_all(&insts, &[], Seen::of(vec![(2, kind::INT32 | kind::DENSE)])));
        assert!(warm.iter().any(|op| matches!(op, Op::LoadElem(..))), "{warm:?}");
    }

    #[test]
    fn an_arguments_object_only_passed_to_apply_is_forwarded_not_made() {
        // r0 = f.apply(r2, arguments): no object, the call forwards; exits before the call
        // have the VM make it. With another use of the object, it is made as usual.
        let insts = [
            Inst::LoadThisNS { dst: 2 },
            Inst::CreateArguments { dst: 3 },
            Inst::LoadParam { dst: 0, index: 1 },
            Inst::Inc { dst: 0, src: 0 },
            Inst::GetById { dst: 1, obj: 2, name: 0, ic: 0 },
            Inst::GetById { dst: 0, obj: 1, name: 1, ic: 1 },
            Inst::Call { dst: 0, callee: 0, first: 1, argc: 3 },
            Inst::Ret { value: 0 },
        ];
        let seen = || Seen::of(vec![(3, kind::INT32)]);
        let f = translate_all(&insts, &[], seen());
        let calls: Vec<String> = ops(&f)
            .into_iter()
            .filter_map(|op| match op {
                Op::CallHelper(name, _) => Some(name),
                _ => None,
            })
            .collect();
        assert!(calls.contains(&"call_forwarding".to_string()), "{calls:?}");
        assert!(f.exits.iter().any(|e| e.arguments == Some(3)), "{f}");
        let mut used = insts.to_vec();
        used[7] = Inst::Ret { value: 3 };
        let f = translate_all(&used, &[], seen());
        assert!(!ops(&f).iter().any(|op| matches!(op, Op::CallHelper(name, _) if name == "call_forwarding")), "{f}");
        assert!(f.exits.iter().all(|e| e.arguments.is_none()), "{f}");
    }

    #[test]
    fn equality_on_numbers_the_feedback_saw_is_a_number_comparison() {
        // return a == b: number feedback (int32 or not) compares f64s, anything else takes
        // the general way (which tests the kinds at run time).
        let insts = [
            Inst::LoadParam { dst: 0, index: 1 },
            Inst::LoadParam { dst: 1, index: 2 },
            Inst::Eq { dst: 2, lhs: 0, rhs: 1 },
            Inst::Ret { value: 2 },
        ];
        let ints = ops(&translate_all(&insts, &[], Seen::of(vec![(2, kind::INT32)])));
        assert!(ints.iter().any(|op| matches!(op, Op::Fcmp(FloatCC::Eq, ..))), "{ints:?}");
        assert!(!ints.iter().any(|op| matches!(op, Op::TagIs(..) | Op::UnboxI32(_))), "{ints:?}");
        let numbers = ops(&translate_all(&insts, &[], Seen::of(vec![(2, kind::INT32 | kind::DOUBLE)])));
        assert!(numbers.iter().any(|op| matches!(op, Op::Fcmp(FloatCC::Eq, ..))), "{numbers:?}");
        let mixed = ops(&translate_all(&insts, &[], Seen::of(vec![(2, kind::INT32 | kind::STRING)])));
        assert!(mixed.iter().any(|op| matches!(op, Op::TagIs(..))), "{mixed:?}");
    }

    #[test]
    fn an_element_write_that_sometimes_found_no_element_asks_the_vm_then() {
        // a[i] = v, seen both overwriting an element and filling a hole: inline where
        // has_elem says the element is there, `exec` elsewhere (never a deopt).
        let insts = [
            Inst::LoadParam { dst: 0, index: 1 },
            Inst::LoadParam { dst: 1, index: 2 },
            Inst::LoadParam { dst: 2, index: 3 },
            Inst::PutByVal { obj: 0, key: 1, value: 2 },
            Inst::RetUndefined {},
        ];
        let f = ops(&translate_all(&insts, &[], Seen::of(vec![(3, kind::DENSE | kind::SLOW)])));
        assert!(f.iter().any(|op| matches!(op, Op::HasElem(..))), "{f:?}");
        assert!(f.iter().any(|op| matches!(op, Op::StoreElem(..))), "{f:?}");
        assert!(f.iter().any(|op| matches!(op, Op::CallHelper(name, _) if name == "exec")), "{f:?}");
        assert!(!f.iter().any(|op| matches!(op, Op::Deopt(_))), "{f:?}");
    }

    #[test]
    fn typed_array_element_accesses_call_pure_helpers_and_leave_when_they_decline() {
        // b[i] = a[i], both seen only on TypedArrays: `typed_get` and `typed_set`, each
        // followed by a check that leaves for the interpreter; no `exec`, nothing flushed.
        let insts = [
            Inst::LoadParam { dst: 0, index: 1 },
            Inst::LoadParam { dst: 1, index: 2 },
            Inst::LoadParam { dst: 2, index: 3 },
            Inst::GetByVal { dst: 3, obj: 0, key: 2 },
            Inst::PutByVal { obj: 1, key: 2, value: 3 },
            Inst::RetUndefined {},
        ];
        let seen = Seen::of(vec![(3, kind::TYPED | kind::DOUBLE), (4, kind::TYPED)]);
        let f = ops(&translate_all(&insts, &[], seen));
        let helpers: Vec<&str> = f
            .iter()
            .filter_map(|op| match op {
                Op::CallHelper(name, _) => Some(name.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(helpers, ["typed_get", "typed_set"], "{f:?}");
        assert_eq!(f.iter().filter(|op| matches!(op, Op::Check(_, Reason::NoElement))).count(), 2, "{f:?}");
    }

    /// `function f(x) { return new C(x) }`: the `construct` at 3, of `C`, with `this` at
    /// register 1 and `x` at 2.
    fn construct_c() -> [Inst; 5] {
        [
            Inst::LoadParam { dst: 0, index: 1 },
            Inst::LoadConstUndefined { dst: 1 },
            Inst::Mov { dst: 2, src: 0 },
            Inst::Construct { dst: 0, callee: 3, new_target: 3, first: 1, argc: 2 },
            Inst::Ret { value: 0 },
        ]
    }

    fn translate_f(insts: &[Inst], seen: &Seen) -> Function {
        let src = Source {
            name: "f",
            insts,
            handlers: &[],
            frame_size: 4,
            entry: 0,
            interrupt: 0x2000,
            gc_due: 0x2004,
            stress: false,
            proto_epoch: 0x3000,
        };
        let f = translate(&src, seen, &vm()).expect("translates");
        verify(&f).unwrap_or_else(|e| panic!("{e:?}\n{f}"));
        f
    }

    #[test]
    fn a_constructor_is_inlined_on_the_object_create_this_makes() {
        // C(a) { this.a = a + 1 }, which saw objects of shape 0x7000 get `a` by a transition
        // to 0x7100 (an inline slot).
        let c = vec![
            Inst::LoadParam { dst: 0, index: 0 },
            Inst::LoadParam { dst: 1, index: 1 },
            Inst::Inc { dst: 1, src: 1 },
            Inst::PutById { obj: 0, name: 0, value: 1, ic: 0 },
            Inst::RetUndefined {},
        ];
        let add = PropertyCase {
            shape: 0x7000,
            slot: SlotAt::Inline(24),
            holder: None,
            dict_version: None,
            transition: Some(Holder { object: 0x7100, epoch: 5 }),
            maybe_empty: false,
        };
        let callee = Seen {
            kinds: vec![(2, kind::INT32)],
            properties: vec![(3, PropertySite { cases: vec![add], megamorphic: false })],
            ..Seen::default()
        };
        let seen = Seen { callee: Some((c.clone(), 2, Box::new(callee))), this_shape: Some(0x7000), ..Seen::default() };
        let f = translate_f(&construct_c(), &seen);
        let helpers: Vec<String> = ops(&f)
            .into_iter()
            .filter_map(|op| match op {
                Op::CallHelper(name, _) => Some(name),
                _ => None,
            })
            .collect();
        assert_eq!(helpers, vec!["create_this".to_string()], "no construct left:\n{f}");
        // The shape is known: the transition's store with no shape guard before it.
        assert!(ops(&f).iter().any(|op| matches!(op, Op::StoreSlot(_, 24, _))), "{f}");
        assert!(!ops(&f).iter().any(|op| matches!(op, Op::LoadShape(_))), "no shape guard:\n{f}");
        // The increment's exit rebuilds a constructor's frame with `this` where the
        // construct's `this` register is.
        let exit = f.exits.iter().find(|e| !e.inlined.is_empty()).expect("an exit inside C");
        assert_eq!(exit.inlined[0].kind, FrameKind::Construct);
        assert_eq!(exit.inlined[0].window, 6);
        let this = exit.regs.iter().find(|&&(r, _)| r == 1).expect("the this register").1;
        assert!(
            matches!(this, ExitValue::Val(v) if matches!(f.values[v.0 as usize].def, crate::mir::ValueDef::Inst(..)))
        );
        // Without a shape of `this`, or with another new.target, it is a construct.
        let unseen = Seen { callee: Some((c, 2, Box::new(Seen::default()))), ..Seen::default() };
        let f = translate_f(&construct_c(), &unseen);
        assert!(ops(&f).iter().any(|op| matches!(op, Op::CallHelper(name, _) if name == "construct")), "{f}");
    }

    #[test]
    fn apply_of_a_method_found_on_the_prototype_inlines_the_method() {
        // K() { this.init.apply(this, arguments) } (Class.create's constructor), whose
        // `this` has a known shape and `init` (found on its prototype) holds a closure of
        // init(a) { return a + 1 }.
        let k = vec![
            Inst::LoadParam { dst: 5, index: 0 },
            Inst::CreateArguments { dst: 6 },
            Inst::GetById { dst: 4, obj: 5, name: 7, ic: 0 },
            Inst::GetById { dst: 7, obj: 4, name: 8, ic: 1 },
            Inst::Call { dst: 0, callee: 7, first: 4, argc: 3 },
            Inst::RetUndefined {},
        ];
        let init = vec![Inst::LoadParam { dst: 0, index: 1 }, Inst::Inc { dst: 1, src: 0 }, Inst::RetUndefined {}];
        let apply = PropertyCase {
            shape: 0x7200,
            slot: SlotAt::Inline(40),
            holder: Some(Holder { object: 0x8800, epoch: 5 }),
            dict_version: None,
            transition: None,
            maybe_empty: true,
        };
        let found = Found {
            case: PropertyCase {
                shape: 0,
                slot: SlotAt::Inline(32),
                holder: Some(Holder { object: 0x8000, epoch: 5 }),
                dict_version: None,
                transition: None,
                maybe_empty: false,
            },
            value: 0x9999,
        };
        let callee = Seen {
            properties: vec![(3, PropertySite { cases: vec![apply], megamorphic: false })],
            found: Some(found),
            closure: Some((init, 2, Box::new(Seen::of(vec![(1, kind::INT32)])))),
            ..Seen::default()
        };
        let seen = Seen { callee: Some((k, 8, Box::new(callee))), this_shape: Some(0x7000), ..Seen::default() };
        let f = translate_f(&construct_c(), &seen);
        assert!(
            !ops(&f).iter().any(|op| matches!(op, Op::CallHelper(name, _) if name != "create_this")),
            "no call left:\n{f}"
        );
        assert!(ops(&f).iter().any(|op| matches!(op, Op::Iconst(Type::I64, c) if *c == APPLY as i64)), "{f}");
        // init's exit rebuilds K's frame (a constructor's, whose arguments object the VM
        // makes) and init's (called through apply).
        let exit = f.exits.iter().find(|e| e.inlined.len() == 2).expect("an exit inside init");
        let kinds: Vec<FrameKind> = exit.inlined.iter().map(|i| i.kind).collect();
        assert_eq!(kinds, vec![FrameKind::Construct, FrameKind::Forward]);
        assert_eq!(exit.inlined[0].arguments, Some(6));
        assert_eq!(exit.inlined[0].window, 6, "f's 4 registers and K's two arguments");
        assert_eq!(exit.inlined[1].window, 6 + 8 + 2, "K's 8 registers and its two arguments again");
        // Without a closure the method could be, K is not inlined at all.
        let mut unknown = seen;
        if let Some((_, _, k)) = unknown.callee.as_mut() {
            k.closure = None;
        }
        let f = translate_f(&construct_c(), &unknown);
        assert!(ops(&f).iter().any(|op| matches!(op, Op::CallHelper(name, _) if name == "construct")), "{f}");
        assert!(f.exits.iter().all(|e| e.inlined.is_empty()), "{f}");
    }

    #[test]
    fn a_call_that_saw_a_few_callees_inlines_each_behind_a_test_of_its_function() {
        // f(x) { return g(x) } where g was a closure of g2 (a + 1) or g3 (a - 1): each
        // inlined where the callee's function is its, any other called the general way;
        // inside an inlined callee, another leaves.
        let g2 = vec![Inst::LoadParam { dst: 0, index: 1 }, Inst::Inc { dst: 1, src: 0 }, Inst::Ret { value: 1 }];
        let g3 = vec![
            Inst::LoadParam { dst: 0, index: 1 },
            Inst::Dec { dst: 1, src: 0 },
            Inst::LoadConstUndefined { dst: 2 },
            Inst::Ret { value: 1 },
        ];
        let ints = || Box::new(Seen::of(vec![(1, kind::INT32)]));
        let seen = Seen { several: vec![(g2, 2, ints()), (g3, 3, ints())], ..Seen::default() };
        let insts = [
            Inst::LoadParam { dst: 0, index: 1 },
            Inst::LoadConstUndefined { dst: 1 },
            Inst::Mov { dst: 2, src: 0 },
            Inst::Call { dst: 0, callee: 3, first: 1, argc: 2 },
            Inst::Ret { value: 0 },
        ];
        let f = translate_f(&insts, &seen);
        let tested: Vec<i64> = ops(&f)
            .into_iter()
            .filter_map(|op| match op {
                Op::Iconst(Type::I64, c) if c == 0x5e02 || c == 0x5e03 => Some(c),
                _ => None,
            })
            .collect();
        assert_eq!(tested, vec![0x5e02, 0x5e03], "{f}");
        let calls = ops(&f).iter().filter(|op| matches!(op, Op::CallHelper(name, _) if name == "call")).count();
        assert_eq!(calls, 1, "the general way for another callee:\n{f}");
        let frames: Vec<u64> = f.exits.iter().flat_map(|e| e.inlined.iter().map(|i| i.function)).collect();
        assert!(frames.contains(&0x5e02) && frames.contains(&0x5e03), "exits in both callees: {f}");
        // The same call inside a callee inlined in turn: no call, another callee leaves.
        let outer = Seen { callee: Some((insts.to_vec(), 4, Box::new(seen))), ..Seen::default() };
        let f = translate_f(&insts, &outer);
        assert!(!ops(&f).iter().any(|op| matches!(op, Op::CallHelper(..))), "{f}");
        assert!(ops(&f).iter().any(|op| matches!(op, Op::Deopt(_))), "{f}");
    }

    #[test]
    fn code_entered_by_calls_sets_its_registers_to_undefined_first() {
        // A compiled caller pushes the frame without filling its registers; the collector
        // reads them. Code for a loop entry (whose registers hold live values) does not.
        let f = translate_all(&add_params(), &[], Seen::of(vec![(2, kind::INT32)]));
        let entry = f.block(f.entry().unwrap());
        let stored: Vec<u32> = entry
            .insts
            .iter()
            .filter_map(|i| match i.op {
                Op::StoreReg(r, _) => Some(r),
                _ => None,
            })
            .collect();
        assert_eq!(stored, vec![0, 1, 2, 3], "{f}");
        let insts = [
            Inst::LoadConstInt { dst: 0, value: 0 },
            Inst::LoadParam { dst: 1, index: 1 },
            Inst::Inc { dst: 0, src: 0 },
            Inst::JmpLess { off: -1, lhs: 0, rhs: 1 },
            Inst::RetUndefined {},
        ];
        let src = Source {
            name: "f",
            insts: &insts,
            handlers: &[],
            frame_size: 4,
            entry: 2,
            interrupt: 0x2000,
            gc_due: 0x2004,
            stress: false,
            proto_epoch: 0x3000,
        };
        let f = translate(&src, &Seen::of(vec![(2, kind::INT32), (3, kind::INT32)]), &vm()).expect("translates");
        let entry = f.block(f.entry().unwrap());
        assert!(!entry.insts.iter().any(|i| matches!(i.op, Op::StoreReg(..))), "{f}");
    }
}
