//! The slow paths and multi-step operations of the interpreter, by family.

pub mod builtin;
pub mod call;
pub mod generator;
pub mod property;
