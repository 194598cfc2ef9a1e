//! A diverged network (a NaN or infinite weight) is never exported: the sidecar and model would
//! carry garbage to every user of the file.

use nn::checkpoint::{save_checkpoint, CheckpointState};
use nn::export::{export_checkpoint, ExportFormat};
use nn::NetConfig;
use nn::{Device, PolicyValueNet, Trainer};
use rules::hexchess::MiniHexchess;

#[test]
fn a_checkpoint_with_a_non_finite_weight_is_not_exported() {
    let dir = std::env::temp_dir().join(format!("vzero-diverged-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let net = PolicyValueNet::new(&NetConfig::for_game::<MiniHexchess>(1, 8), Device::Cpu);
    let trainer = Trainer::new(&net, 0.01, 0.0);
    let (_, weight) = net.var_store().variables().into_iter().max_by(|a, b| a.0.cmp(&b.0)).unwrap();
    tch::no_grad(|| {
        let _ = weight.view(-1).get(0).fill_(f64::INFINITY);
    });
    let state = CheckpointState {
        variant: "mini-hexchess".into(),
        blocks: 1,
        channels: 8,
        trunk: nn::Trunk::Full,
        step: 0,
        iteration: 0,
        games: 0,
        format: nn::checkpoint::NETWORK_FORMAT,
    };
    let checkpoint = save_checkpoint(&dir, &net, &trainer, &state).unwrap();
    let out = dir.join("model.pt");
    let err = export_checkpoint::<MiniHexchess>(&checkpoint, &out, ExportFormat::TorchScript).unwrap_err();
    assert!(err.to_string().contains("not finite"), "{err}");
    assert!(!out.exists() && !nn::export::sidecar_path(&out).exists(), "a file was written");
    std::fs::remove_dir_all(&dir).unwrap();
}
