//! Link options for `iris-run`: position-dependent on Linux, as `iris` is (compiler/build.rs
//! says why: no relocations applied at every start).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
