//! Executable memory: machine code is written into fresh pages that are writable, then the
//! pages are made read+execute before anything runs them (W^X: never both at once). On
//! AArch64 the instruction cache is synchronized with the data cache first.

use std::ptr::NonNull;

/// The largest code region one function may take.
pub const MAX_CODE: usize = 64 << 20;

/// A function's machine code in its own read+execute mapping, unmapped on drop.
pub struct CodeMemory {
    base: NonNull<u8>,
    mapped: usize,
    len: usize,
}

/// The signature of compiled code (see the crate docs): context, register window, arguments;
/// returns 0 or an exit's number plus one.
pub use crate::CodeEntry as Entry;

fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if p > 0 {
        p as usize
    } else {
        4096
    }
}

impl CodeMemory {
    /// Maps `code` as executable. Empty code and code over `MAX_CODE` are errors.
    pub fn new(code: &[u8]) -> Result<CodeMemory, String> {
        if code.is_empty() {
            return Err("no machine code to map".into());
        }
        if code.len() > MAX_CODE {
            return Err(format!(
                "{} bytes of machine code is more than the {MAX_CODE} one function may have",
                code.len()
            ));
        }
        let page = page_size();
        let mapped = code.len().div_ceil(page) * page;
        // SAFETY: an anonymous private mapping of `mapped` bytes at an address the kernel
        // chooses; the result is checked below.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                mapped,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(format!("cannot map {mapped} bytes for machine code: {}", std::io::Error::last_os_error()));
        }
        let Some(base) = NonNull::new(p as *mut u8) else { return Err("mmap returned null".into()) };
        let mem = CodeMemory { base, mapped, len: code.len() };
        // SAFETY: the mapping is `mapped >= code.len()` bytes, writable, and fresh, so it
        // does not overlap `code`.
        unsafe { std::ptr::copy_nonoverlapping(code.as_ptr(), base.as_ptr(), code.len()) };
        flush_icache(base.as_ptr(), code.len());
        // SAFETY: `base`/`mapped` are the mapping made above.
        if unsafe { libc::mprotect(p, mapped, libc::PROT_READ | libc::PROT_EXEC) } != 0 {
            return Err(format!("cannot make machine code executable: {}", std::io::Error::last_os_error()));
        }
        Ok(mem)
    }

    /// The code's length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The address of the first byte (for profilers' symbol maps).
    pub fn address(&self) -> usize {
        self.base.as_ptr() as usize
    }

    /// Whether the region is empty (never: `new` refuses empty code).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The entry point.
    ///
    /// # Safety
    /// The bytes must be a function compiled by `lower::compile` for this machine; calling
    /// it is then sound when the pointers passed are valid for what the MIR reads and writes
    /// (the context, the register window up to the highest register used, one argument
    /// slot per parameter, and any memory its `load`/`store` instructions address).
    pub unsafe fn entry(&self) -> Entry {
        // SAFETY: the mapping is executable and holds the function's first instruction at
        // its start; the caller vouches that the bytes are such a function.
        unsafe { std::mem::transmute::<*mut u8, Entry>(self.base.as_ptr()) }
    }

    /// Whether the pages are writable (they never are once `new` returns).
    pub fn is_writable(&self) -> bool {
        let Ok(maps) = std::fs::read_to_string("/proc/self/maps") else { return false };
        let start = self.base.as_ptr() as usize;
        maps.lines().any(|l| {
            let mut parts = l.split_whitespace();
            let (Some(range), Some(perms)) = (parts.next(), parts.next()) else { return false };
            let Some((a, b)) = range.split_once('-') else { return false };
            let (Ok(a), Ok(b)) = (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16)) else { return false };
            a <= start && start < b && perms.contains('w')
        })
    }
}

impl Drop for CodeMemory {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`, unmapped once.
        unsafe { libc::munmap(self.base.as_ptr() as *mut libc::c_void, self.mapped) };
    }
}

#[cfg(target_arch = "aarch64")]
fn flush_icache(start: *mut u8, len: usize) {
    extern "C" {
        fn __clear_cache(start: *mut libc::c_char, end: *mut libc::c_char);
    }
    // SAFETY: the range is inside the mapping just written.
    unsafe { __clear_cache(start as *mut libc::c_char, start.add(len) as *mut libc::c_char) };
}

#[cfg(not(target_arch = "aarch64"))]
fn flush_icache(_start: *mut u8, _len: usize) {
    // x86-64 keeps instruction and data caches coherent.
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_sizes_are_refused() {
        assert!(CodeMemory::new(&[]).is_err());
        assert!(CodeMemory::new(&vec![0u8; MAX_CODE + 1]).is_err());
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn code_is_never_writable_once_mapped() {
        let m = CodeMemory::new(&[0xc3; 10]).expect("maps");
        assert_eq!(m.len(), 10);
        assert!(!m.is_writable());
    }
}
