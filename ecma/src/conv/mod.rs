//! Pure value conversions used by the builtins: Number ↔ string, JSON text, Date
//! arithmetic and formats, and UTF-16 string helpers.
//!
//! These modules know nothing about the VM's object model or heap: they take and return
//! `f64`, `&[u16]` (JavaScript strings are UTF-16 code unit sequences), `&str` and owned
//! `String`/`Vec<u16>`. The builtins in `vm/src/builtins` perform the argument coercions
//! (ToNumber, ToIntegerOrInfinity, ...), throw the errors, and call into here for the
//! actual algorithm, so each algorithm can be unit tested against node's output.
//!
//! ```text
//!   builtins (Number.prototype.toFixed, parseInt, JSON.parse, Date, String.prototype.*)
//!        │  coerced arguments: f64, &[u16]
//!        ▼
//!   conv::{number_to_string, string_to_number, json, date, string_ops}
//! ```

pub mod date;
pub mod date_parse;
pub mod json;
pub mod normalize;
pub mod number_to_string;
pub mod string_ops;
pub mod string_to_number;
