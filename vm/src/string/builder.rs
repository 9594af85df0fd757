//! `StringBuilder`: accumulates code units, staying one-byte until a wide unit arrives.

use super::{JsString, StrView};
use crate::gc::{Gc, Heap};

/// A growable string of UTF-16 code units. It never grows past the maximum string length:
/// what would take it past is dropped and [`StringBuilder::too_long`] says so, for the
/// caller to throw (a RangeError) instead of making the string.
#[derive(Default, Clone, Debug)]
pub struct StringBuilder {
    latin1: Vec<u8>,
    wide: Option<Vec<u16>>,
    too_long: bool,
}

impl StringBuilder {
    /// An empty builder.
    pub(crate) fn new() -> StringBuilder {
        StringBuilder::default()
    }

    /// Number of units so far.
    pub(crate) fn len(&self) -> usize {
        match &self.wide {
            Some(w) => w.len(),
            None => self.latin1.len(),
        }
    }

    fn widen(&mut self) -> &mut Vec<u16> {
        let w = self.wide.get_or_insert_with(Vec::new);
        if !self.latin1.is_empty() {
            let mut all: Vec<u16> = self.latin1.iter().map(|&b| b as u16).collect();
            all.append(w);
            *w = all;
            self.latin1 = Vec::new();
        }
        w
    }

    /// Whether something was dropped because the string would have been longer than
    /// `MAX_STRING_LENGTH`.
    pub(crate) fn too_long(&self) -> bool {
        self.too_long
    }

    /// Whether `n` more units fit (noting when they do not).
    fn room_for(&mut self, n: usize) -> bool {
        if self.len() + n > super::MAX_STRING_LENGTH {
            self.too_long = true;
        }
        !self.too_long
    }

    /// Appends one unit.
    pub(crate) fn push(&mut self, unit: u16) {
        if !self.room_for(1) {
            return;
        }
        match &mut self.wide {
            Some(w) => w.push(unit),
            None if unit < 256 => self.latin1.push(unit as u8),
            None => self.widen().push(unit),
        }
    }

    /// Appends the units of a view.
    pub(crate) fn push_view(&mut self, v: &StrView<'_>) {
        if !self.room_for(v.len()) {
            return;
        }
        match v {
            StrView::Latin1(b) => match &mut self.wide {
                None => self.latin1.extend_from_slice(b),
                Some(w) => w.extend(b.iter().map(|&c| c as u16)),
            },
            StrView::Utf16(u) => self.widen().extend_from_slice(u),
        }
    }

    /// Appends UTF-16 units.
    pub(crate) fn push_units(&mut self, units: &[u16]) {
        if !self.room_for(units.len()) {
            return;
        }
        match &mut self.wide {
            Some(w) => w.extend_from_slice(units),
            None if units.iter().all(|&u| u < 256) => self.latin1.extend(units.iter().map(|&u| u as u8)),
            None => self.widen().extend_from_slice(units),
        }
    }

    /// Allocates the string.
    pub(crate) fn finish(&self, heap: &mut Heap) -> Gc<JsString> {
        match &self.wide {
            Some(w) => heap.alloc_utf16(w),
            None => heap.alloc_latin1(&self.latin1),
        }
    }
}
