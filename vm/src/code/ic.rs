//! Property inline caches.
//!
//! `get_by_id`, `put_by_id`, `get_global`, `typeof_global` and `put_global` carry an IC slot; the
//! runtime keeps one [`Ic`] entry per slot (the bundle itself is read-only). An entry is
//! monomorphic and keyed by the receiver's shape, which fixes both the receiver's own layout
//! and its prototype (see `object/shape.rs`):
//!
//! - `OWN`: the value is in the receiver's slot `slot`.
//! - `PROTO`: the value is in slot `slot` of `holder`, a prototype; valid while
//!   `epoch == Runtime::proto_epoch` (any layout change of a prototype bumps the epoch).
//! - `*_GETTER`/`*_SETTER`: the slot holds an accessor pair whose function is called.
//! - `MISSING`: no property on the whole chain (reads give undefined), epoch-checked.
//! - `ADD`: a store that adds the property: the receiver moves from `shape` to
//!   `new_shape` and the value goes to slot `slot`; epoch-checked, because a setter or a
//!   read-only property appearing on the chain must take the slow path.
//!
//! Dictionary-mode shapes are mutated in place, so an entry for one (`OWN_DICT`) also
//! records the shape's `dict_version`, which every removal or attribute change bumps. The
//! global object is one (its shape is replaced by a fresh dictionary whenever a script
//! declares top-level lexical bindings, which shadow its properties), so `get_global` and
//! `put_global` hit such entries.
//!
//! Each IC slot has [`WAYS`] entries (a polymorphic cache in most-recently-filled order):
//! a site that sees a few receiver shapes (a method called on several classes) keeps all
//! of them.

use crate::gc::{Gc, Heap};
use crate::object::{JsObject, Shape};

/// Entries per inline-cache slot.
pub const WAYS: usize = 4;

/// No cached information.
pub const NONE: u8 = 0;
/// Own data property.
pub const OWN: u8 = 1;
/// Data property of a prototype.
pub const PROTO: u8 = 2;
/// Store adding a property by a shape transition.
pub const ADD: u8 = 3;
/// Own data property of an object in dictionary mode (the global object of a program with
/// many globals): valid while `epoch == ` the dictionary shape's `dict_version`.
pub const OWN_DICT: u8 = 4;

/// One inline-cache entry.
#[derive(Clone, Copy, Debug)]
pub struct Ic {
    /// The receiver shape the entry applies to.
    pub shape: Option<Gc<Shape>>,
    /// The prototype holding the property (`PROTO*` kinds).
    pub holder: Option<Gc<JsObject>>,
    /// The shape after an `ADD`.
    pub new_shape: Option<Gc<Shape>>,
    /// The slot.
    pub slot: u32,
    /// Where the slot lives in objects of the cached layout (`Heap::slot_location`).
    pub loc: u32,
    /// The prototype epoch the entry was made in.
    pub epoch: u32,
    /// One of the kinds above.
    pub kind: u8,
}

impl Ic {
    /// An empty entry.
    pub const EMPTY: Ic = Ic { shape: None, holder: None, new_shape: None, slot: 0, loc: 0, epoch: 0, kind: NONE };

    /// Marks what the entry refers to (entries are strong roots).
    pub(crate) fn trace(&self, heap: &mut Heap) {
        if let Some(s) = self.shape {
            heap.mark(s);
        }
        if let Some(h) = self.holder {
            heap.mark(h);
        }
        if let Some(s) = self.new_shape {
            heap.mark(s);
        }
    }
}

/// Records `entry` for IC slot `site` (the slot's index in the runtime's table), replacing
/// an entry for the same shape or else the least recently filled one.
pub(crate) fn insert(ics: &mut [Ic], site: usize, entry: Ic) {
    // A function without caches yet has its sites past the end of the table.
    let Some(set) = ics.get_mut(site * WAYS..site * WAYS + WAYS) else { return };
    let pos = set.iter().position(|e| e.shape == entry.shape).unwrap_or(WAYS - 1);
    set[..=pos].rotate_right(1);
    set[0] = entry;
}
