//! A variant's policy map ([`rules::PolicyMap`]) as the JSON object of the exported sidecar.

use rules::{Encoding, PolicyMove};
use serde_json::{json, Value};

/// One entry: `[from, to, promotion, with_promotion]` without its trailing nulls, so that most
/// entries are `[from, to]` (Weltschach's map has 178,432 of them).
fn entry(m: &PolicyMove) -> Value {
    let mut fields = vec![json!(m.from), json!(m.to), json!(m.promotion), json!(m.with_promotion)];
    while fields.len() > 2 && fields.last() == Some(&Value::Null) {
        fields.pop();
    }
    Value::Array(fields)
}

/// The policy map of `G`: what each index stands for and the cells behind the grid squares.
pub fn policy_map_json<G: Encoding>() -> Value {
    let map = G::policy_map();
    json!({
        "about": "moves[i] is policy index i as [from, to] grid squares, optionally followed by the promotion piece letter and the letter another piece (Wellisch: the first waiting pawn) promotes to with the move; null if no legal move has index i; [null, null] is a pass. Grid squares are flat row-major indices over input_shape[1..] in the mover's frame; cells[seat][square] names the board cell a square shows when that seat moves (null: padding). A pawn move to the last rank without a letter promotes to the variant's default piece. Wellisch moves that promote a pawn other than the first waiting one take free indices of the promotion blocks (docs/notation-wellisch.md); `vzero encode` lists a position's legal moves with their exact indices.",
        "moves": map.moves.iter().map(|m| m.as_ref().map_or(Value::Null, entry)).collect::<Vec<_>>(),
        "cells": map.cells,
    })
}
