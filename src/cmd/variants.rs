//! `vzero variants`: the variants, one line each.

use rules::Variant;

/// Prints one line per variant.
pub fn run() -> anyhow::Result<()> {
    for variant in Variant::ALL {
        println!("{:<14} {}", variant.name(), variant.summary());
    }
    Ok(())
}
