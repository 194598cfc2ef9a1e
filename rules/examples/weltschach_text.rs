//! Prints the Weltschach start position text (used to write docs/notation-weltschach.md).

use rules::weltschach::Weltschach;
use rules::Game;

fn main() {
    println!("{}", Weltschach::start().to_text());
}
