//! What the interpreter observes for the JIT to speculate on, per function:
//!
//! ```text
//!  Feedback (in the decoded code)
//!   sites[ip]    one byte per instruction
//!                arithmetic, comparisons:  kinds of the operands seen (INT32 DOUBLE STRING OTHER),
//!                                          and for arithmetic of its number results
//!                element reads and writes: DENSE (the fast path served it), TYPED (the
//!                                          TypedArray fast path did), SLOW, and the
//!                                          kinds of the elements read
//!                calls:                    the call site's number + 1 (an index into `calls`)
//!   calls[site]  the addresses of the FunctionInfos called there, in the order first seen
//!                (up to POLYMORPHIC; NONE after the last), or MANY first: more than that
//!   this_shapes[site]   of a `construct`: NO_SHAPE, the one shape of the objects it made
//!                as `this` (as an index + 1 into the runtime's `feedback_shapes`, which
//!                keeps them alive), or MANY_SHAPES
//!  Warmup (in the FunctionInfo)
//!   budget       a countdown of calls (64 each) and loop back-edges (1 each)
//!   profiling    whether it records the above (it is warm)
//!   entries, back_edges   exact counts since it became warm
//! ```
//!
//! Every function counts down its warm-up budget. Only a warm one records: the interpreter
//! runs it in the loop that records (`interp::run_loop::<true>`) and everything else in a
//! loop with no recording at all, so code that never gets warm, and a runtime with nothing
//! that uses feedback (`RuntimeOptions::profile_after` None, the default), pay only for the
//! countdown. A function becomes warm after `profile_after` calls or 64 times as many
//! back-edges.

use std::cell::Cell;

use bytecode::Inst;

use crate::gc::Gc;
use crate::object::Shape;
use crate::value::Value;

/// An operand or element that is a number with an int32 value (not -0).
pub const INT32: u8 = 1;
/// A number that is not an int32.
pub const DOUBLE: u8 = 2;
/// A string.
pub const STRING: u8 = 4;
/// Anything else.
pub const OTHER: u8 = 8;
/// An element access the dense fast path served.
pub const DENSE: u8 = 16;
/// An element access that took the slow path.
pub const SLOW: u8 = 32;
/// An element access the TypedArray fast path served.
pub const TYPED: u8 = 64;

/// A call site that has not called a function yet.
pub const NONE: usize = 0;
/// A call site that called more than one function.
pub const MANY: usize = 1;

/// The call sites a function numbers (later ones are not observed).
const MAX_CALL_SITES: usize = 255;
/// The most functions a call site records (one that calls more is megamorphic).
pub const POLYMORPHIC: usize = 4;

/// A construct site that has not made an object yet.
pub const NO_SHAPE: u32 = 0;
/// A construct site that made objects of more than one shape.
pub const MANY_SHAPES: u32 = u32::MAX;

/// What the interpreter recorded for one function.
pub struct Feedback {
    pub sites: Box<[Cell<u8>]>,
    pub calls: Box<[[Cell<usize>; POLYMORPHIC]]>,
    pub this_shapes: Box<[Cell<u32>]>,
}

/// How warm a function is (kept in its `FunctionInfo`, next to what the interpreter reads
/// anyway, so the loop that does not record never touches `Feedback`).
#[derive(Default)]
pub struct Warmup {
    /// Calls and back-edges since the function became warm.
    pub entries: Cell<u32>,
    pub back_edges: Cell<u32>,
    /// Whether it records (is warm).
    pub profiling: Cell<bool>,
    /// Warm-up countdown: each call takes `BACK_EDGES_PER_CALL`, each back-edge 1.
    budget: Cell<i32>,
    /// Whether `budget` was set from the runtime's `profile_after`.
    armed: Cell<bool>,
}

/// Back-edges worth one call, for warming up.
const BACK_EDGES_PER_CALL: i32 = 64;

impl Feedback {
    /// Empty feedback for `insts`, with its call sites numbered.
    pub(crate) fn new(insts: &[Inst]) -> Feedback {
        let sites: Box<[Cell<u8>]> = insts.iter().map(|_| Cell::new(0)).collect();
        let mut n = 0;
        for (i, inst) in insts.iter().enumerate() {
            if is_call(inst) && n < MAX_CALL_SITES {
                n += 1;
                sites[i].set(n as u8);
            }
        }
        Feedback {
            sites,
            calls: (0..n).map(|_| std::array::from_fn(|_| Cell::new(NONE))).collect(),
            this_shapes: (0..n).map(|_| Cell::new(NO_SHAPE)).collect(),
        }
    }

    /// The call site number of the call at `ip`, if it is one.
    #[inline]
    fn site(&self, ip: usize) -> Option<usize> {
        self.sites.get(ip).and_then(|s| (s.get() as usize).checked_sub(1))
    }

    /// Records that the `construct` at `ip` made an object of `shape` as `this`; `shapes`
    /// is the runtime's table that keeps recorded shapes alive.
    #[inline]
    pub(crate) fn note_this_shape(&self, ip: usize, shape: Gc<Shape>, shapes: &mut Vec<Gc<Shape>>) {
        let Some(c) = self.site(ip).and_then(|s| self.this_shapes.get(s)) else { return };
        match c.get() {
            NO_SHAPE => {
                shapes.push(shape);
                c.set(u32::try_from(shapes.len()).unwrap_or(MANY_SHAPES));
            }
            MANY_SHAPES => {}
            k if shapes.get(k as usize - 1) != Some(&shape) => c.set(MANY_SHAPES),
            _ => {}
        }
    }

    /// The one shape of the objects the `construct` at `ip` made as `this`, if it saw one.
    #[cfg(any(feature = "jit", test))]
    pub(crate) fn this_shape(&self, ip: usize, shapes: &[Gc<Shape>]) -> Option<Gc<Shape>> {
        let k = self.this_shapes.get(self.site(ip)?)?.get();
        if k == NO_SHAPE || k == MANY_SHAPES {
            return None;
        }
        shapes.get(k as usize - 1).copied()
    }

    /// Records that the call at `ip` called the function whose info is at `target`.
    #[inline]
    pub(crate) fn note_call(&self, ip: usize, target: usize) {
        let Some(targets) = self.site(ip).and_then(|s| self.calls.get(s)) else { return };
        for t in targets {
            match t.get() {
                seen if seen == target || seen == MANY => return,
                NONE => return t.set(target),
                _ => {}
            }
        }
        targets[0].set(MANY);
    }

    /// The functions the call at `ip` called (by `FunctionInfo` address, first seen first):
    /// None if it called none, or more than `POLYMORPHIC`.
    pub(crate) fn call_targets(&self, ip: usize) -> Option<Vec<usize>> {
        let targets = self.calls.get(self.site(ip)?)?;
        let seen: Vec<usize> = targets.iter().map(Cell::get).take_while(|&t| t != NONE).collect();
        (!seen.is_empty() && seen[0] != MANY).then_some(seen)
    }
}

impl Warmup {
    /// Counts a call of the function: exactly once it is warm; before, against its
    /// warm-up budget (a countdown: the common path is a decrement and a test).
    #[inline(always)]
    pub(crate) fn count_entry(&self, after: Option<u32>) {
        if self.profiling.get() {
            self.entries.set(self.entries.get().saturating_add(1));
        } else {
            let b = self.budget.get().wrapping_sub(BACK_EDGES_PER_CALL);
            self.budget.set(b);
            if b < 0 {
                self.warm_up(after, true);
            }
        }
    }

    /// Counts a loop back-edge of a function that is not warm yet; whether it just became
    /// warm. (A warm function's back-edges are counted by the loop that records.)
    #[inline(always)]
    pub(crate) fn count_cold_back_edge(&self, after: Option<u32>) -> bool {
        let b = self.budget.get().wrapping_sub(1);
        self.budget.set(b);
        b < 0 && self.warm_up(after, false)
    }

    /// Counts a loop back-edge of a warm function.
    #[inline(always)]
    pub(crate) fn count_back_edge(&self) {
        self.back_edges.set(self.back_edges.get().saturating_add(1));
    }

    /// The warm-up budget ran out: the first time, it is set from `after`; the second,
    /// the function starts recording. Whether it did.
    #[cold]
    fn warm_up(&self, after: Option<u32>, entry: bool) -> bool {
        let Some(after) = after else {
            // Nothing records: come back here rarely.
            self.budget.set(i32::MAX);
            return false;
        };
        if !self.armed.get() {
            self.armed.set(true);
            let budget = i64::from(after) * i64::from(BACK_EDGES_PER_CALL);
            self.budget.set(i32::try_from(budget).unwrap_or(i32::MAX));
            if budget > 0 {
                return false;
            }
        }
        self.profiling.set(true);
        self.budget.set(i32::MAX);
        if entry {
            self.entries.set(1);
        }
        true
    }
}

/// Whether `inst` calls a function whose target feedback is kept.
pub(crate) fn is_call(inst: &Inst) -> bool {
    matches!(inst, Inst::Call { .. } | Inst::Construct { .. })
}

/// The kind of a number.
#[inline(always)]
pub(crate) fn number_kind(x: f64) -> u8 {
    // Exactly an int32 when converting there and back keeps the bits (-0 and NaN do not).
    if (x as i32 as f64).to_bits() == x.to_bits() {
        INT32
    } else {
        DOUBLE
    }
}

/// The kind of a value.
#[inline]
pub(crate) fn kind(v: Value) -> u8 {
    match v.as_number() {
        Some(x) => number_kind(x),
        None if v.is_string() => STRING,
        None => OTHER,
    }
}

/// The kinds in a site byte, as text (`int32|double`).
pub fn describe(bits: u8) -> String {
    let names =
        [(INT32, "int32"), (DOUBLE, "double"), (STRING, "string"), (OTHER, "other"), (DENSE, "dense"), (SLOW, "slow")];
    let parts: Vec<&str> = names.iter().filter(|(b, _)| bits & b != 0).map(|(_, n)| *n).collect();
    parts.join("|")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_tell_int32_from_other_numbers() {
        assert_eq!(number_kind(3.0), INT32);
        assert_eq!(number_kind(-2147483648.0), INT32);
        assert_eq!(number_kind(2147483648.0), DOUBLE);
        assert_eq!(number_kind(-0.0), DOUBLE);
        assert_eq!(number_kind(0.5), DOUBLE);
        assert_eq!(number_kind(f64::NAN), DOUBLE);
        assert_eq!(kind(Value::UNDEFINED), OTHER);
        assert_eq!(describe(INT32 | STRING | DENSE), "int32|string|dense");
    }

    #[test]
    fn functions_warm_up_after_their_calls_or_back_edges() {
        let never = Warmup::default();
        for _ in 0..1000 {
            never.count_entry(None);
            assert!(!never.count_cold_back_edge(None));
        }
        assert!(!never.profiling.get(), "nothing records without profile_after");

        let calls = Warmup::default();
        for _ in 0..=3 {
            calls.count_entry(Some(3));
            assert!(!calls.profiling.get());
        }
        calls.count_entry(Some(3));
        assert!(calls.profiling.get(), "warm after its calls used up the budget");
        calls.count_entry(Some(3));
        assert_eq!(calls.entries.get(), 2, "exact counts from then on");

        let looping = Warmup::default();
        looping.count_entry(Some(1));
        let edges = (0..10_000).take_while(|_| !looping.count_cold_back_edge(Some(1))).count();
        assert_eq!(edges, 64, "a call's worth of back-edges");
        assert!(looping.profiling.get());

        let first = Warmup::default();
        first.count_entry(Some(0));
        assert!(first.profiling.get() && first.entries.get() == 1, "Some(0): from the first call");
    }

    #[test]
    fn call_sites_go_from_none_to_a_few_targets_to_many() {
        let call = Inst::Call { dst: 0, callee: 1, first: 2, argc: 1 };
        let f = Feedback::new(&[Inst::Mov { dst: 0, src: 1 }, call, call]);
        assert_eq!((f.sites[0].get(), f.sites[1].get(), f.sites[2].get()), (0, 1, 2));
        assert_eq!(f.call_targets(1), None, "not called yet");
        f.note_call(1, 0x1000);
        f.note_call(1, 0x1000);
        assert_eq!(f.call_targets(1), Some(vec![0x1000]));
        f.note_call(1, 0x2000);
        f.note_call(1, 0x1000);
        assert_eq!(f.call_targets(1), Some(vec![0x1000, 0x2000]), "polymorphic, first seen first");
        for t in [0x3000, 0x4000, 0x3000] {
            f.note_call(1, t);
        }
        assert_eq!(f.call_targets(1), Some(vec![0x1000, 0x2000, 0x3000, 0x4000]));
        f.note_call(1, 0x5000);
        assert_eq!(f.call_targets(1), None, "megamorphic");
        f.note_call(1, 0x1000);
        assert_eq!(f.calls[0][0].get(), MANY, "for good");
        f.note_call(0, 0x1000);
        assert_eq!(f.call_targets(2), None, "not a call site");
    }

    #[test]
    fn construct_sites_record_one_shape_of_this_then_many() {
        let mut rt = crate::runtime::Runtime::new(crate::runtime::RuntimeOptions::default());
        let (a, b) = (
            rt.root_shape(Value::NULL, crate::gc::CellKind::Object, 4),
            rt.root_shape(Value::NULL, crate::gc::CellKind::Object, 8),
        );
        let construct = Inst::Construct { dst: 0, callee: 1, new_target: 1, first: 2, argc: 1 };
        let f = Feedback::new(&[construct, construct]);
        let mut table = Vec::new();
        assert_eq!(f.this_shape(0, &table), None, "nothing made yet");
        f.note_this_shape(0, a, &mut table);
        f.note_this_shape(0, a, &mut table);
        f.note_this_shape(1, a, &mut table);
        assert_eq!(f.this_shape(0, &table), Some(a));
        assert_eq!(table.len(), 2, "one entry per site");
        f.note_this_shape(1, b, &mut table);
        assert_eq!(f.this_shape(1, &table), None, "two shapes: many");
        assert_eq!(f.this_shapes[1].get(), MANY_SHAPES);
        assert_eq!(f.this_shape(0, &table), Some(a));
    }
}
