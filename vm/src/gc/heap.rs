//! The allocator and the collector's mark and sweep phases.
//!
//! Small cells (up to 2048 bytes) live in 256 KiB pages, each page holding cells of one size
//! class; leaf cells (`CellType::LEAF`: strings, BigInts) have classes of their own, so the
//! pages of the cells that refer to others hold none of them. A class allocates page by page (see `SizeClass`), from a page's free cells, then
//! from its untouched rest, then from a fresh page. Pages are committed one by one in an
//! address range the heap reserves (`Region`), so untouched parts of a fresh page cost no
//! memory, and a page left empty by a sweep is given back. Larger cells are allocated one by
//! one from the system allocator.
//!
//! The collector is a non-moving, generational mark-sweep with sticky mark bits (as in
//! JSC's collector), which marks large heaps incrementally (below): a cell that survives a
//! collection keeps its mark and is old from then on. A *minor* collection marks only from the roots and from the old cells a
//! write barrier remembered, stops at old cells (they are marked already) and sweeps only
//! the pages allocated into since the last collection; old cells that died wait for the next
//! *full* collection, which marks everything anew (the meaning of "marked" flips between two
//! values, so old marks need no clearing) and sweeps every page.
//!
//! ```text
//!  mark byte:  0 young (allocated since the last collection) or, in a full collection,
//!                not reached yet
//!              BLACK  old, or reached by this collection (BLACK is 1 or 2; a full
//!                collection switches it, which makes every old cell unmarked)
//!              BLACK | REMEMBERED  old and in the remembered set
//! ```
//!
//! The write barrier ([`Heap::write_barrier`]) runs on every write into a cell: `get_mut`
//! and the other writable views of a cell call it, and compiled code does the same check
//! inline. It remembers an old cell the first time it is written after a collection (the
//! write may store a pointer to a young cell, which a minor collection must then reach).
//! `RuntimeOptions::gc_verify` (debug builds) checks after each minor marking and each
//! incremental one, by tracing the whole heap again, that no cell reachable from the roots
//! was left unmarked.
//!
//! The roots are marked by the runtime (`Runtime::collect_garbage`), which starts with
//! [`Heap::begin_collection`], then calls [`Heap::drain`] to trace transitively, lets weak
//! tables drop unmarked entries, and calls [`Heap::sweep`].
//!
//! Sweeping is lazy. The marking counts the live cells of each page as it marks them (a
//! page's counter is found from a cell's address: see `Region`), so `sweep` knows the live
//! size at once and touches only the pages with nothing live (given back) and those
//! outside the reservation; a page whose cells all live needs no sweep, and the others are
//! swept one at a time when their class next allocates from them, while their lines are
//! about to be used anyway. The next collection first sweeps what is left
//! ([`Heap::finish_sweeping`]): until then a dead cell in an unswept page keeps its kind
//! and its old mark, and is finalized when its page is swept.
//!
//! Collection policy: a collection is due when the allocation budget since the last one is
//! spent. It is minor while young cells mostly die; when most of them survived the last
//! collection (a program that builds a large structure), minor collections would trace the
//! survivors once more for nothing, and collections are full, with a budget of
//! `max(MIN_BUDGET, live * (GROWTH - 1))` as for a plain mark-sweep. A full collection also
//! comes once the old cells outgrow `GROWTH` times the live size the last full one left.
//!
//! Incremental marking: a full collection of a large heap (`INCREMENTAL_MIN_LIVE`) marks
//! the roots and then goes on in increments, one each time the program has allocated
//! `SLICE_BYTES`, instead of stopping the program for the whole marking (a pause of 25 ms
//! on splay's 76 MiB; its increments take 1.5 ms). While it runs, the write barrier works
//! as between collections and remembers every old cell written: each increment first
//! traces again the remembered cells the marking had traced already (a write may have
//! given one a pointer to a cell the marking had not reached; Steele's barrier), so no
//! traced cell refers to an untraced one but through the remembered set or the mark
//! stack. Cells allocated meanwhile are young (unmarked) and live only if reached. The
//! last step stops the program: the roots are marked again, the remembered cells traced,
//! and the marking drained; then the weak tables and the sweep go as in any collection.
//! The barrier needs no change for this: the generational invariant (every write of a
//! pointer into a cell that was marked goes through it) is the one incremental marking
//! needs, since the barrier does not look at what the pointer points to.

use std::alloc::Layout;
use std::mem::{align_of, size_of};
use std::ptr::{self, NonNull};

use super::{CellHeader, CellKind, CellOps, CellType, Gc};
use crate::value::Value;

/// Size of a small-cell page.
pub const PAGE_SIZE: usize = 1 << PAGE_SHIFT;
const PAGE_SHIFT: usize = 18;
/// Address space reserved for pages, as a multiple of the heap's limit (pages hold free
/// cells too), and at most `MAX_RESERVE` bytes; a heap that needs more maps pages outside
/// the reservation.
const RESERVE_PER_LIMIT: usize = 2;
const MAX_RESERVE: usize = 64 << 30;
/// Empty pages a heap keeps mapped for reuse (8 MiB).
const SPARE_PAGES: usize = 32;
/// Largest cell served from pages.
pub const MAX_SMALL: usize = 2048;
/// Minimum allocation between collections.
const MIN_BUDGET: usize = 8 * 1024 * 1024;
/// Heap growth factor relative to the live size after a collection.
const GROWTH_NUM: usize = 3;
const GROWTH_DEN: usize = 2;
/// The mark bit that says an old cell is in the remembered set.
const REMEMBERED: u8 = 4;
/// The mark bit a `gc_verify` trace sets on the cells it reached (cleared when it ends).
const VISITED: u8 = 8;
/// Young cells surviving a collection above this share (in 1/256) make the next one full.
const FULL_SURVIVAL: usize = 128;
/// A full collection of a heap with at least this many live bytes marks incrementally.
const INCREMENTAL_MIN_LIVE: usize = 16 * 1024 * 1024;
/// While marking incrementally, the program allocates this many bytes between increments.
const SLICE_BYTES: usize = 256 * 1024;
/// The least allocation an incremental marking is paced to finish within.
const MIN_ALLOWANCE: usize = 2 * 1024 * 1024;
/// The least number of cells an increment traces.
const MIN_SLICE_CELLS: usize = 4096;

/// How many marks ahead a cell's header is prefetched before it is read (see `Heap::mark`).
/// On splay, 16 marked 1.04-1.07x faster than 8 (32: no better).
const PREFETCH_DISTANCE: usize = 16;
/// How far below the cell being swept the sweep prefetches.
const SWEEP_PREFETCH_BYTES: usize = 1024;

/// Cell sizes: every multiple of 8 up to 128 bytes (most cells are a header and a few 8-byte
/// fields: an array is 40 bytes, an object with one inline slot 40, a rope 40; with classes 16
/// bytes apart they took 48), then coarser steps.
const SIZE_CLASSES: [u32; 35] = [
    16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120, 128, 144, 160, 176, 192, 208, 224, 240, 256, 320, 384,
    448, 512, 640, 768, 896, 1024, 1280, 1536, 1792, 2048,
];

/// Size class index for each size in 8-byte units (index `(size + 7) / 8`).
const CLASS_OF: [u8; MAX_SMALL / 8 + 1] = {
    let mut table = [0u8; MAX_SMALL / 8 + 1];
    let mut units = 0;
    while units <= MAX_SMALL / 8 {
        let size = units * 8;
        let mut c = 0;
        while (SIZE_CLASSES[c] as usize) < size {
            c += 1;
        }
        table[units] = c as u8;
        units += 1;
    }
    table
};

/// A free cell: header (kind `Free`) followed by the next free cell.
#[repr(C)]
struct FreeCell {
    header: CellHeader,
    next: *mut FreeCell,
}

struct Page {
    base: NonNull<u8>,
    /// The page's place in the heap's reservation (`Region`), `NO_SLOT` if it lies outside.
    slot: usize,
    /// Bytes of the page handed out so far (cells beyond are untouched).
    used: usize,
    /// The page's free cells in ascending order, while the class is not allocating from it.
    free: *mut FreeCell,
    /// Cells were allocated in the page since the last collection (a minor collection
    /// sweeps only these pages).
    young: bool,
    /// The last collection left the page to be swept when it is next allocated from (or
    /// when the next collection begins): `free` is not built yet, and the dead cells still
    /// look like cells.
    unswept: bool,
    /// Live cells: as the last collection's marking counted them.
    live: u32,
}

/// `Page::slot` of a page outside the reservation.
const NO_SLOT: usize = usize::MAX;

/// The address space the heap reserves for its pages, page by page. A cell's page is then
/// found from its address with a subtraction and a shift, which lets the marking count the
/// live cells of each page as it goes (`Heap::marked`): a collection knows how much is
/// live without reading every cell, and leaves the pages to be swept one by one as
/// allocation reaches them (lazy sweeping, as JSC's collector does).
struct Region {
    base: usize,
    /// Pages the reservation has room for.
    slots: usize,
    /// Slots handed out so far, in address order; `free` lists those given back since.
    next: usize,
    free: Vec<usize>,
    /// The fresh slots below this one (from `next` on) are readable and writable already:
    /// they are committed `COMMIT_CHUNK` at a time.
    committed: usize,
}

/// Fresh pages committed with one `mmap`: 2 MiB of address space, no memory until touched.
/// One page at a time, a hello-world program made eight `mmap` calls, each splitting the
/// reservation's mapping, before it printed.
const COMMIT_CHUNK: usize = 8;

/// The cells of one size. A class allocates from one page at a time (its cursor page):
/// first the free cells the last sweep found there, in address order, then the untouched
/// rest of the page, then it moves on to the next page. Allocation thus walks memory
/// forwards instead of hopping between pages along one heap-wide free list (on the splay
/// benchmark, the hops cost a cache miss per allocation: a tenth of the run).
struct SizeClass {
    cell_size: usize,
    /// The free cells left in the cursor page.
    free: *mut FreeCell,
    /// The next cell of the cursor page's untouched rest, and how many bytes of it are left
    /// (0 when the class is not bumping): allocation from it is inline, without a call per
    /// cell. The page's `used` lags behind while it lasts (see `retire_bump`).
    bump: *mut u8,
    bump_left: usize,
    pages: Vec<Page>,
    /// Index in `pages` of the page being allocated from (`pages.len()` once all are full).
    cursor: usize,
}

struct LargeCell {
    ptr: NonNull<u8>,
    size: usize,
}

/// The state of a `gc_verify` trace (see [`Heap::begin_verify`]).
#[derive(Default)]
struct Verify {
    /// Cells reached (their headers carry `VISITED` until the trace ends).
    seen: Vec<usize>,
    /// Cells reached and not traced yet.
    stack: Vec<usize>,
    /// The cell being traced (0 while the roots are marked).
    current: usize,
    /// Reachable cells the marking left unmarked: (cell, kind, referrer).
    missed: Vec<(usize, CellKind, usize)>,
}

/// Counters reported by `Heap::stats`.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeapStats {
    /// Collections so far.
    pub collections: u64,
    /// How many of them were full.
    pub full_collections: u64,
    /// How many of the full ones marked incrementally.
    pub incremental_collections: u64,
    /// Old cells the write barrier remembered since the last collection.
    pub remembered: usize,
    /// Bytes in live cells after the last collection.
    pub live_bytes: usize,
    /// Bytes allocated since the last collection.
    pub allocated_since_gc: usize,
    /// Bytes of mapped pages plus large cells.
    pub footprint: usize,
    /// The largest footprint seen.
    pub peak_footprint: usize,
}

/// The garbage-collected heap. See the module docs of `gc`.
pub struct Heap {
    classes: Vec<SizeClass>,
    large: Vec<LargeCell>,
    mark_stack: Vec<Gc<CellHeader>>,
    /// Cells marked but not yet greyed, whose headers are being prefetched (0: none); see
    /// [`Heap::mark`].
    prefetched: [usize; PREFETCH_DISTANCE],
    prefetched_next: usize,
    allocated_since_gc: usize,
    live_bytes: usize,
    /// Bytes the cells marked so far own outside the heap (summed by `drain`, part of
    /// `live_bytes` after the sweep).
    marked_external: usize,
    /// Cells the tracer asked to see again once marking is done (see [`Heap::revisit`]).
    revisits: Vec<Gc<CellHeader>>,
    budget: usize,
    limit: usize,
    collections: u64,
    full_collections: u64,
    incremental_collections: u64,
    /// The mark of a marked (old) cell: 1 or 2, switched by each full collection.
    black: u8,
    /// Whether the collection under way is full.
    full: bool,
    /// Whether a full collection's marking is under way between increments (see the
    /// module docs).
    marking: bool,
    /// Cells an increment of marking traces.
    slice_cells: usize,
    /// The allocation an incremental marking is paced to finish within: it starts that
    /// much before the budget is spent.
    allowance: usize,
    /// Cells the last full collection marked.
    last_full_cells: usize,
    /// Old cells written since the last collection (see [`Heap::write_barrier`]).
    remembered: Vec<Gc<CellHeader>>,
    /// Cells allocated since the last collection, and how many of them the marking reached.
    young_cells: usize,
    young_survivors: usize,
    /// Whether most young cells survived the last collection (the next one is full).
    survivors_many: bool,
    /// Bytes (with their external bytes) of the cells the last full collection left.
    live_after_full: usize,
    /// Bytes of the live cells after the last collection (`live_bytes` without the bytes
    /// the cells own outside the heap).
    live_cells_bytes: usize,
    /// A `gc_verify` trace under way (debug builds).
    verify: Option<Box<Verify>>,
    mapped_pages: usize,
    /// Pages a sweep found empty (with their slots), kept mapped for the next ones a class
    /// needs (up to `SPARE_PAGES`): a program that allocates as fast as it frees would
    /// otherwise unmap and map (and have the kernel zero) pages at every collection.
    spare: Vec<(NonNull<u8>, usize)>,
    region: Region,
    /// For each slot of the region handed out, how many cells of the page there the
    /// marking under way greyed (a full collection: its live cells; a minor one: its young
    /// survivors).
    marked: Vec<u32>,
    large_bytes: usize,
    peak_footprint: usize,
    ops: CellOps,
    /// Non-zero once the allocation budget is spent, until the next collection: compiled
    /// loops poll it (with the interrupt flag) at their back-edges. Boxed, so its address
    /// stays put while code that embeds it lives.
    due: Box<std::cell::Cell<u32>>,
}

impl Heap {
    /// An empty heap that allows at most `limit` bytes of cells, whose cells `ops` traces
    /// and finalizes.
    pub(crate) fn new(limit: usize, ops: CellOps) -> Heap {
        Heap {
            ops,
            // The classes of cells that refer to others, then those of leaf cells.
            classes: SIZE_CLASSES
                .iter()
                .chain(&SIZE_CLASSES)
                .map(|&s| SizeClass {
                    cell_size: s as usize,
                    free: ptr::null_mut(),
                    bump: ptr::null_mut(),
                    bump_left: 0,
                    pages: Vec::new(),
                    cursor: 0,
                })
                .collect(),
            large: Vec::new(),
            spare: Vec::new(),
            region: Region::reserve(limit),
            marked: Vec::new(),
            mark_stack: Vec::new(),
            prefetched: [0; PREFETCH_DISTANCE],
            prefetched_next: 0,
            allocated_since_gc: 0,
            live_bytes: 0,
            marked_external: 0,
            revisits: Vec::new(),
            budget: MIN_BUDGET,
            limit,
            collections: 0,
            full_collections: 0,
            incremental_collections: 0,
            black: 1,
            full: true,
            marking: false,
            slice_cells: MIN_SLICE_CELLS,
            allowance: 0,
            last_full_cells: 0,
            remembered: Vec::new(),
            young_cells: 0,
            young_survivors: 0,
            survivors_many: false,
            live_after_full: 0,
            live_cells_bytes: 0,
            verify: None,
            mapped_pages: 0,
            large_bytes: 0,
            peak_footprint: 0,
            due: Box::new(std::cell::Cell::new(0)),
        }
    }

    /// The address of the word that is non-zero while a collection is due (read by compiled
    /// code; 4 bytes).
    #[cfg(feature = "jit")]
    pub(crate) fn due_address(&self) -> u64 {
        self.due.as_ptr() as u64
    }

    /// Reads a cell.
    #[inline(always)]
    pub(crate) fn get<T: CellType>(&self, g: Gc<T>) -> &T {
        self.check(g);
        // SAFETY: `g` points at a cell `T` admits (see `Gc`) and, by the rooting discipline
        // of `gc`, one not swept. The shared borrow of the heap forbids a concurrent
        // `get_mut`.
        unsafe { &*g.as_ptr() }
    }

    /// Writes a cell (through the write barrier).
    #[inline(always)]
    pub(crate) fn get_mut<T: CellType>(&mut self, g: Gc<T>) -> &mut T {
        self.check(g);
        self.write_barrier(g);
        // SAFETY: as for `get`; the exclusive borrow of the heap makes this the only
        // reference into any cell.
        unsafe { &mut *g.as_ptr() }
    }

    /// Checks again, in debug builds, that `g` refers to a live cell that is a `T`: a
    /// freed cell means a missing root (which `gc_stress` makes happen at once).
    ///
    /// The type was checked when the `Gc<T>` was made (`Gc::cast`, `Value::gc`), in every
    /// build; checking again at every access cost 5% of the V8 suite in release builds
    /// (geomean; richards and raytrace 9%, `iris-bench -r 3`), so it is debug-only.
    #[inline(always)]
    fn check<T: CellType>(&self, g: Gc<T>) {
        if cfg!(debug_assertions) {
            // SAFETY: every cell, live or free, starts with a readable header while its
            // page is mapped, and pages are only unmapped when every cell in them is free.
            let kind = unsafe { (*g.header().as_ptr()).kind };
            if !T::admits(kind) {
                bad_cell(g.addr(), kind);
            }
        }
    }

    /// The write barrier, before a write into cell `g`: an old cell not remembered yet
    /// joins the remembered set, whose cells a minor collection traces as roots (the write
    /// may store a pointer to a young cell). Every writable view of a cell calls it
    /// (`get_mut`, `trailing_mut`, `inline_slots_mut`); writers of one known value
    /// (`set_slot_at`, `vec_set`, `env_set`, the interpreter's element store) call
    /// `write_barrier_for`, which skips values that are not pointers; compiled code does the
    /// same tests inline before its stores (`native::lower`).
    #[inline(always)]
    pub(crate) fn write_barrier<T>(&mut self, g: Gc<T>) {
        // SAFETY: as in `get`: a rooted cell's header is readable.
        let mark = unsafe { (*g.header().as_ptr()).mark };
        // Between collections an old cell's mark is the current BLACK (1 or 2): the last
        // full sweep freed every cell with the other one.
        if mark.wrapping_sub(1) < 2 {
            self.remember(g.header());
        }
    }

    /// The write barrier for storing `v` into cell `g`: only a pointer can make an old cell
    /// refer to a young one.
    #[inline(always)]
    pub(crate) fn write_barrier_for<T>(&mut self, g: Gc<T>, v: Value) {
        if v.is_pointer() {
            self.write_barrier(g);
        }
    }

    /// Puts old cell `h` in the remembered set.
    #[cold]
    #[inline(never)]
    pub(crate) fn remember(&mut self, h: Gc<CellHeader>) {
        // SAFETY: as in `write_barrier`.
        unsafe { (*h.as_ptr()).mark |= REMEMBERED };
        self.remembered.push(h);
    }

    /// The kind of the cell `g` points at.
    #[inline(always)]
    pub(crate) fn kind_of<T>(&self, g: Gc<T>) -> CellKind {
        // SAFETY: as in `get`: a rooted cell's header is readable.
        unsafe { (*g.header().as_ptr()).kind }
    }

    /// Offset of the trailing array of `E` after a `T`.
    #[inline(always)]
    pub(crate) const fn trailing_offset<T, E>() -> usize {
        let a = align_of::<E>();
        size_of::<T>().div_ceil(a) * a
    }

    /// The `n` trailing elements of type `E` stored after the `T` at `g`.
    ///
    /// # Safety
    /// `g` was allocated by `alloc_trailing::<T, E>` or `alloc_trailing_from::<T, E>` with
    /// at least `n` elements (callers pass the count the cell's header recorded then).
    #[inline(always)]
    pub(crate) unsafe fn trailing<T: CellType, E: Copy>(&self, g: Gc<T>, n: usize) -> &[E] {
        self.check(g);
        // SAFETY: the caller's contract: room for `n` initialized elements. The pointer
        // comes from the allocation itself, so it may address the trailing bytes.
        unsafe {
            let p = (g.as_ptr() as *const u8).add(Self::trailing_offset::<T, E>()) as *const E;
            std::slice::from_raw_parts(p, n)
        }
    }

    /// The `n` trailing elements of type `E` stored after the `T` at `g`, writable.
    ///
    /// # Safety
    /// As for `trailing`.
    #[inline(always)]
    pub(crate) unsafe fn trailing_mut<T: CellType, E: Copy>(&mut self, g: Gc<T>, n: usize) -> &mut [E] {
        self.check(g);
        self.write_barrier(g);
        // SAFETY: as for `trailing`, with the exclusive heap borrow.
        unsafe {
            let p = (g.as_ptr() as *mut u8).add(Self::trailing_offset::<T, E>()) as *mut E;
            std::slice::from_raw_parts_mut(p, n)
        }
    }

    /// `trailing_mut` without the write barrier, for writers that store values they know
    /// and run `write_barrier_for` on each instead (most stores are of numbers, which need
    /// no barrier).
    ///
    /// # Safety
    /// As for `trailing`; and every value the caller stores through the slice must be
    /// passed to `write_barrier_for(g, value)`, or the next minor collection may free a
    /// young cell the stored value points to.
    #[inline(always)]
    pub(crate) unsafe fn trailing_mut_unbarriered<T: CellType, E: Copy>(&mut self, g: Gc<T>, n: usize) -> &mut [E] {
        self.check(g);
        // SAFETY: as for `trailing`, with the exclusive heap borrow.
        unsafe {
            let p = (g.as_ptr() as *mut u8).add(Self::trailing_offset::<T, E>()) as *mut E;
            std::slice::from_raw_parts_mut(p, n)
        }
    }

    /// Allocates a cell holding `cell`.
    #[inline]
    pub(crate) fn alloc<T: CellType>(&mut self, cell: T) -> Gc<T> {
        let p = self.alloc_raw::<T>(size_of::<T>()).cast::<T>();
        // SAFETY: `alloc_raw` returned at least `size_of::<T>()` writable bytes aligned to
        // 8 (every size class is a multiple of 8 and pages are page-aligned).
        unsafe { p.as_ptr().write(cell) };
        Gc::from_ptr(p)
    }

    /// Allocates a cell holding `cell` followed by `n` copies of `fill`.
    pub(crate) fn alloc_trailing<T: CellType, E: Copy>(&mut self, cell: T, n: usize, fill: E) -> Gc<T> {
        debug_assert!(align_of::<E>() <= 8 && align_of::<T>() <= 8);
        let off = Self::trailing_offset::<T, E>();
        let size = (off + n * size_of::<E>()).max(size_of::<FreeCell>());
        let p = self.alloc_raw::<T>(size);
        // SAFETY: `p` has `size` writable bytes, enough for the `T` and the `n` elements at
        // their aligned offset.
        unsafe {
            p.cast::<T>().as_ptr().write(cell);
            let e = p.as_ptr().add(off) as *mut E;
            for i in 0..n {
                e.add(i).write(fill);
            }
        }
        Gc::from_ptr(p.cast())
    }

    /// Allocates a cell holding `cell` followed by a copy of `data`.
    pub(crate) fn alloc_trailing_from<T: CellType, E: Copy>(&mut self, cell: T, data: &[E]) -> Gc<T> {
        let off = Self::trailing_offset::<T, E>();
        let size = (off + std::mem::size_of_val(data)).max(size_of::<FreeCell>());
        let p = self.alloc_raw::<T>(size);
        // SAFETY: as in `alloc_trailing`; `data` cannot overlap a fresh cell.
        unsafe {
            p.cast::<T>().as_ptr().write(cell);
            ptr::copy_nonoverlapping(data.as_ptr(), p.as_ptr().add(off) as *mut E, data.len());
        }
        Gc::from_ptr(p.cast())
    }

    #[inline]
    fn alloc_raw<T: CellType>(&mut self, size: usize) -> NonNull<u8> {
        if size > MAX_SMALL {
            return self.alloc_large(size);
        }
        let class = CLASS_OF[size.div_ceil(8)] as usize + if T::LEAF { SIZE_CLASSES.len() } else { 0 };
        self.allocated_since_gc += self.classes[class].cell_size;
        self.young_cells += 1;
        if self.allocated_since_gc >= self.budget {
            self.due.set(1);
        }
        let sc = &mut self.classes[class];
        if !sc.free.is_null() {
            let cell = sc.free;
            // SAFETY: the free list only links free cells of this class inside mapped pages.
            sc.free = unsafe { (*cell).next };
            // SAFETY: `cell` is non-null.
            return unsafe { NonNull::new_unchecked(cell as *mut u8) };
        }
        let cs = sc.cell_size;
        if sc.bump_left >= cs {
            let p = sc.bump;
            // SAFETY: `bump_left >= cs` bytes of the cursor page follow `bump`.
            sc.bump = unsafe { p.add(cs) };
            sc.bump_left -= cs;
            // SAFETY: inside a mapped page, non-null.
            return unsafe { NonNull::new_unchecked(p) };
        }
        self.alloc_in_next_page(class)
    }

    /// Allocates a cell of `class` once the cursor page's free cells are used up: from the
    /// untouched rest of that page, else from the next page with room, else from a new page.
    #[inline(never)]
    fn alloc_in_next_page(&mut self, class: usize) -> NonNull<u8> {
        let black = self.black;
        let ops = self.ops;
        let sc = &mut self.classes[class];
        let cs = sc.cell_size;
        retire_bump(sc);
        while let Some(page) = sc.pages.get_mut(sc.cursor) {
            if page.unswept {
                sweep_lazily(page, cs, black, &ops);
            }
            if !page.free.is_null() {
                page.young = true;
                let cell = std::mem::replace(&mut page.free, ptr::null_mut());
                // SAFETY: a page's free list links free cells inside it.
                sc.free = unsafe { (*cell).next };
                // SAFETY: `cell` is non-null.
                return unsafe { NonNull::new_unchecked(cell as *mut u8) };
            }
            if page.used + cs <= PAGE_SIZE {
                page.young = true;
                // SAFETY: `used + cs <= PAGE_SIZE`, so the cell is inside the page.
                let p = unsafe { page.base.as_ptr().add(page.used) };
                page.used += cs;
                // The rest of the page goes through `alloc_raw`'s bump path.
                // SAFETY: `used <= PAGE_SIZE`: at most one past the page's end.
                sc.bump = unsafe { page.base.as_ptr().add(page.used) };
                sc.bump_left = PAGE_SIZE - page.used;
                // SAFETY: inside a mapped page, non-null.
                return unsafe { NonNull::new_unchecked(p) };
            }
            sc.cursor += 1;
        }
        let (base, slot) = match self.spare.pop() {
            Some(page) => page,
            None => self.new_page(),
        };
        let sc = &mut self.classes[class];
        sc.pages.push(Page { base, slot, used: cs, free: ptr::null_mut(), young: true, unswept: false, live: 0 });
        sc.cursor = sc.pages.len() - 1;
        // SAFETY: `cs <= MAX_SMALL < PAGE_SIZE`: inside the page.
        sc.bump = unsafe { base.as_ptr().add(cs) };
        sc.bump_left = PAGE_SIZE - cs;
        base
    }

    /// Maps a page: in the reservation while it has room, else anywhere.
    fn new_page(&mut self) -> (NonNull<u8>, usize) {
        self.mapped_pages += 1;
        if let Some(slot) = self.region.take() {
            if self.marked.len() <= slot {
                self.marked.resize(slot + 1, 0);
            }
            // SAFETY: the reservation's base is non-null, so is every page in it.
            return (unsafe { NonNull::new_unchecked(self.region.page(slot) as *mut u8) }, slot);
        }
        (map_page(), NO_SLOT)
    }

    /// Gives an empty page back: kept as a spare, or unmapped.
    fn release_page(&mut self, base: NonNull<u8>, slot: usize) -> bool {
        if self.spare.len() < SPARE_PAGES {
            self.spare.push((base, slot));
            return false;
        }
        if slot == NO_SLOT {
            unmap_page(base);
        } else {
            self.region.decommit(slot);
        }
        true
    }

    fn alloc_large(&mut self, size: usize) -> NonNull<u8> {
        let size = size.div_ceil(16) * 16;
        let layout = Layout::from_size_align(size, 16).unwrap_or_else(|_| Layout::new::<u128>());
        // SAFETY: the layout has a non-zero size.
        let p = unsafe { std::alloc::alloc(layout) };
        let Some(p) = NonNull::new(p) else { std::alloc::handle_alloc_error(layout) };
        self.large.push(LargeCell { ptr: p, size });
        self.large_bytes += size;
        self.allocated_since_gc += size;
        self.young_cells += 1;
        if self.allocated_since_gc >= self.budget {
            self.due.set(1);
        }
        p
    }

    /// Counts `bytes` of memory a cell now owns outside the heap (a table or buffer that
    /// grew) as allocated: it brings the next collection nearer, and past the limit the next
    /// safepoint throws, as for cells.
    #[inline]
    pub(crate) fn note_external(&mut self, bytes: usize) {
        self.allocated_since_gc += bytes;
        if self.allocated_since_gc >= self.budget {
            self.due.set(1);
        }
    }

    /// Whether the allocation budget since the last collection is spent.
    #[inline(always)]
    pub(crate) fn should_collect(&self) -> bool {
        self.allocated_since_gc >= self.budget
    }

    /// Whether the heap holds more than its limit (live after the last collection plus
    /// everything allocated since).
    #[inline]
    pub(crate) fn over_limit(&self) -> bool {
        self.live_bytes + self.allocated_since_gc > self.limit
    }

    /// The heap limit in bytes.
    pub(crate) fn limit(&self) -> usize {
        self.limit
    }

    /// Counters.
    pub(crate) fn stats(&self) -> HeapStats {
        HeapStats {
            collections: self.collections,
            full_collections: self.full_collections,
            incremental_collections: self.incremental_collections,
            remembered: self.remembered.len(),
            live_bytes: self.live_bytes,
            allocated_since_gc: self.allocated_since_gc,
            footprint: self.mapped_pages * PAGE_SIZE + self.large_bytes,
            peak_footprint: self.peak_footprint.max(self.mapped_pages * PAGE_SIZE + self.large_bytes),
        }
    }

    /// Marks the cell a value points to, if any.
    #[inline(always)]
    pub(crate) fn mark_value(&mut self, v: Value) {
        if let Some(addr) = v.pointer_addr() {
            self.mark(Gc::from_addr(addr));
        }
    }

    /// Marks a cell and queues it for tracing if it was not marked yet.
    ///
    /// The cell's header is not read at once: its address goes into a small queue and its
    /// cache line is prefetched; the header is read (and the mark set) when the address
    /// leaves the queue, `PREFETCH_DISTANCE` marks later. Marking a large heap is otherwise
    /// one cache miss after another (on the splay benchmark, two thirds of the tracing time
    /// was the read of a child's header). The next line is prefetched too: a cell is traced
    /// soon after its header is read, and most cells of 48 bytes and more cross a line (an
    /// object's `elements` and inline slots often lie in the second; splay ran 1.18x faster).
    #[inline(always)]
    pub(crate) fn mark<T>(&mut self, g: Gc<T>) {
        let addr = g.addr();
        if cfg!(debug_assertions) && self.verify.is_some() {
            self.verify_reach(addr);
            return;
        }
        prefetch(addr);
        prefetch(addr + 64);
        let i = self.prefetched_next;
        self.prefetched_next = (i + 1) % PREFETCH_DISTANCE;
        let earlier = std::mem::replace(&mut self.prefetched[i], addr);
        if earlier != 0 {
            self.grey(earlier);
        }
    }

    /// Sets the mark of the cell at `addr` and queues it for tracing, unless it was marked.
    #[inline(always)]
    fn grey(&mut self, addr: usize) {
        let hp = addr as *mut CellHeader;
        // SAFETY: the cell is reachable from a root or from a marked cell, hence allocated
        // and not swept; only its header is touched.
        unsafe {
            let mark = (*hp).mark;
            if mark & 3 != self.black {
                if (*hp).kind == CellKind::Free {
                    bad_cell(addr, CellKind::Free);
                }
                self.young_survivors += usize::from(mark == 0);
                (*hp).mark = self.black;
                self.mark_stack.push(Gc::from_addr(addr));
                // A cell in a page of the reservation counts towards its page's live cells
                // (a large cell or a page outside gives an index past the counters).
                if let Some(n) = self.marked.get_mut(addr.wrapping_sub(self.region.base) >> PAGE_SHIFT) {
                    *n += 1;
                }
            }
        }
    }

    /// Greys the cells still in the prefetch queue.
    fn flush_prefetched(&mut self) {
        for i in 0..PREFETCH_DISTANCE {
            let addr = std::mem::replace(&mut self.prefetched[i], 0);
            if addr != 0 {
                self.grey(addr);
            }
        }
    }

    /// Whether a cell is marked (valid between marking and sweeping).
    #[inline]
    pub(crate) fn is_marked<T>(&self, g: Gc<T>) -> bool {
        // SAFETY: the caller holds `g` from a weak table whose cells are not freed before
        // the sweep that follows this query.
        unsafe { (*g.header().as_ptr()).mark & 3 == self.black }
    }

    /// Traces everything reachable from the marked cells.
    pub(crate) fn drain(&mut self) {
        loop {
            while let Some(h) = self.mark_stack.pop() {
                let external = (self.ops.trace)(self, h);
                self.marked_external += external;
            }
            self.flush_prefetched();
            if self.mark_stack.is_empty() {
                break;
            }
        }
    }

    /// Whether a full collection of the heap as it is now should mark incrementally: the
    /// live heap is large enough for one pause to be long.
    pub(crate) fn wants_incremental(&self) -> bool {
        self.live_bytes >= INCREMENTAL_MIN_LIVE
    }

    /// Whether a full collection's marking is under way between increments.
    #[inline]
    pub(crate) fn is_marking(&self) -> bool {
        self.marking
    }

    /// Goes on with the full collection `begin_collection(true)` began, whose roots are
    /// marked, in increments ([`Heap::mark_increment`]) between which the program runs: one
    /// each time it has allocated `SLICE_BYTES`, each tracing enough cells for the marking to
    /// end within the collection's allowance of allocation (`stress`: a few cells each, at
    /// every safepoint, for `gc_stress`).
    pub(crate) fn begin_marking(&mut self, stress: bool) {
        debug_assert!(self.full, "only a full collection marks incrementally");
        self.marking = true;
        self.incremental_collections += 1;
        let expected = if self.last_full_cells > 0 { self.last_full_cells } else { self.live_bytes / 64 };
        let increments = (self.allowance.max(MIN_ALLOWANCE) / SLICE_BYTES).max(1);
        self.slice_cells = match stress {
            true => 64,
            false => (expected * 5 / 4 / increments).max(MIN_SLICE_CELLS),
        };
        self.next_increment();
    }

    /// Makes the next increment of marking due after `SLICE_BYTES` more of allocation.
    fn next_increment(&mut self) {
        self.budget = self.allocated_since_gc + SLICE_BYTES;
        self.due.set(0);
    }

    /// An increment of marking: traces the cells written since they were traced again, then
    /// up to `slice_cells` cells. Returns whether the marking has nothing left to trace but
    /// what the roots reach now ([`Heap::finish_marking`] ends it).
    pub(crate) fn mark_increment(&mut self) -> bool {
        self.retrace_remembered();
        let mut traced = 0;
        loop {
            while traced < self.slice_cells {
                let Some(h) = self.mark_stack.pop() else { break };
                let external = (self.ops.trace)(self, h);
                self.marked_external += external;
                traced += 1;
            }
            // Every cell the increment found is marked and queued before the program runs.
            self.flush_prefetched();
            if traced >= self.slice_cells || self.mark_stack.is_empty() {
                break;
            }
        }
        let done = self.mark_stack.is_empty();
        if !done {
            self.next_increment();
        }
        done
    }

    /// Ends an incremental marking, after the runtime marked the roots again: traces the
    /// cells written since they were traced, and everything left.
    pub(crate) fn finish_marking(&mut self) {
        self.retrace_remembered();
        self.drain();
        self.marking = false;
    }

    /// While marking incrementally, the write barrier remembers every old cell written (as
    /// between collections): a cell this marking traced already (black) may have been
    /// given a pointer to one it has not reached, so it is traced again; an old cell not
    /// reached yet is traced, as it is then, when the marking reaches it. Either way it
    /// leaves the set, and its next write remembers it again.
    fn retrace_remembered(&mut self) {
        for h in std::mem::take(&mut self.remembered) {
            // SAFETY: remembered cells are live: the sweep drops the others, and no sweep
            // runs while marking.
            let mark = unsafe { (*h.as_ptr()).mark } & !REMEMBERED;
            // SAFETY: as above; only the mark byte is written.
            unsafe { (*h.as_ptr()).mark = mark };
            if mark & 3 == self.black {
                // Its bytes outside the heap were counted when it was first traced.
                let _ = (self.ops.trace)(self, h);
            }
        }
    }

    /// Asks, while tracing cell `h`, to see it again between marking and sweeping (through
    /// [`Heap::take_revisits`]): for work that needs to know every live cell first, such
    /// as dropping a Map's tombstones and moving the iterators over it.
    pub(crate) fn revisit<T>(&mut self, h: Gc<T>) {
        self.revisits.push(h.header());
    }

    /// The cells [`Heap::revisit`] collected during this marking, each once (an
    /// incremental marking traces a cell again when it was written after its trace).
    pub(crate) fn take_revisits(&mut self) -> Vec<Gc<CellHeader>> {
        let mut cells = std::mem::take(&mut self.revisits);
        if self.full {
            let mut seen = std::collections::HashSet::with_capacity(cells.len());
            cells.retain(|h| seen.insert(h.addr()));
        }
        cells
    }

    /// A marked cell gave back `bytes` it owned outside the heap after it was traced.
    pub(crate) fn unnote_marked_external(&mut self, bytes: usize) {
        self.marked_external = self.marked_external.saturating_sub(bytes);
    }

    /// Starts a `gc_verify` trace (after a minor collection's marking): until
    /// [`Heap::end_verify`], `mark` records the cells it is given instead of marking them.
    pub(crate) fn begin_verify(&mut self) {
        self.verify = Some(Box::default());
    }

    /// Traces everything the verifying marks reached, transitively, and returns the
    /// reachable cells that were not marked: (cell, kind, the cell that refers to it, 0 for
    /// a root).
    pub(crate) fn end_verify(&mut self) -> Vec<(usize, CellKind, usize)> {
        let revisits = std::mem::take(&mut self.revisits);
        let external = self.marked_external;
        while let Some(addr) = self.verify.as_mut().and_then(|v| v.stack.pop()) {
            if let Some(v) = self.verify.as_mut() {
                v.current = addr;
            }
            let _ = (self.ops.trace)(self, Gc::from_addr(addr));
        }
        self.revisits = revisits;
        self.marked_external = external;
        let v = self.verify.take().unwrap_or_default();
        for &addr in &v.seen {
            // SAFETY: the cells were reached, hence allocated; only the header is touched.
            unsafe { (*(addr as *mut CellHeader)).mark &= !VISITED };
        }
        v.missed
    }

    /// A cell the verifying trace reached.
    #[cold]
    fn verify_reach(&mut self, addr: usize) {
        let black = self.black;
        let Some(v) = self.verify.as_mut() else { return };
        let hp = addr as *mut CellHeader;
        // SAFETY: the cell is reachable, hence allocated, if the collections so far missed
        // nothing (this check runs after every minor marking, so the first miss is caught
        // before its cell is freed); only the header is touched.
        let (kind, mark) = unsafe { ((*hp).kind, (*hp).mark) };
        if mark & VISITED != 0 {
            return;
        }
        // SAFETY: as above.
        unsafe { (*hp).mark = mark | VISITED };
        v.seen.push(addr);
        if mark & 3 != black {
            v.missed.push((addr, kind, v.current));
        }
        v.stack.push(addr);
    }

    /// Whether the collection under way (or the last one) is full.
    pub(crate) fn is_full_collection(&self) -> bool {
        self.full
    }

    /// Whether the next collection should be full (see the module docs for the policy).
    pub(crate) fn wants_full_collection(&self) -> bool {
        let growth = MIN_BUDGET.max(self.live_after_full * (GROWTH_NUM - GROWTH_DEN) / GROWTH_DEN);
        self.survivors_many || self.live_bytes > self.live_after_full + growth || self.over_limit()
    }

    /// Starts a collection, full or minor. A full one makes every cell unmarked (by
    /// switching the mark that means "marked") and forgets the remembered set; a minor one
    /// traces the remembered cells, whose writes since the last collection may have stored
    /// pointers to young cells.
    pub(crate) fn begin_collection(&mut self, full: bool) {
        // The last collection's dead cells must be free before anything is marked: they
        // would look marked once a full collection switches BLACK.
        self.finish_sweeping();
        self.marked.fill(0);
        self.full = full;
        self.young_survivors = 0;
        if full {
            self.black ^= 3;
            self.remembered.clear();
            return;
        }
        for h in std::mem::take(&mut self.remembered) {
            // SAFETY: remembered cells are live old cells (`sweep` drops the others).
            unsafe { (*h.as_ptr()).mark = self.black };
            // Its bytes outside the heap were counted as an old cell's, but a write may have
            // grown them (a Map's table fills with tombstones that only a full collection
            // drops): they are counted again, which overstates the live size until the next
            // full collection and so brings that one sooner (see `wants_full_collection`).
            self.marked_external += (self.ops.trace)(self, h);
        }
    }

    /// Frees every cell the collection did not mark (in a minor collection, the young
    /// cells it did not reach: only the pages allocated into since the last collection are
    /// swept) and sets the next budget. Marks stay: the survivors are old now.
    ///
    /// A page of the reservation is swept now only if the marking found nothing live in it
    /// (the page is given back); one whose cells all live needs no sweep, and the others
    /// are left to be swept when a class next allocates from them (`sweep_lazily`) or when
    /// the next collection begins (`finish_sweeping`). Pages outside the reservation, with
    /// no counts, are swept now.
    pub(crate) fn sweep(&mut self) {
        self.peak_footprint = self.peak_footprint.max(self.mapped_pages * PAGE_SIZE + self.large_bytes);
        let black = self.black;
        let full = self.full;
        // A cell remembered during this collection may have died (a full collection marks
        // old cells anew).
        self.remembered.retain(|h| {
            // SAFETY: the cells are not freed before this sweep.
            unsafe { (*h.as_ptr()).mark & 3 == black }
        });
        let mut live = 0usize;
        let mut unmapped = 0usize;
        let mut empty = Vec::new();
        for class in &mut self.classes {
            let cs = class.cell_size;
            retire_bump(class);
            // The free lists of the swept pages are rebuilt from the cells' headers.
            class.free = ptr::null_mut();
            class.cursor = 0;
            let mut kept = Vec::with_capacity(class.pages.len());
            for mut page in class.pages.drain(..) {
                if !full && !page.young {
                    // Only old cells (alive, for a minor collection) and free ones.
                    live += page.live as usize * cs;
                    kept.push(page);
                    continue;
                }
                page.young = false;
                let counted =
                    self.marked.get(page.slot).map(|&n| n as usize + if full { 0 } else { page.live as usize });
                let page_live = match counted {
                    // Every cell handed out lives: nothing to free.
                    Some(n) if n == page.used / cs => {
                        page.free = ptr::null_mut();
                        n
                    }
                    Some(n) if n > 0 => {
                        page.unswept = true;
                        n
                    }
                    _ => {
                        let (head, n) = sweep_cells(&page, cs, black, &self.ops);
                        debug_assert!(counted.is_none() || n == 0, "the marking missed live cells of a page");
                        page.free = head;
                        n
                    }
                };
                live += page_live * cs;
                if page_live == 0 {
                    empty.push((page.base, page.slot));
                } else {
                    page.live = page_live as u32;
                    kept.push(page);
                }
            }
            class.pages = kept;
        }
        for (base, slot) in empty {
            unmapped += usize::from(self.release_page(base, slot));
        }
        self.mapped_pages -= unmapped;
        let mut i = 0;
        while i < self.large.len() {
            let LargeCell { ptr, size } = self.large[i];
            let hdr = ptr.as_ptr() as *mut CellHeader;
            // SAFETY: large cells are live allocations with an initialized header.
            if unsafe { (*hdr).mark } & 3 == black {
                live += size;
                i += 1;
            } else {
                // SAFETY: unreachable; finalize then return it to the system allocator
                // with the layout it was allocated with.
                unsafe {
                    (self.ops.finalize)(hdr);
                    std::alloc::dealloc(ptr.as_ptr(), Layout::from_size_align_unchecked(size, 16));
                }
                self.large_bytes -= size;
                self.large.swap_remove(i);
            }
        }
        // Bytes outside the heap: a full collection counted every live cell's; a minor one
        // the young survivors', the old cells' being counted already.
        let external = std::mem::take(&mut self.marked_external);
        let old_external = if full { 0 } else { self.live_bytes.saturating_sub(self.live_cells_bytes) };
        self.live_cells_bytes = live;
        self.live_bytes = live + old_external + external;
        if full {
            self.live_after_full = self.live_bytes;
            self.full_collections += 1;
            self.last_full_cells = self.marked.iter().map(|&n| n as usize).sum();
        }
        self.survivors_many = self.young_survivors * 256 > self.young_cells * FULL_SURVIVAL;
        self.young_cells = 0;
        self.allocated_since_gc = 0;
        // Collect again before the heap outgrows its limit, so that reaching the limit is
        // noticed while there is still room to throw (and catch) a RangeError.
        let live = self.live_bytes;
        let room = self.limit.saturating_sub(live).max(256 * 1024);
        self.budget = match self.survivors_many {
            true => MIN_BUDGET.max(live * GROWTH_NUM / GROWTH_DEN - live),
            false => MIN_BUDGET,
        }
        .min(room);
        // The next collection will be full and incremental: its marking is paced to end
        // within an allowance of an eighth of the budget, and it starts twice that early,
        // so that the heap peaks no higher than with a collection that stops the program:
        // one allowance for the cells allocated while marking, one for those that die then
        // after the marking reached them (they wait for the next collection; a program
        // that keeps its heap size frees about as much as it allocates). On splay, peak
        // RSS 121.0 MB instead of 125.9 with one allowance (the stop-the-world collector's
        // was 123.6), at 0.97x the score.
        self.allowance = match self.survivors_many && self.wants_incremental() {
            true => self.budget / 8,
            false => 0,
        };
        self.budget -= 2 * self.allowance;
        self.due.set(0);
        self.collections += 1;
    }

    /// Sweeps the pages the last collection left unswept.
    pub(crate) fn finish_sweeping(&mut self) {
        let black = self.black;
        for class in &mut self.classes {
            let cs = class.cell_size;
            retire_bump(class);
            for page in class.pages.iter_mut().filter(|p| p.unswept) {
                sweep_lazily(page, cs, black, &self.ops);
            }
        }
    }

    /// Frees everything (the runtime is going away). Finalizers run; no tracing.
    fn release_all(&mut self) {
        for class in &mut self.classes {
            let cs = class.cell_size;
            retire_bump(class);
            for page in class.pages.drain(..) {
                let mut off = 0;
                while off + cs <= page.used {
                    // SAFETY: handed-out cells have headers; each is finalized once.
                    unsafe {
                        let hdr = page.base.as_ptr().add(off) as *mut CellHeader;
                        if (*hdr).kind != CellKind::Free {
                            (self.ops.finalize)(hdr);
                        }
                    }
                    off += cs;
                }
                if page.slot == NO_SLOT {
                    unmap_page(page.base);
                }
            }
            class.free = ptr::null_mut();
            class.cursor = 0;
        }
        for (base, slot) in std::mem::take(&mut self.spare) {
            if slot == NO_SLOT {
                unmap_page(base);
            }
        }
        for LargeCell { ptr, size } in self.large.drain(..) {
            // SAFETY: as in `sweep`.
            unsafe {
                (self.ops.finalize)(ptr.as_ptr() as *mut CellHeader);
                std::alloc::dealloc(ptr.as_ptr(), Layout::from_size_align_unchecked(size, 16));
            }
        }
    }
}

impl Drop for Heap {
    fn drop(&mut self) {
        self.release_all();
    }
}

/// Ends a class's bump allocation in its cursor page: the page's `used` counts the cells
/// it handed out. Before anything reads `used` (sweeping, moving to the next page).
fn retire_bump(sc: &mut SizeClass) {
    if !sc.bump.is_null() {
        let page = &mut sc.pages[sc.cursor];
        page.used = sc.bump as usize - page.base.as_ptr() as usize;
        sc.bump = ptr::null_mut();
        sc.bump_left = 0;
    }
}

/// Sweeps a page the last collection left unswept: its free list is built, and it is
/// allocated from like any other.
fn sweep_lazily(page: &mut Page, cs: usize, black: u8, ops: &CellOps) {
    let (head, live) = sweep_cells(page, cs, black, ops);
    debug_assert_eq!(live, page.live as usize, "the marking miscounted the live cells of a page");
    page.free = head;
    page.live = live as u32;
    page.unswept = false;
}

/// Frees the cells of `page` that are not marked `black` (finalizing those of the kinds
/// `ops` finalizes) and returns the page's free cells, linked in address order, and how
/// many cells live.
fn sweep_cells(page: &Page, cs: usize, black: u8, ops: &CellOps) -> (*mut FreeCell, usize) {
    let mut head: *mut FreeCell = ptr::null_mut();
    let mut live = 0usize;
    // From the last cell down, so that the list comes out in address order.
    let mut off = page.used / cs * cs;
    let base = page.base.as_ptr() as usize;
    while off >= cs {
        off -= cs;
        // The walk goes down through memory: the header a few lines below is asked for
        // ahead of its turn.
        prefetch((base + off).wrapping_sub(SWEEP_PREFETCH_BYTES));
        // SAFETY: `off < used`, so the cell was handed out and has a header.
        let cell = unsafe { page.base.as_ptr().add(off) } as *mut FreeCell;
        // SAFETY: as above; the header is initialized.
        let hdr = unsafe { &mut (*cell).header };
        if hdr.kind == CellKind::Free {
            // SAFETY: writing the link of a free cell we own.
            unsafe { (*cell).next = head };
            head = cell;
        } else if hdr.mark & 3 == black {
            live += 1;
        } else {
            if ops.finalized & (1 << hdr.kind as u64) != 0 {
                // SAFETY: the cell is unreachable, so nothing refers to it any more.
                unsafe { (ops.finalize)(cell as *mut CellHeader) };
            }
            poison(cell as *mut u8, cs);
            // SAFETY: the cell is ours again.
            unsafe {
                (*cell).header = CellHeader::new(CellKind::Free);
                (*cell).next = head;
            }
            head = cell;
        }
    }
    (head, live)
}

impl Region {
    /// Reserves room for pages holding `RESERVE_PER_LIMIT` times `limit` bytes, up to
    /// `MAX_RESERVE` (address space, no memory: pages are committed as they are taken); an empty
    /// region where that fails.
    fn reserve(limit: usize) -> Region {
        let slots = limit.saturating_mul(RESERVE_PER_LIMIT).min(MAX_RESERVE).div_ceil(PAGE_SIZE).max(1);
        let base = reserve_pages(slots).unwrap_or(0);
        Region { base, slots: if base == 0 { 0 } else { slots }, next: 0, free: Vec::new(), committed: 0 }
    }

    /// A slot for a new page, if the reservation has one left; its page is readable and
    /// writable, all zeros.
    fn take(&mut self) -> Option<usize> {
        if let Some(slot) = self.free.pop() {
            // Given back (decommitted) before.
            commit_pages(self.page(slot), 1);
            return Some(slot);
        }
        if self.next == self.slots {
            return None;
        }
        let slot = self.next;
        self.next += 1;
        if slot == self.committed {
            let pages = COMMIT_CHUNK.min(self.slots - slot);
            commit_pages(self.page(slot), pages);
            self.committed += pages;
        }
        Some(slot)
    }

    /// The address of the page at `slot`.
    fn page(&self, slot: usize) -> usize {
        self.base + slot * PAGE_SIZE
    }

    /// Gives the memory of the page at `slot` back and the slot to the region.
    fn decommit(&mut self, slot: usize) {
        decommit_page(self.page(slot));
        self.free.push(slot);
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        if self.slots > 0 {
            release_pages(self.base, self.slots);
        }
    }
}

#[cold]
#[inline(never)]
fn bad_cell(addr: usize, kind: CellKind) -> ! {
    if kind == CellKind::Free {
        panic!("use of a freed cell {addr:#x} (missing GC root?)");
    }
    panic!("cell {addr:#x} ({}) used as another type", kind.description());
}

/// Fills a freed cell with a pattern in debug builds, so stale reads are loud.
fn poison(cell: *mut u8, size: usize) {
    if cfg!(debug_assertions) {
        // SAFETY: the whole cell belongs to the sweeper now.
        unsafe { ptr::write_bytes(cell, 0xdb, size) };
    }
}

/// Asks the processor to bring the cache line at `addr` in; a hint that never faults.
#[inline(always)]
fn prefetch(addr: usize) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint: it reads nothing and cannot fault, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch(addr as *const i8, std::arch::x86_64::_MM_HINT_T0)
    };
    #[cfg(target_arch = "aarch64")]
    // SAFETY: as above; PRFM does not fault either.
    unsafe {
        std::arch::asm!("prfm pldl1keep, [{0}]", in(reg) addr, options(nostack, readonly, preserves_flags))
    };
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    let _ = addr;
}

#[cfg(unix)]
fn map_page() -> NonNull<u8> {
    // SAFETY: an anonymous private mapping has no preconditions.
    let p = unsafe {
        libc::mmap(
            ptr::null_mut(),
            PAGE_SIZE,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        std::alloc::handle_alloc_error(Layout::from_size_align(PAGE_SIZE, 4096).unwrap_or(Layout::new::<u8>()));
    }
    // SAFETY: mmap succeeded, so `p` is non-null.
    unsafe { NonNull::new_unchecked(p as *mut u8) }
}

#[cfg(unix)]
fn unmap_page(base: NonNull<u8>) {
    // SAFETY: `base` was returned by `map_page` and no cell in it is referenced any more.
    unsafe { libc::munmap(base.as_ptr() as *mut libc::c_void, PAGE_SIZE) };
}

/// Reserves address space for `slots` pages, inaccessible until committed.
#[cfg(unix)]
fn reserve_pages(slots: usize) -> Option<usize> {
    let size = slots.checked_mul(PAGE_SIZE)?;
    // SAFETY: an anonymous private mapping has no preconditions.
    let p = unsafe {
        libc::mmap(
            ptr::null_mut(),
            size,
            libc::PROT_NONE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    (p != libc::MAP_FAILED).then_some(p as usize)
}

/// Makes `pages` reserved pages from `addr` readable and writable (fresh, zeroed memory).
#[cfg(unix)]
fn commit_pages(addr: usize, pages: usize) {
    let size = pages * PAGE_SIZE;
    // SAFETY: the pages are in this heap's reservation, with no cell in use: mapping fresh
    // memory over them affects nothing else.
    let p = unsafe {
        libc::mmap(
            addr as *mut libc::c_void,
            size,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        std::alloc::handle_alloc_error(Layout::from_size_align(size, 4096).unwrap_or(Layout::new::<u8>()));
    }
}

/// Gives the memory of the reserved page at `addr` back, leaving it reserved.
#[cfg(unix)]
fn decommit_page(addr: usize) {
    // SAFETY: `addr` is a page of this heap's reservation whose cells are all free and no
    // longer referenced; an inaccessible mapping replaces it.
    unsafe {
        libc::mmap(
            addr as *mut libc::c_void,
            PAGE_SIZE,
            libc::PROT_NONE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
}

/// Unmaps a reservation of `slots` pages.
#[cfg(unix)]
fn release_pages(base: usize, slots: usize) {
    // SAFETY: the heap is going away with every cell in the reservation.
    unsafe { libc::munmap(base as *mut libc::c_void, slots * PAGE_SIZE) };
}

#[cfg(not(unix))]
fn reserve_pages(_slots: usize) -> Option<usize> {
    None
}

#[cfg(not(unix))]
fn commit_pages(_addr: usize, _pages: usize) {
    unreachable!("no reservation without mmap")
}

#[cfg(not(unix))]
fn decommit_page(_addr: usize) {}

#[cfg(not(unix))]
fn release_pages(_base: usize, _slots: usize) {}

#[cfg(not(unix))]
fn map_page() -> NonNull<u8> {
    let layout = Layout::from_size_align(PAGE_SIZE, 4096).unwrap_or(Layout::new::<u8>());
    // SAFETY: non-zero size.
    let p = unsafe { std::alloc::alloc_zeroed(layout) };
    NonNull::new(p).unwrap_or_else(|| std::alloc::handle_alloc_error(layout))
}

#[cfg(not(unix))]
fn unmap_page(base: NonNull<u8>) {
    // SAFETY: allocated by `map_page` with this layout.
    unsafe { std::alloc::dealloc(base.as_ptr(), Layout::from_size_align_unchecked(PAGE_SIZE, 4096)) };
}
