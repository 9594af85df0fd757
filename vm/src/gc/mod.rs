//! The garbage-collected heap: precise, non-moving, generational mark-sweep over size-class
//! pages (sticky mark bits and a write barrier; see `heap`).
//!
//! ```text
//!  roots (register stack, frames, realms, handle stack, bundle
//!         string caches, inline caches, pending exception)
//!  + the remembered set (old cells written since the last collection; minor only)
//!        │ mark (explicit mark stack, per-kind `trace`; a minor collection stops at
//!        │       old cells)
//!        ▼
//!  cells in size-class pages (16 .. 2048 bytes) and large cells (malloc)
//!        │ sweep (per-kind `finalize`, free lists rebuilt, empty pages unmapped; a minor
//!        │        collection sweeps the pages allocated into since the last one)
//!        ▼
//!  per-page free lists
//! ```
//!
//! Every cell starts with a [`CellHeader`] whose [`CellKind`] says how to trace and finalize
//! it. A [`Gc<T>`] is a typed pointer to a cell; it is `Copy` and carries no lifetime, so
//! the invariant that keeps it valid is the rooting discipline:
//!
//! **A collection happens only at a safepoint**: an instruction boundary of the interpreter
//! (before an allocating instruction, at calls, returns and backward jumps) or an explicit
//! `Runtime::safepoint` call. Allocation itself never collects; it only accounts bytes and
//! the next safepoint collects when the budget is spent. Consequently native code must root
//! (in the handle stack, see `runtime/handles.rs`) exactly the values it holds in Rust locals across
//! anything that can reach a safepoint: a call into JavaScript (including getters, setters,
//! `valueOf`/`toString` through ToPrimitive, and callbacks) or an explicit safepoint.
//! Arguments of a native call live in the caller's registers and are rooted for the whole
//! call. `RuntimeOptions::gc_stress` collects at every safepoint, so a missing root turns
//! into a use of a freed (poisoned) cell that the heap's kind checks report at once.
//!
//! The types are checked where they are made: a `Gc<T>` comes from a typed allocation or
//! from `Gc::cast`/`Value::gc`, which check the cell's kind in every build. What cannot be
//! checked cheaply is liveness, which rests on the rooting discipline above; that is why
//! nothing of the heap is public: an embedder holds no `Gc`, cannot forge a pointer
//! `Value`, and the helpers the native tier calls with values are `unsafe fn`s
//! (`runtime_interface::HelperFn`).
//!
//! The heap is also the access token: cell contents are read with `Heap::get` and written
//! with `Heap::get_mut`, so Rust's borrow rules forbid two live `&mut` to a cell. Every
//! writable view of a cell runs the generational write barrier (`Heap::write_barrier`);
//! code that writes a cell any other way (compiled code) must run the same test.

pub mod heap;

use std::fmt;
use std::marker::PhantomData;
use std::ptr::NonNull;

pub use heap::Heap;

/// What the heap needs to know about the insides of its cells, supplied by the layer that
/// defines the cell types (`runtime::trace::CELL_OPS`): the heap itself knows headers,
/// sizes and mark bits, never layouts.
#[derive(Clone, Copy)]
pub struct CellOps {
    /// Marks (with `Heap::mark` and `Heap::mark_value`) every cell that cell `h` refers to,
    /// and returns the bytes the cell owns outside the heap (Rust-owned tables and buffers),
    /// which count towards the heap's limit like cells do.
    pub trace: fn(heap: &mut Heap, h: Gc<CellHeader>) -> usize,
    /// Drops the Rust-owned parts of a dead cell.
    ///
    /// Safety contract: called only with an initialized, unreachable cell, once per cell.
    pub finalize: unsafe fn(h: *mut CellHeader),
    /// The kinds `finalize` does anything for, a bit per kind (`1 << kind as u64`): the
    /// sweep calls it only for dead cells of these kinds.
    pub finalized: u64,
}

/// Invokes `$m!` with every cell kind: `Name, "description", is_object;`.
/// Object kinds come after `Object` so that `is_object` is one comparison.
macro_rules! for_each_cell_kind {
    ($m:ident) => {
        $m! {
            /// A free cell in a size-class page (never reachable).
            Free, "free";
            /// A flat string: one-byte (Latin-1) or two-byte (UTF-16) code units inline.
            String, "string";
            /// A rope: the lazy concatenation of two strings, flattened on first read.
            Rope, "rope";
            /// A symbol with its description.
            Symbol, "symbol";
            /// A BigInt.
            BigInt, "bigint";
            /// A hidden class: the ordered property keys and attributes of objects sharing it.
            Shape, "shape";
            /// A heap environment (captured variables) with a parent link.
            Environment, "environment";
            /// A vector of values: out-of-line property slots, array elements, saved frames.
            ValueVec, "value vector";
            /// The getter/setter pair of an accessor property.
            AccessorPair, "accessor pair";
            /// The state of a for-in enumeration.
            ForInState, "for-in state";
            /// An ordinary object.
            Object, "Object";
            /// An Array exotic object.
            Array, "Array";
            /// A function compiled to bytecode (a closure).
            Closure, "Function";
            /// A bound function exotic object.
            BoundFunction, "BoundFunction";
            /// A function implemented in Rust.
            NativeFunction, "NativeFunction";
            /// An Error instance.
            Error, "Error";
            /// A Boolean, Number, String, Symbol or BigInt wrapper object.
            PrimitiveObject, "PrimitiveObject";
            /// A Date instance.
            Date, "Date";
            /// A RegExp instance.
            RegExp, "RegExp";
            /// An unmapped arguments object.
            Arguments, "Arguments";
            /// A generator object with its suspended frame.
            Generator, "Generator";
            /// An array, string, map or set iterator.
            Iterator, "Iterator";
            /// A Map or Set.
            Collection, "Collection";
            /// A Promise instance with its state, result and reactions.
            Promise, "Promise";
            /// An AsyncGenerator instance with its request queue.
            AsyncGenerator, "AsyncGenerator";
            /// A WeakRef: a target the collector does not keep alive.
            WeakRef, "WeakRef";
            /// A FinalizationRegistry with its cells.
            FinalizationRegistry, "FinalizationRegistry";
            /// An ArrayBuffer with its bytes.
            ArrayBuffer, "ArrayBuffer";
            /// A SharedArrayBuffer: a handle on bytes shared between agents.
            SharedArrayBuffer, "SharedArrayBuffer";
            /// A Proxy exotic object with its target and handler.
            Proxy, "Proxy";
            /// A TypedArray: a view of an ArrayBuffer's bytes as elements.
            TypedArray, "TypedArray";
            /// A DataView: a view of an ArrayBuffer's bytes for typed reads and writes.
            DataView, "DataView";
            /// A module namespace exotic object (its exports are in the module's record).
            ModuleNamespace, "Module";
            /// An object with Rust state the host gave it (`api`: a host function's closure).
            HostObject, "Object";
        }
    };
}

macro_rules! define_cell_kinds {
    ($( $(#[$meta:meta])* $name:ident, $desc:literal; )*) => {
        /// What a cell is; decides how it is traced and finalized.
        #[repr(u8)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum CellKind { $( $(#[$meta])* $name, )* }

        impl CellKind {
            /// A short description for diagnostics.
            pub(crate) fn description(self) -> &'static str {
                match self { $( CellKind::$name => $desc, )* }
            }
        }
    };
}

for_each_cell_kind!(define_cell_kinds);

impl CellKind {
    /// Whether cells of this kind are JavaScript objects (start with an `ObjectHeader`).
    #[inline(always)]
    pub(crate) fn is_object(self) -> bool {
        self >= CellKind::Object
    }
}

/// The first word of every cell.
#[repr(C)]
#[derive(Debug)]
pub struct CellHeader {
    pub(crate) kind: CellKind,
    pub(crate) mark: u8,
    /// Kind-specific flag bits (string: one-byte/atom; object: extensible/prototype/...).
    /// Crate-private like the other fields: they decide how a cell's bytes are read.
    pub(crate) flags: u8,
    /// Kind-specific byte (object: number of inline slots).
    pub(crate) aux8: u8,
    /// Kind-specific word (string length, environment size, vector capacity, ...).
    pub(crate) aux32: u32,
}

impl CellHeader {
    /// A header for a new cell of `kind`.
    #[inline(always)]
    pub(crate) fn new(kind: CellKind) -> CellHeader {
        CellHeader { kind, mark: 0, flags: 0, aux8: 0, aux32: 0 }
    }
}

/// A typed pointer to a heap cell. Valid while the cell is reachable from a root (see the
/// module docs); comparing two `Gc`s compares identity.
///
/// A `Gc<T>` points at a cell that `T` admits: the heap makes one typed when it allocates
/// the cell, and every other `Gc<T>` comes from `cast` (or `Value::gc`, which casts an
/// untyped `Gc<CellHeader>`), which checks the cell's kind in every build.
#[repr(transparent)]
pub struct Gc<T> {
    ptr: NonNull<T>,
    _marker: PhantomData<*mut T>,
}

impl Gc<CellHeader> {
    /// The cell at `addr`, untyped (`Value::gc` casts it to the type it needs).
    #[inline(always)]
    pub(crate) fn from_addr(addr: usize) -> Gc<CellHeader> {
        // A zero address never reaches here: values only hold pointers the heap returned,
        // and only values whose tag says "pointer" are converted.
        match NonNull::new(addr as *mut CellHeader) {
            Some(ptr) => Gc { ptr, _marker: PhantomData },
            None => null_cell(),
        }
    }
}

impl<T> Gc<T> {
    /// A new cell the heap just wrote as a `T`.
    #[inline(always)]
    fn from_ptr(ptr: NonNull<T>) -> Gc<T> {
        Gc { ptr, _marker: PhantomData }
    }

    /// The address (identity) of the cell.
    #[inline(always)]
    pub(crate) fn addr(self) -> usize {
        self.ptr.as_ptr() as usize
    }

    #[inline(always)]
    pub(crate) fn as_ptr(self) -> *mut T {
        self.ptr.as_ptr()
    }

    /// The same cell viewed as another type: a prefix (`JsObject`, `CellHeader`) or the
    /// type of the cell's kind. That the cell is one `U` admits is checked in every build
    /// (one load and compare, usually folded into the caller's own test of the kind).
    #[inline(always)]
    pub(crate) fn cast<U: CellType>(self) -> Gc<U> {
        // SAFETY: a `Gc` points at a cell the heap allocated and, by the rooting discipline
        // above, has not swept; every cell starts with its header.
        let kind = unsafe { (*self.header().as_ptr()).kind };
        if !U::admits(kind) {
            bad_cast(self.addr(), kind);
        }
        Gc { ptr: self.ptr.cast(), _marker: PhantomData }
    }

    /// The cell's header.
    #[inline(always)]
    pub(crate) fn header(self) -> Gc<CellHeader> {
        Gc { ptr: self.ptr.cast(), _marker: PhantomData }
    }
}

#[cold]
#[inline(never)]
fn bad_cast(addr: usize, kind: CellKind) -> ! {
    if kind == CellKind::Free {
        panic!("use of a freed cell {addr:#x} (missing GC root?)");
    }
    panic!("cell {addr:#x} ({}) cast to another type", kind.description())
}

#[cold]
#[inline(never)]
fn null_cell<T>() -> Gc<T> {
    panic!("null cell pointer in a value (heap corruption)")
}

impl<T> Clone for Gc<T> {
    #[inline(always)]
    fn clone(&self) -> Gc<T> {
        *self
    }
}
impl<T> Copy for Gc<T> {}
impl<T> PartialEq for Gc<T> {
    #[inline(always)]
    fn eq(&self, other: &Gc<T>) -> bool {
        self.ptr == other.ptr
    }
}
impl<T> Eq for Gc<T> {}
impl<T> std::hash::Hash for Gc<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.addr().hash(state)
    }
}
impl<T> fmt::Debug for Gc<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Gc({:#x})", self.addr())
    }
}

/// A cell type: a `#[repr(C)]` struct whose first field is a `CellHeader` (directly or
/// through an `ObjectHeader`).
///
/// # Safety
/// Implementors must be `#[repr(C)]` with the header at offset 0, and `KIND` must be the
/// kind their constructor writes (or `None` for prefix types shared by several kinds).
pub unsafe trait CellType: Sized {
    /// The kind every cell of this type has, if it is a single one.
    const KIND: Option<CellKind>;

    /// Whether the cell refers to no other cell (a string's characters, a BigInt's
    /// digits). Such cells get pages of their own: the cells that do refer to others then
    /// lie closer together, for the program that walks them and for the marking.
    const LEAF: bool = false;

    /// Whether a cell of `kind` may be read as this type (never a free cell).
    #[inline(always)]
    fn admits(kind: CellKind) -> bool {
        match Self::KIND {
            Some(k) => kind == k,
            None => kind != CellKind::Free,
        }
    }
}

unsafe impl CellType for CellHeader {
    const KIND: Option<CellKind> = None;
}

#[cfg(test)]
mod tests;
