//! The crash-safety promises of `durable`: a target is never seen half-written, temporaries
//! do not outlive a write, and a failed write leaves the old content.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vzero-durable-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[test]
fn write_replaces_the_file_and_leaves_no_temporary() {
    let dir = scratch("write");
    let path = dir.join("config.toml");
    durable::write(&path, b"first").unwrap();
    durable::write(&path, b"second").unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"second");
    assert_eq!(names(&dir), ["config.toml"]);
}

#[test]
fn a_temporary_left_by_a_crash_is_overwritten() {
    let dir = scratch("stale");
    let path = dir.join("a.shard");
    fs::write(durable::tmp_path(&path), b"half a shard from a killed process, longer than the new one").unwrap();
    durable::write(&path, b"whole").unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"whole");
    assert_eq!(names(&dir), ["a.shard"]);
}

#[test]
fn temporaries_are_named_as_crash_recovery_expects() {
    // selfplay's resume deletes replay/*.tmp and checkpoints/*.partial by extension.
    let tmp = durable::tmp_path(Path::new("run/replay/0001-h-1-000001.shard"));
    assert_eq!(tmp.extension().unwrap(), durable::TMP_EXTENSION);
    assert_eq!(tmp.parent().unwrap(), Path::new("run/replay"));
    let dir = scratch("names");
    let mut seen = None;
    durable::replace_dir(&dir.join("step-000000012"), |tmp: &Path| {
        seen = Some(tmp.to_path_buf());
        Ok::<(), durable::Error>(())
    })
    .unwrap();
    assert_eq!(seen.unwrap(), dir.join("step-000000012.partial"));
    let mut seen = None;
    durable::replace_with(&dir.join("weights.safetensors"), |tmp: &Path| {
        seen = Some(tmp.to_path_buf());
        fs::write(tmp, b"w")
    })
    .unwrap();
    // tch picks the file format from the extension, so the temporary keeps it.
    assert_eq!(seen.unwrap(), dir.join("weights.tmp.safetensors"));
}

#[test]
fn readers_never_see_half_a_file() {
    let dir = scratch("readers");
    let path = dir.join("big.bin");
    let contents: Vec<Vec<u8>> = (0..4u8).map(|b| vec![b; 1 << 20]).collect();
    durable::write(&path, &contents[0]).unwrap();
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            let mut reads = 0;
            while !done.load(Ordering::Relaxed) || reads == 0 {
                let got = fs::read(&path).unwrap();
                assert_eq!(got.len(), 1 << 20, "a reader saw a file of {} bytes", got.len());
                assert!(got.iter().all(|&b| b == got[0]), "a reader saw two writes mixed");
                reads += 1;
            }
        });
        for i in 0..40 {
            durable::write(&path, &contents[i % contents.len()]).unwrap();
        }
        done.store(true, Ordering::Relaxed);
    });
    assert_eq!(names(&dir), ["big.bin"]);
}

#[test]
fn a_failed_write_leaves_the_old_file() {
    let dir = scratch("failed");
    let path = dir.join("weights.safetensors");
    durable::write(&path, b"old").unwrap();
    let err = durable::replace_with(&path, |tmp: &Path| {
        fs::write(tmp, b"half")?;
        Err(io::Error::other("disk full"))
    })
    .unwrap_err();
    assert_eq!(err.to_string(), "disk full");
    assert_eq!(fs::read(&path).unwrap(), b"old");
    assert_eq!(names(&dir), ["weights.safetensors"]);

    // A write whose target cannot be replaced (a folder stands there) fails and cleans up.
    let blocked = dir.join("blocked");
    fs::create_dir_all(blocked.join("inside")).unwrap();
    let err = durable::write(&blocked, b"x").unwrap_err();
    assert_eq!(err.path, blocked);
    assert!(blocked.join("inside").is_dir());
    assert_eq!(names(&dir), ["blocked", "weights.safetensors"]);
}

#[test]
fn replace_dir_swaps_whole_folders() {
    let dir = scratch("dirs");
    let target = dir.join("step-000000001");
    let fill = |text: &'static [u8]| {
        move |tmp: &Path| -> Result<(), durable::Error> {
            durable::write(&tmp.join("state.json"), text)?;
            fs::write(tmp.join("weights.safetensors"), text)
                .map_err(|source| durable::Error { path: tmp.into(), source })
        }
    };
    durable::replace_dir(&target, fill(b"one")).unwrap();
    durable::replace_dir(&target, fill(b"two")).unwrap();
    assert_eq!(fs::read(target.join("state.json")).unwrap(), b"two");
    assert_eq!(names(&target), ["state.json", "weights.safetensors"]);

    let err = durable::replace_dir(&target, |tmp: &Path| {
        fs::write(tmp.join("state.json"), b"three")?;
        Err::<(), io::Error>(io::Error::other("killed"))
    })
    .unwrap_err();
    assert_eq!(err.to_string(), "killed");
    assert_eq!(fs::read(target.join("state.json")).unwrap(), b"two");
    assert_eq!(names(&dir), ["step-000000001"]);
}
