//! The heap on its own: allocation, marking, sweeping, finalization and accounting, with a
//! test cell type traced by test `CellOps` (the runtime's cells are tested in `object/` and
//! `runtime/`).

use std::cell::Cell;

use super::{CellHeader, CellKind, CellOps, CellType, Gc, Heap};
use crate::value::Value;

/// A cell with two values (a cons cell), of kind `ValueVec` as far as the heap knows.
#[repr(C)]
struct Pair {
    header: CellHeader,
    a: Value,
    b: Value,
}

// SAFETY: repr(C) with the header first; `pair` writes kind ValueVec.
unsafe impl CellType for Pair {
    const KIND: Option<CellKind> = Some(CellKind::ValueVec);
}

/// The bytes a pair takes: 24, a size class of its own.
const PAIR_SIZE: usize = std::mem::size_of::<Pair>();

thread_local! {
    /// Cells finalized on this thread (each test runs on its own thread).
    static FINALIZED: Cell<usize> = const { Cell::new(0) };
}

fn trace_pair(heap: &mut Heap, h: Gc<CellHeader>) -> usize {
    let p = heap.get(h.cast::<Pair>());
    let (a, b) = (p.a, p.b);
    heap.mark_value(a);
    heap.mark_value(b);
    // A pair whose first half is a number owns that many bytes outside the heap.
    a.as_number().map_or(0, |n| n as usize)
}

/// # Safety
/// As `CellOps::finalize`.
unsafe fn count_finalized(_h: *mut CellHeader) {
    FINALIZED.with(|f| f.set(f.get() + 1));
}

const OPS: CellOps = CellOps { trace: trace_pair, finalize: count_finalized, finalized: !0 };

fn pair(heap: &mut Heap, a: Value, b: Value) -> Gc<Pair> {
    heap.alloc(Pair { header: CellHeader::new(CellKind::ValueVec), a, b })
}

/// One full collection with `roots` as the only roots.
fn collect(heap: &mut Heap, roots: &[Gc<Pair>]) {
    collect_as(heap, roots, true);
}

/// One minor collection with `roots` as the only roots.
fn minor(heap: &mut Heap, roots: &[Gc<Pair>]) {
    collect_as(heap, roots, false);
}

/// A collection, its sweep finished (the tests below that do not say otherwise look at the
/// heap once every dead cell is free).
fn collect_as(heap: &mut Heap, roots: &[Gc<Pair>], full: bool) {
    collect_lazily(heap, roots, full);
    heap.finish_sweeping();
}

/// A collection that leaves the pages with live and dead cells to be swept later.
fn collect_lazily(heap: &mut Heap, roots: &[Gc<Pair>], full: bool) {
    heap.begin_collection(full);
    for &r in roots {
        heap.mark(r);
    }
    heap.drain();
    heap.sweep();
}

fn finalized() -> usize {
    FINALIZED.with(|f| f.get())
}

#[test]
fn marking_follows_references_and_sweeping_frees_the_rest() {
    let mut heap = Heap::new(1 << 30, OPS);
    let leaf = pair(&mut heap, Value::number(1.0), Value::UNDEFINED);
    let root = pair(&mut heap, Value::cell(leaf), Value::number(2.0));
    let garbage = pair(&mut heap, Value::cell(root), Value::UNDEFINED);
    let before = finalized();
    collect(&mut heap, &[root]);
    // Only the unreachable cell died (it pointed at live cells; that keeps nothing alive).
    assert_eq!(finalized() - before, 1);
    assert_eq!(heap.kind_of(garbage), CellKind::Free);
    assert_eq!(heap.kind_of(leaf), CellKind::ValueVec);
    assert_eq!(heap.get(heap.get(root).a.gc::<Pair>()).a, Value::number(1.0));
    // Marks stay (the survivors are old now); the next full collection starts afresh.
    assert!(heap.is_marked(root));
    collect(&mut heap, &[]);
    assert_eq!(finalized() - before, 3);
    assert_eq!(heap.stats().collections, 2);
}

#[test]
fn cycles_are_collected() {
    let mut heap = Heap::new(1 << 30, OPS);
    let a = pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED);
    let b = pair(&mut heap, Value::cell(a), Value::UNDEFINED);
    heap.get_mut(a).a = Value::cell(b);
    let before = finalized();
    collect(&mut heap, &[a]);
    assert_eq!(finalized() - before, 0, "a rooted cycle stays");
    collect(&mut heap, &[]);
    assert_eq!(finalized() - before, 2, "an unrooted cycle goes");
}

#[test]
fn freed_cells_are_reused_and_live_bytes_are_counted() {
    let mut heap = Heap::new(1 << 30, OPS);
    let dead: Vec<usize> = (0..100).map(|_| pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED).addr()).collect();
    let keep = pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED);
    collect(&mut heap, &[keep]);
    let live = heap.stats().live_bytes;
    assert!(live >= std::mem::size_of::<Pair>() && live < 100 * std::mem::size_of::<Pair>(), "{live}");
    assert_eq!(heap.stats().allocated_since_gc, 0);
    let again = pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED);
    assert!(dead.contains(&again.addr()), "a new cell takes a freed slot of its size class");
}

#[test]
fn large_cells_and_trailing_data() {
    let mut heap = Heap::new(1 << 30, OPS);
    let big = heap.alloc_trailing(
        Pair { header: CellHeader::new(CellKind::ValueVec), a: Value::NULL, b: Value::NULL },
        1000,
        7u32,
    );
    // SAFETY: allocated with 1000 trailing u32s.
    unsafe {
        assert!(heap.trailing::<Pair, u32>(big, 1000).iter().all(|&x| x == 7));
        heap.trailing_mut::<Pair, u32>(big, 1000)[999] = 9;
        assert_eq!(heap.trailing::<Pair, u32>(big, 1000)[999], 9);
    }
    let footprint = heap.stats().footprint;
    let before = finalized();
    collect(&mut heap, &[big]);
    assert_eq!(finalized() - before, 0);
    collect(&mut heap, &[]);
    assert_eq!(finalized() - before, 1);
    assert!(heap.stats().footprint < footprint, "a dead large cell returns its memory");
}

#[test]
fn the_limit_counts_what_is_allocated() {
    let mut heap = Heap::new(64 * 1024, OPS);
    assert!(!heap.over_limit());
    let mut roots = Vec::new();
    while !heap.over_limit() {
        roots.push(pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED));
    }
    collect(&mut heap, &roots);
    assert!(heap.over_limit(), "live cells still exceed the limit");
    collect(&mut heap, &[]);
    assert!(!heap.over_limit(), "collecting them brings the heap back under");
}

#[test]
fn the_limit_counts_what_cells_own_outside_the_heap() {
    let mut heap = Heap::new(1 << 20, OPS);
    let p = pair(&mut heap, Value::number((64 << 20) as f64), Value::UNDEFINED);
    heap.note_external(64 << 20);
    assert!(heap.over_limit(), "noted bytes count as allocated");
    assert!(heap.should_collect(), "and bring the next collection nearer");
    collect(&mut heap, &[p]);
    assert!(heap.over_limit(), "a live cell's outside bytes count as live");
    collect(&mut heap, &[]);
    assert!(!heap.over_limit(), "a dead cell's do not");
}

#[test]
fn dropping_the_heap_finalizes_every_cell() {
    let before = finalized();
    {
        let mut heap = Heap::new(1 << 30, OPS);
        for _ in 0..10 {
            pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED);
        }
        heap.alloc_trailing(
            Pair { header: CellHeader::new(CellKind::ValueVec), a: Value::NULL, b: Value::NULL },
            4096,
            0u8,
        );
    }
    assert_eq!(finalized() - before, 11);
}

/// A test type of another kind than `Pair`.
#[repr(C)]
struct Other {
    header: CellHeader,
}

// SAFETY: repr(C) with the header first.
unsafe impl CellType for Other {
    const KIND: Option<CellKind> = Some(CellKind::Shape);
}

#[test]
#[should_panic(expected = "cast to another type")]
fn casting_a_cell_to_another_type_stops_in_every_build() {
    let mut heap = Heap::new(1 << 30, OPS);
    let p = pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED);
    let _ = p.cast::<Other>();
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "use of a freed cell")]
fn reading_a_freed_cell_stops() {
    let mut heap = Heap::new(1 << 30, OPS);
    let keep = pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED);
    let dead = pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED);
    collect(&mut heap, &[keep]);
    let _ = heap.get(dead);
}

#[test]
#[should_panic(expected = "used as a cell pointer")]
fn a_number_is_not_a_cell_pointer() {
    let _ = Value::number(1.5).gc::<Pair>();
}

#[test]
fn pages_a_sweep_empties_are_kept_for_the_next_allocations() {
    let mut heap = Heap::new(1 << 30, OPS);
    // Three pages' worth of pairs, all garbage once the bump page moves on.
    let per_page = super::heap::PAGE_SIZE / std::mem::size_of::<Pair>();
    for _ in 0..3 * per_page {
        pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED);
    }
    let mapped = heap.stats().footprint;
    collect(&mut heap, &[]);
    // The emptied pages stay mapped (the footprint counts them) ...
    assert_eq!(heap.stats().footprint, mapped);
    // ... and the same amount of allocation after the collection maps nothing new.
    for _ in 0..3 * per_page {
        pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED);
    }
    assert_eq!(heap.stats().footprint, mapped);
}

#[test]
fn allocation_takes_a_pages_free_cells_in_address_order() {
    let mut heap = Heap::new(1 << 30, OPS);
    let cells: Vec<Gc<Pair>> = (0..64).map(|_| pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED)).collect();
    let keep: Vec<Gc<Pair>> = cells.iter().step_by(2).copied().collect();
    collect(&mut heap, &keep);
    let freed: Vec<usize> = cells.iter().skip(1).step_by(2).map(|c| c.addr()).collect();
    let again: Vec<usize> = (0..32).map(|_| pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED).addr()).collect();
    assert_eq!(again, freed);
}

#[test]
fn marking_many_cells_through_the_prefetch_queue_reaches_them_all() {
    let mut heap = Heap::new(1 << 30, OPS);
    // A list longer than the prefetch queue, and a root marked twice.
    let mut head = pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED);
    for i in 0..100 {
        head = pair(&mut heap, Value::number(0.0), Value::cell(head));
        if i % 10 == 0 {
            pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED);
        }
    }
    let before = finalized();
    collect(&mut heap, &[head, head]);
    assert_eq!(finalized() - before, 10, "only the cells off the list died");
    collect(&mut heap, &[]);
    assert_eq!(finalized() - before, 10 + 101);
}

#[test]
fn a_minor_collection_frees_young_garbage_and_keeps_old_cells() {
    let mut heap = Heap::new(1 << 30, OPS);
    let old = pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED);
    collect(&mut heap, &[old]);
    let young_garbage = pair(&mut heap, Value::cell(old), Value::UNDEFINED);
    let young_kept = pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED);
    let before = finalized();
    // Nothing roots `old` any more, but a minor collection does not look at old cells.
    minor(&mut heap, &[young_kept]);
    assert_eq!(finalized() - before, 1);
    assert_eq!(heap.kind_of(young_garbage), CellKind::Free);
    assert_eq!(heap.kind_of(old), CellKind::ValueVec);
    // The survivor is old now: the next minor collection keeps it unrooted too.
    minor(&mut heap, &[]);
    assert_eq!(finalized() - before, 1);
    // A full collection finds both dead.
    collect(&mut heap, &[]);
    assert_eq!(finalized() - before, 3);
    assert_eq!(heap.stats().full_collections, 2);
}

#[test]
fn the_write_barrier_keeps_young_cells_stored_into_old_ones() {
    let mut heap = Heap::new(1 << 30, OPS);
    let old = pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED);
    collect(&mut heap, &[old]);
    assert_eq!(heap.stats().remembered, 0);
    let young = pair(&mut heap, Value::number(1.0), Value::UNDEFINED);
    let inner = pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED);
    heap.get_mut(young).b = Value::cell(inner);
    // Young cells are not remembered; the old one is, once.
    assert_eq!(heap.stats().remembered, 0);
    heap.get_mut(old).a = Value::cell(young);
    heap.get_mut(old).b = Value::cell(young);
    assert_eq!(heap.stats().remembered, 1);
    let before = finalized();
    minor(&mut heap, &[old]);
    assert_eq!(finalized() - before, 0, "reached through the remembered old cell");
    assert!(heap.is_marked(young) && heap.is_marked(inner));
    assert_eq!(heap.stats().remembered, 0, "a collection empties the remembered set");
    assert_eq!(heap.get(heap.get(old).a.gc::<Pair>()).a, Value::number(1.0));
}

// Verification exists in debug builds only (`Heap::mark` skips it in release).
#[cfg(debug_assertions)]
#[test]
fn verification_finds_a_write_that_missed_the_barrier() {
    let mut heap = Heap::new(1 << 30, OPS);
    let old = pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED);
    collect(&mut heap, &[old]);
    let young = pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED);
    // SAFETY: `old` is live; the write deliberately bypasses `get_mut` and its barrier.
    unsafe { (*old.as_ptr()).a = Value::cell(young) };
    heap.begin_collection(false);
    heap.mark(old);
    heap.drain();
    heap.begin_verify();
    heap.mark(old);
    let missed = heap.end_verify();
    assert_eq!(missed, vec![(young.addr(), CellKind::ValueVec, old.addr())]);
    heap.sweep();
    // With the barrier, nothing is missed.
    let young = pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED);
    heap.get_mut(old).a = Value::cell(young);
    heap.begin_collection(false);
    heap.mark(old);
    heap.drain();
    heap.begin_verify();
    heap.mark(old);
    assert_eq!(heap.end_verify(), vec![]);
    heap.sweep();
}

#[test]
fn collections_turn_full_when_most_young_cells_survive() {
    let mut heap = Heap::new(1 << 30, OPS);
    let keep: Vec<Gc<Pair>> = (0..1000).map(|_| pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED)).collect();
    minor(&mut heap, &keep);
    assert!(heap.wants_full_collection(), "all survived");
    for _ in 0..1000 {
        pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED);
    }
    collect(&mut heap, &keep);
    assert!(!heap.wants_full_collection(), "none of the young cells survived");
}

#[test]
fn bytes_an_old_cell_gains_outside_the_heap_bring_a_full_collection() {
    // An old cell that owns more and more memory outside the heap (a Map filling with
    // tombstones): minor collections must notice, or no full collection ever comes.
    let mut heap = Heap::new(1 << 30, OPS);
    let old = pair(&mut heap, Value::number(1000.0), Value::UNDEFINED);
    collect(&mut heap, &[old]);
    let young: Vec<Gc<Pair>> = (0..1000).map(|_| pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED)).collect();
    minor(&mut heap, &[]);
    drop(young);
    assert!(!heap.wants_full_collection(), "the young cells died");
    heap.get_mut(old).a = Value::number(64.0 * 1024.0 * 1024.0);
    minor(&mut heap, &[]);
    assert!(heap.stats().live_bytes >= 64 << 20, "{:?}", heap.stats());
    assert!(heap.wants_full_collection());
}

#[test]
fn a_page_with_live_and_dead_cells_is_swept_when_its_class_allocates_again() {
    let mut heap = Heap::new(1 << 30, OPS);
    let cells: Vec<Gc<Pair>> = (0..64).map(|_| pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED)).collect();
    let keep: Vec<Gc<Pair>> = cells.iter().step_by(2).copied().collect();
    let before = finalized();
    collect_lazily(&mut heap, &keep, true);
    // The live size is known before any sweep: the marking counted the page's cells.
    assert_eq!(heap.stats().live_bytes, 32 * PAIR_SIZE, "{:?}", heap.stats());
    // The dead cells are still as they were.
    assert_eq!(finalized() - before, 0);
    assert_eq!(heap.kind_of(cells[1]), CellKind::ValueVec);
    // Allocating sweeps the page: its dead cells are finalized and reused in order.
    let again = pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED);
    assert_eq!(finalized() - before, 32);
    assert_eq!(again.addr(), cells[1].addr());
    assert_eq!(heap.kind_of(cells[3]), CellKind::Free);
    assert_eq!(heap.stats().live_bytes, 32 * PAIR_SIZE);
}

#[test]
fn a_page_whose_cells_all_live_is_not_swept() {
    let mut heap = Heap::new(1 << 30, OPS);
    let cells: Vec<Gc<Pair>> = (0..64).map(|_| pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED)).collect();
    collect_lazily(&mut heap, &cells, true);
    // The page is full up to its bump pointer: the next cell comes from there.
    let next = pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED);
    assert_eq!(next.addr(), cells[63].addr() + PAIR_SIZE);
    assert!(cells.iter().all(|&c| heap.kind_of(c) == CellKind::ValueVec));
}

#[test]
fn the_next_collection_sweeps_what_the_last_one_left_first() {
    // Dead cells left unswept by one full collection must not look marked to the next,
    // which switches the mark that means "marked".
    let mut heap = Heap::new(1 << 30, OPS);
    let cells: Vec<Gc<Pair>> = (0..8).map(|_| pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED)).collect();
    let before = finalized();
    collect_lazily(&mut heap, &cells[..4], true);
    assert_eq!(finalized() - before, 0);
    collect_lazily(&mut heap, &cells[..2], true);
    // The four cells the first collection left are freed as the second begins; the two it
    // found dead wait for the page's next sweep.
    assert_eq!(finalized() - before, 4);
    assert!(!heap.is_marked(cells[5]));
    assert_eq!(heap.kind_of(cells[5]), CellKind::Free);
    heap.finish_sweeping();
    assert_eq!(finalized() - before, 6);
    assert_eq!(heap.kind_of(cells[2]), CellKind::Free);
    assert_eq!(heap.kind_of(cells[1]), CellKind::ValueVec);
    // A minor collection after a lazy full one counts the old cells with the young.
    collect_lazily(&mut heap, &cells[..2], true);
    let young = pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED);
    collect_lazily(&mut heap, &[young], false);
    heap.finish_sweeping();
    assert_eq!(heap.kind_of(young), CellKind::ValueVec);
    assert_eq!(heap.kind_of(cells[0]), CellKind::ValueVec, "old cells stay through a minor collection");
}

#[test]
fn pages_live_and_dead_are_counted_the_same_lazily_or_not() {
    // Many pages, every third cell kept: the live size after the lazy sweep is the one
    // a sweep of everything finds.
    let per_page = super::heap::PAGE_SIZE / PAIR_SIZE;
    let mut lazy = Heap::new(1 << 30, OPS);
    let cells: Vec<Gc<Pair>> = (0..3 * per_page).map(|_| pair(&mut lazy, Value::UNDEFINED, Value::UNDEFINED)).collect();
    let keep: Vec<Gc<Pair>> = cells.iter().step_by(3).copied().collect();
    collect_lazily(&mut lazy, &keep, true);
    let counted = lazy.stats().live_bytes;
    lazy.finish_sweeping();
    collect(&mut lazy, &keep);
    assert_eq!(lazy.stats().live_bytes, counted);
    assert_eq!(counted, keep.len() * PAIR_SIZE);
}

/// A cell with no references, of kind `String` as far as the heap knows (the test tracer
/// is never asked to trace one: nothing marks it).
#[repr(C)]
struct Leaf {
    header: CellHeader,
    bytes: [u8; 16],
}

// SAFETY: repr(C) with the header first; allocated below with kind String.
unsafe impl CellType for Leaf {
    const KIND: Option<CellKind> = Some(CellKind::String);
    const LEAF: bool = true;
}

#[test]
fn leaf_cells_get_pages_of_their_own() {
    // Pairs and leaves are both 24 bytes (one size class), allocated in turn.
    let mut heap = Heap::new(1 << 30, OPS);
    let page_of = |addr: usize| addr >> 18;
    let mut pairs = Vec::new();
    let mut leaves = Vec::new();
    for _ in 0..2 * (super::heap::PAGE_SIZE / PAIR_SIZE) {
        pairs.push(pair(&mut heap, Value::UNDEFINED, Value::UNDEFINED));
        leaves.push(heap.alloc(Leaf { header: CellHeader::new(CellKind::String), bytes: [0; 16] }));
    }
    let pair_pages: std::collections::HashSet<usize> = pairs.iter().map(|p| page_of(p.addr())).collect();
    assert!(leaves.iter().all(|l| !pair_pages.contains(&page_of(l.addr()))));
    assert_eq!(pair_pages.len(), 2, "the pairs fill their pages");
    // The leaves die with nothing referring to them; the pairs live on.
    collect(&mut heap, &pairs);
    assert_eq!(heap.stats().live_bytes, pairs.len() * PAIR_SIZE);
}

#[test]
fn pages_committed_in_chunks_and_given_back_are_usable_again() {
    let mut heap = Heap::new(1 << 30, OPS);
    // Fifty pages' worth of pairs: past the empty pages a collection keeps (`SPARE_PAGES`)
    // and several of the region's commit chunks.
    let per_page = super::heap::PAGE_SIZE / std::mem::size_of::<Pair>();
    let first: Vec<Gc<Pair>> =
        (0..50 * per_page).map(|i| pair(&mut heap, Value::number(i as f64), Value::NULL)).collect();
    assert!(first.iter().enumerate().all(|(i, &p)| heap.get(p).a == Value::number(i as f64)));
    // All garbage: the collection keeps a few empty pages and decommits the rest ...
    collect(&mut heap, &[]);
    // ... which the next allocations commit again, zeroed and writable.
    let second: Vec<Gc<Pair>> =
        (0..50 * per_page).map(|i| pair(&mut heap, Value::NULL, Value::number(i as f64))).collect();
    assert!(second
        .iter()
        .enumerate()
        .all(|(i, &p)| heap.get(p).b == Value::number(i as f64) && heap.get(p).a == Value::NULL));
}

/// A chain of `n` old cells from a root: (root, cells in order).
fn old_chain(heap: &mut Heap, n: usize) -> (Gc<Pair>, Vec<Gc<Pair>>) {
    let mut cells = Vec::with_capacity(n);
    let mut next = Value::UNDEFINED;
    for _ in 0..n {
        let c = pair(heap, next, Value::UNDEFINED);
        next = Value::cell(c);
        cells.push(c);
    }
    cells.reverse();
    let root = pair(heap, next, Value::UNDEFINED);
    collect(heap, &[root]);
    (root, cells)
}

/// Marks incrementally from `root` until the marking has nothing left, running `between`
/// after the first increment, then ends it with `root` and the cells `between` returned
/// as the roots.
fn mark_incrementally(heap: &mut Heap, root: Gc<Pair>, between: impl FnOnce(&mut Heap) -> Vec<Gc<Pair>>) {
    heap.begin_collection(true);
    heap.mark(root);
    heap.begin_marking(true);
    assert!(!heap.mark_increment(), "the chain takes more than one increment");
    assert!(heap.is_marking());
    let roots = between(heap);
    while !heap.mark_increment() {}
    heap.mark(root);
    for r in roots {
        heap.mark(r);
    }
    heap.finish_marking();
    assert!(!heap.is_marking());
}

#[test]
fn incremental_marking_keeps_what_the_program_moved_while_it_ran() {
    let mut heap = Heap::new(1 << 30, OPS);
    let (root, chain) = old_chain(&mut heap, 1000);
    let last = chain[999];
    let mut young_in_old = None;
    let before = finalized();
    mark_incrementally(&mut heap, root, |heap| {
        // The first increment traced the start of the chain. The cell at its end, not
        // reached yet, moves into a traced cell, and the chain is cut before it.
        assert!(heap.is_marked(chain[1]) && !heap.is_marked(last));
        heap.get_mut(chain[1]).b = Value::cell(last);
        heap.get_mut(chain[998]).a = Value::UNDEFINED;
        // Cells made while marking: one stored into a traced cell, one held by a root.
        let y = pair(heap, Value::number(7.0), Value::UNDEFINED);
        heap.get_mut(chain[2]).b = Value::cell(y);
        young_in_old = Some(y);
        vec![pair(heap, Value::UNDEFINED, Value::UNDEFINED)]
    });
    heap.sweep();
    heap.finish_sweeping();
    assert_eq!(finalized() - before, 0, "every cell is still reachable");
    assert_eq!(heap.kind_of(last), CellKind::ValueVec);
    let y = young_in_old.expect("made between increments");
    assert_eq!(heap.get(y).a, Value::number(7.0));
    assert!(heap.is_marked(y));
    // The revisit list and the remembered set are left empty.
    assert_eq!(heap.stats().remembered, 0);
}

#[test]
fn incremental_marking_frees_what_died_before_it_was_reached() {
    let mut heap = Heap::new(1 << 30, OPS);
    let (root, chain) = old_chain(&mut heap, 1000);
    let before = finalized();
    mark_incrementally(&mut heap, root, |heap| {
        // Cut the chain after the part the first increment traced.
        heap.get_mut(chain[499]).a = Value::UNDEFINED;
        vec![]
    });
    heap.sweep();
    heap.finish_sweeping();
    assert_eq!(finalized() - before, 500);
    assert_eq!(heap.kind_of(chain[500]), CellKind::Free);
}

// Verification exists in debug builds only (`Heap::mark` skips it in release).
#[cfg(debug_assertions)]
#[test]
fn verification_finds_a_write_that_missed_the_barrier_while_marking_incrementally() {
    let mut heap = Heap::new(1 << 30, OPS);
    let (root, chain) = old_chain(&mut heap, 1000);
    let last = chain[999];
    mark_incrementally(&mut heap, root, |heap| {
        // SAFETY: both cells are live; the write deliberately bypasses the barrier.
        unsafe { (*chain[1].as_ptr()).b = Value::cell(last) };
        heap.get_mut(chain[998]).a = Value::UNDEFINED;
        vec![]
    });
    heap.begin_verify();
    heap.mark(root);
    assert_eq!(heap.end_verify(), vec![(last.addr(), CellKind::ValueVec, chain[1].addr())]);
    heap.sweep();
}
