//! Checkpoints of the older network format (a value head per seat, before the outcome head)
//! are refused with what to do, not loaded into a network they do not fit; their state.json,
//! which has no `format` field, still passes its checksum.

use arena::players::load_network;
use nn::checkpoint::{load_checkpoint, read_state, save_checkpoint, CheckpointState, NETWORK_FORMAT};
use nn::NetConfig;
use nn::{Device, PolicyValueNet, Trainer};
use rules::hexchess::MiniHexchess;

#[test]
fn an_older_network_format_is_refused_by_name() {
    let dir = std::env::temp_dir().join(format!("vzero-network-format-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut net = PolicyValueNet::new(&NetConfig::for_game::<MiniHexchess>(1, 8), Device::Cpu);
    let trainer = Trainer::new(&net, 0.01, 0.0);
    let state = |format| CheckpointState {
        variant: "mini-hexchess".into(),
        blocks: 1,
        channels: 8,
        trunk: nn::Trunk::Full,
        step: format as u64,
        iteration: 0,
        games: 0,
        format,
    };
    let old = save_checkpoint(&dir, &net, &trainer, &state(1)).unwrap();
    let text = std::fs::read_to_string(old.join("state.json")).unwrap();
    assert!(!text.contains("format"), "written as older vzero wrote it: {text}");
    assert_eq!(read_state(&old).unwrap().format, 1);
    let err = load_checkpoint(&old, &mut net, None).unwrap_err().to_string();
    assert!(err.contains("network format 1") && err.contains("train a new run"), "{err}");
    let err = load_network::<MiniHexchess>(&old, nn::Inference::plain_cpu()).err().expect("refused").to_string();
    assert!(err.contains("network format 1"), "{err}");

    let new = save_checkpoint(&dir, &net, &trainer, &state(NETWORK_FORMAT)).unwrap();
    assert_eq!(load_checkpoint(&new, &mut net, None).unwrap().format, NETWORK_FORMAT);
    std::fs::remove_dir_all(&dir).unwrap();
}
