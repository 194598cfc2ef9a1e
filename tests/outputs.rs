//! Every file vzero writes is written whole through a temporary and renamed: on a full disk a
//! command fails in one line (no libtorch abort, no backtrace) and leaves the previous file as
//! it was and no temporary behind. Output paths are checked before the work, and no command
//! writes into a checkpoint folder or over a file of a run, by name or through a link.

mod common;

use std::path::Path;
use std::process::Command;

use common::{scratch, stderr_of, tiny_run, vzero};
use nn::checkpoint::RUN_CHECKPOINTS;

/// Writes whole outputs onto a disk that is full: a small tmpfs mounted in a private mount
/// namespace (`unshare`, as root or through a user namespace; 2 MiB, room for every output
/// once, about 0.6 MiB for a tiny run), filled up after the first
/// outputs were written (the exports meet 40 KiB left, less than a model). The script runs
/// each command twice (the export once more to a new name), prints `NAME rc=N` and the
/// checksums of the files before and after, and leaves each error in `errors/NAME`.
const FULL_DISK_SCRIPT: &str = r#"
set -u
V=$1; RUN=$2; ERR=$3; F=$4
mount -t tmpfs -o size=2m tmpfs "$F" || exit 99
SHARD=$(ls "$RUN"/replay/*.shard | head -1)
each() {
  "$V" export "$RUN" --out "$F/model.pt" || return 1
  "$V" export "$RUN" --format safetensors --out "$F/model.safetensors" || return 1
  "$V" replay "$SHARD" --out "$F/g.html" || return 1
  "$V" render --variant glinski --out "$F/b.svg" || return 1
  "$V" plot "$RUN" --out "$F/c.svg" || return 1
  "$V" encode --variant glinski --out "$F/pos" || return 1
}
each >/dev/null 2>"$ERR/first" || { echo "first rc=1"; exit 0; }
echo "before $(cd "$F" && cksum $(ls -A | grep -v '^pos$') pos/* | sort | tr '\n' ' ')"
dd if=/dev/zero of="$F/filler" bs=4k 2>/dev/null
try() { name=$1; shift; "$V" "$@" >/dev/null 2>"$ERR/$name"; echo "$name rc=$?"; }
# Room for part of a model: libtorch saving a new file there aborted (exit 134).
truncate -s -40k "$F/filler"
try torchscript export "$RUN" --out "$F/model.pt"
try safetensors export "$RUN" --format safetensors --out "$F/model.safetensors"
try fresh export "$RUN" --out "$F/fresh.pt"
dd if=/dev/zero of="$F/filler" bs=4k oflag=append conv=notrunc 2>/dev/null
try replay replay "$SHARD" --out "$F/g.html"
try render render --variant glinski --out "$F/b.svg"
try plot plot "$RUN" --out "$F/c.svg"
try encode encode --variant glinski --moves f5-f6 --out "$F/pos"
rm "$F/filler"
echo "after $(cd "$F" && cksum $(ls -A | grep -v '^pos$') pos/* | sort | tr '\n' ' ')"
echo "files $(cd "$F" && ls -A . pos | tr '\n' ' ')"
"#;

#[test]
fn a_full_disk_fails_each_write_in_one_line_and_keeps_the_previous_file() {
    let dir = scratch("outputs-full");
    let run = dir.join("run");
    tiny_run(&run);
    let (errors, full) = (dir.join("errors"), dir.join("full"));
    std::fs::create_dir_all(&errors).unwrap();
    std::fs::create_dir_all(&full).unwrap();
    let namespace = ["-rm", "-m"]
        .into_iter()
        .find(|flags| Command::new("unshare").args([flags, "true"]).status().is_ok_and(|s| s.success()));
    let Some(flags) = namespace else {
        println!("SKIPPED: no private mount namespace here (unshare -rm and -m both fail)");
        return;
    };
    let report = Command::new("unshare")
        .args([flags, "bash", "-c", FULL_DISK_SCRIPT, "full-disk", env!("CARGO_BIN_EXE_vzero")])
        .args([&run, &errors, &full])
        .env("VZERO_MODELS", common::NO_MODELS)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&report.stdout).into_owned();
    assert!(report.status.success(), "{text}{}", stderr_of(&report));
    let first = std::fs::read_to_string(errors.join("first")).unwrap_or_default();
    assert!(!text.contains("first rc=1"), "the outputs did not fit the empty disk: {first}");
    for name in ["torchscript", "safetensors", "fresh", "replay", "render", "plot", "encode"] {
        assert!(text.contains(&format!("{name} rc=1")), "{name} on a full disk: {text}");
        let err = std::fs::read_to_string(errors.join(name)).unwrap();
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(err.contains("No space left on device"), "{name}: {err}");
    }
    let line = |key: &str| text.lines().find_map(|l| l.strip_prefix(key)).unwrap_or_default().to_string();
    assert_eq!(line("before "), line("after "), "a previous file changed");
    let files = line("files ");
    assert!(!files.contains(".tmp") && !files.contains("fresh"), "a temporary or part of a file was left: {files}");
    for kept in ["model.pt", "model.pt.json", "model.safetensors.json", "g.html", "planes.npy", "position.json"] {
        assert!(files.split(' ').any(|f| f == kept), "{kept} is gone: {files}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn arena_checks_out_before_it_plays() {
    let dir = scratch("outputs-arena");
    for out in [dir.join("missing/x.jsonl"), dir.clone()] {
        let args = ["arena", "--variant", "mini-hexchess", "random", "random", "--games", "2", "--out"];
        let result = vzero(&[&args[..], &[out.to_str().unwrap()]].concat());
        assert_eq!(result.status.code(), Some(1), "--out {}", out.display());
        let err = stderr_of(&result);
        assert!(err.contains("--out") && err.lines().count() == 1, "{err}");
        assert!(result.stdout.is_empty(), "the match was played: {}", String::from_utf8_lossy(&result.stdout));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn pictures_and_pages_check_out_before_drawing_and_leave_no_file() {
    let dir = scratch("outputs-pictures");
    let run = dir.join("run");
    tiny_run(&run);
    let shard = std::fs::read_dir(run.join("replay")).unwrap().next().unwrap().unwrap().path();
    let missing = dir.join("missing/x.svg");
    let missing = missing.to_str().unwrap();
    for args in [
        vec!["render", "--variant", "glinski", "--out", missing],
        vec!["replay", shard.to_str().unwrap(), "--out", missing],
        vec!["plot", run.to_str().unwrap(), "--out", missing],
    ] {
        let result = vzero(&args);
        assert_eq!(result.status.code(), Some(1), "{args:?}");
        let err = stderr_of(&result);
        assert!(err.contains("does not exist") && err.lines().count() == 1, "{args:?}: {err}");
    }
    assert!(!dir.join("missing").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn encode_refuses_checkpoint_folders_and_run_files_as_export_does() {
    let dir = scratch("outputs-encode");
    let run = dir.join("run");
    tiny_run(&run);
    let checkpoint = std::fs::read_dir(run.join(RUN_CHECKPOINTS)).unwrap().next().unwrap().unwrap().path();
    let before: Vec<_> = std::fs::read_dir(&checkpoint).unwrap().map(|e| e.unwrap().file_name()).collect();
    let encode = |out: &Path| vzero(&["encode", "--variant", "mini-hexchess", "--out", out.to_str().unwrap()]);
    let result = encode(&checkpoint);
    assert_eq!(result.status.code(), Some(1));
    assert!(stderr_of(&result).contains("inside the checkpoint"), "{}", stderr_of(&result));
    let after: Vec<_> = std::fs::read_dir(&checkpoint).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(before, after, "files were written into the checkpoint");
    // A run's own file (here a position.json a user put there) is not overwritten.
    std::fs::write(run.join("position.json"), "mine").unwrap();
    let result = encode(&run);
    assert_eq!(result.status.code(), Some(1));
    assert!(stderr_of(&result).contains("would overwrite"), "{}", stderr_of(&result));
    assert_eq!(std::fs::read_to_string(run.join("position.json")).unwrap(), "mine");
    assert!(!run.join("planes.npy").exists(), "encode wrote part of its output");
    // A fresh folder inside the run is fine, as a fresh file is for export.
    assert!(encode(&run.join("pos")).status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every file under `dir` with its bytes, to see that a refused command changed nothing.
fn snapshot(dir: &Path) -> std::collections::BTreeMap<std::path::PathBuf, Vec<u8>> {
    let mut files = std::collections::BTreeMap::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                files.insert(path.clone(), std::fs::read(&path).unwrap());
            }
        }
    }
    files
}

/// Runs `args`, expecting a refusal of `--out` in one line holding `needle`, before any work.
fn refused_out(args: &[&str], needle: &str) {
    let result = vzero(args);
    let err = stderr_of(&result);
    assert_eq!(result.status.code(), Some(1), "{args:?}: {err}");
    assert!(err.contains("--out") && err.contains(needle) && err.lines().count() == 1, "{args:?}: {err}");
    assert!(result.stdout.is_empty(), "{args:?} did its work: {}", String::from_utf8_lossy(&result.stdout));
}

#[test]
fn no_writer_writes_over_a_file_of_a_run() {
    let dir = scratch("outputs-run-files");
    let run = dir.join("run");
    tiny_run(&run);
    let shard = std::fs::read_dir(run.join("replay")).unwrap().next().unwrap().unwrap().path();
    let (run_text, shard_text) = (run.to_str().unwrap(), shard.to_str().unwrap());
    let before = snapshot(&run);
    let (config, metrics) = (run.join("config.toml"), run.join("metrics.jsonl"));
    for victim in [config.to_str().unwrap(), metrics.to_str().unwrap(), shard_text] {
        let arena = ["arena", "--variant", "mini-hexchess", "random", "random", "--games", "2"];
        for args in [
            vec!["render", "--variant", "glinski", "--out", victim],
            vec!["replay", shard_text, "--out", victim],
            vec!["plot", run_text, "--out", victim],
            [&arena[..], &["--out", victim]].concat(),
        ] {
            // A command's own input (replay's game, plot's metrics and config) is refused as that,
            // the others as files of the run.
            let input =
                if args[0] == "plot" { victim != shard_text } else { args[0] == "replay" && victim == shard_text };
            let needle = if input { "input" } else { "a file of the run" };
            refused_out(&args, needle);
        }
    }
    // New files are refused where the run owns the name or the folder: a JSON line in
    // `finished` would end the run's workers, one in replay/ would be read as a broken shard.
    for new in ["finished", "train.lock", "replay/new.shard", "games/new.txt", "checkpoints/new.svg"] {
        let out = run.join(new);
        let arena = ["arena", "--variant", "mini-hexchess", "random", "random", "--games", "2"];
        refused_out(&[&arena[..], &["--out", out.to_str().unwrap()]].concat(), "of the run");
        refused_out(&["render", "--variant", "glinski", "--out", out.to_str().unwrap()], "of the run");
    }
    assert_eq!(snapshot(&run), before, "a file of the run changed, or one was added");
    // A fresh file of the user's beside the run's is fine.
    let curves = run.join("curves.svg");
    let result = vzero(&["plot", run_text, "--out", curves.to_str().unwrap()]);
    assert!(result.status.success(), "{}", stderr_of(&result));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn no_writer_writes_into_a_run_through_a_link() {
    // `ln -sf RUN/config.toml results.jsonl; vzero arena ... --out results.jsonl` appended a
    // result to the run's config, and `runs status` then said it was not a run.
    let dir = scratch("outputs-links");
    let run = dir.join("run");
    tiny_run(&run);
    let checkpoint = std::fs::read_dir(run.join(RUN_CHECKPOINTS)).unwrap().next().unwrap().unwrap().path();
    let before = snapshot(&run);
    let arena = ["arena", "--variant", "mini-hexchess", "random", "greedy", "--games", "2"];
    for (target, needle) in [
        (run.join("config.toml"), "a file of the run"),
        (run.join("metrics.jsonl"), "a file of the run"),
        (checkpoint.join("state.json"), "inside the checkpoint"),
        (run.join("replay/new.jsonl"), "a folder of the run"),
    ] {
        let link = dir.join("results.jsonl");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&target, &link).unwrap();
        // A link to a link leads to the same place.
        let second = dir.join("second.svg");
        let _ = std::fs::remove_file(&second);
        std::os::unix::fs::symlink(&link, &second).unwrap();
        refused_out(&[&arena[..], &["--out", link.to_str().unwrap()]].concat(), needle);
        refused_out(&["render", "--variant", "glinski", "--out", second.to_str().unwrap()], needle);
        let err = stderr_of(&vzero(&[&arena[..], &["--out", link.to_str().unwrap()]].concat()));
        assert!(err.contains("a link to") && err.contains(target.file_name().unwrap().to_str().unwrap()), "{err}");
    }
    assert_eq!(snapshot(&run), before, "a file of the run changed, or one was added");
    let status = vzero(&["runs", "status", run.to_str().unwrap()]);
    assert!(status.status.success(), "{}", stderr_of(&status));
    // A link that leads nowhere writable, or round in a loop, is refused before the games.
    let nowhere = dir.join("nowhere.jsonl");
    std::os::unix::fs::symlink(dir.join("missing/results.jsonl"), &nowhere).unwrap();
    refused_out(&[&arena[..], &["--out", nowhere.to_str().unwrap()]].concat(), "missing");
    let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    refused_out(&[&arena[..], &["--out", a.to_str().unwrap()]].concat(), "a loop of symbolic links");
    // A link to a file of the user's own is written through.
    let mine = dir.join("mine.jsonl");
    let link = dir.join("to-mine.jsonl");
    std::os::unix::fs::symlink(&mine, &link).unwrap();
    let result = vzero(&[&arena[..], &["--out", link.to_str().unwrap()]].concat());
    assert!(result.status.success(), "{}", stderr_of(&result));
    assert_eq!(std::fs::read_to_string(&mine).unwrap().lines().count(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn no_command_writes_over_its_own_input() {
    let dir = scratch("outputs-own-input");
    let run = dir.join("run");
    tiny_run(&run);
    let shard = std::fs::read_dir(run.join("replay")).unwrap().next().unwrap().unwrap().path();
    let games = dir.join("games.shard");
    std::fs::copy(&shard, &games).unwrap();
    let before = std::fs::read(&games).unwrap();
    // The same file under another spelling is the same file.
    let spelled = dir.join(".").join("games.shard");
    for out in [&games, &spelled] {
        let (input, out) = (games.to_str().unwrap(), out.to_str().unwrap());
        refused_out(&["replay", input, "--out", out], "input");
        refused_out(&["render", "--game", input, "--ply", "0", "--out", out], "input");
    }
    assert_eq!(std::fs::read(&games).unwrap(), before, "the input was overwritten");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_output_folder_that_takes_no_files_is_named_as_the_outputs() {
    if !Path::new("/proc/self").is_dir() {
        println!("SKIPPED: no /proc here");
        return;
    }
    // /proc exists but takes no new files, even for root: the OS says "No such file or
    // directory", which must not read as if /proc were missing.
    let arena = ["arena", "--variant", "mini-hexchess", "random", "random", "--games", "2", "--out", "/proc/x.jsonl"];
    for args in [&["render", "--variant", "glinski", "--out", "/proc/x.svg"][..], &arena[..]] {
        let out = args.last().unwrap();
        refused_out(args, &format!("--out {out}: /proc: cannot make a file in this folder"));
    }
}

#[test]
fn pictures_and_pages_are_named_by_their_format() {
    let dir = scratch("outputs-formats");
    let run = dir.join("run");
    tiny_run(&run);
    let shard = std::fs::read_dir(run.join("replay")).unwrap().next().unwrap().unwrap().path();
    let out = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (png, svg, html) = (out("x.png"), out("x.svg"), out("x.html"));
    refused_out(
        &["render", "--variant", "glinski", "--out", &png],
        "this command writes only SVG; name the file *.svg",
    );
    refused_out(
        &["render", "--variant", "glinski", "--out", &html],
        "this command writes only SVG; name the file *.svg",
    );
    refused_out(
        &["replay", shard.to_str().unwrap(), "--out", &svg],
        "this command writes only HTML; name the file *.html",
    );
    refused_out(&["plot", run.to_str().unwrap(), "--out", &png], "this command writes only SVG; name the file *.svg");
    assert!(!dir.join("x.png").exists() && !dir.join("x.svg").exists() && !dir.join("x.html").exists());
    let upper = out("X.SVG");
    assert!(vzero(&["render", "--variant", "glinski", "--out", &upper]).status.success(), "the case is the user's");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Makes `run` read-only. Where that does not stop writes (root), its metrics.jsonl, where a
/// gauntlet keeps its results, becomes a folder instead, which no one can append to.
fn make_unwritable(run: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let metrics = run.join("metrics.jsonl");
    let set = |path: &Path, mode| std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    set(&metrics, 0o444);
    set(run, 0o555);
    if std::fs::write(run.join("probe"), "").is_ok() {
        std::fs::remove_file(run.join("probe")).unwrap();
        set(run, 0o755);
        set(&metrics, 0o644);
        std::fs::remove_file(&metrics).unwrap();
        std::fs::create_dir(&metrics).unwrap();
    }
}

#[test]
fn a_gauntlet_on_a_run_it_cannot_write_plays_no_game() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("outputs-gauntlet");
    let run = dir.join("run");
    tiny_run(&run);
    make_unwritable(&run);
    // The opponent, an engine, leaves a mark when it is started: then games were begun.
    let mark = dir.join("engine-started");
    let engine = format!("uci:sh -c 'touch {}; exec {} uci'", mark.display(), env!("CARGO_BIN_EXE_vzero"));
    let args = ["gauntlet", run.to_str().unwrap(), "--against", &engine, "--games", "2", "--sims", "2"];
    let result = vzero(&[&args[..], &["--max-plies", "20", "--device", "cpu"]].concat());
    let err = stderr_of(&result);
    assert_eq!(result.status.code(), Some(1), "{err}");
    assert!(err.contains("metrics.jsonl") && err.contains("no game was played") && err.lines().count() == 1, "{err}");
    assert!(!mark.exists(), "games were played before the results were found unkeepable: {err}");
    // What the run has can still be shown.
    let table = vzero(&["gauntlet", run.to_str().unwrap(), "--table-only"]);
    assert!(table.status.success(), "{}", stderr_of(&table));
    std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}
