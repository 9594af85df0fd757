//! Bytecode bundles: the file a compiled script is shipped in.
//!
//! ```text
//!  compiler backend ──FunctionDesc──▶ BundleBuilder::finish ──▶ bytes (.irb)
//!  bytes ──Bundle::from_bytes (header, tables, verifier)──▶ Bundle ──in-place accessors──▶ vm
//! ```
//!
//! The layout is in `format.rs`. A `Bundle` keeps the bytes and the section table and
//! reads everything else in place on demand: the VM materializes a function (its header,
//! code slice, handlers) only when a closure of it is first created or called.
//! Construction verifies the whole bundle (`verify.rs`), so the accessors can trust the
//! bytes: they never fail on a verified bundle, and they panic on ids out of range, which
//! verified code never produces.

pub mod format;
mod module;
mod read;
mod write;

use std::fmt;

pub use format::Section;
pub use format::{hash_source, BUNDLE_MAGIC, BUNDLE_VERSION};
pub use module::{ExportDesc, ImportDesc, Imported, ModuleDesc, RequestDesc, ValueKind};
pub use read::Bundle;
pub use write::BundleBuilder;

/// Flags of a function.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FunctionFlags(pub u32);

impl FunctionFlags {
    /// No flags.
    pub const NONE: FunctionFlags = FunctionFlags(0);
    /// Strict mode code.
    pub const STRICT: FunctionFlags = FunctionFlags(1);
    /// An arrow function: lexical `this`, no [[Construct]].
    pub const ARROW: FunctionFlags = FunctionFlags(2);
    /// Has [[Construct]] (ordinary functions and class constructors).
    pub const CONSTRUCTOR: FunctionFlags = FunctionFlags(4);
    /// A class constructor: calling it without `new` throws a TypeError.
    pub const CLASS_CONSTRUCTOR: FunctionFlags = FunctionFlags(8);
    /// The constructor of a derived class.
    pub const DERIVED: FunctionFlags = FunctionFlags(16);
    /// A generator function (the outer function); its closures get a `.prototype`
    /// inheriting from %GeneratorPrototype%.
    pub const GENERATOR: FunctionFlags = FunctionFlags(32);
    /// The body of a generator, run by the generator object.
    pub const GENERATOR_INNER: FunctionFlags = FunctionFlags(64);
    /// A method, getter or setter: no [[Construct]], no `.prototype`.
    pub const METHOD: FunctionFlags = FunctionFlags(128);
    /// An async function (the outer function; with `GENERATOR_INNER`, its body): its
    /// closures inherit from %AsyncFunction.prototype% and have no `.prototype`.
    pub const ASYNC: FunctionFlags = FunctionFlags(256);
    /// Not compiled yet: its code is a placeholder, and its info record names the
    /// description of the scope its source text is compiled against on its first call
    /// (lazy compilation of programs run from source).
    pub const LAZY: FunctionFlags = FunctionFlags(512);
    /// Every flag this version knows; the verifier rejects the others.
    pub const ALL: FunctionFlags = FunctionFlags(1023);

    /// Whether every flag of `other` is set.
    pub const fn contains(self, other: FunctionFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether any flag of `other` is set.
    pub const fn intersects(self, other: FunctionFlags) -> bool {
        self.0 & other.0 != 0
    }

    /// The names of the set flags, for the disassembly.
    pub fn names(self) -> Vec<&'static str> {
        const NAMES: [&str; 10] = [
            "strict",
            "arrow",
            "constructor",
            "class_constructor",
            "derived",
            "generator",
            "generator_inner",
            "method",
            "async",
            "lazy",
        ];
        (0..NAMES.len()).filter(|i| self.0 & (1 << i) != 0).map(|i| NAMES[i]).collect()
    }
}

impl std::ops::BitOr for FunctionFlags {
    type Output = FunctionFlags;
    fn bitor(self, rhs: FunctionFlags) -> FunctionFlags {
        FunctionFlags(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for FunctionFlags {
    fn bitor_assign(&mut self, rhs: FunctionFlags) {
        self.0 |= rhs.0;
    }
}

/// An exception handler: a throw at a pc in `[start, end)` continues at `target` (which
/// starts with `catch`). Inner try regions come first, so the first match wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HandlerEntry {
    /// First pc covered.
    pub start: u32,
    /// First pc no longer covered.
    pub end: u32,
    /// The handler's pc.
    pub target: u32,
}

/// A function as the compiler hands it to the [`BundleBuilder`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FunctionDesc {
    /// String id of the function's name (`""` for anonymous functions).
    pub name: u32,
    /// The JavaScript `.length`.
    pub length: u32,
    /// Formal parameters, not counting `this`.
    pub param_count: u32,
    /// Registers of the frame.
    pub frame_size: u32,
    /// Inline-cache slots used by the code.
    pub ic_count: u32,
    /// Flags.
    pub flags: FunctionFlags,
    /// The encoded instructions.
    pub code: Vec<u8>,
    /// Exception handlers, inner try regions first.
    pub handlers: Vec<HandlerEntry>,
    /// `(pc, line, col)`, sorted by pc.
    pub locations: Vec<(u32, u32, u32)>,
    /// The function's source text, for `Function.prototype.toString`: a range of the text
    /// given to [`BundleBuilder::add_source_text`].
    pub source: Option<SourceRange>,
    /// For a `LAZY` function: the string id of the description of the scope it is compiled
    /// against.
    pub lazy_scope: Option<u32>,
}

/// A range of a bundle's source text, in bytes of its UTF-8.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SourceRange {
    /// The first byte.
    pub start: u32,
    /// The length in bytes.
    pub len: u32,
}

/// How a bundle keeps the source text of its functions (for `Function.prototype.toString`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SourceMode {
    /// As it is: the fastest to write and to read (bundles compiled to run at once).
    #[default]
    Plain,
    /// Compressed in blocks (bundles written to files).
    Compressed,
    /// Not at all: `toString` of a function gives a placeholder.
    Stripped,
}

/// A function's fixed data, read from the function table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FunctionHeader {
    /// String id of the name.
    pub name: u32,
    /// The JavaScript `.length`.
    pub length: u32,
    /// Formal parameters, not counting `this`.
    pub param_count: u32,
    /// Registers of the frame.
    pub frame_size: u32,
    /// Inline-cache slots.
    pub ic_count: u32,
    /// Flags.
    pub flags: FunctionFlags,
    /// Where its source text is in the bundle's, if recorded.
    pub source: Option<SourceRange>,
    /// Length of the code in bytes.
    pub code_len: u32,
}

/// A string of the bundle, borrowed in place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BundleStr<'a> {
    /// Latin-1 characters, one byte per UTF-16 unit.
    OneByte(&'a [u8]),
    /// UTF-16 units as little-endian byte pairs.
    TwoByte(&'a [u8]),
}

impl BundleStr<'_> {
    /// Length in UTF-16 units.
    pub fn len(&self) -> usize {
        match self {
            BundleStr::OneByte(b) => b.len(),
            BundleStr::TwoByte(b) => b.len() / 2,
        }
    }

    /// Whether the string is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The UTF-16 unit at `index` (panics past the end).
    pub fn unit(&self, index: usize) -> u16 {
        match self {
            BundleStr::OneByte(b) => u16::from(b[index]),
            BundleStr::TwoByte(b) => u16::from_le_bytes([b[2 * index], b[2 * index + 1]]),
        }
    }

    /// The UTF-16 units.
    pub fn units(&self) -> impl Iterator<Item = u16> + '_ {
        (0..self.len()).map(move |i| self.unit(i))
    }

    /// The units collected into a vector.
    pub fn to_units(&self) -> Vec<u16> {
        self.units().collect()
    }

    /// The string as Rust text (lone surrogates become U+FFFD).
    pub fn to_string_lossy(&self) -> String {
        match self {
            BundleStr::OneByte(b) => b.iter().map(|&c| char::from(c)).collect(),
            BundleStr::TwoByte(_) => String::from_utf16_lossy(&self.to_units()),
        }
    }
}

/// Why bytes are not a valid bundle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundleError {
    /// What is wrong.
    pub message: String,
    /// The file offset involved, when there is one.
    pub offset: Option<usize>,
    /// The function involved, when there is one.
    pub function: Option<u32>,
    /// The pc inside that function, when there is one.
    pub pc: Option<u32>,
}

impl BundleError {
    pub(crate) fn new(message: impl Into<String>) -> BundleError {
        BundleError { message: message.into(), offset: None, function: None, pc: None }
    }

    pub(crate) fn at(offset: usize, message: impl Into<String>) -> BundleError {
        BundleError { offset: Some(offset), ..BundleError::new(message) }
    }

    pub(crate) fn in_function(function: u32, message: impl Into<String>) -> BundleError {
        BundleError { function: Some(function), ..BundleError::new(message) }
    }

    pub(crate) fn at_pc(function: u32, pc: usize, message: impl Into<String>) -> BundleError {
        BundleError { function: Some(function), pc: Some(pc as u32), ..BundleError::new(message) }
    }
}

impl fmt::Display for BundleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid bundle")?;
        if let Some(function) = self.function {
            write!(f, ", function {function}")?;
        }
        if let Some(pc) = self.pc {
            write!(f, ", pc {pc}")?;
        }
        if let Some(offset) = self.offset {
            write!(f, ", offset {offset:#x}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for BundleError {}

#[cfg(test)]
pub(crate) mod tests;
