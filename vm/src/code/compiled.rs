//! What the JIT keeps for a function (see `jit`): its machine code for calls and for loop
//! entries from the interpreter (OSR), and how its compiles went.

use std::cell::{Cell, RefCell};
use std::ptr::NonNull;

/// Times a function's code is invalidated after which it stays interpreted.
const MAX_INVALIDATIONS: u32 = 16;

/// Machine code for a function, entered at its start or at one loop header.
pub(crate) struct Compiled {
    pub(crate) memory: native::code_memory::CodeMemory,
    /// Where each exit resumes the interpreter.
    pub(crate) exits: Box<[Exit]>,
    /// How many registers above its frame's first the code may write (its own, and the
    /// windows of the callees it inlined, which an exit from one fills): entered only where
    /// the register stack has room for them.
    pub(crate) extent: u32,
    /// How many argument values (`this` first) the code takes.
    pub(crate) params: u32,
    /// Exits taken because a speculation failed.
    pub(crate) deopts: Cell<u32>,
}

/// Where an exit resumes the interpreter.
#[derive(Clone)]
pub(crate) struct Exit {
    /// The instruction index (of the innermost inlined callee's code, for an exit from
    /// one).
    pub(crate) ip: u32,
    /// The frames of the inlined callees the exit is in, outermost first.
    pub(crate) inlined: Box<[InlinedExit]>,
    /// The register to give the frame's arguments object, which the code did not make.
    pub(crate) arguments: Option<u32>,
    /// The registers the exit writes (counting from the compiled frame's first), in order:
    /// the others of an inlined callee's window are dead there, and set to undefined when
    /// its frame is made.
    pub(crate) written: Box<[u32]>,
}

/// The frame an exit from an inlined callee pushes (see `native::mir::InlinedFrame`).
#[derive(Clone, Copy)]
pub(crate) struct InlinedExit {
    pub(crate) callee: NonNull<crate::code::FunctionInfo>,
    /// The caller's call instruction (index), where its frame resumes once the callee
    /// returns.
    pub(crate) call: u32,
    /// Where the exit wrote the callee's registers: from this register of the compiled
    /// frame's window on.
    pub(crate) window: u32,
    /// How it was called (which says where its arguments are).
    pub(crate) kind: native::mir::FrameKind,
    /// The register to give its arguments object, which the code did not make.
    pub(crate) arguments: Option<u32>,
}

/// A function's compiled code. Code is never freed before the function is (frames may
/// still run code that is no longer entered): dropping code only stops entering it, and a
/// function is compiled a few times at most.
#[derive(Default)]
pub(crate) struct JitState {
    /// Every compile's code, owned here, boxed so that it never moves.
    #[allow(clippy::vec_box)]
    made: RefCell<Vec<Box<Compiled>>>,
    /// The code entered by calls (in `made`).
    entry: Cell<Option<NonNull<Compiled>>>,
    /// The code entered at loop headers: (instruction index, code in `made`).
    loops: RefCell<Vec<(u32, NonNull<Compiled>)>>,
    /// How many times its code was dropped (for exiting too often), and invalidated (what
    /// it assumed changed).
    pub(crate) drops: Cell<u32>,
    pub(crate) invalidations: Cell<u32>,
    /// Never compile it again: it could not be, or its code kept exiting.
    pub(crate) given_up: Cell<bool>,
    /// Exits taken from copies of it inlined into callers (past a few, it is not inlined
    /// any more).
    pub(crate) inline_exits: Cell<u32>,
    /// What compiled callers read to enter the entry code themselves.
    pub(crate) direct: Direct,
}

/// What compiled code's calls read of a callee to push its frame and enter its entry code
/// themselves (`native::CallPath`; where its fields are: `runtime_interface::layout`).
/// Kept together, next to each other in memory, for the calls' sake.
#[repr(C)]
#[derive(Default)]
pub(crate) struct Direct {
    /// The first instruction of the entry code callers may enter, or 0: none (no code, or a
    /// class constructor's, which calls must not run).
    pub(crate) code: Cell<usize>,
    /// The `Compiled` of that code (for when it leaves).
    pub(crate) compiled: Cell<usize>,
    /// Arguments the code takes, `this` first (a call passing fewer goes the general way).
    pub(crate) params: Cell<u32>,
    /// Registers above its frame's base the code may write (its own and those of the
    /// callees it inlined).
    pub(crate) room: Cell<u32>,
    /// The function's registers and realm (as its `FunctionInfo` says).
    pub(crate) frame_size: Cell<u32>,
    pub(crate) realm: Cell<u32>,
}

impl JitState {
    /// The code entered at instruction `at` (0: by calls).
    #[inline]
    pub(crate) fn code(&self, at: u32) -> Option<&Compiled> {
        let p = if at == 0 { self.entry.get()? } else { self.loops.borrow().iter().find(|(h, _)| *h == at)?.1 };
        // SAFETY: `p` points into a box of `made`, which is only ever pushed to, so the box
        // lives (unmoved) as long as `self`.
        Some(unsafe { p.as_ref() })
    }

    /// Keeps `code` and enters it at `at` from now on.
    pub(crate) fn install(&self, at: u32, code: Compiled) -> &Compiled {
        let boxed = Box::new(code);
        let p = NonNull::from(&*boxed);
        self.made.borrow_mut().push(boxed);
        if at == 0 {
            self.entry.set(Some(p));
        } else {
            self.loops.borrow_mut().push((at, p));
        }
        // SAFETY: as in `code`: the box was just moved into `made`, where it stays.
        unsafe { p.as_ref() }
    }

    /// Lets compiled callers enter `code` (the entry code just installed) themselves.
    pub(crate) fn enter_directly(&self, code: &Compiled, frame_size: u32, realm: u32) {
        let d = &self.direct;
        d.compiled.set(code as *const Compiled as usize);
        d.params.set(code.params);
        d.room.set(code.extent.max(frame_size));
        d.frame_size.set(frame_size);
        d.realm.set(realm);
        d.code.set(code.memory.address());
    }

    /// Whether any code of the function is entered.
    pub(crate) fn has_code(&self) -> bool {
        self.entry.get().is_some() || !self.loops.borrow().is_empty()
    }

    /// Stops entering its code because what the code assumed changed (not because it left
    /// too often); whether the function stays interpreted from now on (a program that keeps
    /// changing what code assumes would have it compiled again and again).
    pub(crate) fn invalidate(&self) -> bool {
        self.drop_all();
        self.invalidations.set(self.invalidations.get() + 1);
        if self.invalidations.get() >= MAX_INVALIDATIONS {
            self.given_up.set(true);
        }
        self.given_up.get()
    }

    /// Stops entering every code of the function (frames running it finish with it).
    pub(crate) fn drop_all(&self) {
        self.entry.set(None);
        self.direct.code.set(0);
        self.loops.borrow_mut().clear();
    }
}
