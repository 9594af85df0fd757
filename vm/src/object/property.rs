//! Property descriptors and where an own property lives; the internal methods that use
//! them are in `runtime::property`.

use super::shape::{ACCESSOR, CONFIGURABLE, ENUMERABLE, WRITABLE};
use crate::value::Value;

/// Object flag: `[[SetPrototypeOf]]` only accepts the current prototype.
pub const IMMUTABLE_PROTO: u8 = 128;

/// Where an own property lives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Own {
    /// No such own property.
    Absent,
    /// A named property in slot `.0` with attributes `.1`.
    Slot(u32, u8),
    /// A dense element (attributes `DEFAULT_ATTRS`).
    Element(u32),
    /// A property computed by an exotic object, with its attributes.
    Virtual(Value, u8),
}

/// A property descriptor with optional fields (ECMA-262 6.2.6).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PropertyDescriptor {
    /// `[[Value]]`
    pub value: Option<Value>,
    /// `[[Writable]]`
    pub writable: Option<bool>,
    /// `[[Get]]`
    pub get: Option<Value>,
    /// `[[Set]]`
    pub set: Option<Value>,
    /// `[[Enumerable]]`
    pub enumerable: Option<bool>,
    /// `[[Configurable]]`
    pub configurable: Option<bool>,
}

impl PropertyDescriptor {
    /// A complete data descriptor.
    pub(crate) fn data(value: Value, attrs: u8) -> PropertyDescriptor {
        PropertyDescriptor {
            value: Some(value),
            writable: Some(attrs & WRITABLE != 0),
            get: None,
            set: None,
            enumerable: Some(attrs & ENUMERABLE != 0),
            configurable: Some(attrs & CONFIGURABLE != 0),
        }
    }
    /// A complete accessor descriptor.
    pub(crate) fn accessor(get: Value, set: Value, attrs: u8) -> PropertyDescriptor {
        PropertyDescriptor {
            value: None,
            writable: None,
            get: Some(get),
            set: Some(set),
            enumerable: Some(attrs & ENUMERABLE != 0),
            configurable: Some(attrs & CONFIGURABLE != 0),
        }
    }
    /// IsAccessorDescriptor.
    pub(crate) fn is_accessor(&self) -> bool {
        self.get.is_some() || self.set.is_some()
    }
    /// IsDataDescriptor.
    pub(crate) fn is_data(&self) -> bool {
        self.value.is_some() || self.writable.is_some()
    }
    /// IsGenericDescriptor.
    pub(crate) fn is_generic(&self) -> bool {
        !self.is_accessor() && !self.is_data()
    }
    /// The attribute bits of a complete descriptor (missing fields are false).
    pub(crate) fn attrs(&self) -> u8 {
        let mut a = 0;
        if self.writable == Some(true) {
            a |= WRITABLE;
        }
        if self.enumerable == Some(true) {
            a |= ENUMERABLE;
        }
        if self.configurable == Some(true) {
            a |= CONFIGURABLE;
        }
        if self.is_accessor() {
            a |= ACCESSOR;
        }
        a
    }
}
