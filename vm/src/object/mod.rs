//! Objects: the common object header, the kind-specific cells, and slot/element storage.
//!
//! Every JavaScript object cell starts with a [`JsObject`] (the header shared by all object
//! kinds), followed by its kind's own fields, followed by its inline property slots:
//!
//! ```text
//!  JsObject { header, shape, slots, elements } | kind fields | inline slots [Value; cap]
//!        header.aux8  = cap (inline slot count)
//!        header.aux32 = byte offset of the inline slots
//! ```
//!
//! Named property values live in slot `i` (inline if `i < cap`, else `slots[i - cap]`, an
//! out-of-line [`ValueVec`]). Array-index properties with default attributes live in the
//! dense `elements` vector (holes are `Value::EMPTY`); index properties that are sparse or
//! have other attributes are named properties keyed by the index's atom, flagged by the
//! shape's `HAS_INDEX_KEYS`.
//!
//! The property algorithms (ordinary and exotic internal methods) are in `property.rs`.

pub mod array;
pub mod property;
pub mod regexp;
pub mod shape;
pub mod shared_buffer;
pub mod typed_array;

use crate::gc::{CellHeader, CellKind, CellType, Gc, Heap};
use crate::value::Value;

pub use shape::{PropKey, Shape};

/// Object flag: new properties may be added (`[[Extensible]]`).
pub const EXTENSIBLE: u8 = 1;
/// Object flag: the object is the prototype of some shape (its changes bump the epoch).
pub const IS_PROTOTYPE: u8 = 2;
/// Object flag (arrays): `length` is not writable.
pub const LENGTH_READONLY: u8 = 4;
/// Object flag (closures): the `prototype` slot is not materialized yet.
pub const LAZY_PROTOTYPE: u8 = 8;
/// Object flag: the global object of a realm.
pub const IS_GLOBAL: u8 = 16;
/// Object flag (functions): class constructor (throws when called without `new`).
pub const IS_CLASS_CONSTRUCTOR: u8 = 32;
/// Object flag: a builtin object whose builtin function properties (its rows in the
/// builtin tables) are not made yet. Its first own-property lookup, key listing or
/// `preventExtensions` makes them (`Hooks::install_builtins`); they are not enumerable, so
/// nothing that reads only enumerable properties needs them.
pub const LAZY_BUILTINS: u8 = 64;

/// `Heap::slot_location` flag: the slot is in the out-of-line vector.
pub const OUT_OF_LINE: u32 = 1 << 31;

/// The property key of the internal algorithms: an array index or a name.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Key {
    /// A canonical array index (0 ..= 2^32 - 2).
    Index(u32),
    /// A string (atom) or symbol that is not an array index.
    Name(PropKey),
}

/// The header shared by every object cell.
#[repr(C)]
pub struct JsObject {
    pub(crate) header: CellHeader,
    pub(crate) shape: Gc<Shape>,
    pub(crate) slots: Option<Gc<ValueVec>>,
    pub(crate) elements: Option<Gc<ValueVec>>,
}

// SAFETY: repr(C), header first; shared by all object kinds.
unsafe impl CellType for JsObject {
    const KIND: Option<CellKind> = None;

    #[inline(always)]
    fn admits(kind: CellKind) -> bool {
        kind.is_object()
    }
}

impl JsObject {
    /// A header for a new object of `kind` with `shape`.
    pub(crate) fn new(kind: CellKind, shape: Gc<Shape>) -> JsObject {
        let mut header = CellHeader::new(kind);
        header.flags = EXTENSIBLE;
        JsObject { header, shape, slots: None, elements: None }
    }
}

/// A growable vector of values in one cell (`header.aux32` is the capacity).
#[repr(C)]
pub struct ValueVec {
    pub(crate) header: CellHeader,
    pub(crate) len: u32,
    _pad: u32,
}

// SAFETY: repr(C), header first, kind ValueVec.
unsafe impl CellType for ValueVec {
    const KIND: Option<CellKind> = Some(CellKind::ValueVec);
}

/// The getter and setter of an accessor property (either may be undefined).
#[repr(C)]
pub struct AccessorPair {
    pub(crate) header: CellHeader,
    /// The getter function or undefined.
    pub getter: Value,
    /// The setter function or undefined.
    pub setter: Value,
}

// SAFETY: repr(C), header first, kind AccessorPair.
unsafe impl CellType for AccessorPair {
    const KIND: Option<CellKind> = Some(CellKind::AccessorPair);
}

/// A heap environment: `header.aux32` slots follow.
#[repr(C)]
pub struct Environment {
    pub(crate) header: CellHeader,
    /// The enclosing environment, or undefined.
    pub parent: Value,
}

// SAFETY: repr(C), header first, kind Environment.
unsafe impl CellType for Environment {
    const KIND: Option<CellKind> = Some(CellKind::Environment);
}

/// A module namespace exotic object: the record of module `module` holds its exports
/// (`runtime::modules`); its only ordinary property is @@toStringTag. A deferred namespace
/// (`import defer`) evaluates its module when its exports are first used.
#[repr(C)]
pub struct NamespaceObject {
    pub(crate) base: JsObject,
    /// The index of the module's record.
    pub module: u32,
    /// Whether it is the module's deferred namespace.
    pub deferred: bool,
}

// SAFETY: repr(C), JsObject first, kind ModuleNamespace.
unsafe impl CellType for NamespaceObject {
    const KIND: Option<CellKind> = Some(CellKind::ModuleNamespace);
}
// SAFETY: starts with JsObject.
unsafe impl ObjectCell for NamespaceObject {}

impl NamespaceObject {
    /// The namespace (`deferred`: the deferred namespace) of module `module`, with `shape`.
    pub(crate) fn new(shape: Gc<Shape>, module: u32, deferred: bool) -> NamespaceObject {
        NamespaceObject { base: JsObject::new(CellKind::ModuleNamespace, shape), module, deferred }
    }
}

/// An object with Rust state the host gave it: the closure of a host function made with
/// `api::JsValue::function` (the function's data). The state is dropped with the object.
#[repr(C)]
pub struct HostObject {
    pub(crate) base: JsObject,
    pub(crate) state: Box<dyn std::any::Any>,
}

// SAFETY: repr(C), JsObject first, kind HostObject.
unsafe impl CellType for HostObject {
    const KIND: Option<CellKind> = Some(CellKind::HostObject);
}
// SAFETY: starts with JsObject.
unsafe impl ObjectCell for HostObject {}

/// A symbol: identity plus an optional description.
#[repr(C)]
pub struct Symbol {
    pub(crate) header: CellHeader,
    /// The description string, or undefined.
    pub description: Value,
    /// For `Symbol.for` symbols, the registry key (a string); otherwise undefined.
    pub registry_key: Value,
}

// SAFETY: repr(C), header first, kind Symbol.
unsafe impl CellType for Symbol {
    const KIND: Option<CellKind> = Some(CellKind::Symbol);
}

/// `Symbol` header flag: a Private Name (`createPrivateName`): never exposed to scripts and
/// not listed by [[OwnPropertyKeys]].
pub const PRIVATE_SYMBOL: u8 = 1;

impl Symbol {
    /// A new unregistered symbol.
    pub(crate) fn new(description: Value) -> Symbol {
        Symbol { header: CellHeader::new(CellKind::Symbol), description, registry_key: Value::UNDEFINED }
    }
}

/// A wrapper object for a primitive (`new Number(1)`, `Object("s")`, ...).
#[repr(C)]
pub struct PrimitiveObject {
    pub(crate) base: JsObject,
    /// The wrapped primitive (`[[BooleanData]]`, `[[NumberData]]`, `[[StringData]]`, ...).
    pub value: Value,
}

// SAFETY: repr(C), JsObject (and so the header) first.
unsafe impl CellType for PrimitiveObject {
    const KIND: Option<CellKind> = Some(CellKind::PrimitiveObject);
}

/// A Date instance.
#[repr(C)]
pub struct DateObject {
    pub(crate) base: JsObject,
    /// `[[DateValue]]`: milliseconds since the epoch, or NaN.
    pub time: f64,
}

// SAFETY: repr(C), JsObject first.
unsafe impl CellType for DateObject {
    const KIND: Option<CellKind> = Some(CellKind::Date);
}

/// The state of a for-in loop: the keys collected up front and the position.
#[repr(C)]
pub struct ForInState {
    pub(crate) header: CellHeader,
    /// The object being enumerated.
    pub object: Value,
    /// A `ValueVec` cell of key strings.
    pub keys: Value,
    /// Next key to return.
    pub index: u32,
    _pad: u32,
}

// SAFETY: repr(C), header first, kind ForInState.
unsafe impl CellType for ForInState {
    const KIND: Option<CellKind> = Some(CellKind::ForInState);
}

impl ForInState {
    /// A state over `keys` of `object`.
    pub(crate) fn new(object: Value, keys: Value) -> ForInState {
        ForInState { header: CellHeader::new(CellKind::ForInState), object, keys, index: 0, _pad: 0 }
    }
}

/// Iterator kinds stored in [`IteratorObject::kind`].
pub mod iter_kind {
    /// Array iterator over keys.
    pub const ARRAY_KEYS: u8 = 0;
    /// Array iterator over values.
    pub const ARRAY_VALUES: u8 = 1;
    /// Array iterator over [key, value] entries.
    pub const ARRAY_ENTRIES: u8 = 2;
    /// String iterator (code points).
    pub const STRING: u8 = 3;
    /// Map iterator over keys.
    pub const MAP_KEYS: u8 = 4;
    /// Map iterator over values.
    pub const MAP_VALUES: u8 = 5;
    /// Map iterator over entries.
    pub const MAP_ENTRIES: u8 = 6;
    /// Set iterator over values.
    pub const SET_VALUES: u8 = 7;
    /// Set iterator over [value, value] entries.
    pub const SET_ENTRIES: u8 = 8;
    /// RegExp string iterator.
    pub const REGEXP_STRING: u8 = 9;
    /// An %AsyncFromSyncIteratorPrototype% object (27.1.6): `target` is a `ValueVec` of
    /// its [[SyncIteratorRecord]]'s iterator and next method.
    pub const ASYNC_FROM_SYNC: u8 = 10;
    /// A %WrapForValidIteratorPrototype% object (27.1.3.2.1.1, made by `Iterator.from`):
    /// `target` is a `ValueVec` of its [[Iterated]] record's iterator and next method.
    pub const WRAP_FOR_VALID: u8 = 11;
    /// An %IteratorHelperPrototype% object made by `Iterator.prototype.map`. Every helper
    /// kind (`HELPER_MAP ..= HELPER_CONCAT`) keeps its state in a `ValueVec` at `target`
    /// and its generator state in `index` (see `builtins::iterator_helpers`).
    pub const HELPER_MAP: u8 = 12;
    /// An iterator helper made by `Iterator.prototype.filter`.
    pub const HELPER_FILTER: u8 = 13;
    /// An iterator helper made by `Iterator.prototype.take`.
    pub const HELPER_TAKE: u8 = 14;
    /// An iterator helper made by `Iterator.prototype.drop`.
    pub const HELPER_DROP: u8 = 15;
    /// An iterator helper made by `Iterator.prototype.flatMap`.
    pub const HELPER_FLAT_MAP: u8 = 16;
    /// An iterator helper made by `Iterator.concat`.
    pub const HELPER_CONCAT: u8 = 17;
    /// Not an iterator: a DisposableStack (`builtins::disposable_stack`), its state in
    /// `index` and its resources in a `ValueVec` at `target`.
    pub const DISPOSABLE_STACK: u8 = 18;
    /// Not an iterator: an AsyncDisposableStack, like `DISPOSABLE_STACK`.
    pub const ASYNC_DISPOSABLE_STACK: u8 = 19;

    /// Whether an iterator of this kind walks a Map or Set by position.
    pub const fn over_collection(kind: u8) -> bool {
        matches!(kind, MAP_KEYS..=SET_ENTRIES)
    }
}

/// A built-in iterator (%ArrayIteratorPrototype% and friends).
#[repr(C)]
pub struct IteratorObject {
    pub(crate) base: JsObject,
    /// The iterated object or string; undefined once exhausted.
    pub target: Value,
    /// The next position.
    pub index: u32,
    /// One of `iter_kind`.
    pub kind: u8,
    _pad: [u8; 3],
}

// SAFETY: repr(C), JsObject first.
unsafe impl CellType for IteratorObject {
    const KIND: Option<CellKind> = Some(CellKind::Iterator);
}

impl IteratorObject {
    /// An iterator over `target`.
    pub(crate) fn new(base: JsObject, target: Value, kind: u8) -> IteratorObject {
        IteratorObject { base, target, index: 0, kind, _pad: [0; 3] }
    }
}

/// Generator states.
pub mod gen_state {
    /// Created, not started.
    pub const SUSPENDED_START: u8 = 0;
    /// Suspended at a yield.
    pub const SUSPENDED_YIELD: u8 = 1;
    /// Running.
    pub const EXECUTING: u8 = 2;
    /// Finished.
    pub const COMPLETED: u8 = 3;
}

/// A generator object: the inner function's closure, the arguments it was created with and,
/// while suspended, its saved registers and resume point.
#[repr(C)]
pub struct GeneratorObject {
    pub(crate) base: JsObject,
    /// The closure of the inner function.
    pub closure: Value,
    /// The closure of the outer function (the function user code called): the callee its
    /// body sees (`load_callee`, `arguments.callee`).
    pub outer: Value,
    /// A `ValueVec` of `this` followed by the arguments.
    pub args: Value,
    /// A `ValueVec` of saved registers, or undefined before the first resumption.
    pub regs: Value,
    /// The instruction index to resume at.
    pub resume_ip: u32,
    /// One of `gen_state`.
    pub state: u8,
    /// Set by `complete_generator`: the next `ret` finishes the generator.
    pub completing: u8,
    /// Set by `markAsyncYield` in the body of an async generator: the suspension in
    /// progress is a `yield`, not an `await`. Read and cleared by the driver
    /// (`builtins::async_generator`).
    pub async_yield: u8,
    _pad: [u8; 1],
}

// SAFETY: repr(C), JsObject first.
unsafe impl CellType for GeneratorObject {
    const KIND: Option<CellKind> = Some(CellKind::Generator);
}

impl GeneratorObject {
    /// A generator in the start state.
    pub(crate) fn new(base: JsObject, closure: Value, outer: Value, args: Value) -> GeneratorObject {
        GeneratorObject {
            base,
            closure,
            outer,
            args,
            regs: Value::UNDEFINED,
            resume_ip: 0,
            state: gen_state::SUSPENDED_START,
            completing: 0,
            async_yield: 0,
            _pad: [0; 1],
        }
    }
}

/// A BigInt value cell.
#[repr(C)]
pub struct BigIntCell {
    pub(crate) header: CellHeader,
    /// The value.
    pub value: num_bigint::BigInt,
}

// SAFETY: repr(C), header first, kind BigInt.
unsafe impl CellType for BigIntCell {
    const KIND: Option<CellKind> = Some(CellKind::BigInt);
    const LEAF: bool = true;
}

/// A RegExp instance: the compiled matcher plus `[[OriginalSource]]`/`[[OriginalFlags]]`.
#[repr(C)]
pub struct RegExpObject {
    pub(crate) base: JsObject,
    /// The compiled matcher (None until initialized by RegExpInitialize).
    pub matcher: Option<std::rc::Rc<regexp::Matcher>>,
    /// `[[OriginalSource]]` (a string).
    pub source: Value,
    /// `[[OriginalFlags]]` (a string).
    pub flags: Value,
}

// SAFETY: repr(C), JsObject first, kind RegExp.
unsafe impl CellType for RegExpObject {
    const KIND: Option<CellKind> = Some(CellKind::RegExp);
}
// SAFETY: starts with JsObject.
unsafe impl ObjectCell for RegExpObject {}

/// Map/Set storage: insertion-ordered entries with an index by key.
///
/// The index maps a key's normalized bits to the newest entry with those bits; `chain`
/// links each entry to the next older one with the same bits (only BigInts, hashed by
/// value, can share bits without being the same key).
#[derive(Default)]
pub struct CollectionData {
    /// Entries in insertion order; deleted ones have an empty key.
    pub entries: Vec<(Value, Value)>,
    /// Key bits → the newest entry with them.
    index: hashbrown::HashMap<u64, usize>,
    /// Per entry: the next older entry with the same bits, or `NO_ENTRY`.
    chain: Vec<usize>,
    /// Number of live entries.
    pub live: usize,
    /// Whether this is a Set (values are the keys).
    pub is_set: bool,
    /// Whether this is a WeakMap/WeakSet: an entry does not keep its key alive, and keeps
    /// its value alive only while the key is (an ephemeron; see `runtime::trace`).
    pub weak: bool,
    /// Native walks in progress that hold positions across calls into JavaScript
    /// (`forEach`, the Set methods): while any is, the collector keeps the tombstones.
    pub walkers: u32,
}

const NO_ENTRY: usize = usize::MAX;

impl CollectionData {
    /// Empty storage for a Set (`is_set`) or a Map, weak or not.
    pub fn new(is_set: bool, weak: bool) -> CollectionData {
        CollectionData { is_set, weak, ..CollectionData::default() }
    }

    /// The first live-or-dead entry position with key bits `bits`, newest first; follow
    /// with [`CollectionData::older`].
    pub fn newest(&self, bits: u64) -> Option<usize> {
        self.index.get(&bits).copied()
    }

    /// The next older entry with the same key bits as entry `p`.
    pub fn older(&self, p: usize) -> Option<usize> {
        Some(self.chain[p]).filter(|&q| q != NO_ENTRY)
    }

    /// Appends an entry whose key has bits `bits`.
    pub fn push(&mut self, bits: u64, key: Value, value: Value) {
        let p = self.entries.len();
        self.entries.push((key, value));
        self.chain.push(self.index.insert(bits, p).unwrap_or(NO_ENTRY));
        self.live += 1;
    }

    /// Empties entry `p` (its key has bits `bits`), leaving a tombstone.
    pub fn remove(&mut self, bits: u64, p: usize) {
        self.entries[p] = (Value::EMPTY, Value::UNDEFINED);
        let next = self.chain[p];
        match self.index.get(&bits).copied() {
            Some(head) if head == p => {
                if next == NO_ENTRY {
                    self.index.remove(&bits);
                } else {
                    self.index.insert(bits, next);
                }
            }
            Some(mut q) => {
                while self.chain[q] != NO_ENTRY && self.chain[q] != p {
                    q = self.chain[q];
                }
                if self.chain[q] == p {
                    self.chain[q] = next;
                }
            }
            None => {}
        }
        self.chain[p] = NO_ENTRY;
        self.live -= 1;
    }

    /// Empties every entry (positions stay, for iterators walking them).
    pub fn clear(&mut self) {
        for (e, c) in self.entries.iter_mut().zip(self.chain.iter_mut()) {
            *e = (Value::EMPTY, Value::UNDEFINED);
            *c = NO_ENTRY;
        }
        self.index.clear();
        self.live = 0;
    }

    /// Whether the collector should drop the tombstones: there are at least as many as live
    /// entries (and more than a few), and no native walk holds a position.
    pub fn wants_compaction(&self) -> bool {
        let dead = self.entries.len() - self.live;
        self.walkers == 0 && dead >= 16 && dead >= self.live
    }

    /// Drops the tombstones, keeping the live entries in order, and shrinks the tables.
    /// `held` are positions held elsewhere (iterators): each becomes the position of the
    /// same next entry, that is, the number of live entries before it.
    pub fn compact(&mut self, held: &mut [u32]) {
        // Old position → new position, for the index and the chains (which link live
        // entries only: `remove` unlinks the entry it empties).
        let mut new_pos = Vec::with_capacity(self.entries.len());
        let mut kept = 0u32;
        for e in &self.entries {
            new_pos.push(kept);
            kept += u32::from(!e.0.is_empty());
        }
        for h in held.iter_mut() {
            *h = new_pos.get(*h as usize).copied().unwrap_or(kept);
        }
        let relink = |q: usize| if q == NO_ENTRY { NO_ENTRY } else { new_pos[q] as usize };
        let mut w = 0;
        for r in 0..self.entries.len() {
            if !self.entries[r].0.is_empty() {
                self.entries[w] = self.entries[r];
                self.chain[w] = relink(self.chain[r]);
                w += 1;
            }
        }
        self.entries.truncate(w);
        self.chain.truncate(w);
        self.entries.shrink_to_fit();
        self.chain.shrink_to_fit();
        for p in self.index.values_mut() {
            *p = new_pos[*p] as usize;
        }
        self.index.shrink_to_fit();
    }

    /// The bytes the tables take (outside the heap, counted towards its limit).
    pub fn external_bytes(&self) -> usize {
        self.entries.capacity() * std::mem::size_of::<(Value, Value)>()
            + self.chain.capacity() * std::mem::size_of::<usize>()
            + self.index.capacity() * (std::mem::size_of::<(u64, usize)>() + 1)
    }
}

/// A Map, Set, WeakMap or WeakSet.
#[repr(C)]
pub struct CollectionObject {
    pub(crate) base: JsObject,
    /// The entries.
    pub data: Box<CollectionData>,
}

// SAFETY: repr(C), JsObject first, kind Collection.
unsafe impl CellType for CollectionObject {
    const KIND: Option<CellKind> = Some(CellKind::Collection);
}
// SAFETY: starts with JsObject.
unsafe impl ObjectCell for CollectionObject {}

/// `[[PromiseState]]` values stored in [`PromiseObject::state`].
pub mod promise_state {
    /// Neither fulfilled nor rejected yet.
    pub const PENDING: u8 = 0;
    /// Fulfilled: `result` is the value.
    pub const FULFILLED: u8 = 1;
    /// Rejected: `result` is the reason.
    pub const REJECTED: u8 = 2;
}

/// A PromiseReaction pair (27.2.1.2): the specification keeps a fulfil and a reject
/// reaction in two lists that PerformPromiseThen always appends to together, so one record
/// holds both handlers and the result capability they share.
#[derive(Clone, Copy, Debug)]
pub struct PromiseReaction {
    /// `[[Capability]].[[Promise]]`, or undefined when there is no capability.
    pub promise: Value,
    /// `[[Capability]].[[Resolve]]`; empty when the capability is internal (its promise
    /// is a %Promise% whose resolving functions never escaped, resolved directly).
    pub resolve: Value,
    /// `[[Capability]].[[Reject]]`; empty when the capability is internal.
    pub reject: Value,
    /// The fulfil reaction's `[[Handler]]`, or empty.
    pub on_fulfilled: Value,
    /// The reject reaction's `[[Handler]]`, or empty.
    pub on_rejected: Value,
}

impl PromiseReaction {
    /// Every value the reaction holds (for tracing and rooting).
    pub(crate) fn values(&self) -> [Value; 5] {
        [self.promise, self.resolve, self.reject, self.on_fulfilled, self.on_rejected]
    }
}

/// An ArrayBuffer (25.1): its bytes, `None` once detached, for a resizable buffer its
/// `[[ArrayBufferMaxByteLength]]`, and whether it is immutable (its bytes never change and
/// it cannot be detached: `transferToImmutable`, `sliceToImmutable`).
#[repr(C)]
pub struct ArrayBufferObject {
    pub(crate) base: JsObject,
    /// `[[ArrayBufferData]]` (its length is `[[ArrayBufferByteLength]]`).
    pub data: Option<Vec<u8>>,
    /// `[[ArrayBufferMaxByteLength]]`: `Some` for a resizable buffer.
    pub max: Option<usize>,
    /// `[[ArrayBufferIsImmutable]]`.
    pub immutable: bool,
}

impl ArrayBufferObject {
    /// A buffer owning `data`.
    pub(crate) fn new(base: JsObject, data: Vec<u8>, max: Option<usize>) -> ArrayBufferObject {
        ArrayBufferObject { base, data: Some(data), max, immutable: false }
    }

    /// `[[ArrayBufferByteLength]]`, 0 once detached.
    pub fn byte_length(&self) -> usize {
        self.data.as_ref().map_or(0, Vec::len)
    }

    /// The bytes the buffer owns (outside the heap, counted towards its limit).
    pub fn external_bytes(&self) -> usize {
        self.data.as_ref().map_or(0, Vec::capacity)
    }
}

// SAFETY: repr(C), JsObject first, kind ArrayBuffer.
unsafe impl CellType for ArrayBufferObject {
    const KIND: Option<CellKind> = Some(CellKind::ArrayBuffer);
}
// SAFETY: starts with JsObject.
unsafe impl ObjectCell for ArrayBufferObject {}

/// A Proxy exotic object (10.5): its target and handler, both null once revoked, and
/// whether it has [[Call]] and [[Construct]] (its target's, fixed when it was made).
#[repr(C)]
pub struct ProxyObject {
    pub(crate) base: JsObject,
    /// `[[ProxyTarget]]`: an object, or null once revoked.
    pub target: Value,
    /// `[[ProxyHandler]]`: an object, or null once revoked.
    pub handler: Value,
    /// Whether the proxy is callable (its target was).
    pub callable: bool,
    /// Whether the proxy is a constructor (its target was).
    pub constructor: bool,
}

// SAFETY: repr(C), JsObject first, kind Proxy.
unsafe impl CellType for ProxyObject {
    const KIND: Option<CellKind> = Some(CellKind::Proxy);
}
// SAFETY: starts with JsObject.
unsafe impl ObjectCell for ProxyObject {}

/// A WeakRef (26.1): `[[WeakRefTarget]]`, which the collector does not trace and clears
/// (to undefined) when nothing else keeps the target alive.
#[repr(C)]
pub struct WeakRefObject {
    pub(crate) base: JsObject,
    /// The target (an object or a symbol that is not registered), or undefined once dead.
    pub target: Value,
}

// SAFETY: repr(C), JsObject first, kind WeakRef.
unsafe impl CellType for WeakRefObject {
    const KIND: Option<CellKind> = Some(CellKind::WeakRef);
}
// SAFETY: starts with JsObject.
unsafe impl ObjectCell for WeakRefObject {}

/// A Record of a FinalizationRegistry's `[[Cells]]` (26.2.1).
#[derive(Clone, Copy)]
pub struct FinalizationCell {
    /// `[[WeakRefTarget]]` (not traced), `Value::EMPTY` once the target died.
    pub target: Value,
    /// `[[HeldValue]]` (traced).
    pub held: Value,
    /// `[[UnregisterToken]]` (not traced), `Value::EMPTY` when there is none or it died.
    pub token: Value,
}

/// A FinalizationRegistry (26.2): its cleanup callback and cells.
#[repr(C)]
pub struct FinalizationRegistryObject {
    pub(crate) base: JsObject,
    /// `[[CleanupCallback]]`.
    pub cleanup: Value,
    /// `[[Cells]]` whose targets live, in registration order.
    pub cells: Vec<FinalizationCell>,
    /// `[[Cells]]` whose targets died (target `Value::EMPTY`), waiting for the cleanup job
    /// (which calls back in any order, as the spec allows: it pops them).
    pub dead: Vec<FinalizationCell>,
    /// The realm the cleanup job runs in (the registry's).
    pub realm: u32,
    /// Whether a cleanup job for this registry is queued.
    pub job_queued: bool,
    _pad: [u8; 3],
}

impl FinalizationRegistryObject {
    /// A registry with no cells.
    pub(crate) fn new(base: JsObject, cleanup: Value, realm: u32) -> FinalizationRegistryObject {
        FinalizationRegistryObject {
            base,
            cleanup,
            cells: Vec::new(),
            dead: Vec::new(),
            realm,
            job_queued: false,
            _pad: [0; 3],
        }
    }

    /// The bytes the cells take (outside the heap, counted towards its limit).
    pub fn external_bytes(&self) -> usize {
        (self.cells.capacity() + self.dead.capacity()) * std::mem::size_of::<FinalizationCell>()
    }
}

// SAFETY: repr(C), JsObject first, kind FinalizationRegistry.
unsafe impl CellType for FinalizationRegistryObject {
    const KIND: Option<CellKind> = Some(CellKind::FinalizationRegistry);
}
// SAFETY: starts with JsObject.
unsafe impl ObjectCell for FinalizationRegistryObject {}

/// A Promise instance (27.2.6): `[[PromiseState]]`, `[[PromiseResult]]`,
/// `[[PromiseIsHandled]]` and the pending reactions (see `builtins::promise`).
#[repr(C)]
pub struct PromiseObject {
    pub(crate) base: JsObject,
    /// The reactions waiting for settlement, in registration order (empty once settled).
    pub reactions: Vec<PromiseReaction>,
    /// `[[PromiseResult]]`: the value or reason once settled, undefined while pending.
    pub result: Value,
    /// One of `promise_state`.
    pub state: u8,
    /// `[[PromiseIsHandled]]`.
    pub is_handled: bool,
    _pad: [u8; 6],
}

// SAFETY: repr(C), JsObject first, kind Promise.
unsafe impl CellType for PromiseObject {
    const KIND: Option<CellKind> = Some(CellKind::Promise);
}
// SAFETY: starts with JsObject.
unsafe impl ObjectCell for PromiseObject {}

impl PromiseObject {
    /// A pending promise.
    pub(crate) fn new(base: JsObject) -> PromiseObject {
        PromiseObject {
            base,
            reactions: Vec::new(),
            result: Value::UNDEFINED,
            state: promise_state::PENDING,
            is_handled: false,
            _pad: [0; 6],
        }
    }
}

/// `[[AsyncGeneratorState]]` values stored in [`AsyncGeneratorObject::state`] (27.6.2).
pub mod async_gen_state {
    /// Created; the body has not started.
    pub const SUSPENDED_START: u8 = 0;
    /// Suspended at a `yield` with no request to serve.
    pub const SUSPENDED_YIELD: u8 = 1;
    /// Running, or suspended at an `await` (requests wait in the queue).
    pub const EXECUTING: u8 = 2;
    /// The body has finished; the queued requests are being completed (a `return(v)`
    /// request awaits `v`).
    pub const DRAINING_QUEUE: u8 = 3;
    /// Finished with an empty queue.
    pub const COMPLETED: u8 = 4;
}

/// An AsyncGeneratorRequest (27.6.3.1): a completion to resume the body with and the
/// promise of its result.
#[derive(Clone, Copy, Debug)]
pub struct AsyncGeneratorRequest {
    /// How to resume: `RESUME_NEXT`, `RESUME_THROW` or `RESUME_RETURN`
    /// (`interp::ops::generator`).
    pub kind: u8,
    /// The completion's value.
    pub value: Value,
    /// `[[Capability]].[[Promise]]`: a %Promise% resolved directly.
    pub promise: Value,
}

/// An AsyncGenerator instance (27.6): the generator object that runs the body (never
/// exposed to JavaScript), `[[AsyncGeneratorState]]` and `[[AsyncGeneratorQueue]]`.
#[repr(C)]
pub struct AsyncGeneratorObject {
    pub(crate) base: JsObject,
    /// The generator object running the body.
    pub generator: Value,
    /// `[[AsyncGeneratorQueue]]`, oldest first.
    pub queue: std::collections::VecDeque<AsyncGeneratorRequest>,
    /// One of `async_gen_state`.
    pub state: u8,
    _pad: [u8; 7],
}

// SAFETY: repr(C), JsObject first, kind AsyncGenerator.
unsafe impl CellType for AsyncGeneratorObject {
    const KIND: Option<CellKind> = Some(CellKind::AsyncGenerator);
}
// SAFETY: starts with JsObject.
unsafe impl ObjectCell for AsyncGeneratorObject {}

impl AsyncGeneratorObject {
    /// An async generator in the suspended-start state over `generator`.
    pub(crate) fn new(base: JsObject, generator: Value) -> AsyncGeneratorObject {
        AsyncGeneratorObject {
            base,
            generator,
            queue: std::collections::VecDeque::new(),
            state: async_gen_state::SUSPENDED_START,
            _pad: [0; 7],
        }
    }
}

/// Rounds a struct size up to the 8-byte slot alignment.
pub(crate) const fn inline_offset<T>() -> u32 {
    (std::mem::size_of::<T>().div_ceil(8) * 8) as u32
}

impl Heap {
    /// Allocates an object cell of type `T` (whose `base` header the caller built) with
    /// `cap` inline slots set to undefined.
    pub(crate) fn alloc_object<T: ObjectCell>(&mut self, mut cell: T, cap: u8) -> Gc<T> {
        {
            // Fill in the inline-slot geometry in the embedded header.
            let base = object_base_mut(&mut cell);
            base.header.aux8 = cap;
            base.header.aux32 = inline_offset::<T>();
        }
        self.alloc_trailing(cell, cap as usize, Value::UNDEFINED)
    }

    /// The inline slots of an object.
    #[inline(always)]
    pub(crate) fn inline_slots(&self, obj: Gc<JsObject>) -> &[Value] {
        let h = &self.get(obj).header;
        let (cap, off) = (h.aux8 as usize, h.aux32 as usize);
        // SAFETY: the object was allocated by `alloc_object` with `cap` initialized values at
        // byte offset `off` (8-aligned); the pointer derives from the cell allocation.
        unsafe { std::slice::from_raw_parts((obj.as_ptr() as *const u8).add(off) as *const Value, cap) }
    }

    /// The inline slots of an object, writable.
    #[inline(always)]
    pub(crate) fn inline_slots_mut(&mut self, obj: Gc<JsObject>) -> &mut [Value] {
        self.write_barrier(obj);
        let h = &self.get(obj).header;
        let (cap, off) = (h.aux8 as usize, h.aux32 as usize);
        // SAFETY: as for `inline_slots`, with the exclusive heap borrow.
        unsafe { std::slice::from_raw_parts_mut((obj.as_ptr() as *mut u8).add(off) as *mut Value, cap) }
    }

    /// Reads named-property slot `i`.
    #[inline(always)]
    pub(crate) fn slot(&self, obj: Gc<JsObject>, i: u32) -> Value {
        let cap = self.get(obj).header.aux8 as u32;
        if i < cap {
            self.inline_slots(obj)[i as usize]
        } else {
            match self.get(obj).slots {
                Some(v) => self.vec_get(v, (i - cap) as usize),
                None => Value::UNDEFINED,
            }
        }
    }

    /// Writes named-property slot `i`, which must exist (see `ensure_slot`).
    #[inline(always)]
    pub(crate) fn set_slot(&mut self, obj: Gc<JsObject>, i: u32, v: Value) {
        let cap = self.get(obj).header.aux8 as u32;
        if i < cap {
            self.inline_slots_mut(obj)[i as usize] = v;
        } else if let Some(s) = self.get(obj).slots {
            self.vec_set(s, (i - cap) as usize, v);
        }
    }

    /// Where slot `i` lives in `obj` and every object with the same shape (a shape fixes
    /// the kind and the inline capacity): an inline byte offset from the cell start, or
    /// `OUT_OF_LINE | index` into the out-of-line vector.
    #[inline]
    pub(crate) fn slot_location(&self, obj: Gc<JsObject>, i: u32) -> u32 {
        let h = &self.get(obj).header;
        let cap = h.aux8 as u32;
        if i < cap {
            h.aux32 + 8 * i
        } else {
            OUT_OF_LINE | (i - cap)
        }
    }

    /// Reads the slot at a location from `slot_location` (on an object of the same shape).
    #[inline(always)]
    pub(crate) fn slot_at(&self, obj: Gc<JsObject>, loc: u32) -> Value {
        if loc & OUT_OF_LINE == 0 {
            self.check_inline_location(obj, loc);
            // SAFETY: `loc` lies inside the cell's inline slots (just checked), which are
            // initialized; it came from `slot_location`, so it is 8-aligned.
            unsafe { *((obj.as_ptr() as *const u8).add(loc as usize) as *const Value) }
        } else {
            match self.get(obj).slots {
                Some(v) => self.vec_get(v, (loc & !OUT_OF_LINE) as usize),
                None => Value::UNDEFINED,
            }
        }
    }

    /// Writes the slot at a location from `slot_location` (on an object of the same shape).
    #[inline(always)]
    pub(crate) fn set_slot_at(&mut self, obj: Gc<JsObject>, loc: u32, v: Value) {
        if loc & OUT_OF_LINE == 0 {
            self.check_inline_location(obj, loc);
            self.write_barrier_for(obj, v);
            // SAFETY: as in `slot_at`, with the exclusive heap borrow.
            unsafe { *((obj.as_ptr() as *mut u8).add(loc as usize) as *mut Value) = v }
        } else if let Some(s) = self.get(obj).slots {
            self.vec_set(s, (loc & !OUT_OF_LINE) as usize, v);
        }
    }

    /// Checks, in every build, that `loc` is an inline slot of `obj`.
    #[inline(always)]
    fn check_inline_location(&self, obj: Gc<JsObject>, loc: u32) {
        let h = &self.get(obj).header;
        if loc < h.aux32 || loc >= h.aux32 + 8 * h.aux8 as u32 {
            bad_slot_location(loc);
        }
    }

    /// Makes sure slot `i` exists (growing the out-of-line vector) and writes it.
    pub(crate) fn init_slot(&mut self, obj: Gc<JsObject>, i: u32, v: Value) {
        let cap = self.get(obj).header.aux8 as u32;
        if i < cap {
            self.inline_slots_mut(obj)[i as usize] = v;
            return;
        }
        let idx = (i - cap) as usize;
        let slots = match self.get(obj).slots {
            Some(s) if (self.get(s).header.aux32 as usize) > idx => s,
            old => {
                let old_cap = old.map_or(0, |s| self.get(s).header.aux32 as usize);
                let new_cap = (old_cap * 2).max(idx + 1).max(4);
                let s = self.alloc_vec(new_cap);
                if let Some(o) = old {
                    let n = self.get(o).len as usize;
                    for k in 0..n {
                        let x = self.vec_get(o, k);
                        self.vec_set(s, k, x);
                    }
                    self.get_mut(s).len = n as u32;
                }
                self.get_mut(obj).slots = Some(s);
                s
            }
        };
        if self.get(slots).len as usize <= idx {
            self.get_mut(slots).len = idx as u32 + 1;
        }
        self.vec_set(slots, idx, v);
    }

    /// A new empty value vector with room for `cap` values (all undefined).
    pub(crate) fn alloc_vec(&mut self, cap: usize) -> Gc<ValueVec> {
        let mut header = CellHeader::new(CellKind::ValueVec);
        header.aux32 = cap as u32;
        self.alloc_trailing(ValueVec { header, len: 0, _pad: 0 }, cap, Value::UNDEFINED)
    }

    /// A new value vector holding `values`.
    pub(crate) fn alloc_vec_from(&mut self, values: &[Value]) -> Gc<ValueVec> {
        let mut header = CellHeader::new(CellKind::ValueVec);
        header.aux32 = values.len() as u32;
        self.alloc_trailing_from(ValueVec { header, len: values.len() as u32, _pad: 0 }, values)
    }

    /// The live values of a vector.
    #[inline(always)]
    pub(crate) fn vec_values(&self, v: Gc<ValueVec>) -> &[Value] {
        let len = self.get(v).len as usize;
        // SAFETY: a vector is allocated with `aux32` (its capacity) values, and `len <= aux32`.
        unsafe { self.trailing::<ValueVec, Value>(v, len) }
    }

    /// The live values of a vector, writable.
    #[inline(always)]
    pub(crate) fn vec_values_mut(&mut self, v: Gc<ValueVec>) -> &mut [Value] {
        let len = self.get(v).len as usize;
        // SAFETY: a vector is allocated with `aux32` (its capacity) values, and `len <= aux32`.
        unsafe { self.trailing_mut::<ValueVec, Value>(v, len) }
    }

    /// Element `i` of the vector's capacity (undefined past `len`).
    #[inline(always)]
    pub(crate) fn vec_get(&self, v: Gc<ValueVec>, i: usize) -> Value {
        let cap = self.get(v).header.aux32 as usize;
        // SAFETY: a vector is allocated with `aux32` (its capacity) values, and `len <= aux32`.
        unsafe { self.trailing::<ValueVec, Value>(v, cap) }.get(i).copied().unwrap_or(Value::UNDEFINED)
    }

    /// Writes element `i` (< capacity) of the vector.
    #[inline(always)]
    pub(crate) fn vec_set(&mut self, v: Gc<ValueVec>, i: usize, x: Value) {
        let cap = self.get(v).header.aux32 as usize;
        // SAFETY: a vector is allocated with `aux32` (its capacity) values, and `len <= aux32`;
        // the barrier runs for the one value stored.
        if let Some(slot) = unsafe { self.trailing_mut_unbarriered::<ValueVec, Value>(v, cap) }.get_mut(i) {
            *slot = x;
            self.write_barrier_for(v, x);
        }
    }

    /// Fills element `i` of the vector when it is below its length and a hole: whether it
    /// did.
    #[inline(always)]
    pub(crate) fn vec_fill_hole(&mut self, v: Gc<ValueVec>, i: usize, x: Value) -> bool {
        let len = self.get(v).len as usize;
        // SAFETY: a vector is allocated with `aux32` (its capacity) values, and `len <= aux32`;
        // the barrier runs for the one value stored.
        match unsafe { self.trailing_mut_unbarriered::<ValueVec, Value>(v, len) }.get_mut(i) {
            Some(slot) if slot.is_empty() => {
                *slot = x;
                self.write_barrier_for(v, x);
                true
            }
            _ => false,
        }
    }

    /// Replaces element `i` of the vector when it is below its length and not a hole (an
    /// array's dense element): whether it did.
    #[inline(always)]
    pub(crate) fn vec_replace_present(&mut self, v: Gc<ValueVec>, i: usize, x: Value) -> bool {
        let len = self.get(v).len as usize;
        // SAFETY: a vector is allocated with `aux32` (its capacity) values, and `len <= aux32`;
        // the barrier runs for the one value stored.
        match unsafe { self.trailing_mut_unbarriered::<ValueVec, Value>(v, len) }.get_mut(i) {
            Some(slot) if !slot.is_empty() => {
                *slot = x;
                self.write_barrier_for(v, x);
                true
            }
            _ => false,
        }
    }

    /// The capacity of a vector.
    #[inline(always)]
    pub(crate) fn vec_capacity(&self, v: Gc<ValueVec>) -> usize {
        self.get(v).header.aux32 as usize
    }

    /// The slots of an environment.
    #[inline(always)]
    pub(crate) fn env_slots(&self, env: Gc<Environment>) -> &[Value] {
        let n = self.get(env).header.aux32 as usize;
        // SAFETY: an environment is allocated with `aux32` values.
        unsafe { self.trailing::<Environment, Value>(env, n) }
    }

    /// The slots of an environment, writable.
    #[inline(always)]
    pub(crate) fn env_slots_mut(&mut self, env: Gc<Environment>) -> &mut [Value] {
        let n = self.get(env).header.aux32 as usize;
        // SAFETY: an environment is allocated with `aux32` values.
        unsafe { self.trailing_mut::<Environment, Value>(env, n) }
    }

    /// Writes slot `i` of an environment: whether it has one.
    #[inline(always)]
    pub(crate) fn env_set(&mut self, env: Gc<Environment>, i: usize, v: Value) -> bool {
        let n = self.get(env).header.aux32 as usize;
        // SAFETY: an environment is allocated with `aux32` values; the barrier runs for the
        // one value stored.
        match unsafe { self.trailing_mut_unbarriered::<Environment, Value>(env, n) }.get_mut(i) {
            Some(slot) => {
                *slot = v;
                self.write_barrier_for(env, v);
                true
            }
            None => false,
        }
    }

    /// A new environment of `size` undefined slots.
    pub(crate) fn alloc_env(&mut self, parent: Value, size: usize) -> Gc<Environment> {
        let mut header = CellHeader::new(CellKind::Environment);
        header.aux32 = size as u32;
        self.alloc_trailing(Environment { header, parent }, size, Value::UNDEFINED)
    }

    /// The object an object value points to.
    #[inline(always)]
    pub(crate) fn object_kind(&self, obj: Gc<JsObject>) -> CellKind {
        self.get(obj).header.kind
    }

    /// Downcasts an object to a kind-specific type if its kind matches.
    #[inline(always)]
    pub(crate) fn downcast<T: ObjectCell>(&self, obj: Gc<JsObject>) -> Option<Gc<T>> {
        if Some(self.get(obj).header.kind) == T::KIND {
            Some(obj.cast())
        } else {
            None
        }
    }
}

/// An object cell type: `#[repr(C)]` with a [`JsObject`] at offset 0.
///
/// # Safety
/// Implementors must have a `JsObject` as their first field under `#[repr(C)]`.
pub unsafe trait ObjectCell: CellType {}

// SAFETY: JsObject is itself the prefix.
unsafe impl ObjectCell for JsObject {}
// SAFETY: all of these are repr(C) with `base: JsObject` first.
unsafe impl ObjectCell for PrimitiveObject {}
// SAFETY: as above.
unsafe impl ObjectCell for DateObject {}
// SAFETY: as above.
unsafe impl ObjectCell for IteratorObject {}
// SAFETY: as above.
unsafe impl ObjectCell for GeneratorObject {}

/// The embedded `JsObject` of an object cell value being built.
fn object_base_mut<T: ObjectCell>(cell: &mut T) -> &mut JsObject {
    // SAFETY: `ObjectCell` guarantees a `JsObject` at offset 0 of a repr(C) struct.
    unsafe { &mut *(cell as *mut T as *mut JsObject) }
}

#[cold]
#[inline(never)]
fn bad_slot_location(loc: u32) -> ! {
    panic!("inline slot location {loc} outside the object (a stale inline cache?)")
}

#[cfg(test)]
mod tests;
