//! A time limit on each run from the host (`Runtime::set_time_limit`): a thread that sets
//! the runtime's interrupt flag when a run goes past its deadline. The interpreter and
//! compiled code already poll that flag, so the limit costs them nothing.
//!
//! A run's start (`Runtime::begin_run`) clears the flag and sets the deadline under the
//! same lock the thread holds when it sets the flag: a deadline that passes just as a new
//! run starts cannot stop the new one.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The watchdog of a runtime with a time limit.
pub(crate) struct Watchdog {
    shared: Arc<Shared>,
    limit: Duration,
    thread: Option<JoinHandle<()>>,
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
    interrupt: Arc<AtomicBool>,
}

struct State {
    /// When the current run must stop (none once it was stopped).
    deadline: Option<Instant>,
    /// The runtime is being dropped.
    closing: bool,
}

impl Watchdog {
    /// A watchdog allowing each run `limit`, setting `interrupt` when one runs over.
    pub(crate) fn new(limit: Duration, interrupt: Arc<AtomicBool>) -> std::io::Result<Watchdog> {
        let shared = Arc::new(Shared {
            state: Mutex::new(State { deadline: None, closing: false }),
            wake: Condvar::new(),
            interrupt,
        });
        let watched = shared.clone();
        let thread = std::thread::Builder::new().name("iris-watchdog".into()).spawn(move || watch(&watched))?;
        Ok(Watchdog { shared, limit, thread: Some(thread) })
    }

    /// A run starts now: an interrupt asked for before it is forgotten, and it may run
    /// until the limit from now.
    pub(crate) fn begin(&self) {
        let mut state = lock(&self.shared);
        self.shared.interrupt.store(false, Ordering::Relaxed);
        state.deadline = Some(Instant::now() + self.limit);
        self.shared.wake.notify_one();
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        lock(&self.shared).closing = true;
        self.shared.wake.notify_one();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The state, whatever a panic elsewhere left (it is two plain fields).
fn lock(shared: &Shared) -> MutexGuard<'_, State> {
    shared.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The watchdog thread: waits for the deadline of the current run, then interrupts it.
fn watch(shared: &Shared) {
    let mut state = lock(shared);
    while !state.closing {
        state = match state.deadline {
            None => shared.wake.wait(state).unwrap_or_else(|p| p.into_inner()),
            Some(deadline) => {
                let now = Instant::now();
                if now >= deadline {
                    shared.interrupt.store(true, Ordering::Relaxed);
                    state.deadline = None;
                    state
                } else {
                    shared.wake.wait_timeout(state, deadline - now).unwrap_or_else(|p| p.into_inner()).0
                }
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_past_its_limit_is_interrupted_and_the_next_starts_clear() {
        let flag = Arc::new(AtomicBool::new(false));
        let w = Watchdog::new(Duration::from_millis(30), flag.clone()).unwrap();
        w.begin();
        let started = Instant::now();
        while !flag.load(Ordering::Relaxed) {
            assert!(started.elapsed() < Duration::from_secs(10), "never interrupted");
            std::thread::yield_now();
        }
        assert!(started.elapsed() >= Duration::from_millis(30));
        w.begin();
        assert!(!flag.load(Ordering::Relaxed), "a new run forgets the last one's interrupt");
        drop(w);
    }
}
