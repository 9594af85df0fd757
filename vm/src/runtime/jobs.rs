//! The job queue (ECMA-262 9.5): FIFO, drained by `run_jobs` at a microtask checkpoint;
//! and the host's tracking of promises rejected without a handler.
//!
//! A job is an abstract closure: a function and the values it captured, plus the realm it
//! runs in. What the jobs do belongs to the layer that enqueues them (promise jobs are made
//! by `builtins::promise`); the queue only keeps them rooted and runs them in order.

use super::{ExceptionKind, JsResult, Runtime};
use std::collections::VecDeque;

use crate::gc::{Gc, Heap};
use crate::object::{promise_state, JsObject, PromiseObject};
use crate::value::Value;

/// How many values a job can capture.
pub(crate) const JOB_VALUES: usize = 6;

/// A queued job.
pub(crate) struct Job {
    /// The job's closure, called with the captured values (rooted for the call) in the
    /// job's realm.
    pub run: fn(&mut Runtime, &[Value; JOB_VALUES]) -> JsResult<()>,
    /// The captured values (traced while the job waits in the queue).
    pub values: [Value; JOB_VALUES],
    /// The realm the job runs in (HostEnqueuePromiseJob's realm argument).
    pub realm: u32,
}

/// The job queue, and the promises rejected while they had no handler (for
/// `report_unhandled_rejections`).
#[derive(Default)]
pub(crate) struct JobQueue {
    pub(crate) queue: VecDeque<Job>,
    pub(crate) rejections: Vec<Value>,
    /// `[[KeptAlive]]` (9.10): the WeakRef targets made or read during the current job,
    /// alive until it ends (by their bits, once each).
    kept_alive: hashbrown::HashSet<u64>,
}

impl JobQueue {
    /// Marks what the queued jobs captured and the tracked promises.
    pub(crate) fn trace(&self, heap: &mut Heap) {
        for job in &self.queue {
            for &v in &job.values {
                heap.mark_value(v);
            }
        }
        for &v in &self.rejections {
            heap.mark_value(v);
        }
        for &bits in &self.kept_alive {
            heap.mark_value(crate::value::from_bits(bits));
        }
    }
}

impl Runtime {
    /// AddToKeptObjects(value) (9.10.3): `v` lives until the current job ends.
    pub(crate) fn keep_during_job(&mut self, v: Value) {
        self.jobs.kept_alive.insert(v.bits());
    }

    /// ClearKeptObjects() (9.10.2), when a job (or the script before the queue) ends.
    pub(crate) fn clear_kept_objects(&mut self) {
        if !self.jobs.kept_alive.is_empty() {
            self.jobs.kept_alive = hashbrown::HashSet::new();
        }
    }

    /// HostEnqueuePromiseJob(job, realm): appends to the FIFO job queue.
    pub(crate) fn enqueue_job(&mut self, job: Job) {
        self.jobs.queue.push_back(job);
    }

    /// Runs queued jobs until the queue is empty; jobs enqueued meanwhile run too, in FIFO
    /// order (9.5). Each job runs in its realm, after a safepoint.
    ///
    /// Errors: an uncatchable exception (interrupt, out of memory), or the heap limit hit at
    /// the safepoint between jobs, stops at once and propagates, leaving the remaining jobs
    /// queued. A job that throws a JavaScript exception (only a custom capability's resolve
    /// or reject function, or a handler of `promise_then`, can) does not stop the queue:
    /// like a host reporting the error, the queue is drained and then the first such
    /// exception is thrown.
    pub(crate) fn run_jobs(&mut self) -> JsResult<()> {
        let mark = self.roots.handles.len();
        let mut failed = false;
        // The script (or job) that ran before the queue has ended.
        self.clear_kept_objects();
        loop {
            // Atomics.waitAsync waits settle between jobs, and when no job is left the loop
            // waits for them.
            if !self.host.async_waits.is_empty() {
                let block = self.jobs.queue.is_empty();
                if let Err(e) = (self.host.hooks.settle_async_waits)(self, block) {
                    self.roots.handles.truncate(mark);
                    return Err(e);
                }
            }
            if self.jobs.queue.is_empty() {
                break;
            }
            if let Err(e) = self.safepoint() {
                self.roots.handles.truncate(mark);
                return Err(e);
            }
            let Some(job) = self.jobs.queue.pop_front() else { break };
            let job_mark = self.roots.handles.len();
            self.roots.handles.extend_from_slice(&job.values);
            let saved_realm = self.realm;
            self.realm = job.realm;
            let r = (job.run)(self, &job.values);
            self.clear_kept_objects();
            self.realm = saved_realm;
            self.roots.handles.truncate(job_mark);
            if r.is_err() {
                if self.exception_kind != ExceptionKind::Normal {
                    self.roots.handles.truncate(mark);
                    return r;
                }
                let e = self.take_exception();
                if !failed {
                    failed = true;
                    // Kept rooted below the jobs' handles until the queue is empty.
                    self.roots.handles.push(e);
                }
            }
        }
        if failed {
            let e = self.roots.handles[mark];
            self.roots.handles.truncate(mark);
            return Err(self.throw(e));
        }
        Ok(())
    }

    /// The state of a promise: `Some(Ok(value))` once fulfilled, `Some(Err(reason))` once
    /// rejected, `None` while pending.
    pub(crate) fn promise_result(&self, promise: Gc<JsObject>) -> Option<Result<Value, Value>> {
        let p = self.heap.get(promise.cast::<PromiseObject>());
        match p.state {
            promise_state::FULFILLED => Some(Ok(p.result)),
            promise_state::REJECTED => Some(Err(p.result)),
            _ => None,
        }
    }

    /// Takes the promises rejected with no handler that still have none, oldest first
    /// (HostPromiseRejectionTracker's bookkeeping; see `RuntimeOptions::
    /// report_unhandled_rejections`). Their reasons are `promise_result`.
    pub(crate) fn take_unhandled_rejections(&mut self) -> Vec<Value> {
        let list = std::mem::take(&mut self.jobs.rejections);
        list.into_iter()
            .filter(|&p| {
                let p = self.heap.get(p.gc::<PromiseObject>());
                p.state == promise_state::REJECTED && !p.is_handled
            })
            .collect()
    }
}
