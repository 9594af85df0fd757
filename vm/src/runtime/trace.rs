//! Per-kind tracing and finalization: what each cell kind points to, and which kinds own
//! Rust-heap data that must be dropped when the cell dies.

use super::function::{BoundFunction, Closure, NativeFunction};
use crate::gc::{CellHeader, CellKind, CellOps, Gc, Heap};
use crate::object::array::JsArray;
use crate::object::shape::Shape;
use crate::object::{
    iter_kind, AccessorPair, AsyncGeneratorObject, BigIntCell, CollectionObject, Environment, ForInState,
    GeneratorObject, IteratorObject, JsObject, PrimitiveObject, PromiseObject, RegExpObject, Symbol, ValueVec,
};
use crate::string::Rope;
use crate::value::Value;

/// The tracing and finalization of every cell kind, for `Heap::new`.
pub const CELL_OPS: CellOps = CellOps { trace: trace_cell, finalize: finalize_cell };

/// Marks everything cell `h` refers to.
fn trace_cell(heap: &mut Heap, h: Gc<CellHeader>) -> usize {
    let kind = heap.kind_of(h);
    match kind {
        CellKind::Free | CellKind::String => {}
        CellKind::BigInt => return super::operators::bigint_bytes(&heap.get(h.cast::<BigIntCell>()).value),
        CellKind::Rope => {
            let r = heap.get(h.cast::<Rope>());
            let (a, b, c) = (r.left, r.right, r.flat);
            heap.mark_value(a);
            heap.mark_value(b);
            heap.mark_value(c);
        }
        CellKind::Symbol => {
            let s = heap.get(h.cast::<Symbol>());
            let (a, b) = (s.description, s.registry_key);
            heap.mark_value(a);
            heap.mark_value(b);
        }
        CellKind::Shape => {
            let shape = h.cast::<Shape>();
            let s = heap.get(shape);
            let (proto, parent, external) = (s.proto, s.parent, s.external_bytes());
            heap.mark_value(proto);
            if let Some(p) = parent {
                heap.mark(p);
            }
            // By index, re-reading the shape: marking needs the heap mutably, and a copy of
            // a large table would cost as much memory as the table.
            for i in 0..heap.get(shape).table.entries.len() {
                let key = heap.get(shape).table.entries[i].key;
                heap.mark_value(key.value());
            }
            for i in 0..heap.get(shape).transitions.len() {
                let next = heap.get(shape).transitions[i].2;
                heap.mark(next);
            }
            return external;
        }
        CellKind::Environment => {
            let env = h.cast::<Environment>();
            let parent = heap.get(env).parent;
            heap.mark_value(parent);
            let n = heap.env_slots(env).len();
            for i in 0..n {
                let v = heap.env_slots(env)[i];
                heap.mark_value(v);
            }
        }
        CellKind::ValueVec => {
            let v = h.cast::<ValueVec>();
            let cap = heap.vec_capacity(v);
            for i in 0..cap {
                let x = heap.vec_get(v, i);
                heap.mark_value(x);
            }
        }
        CellKind::AccessorPair => {
            let p = heap.get(h.cast::<AccessorPair>());
            let (g, s) = (p.getter, p.setter);
            heap.mark_value(g);
            heap.mark_value(s);
        }
        CellKind::ForInState => {
            let s = heap.get(h.cast::<ForInState>());
            let (a, b) = (s.object, s.keys);
            heap.mark_value(a);
            heap.mark_value(b);
        }
        _ => return trace_object(heap, h.cast::<JsObject>(), kind),
    }
    0
}

/// Marks what an object refers to; returns the bytes it owns outside the heap.
fn trace_object(heap: &mut Heap, obj: Gc<JsObject>, kind: CellKind) -> usize {
    let o = heap.get(obj);
    let (shape, slots, elements) = (o.shape, o.slots, o.elements);
    heap.mark(shape);
    if let Some(s) = slots {
        heap.mark(s);
    }
    if let Some(e) = elements {
        heap.mark(e);
    }
    let n = heap.inline_slots(obj).len();
    for i in 0..n {
        let v = heap.inline_slots(obj)[i];
        heap.mark_value(v);
    }
    let mut external = 0;
    let extra: [Value; 3] = match kind {
        CellKind::Closure => {
            let c = heap.get(obj.cast::<Closure>());
            [c.env, c.home, Value::UNDEFINED]
        }
        CellKind::BoundFunction => {
            let b = heap.get(obj.cast::<BoundFunction>());
            [b.target, b.this, b.args]
        }
        CellKind::NativeFunction => [heap.get(obj.cast::<NativeFunction>()).data, Value::UNDEFINED, Value::UNDEFINED],
        CellKind::PrimitiveObject => {
            [heap.get(obj.cast::<PrimitiveObject>()).value, Value::UNDEFINED, Value::UNDEFINED]
        }
        CellKind::RegExp => {
            let r = heap.get(obj.cast::<RegExpObject>());
            [r.source, r.flags, Value::UNDEFINED]
        }
        CellKind::Generator => {
            let g = heap.get(obj.cast::<GeneratorObject>());
            let (outer, rest) = (g.outer, [g.closure, g.args, g.regs]);
            heap.mark_value(outer);
            rest
        }
        CellKind::Iterator => {
            let it = heap.get(obj.cast::<IteratorObject>());
            let target = it.target;
            if iter_kind::over_collection(it.kind) && target.is_object() {
                heap.revisit(obj);
            }
            [target, Value::UNDEFINED, Value::UNDEFINED]
        }
        CellKind::Collection => {
            let c = obj.cast::<CollectionObject>();
            external = heap.get(c).data.external_bytes();
            if heap.get(c).data.wants_compaction() {
                heap.revisit(obj);
            }
            // By index, as for shapes: a Map of millions of entries must not be copied.
            for i in 0..heap.get(c).data.entries.len() {
                let (k, v) = heap.get(c).data.entries[i];
                heap.mark_value(k);
                heap.mark_value(v);
            }
            [Value::UNDEFINED; 3]
        }
        CellKind::Promise => {
            let p = heap.get(obj.cast::<PromiseObject>());
            // Settled promises have no reactions: only pending ones need the copy.
            let refs: Vec<Value> = p.reactions.iter().flat_map(|r| r.values()).collect();
            for v in refs {
                heap.mark_value(v);
            }
            [heap.get(obj.cast::<PromiseObject>()).result, Value::UNDEFINED, Value::UNDEFINED]
        }
        CellKind::AsyncGenerator => {
            let g = heap.get(obj.cast::<AsyncGeneratorObject>());
            let refs: Vec<Value> = g.queue.iter().flat_map(|r| [r.value, r.promise]).collect();
            for v in refs {
                heap.mark_value(v);
            }
            [heap.get(obj.cast::<AsyncGeneratorObject>()).generator, Value::UNDEFINED, Value::UNDEFINED]
        }
        CellKind::Array => {
            let _ = heap.get(obj.cast::<JsArray>());
            [Value::UNDEFINED; 3]
        }
        _ => [Value::UNDEFINED; 3],
    };
    for v in extra {
        heap.mark_value(v);
    }
    external
}

/// Between marking and sweeping: drops the tombstones of the marked collections that have
/// many (they asked with `Heap::revisit`) and moves every live iterator over one of them
/// to the same next entry.
pub(crate) fn compact_collections(heap: &mut Heap) {
    let cells = heap.take_revisits();
    let (mut compact, mut iters) = (Vec::new(), Vec::new());
    for h in cells {
        match heap.kind_of(h) {
            CellKind::Collection => compact.push(h.cast::<CollectionObject>()),
            _ => {
                let it = h.cast::<IteratorObject>();
                iters.push((heap.get(it).target.gc::<CollectionObject>(), it));
            }
        }
    }
    if compact.is_empty() {
        return;
    }
    iters.sort_unstable_by_key(|&(c, _)| c.addr());
    for c in compact {
        let first = iters.partition_point(|&(t, _)| t.addr() < c.addr());
        let over = iters[first..].iter().take_while(|&&(t, _)| t.addr() == c.addr());
        let its: Vec<Gc<IteratorObject>> = over.map(|&(_, it)| it).collect();
        let mut held: Vec<u32> = its.iter().map(|&it| heap.get(it).index).collect();
        let data = &mut heap.get_mut(c).data;
        let before = data.external_bytes();
        data.compact(&mut held);
        let freed = before.saturating_sub(data.external_bytes());
        heap.unnote_marked_external(freed);
        for (it, index) in its.into_iter().zip(held) {
            heap.get_mut(it).index = index;
        }
    }
}

/// Drops the Rust-owned parts of a dead cell.
///
/// # Safety
/// `h` must point at an initialized, unreachable cell that is finalized only once.
unsafe fn finalize_cell(h: *mut CellHeader) {
    // SAFETY: the caller guarantees `h` is an initialized cell; its kind says its type.
    unsafe {
        match (*h).kind {
            CellKind::Shape => std::ptr::drop_in_place(h as *mut Shape),
            CellKind::BigInt => std::ptr::drop_in_place(h as *mut BigIntCell),
            CellKind::RegExp => std::ptr::drop_in_place(&mut (*(h as *mut RegExpObject)).matcher),
            CellKind::Collection => std::ptr::drop_in_place(&mut (*(h as *mut CollectionObject)).data),
            CellKind::Promise => std::ptr::drop_in_place(&mut (*(h as *mut PromiseObject)).reactions),
            CellKind::AsyncGenerator => std::ptr::drop_in_place(&mut (*(h as *mut AsyncGeneratorObject)).queue),
            _ => {}
        }
    }
}
