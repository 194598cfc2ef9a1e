//! `vzero variants`: the variants and whether this build implements their rules.

use rules::{Game, Variant, WithGame};

struct Implemented;

impl WithGame for Implemented {
    type Output = ();
    fn run<G: Game>(self) {}
}

/// Prints one line per variant.
pub fn run() -> anyhow::Result<()> {
    for variant in Variant::ALL {
        let status = match variant.with_game(Implemented) {
            Ok(()) => "",
            Err(_) => "  [rules not implemented yet]",
        };
        println!("{:<14} {}{}", variant.name(), variant.summary(), status);
    }
    Ok(())
}
