//! The runtime interface of the native tier: everything JIT code may know of the VM.
//!
//! Compiled code reads a few things directly (value tags, an object's shape, its slots and
//! elements, an array's length, the registers of a frame) and asks the runtime for the
//! rest through helper functions. Both are listed here and nowhere else, so that a change of
//! layout is a change of this module, and `native` depends on no other part of `vm`.
//!
//! ```text
//!   JIT code ──loads at layout::*──▶ cells, register stack
//!            ──calls HELPERS[i]─────▶ Runtime (may allocate, run JS, throw)
//! ```
//!
//! Every helper takes the runtime first and reports a throw as `Err(Exception)` with the
//! value pending in the runtime, as every runtime function does; the native tier wraps each
//! signature in one calling-convention trampoline. A helper may reach a safepoint (and so a
//! collection) unless its `allocates` is false: compiled code keeps its live values in the
//! frame's registers across such calls, where the collector finds them.

use crate::gc::CellHeader;
use crate::object::array::JsArray;
use crate::object::{JsObject, Key, ValueVec};
use crate::runtime::frame::Frame;
use crate::runtime::{JsResult, Runtime};
use crate::value::Value;

/// Byte offsets and bit patterns that compiled code may rely on.
pub mod layout {
    use std::mem::offset_of;

    use super::*;
    use crate::gc::Heap;
    use crate::value;

    /// A `Value` is 8 bytes; a double is stored as itself.
    pub const VALUE_SIZE: usize = size_of::<Value>();
    /// The top 16 bits of a boxed value are its tag (shift right by this).
    pub const TAG_SHIFT: u32 = value::TAG_SHIFT;
    /// The low 48 bits of a boxed value: a cell address or a special value's number.
    pub const PAYLOAD_MASK: u64 = value::PAYLOAD_MASK;
    /// The first tag that is not a double: `bits >> TAG_SHIFT >= FIRST_TAG` is "not a number".
    pub const FIRST_TAG: u64 = value::FIRST_TAG;
    /// Tag of undefined, null, the booleans and the empty marker.
    pub const TAG_SPECIAL: u64 = value::TAG_SPECIAL;
    /// Tag of an object (payload: the address of a cell with an object kind).
    pub const TAG_OBJECT: u64 = value::TAG_OBJECT;
    /// Tag of a string (payload: a String or Rope cell).
    pub const TAG_STRING: u64 = value::TAG_STRING;
    /// Tag of a symbol.
    pub const TAG_SYMBOL: u64 = value::TAG_SYMBOL;
    /// Tag of a BigInt.
    pub const TAG_BIGINT: u64 = value::TAG_BIGINT;
    /// Tag of an internal cell (environment, accessor pair, ...).
    pub const TAG_CELL: u64 = value::TAG_CELL;
    /// The one NaN that arithmetic results are stored as.
    pub const CANONICAL_NAN: u64 = value::CANONICAL_NAN;
    /// `undefined`.
    pub const UNDEFINED: u64 = Value::UNDEFINED.bits();
    /// `null`.
    pub const NULL: u64 = Value::NULL.bits();
    /// `false`; `true` is `FALSE + 1`.
    pub const FALSE: u64 = Value::FALSE.bits();
    /// `true`.
    pub const TRUE: u64 = Value::TRUE.bits();
    /// The "uninitialized binding" marker (and an array hole).
    pub const EMPTY: u64 = Value::EMPTY.bits();

    /// The cell kind byte (`CellKind as u8`) of every cell, at its start.
    pub const CELL_KIND: usize = offset_of!(CellHeader, kind);
    /// An object's inline slot capacity (a byte in its header).
    pub const OBJECT_INLINE_CAPACITY: usize = offset_of!(CellHeader, aux8);
    /// An object's shape pointer (a shape guard compares it).
    pub const OBJECT_SHAPE: usize = offset_of!(JsObject, shape);
    /// An object's out-of-line slot vector (a `ValueVec` pointer or null).
    pub const OBJECT_SLOTS: usize = offset_of!(JsObject, slots);
    /// An object's element vector (a `ValueVec` pointer or null).
    pub const OBJECT_ELEMENTS: usize = offset_of!(JsObject, elements);
    /// A slot location from an inline cache (`Shape::slot_location`) with this bit set is an
    /// index into the out-of-line vector; without it, the byte offset of an inline slot in
    /// the object cell.
    pub const SLOT_OUT_OF_LINE: u32 = crate::object::OUT_OF_LINE;
    /// An array's `length` (u32).
    pub const ARRAY_LENGTH: usize = offset_of!(JsArray, length);
    /// The number of values in a `ValueVec` (u32); the dense elements of an array.
    pub const VALUE_VEC_LEN: usize = offset_of!(ValueVec, len);
    /// The first value of a `ValueVec`.
    pub const VALUE_VEC_DATA: usize = Heap::trailing_offset::<ValueVec, Value>();

    /// Stack index of register 0 of a frame (u32): its registers are
    /// `stack[base..base + frame_size]` on the register stack, 8 bytes each.
    pub const FRAME_BASE: usize = offset_of!(Frame, base);
    /// Stack index of a frame's `this` argument (u32); the arguments follow it.
    pub const FRAME_ARGS: usize = offset_of!(Frame, args);
    /// Arguments passed to a frame, `this` included (u32).
    pub const FRAME_ARGC: usize = offset_of!(Frame, argc);
    /// The bytecode offset a frame resumes at (u32): an exit stores it before returning to
    /// the interpreter.
    pub const FRAME_IP: usize = offset_of!(Frame, ip);
}

/// The signature of a helper, one variant per calling convention the native tier wraps.
///
/// # Safety
/// Every helper reads the cells its operands point to, so a caller must pass only values
/// that are live: made by the same runtime and, if they hold a pointer, reachable from its
/// roots since its last safepoint (compiled code keeps its values in the frame's
/// registers, which are roots). A value that was not rooted across a safepoint may point
/// at a freed cell.
#[derive(Clone, Copy)]
pub enum HelperFn {
    /// `(value) -> value`.
    Unary(unsafe fn(&mut Runtime, Value) -> JsResult<Value>),
    /// `(value, value) -> value`.
    Binary(unsafe fn(&mut Runtime, Value, Value) -> JsResult<Value>),
    /// `(value, value) -> bool`.
    Predicate(unsafe fn(&mut Runtime, Value, Value) -> JsResult<bool>),
    /// `(object, key) -> value`: a property read by key.
    GetByKey(unsafe fn(&mut Runtime, Value, Key) -> JsResult<Value>),
    /// `(object, key, value, strict)`: a property write.
    PutByVal(unsafe fn(&mut Runtime, Value, Value, Value, bool) -> JsResult<()>),
    /// `()`: no operands, may throw (an interrupt, the heap limit).
    Poll(unsafe fn(&mut Runtime) -> JsResult<()>),
}

/// A runtime function JIT code may call.
#[derive(Clone, Copy)]
pub struct Helper {
    /// The name in MIR dumps (`call_helper @add`).
    pub name: &'static str,
    /// The function and its signature.
    pub f: HelperFn,
    /// Whether it may run JavaScript (getters, `valueOf`, proxies): compiled code must
    /// assume any heap state changed after the call.
    pub calls_js: bool,
}

/// Invokes `$m!` with every helper: `name => function, Signature, calls_js;`.
macro_rules! for_each_helper {
    ($m:ident) => {
        $m! {
            /// `a + b` (13.15.3): numbers, strings, or ToPrimitive first.
            add => Runtime::op_add, Binary, true;
            /// Concatenation of two strings (no conversion).
            concat_strings => Runtime::concat_strings, Binary, false;
            /// `-v` on a non-number.
            negate => Runtime::op_negate, Unary, true;
            /// `~v` on a non-number.
            bit_not => Runtime::op_bit_not, Unary, true;
            /// ToNumeric (7.1.3).
            to_numeric => Runtime::to_numeric, Unary, true;
            /// ToString (7.1.17), as a string value.
            to_string => Runtime::to_string, Unary, true;
            /// `a == b` (7.2.14).
            loose_equals => Runtime::loose_equals, Predicate, true;
            /// `v instanceof target` (13.10.2).
            instance_of => Runtime::op_instance_of, Predicate, true;
            /// `key in obj` (13.10.1).
            has_property => Runtime::op_in, Predicate, true;
            /// GetV(v, key) (7.3.3): any value, primitives through their prototype.
            get_v => Runtime::get_v, GetByKey, true;
            /// `obj[key]` with ToPropertyKey, past the inline caches.
            get_by_val => crate::interp::ops::property::get_by_val_slow, Binary, true;
            /// `obj[key] = value` with ToPropertyKey, past the inline caches.
            put_by_val => crate::interp::ops::property::put_by_val_slow, PutByVal, true;
            /// A safepoint: collects when the heap budget is spent and checks for interrupts.
            safepoint => Runtime::safepoint, Poll, false;
        }
    };
}

macro_rules! define_helpers {
    ($($(#[$doc:meta])* $name:ident => $f:path, $sig:ident, $calls_js:literal;)*) => {
        /// Every helper, by name. The index is the helper's number in compiled code.
        pub static HELPERS: &[Helper] = &[
            $( Helper { name: stringify!($name), f: HelperFn::$sig($f), calls_js: $calls_js }, )*
        ];
    };
}

for_each_helper!(define_helpers);

/// The helper named `name`.
pub fn helper(name: &str) -> Option<&'static Helper> {
    HELPERS.iter().find(|h| h.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::RuntimeOptions;

    /// Reads a `T` at `offset` bytes into the cell of `v`.
    ///
    /// # Safety
    /// `v` must point to a live cell at least `offset + size_of::<T>()` bytes long whose
    /// bytes there hold a valid `T`.
    unsafe fn read<T: Copy>(v: Value, offset: usize) -> T {
        let addr = (v.bits() & layout::PAYLOAD_MASK) as usize;
        // SAFETY: the caller guarantees the cell and the field.
        unsafe { std::ptr::read_unaligned((addr + offset) as *const T) }
    }

    #[test]
    fn value_bits_are_the_documented_ones() {
        assert_eq!(Value::number(1.5).bits(), 1.5f64.to_bits());
        assert!(Value::number(1.5).bits() >> layout::TAG_SHIFT < layout::FIRST_TAG);
        assert_eq!(Value::NAN.bits(), layout::CANONICAL_NAN);
        assert_eq!(layout::UNDEFINED >> layout::TAG_SHIFT, layout::TAG_SPECIAL);
        assert_eq!(layout::TRUE, layout::FALSE + 1);
        let mut rt = Runtime::new(RuntimeOptions::default());
        let o = Value::object(rt.new_object(Value::NULL));
        assert_eq!(o.bits() >> layout::TAG_SHIFT, layout::TAG_OBJECT);
        let s = rt.number_to_string(42.0);
        assert_eq!(s.bits() >> layout::TAG_SHIFT, layout::TAG_STRING);
    }

    #[test]
    fn offsets_match_the_objects_the_heap_builds() {
        let mut rt = Runtime::new(RuntimeOptions::default());
        let arr = rt.new_array_from(&[Value::number(7.0), Value::TRUE, Value::NULL]);
        let a = Value::object(arr);
        // SAFETY: `a` is a live Array cell (JsArray layout); nothing collects in this test.
        unsafe {
            assert_eq!(read::<u8>(a, layout::CELL_KIND), crate::gc::CellKind::Array as u8);
            assert_eq!(read::<u32>(a, layout::ARRAY_LENGTH), 3);
            assert_eq!(read::<usize>(a, layout::OBJECT_SHAPE), rt.heap.get(arr).shape.addr());
            let elements: usize = read(a, layout::OBJECT_ELEMENTS);
            assert_ne!(elements, 0);
            let ev = crate::value::from_bits(elements as u64);
            assert_eq!(read::<u32>(ev, layout::VALUE_VEC_LEN), 3);
            assert_eq!(read::<u64>(ev, layout::VALUE_VEC_DATA), Value::number(7.0).bits());
            assert_eq!(read::<u64>(ev, layout::VALUE_VEC_DATA + 8), layout::TRUE);
            assert_eq!(read::<u64>(ev, layout::VALUE_VEC_DATA + 16), layout::NULL);
        }

        // A named property in an inline slot, found through the slot location an inline
        // cache would hold.
        let obj = rt.new_object(Value::NULL);
        let key = rt.key("x");
        rt.create_data_property(obj, key, Value::number(3.25)).unwrap();
        let o = Value::object(obj);
        let crate::object::property::Own::Slot(slot, _) = rt.own_lookup(obj, key) else { panic!("x is a named slot") };
        let loc = rt.heap.slot_location(obj, slot);
        assert_eq!(loc & layout::SLOT_OUT_OF_LINE, 0, "a fresh object keeps its first property inline");
        // SAFETY: `o` is a live object cell and `loc` the byte offset of its initialized slot.
        unsafe {
            assert!(read::<u8>(o, layout::OBJECT_INLINE_CAPACITY) > 0);
            assert_eq!(read::<u64>(o, loc as usize), Value::number(3.25).bits());
            assert_eq!(read::<usize>(o, layout::OBJECT_SLOTS), 0, "no out-of-line slots yet");
        }
    }

    #[test]
    fn frame_offsets_address_the_frame_fields() {
        let f = std::mem::MaybeUninit::<Frame>::uninit();
        let base = f.as_ptr() as usize;
        // SAFETY: only field addresses are taken, nothing is read.
        let (b, ip) = unsafe { (std::ptr::addr_of!((*f.as_ptr()).base), std::ptr::addr_of!((*f.as_ptr()).ip)) };
        assert_eq!(b as usize - base, layout::FRAME_BASE);
        assert_eq!(ip as usize - base, layout::FRAME_IP);
    }

    #[test]
    fn helpers_are_unique_and_callable() {
        for (i, h) in HELPERS.iter().enumerate() {
            assert!(HELPERS[..i].iter().all(|o| o.name != h.name), "{} listed twice", h.name);
        }
        let mut rt = Runtime::new(RuntimeOptions::default());
        let Some(Helper { f: HelperFn::Binary(add), .. }) = helper("add") else { panic!("add is a binary helper") };
        // SAFETY: numbers point at nothing.
        let three = unsafe { add(&mut rt, Value::number(1.0), Value::number(2.0)) }.unwrap();
        assert_eq!(three.as_number(), Some(3.0));
        let Some(Helper { f: HelperFn::Predicate(eq), .. }) = helper("loose_equals") else { panic!() };
        let one = rt.number_to_string(1.0);
        // SAFETY: `one` was made just now, with no safepoint since.
        assert!(unsafe { eq(&mut rt, one, Value::number(1.0)) }.unwrap());
        let Some(Helper { f: HelperFn::Poll(poll), .. }) = helper("safepoint") else { panic!() };
        // SAFETY: no operands.
        unsafe { poll(&mut rt) }.unwrap();
        assert!(helper("no_such_helper").is_none());
    }
}
