//! Small games with answers known in advance, implementing `rules::Game` for the search tests.
#![allow(dead_code)]

pub mod gomoku;
pub mod nim;
pub mod shuttle;
pub mod solve;
pub mod three;
pub mod tictactoe;
