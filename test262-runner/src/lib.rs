//! The test262 runner's machinery, independent of the engine: test discovery and metadata,
//! the worker and its supervisor, results and the expectations file. The binary (`main.rs`)
//! joins it to Iris through `engine.rs`.
//!
//! ```text
//!  discover + frontmatter ─▶ jobs ─▶ supervisor ─▶ worker (threads, watchdog) ─▶ engine
//!                                        │
//!                                        ▼
//!                               report (summary, JSON) + expectations (--check/--update)
//! ```

pub mod discover;
pub mod expectations;
pub mod frontmatter;
pub mod report;
pub mod supervisor;
pub mod worker;
