//! Agents for test262's `$262.agent` (INTERPRETING.md, "Host-Defined Functions"): each
//! agent is a thread with its own runtime, made by the embedder's `AgentFactory`; the main
//! runtime and its agents meet in a `Hub` that carries broadcasts (a SharedArrayBuffer's
//! block and a number) to the agents and reports (strings) back.
//!
//! ```text
//!  main runtime ── start(src) ──▶ thread: factory() → agent runtime runs src
//!               ── broadcast(sab, id) ──▶ Hub mailboxes ──▶ receiveBroadcast callback
//!               ◀── getReport() ── Hub reports ◀── report(value)
//! ```
//!
//! Waits on the hub time out (after `PATIENCE`) rather than block forever: an agent whose
//! script failed never takes its broadcast.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

use num_bigint::BigInt;

use super::Runtime;
use crate::object::shared_buffer::SharedBlock;

/// Makes the runtime of a new agent (on the agent's thread), set up as the main one is:
/// its compiler, its output, its `$262`.
pub type AgentFactory = Arc<dyn Fn() -> Runtime + Send + Sync>;

/// How long a broadcast waits for its agents, and an agent for its broadcast.
const PATIENCE: Duration = Duration::from_secs(10);

/// The number sent along with a broadcast buffer.
#[derive(Clone)]
pub(crate) enum BroadcastId {
    Undefined,
    Number(f64),
    BigInt(BigInt),
}

/// A broadcast: the shared block and the number.
#[derive(Clone)]
pub(crate) struct Broadcast {
    pub block: Arc<SharedBlock>,
    pub id: BroadcastId,
}

/// What the main runtime and its agents share.
pub(crate) struct Hub {
    state: Mutex<HubState>,
    changed: Condvar,
    /// The origin of `monotonicNow`.
    pub start: Instant,
}

#[derive(Default)]
struct HubState {
    /// Reports not yet read by the main runtime, oldest first.
    reports: VecDeque<String>,
    /// Per agent: the broadcast it has not taken yet.
    mailboxes: Vec<Option<Broadcast>>,
}

/// A runtime's part in the agent protocol.
pub(crate) enum AgentRole {
    /// The main runtime, which starts agents.
    Main(Arc<Hub>),
    /// Agent `index` of the hub (its receiveBroadcast callback is kept in `Roots::host`).
    Agent { hub: Arc<Hub>, index: usize },
}

impl Hub {
    /// A hub with no agents.
    pub(crate) fn new() -> Arc<Hub> {
        Arc::new(Hub { state: Mutex::default(), changed: Condvar::new(), start: Instant::now() })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HubState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Enrols a new agent; its index.
    pub(crate) fn add_agent(&self) -> usize {
        let mut s = self.lock();
        s.mailboxes.push(None);
        s.mailboxes.len() - 1
    }

    /// Gives `message` to every agent and waits until all have taken it (or `PATIENCE`
    /// has passed).
    pub(crate) fn broadcast(&self, message: Broadcast) {
        let mut s = self.lock();
        for m in s.mailboxes.iter_mut() {
            *m = Some(message.clone());
        }
        self.changed.notify_all();
        let deadline = Instant::now() + PATIENCE;
        while s.mailboxes.iter().any(Option::is_some) {
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            s = self.changed.wait_timeout(s, deadline - now).unwrap_or_else(|e| e.into_inner()).0;
        }
    }

    /// Agent `index` takes its broadcast, waiting for one (None after `PATIENCE`).
    pub(crate) fn take(&self, index: usize) -> Option<Broadcast> {
        let mut s = self.lock();
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(m) = s.mailboxes.get_mut(index).and_then(Option::take) {
                self.changed.notify_all();
                return Some(m);
            }
            let now = Instant::now();
            if now >= deadline {
                return None;
            }
            s = self.changed.wait_timeout(s, deadline - now).unwrap_or_else(|e| e.into_inner()).0;
        }
    }

    /// An agent reports.
    pub(crate) fn report(&self, s: String) {
        self.lock().reports.push_back(s);
    }

    /// The oldest report not read yet.
    pub(crate) fn get_report(&self) -> Option<String> {
        self.lock().reports.pop_front()
    }
}

impl Runtime {
    /// Lets `$262.agent.start` make agents: `factory` builds each agent's runtime on its
    /// thread (test262 hosts only).
    pub fn set_agent_factory(&mut self, factory: AgentFactory) {
        self.host.agent_factory = Some(factory);
    }
}

/// A thread's doorbell: rung when one of its runtime's `Atomics.waitAsync` waiters is
/// notified, so that its event loop, waiting for that, wakes up.
#[derive(Default)]
pub(crate) struct Doorbell {
    rung: Mutex<bool>,
    ring: Condvar,
}

impl Doorbell {
    /// Rings.
    fn ring(&self) {
        *self.rung.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.ring.notify_all();
    }

    /// Waits until rung or `timeout` has passed, and clears it.
    pub(crate) fn wait(&self, timeout: Duration) {
        let mut rung = self.rung.lock().unwrap_or_else(|e| e.into_inner());
        if !*rung {
            rung = self.ring.wait_timeout(rung, timeout).unwrap_or_else(|e| e.into_inner()).0;
        }
        *rung = false;
    }
}

/// A waiter of `Atomics.wait` (blocked on `wake`) or `Atomics.waitAsync` (its runtime
/// checks `woken`, woken up by the doorbell).
pub(crate) struct Waiter {
    woken: Mutex<bool>,
    wake: Condvar,
    doorbell: Option<Arc<Doorbell>>,
}

impl Waiter {
    /// A waiter; `doorbell` for an asynchronous one.
    pub(crate) fn new(doorbell: Option<Arc<Doorbell>>) -> Arc<Waiter> {
        Arc::new(Waiter { woken: Mutex::new(false), wake: Condvar::new(), doorbell })
    }

    /// Whether `notify` took it off its list.
    pub(crate) fn is_woken(&self) -> bool {
        *self.woken.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Blocks until notified or `deadline` (None: forever); whether it was notified.
    pub(crate) fn block(&self, deadline: Option<Instant>) -> bool {
        let mut woken = self.woken.lock().unwrap_or_else(|e| e.into_inner());
        while !*woken {
            match deadline {
                None => woken = self.wake.wait(woken).unwrap_or_else(|e| e.into_inner()),
                Some(d) => {
                    let now = Instant::now();
                    if now >= d {
                        break;
                    }
                    woken = self.wake.wait_timeout(woken, d - now).unwrap_or_else(|e| e.into_inner()).0;
                }
            }
        }
        *woken
    }
}

/// The waiters of every address of shared memory, in the order they began to wait (the
/// WaiterList records of 25.4.3.x), for every agent of the process.
pub(crate) struct WaiterLists(Mutex<HashMap<usize, Vec<Arc<Waiter>>>>);

impl WaiterLists {
    /// The process's lists.
    pub(crate) fn get() -> &'static WaiterLists {
        static LISTS: OnceLock<WaiterLists> = OnceLock::new();
        LISTS.get_or_init(|| WaiterLists(Mutex::default()))
    }

    /// Under the lists' lock: `still` decides (the value at the address is still the
    /// expected one) whether `waiter` joins the list of `address`; returns what `still` said.
    pub(crate) fn enlist_if(&self, address: usize, waiter: &Arc<Waiter>, still: impl FnOnce() -> bool) -> bool {
        let mut lists = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if !still() {
            return false;
        }
        lists.entry(address).or_default().push(waiter.clone());
        true
    }

    /// Takes `waiter` off the list of `address`; whether it was still there (not notified).
    pub(crate) fn remove(&self, address: usize, waiter: &Arc<Waiter>) -> bool {
        let mut lists = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let Some(list) = lists.get_mut(&address) else { return false };
        let before = list.len();
        list.retain(|w| !Arc::ptr_eq(w, waiter));
        let removed = list.len() != before;
        if list.is_empty() {
            lists.remove(&address);
        }
        removed
    }

    /// Wakes up to `count` waiters of `address`, first come first woken; how many.
    pub(crate) fn notify(&self, address: usize, count: f64) -> usize {
        let mut lists = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let mut n = 0;
        if let Some(list) = lists.get_mut(&address) {
            while (n as f64) < count && !list.is_empty() {
                let w = list.remove(0);
                *w.woken.lock().unwrap_or_else(|e| e.into_inner()) = true;
                w.wake.notify_all();
                if let Some(d) = &w.doorbell {
                    d.ring();
                }
                n += 1;
            }
            if list.is_empty() {
                lists.remove(&address);
            }
        }
        n
    }
}

/// An `Atomics.waitAsync` waiting in this runtime: its waiter, the address it waits on,
/// and when it times out. Its promise is at the same index of `Roots::waits`.
pub(crate) struct AsyncWait {
    pub waiter: Arc<Waiter>,
    pub address: usize,
    pub deadline: Option<Instant>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notify_wakes_waiters_in_order_and_counts_them() {
        let lists = WaiterLists(Mutex::default());
        let (a, b, c) = (Waiter::new(None), Waiter::new(None), Waiter::new(None));
        for w in [&a, &b, &c] {
            assert!(lists.enlist_if(64, w, || true));
        }
        assert!(!lists.enlist_if(64, &Waiter::new(None), || false), "a changed value does not wait");
        assert_eq!(lists.notify(64, 2.0), 2);
        assert!(a.is_woken() && b.is_woken() && !c.is_woken());
        assert!(lists.remove(64, &c), "a timed-out waiter leaves its list");
        assert_eq!(lists.notify(64, f64::INFINITY), 0);
    }

    #[test]
    fn a_blocked_waiter_wakes_on_notify_from_another_thread() {
        let lists = Arc::new(WaiterLists(Mutex::default()));
        let w = Waiter::new(None);
        assert!(lists.enlist_if(8, &w, || true));
        let notifier = {
            let lists = lists.clone();
            std::thread::spawn(move || {
                while lists.notify(8, 1.0) == 0 {
                    std::thread::yield_now();
                }
            })
        };
        assert!(w.block(Some(Instant::now() + Duration::from_secs(10))));
        notifier.join().unwrap();
    }

    #[test]
    fn broadcasts_reach_every_agent_and_reports_come_back_in_order() {
        let hub = Hub::new();
        let agents: Vec<usize> = (0..3).map(|_| hub.add_agent()).collect();
        let threads: Vec<_> = agents
            .into_iter()
            .map(|i| {
                let hub = hub.clone();
                std::thread::spawn(move || {
                    let m = hub.take(i).expect("a broadcast");
                    let BroadcastId::Number(n) = m.id else { panic!("a number") };
                    hub.report(format!("{i}:{n}"));
                })
            })
            .collect();
        let block = SharedBlock::new(8, None).unwrap();
        hub.broadcast(Broadcast { block, id: BroadcastId::Number(7.0) });
        for t in threads {
            t.join().unwrap();
        }
        let mut reports: Vec<String> = std::iter::from_fn(|| hub.get_report()).collect();
        reports.sort();
        assert_eq!(reports, ["0:7", "1:7", "2:7"]);
    }
}
