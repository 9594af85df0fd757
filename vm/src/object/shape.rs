//! Hidden classes.
//!
//! A [`Shape`] describes the named properties of the objects that share it: their keys in
//! insertion order, their attributes and the slot each value lives in. It also fixes the
//! object's prototype, its cell kind and its number of inline slots, so that one shape
//! comparison in an inline cache proves both where an own property is and which prototype
//! chain a lookup walks.
//!
//! ```text
//!  root(proto=P, kind=Object, inline=4) ──x──▶ {x:0} ──y──▶ {x:0, y:1}
//!                                        └─y──▶ {y:0}
//! ```
//!
//! Adding a property follows (or creates) a transition; shapes reached by the same
//! sequence of additions are shared. A shape keeps its parent and its transitions alive;
//! the runtime's table of root shapes is weak.
//!
//! Dictionary mode: deleting a property, changing the attributes of an existing one, or
//! growing past `MAX_FAST_PROPERTIES` gives the object a shape of its own that is then
//! mutated in place. Inline caches cache a dictionary shape's own data properties only
//! together with its `dict_version` (see `code/ic.rs`).
//!
//! Prototype stability: objects used as a prototype have the `IS_PROTOTYPE` flag, and any
//! change to their layout bumps the runtime's prototype epoch, which invalidates every
//! inline cache entry that depends on a prototype chain.

use hashbrown::HashMap;

use crate::gc::{CellHeader, CellKind, CellType, Gc};
use crate::value::Value;

/// Property attribute: the value can be changed.
pub const WRITABLE: u8 = 1;
/// Property attribute: listed by for-in and `Object.keys`.
pub const ENUMERABLE: u8 = 2;
/// Property attribute: can be deleted or redefined.
pub const CONFIGURABLE: u8 = 4;
/// Property attribute: the slot holds an accessor pair, not a value.
pub const ACCESSOR: u8 = 8;
/// Attributes of a plain assignment-created property.
pub const DEFAULT_ATTRS: u8 = WRITABLE | ENUMERABLE | CONFIGURABLE;

/// Shape flag: the shape is owned by one object and mutated in place.
pub const DICTIONARY: u8 = 1;
/// Shape flag: some key is an array index (sparse elements stored as named properties).
pub const HAS_INDEX_KEYS: u8 = 2;
/// Shape flag: some property is an accessor or read-only (assignments need the slow path).
pub const HAS_SPECIAL: u8 = 4;
/// Shape flag: a dictionary shape that a builtin object got while its realm was built, to
/// become a fast shape again once it is (see `builtins::settle_builtin_shapes`).
pub const BUILTIN_TABLE: u8 = 8;

/// Objects with more named properties than this switch to dictionary mode.
pub const MAX_FAST_PROPERTIES: usize = 160;

/// A property key other than an array index: an atom (interned string) or a symbol,
/// stored as the value's bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(transparent)]
pub struct PropKey(u64);

impl PropKey {
    /// The key for an atom or symbol value.
    #[inline(always)]
    pub(crate) fn from_value(v: Value) -> PropKey {
        debug_assert!(v.is_string() || v.is_symbol());
        PropKey(v.bits())
    }
    /// The key for an atom.
    #[inline(always)]
    pub(crate) fn atom(s: Gc<crate::string::JsString>) -> PropKey {
        PropKey(Value::string(s).bits())
    }
    /// The key as a value (a string or a symbol).
    #[inline(always)]
    pub(crate) fn value(self) -> Value {
        crate::value::from_bits(self.0)
    }
    /// Whether the key is a symbol.
    #[inline(always)]
    pub(crate) fn is_symbol(self) -> bool {
        self.value().is_symbol()
    }
}

/// One named property of a shape.
#[derive(Clone, Copy, Debug)]
pub struct PropEntry {
    /// The key.
    pub key: PropKey,
    /// Index of the value slot.
    pub slot: u32,
    /// Attribute bits.
    pub attrs: u8,
}

/// The property table of a shape (owned by the Rust heap; freed by the shape's finalizer).
#[derive(Default, Clone)]
pub struct PropTable {
    /// Properties in insertion order.
    pub entries: Vec<PropEntry>,
    /// Key → index in `entries`, built when the table grows past a linear scan's worth.
    index: Option<HashMap<PropKey, u32>>,
    /// Slots freed by deletions (dictionary mode).
    pub free_slots: Vec<u32>,
    /// Number of slots in use or free (the next fresh slot).
    pub slot_count: u32,
}

const LINEAR_LIMIT: usize = 8;

impl PropTable {
    /// The bytes the table takes outside the heap (counted towards the heap's limit).
    pub(crate) fn external_bytes(&self) -> usize {
        self.entries.capacity() * std::mem::size_of::<PropEntry>()
            + self.index.as_ref().map_or(0, |m| m.capacity() * (std::mem::size_of::<(PropKey, u32)>() + 1))
            + self.free_slots.capacity() * 4
    }

    /// The entry index of `key`.
    #[inline]
    pub(crate) fn find(&self, key: PropKey) -> Option<usize> {
        match &self.index {
            Some(map) => map.get(&key).map(|&i| i as usize),
            None => self.entries.iter().position(|e| e.key == key),
        }
    }

    /// Indexes the keys when there are more than a linear scan's worth (after
    /// `push_unindexed`, and after removals).
    pub(crate) fn rebuild_index(&mut self) {
        if self.entries.len() > LINEAR_LIMIT {
            let mut map = HashMap::with_capacity(self.entries.len());
            for (i, e) in self.entries.iter().enumerate() {
                map.insert(e.key, i as u32);
            }
            self.index = Some(map);
        } else {
            self.index = None;
        }
    }

    /// Appends a property in a fresh (or recycled) slot; returns the slot.
    pub(crate) fn push(&mut self, key: PropKey, attrs: u8) -> u32 {
        self.push_with(key, attrs, true)
    }

    /// `push`, but a table without an index does not get one however long it grows: for a
    /// builtin object's table while its properties are made (`BUILTIN_TABLE`), indexed
    /// once at the end (`rebuild_index`) instead of at each size on the way.
    pub(crate) fn push_unindexed(&mut self, key: PropKey, attrs: u8) -> u32 {
        self.push_with(key, attrs, false)
    }

    fn push_with(&mut self, key: PropKey, attrs: u8, index_when_long: bool) -> u32 {
        let slot = match self.free_slots.pop() {
            Some(s) => s,
            None => {
                self.slot_count += 1;
                self.slot_count - 1
            }
        };
        self.entries.push(PropEntry { key, slot, attrs });
        match &mut self.index {
            Some(map) => {
                map.insert(key, (self.entries.len() - 1) as u32);
            }
            None => {
                if index_when_long && self.entries.len() > LINEAR_LIMIT {
                    self.rebuild_index();
                }
            }
        }
        slot
    }

    /// Removes the entry at `i` (keeping the order of the others); returns its slot.
    pub(crate) fn remove(&mut self, i: usize) -> u32 {
        let e = self.entries.remove(i);
        self.free_slots.push(e.slot);
        self.rebuild_index();
        e.slot
    }
}

/// A hidden class. See the module docs.
#[repr(C)]
pub struct Shape {
    pub(crate) header: CellHeader,
    /// The prototype of objects with this shape (an object or null).
    pub(crate) proto: Value,
    /// The shape this one was reached from (kept alive so caches stay warm).
    pub(crate) parent: Option<Gc<Shape>>,
    /// The object kind of the objects with this shape.
    pub(crate) object_kind: CellKind,
    /// Number of inline slots of the objects with this shape.
    pub(crate) inline_cap: u8,
    /// Dictionary mode: bumped whenever a property is removed or its attributes change, so
    /// an inline cache entry for a dictionary shape holds while the version is unchanged
    /// (adding properties moves none of the others).
    pub(crate) dict_version: u32,
    pub(crate) table: Box<PropTable>,
    pub(crate) transitions: Vec<(PropKey, u8, Gc<Shape>)>,
}

// SAFETY: repr(C), header first, kind Shape.
unsafe impl CellType for Shape {
    const KIND: Option<CellKind> = Some(CellKind::Shape);
}

impl Shape {
    /// A root shape (no properties).
    pub(crate) fn root(proto: Value, object_kind: CellKind, inline_cap: u8) -> Shape {
        Shape {
            header: CellHeader::new(CellKind::Shape),
            proto,
            parent: None,
            object_kind,
            inline_cap,
            dict_version: 0,
            table: Box::default(),
            transitions: Vec::new(),
        }
    }

    /// The bytes the shape owns outside the heap: its table and transitions.
    pub(crate) fn external_bytes(&self) -> usize {
        std::mem::size_of::<PropTable>()
            + self.table.external_bytes()
            + self.transitions.capacity() * std::mem::size_of::<(PropKey, u8, Gc<Shape>)>()
    }

    /// Whether this shape is in dictionary mode.
    #[inline(always)]
    pub(crate) fn is_dictionary(&self) -> bool {
        self.header.flags & DICTIONARY != 0
    }

    /// Shape flags.
    #[inline(always)]
    pub(crate) fn flags(&self) -> u8 {
        self.header.flags
    }

    /// The slot and attributes of `key`.
    #[inline]
    pub(crate) fn lookup(&self, key: PropKey) -> Option<(u32, u8)> {
        self.table.find(key).map(|i| {
            let e = self.table.entries[i];
            (e.slot, e.attrs)
        })
    }

    /// Number of properties.
    pub(crate) fn property_count(&self) -> usize {
        self.table.entries.len()
    }

    /// Number of value slots an object of this shape needs.
    pub(crate) fn slot_count(&self) -> u32 {
        self.table.slot_count
    }

    /// The transition for adding `key` with `attrs`, if one exists.
    #[inline]
    pub(crate) fn find_transition(&self, key: PropKey, attrs: u8) -> Option<Gc<Shape>> {
        self.transitions.iter().find(|t| t.0 == key && t.1 == attrs).map(|t| t.2)
    }

    /// A shape equal to this one plus `key` (not yet linked as a transition).
    pub(crate) fn derive_with(&self, self_ref: Gc<Shape>, key: PropKey, attrs: u8) -> Shape {
        let mut table = (*self.table).clone();
        table.push(key, attrs);
        let mut header = CellHeader::new(CellKind::Shape);
        header.flags = self.header.flags & !DICTIONARY;
        Shape {
            header,
            proto: self.proto,
            parent: Some(self_ref),
            object_kind: self.object_kind,
            inline_cap: self.inline_cap,
            dict_version: 0,
            table: Box::new(table),
            transitions: Vec::new(),
        }
    }

    /// A dictionary-mode copy of this shape.
    pub(crate) fn to_dictionary(&self) -> Shape {
        let mut header = CellHeader::new(CellKind::Shape);
        header.flags = self.header.flags | DICTIONARY;
        Shape {
            header,
            proto: self.proto,
            parent: None,
            object_kind: self.object_kind,
            inline_cap: self.inline_cap,
            dict_version: 0,
            table: self.table.clone(),
            transitions: Vec::new(),
        }
    }
}
