//! `StringBuilder`: accumulates code units, staying one-byte until a wide unit arrives.

use super::{JsString, StrView};
use crate::gc::{Gc, Heap};

/// A growable string of UTF-16 code units.
#[derive(Default, Clone, Debug)]
pub struct StringBuilder {
    latin1: Vec<u8>,
    wide: Option<Vec<u16>>,
}

impl StringBuilder {
    /// An empty builder.
    pub fn new() -> StringBuilder {
        StringBuilder::default()
    }

    /// Number of units so far.
    pub fn len(&self) -> usize {
        match &self.wide {
            Some(w) => w.len(),
            None => self.latin1.len(),
        }
    }

    /// Whether nothing was appended.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
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

    /// Appends one unit.
    pub fn push(&mut self, unit: u16) {
        match &mut self.wide {
            Some(w) => w.push(unit),
            None if unit < 256 => self.latin1.push(unit as u8),
            None => self.widen().push(unit),
        }
    }

    /// Appends a Unicode scalar value (as one or two units).
    pub fn push_char(&mut self, c: char) {
        let mut buf = [0u16; 2];
        for &u in c.encode_utf16(&mut buf).iter() {
            self.push(u);
        }
    }

    /// Appends a Rust string.
    pub fn push_str(&mut self, s: &str) {
        if s.is_ascii() && self.wide.is_none() {
            self.latin1.extend_from_slice(s.as_bytes());
        } else {
            for c in s.chars() {
                self.push_char(c);
            }
        }
    }

    /// Appends the units of a view.
    pub fn push_view(&mut self, v: &StrView<'_>) {
        match v {
            StrView::Latin1(b) => match &mut self.wide {
                None => self.latin1.extend_from_slice(b),
                Some(w) => w.extend(b.iter().map(|&c| c as u16)),
            },
            StrView::Utf16(u) => self.widen().extend_from_slice(u),
        }
    }

    /// Appends UTF-16 units.
    pub fn push_units(&mut self, units: &[u16]) {
        for &u in units {
            self.push(u);
        }
    }

    /// The units collected (copied out).
    pub fn to_units(&self) -> Vec<u16> {
        match &self.wide {
            Some(w) => w.clone(),
            None => self.latin1.iter().map(|&b| b as u16).collect(),
        }
    }

    /// A view of the collected units.
    pub fn view(&self) -> StrView<'_> {
        match &self.wide {
            Some(w) => StrView::Utf16(w),
            None => StrView::Latin1(&self.latin1),
        }
    }

    /// Allocates the string.
    pub fn finish(&self, heap: &mut Heap) -> Gc<JsString> {
        match &self.wide {
            Some(w) => heap.alloc_utf16(w),
            None => heap.alloc_latin1(&self.latin1),
        }
    }
}
