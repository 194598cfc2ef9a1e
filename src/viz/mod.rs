//! Pictures for people: board diagrams as SVG, recorded games as a self-contained HTML page, and
//! training curves.
//!
//! Kept in the command-line program rather than a library crate: only the CLI draws, and the
//! plotting dependency stays out of the crates that training links.

pub mod frames;
pub mod html_replay;
pub mod note_spot;
pub mod plot;
pub mod svg_board;
pub mod xml;
