//! SharedArrayBuffer memory (25.2): a block of bytes that several agents (threads, each
//! with its own runtime) read and write at once.
//!
//! The block is reference-counted and never moves: a growable buffer reserves its
//! maximum length when it is made, and growing only raises the length. Every access is
//! atomic at the byte level or wider, so racing agents see torn or stale values, as the
//! memory model allows, but never undefined behaviour; the Atomics operations use
//! sequentially consistent read-modify-write instructions on aligned elements.

use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::Arc;

use crate::gc::{CellKind, CellType};
use crate::object::{JsObject, ObjectCell};

/// The bytes of a SharedArrayBuffer and its current length.
pub struct SharedBlock {
    /// The storage, in 8-byte words so that every aligned element is aligned in memory.
    words: Box<[AtomicU64]>,
    /// `[[ArrayBufferByteLength]]` (grows, never shrinks).
    len: AtomicUsize,
    /// `[[ArrayBufferMaxByteLength]]` of a growable buffer.
    pub max: Option<usize>,
}

impl SharedBlock {
    /// A zeroed block of `len` bytes with room for `max` (growable) or exactly `len`; None
    /// when the memory cannot be had.
    pub fn new(len: usize, max: Option<usize>) -> Option<Arc<SharedBlock>> {
        let capacity = max.unwrap_or(len).div_ceil(8);
        let mut words = Vec::new();
        words.try_reserve_exact(capacity).ok()?;
        words.resize_with(capacity, || AtomicU64::new(0));
        Some(Arc::new(SharedBlock { words: words.into_boxed_slice(), len: AtomicUsize::new(len), max }))
    }

    /// The current byte length.
    #[inline]
    pub fn len(&self) -> usize {
        self.len.load(Ordering::SeqCst)
    }

    /// The bytes reserved (the heap accounts for them).
    pub fn capacity(&self) -> usize {
        self.words.len() * 8
    }

    /// Grows to `new_len` bytes unless another agent made it longer first: Err(current
    /// length) when `new_len` is below it (HostGrowSharedArrayBuffer).
    pub fn grow(&self, new_len: usize) -> Result<(), usize> {
        let mut current = self.len();
        loop {
            if new_len < current {
                return Err(current);
            }
            match self.len.compare_exchange(current, new_len, Ordering::SeqCst, Ordering::SeqCst) {
                Ok(_) => return Ok(()),
                Err(now) => current = now,
            }
        }
    }

    /// The bytes as atomic bytes.
    #[inline]
    fn bytes(&self) -> &[AtomicU8] {
        // SAFETY: the words are `8 * words.len()` initialized bytes; AtomicU8 has the size
        // and alignment of u8 and, like AtomicU64, allows shared mutation. Accesses of
        // different widths to the same bytes are what the ECMAScript memory model
        // describes; all of them are atomic, so none is a data race.
        unsafe { std::slice::from_raw_parts(self.words.as_ptr().cast::<AtomicU8>(), self.words.len() * 8) }
    }

    /// Copies bytes `at .. at + out.len()` into `out` (the caller checked the range
    /// against `len()`).
    #[inline]
    pub fn read(&self, at: usize, out: &mut [u8]) {
        let n = out.len();
        for (o, b) in out.iter_mut().zip(&self.bytes()[at..at + n]) {
            *o = b.load(Ordering::Relaxed);
        }
    }

    /// Writes `data` at `at`.
    #[inline]
    pub fn write(&self, at: usize, data: &[u8]) {
        for (b, &d) in self.bytes()[at..at + data.len()].iter().zip(data) {
            b.store(d, Ordering::Relaxed);
        }
    }

    /// A sequentially consistent read-modify-write of the `size`-byte element at `at`
    /// (aligned to `size`; the caller checked the range): `f` maps the old value
    /// (zero-extended, native byte order) to the new one, or None to leave it. Returns the
    /// old value.
    pub fn update(&self, at: usize, size: usize, mut f: impl FnMut(u64) -> Option<u64>) -> u64 {
        assert!(at.is_multiple_of(size) && at + size <= self.capacity(), "an aligned element of the block");
        let base = self.words.as_ptr() as usize + at;
        macro_rules! rmw {
            ($atomic:ty, $int:ty) => {{
                // SAFETY: `base` is inside the block (asserted) and aligned to the element
                // size (the words are 8-aligned, `at` a multiple of `size`); the block
                // outlives `&self`; every access to these bytes is atomic.
                let a = unsafe { <$atomic>::from_ptr(base as *mut $int) };
                let mut old = a.load(Ordering::SeqCst);
                loop {
                    let Some(new) = f(old as u64) else { return old as u64 };
                    match a.compare_exchange(old, new as $int, Ordering::SeqCst, Ordering::SeqCst) {
                        Ok(_) => return old as u64,
                        Err(now) => old = now,
                    }
                }
            }};
        }
        match size {
            1 => rmw!(AtomicU8, u8),
            2 => rmw!(AtomicU16, u16),
            4 => rmw!(AtomicU32, u32),
            _ => rmw!(AtomicU64, u64),
        }
    }

    /// The address of byte `at`: the key of `Atomics.wait`'s waiter lists.
    pub fn address(&self, at: usize) -> usize {
        self.words.as_ptr() as usize + at
    }
}

/// A SharedArrayBuffer object: a handle on a shared block.
#[repr(C)]
pub struct SharedArrayBufferObject {
    pub(crate) base: JsObject,
    /// `[[ArrayBufferData]]`.
    pub block: Arc<SharedBlock>,
}

impl SharedArrayBufferObject {
    /// A buffer object for `block`.
    pub(crate) fn new(base: JsObject, block: Arc<SharedBlock>) -> SharedArrayBufferObject {
        SharedArrayBufferObject { base, block }
    }
}

// SAFETY: repr(C), JsObject first, kind SharedArrayBuffer.
unsafe impl CellType for SharedArrayBufferObject {
    const KIND: Option<CellKind> = Some(CellKind::SharedArrayBuffer);
}
// SAFETY: starts with JsObject.
unsafe impl ObjectCell for SharedArrayBufferObject {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_only_up_to_its_reservation_and_keeps_bytes() {
        let b = SharedBlock::new(3, Some(20)).unwrap();
        b.write(0, &[1, 2, 3]);
        assert_eq!(b.grow(2), Err(3));
        assert_eq!(b.grow(17), Ok(()));
        let mut out = [0u8; 4];
        b.read(0, &mut out);
        assert_eq!(out, [1, 2, 3, 0]);
        assert_eq!(b.len(), 17);
        assert!(b.capacity() >= 20);
    }

    #[test]
    fn updates_are_atomic_across_threads() {
        let b = SharedBlock::new(8, None).unwrap();
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let b = b.clone();
                std::thread::spawn(move || {
                    for _ in 0..1000 {
                        b.update(4, 4, |v| Some(v + 1));
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(b.update(4, 4, |_| None), 4000);
    }
}
