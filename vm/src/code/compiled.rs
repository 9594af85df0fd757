//! What the JIT keeps for a function (see `jit`): its machine code for calls and for loop
//! entries from the interpreter (OSR), and how its compiles went.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// Machine code for a function, entered at its start or at one loop header.
pub(crate) struct Compiled {
    pub(crate) memory: native::code_memory::CodeMemory,
    /// The instruction index each exit resumes the interpreter at.
    pub(crate) exits: Box<[u32]>,
    /// How many argument values (`this` first) the code takes.
    pub(crate) params: u32,
    /// Exits taken because a speculation failed.
    pub(crate) deopts: Cell<u32>,
}

/// A function's compiled code. Frames running it hold an `Rc`, so code dropped while they
/// run (because it exited too often) stays mapped until they leave it.
#[derive(Default)]
pub(crate) struct JitState {
    /// Entered by calls.
    pub(crate) entry: RefCell<Option<Rc<Compiled>>>,
    /// Entered at loop headers: (instruction index, code).
    pub(crate) loops: RefCell<Vec<(u32, Rc<Compiled>)>>,
    /// How many times it was compiled.
    pub(crate) compiles: Cell<u32>,
    /// Never compile it again: it could not be, or its code kept exiting.
    pub(crate) given_up: Cell<bool>,
}
