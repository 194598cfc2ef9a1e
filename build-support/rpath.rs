//! Build script shared by every package that links libtorch into a binary or test: it records
//! libtorch's lib folder as an rpath, so the programs run without LD_LIBRARY_PATH.
fn main() {
    println!("cargo:rerun-if-env-changed=LIBTORCH");
    if let Ok(libtorch) = std::env::var("LIBTORCH") {
        let lib = std::path::Path::new(&libtorch).join("lib");
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib.display());
    }
}
