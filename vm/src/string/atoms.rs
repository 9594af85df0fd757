//! The atom table: interned strings used as property names.
//!
//! An atom is a flat `JsString` with the `ATOM` flag, unique for its contents, so property
//! keys compare by pointer. The table is weak: an atom nothing refers to is dropped by the
//! collector (`sweep`) before its cell is freed. Atoms the runtime needs permanently (the
//! predefined names, the strings of loaded bundles) are rooted elsewhere.

use hashbrown::HashTable;

use super::{JsString, StrView, ATOM, INDEX, INDEX_CHECKED};
use crate::gc::{Gc, Heap};

/// The weak set of atoms.
#[derive(Default)]
pub struct AtomTable {
    table: HashTable<Gc<JsString>>,
}

impl AtomTable {
    /// An empty table with room for `capacity` atoms.
    pub(crate) fn with_capacity(capacity: usize) -> AtomTable {
        AtomTable { table: HashTable::with_capacity(capacity) }
    }

    /// Number of atoms.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.table.len()
    }

    /// Makes room for `additional` more atoms (a bundle's strings, before they are loaded).
    pub(crate) fn reserve(&mut self, heap: &Heap, additional: usize) {
        self.table.reserve(additional, |&a| spread(heap.get(a).hash));
    }

    /// The atom with the contents of flat string `s` (`s` itself becomes the atom if there
    /// is none yet).
    pub(crate) fn intern(&mut self, heap: &mut Heap, s: Gc<JsString>) -> Gc<JsString> {
        if heap.get(s).header.flags & ATOM != 0 {
            return s;
        }
        let hash = heap.str_hash(s);
        let found = {
            let view = heap.str_view(s);
            self.table.find(spread(hash), |&a| heap.str_view(a).eq_view(&view)).copied()
        };
        if let Some(a) = found {
            return a;
        }
        mark_atom(heap, s);
        let h = &*heap;
        self.table.insert_unique(spread(hash), s, |&a| spread(h.get(a).hash));
        s
    }

    /// The atom for a Rust string.
    pub(crate) fn intern_str(&mut self, heap: &mut Heap, s: &str) -> Gc<JsString> {
        if s.is_ascii() {
            return self.intern_latin1(heap, s.as_bytes());
        }
        let units: Vec<u16> = s.encode_utf16().collect();
        self.intern_units(heap, &units)
    }

    /// The atom for UTF-16 units.
    pub(crate) fn intern_units(&mut self, heap: &mut Heap, units: &[u16]) -> Gc<JsString> {
        let view_hash = StrView::Utf16(units).hash();
        let latin1: Option<Vec<u8>> =
            if units.iter().all(|&u| u < 256) { Some(units.iter().map(|&u| u as u8).collect()) } else { None };
        let found = {
            let view = match &latin1 {
                Some(b) => StrView::Latin1(b),
                None => StrView::Utf16(units),
            };
            self.table.find(spread(view_hash), |&a| heap.str_view(a).eq_view(&view)).copied()
        };
        if let Some(a) = found {
            return a;
        }
        let s = match &latin1 {
            Some(b) => heap.alloc_latin1(b),
            None => heap.alloc_utf16(units),
        };
        heap.str_hash(s);
        mark_atom(heap, s);
        let h = &*heap;
        self.table.insert_unique(spread(view_hash), s, |&a| spread(h.get(a).hash));
        s
    }

    /// The atom for Latin-1 `bytes`.
    pub(crate) fn intern_latin1(&mut self, heap: &mut Heap, bytes: &[u8]) -> Gc<JsString> {
        if let Some(a) = self.find_latin1(heap, bytes) {
            return a;
        }
        let s = heap.alloc_latin1(bytes);
        let hash = heap.str_hash(s);
        mark_atom(heap, s);
        let h = &*heap;
        self.table.insert_unique(spread(hash), s, |&a| spread(h.get(a).hash));
        s
    }

    /// The atom with the contents of Latin-1 `bytes`, if there is one (nothing is made).
    pub(crate) fn find_latin1(&self, heap: &Heap, bytes: &[u8]) -> Option<Gc<JsString>> {
        let view = StrView::Latin1(bytes);
        self.table.find(spread(view.hash()), |&a| heap.str_view(a).eq_view(&view)).copied()
    }

    /// Drops the atoms the current collection did not mark.
    pub(crate) fn sweep(&mut self, heap: &Heap) {
        self.table.retain(|a| heap.is_marked(*a));
    }
}

/// A string's 32-bit hash spread over the 64 bits the table uses: hashbrown tags each slot
/// with the hash's top 7 bits, which are all zero in a 32-bit hash, so without this every
/// probe compared the strings of every full slot in its group.
fn spread(hash: u32) -> u64 {
    u64::from(hash).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

fn mark_atom(heap: &mut Heap, s: Gc<JsString>) {
    let index = heap.str_view(s).as_array_index();
    let cell = heap.get_mut(s);
    cell.header.flags |= ATOM | INDEX_CHECKED;
    if let Some(i) = index {
        cell.header.flags |= INDEX;
        cell.index = i;
    }
}

/// The array index a flat string denotes, cached in the cell.
pub(crate) fn string_array_index(heap: &mut Heap, s: Gc<JsString>) -> Option<u32> {
    let cell = heap.get(s);
    let flags = cell.header.flags;
    if flags & INDEX_CHECKED != 0 {
        return if flags & INDEX != 0 { Some(cell.index) } else { None };
    }
    let index = heap.str_view(s).as_array_index();
    let cell = heap.get_mut(s);
    cell.header.flags |= INDEX_CHECKED;
    if let Some(i) = index {
        cell.header.flags |= INDEX;
        cell.index = i;
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_is_unique() {
        let mut heap = Heap::new(1 << 30, crate::runtime::trace::CELL_OPS);
        let mut atoms = AtomTable::default();
        let a = atoms.intern_str(&mut heap, "length");
        let b = atoms.intern_str(&mut heap, "length");
        assert_eq!(a, b);
        let s = heap.alloc_str("length");
        assert_eq!(atoms.intern(&mut heap, s), a);
        let t = heap.alloc_str("fresh");
        assert_eq!(atoms.intern(&mut heap, t), t);
        let u: Vec<u16> = "fresh".encode_utf16().collect();
        assert_eq!(atoms.intern_units(&mut heap, &u), t);
        assert_eq!(atoms.intern_latin1(&mut heap, b"fresh"), t);
        let c = atoms.intern_latin1(&mut heap, b"caf\xe9");
        assert_eq!(atoms.intern_str(&mut heap, "café"), c);
        let w = atoms.intern_str(&mut heap, "€uro");
        assert_eq!(atoms.intern_str(&mut heap, "€uro"), w);
        assert_eq!(atoms.len(), 4);
    }
}
