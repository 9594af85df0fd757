//! Loaded bundles and the interpreter's view of a function's code.
//!
//! A verified [`bytecode::Bundle`] is loaded once: its strings become atoms (rooted for the
//! runtime's lifetime), each function gets a [`FunctionInfo`] and a range of inline-cache
//! entries. A function's instructions are decoded lazily, on its first call, into a
//! fixed-size `Inst` array that the interpreter indexes directly:
//!
//! ```text
//!  bytes ──decode once──▶ [Inst; n]   jump offsets rewritten to *instruction* deltas
//!                         pcs[n]      byte pc of each instruction (locations, handlers)
//!                         handlers    [start, end) → target, as instruction indices
//!                         feedback    what the interpreter observed (`feedback`)
//! ```
//!
//! `LoadedBundle`s are boxed and never freed or moved while the runtime lives, so closures
//! and frames refer to their `FunctionInfo` by raw pointer.

use std::cell::{Cell, OnceCell};

use bytecode::{Bundle, FunctionFlags, FunctionHeader, Inst};

use crate::value::Value;

#[cfg(feature = "jit")]
pub mod compiled;
pub mod feedback;
pub mod ic;

/// A bundle in use by the runtime.
pub struct LoadedBundle {
    /// The verified bundle.
    pub bundle: Bundle,
    /// Its strings as atoms, by string id.
    pub strings: Vec<Value>,
    /// Its functions, by function id.
    pub functions: Vec<FunctionInfo>,
    /// The realm its code runs in.
    pub realm: u32,
    /// Its index in `Runtime::bundles`.
    pub index: u32,
}

/// `FunctionInfo::ic_base` of a function without inline caches: slots computed from it
/// are far past the end of the table (on 64-bit targets, the only ones Iris supports).
pub const NO_ICS: u32 = u32::MAX;

/// A function of a loaded bundle.
pub struct FunctionInfo {
    pub(crate) bundle: *const LoadedBundle,
    /// Function id within the bundle.
    pub id: u32,
    /// The realm its code runs in (the bundle's, kept here for the call path).
    realm: u32,
    /// The header from the function table.
    pub header: FunctionHeader,
    /// First inline-cache slot of this function (its entries start at `ic_base * WAYS` in
    /// `Runtime::ics`), or `NO_ICS` until it has them: a function gets its caches when it
    /// is first called, a bundle's global code when it takes a loop back-edge or is entered
    /// again (`Runtime::note_entry`), so top-level code that runs once looks properties up
    /// without caching and costs no cache memory. Every reader of the table tolerates a
    /// slot past its end.
    pub ic_base: Cell<u32>,
    /// Whether it has been entered (global code gets inline caches at its second entry).
    pub(crate) entered: Cell<bool>,
    /// A `LAZY` function, once compiled: the function its text became (in a bundle of its
    /// own), which its closures run and new closures are made of.
    pub(crate) compiled: Cell<Option<FuncRef>>,
    code: OnceCell<Code>,
    /// Inline slots to give objects this function constructs (learned from the
    /// properties earlier instances received).
    pub(crate) ctor_slots: Cell<u8>,
    /// How warm it is (whether the interpreter records feedback for it).
    pub(crate) warm: feedback::Warmup,
    /// Its machine code, if the JIT made some.
    #[cfg(feature = "jit")]
    pub(crate) jit: compiled::JitState,
}

/// Decoded instructions of a function.
///
/// Invariant the interpreter relies on to fetch without a bounds check: every instruction
/// index it can reach is below `insts.len()`. The verifier guarantees that the code ends in
/// a terminator and that every jump and handler target starts an instruction, so falling
/// through or jumping always lands on an instruction; `decode` also clamps every target to
/// at most the original length and appends a `trap`, so even an out-of-range target lands
/// on an instruction that throws.
pub struct Code {
    /// The instructions, ending with an extra `trap`; branch offsets are instruction-index
    /// deltas.
    pub insts: Box<[Inst]>,
    /// Byte pc of each instruction.
    pub pcs: Box<[u32]>,
    /// Exception handlers as `(start, end, target)` instruction indices, inner first.
    pub handlers: Box<[(u32, u32, u32)]>,
    /// For each `new_object`, the number of inline slots to give the object: the number of
    /// properties the object literal defines right after it (0 for other instructions).
    pub literal_caps: Box<[u8]>,
    /// What the interpreter observed running it (a byte for every instruction).
    pub feedback: feedback::Feedback,
    /// The `(pc, line, col)` location entries, decoded from the bundle's compact form the
    /// first time a stack trace needs one (so that a function throwing many errors finds
    /// each location by binary search).
    locations: OnceCell<Box<[(u32, u32, u32)]>>,
}

impl FunctionInfo {
    /// The info of function `id` of `bundle` (whose address must not change while the
    /// runtime lives), with no inline caches yet; decoded on first use.
    pub(crate) fn new(bundle: *const LoadedBundle, id: u32, realm: u32, header: FunctionHeader) -> Self {
        FunctionInfo {
            bundle,
            id,
            realm,
            header,
            ic_base: Cell::new(NO_ICS),
            entered: Cell::new(false),
            compiled: Cell::new(None),
            code: OnceCell::new(),
            ctor_slots: Cell::new(4),
            warm: feedback::Warmup::default(),
            #[cfg(feature = "jit")]
            jit: compiled::JitState::default(),
        }
    }

    /// The bundle this function belongs to.
    #[inline(always)]
    pub(crate) fn bundle(&self) -> &LoadedBundle {
        // SAFETY: `bundle` points at the boxed `LoadedBundle` that owns this info; bundles
        // are never freed or moved while the runtime lives.
        unsafe { &*self.bundle }
    }

    /// The function's flags.
    #[inline(always)]
    pub(crate) fn flags(&self) -> FunctionFlags {
        self.header.flags
    }

    /// Whether the function is strict mode code.
    #[inline(always)]
    pub(crate) fn is_strict(&self) -> bool {
        self.header.flags.contains(FunctionFlags::STRICT)
    }

    /// The decoded code (decoding it on first use).
    #[inline]
    pub(crate) fn code(&self) -> &Code {
        self.code.get_or_init(|| decode(&self.bundle().bundle, self.id))
    }

    /// The decoded code, if the function has run.
    pub(crate) fn code_if_decoded(&self) -> Option<&Code> {
        self.code.get()
    }

    /// The byte pc of instruction `ip`.
    pub(crate) fn byte_pc(&self, ip: u32) -> u32 {
        self.code().pcs.get(ip as usize).copied().unwrap_or(0)
    }

    /// `(line, col)` of the instruction at byte pc `pc`: the last location entry at or
    /// before it.
    pub(crate) fn location(&self, pc: u32) -> Option<(u32, u32)> {
        let entries = self.code().locations.get_or_init(|| self.bundle().bundle.locations(self.id).into_boxed_slice());
        let &(_, line, col) = entries.get(entries.partition_point(|e| e.0 <= pc).checked_sub(1)?)?;
        Some((line, col))
    }

    /// The function's name for stack traces.
    pub(crate) fn display_name(&self) -> String {
        let b = self.bundle();
        if self.id == 0 {
            return String::new();
        }
        b.bundle.string(self.header.name).to_string_lossy()
    }

    /// The function's name atom.
    pub(crate) fn name_value(&self) -> Value {
        self.bundle().strings[self.header.name as usize]
    }

    /// The realm its code runs in.
    #[inline(always)]
    pub(crate) fn realm(&self) -> u32 {
        self.realm
    }
}

/// A reference to the `FunctionInfo` of a loaded bundle, held by closures and frames.
///
/// Only made from a `&FunctionInfo` that lives in a loaded bundle, which the runtime keeps
/// (boxed, never moved or freed) for its whole lifetime; so dereferencing it is always
/// valid while the runtime exists, which outlives every closure and frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FuncRef(std::ptr::NonNull<FunctionInfo>);

impl FuncRef {
    /// A reference to `info`, which must belong to a loaded bundle.
    pub(crate) fn new(info: &FunctionInfo) -> FuncRef {
        FuncRef(std::ptr::NonNull::from(info))
    }

    /// The info's address (an identity for feedback; never 0 or 1).
    pub(crate) fn addr(self) -> usize {
        self.0.as_ptr() as usize
    }

    /// The function info.
    ///
    /// # Safety
    /// The runtime that loaded the info's bundle must outlive `'a`. It does for every use
    /// inside the VM: `FuncRef`s are only made by the runtime, from its own bundles, and
    /// kept only in its own cells and frames (fields outside code cannot read).
    #[inline(always)]
    pub(crate) unsafe fn get<'a>(self) -> &'a FunctionInfo {
        // SAFETY: see the type's docs; the caller keeps the reference no longer than the
        // runtime lives.
        unsafe { self.0.as_ref() }
    }
}

/// The flags of the function behind a closure's reference.
#[inline(always)]
pub(crate) fn info_flags(info: FuncRef) -> FunctionFlags {
    // SAFETY: nothing outlives this call; the runtime that made `info` is alive, since
    // only it holds `FuncRef`s (see `FuncRef::get`).
    unsafe { info.get() }.header.flags
}

/// The realm of the function behind a closure's reference.
#[inline(always)]
pub(crate) fn info_realm(info: FuncRef) -> u32 {
    // SAFETY: as in `info_flags`.
    unsafe { info.get() }.realm()
}

/// Borrows the info behind a reference.
///
/// # Safety
/// As for `FuncRef::get`.
#[inline(always)]
pub(crate) unsafe fn info_ref<'a>(info: FuncRef) -> &'a FunctionInfo {
    // SAFETY: the caller's contract.
    unsafe { info.get() }
}

/// Decodes function `id` of a verified bundle.
fn decode(bundle: &Bundle, id: u32) -> Code {
    let bytes = bundle.code(id);
    let mut insts = Vec::new();
    let mut pcs = Vec::new();
    let mut pc = 0;
    while pc < bytes.len() {
        match Inst::decode(bytes, pc) {
            Ok((inst, len)) => {
                insts.push(inst);
                pcs.push(pc as u32);
                pc += len;
            }
            // The verifier accepted the bundle, so this cannot happen; stop decoding and
            // let the missing instructions fault as an out-of-range pc.
            Err(_) => break,
        }
    }
    // The index of the first instruction at or after byte pc `p` (`pcs` is sorted).
    let index_at = |p: u32| -> u32 { pcs.partition_point(|&q| q < p) as u32 };
    for i in 0..insts.len() {
        if let Some(off) = insts[i].branch_offset() {
            let target = (pcs[i] as i64 + off as i64).max(0) as u32;
            let ti = index_at(target) as i64;
            insts[i] = insts[i].with_branch_offset((ti - i as i64) as i32);
        }
    }
    let handlers = bundle
        .handlers_iter(id)
        .map(|h| (index_at(h.start), index_at(h.end), index_at(h.target)))
        .collect::<Vec<_>>()
        .into_boxed_slice();
    // `index_at` maps every target to at most `insts.len()`: the index of this trap.
    insts.push(Inst::Trap {});
    pcs.push(bytes.len() as u32);
    let literal_caps = literal_caps(&insts);
    let feedback = feedback::Feedback::new(&insts);
    Code {
        insts: insts.into_boxed_slice(),
        pcs: pcs.into_boxed_slice(),
        handlers,
        literal_caps,
        feedback,
        locations: OnceCell::new(),
    }
}

/// Sizes object literals: counts the own-property definitions into the `new_object`'s
/// register that follow it in straight-line code.
fn literal_caps(insts: &[Inst]) -> Box<[u8]> {
    let mut caps = vec![0u8; insts.len()];
    for (i, inst) in insts.iter().enumerate() {
        let Inst::NewObject { dst } = *inst else { continue };
        let mut n = 0u32;
        for next in insts.iter().skip(i + 1).take(256) {
            match *next {
                Inst::PutOwnById { obj, .. } | Inst::PutOwnByVal { obj, .. } | Inst::PutOwnGetterSetter { obj, .. }
                    if obj == dst =>
                {
                    n += 1
                }
                Inst::NewObject { dst: d } if d == dst => break,
                Inst::Mov { dst: d, .. } if d == dst => break,
                _ if next.branch_offset().is_some() => break,
                _ if next.opcode().is_terminator() => break,
                _ => {}
            }
        }
        caps[i] = if n == 0 { 4 } else { n.min(16) as u8 };
    }
    caps.into_boxed_slice()
}
