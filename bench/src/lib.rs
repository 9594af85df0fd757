//! Measuring tools of Iris: `iris-bench` (the V8 benchmark suite against other engines) and
//! `iris-stress` (large and hostile programs, each with a time and a memory limit).

pub mod measure;
