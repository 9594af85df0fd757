//! 22.2 RegExp objects, backed by the `regress` crate behind `Matcher`.

use super::{rows, Row};
use crate::runtime::{JsResult, Runtime};
use crate::value::Value;

pub(crate) const ROWS: &[Row] = rows! {};

/// A compiled regular expression.
pub struct Matcher {
    /// The compiled program.
    pub regex: regress::Regex,
}

/// Creates RegExp and RegExp.prototype.
pub(crate) fn init(_rt: &mut Runtime) {}

/// `create_regexp`: a RegExp object from a pattern and flags.
pub(crate) fn regexp_create(rt: &mut Runtime, _pattern: Value, _flags: Value) -> JsResult<Value> {
    Err(rt.throw_type_error("RegExp is not supported yet"))
}
