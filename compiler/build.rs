//! Link options for the `iris` binary.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // `iris` is linked as a position-dependent executable on Linux, as node's and Hermes's
    // command-line binaries are. As a PIE, the dynamic loader applied ~16,000 relative
    // relocations to vtables and builtin tables at every start and copied the 69 pages of
    // .data.rel.ro they live in: a fifth of the page faults of running a hello-world bundle,
    // 0.3 ms of its 2.4. Libraries, the heap and stacks are still placed at random; the
    // engine as a library (rlib) is not affected.
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
