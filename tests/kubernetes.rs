//! The Kubernetes manifests of deploy/kubernetes parse and say what the README promises: a
//! trainer Job and an indexed worker Job on one shared volume, running vzero's command lines,
//! restarted (not failed) when vzero stops early after saving.

use yaml_rust2::{Yaml, YamlLoader};

/// vzero's exit status for "stopped early by a signal, after saving".
const EXIT_STOPPED: i64 = 3;

fn manifest(name: &str) -> Yaml {
    let path = format!("{}/deploy/kubernetes/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut docs = YamlLoader::load_from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert_eq!(docs.len(), 1, "{path}: one object per file");
    docs.remove(0)
}

/// A string list as Rust strings (empty when the value is not a list of strings).
fn strings(list: &Yaml) -> Vec<&str> {
    list.as_vec().map_or_else(Vec::new, |items| items.iter().filter_map(Yaml::as_str).collect())
}

/// Checks what both Jobs share and returns the container's command line.
fn check_job(job: &Yaml, name: &str) -> Vec<String> {
    assert_eq!(job["apiVersion"].as_str(), Some("batch/v1"), "{name}");
    assert_eq!(job["kind"].as_str(), Some("Job"), "{name}");
    assert_eq!(job["metadata"]["name"].as_str(), Some(name));
    let spec = &job["spec"]["template"]["spec"];
    // podFailurePolicy applies only to pods that are never restarted in place.
    assert_eq!(spec["restartPolicy"].as_str(), Some("Never"), "{name}");
    assert!(spec["terminationGracePeriodSeconds"].as_i64().is_some_and(|s| s >= 60), "{name}: time to save");
    let rules =
        job["spec"]["podFailurePolicy"]["rules"].as_vec().unwrap_or_else(|| panic!("{name}: no podFailurePolicy"));
    let stopped = rules.iter().any(|rule| {
        let codes = &rule["onExitCodes"];
        rule["action"].as_str() == Some("Ignore")
            && codes["containerName"].as_str() == Some("vzero")
            && codes["operator"].as_str() == Some("In")
            && codes["values"].as_vec().is_some_and(|v| v.contains(&Yaml::Integer(EXIT_STOPPED)))
    });
    assert!(stopped, "{name}: exit status {EXIT_STOPPED} must start a new pod, not count as a failure");
    let containers = spec["containers"].as_vec().unwrap_or_else(|| panic!("{name}: no containers"));
    assert_eq!(containers.len(), 1, "{name}");
    let container = &containers[0];
    assert_eq!(container["name"].as_str(), Some("vzero"));
    let mount = &container["volumeMounts"][0];
    assert_eq!(mount["mountPath"].as_str(), Some("/runs"), "{name}");
    let volume = &spec["volumes"][0];
    assert_eq!(volume["name"].as_str(), mount["name"].as_str(), "{name}: the mount names the volume");
    assert_eq!(volume["persistentVolumeClaim"]["claimName"].as_str(), Some("vzero-runs"), "{name}");
    strings(&container["command"]).into_iter().map(String::from).collect()
}

#[test]
fn the_trainer_and_worker_jobs_share_a_run_and_restart_after_saving() {
    let volume = manifest("run-volume.yaml");
    assert_eq!(volume["kind"].as_str(), Some("PersistentVolumeClaim"));
    assert_eq!(volume["metadata"]["name"].as_str(), Some("vzero-runs"));
    assert_eq!(strings(&volume["spec"]["accessModes"]), ["ReadWriteMany"], "every pod mounts the run at once");

    let train = check_job(&manifest("trainer.yaml"), "vzero-train");
    assert_eq!(train[..2], ["vzero", "train"]);
    let run = train.iter().position(|a| a == "--run").map(|i| &train[i + 1]).expect("the trainer names its run");
    assert!(run.starts_with("/runs/") && train.contains(&"--config".to_string()), "{train:?}");

    let workers = manifest("selfplay.yaml");
    let play = check_job(&workers, "vzero-selfplay");
    assert_eq!(play[..2], ["vzero", "selfplay"]);
    let worker_run = play.iter().position(|a| a == "--run").map(|i| &play[i + 1]);
    assert_eq!(worker_run, Some(run), "the workers play into the trainer's run");
    assert!(play.contains(&"--wait".to_string()), "workers may start before the trainer: {play:?}");
    let spec = &workers["spec"];
    assert_eq!(spec["completionMode"].as_str(), Some("Indexed"));
    assert!(spec["completions"].as_i64().is_some_and(|n| n > 1), "{spec:?}");
    assert_eq!(spec["parallelism"].as_i64(), spec["completions"].as_i64(), "all workers at once");
}
