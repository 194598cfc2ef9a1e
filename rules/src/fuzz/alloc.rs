//! Counting the memory a fuzz case holds: a global allocator that keeps, per thread, the bytes
//! allocated and not yet freed and their peak. Only a program that installs [`CountingAlloc`]
//! (`#[global_allocator]` in its tests/fuzz.rs) is measured; elsewhere the peak reads 0.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    /// Bytes this thread allocated minus those it freed (negative when it frees others').
    static LIVE: Cell<isize> = const { Cell::new(0) };
    /// The highest `LIVE` since the current case started.
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

/// The system allocator, counting what each thread holds.
pub struct CountingAlloc;

fn note(change: isize) {
    // `try_with`: allocations while the thread's locals are torn down are simply not counted.
    let _ = LIVE.try_with(|live| {
        let now = live.get().wrapping_add(change);
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

// SAFETY: every call is passed to `System` unchanged; the counting touches only thread-locals
// with constant initialisers, which never allocate.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            note(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            note(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        note(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            note(new_size as isize - layout.size() as isize);
        }
        p
    }
}

/// Starts measuring a case on this thread; returns what the thread held before it.
pub(super) fn start_case() -> isize {
    let live = LIVE.with(Cell::get);
    PEAK.with(|peak| peak.set(live));
    live
}

/// The most the case started at `before` held at once beyond `before`.
pub(super) fn case_peak(before: isize) -> usize {
    PEAK.with(Cell::get).saturating_sub(before).max(0) as usize
}

/// Runs `f` and returns its value with the most memory it held at once on this thread (0 where
/// [`CountingAlloc`] is not installed): for tests that an input cannot make a decoder allocate.
pub fn held_by<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = start_case();
    let value = f();
    (value, case_peak(before))
}
