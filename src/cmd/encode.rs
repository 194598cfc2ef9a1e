//! `vzero encode`: one position as the network sees it, in files Python reads without vzero:
//! `planes.npy` (the input planes, shape `[1, ..INPUT_SHAPE]`, ready to feed an exported model),
//! `legal_moves.json` (each legal move with its policy index) and `position.json`.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context};
use rules::VariantGame;
use serde_json::json;

use crate::cli::EncodeArgs;
use crate::output;

/// Encodes the position and writes the three files.
pub fn run(args: EncodeArgs) -> anyhow::Result<()> {
    let files = ["planes.npy", "legal_moves.json", "position.json"].map(|name| args.out.join(name));
    check_out(&args.out, &files)?;
    let game = VariantGame::setup(args.game.variant, args.start.position.as_deref(), &args.moves.list())
        .map_err(super::start::setup_usage)?;
    let mut shape = vec![1];
    shape.extend(game.input_shape());
    let mut planes = vec![0.0; shape.iter().product()];
    game.encode(&mut planes);
    let moves = game.legal_moves();
    let legal: Vec<_> =
        moves.iter().zip(game.legal_actions()).map(|(mv, index)| json!({"move": mv, "policy_index": index})).collect();
    let about = json!({
        "variant": args.game.variant.name(),
        "position": game.to_text(),
        "to_move": game.to_move(),
        "game_over": game.game_over_text(),
        "planes_shape": shape,
        "legal_moves": moves.len(),
    });
    let planes = crate::npy::f32_bytes(&shape, &planes);
    let (legal, about) = (json_text(&json!(legal)), json_text(&about));
    std::fs::create_dir_all(&args.out).with_context(|| format!("--out {}", args.out.display()))?;
    let written = [planes.as_slice(), legal.as_bytes(), about.as_bytes()];
    let files: Vec<(&Path, &[u8])> = files.iter().map(PathBuf::as_path).zip(written).collect();
    durable::write_all(&files).map_err(|e| anyhow!("--out {}: {e}", args.out.display()))?;
    println!("{}: {} legal moves, planes {:?}", args.out.display(), moves.len(), shape);
    Ok(())
}

/// Refuses, before encoding, an output that is not a folder (an existing file), a folder that
/// cannot be made or written, and outputs that would destroy part of a run (as `export`
/// refuses them: inside a checkpoint folder, over a file of a run directory).
fn check_out(out: &Path, files: &[PathBuf]) -> anyhow::Result<()> {
    if out.exists() && !out.is_dir() {
        bail!("--out {}: is a file; expected a folder to write planes.npy and legal_moves.json into", out.display());
    }
    // The folder is made if missing: the nearest folder that exists must take new ones.
    let existing = out.ancestors().find(|a| !a.as_os_str().is_empty() && a.exists()).unwrap_or(Path::new("."));
    let probe = if existing == out { files[0].clone() } else { existing.join("planes.npy") };
    output::check_writable(out, &probe)?;
    output::refuse_run_files(out, files)
}

/// A JSON value as pretty text ending in a newline.
fn json_text(value: &serde_json::Value) -> String {
    serde_json::to_string_pretty(value).expect("json") + "\n"
}
