//! Per-kind tracing and finalization: what each cell kind points to, and which kinds own
//! Rust-heap data that must be dropped when the cell dies.

use super::function::{BoundFunction, Closure, NativeFunction};
use crate::gc::{CellHeader, CellKind, CellOps, Gc, Heap};
use crate::object::array::JsArray;
use crate::object::shape::Shape;
use crate::object::{
    iter_kind, AccessorPair, ArrayBufferObject, AsyncGeneratorObject, BigIntCell, CollectionObject, Environment,
    FinalizationCell, FinalizationRegistryObject, ForInState, GeneratorObject, IteratorObject, JsObject,
    PrimitiveObject, PromiseObject, RegExpObject, Symbol, ValueVec, WeakRefObject,
};
use crate::string::Rope;
use crate::value::Value;

/// The tracing and finalization of every cell kind, for `Heap::new`.
pub const CELL_OPS: CellOps = CellOps { trace: trace_cell, finalize: finalize_cell, finalized: FINALIZED };

/// The kinds `finalize_cell` drops something for (the sweep skips the call for the others).
const FINALIZED: u64 = {
    let kinds = [
        CellKind::Shape,
        CellKind::BigInt,
        CellKind::RegExp,
        CellKind::Collection,
        CellKind::Promise,
        CellKind::AsyncGenerator,
        CellKind::ArrayBuffer,
        CellKind::SharedArrayBuffer,
        CellKind::FinalizationRegistry,
        CellKind::HostObject,
    ];
    let mut mask = 0u64;
    let mut i = 0;
    while i < kinds.len() {
        mask |= 1 << kinds[i] as u64;
        i += 1;
    }
    mask
};

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
            let d = &heap.get(c).data;
            external = d.external_bytes();
            let weak = d.weak;
            if weak || d.wants_compaction() {
                heap.revisit(obj);
            }
            // A weak collection's entries wait for `after_marking`: a value is live once its
            // key is. By index, as for shapes: a Map of millions of entries must not be copied.
            if !weak {
                for i in 0..heap.get(c).data.entries.len() {
                    let (k, v) = heap.get(c).data.entries[i];
                    heap.mark_value(k);
                    heap.mark_value(v);
                }
            }
            [Value::UNDEFINED; 3]
        }
        CellKind::ArrayBuffer => {
            external = heap.get(obj.cast::<ArrayBufferObject>()).external_bytes();
            [Value::UNDEFINED; 3]
        }
        CellKind::SharedArrayBuffer => {
            external = heap.get(obj.cast::<crate::object::shared_buffer::SharedArrayBufferObject>()).block.capacity();
            [Value::UNDEFINED; 3]
        }
        CellKind::Proxy => {
            let p = heap.get(obj.cast::<crate::object::ProxyObject>());
            [p.target, p.handler, Value::UNDEFINED]
        }
        CellKind::TypedArray | CellKind::DataView => {
            let buffer = heap.get(obj.cast::<crate::object::typed_array::ViewObject>()).buffer;
            [Value::object(buffer), Value::UNDEFINED, Value::UNDEFINED]
        }
        CellKind::WeakRef => {
            // The target is not traced: `after_marking` clears it if nothing else kept it.
            heap.revisit(obj);
            [Value::UNDEFINED; 3]
        }
        CellKind::FinalizationRegistry => {
            let r = obj.cast::<FinalizationRegistryObject>();
            external = heap.get(r).external_bytes();
            heap.revisit(obj);
            // Held values are strong; targets and unregister tokens are not.
            for i in 0..heap.get(r).cells.len() {
                let held = heap.get(r).cells[i].held;
                heap.mark_value(held);
            }
            for i in 0..heap.get(r).dead.len() {
                let held = heap.get(r).dead[i].held;
                heap.mark_value(held);
            }
            [heap.get(r).cleanup, Value::UNDEFINED, Value::UNDEFINED]
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

/// Whether the marking reached `v` (values that are not cells always live).
fn is_live(heap: &Heap, v: Value) -> bool {
    v.as_header().is_none_or(|h| heap.is_marked(h))
}

/// Between marking and sweeping, the work that needs to know every live cell (the cells
/// the tracer asked to revisit):
///
/// 1. Ephemerons: a weak collection's value is marked once its key is, and what that
///    reaches is traced, until nothing more is marked.
/// 2. Weak collections drop the entries whose keys died; WeakRefs whose targets died
///    clear them; a FinalizationRegistry's cells whose targets died move to its `dead`
///    list, and unregister tokens that died are forgotten.
/// 3. Collections with many tombstones drop them, and the live iterators over them move
///    to the same next entry (in a full collection, which reaches every iterator).
///
/// Returns the registries that have dead cells and no cleanup job queued yet.
pub(crate) fn after_marking(heap: &mut Heap) -> Vec<Gc<FinalizationRegistryObject>> {
    let mut weak = Vec::new();
    let mut others = Vec::new();
    loop {
        for h in heap.take_revisits() {
            if heap.kind_of(h) == CellKind::Collection && heap.get(h.cast::<CollectionObject>()).data.weak {
                weak.push(h.cast::<CollectionObject>());
            } else {
                others.push(h);
            }
        }
        let mut marked = false;
        for &c in &weak {
            for i in 0..heap.get(c).data.entries.len() {
                let (k, v) = heap.get(c).data.entries[i];
                if !k.is_empty() && is_live(heap, k) && !is_live(heap, v) {
                    heap.mark_value(v);
                    marked = true;
                }
            }
        }
        if !marked {
            break;
        }
        heap.drain();
    }
    for c in weak {
        for p in 0..heap.get(c).data.entries.len() {
            let k = heap.get(c).data.entries[p].0;
            if !k.is_empty() && !is_live(heap, k) {
                // Weak keys are objects and symbols, whose bits are their identity.
                heap.get_mut(c).data.remove(k.bits(), p);
            }
        }
        compact(heap, c, &mut []);
    }
    let mut registries = Vec::new();
    let mut iters = Vec::new();
    let mut compacted = Vec::new();
    for h in others {
        match heap.kind_of(h) {
            // Only a full collection knows every iterator over a collection (a minor one
            // traces the young and remembered cells only), so only it may move them.
            CellKind::Collection if heap.is_full_collection() => compacted.push(h.cast::<CollectionObject>()),
            CellKind::Collection => {}
            CellKind::WeakRef => {
                let w = h.cast::<WeakRefObject>();
                if !is_live(heap, heap.get(w).target) {
                    heap.get_mut(w).target = Value::UNDEFINED;
                }
            }
            CellKind::FinalizationRegistry => {
                let r = h.cast::<FinalizationRegistryObject>();
                if sweep_registry(heap, r) {
                    registries.push(r);
                }
            }
            _ => {
                // An incremental marking traced it before the program ran on: it may have
                // finished since (which drops its target).
                let it = h.cast::<IteratorObject>();
                let target = heap.get(it).target;
                if target.is_object() {
                    iters.push((target.gc::<CollectionObject>(), it));
                }
            }
        }
    }
    iters.sort_unstable_by_key(|&(c, _)| c.addr());
    for c in compacted {
        let first = iters.partition_point(|&(t, _)| t.addr() < c.addr());
        let over = iters[first..].iter().take_while(|&&(t, _)| t.addr() == c.addr());
        let its: Vec<Gc<IteratorObject>> = over.map(|&(_, it)| it).collect();
        let mut held: Vec<u32> = its.iter().map(|&it| heap.get(it).index).collect();
        compact(heap, c, &mut held);
        for (it, index) in its.into_iter().zip(held) {
            heap.get_mut(it).index = index;
        }
    }
    registries
}

/// Drops the tombstones of collection `c` if it has many, moving the positions `held`.
fn compact(heap: &mut Heap, c: Gc<CollectionObject>, held: &mut [u32]) {
    let data = &mut heap.get_mut(c).data;
    if !data.wants_compaction() {
        return;
    }
    let before = data.external_bytes();
    data.compact(held);
    let freed = before.saturating_sub(data.external_bytes());
    heap.unnote_marked_external(freed);
}

/// Moves the cells of registry `r` whose targets died to its dead list and forgets the
/// unregister tokens that died; whether the registry now needs a cleanup job.
fn sweep_registry(heap: &mut Heap, r: Gc<FinalizationRegistryObject>) -> bool {
    let mut cells = std::mem::take(&mut heap.get_mut(r).cells);
    let mut dead = std::mem::take(&mut heap.get_mut(r).dead);
    let died = dead.len();
    cells.retain_mut(|cell| {
        if !is_live(heap, cell.token) {
            cell.token = Value::EMPTY;
        }
        if is_live(heap, cell.target) {
            return true;
        }
        dead.push(FinalizationCell { target: Value::EMPTY, ..*cell });
        false
    });
    for cell in &mut dead {
        if !is_live(heap, cell.token) {
            cell.token = Value::EMPTY;
        }
    }
    let newly_dead = dead.len() > died;
    let reg = heap.get_mut(r);
    reg.cells = cells;
    reg.dead = dead;
    newly_dead && !reg.job_queued
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
            CellKind::ArrayBuffer => std::ptr::drop_in_place(&mut (*(h as *mut ArrayBufferObject)).data),
            CellKind::SharedArrayBuffer => {
                std::ptr::drop_in_place(&mut (*(h as *mut crate::object::shared_buffer::SharedArrayBufferObject)).block)
            }
            CellKind::HostObject => std::ptr::drop_in_place(&mut (*(h as *mut crate::object::HostObject)).state),
            CellKind::FinalizationRegistry => {
                let r = &mut *(h as *mut FinalizationRegistryObject);
                std::ptr::drop_in_place(&mut r.cells);
                std::ptr::drop_in_place(&mut r.dead);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::needs_drop;

    /// Every cell type that owns Rust data (whose drop does something) is of a kind the
    /// sweep finalizes, and no other is: a type that gains a `Vec` must join `FINALIZED`
    /// and `finalize_cell`, or its dead cells would leak what they own.
    #[test]
    fn the_finalized_kinds_are_the_kinds_whose_cells_own_rust_data() {
        let finalized = |k: CellKind| FINALIZED & (1 << k as u64) != 0;
        let owns = [
            (CellKind::String, needs_drop::<crate::string::JsString>()),
            (CellKind::Rope, needs_drop::<Rope>()),
            (CellKind::Symbol, needs_drop::<Symbol>()),
            (CellKind::BigInt, needs_drop::<BigIntCell>()),
            (CellKind::Shape, needs_drop::<Shape>()),
            (CellKind::Environment, needs_drop::<Environment>()),
            (CellKind::ValueVec, needs_drop::<ValueVec>()),
            (CellKind::AccessorPair, needs_drop::<AccessorPair>()),
            (CellKind::ForInState, needs_drop::<ForInState>()),
            (CellKind::Object, needs_drop::<JsObject>()),
            (CellKind::Array, needs_drop::<JsArray>()),
            (CellKind::Closure, needs_drop::<Closure>()),
            (CellKind::BoundFunction, needs_drop::<BoundFunction>()),
            (CellKind::NativeFunction, needs_drop::<NativeFunction>()),
            (CellKind::Error, needs_drop::<JsObject>()),
            (CellKind::PrimitiveObject, needs_drop::<PrimitiveObject>()),
            (CellKind::Date, needs_drop::<crate::object::DateObject>()),
            (CellKind::RegExp, needs_drop::<RegExpObject>()),
            (CellKind::Arguments, needs_drop::<JsObject>()),
            (CellKind::Generator, needs_drop::<GeneratorObject>()),
            (CellKind::Iterator, needs_drop::<IteratorObject>()),
            (CellKind::Collection, needs_drop::<CollectionObject>()),
            (CellKind::Promise, needs_drop::<PromiseObject>()),
            (CellKind::AsyncGenerator, needs_drop::<AsyncGeneratorObject>()),
            (CellKind::WeakRef, needs_drop::<WeakRefObject>()),
            (CellKind::FinalizationRegistry, needs_drop::<FinalizationRegistryObject>()),
            (CellKind::ArrayBuffer, needs_drop::<ArrayBufferObject>()),
            (CellKind::SharedArrayBuffer, needs_drop::<crate::object::shared_buffer::SharedArrayBufferObject>()),
            (CellKind::Proxy, needs_drop::<crate::object::ProxyObject>()),
            (CellKind::TypedArray, needs_drop::<crate::object::typed_array::ViewObject>()),
            (CellKind::DataView, needs_drop::<crate::object::typed_array::ViewObject>()),
            (CellKind::ModuleNamespace, needs_drop::<crate::object::NamespaceObject>()),
            (CellKind::HostObject, needs_drop::<crate::object::HostObject>()),
        ];
        assert_eq!(owns.len(), CellKind::HostObject as usize, "every kind but Free is listed");
        for (kind, owns_data) in owns {
            assert_eq!(finalized(kind), owns_data, "{kind:?}");
        }
        assert!(!finalized(CellKind::Free));
    }
}
