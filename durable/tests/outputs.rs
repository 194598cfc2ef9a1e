//! Outputs that are checked before the work, written all or none, or built in memory.

use std::fs;
use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vzero-durable-out-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn check_writable_refuses_missing_folders_and_folders_and_leaves_nothing() {
    let dir = scratch("check");
    durable::check_writable(&dir.join("x.jsonl")).unwrap();
    fs::write(dir.join("old.jsonl"), "kept\n").unwrap();
    durable::check_writable(&dir.join("old.jsonl")).unwrap();
    assert_eq!(fs::read_to_string(dir.join("old.jsonl")).unwrap(), "kept\n");
    let names: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["old.jsonl"], "the probe is gone, no file was made");

    let missing = durable::check_writable(&dir.join("nonexistent/x.jsonl")).unwrap_err();
    assert_eq!(missing.path, dir.join("nonexistent"));
    assert_eq!(missing.to_string(), format!("{}: does not exist", dir.join("nonexistent").display()));
    let folder = durable::check_writable(&dir).unwrap_err();
    assert!(folder.to_string().ends_with("is a folder"), "{folder}");
    let under_file = durable::check_writable(&dir.join("old.jsonl/x")).unwrap_err();
    assert!(under_file.to_string().ends_with("is not a folder"), "{under_file}");
}

#[test]
fn write_all_writes_every_file_or_none() {
    let dir = scratch("all");
    let (model, sidecar) = (dir.join("model.pt"), dir.join("model.pt.json"));
    durable::write_all(&[(&model, b"model 1"), (&sidecar, b"side 1")]).unwrap();
    durable::write_all(&[(&model, b"model 2"), (&sidecar, b"side 2")]).unwrap();
    assert_eq!(fs::read(&model).unwrap(), b"model 2");
    assert_eq!(fs::read(&sidecar).unwrap(), b"side 2");

    // The second file cannot be written: the first keeps its old content, no temporary stays.
    let blocked = dir.join("missing/model.pt.json");
    let err = durable::write_all(&[(&model, b"model 3"), (&blocked, b"side 3")]).unwrap_err();
    assert!(err.path.starts_with(dir.join("missing")), "{err}");
    assert_eq!(fs::read(&model).unwrap(), b"model 2");
    let mut names: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    names.sort();
    assert_eq!(names, ["model.pt", "model.pt.json"]);
}

#[test]
fn in_memory_returns_what_a_path_writer_wrote_and_leaves_no_file_behind() {
    let mut named = None;
    let bytes = durable::in_memory(|path| {
        named = Some(path.to_path_buf());
        let io = |source| durable::Error { path: path.into(), source };
        fs::write(path, b"first try, longer").map_err(io)?;
        // Writers open the path again, truncating, as libtorch does.
        fs::write(path, b"traced module").map_err(io)
    })
    .unwrap();
    assert_eq!(bytes, b"traced module");
    let err = durable::in_memory::<durable::Error>(|path| {
        Err(durable::Error { path: path.into(), source: std::io::Error::other("disk full") })
    })
    .unwrap_err();
    assert!(err.to_string().ends_with("disk full"));
    let named = named.unwrap();
    assert!(!named.exists() || named.starts_with("/proc"), "{} was left", named.display());
}
