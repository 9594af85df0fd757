//! Stopping a compilation when the host asks. A runtime compiles eval code, `new Function`
//! bodies and lazily compiled functions while a program runs, under the program's time limit
//! (`iris --timeout`, an embedder's interrupt): a huge function must not hold the interrupt
//! off until the optimizer is done with it. The driver names the host's flag for what it
//! compiles on its thread ([`watching`]); the pass manager and the backend look at it before
//! each pass and each function ([`requested`]) and stop with the error [`STOPPED`].

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The error of a compilation that stopped because the host asked.
pub const STOPPED: &str = "compilation interrupted";

thread_local! {
    /// The flag the compilation running on this thread stops at.
    static FLAG: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Runs `f` with `flag` as this thread's request to stop compiling (none: never stop); the
/// flag before is put back after, also when `f` panics.
pub fn watching<T>(flag: Option<Arc<AtomicBool>>, f: impl FnOnce() -> T) -> T {
    struct PutBack(Option<Arc<AtomicBool>>);
    impl Drop for PutBack {
        fn drop(&mut self) {
            let before = self.0.take();
            FLAG.with(|c| *c.borrow_mut() = before);
        }
    }
    let _put_back = PutBack(FLAG.with(|c| c.replace(flag)));
    f()
}

/// Whether the host has asked the compilation on this thread to stop.
pub fn requested() -> bool {
    FLAG.with(|c| c.borrow().as_ref().is_some_and(|flag| flag.load(Ordering::Relaxed)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_flag_being_watched_counts() {
        assert!(!requested());
        let flag = Arc::new(AtomicBool::new(false));
        watching(Some(flag.clone()), || {
            assert!(!requested());
            flag.store(true, Ordering::Relaxed);
            assert!(requested());
            watching(None, || assert!(!requested()));
            assert!(requested());
        });
        assert!(!requested());
    }
}
