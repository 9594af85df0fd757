//! ECMAScript algorithms that need no heap, shared by the compiler and the VM.
//!
//! ```text
//!   ir (constant folding, dumps) ─┐
//!   compiler (early errors, keys) ┼─▶ ecma ◀── bytecode (operand kinds)
//!   vm (builtins, runtime)  ──────┘
//! ```
//!
//! Constant folding and the runtime must never disagree, so every algorithm that both sides
//! run lives here once: Number::toString and StringToNumber ([`conv`]), regular expression
//! syntax ([`regexp::check_syntax`], the parser the VM compiles with), StringToBigInt and
//! BigInt/Number comparisons ([`bigint`]), and the native error kinds ([`ErrorKind`], numbered as the bytecode encodes them). The modules take and return
//! plain Rust data (`f64`, UTF-16 slices, strings); the VM's object model never appears here.

pub mod bigint;
pub mod conv;
mod error_kind;
pub mod number;
pub mod regexp;
pub mod sum;

pub use error_kind::ErrorKind;
