//! `vzero encode`: one position as the network sees it, in files Python reads without vzero:
//! `planes.npy` (the input planes, shape `[1, ..INPUT_SHAPE]`, ready to feed an exported model),
//! `legal_moves.json` (each legal move with its policy index) and `position.json`.

use std::path::Path;

use anyhow::{anyhow, bail, Context};
use serde_json::json;

use crate::cli::EncodeArgs;
use crate::engine::{open_session, Encoded};

/// Encodes the position and writes the three files.
pub fn run(args: EncodeArgs) -> anyhow::Result<()> {
    check_out(&args.out)?;
    // Without a model the session holds no inference service, so it needs no `close`.
    let mut session = open_session(args.at.variant, None, nn::Inference::plain_cpu()).map_err(|e| anyhow!("{e}"))?;
    session.set_position(args.at.position.as_deref(), &args.at.move_list()).map_err(|e| anyhow!("{e}"))?;
    let encoded: Encoded = session.encoded();
    std::fs::create_dir_all(&args.out).with_context(|| format!("--out {}", args.out.display()))?;
    let mut shape = vec![1];
    shape.extend(&encoded.shape);
    let planes = args.out.join("planes.npy");
    crate::npy::write_f32(&planes, &shape, &encoded.planes).with_context(|| format!("{}", planes.display()))?;
    let legal: Vec<_> = encoded.legal.iter().map(|(mv, index)| json!({"move": mv, "policy_index": index})).collect();
    write_json(&args.out.join("legal_moves.json"), &json!(legal))?;
    let about = json!({
        "variant": args.at.variant.name(),
        "position": session.position_text(),
        "to_move": session.to_move(),
        "game_over": session.game_over(),
        "planes_shape": shape,
        "legal_moves": encoded.legal.len(),
    });
    write_json(&args.out.join("position.json"), &about)?;
    println!("{}: {} legal moves, planes {:?}", args.out.display(), encoded.legal.len(), shape);
    Ok(())
}

/// Refuses an output that is not a folder (an existing file).
fn check_out(out: &Path) -> anyhow::Result<()> {
    if out.exists() && !out.is_dir() {
        bail!("--out {}: is a file; expected a folder to write planes.npy and legal_moves.json into", out.display());
    }
    Ok(())
}

fn write_json(path: &Path, value: &serde_json::Value) -> anyhow::Result<()> {
    let text = serde_json::to_string_pretty(value).expect("json") + "\n";
    std::fs::write(path, text).with_context(|| format!("{}", path.display()))
}
