//! How glibc's allocator treats the memory libtorch frees: kept for reuse instead of handed
//! back to the kernel after every forward pass.
//!
//! A forward pass allocates and frees a few megabytes of activations and outputs (a Glinski
//! policy alone is 13,431 logits a position). With glibc's defaults a thread's arena returns any
//! free top above 128 KiB to the kernel at once (`madvise`), so the next pass faults every page
//! back in and the kernel clears it. `perf` on a 64-simulation Glinski arena player: 17% of its
//! time in the kernel, mostly those page faults, and 4% with the thresholds below (and the fast
//! form's in-place activations); the thresholds alone took a tenth off its time a move (23.8 to
//! 21.0-21.7 ms).

/// Largest free top an arena keeps before returning memory to the kernel (default 128 KiB).
const TRIM_THRESHOLD: i32 = 256 << 20;
/// Extra memory an arena asks for when it grows, kept for the next allocations (default 0).
const TOP_PAD: i32 = 16 << 20;
/// Blocks from this size on are mapped on their own (glibc's largest allowed value, 32 MiB on
/// 64-bit systems; the default starts at 128 KiB), so a batch's buffers come from the arenas.
const MMAP_THRESHOLD: i32 = 32 << 20;

/// Sets the thresholds above for the whole process; call once, first thing in `main`. Other
/// C libraries (musl) have no such knobs, and this does nothing there.
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes allocator parameters; it is called before any other thread
    // exists, and each value is within the range glibc documents.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD);
        libc::mallopt(libc::M_TOP_PAD, TOP_PAD);
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
    }
}
