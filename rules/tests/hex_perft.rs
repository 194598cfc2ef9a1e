//! Glinski and Mini Hexchess perft split by root move (divide): the split sums to the reference
//! count and each root move's count is its number of replies. The reference counts themselves
//! are data, in rules/tests/perft/ (checked by tests/perft.rs).

use rules::hexchess::{Glinski, MiniHexchess};
use rules::perft::divide;
use rules::Game;

#[test]
fn divide_at_depth_2_sums_to_the_total() {
    let glinski = divide(&Glinski::start(), 2, true);
    assert_eq!(glinski.len(), 51);
    assert_eq!(glinski.iter().map(|(_, n)| n).sum::<u64>(), 2_586);
    let mini = divide(&MiniHexchess::start(), 2, true);
    assert_eq!(mini.len(), 9);
    assert_eq!(mini.iter().map(|(_, n)| n).sum::<u64>(), 71);
    // Every root move's count is the number of replies after it.
    let start = Glinski::start();
    for (text, count) in glinski {
        let mut child = start.clone();
        child.play(start.parse_move(&text).unwrap());
        assert_eq!(child.count_legal_moves(), count, "{text}");
    }
}
