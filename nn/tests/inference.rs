//! The inference service batches requests from many threads and answers each exactly as the
//! network would alone.

use std::path::PathBuf;
use std::time::Duration;

use nn::checkpoint::save_weights;
use nn::{BatchingConfig, InferenceClient, InferenceForm, InferenceService, NetConfig, PolicyValueNet};
use tch::Device;

fn config() -> NetConfig {
    // Three players: one wins, one is second, one loses, in every order.
    let outcomes = vec![vec![1.0, 0.5, 0.0], vec![0.0, 1.0, 0.5], vec![0.5, 0.0, 1.0], vec![0.5, 0.5, 0.5]];
    NetConfig {
        input_shape: vec![4, 5, 5],
        policy_size: 20,
        players: 3,
        outcomes,
        blocks: 1,
        channels: 8,
        trunk: nn::Trunk::Full,
        board_mask: None,
    }
}

fn position(cfg: &NetConfig, seed: usize) -> Vec<f32> {
    (0..cfg.input_len()).map(|j| ((seed * 17 + j * 5) % 13) as f32 / 13.0).collect()
}

/// A service of plain networks of `cfg` (weights to be loaded), batching as `batching` says.
fn serve(cfg: &NetConfig, batching: BatchingConfig) -> (InferenceService, InferenceClient) {
    let cfg = cfg.clone();
    InferenceService::spawn(move || PolicyValueNet::new(&cfg, Device::Cpu), batching)
}

/// A network seeded with `seed`, saved as `w.safetensors` in a fresh temporary folder named
/// after `test`: the reference the service's answers are compared with, and its weights file.
fn saved_reference(cfg: &NetConfig, seed: i64, test: &str) -> (PolicyValueNet, PathBuf, PathBuf) {
    tch::manual_seed(seed);
    let reference = PolicyValueNet::new(cfg, Device::Cpu);
    let dir = std::env::temp_dir().join(format!("vzero-inference-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let weights = dir.join("w.safetensors");
    save_weights(&reference, &weights).unwrap();
    (reference, dir, weights)
}

#[test]
fn batched_answers_equal_single_forward_passes() {
    let cfg = config();
    let (reference, dir, weights) = saved_reference(&cfg, 7, "batched");

    let batching = BatchingConfig {
        max_batch: 8,
        max_wait: Duration::from_millis(200),
        form: InferenceForm::PLAIN,
        threads: 1,
        passes: 1,
    };
    let (service, client) = serve(&cfg, batching);
    client.load_weights(weights.clone()).unwrap().unwrap();

    const THREADS: usize = 4;
    const REQUESTS: usize = 6;
    let answers: Vec<Vec<(usize, nn::Outputs)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let client = client.clone();
                let cfg = &cfg;
                s.spawn(move || {
                    (0..REQUESTS)
                        .map(|r| {
                            let seed = t * 100 + r;
                            // Two positions per request, so requests are split back correctly.
                            let mut x = position(cfg, seed);
                            x.extend(position(cfg, seed + 50));
                            (seed, client.evaluate(x, 2).unwrap())
                        })
                        .collect()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });

    for (seed, out) in answers.into_iter().flatten() {
        for (k, s) in [seed, seed + 50].into_iter().enumerate() {
            let (p, v) = reference.predict(&position(&cfg, s), 1);
            let p: Vec<f32> = Vec::try_from(&p.flatten(0, -1)).unwrap();
            let v: Vec<f32> = Vec::try_from(&v.flatten(0, -1)).unwrap();
            let got_p = &out.policy[k * 20..(k + 1) * 20];
            let got_v = &out.values[k * 3..(k + 1) * 3];
            for (a, b) in got_p.iter().zip(&p).chain(got_v.iter().zip(&v)) {
                assert!((a - b).abs() < 1e-4, "position {s}: batched {a} vs alone {b}");
            }
        }
    }
    let stats = client.stats();
    assert_eq!(stats.positions(), (THREADS * REQUESTS * 2) as u64);
    assert!(
        stats.mean_batch() > 2.0,
        "requests from {THREADS} threads were not batched: {} per batch",
        stats.mean_batch()
    );
    drop(client);
    service.join();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn loading_a_missing_file_reports_an_error_and_keeps_serving() {
    let cfg = config();
    let batching = BatchingConfig {
        max_batch: 4,
        max_wait: Duration::from_millis(1),
        form: InferenceForm::PLAIN,
        threads: 1,
        passes: 1,
    };
    let (service, client) = serve(&cfg, batching);
    let err = client.load_weights("/nonexistent/w.safetensors".into()).unwrap();
    assert!(err.is_err());
    let out = client.evaluate(position(&cfg, 1), 1).unwrap();
    assert_eq!((out.policy.len(), out.values.len()), (20, 3));
    drop(client);
    service.join();
}

#[test]
fn a_lone_waiting_client_is_served_without_waiting_for_the_timeout() {
    let cfg = config();
    // A wait far longer than the test may take: only the "everyone is waiting" rule can answer.
    let batching = BatchingConfig {
        max_batch: 64,
        max_wait: Duration::from_secs(60),
        form: InferenceForm::PLAIN,
        threads: 1,
        passes: 1,
    };
    let (service, client) = serve(&cfg, batching);
    let begun = std::time::Instant::now();
    for seed in 0..3 {
        client.evaluate(position(&cfg, seed), 1).unwrap();
    }
    assert!(begun.elapsed() < Duration::from_secs(30), "a lone client waited for the batch timeout");
    drop(client);
    service.join();
}

#[test]
fn a_fast_form_is_rebuilt_from_loaded_weights() {
    let cfg = config();
    let (reference, dir, weights) = saved_reference(&cfg, 8, "fast");
    let batching = BatchingConfig {
        max_batch: 8,
        max_wait: Duration::from_millis(1),
        form: InferenceForm::FAST_FP32,
        threads: 1,
        passes: 1,
    };
    // The service starts from other weights than the reference's; only the loaded ones match.
    let (service, client) = serve(&cfg, batching);
    let x = position(&cfg, 3);
    let before = client.evaluate(x.clone(), 1).unwrap();
    client.load_weights(weights).unwrap().unwrap();
    let after = client.evaluate(x.clone(), 1).unwrap();
    let (policy, values) = reference.predict(&x, 1);
    let policy = Vec::<f32>::try_from(policy.flatten(0, -1)).unwrap();
    let values = Vec::<f32>::try_from(values.flatten(0, -1)).unwrap();
    let close = |a: &[f32], b: &[f32]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-4);
    assert!(close(&after.policy, &policy) && close(&after.values, &values), "the fast form runs the loaded weights");
    assert!(!close(&before.policy, &policy), "the service's own weights differed before the load");
    drop(client);
    service.join();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A batch split into passes run at once answers as one pass does (to float tolerance: the
/// kernels differ with the batch size), every time alike, with new weights reaching every pass.
#[test]
fn batches_split_into_passes_answer_as_one_pass() {
    let cfg = config();
    let (_, dir, weights) = saved_reference(&cfg, 9, "passes");
    let start = |passes: usize| {
        let batching = BatchingConfig {
            max_batch: 64,
            max_wait: Duration::from_millis(1),
            form: InferenceForm::FAST_FP32,
            threads: 1,
            passes,
        };
        let (service, client) = serve(&cfg, batching);
        client.load_weights(weights.clone()).unwrap().unwrap();
        (service, client)
    };
    // 23 positions in one request: three passes of 8, 8 and 7.
    let count = 23;
    let x: Vec<f32> = (0..count).flat_map(|i| position(&cfg, i)).collect();
    let (one, one_client) = start(1);
    let (three, three_client) = start(3);
    let whole = one_client.evaluate(x.clone(), count).unwrap();
    let split = three_client.evaluate(x.clone(), count).unwrap();
    let again = three_client.evaluate(x.clone(), count).unwrap();
    assert_eq!(split.policy.len(), whole.policy.len());
    assert_eq!(split.values.len(), whole.values.len());
    assert_eq!(split.outcomes.len(), whole.outcomes.len());
    let largest = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0f32, f32::max);
    let diff = largest(&split.policy, &whole.policy)
        .max(largest(&split.values, &whole.values))
        .max(largest(&split.outcomes, &whole.outcomes));
    assert!(diff < 1e-4, "split passes differ by {diff}");
    assert_eq!(&*split.policy, &*again.policy, "the same split answers the same, bit for bit");
    assert_eq!(&*split.values, &*again.values);
    // Positions are not mixed up between passes: the last pass's last position is its own.
    let last = one_client.evaluate(position(&cfg, count - 1), 1).unwrap();
    let p = cfg.policy_size;
    assert!(largest(&split.policy[(count - 1) * p..], &last.policy) < 1e-4, "the last position's logits");

    // New weights reach every pass, not only the service thread's.
    tch::manual_seed(10);
    let other = PolicyValueNet::new(&cfg, Device::Cpu);
    let other_weights = dir.join("other.safetensors");
    save_weights(&other, &other_weights).unwrap();
    three_client.load_weights(other_weights).unwrap().unwrap();
    let reloaded = three_client.evaluate(x.clone(), count).unwrap();
    let (policy, _) = other.predict(&x, count);
    let policy = Vec::<f32>::try_from(policy.flatten(0, -1)).unwrap();
    assert!(largest(&reloaded.policy, &policy) < 1e-4, "every pass runs the new weights");
    for (service, client) in [(one, one_client), (three, three_client)] {
        drop(client);
        service.join();
    }
    let _ = std::fs::remove_dir_all(&dir);
}
