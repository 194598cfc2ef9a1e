//! Fuzzing checkpoint decoding (rules::fuzz): a real small checkpoint folder with its
//! `state.json` changed (and signed again, so the checks behind the checksum are reached), its
//! weights and optimizer files truncated, bit-flipped or rewritten with tensors of other shapes
//! and kinds. Loading either gives a network that works or an error, never a panic, a hang or
//! an allocation sized by a number in a file. Bounded here; `VZERO_FUZZ_CASES=100000 cargo test
//! --release -p nn --test fuzz` runs longer (docs/architecture.md, "Tests").

use std::path::{Path, PathBuf};

use nn::checkpoint::{
    load_checkpoint, read_state, save_checkpoint, verify_checkpoint, CheckpointState, NETWORK_FORMAT,
};
use nn::{Device, NetConfig, PolicyValueNet, Trainer};
use rules::fuzz::{self, mutate, CountingAlloc, Rng};
use rules::MiniHexchess;
use tch::{Kind, Tensor};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

const TENSOR_FILES: [&str; 2] = ["weights.safetensors", "optimizer.safetensors"];

/// A folder for files rewritten thousands of times: tmpfs where there is one, as ext4 writes a
/// file replaced by truncation back at once, which makes each case wait on the disk.
fn scratch(name: &str) -> PathBuf {
    let shm = Path::new("/dev/shm");
    let base = if shm.is_dir() { shm.to_path_buf() } else { std::env::temp_dir() };
    let dir = base.join(format!("vzero-fuzz-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn config() -> NetConfig {
    NetConfig::for_game::<MiniHexchess>(1, 4)
}

/// A checkpoint as training saves it, of a network of [`config`]'s shape.
fn real_checkpoint(root: &Path) -> PathBuf {
    let net = PolicyValueNet::seeded(&config(), Device::Cpu, 7);
    let trainer = Trainer::new(&net, 0.01, 1e-4);
    let state = CheckpointState {
        variant: "mini-hexchess".into(),
        blocks: 1,
        channels: 4,
        trunk: nn::Trunk::Full,
        step: 12,
        iteration: 3,
        games: 40,
        format: NETWORK_FORMAT,
    };
    save_checkpoint(root, &net, &trainer, &state).unwrap()
}

/// `state.json` for `state` and these files, with its checksum: over the compact JSON of the
/// two as the reader decodes them (nn/src/checkpoint/folder.rs); 0 where they do not decode.
fn signed_state(state: &serde_json::Value, files: &serde_json::Value) -> Vec<u8> {
    let typed = serde_json::from_value::<CheckpointState>(state.clone())
        .ok()
        .zip(serde_json::from_value::<Vec<(String, u32)>>(files.clone()).ok());
    let crc = typed.map_or(0, |typed| crc32fast::hash(&serde_json::to_vec(&typed).unwrap()));
    serde_json::to_vec_pretty(&serde_json::json!({ "state": state, "files": files, "crc32": crc })).unwrap()
}

/// `text` as `state.json`, signed again when it is JSON with a state and files.
fn resigned(text: &str, sign: bool) -> Vec<u8> {
    let parsed: Option<serde_json::Value> = serde_json::from_str(text).ok();
    match parsed.as_ref().and_then(|v| Some((v.get("state")?, v.get("files")?))) {
        Some((state, files)) if sign => signed_state(state, files),
        _ => text.as_bytes().to_vec(),
    }
}

/// The folder's files as one case writes them.
#[derive(Debug)]
struct Folder {
    state: Vec<u8>,
    weights: Vec<u8>,
    optimizer: Vec<u8>,
}

/// Values that break a field of `state.json`: sizes past the memory, negative, wrong types.
const FIELD_VALUES: &[&str] =
    &["0", "1", "-1", "4294967295", "18446744073709551615", "1e30", "null", "\"x\"", "[]", "{}", "true"];

/// `state.json` with one field of its state or files replaced, signed again.
fn changed_state(rng: &mut Rng, real: &serde_json::Value) -> Vec<u8> {
    let (mut state, mut files) = (real["state"].clone(), real["files"].clone());
    let text = *rng.pick(FIELD_VALUES);
    let value: serde_json::Value = serde_json::from_str(text).unwrap();
    match rng.below(6) {
        0 | 1 => {
            let key = *rng.pick(&["variant", "blocks", "channels", "step", "iteration", "games", "format", "extra"]);
            state[key] = value;
        }
        2 => {
            let name =
                *rng.pick(&["/dev/zero", "/proc/self/mem", "../../state.json", "", ".", "weights.safetensors", "nope"]);
            files[rng.below(2)][0] = name.into();
        }
        3 => files = serde_json::json!([]),
        4 => {
            let first = files[0].clone();
            files.as_array_mut().unwrap().push(first);
        }
        _ => state["blocks"] = serde_json::json!(rng.pick(&[2u64, 300, 1 << 20, 1 << 40])),
    }
    signed_state(&state, &files)
}

/// A safetensors file like `real` with one tensor replaced by one of another shape or kind.
fn changed_tensors(rng: &mut Rng, real: &Path) -> Vec<u8> {
    let mut tensors = Tensor::read_safetensors(real).unwrap();
    tensors.sort_by(|a, b| a.0.cmp(&b.0)); // read in hash order, which differs between runs
    let i = rng.below(tensors.len());
    let size = tensors[i].1.size();
    let kind =
        *rng.pick(&[Kind::Float, Kind::Double, Kind::Half, Kind::BFloat16, Kind::Int64, Kind::Uint8, Kind::Bool]);
    let shape: Vec<i64> = match rng.below(4) {
        0 => size.clone(),
        1 => vec![1],
        2 => size.iter().rev().copied().collect(),
        _ => vec![size.iter().product::<i64>()],
    };
    let numel: i64 = shape.iter().product();
    tensors[i].1 = Tensor::ones(numel.max(1), (Kind::Float, Device::Cpu)).to_kind(kind).reshape(&shape);
    if rng.percent(20) {
        let _ = tensors.remove(i);
    }
    let out = std::env::temp_dir().join(format!("vzero-fuzz-tensors-{}.safetensors", std::process::id()));
    Tensor::write_safetensors(&tensors, &out).unwrap();
    let bytes = std::fs::read(&out).unwrap();
    std::fs::remove_file(&out).unwrap();
    bytes
}

/// `state.json` for `state` signed for these tensor files, so a changed tensor file passes the
/// checksums and meets the loaders.
fn signed_for(state: &serde_json::Value, weights: &[u8], optimizer: &[u8]) -> Vec<u8> {
    let files =
        serde_json::json!([[TENSOR_FILES[0], crc32fast::hash(weights)], [TENSOR_FILES[1], crc32fast::hash(optimizer)]]);
    signed_state(state, &files)
}

#[test]
fn fuzz_checkpoints() {
    // One thread: libtorch's pool spins between the tiny operations of a load, most of a case's
    // time on shared cores.
    nn::set_threads(1);
    let root = scratch("checkpoints");
    let real_dir = real_checkpoint(&root.join("real"));
    let read = |name: &str| std::fs::read(real_dir.join(name)).unwrap();
    let (state, weights, optimizer) = (read("state.json"), read(TENSOR_FILES[0]), read(TENSOR_FILES[1]));
    let state_json: serde_json::Value = serde_json::from_slice(&state).unwrap();
    let state_text = vec![String::from_utf8(state.clone()).unwrap()];
    let (weights_corpus, optimizer_corpus) = (vec![weights.clone()], vec![optimizer.clone()]);
    let words = &["\"state\"", "\"files\"", "\"crc32\"", "\"blocks\":", "null", "[", "{", "-1", "1e999"];
    let case_dir = root.join("case");
    std::fs::create_dir_all(&case_dir).unwrap();
    let mut net = PolicyValueNet::seeded(&config(), Device::Cpu, 1);
    let mut trainer = Trainer::new(&net, 0.01, 1e-4);
    let probe = vec![0.0f32; config().input_len()];
    let stats = fuzz::run(
        "checkpoints",
        1500,
        |rng| {
            let mut f = Folder { state: state.clone(), weights: weights.clone(), optimizer: optimizer.clone() };
            match rng.below(8) {
                0 => f.state = resigned(&mutate::text(rng, &state_text, words), rng.percent(50)),
                1 => f.state = changed_state(rng, &state_json),
                2 => f.weights = mutate::bytes(rng, &weights_corpus),
                3 => f.optimizer = mutate::bytes(rng, &optimizer_corpus),
                4 | 5 => f.weights = changed_tensors(rng, &real_dir.join(TENSOR_FILES[0])),
                _ => f.optimizer = changed_tensors(rng, &real_dir.join(TENSOR_FILES[1])),
            }
            if rng.percent(70) && f.state == state {
                f.state = signed_for(&state_json["state"], &f.weights, &f.optimizer);
            }
            f
        },
        |f| {
            std::fs::write(case_dir.join("state.json"), &f.state).unwrap();
            std::fs::write(case_dir.join(TENSOR_FILES[0]), &f.weights).unwrap();
            std::fs::write(case_dir.join(TENSOR_FILES[1]), &f.optimizer).unwrap();
            let _ = read_state(&case_dir);
            let _ = verify_checkpoint(&case_dir);
            match load_checkpoint(&case_dir, &mut net, Some(&mut trainer)) {
                Ok(state) => {
                    // What was loaded is a network of the shape asked for, and it runs.
                    assert_eq!((state.blocks, state.channels), (1, 4), "{state:?}");
                    for (name, var) in net.var_store().variables() {
                        assert_eq!(var.kind(), Kind::Float, "{name} became {:?}", var.kind());
                    }
                    let (policy, _values) = net.predict(&probe, 1);
                    assert_eq!(policy.size(), [1, config().policy_size as i64]);
                    true
                }
                Err(_) => false,
            }
        },
    );
    std::fs::remove_dir_all(&root).unwrap();
    assert!(stats.read > 0);
}

// Inputs the fuzzing found, minimized, as regression tests. Each folder is the real
// checkpoint with one change and a `state.json` signed again, as a writer meaning to mislead
// (or a buggy one) would leave it.

/// A copy of a real checkpoint in `dir`, with the files `change` gives instead of its own.
fn folder_with(dir: &Path, change: impl FnOnce(&serde_json::Value, &Path) -> Folder) -> PathBuf {
    let real = real_checkpoint(&dir.join("real"));
    let state: serde_json::Value = serde_json::from_slice(&std::fs::read(real.join("state.json")).unwrap()).unwrap();
    let f = change(&state, &real);
    let case = dir.join("case");
    std::fs::create_dir_all(&case).unwrap();
    std::fs::write(case.join("state.json"), &f.state).unwrap();
    std::fs::write(case.join(TENSOR_FILES[0]), &f.weights).unwrap();
    std::fs::write(case.join(TENSOR_FILES[1]), &f.optimizer).unwrap();
    case
}

fn real_files(real: &Path) -> (Vec<u8>, Vec<u8>) {
    (std::fs::read(real.join(TENSOR_FILES[0])).unwrap(), std::fs::read(real.join(TENSOR_FILES[1])).unwrap())
}

/// `state.json` lists the files whose checksums it holds, and the reader trusted the list:
/// listing none left truncated weights unchecked, and `/dev/zero` would be read forever.
#[test]
fn state_json_must_list_exactly_the_tensor_files() {
    let root = scratch("listed-files");
    for (i, files) in [
        serde_json::json!([]),
        serde_json::json!([["weights.safetensors", 0]]),
        serde_json::json!([["weights.safetensors", 0], ["weights.safetensors", 0], ["optimizer.safetensors", 0]]),
        serde_json::json!([["/dev/zero", 0], ["optimizer.safetensors", 0]]),
    ]
    .into_iter()
    .enumerate()
    {
        let dir = folder_with(&root.join(i.to_string()), |state, real| {
            let (weights, optimizer) = real_files(real);
            Folder { state: signed_state(&state["state"], &files), weights: weights[..100].to_vec(), optimizer }
        });
        let err = verify_checkpoint(&dir).expect_err("a listing without both tensor files");
        assert!(err.to_string().contains("lists the files"), "{err}");
    }
    std::fs::remove_dir_all(&root).unwrap();
}

/// A state naming a network of 2^40 blocks was read as it was, and `export`, `arena` and
/// `uci` build the network the state names before loading its weights.
#[test]
fn a_state_naming_an_impossible_network_is_refused() {
    let root = scratch("shape");
    for (i, (blocks, channels)) in [(1u64 << 40, 4u64), (1, 1 << 40), (0, 4), (1, 0), (257, 4)].into_iter().enumerate()
    {
        let dir = folder_with(&root.join(i.to_string()), |state, real| {
            let (weights, optimizer) = real_files(real);
            let mut s = state["state"].clone();
            (s["blocks"], s["channels"]) = (blocks.into(), channels.into());
            Folder { state: signed_for(&s, &weights, &optimizer), weights, optimizer }
        });
        let err = read_state(&dir).expect_err("an impossible shape");
        assert!(err.to_string().contains("blocks x"), "{err}");
    }
    std::fs::remove_dir_all(&root).unwrap();
}

/// Weights of another kind or shape were loaded as libtorch does: a variable took the file's
/// kind (a network of f64 or integers, whose forward pass fails) or a broadcast value.
#[test]
fn weights_of_another_kind_or_shape_are_refused() {
    let root = scratch("tensor-kinds");
    for (i, (kind, shape)) in
        [(Kind::Double, None), (Kind::Int64, None), (Kind::Float, Some(vec![1i64]))].into_iter().enumerate()
    {
        let dir = folder_with(&root.join(i.to_string()), |state, real| {
            let mut tensors = Tensor::read_safetensors(real.join(TENSOR_FILES[0])).unwrap();
            tensors.sort_by(|a, b| a.0.cmp(&b.0));
            let t = &tensors[0].1;
            tensors[0].1 = match &shape {
                None => t.to_kind(kind),
                Some(shape) => Tensor::ones(shape.as_slice(), (kind, Device::Cpu)),
            };
            let path = root.join(format!("{i}.safetensors"));
            Tensor::write_safetensors(&tensors, &path).unwrap();
            let weights = std::fs::read(&path).unwrap();
            let optimizer = real_files(real).1;
            Folder { state: signed_for(&state["state"], &weights, &optimizer), weights, optimizer }
        });
        let mut net = PolicyValueNet::seeded(&config(), Device::Cpu, 1);
        let err = load_checkpoint(&dir, &mut net, None).expect_err("weights of another kind or shape");
        assert!(err.to_string().contains("the network needs"), "{err}");
    }
    std::fs::remove_dir_all(&root).unwrap();
}

/// A checkpoint whose state names another shape than the network it is loaded into was
/// loaded when its weights fit, so the caller believed the state.
#[test]
fn a_checkpoint_is_loaded_only_into_the_network_its_state_names() {
    let root = scratch("state-shape");
    let dir = folder_with(&root, |state, real| {
        let (weights, optimizer) = real_files(real);
        let mut s = state["state"].clone();
        s["blocks"] = 2.into();
        Folder { state: signed_for(&s, &weights, &optimizer), weights, optimizer }
    });
    let mut net = PolicyValueNet::seeded(&config(), Device::Cpu, 1);
    let err = load_checkpoint(&dir, &mut net, None).expect_err("a state of another shape");
    assert!(err.to_string().contains("2 blocks x 4 channels, not 1 x 4"), "{err}");
    std::fs::remove_dir_all(&root).unwrap();
}

/// The checked loader copies into the network's own variables: a checkpoint loaded into a
/// network of other weights leaves it with the saved ones.
#[test]
fn a_loaded_checkpoint_has_the_saved_weights() {
    let root = scratch("loaded");
    let dir = real_checkpoint(&root);
    let mut net = PolicyValueNet::seeded(&config(), Device::Cpu, 1);
    load_checkpoint(&dir, &mut net, None).unwrap();
    let saved: std::collections::HashMap<String, Tensor> =
        Tensor::read_safetensors(dir.join(TENSOR_FILES[0])).unwrap().into_iter().collect();
    let loaded = net.var_store().variables();
    assert_eq!(loaded.len(), saved.len());
    for (name, var) in &loaded {
        assert!(var.equal(&saved[name]), "{name} differs from the file");
    }
    std::fs::remove_dir_all(&root).unwrap();
}

/// A checkpoint whose weights are not all finite, with checksums that match (as a diverged
/// network saved by another program would be), is refused by the loader every command goes
/// through, naming the weight: `analyse` and `arena` played such a network with uniform priors.
#[test]
fn a_checkpoint_with_a_weight_that_is_not_finite_is_refused_by_name() {
    let root = scratch("not-finite");
    let mut net = PolicyValueNet::seeded(&config(), Device::Cpu, 7);
    let (name, mut weight) = net.var_store().variables().into_iter().min_by(|a, b| a.0.cmp(&b.0)).unwrap();
    let _ = tch::no_grad(|| weight.fill_(f64::NAN));
    let trainer = Trainer::new(&net, 0.01, 1e-4);
    let state = CheckpointState {
        variant: "mini-hexchess".into(),
        blocks: 1,
        channels: 4,
        trunk: nn::Trunk::Full,
        step: 1,
        iteration: 1,
        games: 1,
        format: NETWORK_FORMAT,
    };
    let dir = save_checkpoint(&root, &net, &trainer, &state).unwrap();
    verify_checkpoint(&dir).expect("the checksums match");
    let err = load_checkpoint(&dir, &mut net, None).expect_err("a weight that is NaN");
    assert!(err.to_string().contains(&format!("weight {name} is not finite")), "{err}");
    let err = nn::checkpoint::load_weights(&mut net, &dir.join(TENSOR_FILES[0])).expect_err("the same file alone");
    assert!(err.to_string().contains("is not finite"), "{err}");
    std::fs::remove_dir_all(&root).unwrap();
}
