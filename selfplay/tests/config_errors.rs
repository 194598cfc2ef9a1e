//! Bad configurations are refused with the file, the key and the reason.

use selfplay::config::{Config, ConfigError};

const GOOD: &str = "variant = \"glinski\"\n[network]\nblocks = 2\n";

fn err(text: &str, overrides: &[&str]) -> String {
    let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    Config::parse(text, "my.toml", &overrides).unwrap_err().to_string()
}

#[test]
fn a_good_config_loads_with_defaults_and_overrides() {
    let c = Config::parse(GOOD, "my.toml", &["training.iterations=3".into(), "variant=mini-hexchess".into()]).unwrap();
    assert_eq!(c.network.blocks, 2);
    assert_eq!(c.network.channels, 32);
    assert_eq!(c.training.iterations, 3);
    assert_eq!(c.variant().name(), "mini-hexchess");
    // The saved copy reads back as the same config.
    assert_eq!(Config::parse(&c.to_toml(), "copy", &[]).unwrap(), c);
}

#[test]
fn every_shipped_config_loads() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            Config::load(&path, &[]).unwrap_or_else(|e| panic!("{e}"));
            count += 1;
        }
    }
    assert!(count >= 3, "only {count} configs found");
}

/// The full configs are the reference documentation of the keys: each sets every key, so a
/// new key cannot be added without being documented in them.
#[test]
fn every_full_config_sets_every_key() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs");
    let all: toml::Table = Config::parse(GOOD, "my.toml", &[]).unwrap().to_toml().parse().unwrap();
    for variant in ["mini-hexchess", "glinski", "wellisch", "weltschach"] {
        let path = dir.join(format!("{variant}.toml"));
        let file: toml::Table = std::fs::read_to_string(&path).unwrap().parse().unwrap();
        for (key, value) in &all {
            let Some(section) = value.as_table() else {
                assert!(file.contains_key(key), "{}: no `{key}`", path.display());
                continue;
            };
            for inner in section.keys() {
                let set = file.get(key).and_then(|t| t.as_table()).is_some_and(|t| t.contains_key(inner));
                assert!(set, "{}: no `{key}.{inner}`", path.display());
            }
        }
    }
}

#[test]
fn an_unknown_key_names_the_file_line_and_key() {
    let e = err("variant = \"glinski\"\n[network]\nblokcs = 2\n", &[]);
    assert!(e.starts_with("my.toml: line 3"), "{e}");
    assert!(e.contains("blokcs"), "{e}");
}

#[test]
fn a_wrong_type_names_the_key() {
    let e = err("variant = \"glinski\"\n[training]\nbatch_size = \"big\"\n", &[]);
    assert!(e.contains("my.toml") && e.contains("line 3"), "{e}");
}

#[test]
fn bad_values_name_key_value_and_reason() {
    let e = err("variant = \"chess\"\n", &[]);
    assert!(
        e.contains("my.toml") && e.contains("variant") && e.contains("chess") && e.contains("unknown variant"),
        "{e}"
    );
    let e = err(GOOD, &["network.channels=0"]);
    assert!(e.contains("network.channels") && e.contains("from 1 to 4096"), "{e}");
    let e = err(GOOD, &["device=tpu"]);
    assert!(e.contains("device") && e.contains("tpu"), "{e}");
    let e = err(GOOD, &["search.dirichlet_epsilon=1.5"]);
    assert!(e.contains("search.dirichlet_epsilon") && e.contains("between 0 and 1"), "{e}");
}

#[test]
fn a_malformed_override_is_refused() {
    assert!(matches!(
        Config::parse(GOOD, "my.toml", &["training.iterations".into()]),
        Err(ConfigError::BadOverride(_))
    ));
    let e = err(GOOD, &["network.nonsense=1"]);
    assert!(e.contains("--set") && e.contains("nonsense"), "{e}");
}

/// `[search]` is read into mcts::SearchParams: keys left out take the defaults configs/*.toml
/// document, and SearchParams::validate runs on load.
#[test]
fn the_search_section_takes_the_documented_defaults_and_is_validated_on_load() {
    let c = Config::parse(GOOD, "my.toml", &[]).unwrap();
    let s = &c.search;
    assert_eq!((s.simulations, s.max_in_flight, s.temperature_plies, s.rollout_plies), (100, 4, 12, 200));
    assert_eq!(c.device, nn::DeviceChoice::Auto);
    let c = Config::parse(GOOD, "my.toml", &["search.simulations=7".into(), "device=cpu".into()]).unwrap();
    assert_eq!((c.search.simulations, c.search.max_in_flight, c.device), (7, 4, nn::DeviceChoice::Cpu));
    let e = err(GOOD, &["search.c_puct_base=0.0"]);
    assert!(e.contains("search.c_puct_base") && e.contains("above 0"), "{e}");
    // Search parameters that are not config keys stay unknown keys.
    let e = err("variant = \"glinski\"\n[search]\nvirtual_loss = 2.0\n", &[]);
    assert!(e.contains("line 3") && e.contains("virtual_loss"), "{e}");
}

/// Issue 22's search keys: repetition draws and the solver on by default, no contempt and no
/// temperature after the opening plies unless set; each can be set, and each is range-checked.
#[test]
fn the_exact_result_contempt_and_temperature_floor_keys() {
    let s = Config::parse(GOOD, "my.toml", &[]).unwrap().search;
    assert_eq!((s.repetition_draws, s.solver, s.draw_value, s.final_temperature), (true, true, 0.5, 0.0));
    let set = [
        "search.repetition_draws=false",
        "search.solver=false",
        "search.draw_value=0.4",
        "search.final_temperature=0.3",
    ];
    let s = Config::parse(GOOD, "my.toml", &set.map(String::from)).unwrap().search;
    assert_eq!((s.repetition_draws, s.solver, s.draw_value, s.final_temperature), (false, false, 0.4, 0.3));
    let e = err(GOOD, &["search.draw_value=0.6"]);
    assert!(e.contains("search.draw_value") && e.contains("between 0 and 0.5"), "{e}");
    let e = err(GOOD, &["search.final_temperature=-1"]);
    assert!(e.contains("search.final_temperature") && e.contains("from 0 to 100"), "{e}");
}

#[test]
fn every_numeric_key_is_range_checked_on_load() {
    // (override, the reason the error must give)
    let cases = [
        ("training.learning_rate=inf", "above 0 and at most 1000"),
        ("training.learning_rate=nan", "above 0 and at most 1000"),
        ("training.learning_rate=-0.1", "above 0 and at most 1000"),
        ("training.learning_rate=1e300", "above 0 and at most 1000"),
        ("training.lr_decay=0", "above 0 and at most 1"),
        ("training.samples_per_position=inf", "above 0 and at most 1000"),
        ("training.weight_decay=-1", "from 0 to 1"),
        ("training.weight_decay=nan", "from 0 to 1"),
        ("training.search_value_weight=nan", "between 0 and 1"),
        ("replay.window_alpha=2", "between 0 and 1"),
        ("replay.window_beta=0", "above 0 and at most 100"),
        ("replay.window_max=9000000000", "from 0 to 500000000"),
        ("gating.threshold=-0.5", "between 0 and 1"),
        ("gating.threshold=1.5", "no score is above 1"), // no network could ever be promoted
        ("gating.threshold=1", ""),
        ("training.iterations=0", "trains nothing"),
        ("search.max_in_flight=100000", "from 1 to 256"),
        ("search.max_in_flight=256", ""),
        ("gating.games=10", ""), // fine on its own
        ("selfplay.max_plies=0", "from 1 to 100000"),
        ("selfplay.games_per_iteration=100000000000", "from 1 to 1000000"),
        ("gauntlet.games=9223372036854775807", "from 0 to 1000000"),
        ("search.c_puct_base=9e18", "above 0 and at most 1000000000"),
        ("selfplay.flush_games=0", "from 1 to 1048576"),
        ("selfplay.adjudicate_material=-1", "from 0 to 10000 pawns"),
        ("selfplay.adjudicate_material=nan", "from 0 to 10000 pawns"),
        ("search.material_weight=1.5", "search.material_weight"),
        ("search.tactics_depth=5", "between 0 and 4"),
        ("search.tactics_depth=4", ""),
        ("selfplay.flush_games=100000000", "from 1 to 1048576"),
        ("network.blocks=100000", "from 1 to 256"),
        ("training.batch_size=100000000", "from 1 to 65536"),
        ("search.c_puct_init=nan", "search.c_puct_init"),
        ("search.simulations=0", "search.simulations"),
    ];
    for (set, reason) in cases {
        let key = set.split('=').next().unwrap();
        if reason.is_empty() {
            Config::parse(GOOD, "my.toml", &[set.to_string()]).unwrap();
            continue;
        }
        let e = err(GOOD, &[set]);
        assert!(e.contains(key) && e.contains(reason), "--set {set}: {e}");
    }
    let e = err(GOOD, &["evaluation.games=10", "evaluation.simulations=0"]);
    assert!(e.contains("evaluation.simulations") && e.contains("when games are played"), "{e}");
}

/// `search.root` picks PUCT (the default) or Gumbel search; the Gumbel knobs are range-checked
/// and a root search by another name is refused with the two names.
#[test]
fn the_root_search_is_puct_or_gumbel() {
    let c = Config::parse(GOOD, "my.toml", &[]).unwrap();
    assert_eq!(
        (c.search.root, c.search.gumbel_actions, c.search.c_visit, c.search.c_scale),
        (mcts::RootSearch::Puct, 16, 50.0, 1.0)
    );
    let c = Config::parse(GOOD, "my.toml", &["search.root=gumbel".into(), "search.gumbel_actions=4".into()]).unwrap();
    assert_eq!((c.search.root, c.search.gumbel_actions), (mcts::RootSearch::Gumbel, 4));
    // In the file the line is named, after --set the value; both give the two names, in one line.
    let e = err("variant = \"glinski\"\n[search]\nroot = \"alphabeta\"\n", &[]);
    assert!(e.contains("line 3") && e.contains("alphabeta") && e.contains("`puct` or `gumbel`"), "{e}");
    assert!(!e.contains('\n'), "{e}");
    let e = err(GOOD, &["search.root=alphabeta"]);
    assert!(e.contains("alphabeta") && e.contains("`puct` or `gumbel`") && !e.contains('\n'), "{e}");
    for (set, key, reason) in [
        ("search.gumbel_actions=0", "search.gumbel_actions", "from 1 to 100000"),
        ("search.c_visit=-1", "search.c_visit", "from 0 to 1000000"),
        ("search.c_scale=nan", "search.c_scale", "from 0 to 1000000"),
    ] {
        let e = err(GOOD, &[set]);
        assert!(e.contains(key) && e.contains(reason), "{set}: {e}");
    }
}

/// A `--set` of the wrong kind names the override, its key and the kind of value the key takes
/// in words (it said `after --set: invalid type: integer 3, expected struct NetworkConfig`), and
/// a `--set` value out of range is blamed, not the config file.
#[test]
fn set_errors_name_the_override_and_blame_it() {
    let e = err(GOOD, &["network=3"]);
    assert!(e.starts_with("--set 'network=3': network is a section, not a value"), "{e}");
    assert!(e.contains("network.blocks, network.channels") && !e.contains("struct") && !e.contains("Config"), "{e}");
    // A value of the wrong kind is answered with the key's own range, not its type's.
    let e = err(GOOD, &["network.blocks=abc"]);
    assert_eq!(
        e,
        "--set 'network.blocks=abc': network.blocks takes a whole number from 1 to 256, not the text \"abc\""
    );
    let e = err(GOOD, &["training.iterations=-1"]);
    assert_eq!(e, "--set 'training.iterations=-1': training.iterations takes a whole number from 1 to 1000000, not -1");
    for (set, range) in [
        ("teacher.random_plies=-1", "from 0 to 100000"),
        ("search.tactical_prior_plies=-1", "from 0 to 1000000"),
        ("search.tactics_depth=-1", "between 0 and 4"),
        ("search.simulations=2.5", "from 1 to 100000000"),
    ] {
        let e = err(GOOD, &[set]);
        assert!(e.contains(&format!("takes a whole number {range}, not")), "{set}: {e}");
    }
    // A number given as text is answered with the key's range too (it said only "a number").
    for (set, range) in [
        ("selfplay.adjudicate_material=\"3\"", "from 0 to 10000 pawns"),
        ("training.weight_decay=\"0.1\"", "from 0 to 1"),
    ] {
        let e = err(GOOD, &[set]);
        assert!(e.contains(&format!("takes a number {range}, not the text")), "{set}: {e}");
    }
    let e = err(GOOD, &["training.mixed_precision=3"]);
    assert!(e.ends_with("training.mixed_precision takes true or false, not 3"), "{e}");
    let e = err(GOOD, &["seed.x=1"]);
    assert_eq!(e, "--set 'seed.x=1': seed is a value, not a section with keys");
    let e = err(GOOD, &["training.iterations=3", "gating.threshold=1.5"]);
    assert!(e.starts_with("--set gating.threshold=1.5: must be between 0 and 1"), "{e}");
    let e = err(GOOD, &["search.max_in_flight=100000"]);
    assert!(e.starts_with("--set search.max_in_flight=100000: from 1 to 256"), "{e}");
    // A value from the file is the file's.
    let e = err("variant = \"glinski\"\n[gating]\nthreshold = 1.5\n", &["training.iterations=3"]);
    assert!(e.starts_with("my.toml: gating.threshold = 1.5: must be between 0 and 1"), "{e}");
}

/// Each kind of limit keeps its exact words, with the value as the check saw it (an f32 share
/// checked as f64 shows as one), and the rules of two keys name the key they blame: the limits
/// moved beside their sections' fields (issue 38) with every message unchanged.
#[test]
fn each_kind_of_limit_keeps_its_exact_message() {
    // A size names its range (it named selfplay/src/config.rs, issue 40).
    let fixed = "random, greedy, mcts[:N][@MS], rollout[:N][@MS], alphabeta:DEPTH[:MS], uci:COMMAND or a checkpoint folder RUN/checkpoints/step-N[:SIMS][@MS]";
    let cases = [
        ("[network]\nblocks = 257", "network.blocks = 257: must be from 1 to 256".to_string()),
        ("[replay]\nwindow_max = 4294967297", "replay.window_max = 4294967297: must be from 0 to 500000000".into()),
        ("[selfplay]\ngames_per_iteration = 0", "selfplay.games_per_iteration = 0: must be from 1 to 1000000".into()),
        ("[selfplay]\nresign_playthrough = 1.1", "selfplay.resign_playthrough = 1.100000023841858: must be between 0 and 1".into()),
        ("[teacher]\nshare = 1.1", "teacher.share = 1.1: must be between 0 and 1".into()),
        ("[selfplay]\nadjudicate_material = nan", "selfplay.adjudicate_material = NaN: must be from 0 to 10000 pawns".into()),
        ("[training]\nlearning_rate = 0.0", "training.learning_rate = 0: must be above 0 and at most 1000".into()),
        ("[training]\nweight_decay = -0.1", "training.weight_decay = -0.1: must be from 0 to 1".into()),
        // 0 is the best move alone (ties split), so a negative temperature is the one refused.
        ("[teacher]\npolicy_temperature = -1.0", "teacher.policy_temperature = -1: must be from 0 to 100000 centipawns".into()),
        ("[teacher]\nchoice_temperature = -1.0", "teacher.choice_temperature = -1: must be from 0 to 100000 centipawns".into()),
        ("[teacher]\nthreads = 257", "teacher.threads = 257: must be 1 to 256".into()),
        ("[teacher]\nplayer = \"random\"", "teacher.player = random: must be alphabeta:DEPTH or alphabeta:DEPTH:MS".into()),
        (
            "[teacher]\nplayer = \"alphabeta:31\"",
            "teacher.player = alphabeta:31: must be alphabeta:DEPTH or alphabeta:DEPTH:MS with DEPTH 1 to 30 and MS at \
             least 1 (depth 31: expected 1 to 30)"
                .into(),
        ),
        ("[training]\niterations = 0", "training.iterations = 0: must be at least 1: a run of no iterations trains nothing".into()),
        (
            "[gating]\nthreshold = 1.1",
            "gating.threshold = 1.1: must be between 0 and 1: it is the mean score a new network needs, and no score is above 1"
                .into(),
        ),
        ("[gating]\ngames = 2\nsimulations = 0", "gating.simulations = 0: must be at least 1 when games are played".into()),
        ("[replay]\nwindow_min = 1000000", "replay.window_max = 500000: must be at least window_min (> 0)".into()),
        // A text that names nothing is not called a checkpoint (issue 40).
        ("[evaluation]\nagainst = [\"random\", \"a/b\"]", format!("evaluation.against = a/b: names no fixed player (expected {fixed})")),
        ("[evaluation]\nagainst = [\"mcts:0\"]", "evaluation.against = mcts:0: a search needs at least 1 simulation".into()),
        ("[evaluation]\nagainst = [\"random\", \"random\"]", "evaluation.against = random: is named twice: each opponent is one row of the table, playing its games once".into()),
        (
            "[evaluation]\nagainst = []",
            "evaluation.against = []: must name at least one opponent (or set evaluation.games = 0)".into(),
        ),
        (
            "[gauntlet]\nevery = 1\nagainst = []",
            "gauntlet.against = []: must name at least one opponent (or set each_other or against_teacher)".into(),
        ),
        (
            "[gauntlet]\nevery = 1\nagainst_teacher = true",
            "gauntlet.against_teacher = true: needs a teacher (teacher.positions above 0): a run without one has no \
             teacher-only checkpoint"
                .into(),
        ),
        ("[search]\nc_puct_base = 0.0", "search.c_puct_base = 0: above 0 and at most 1000000000".into()),
    ];
    for (section, message) in cases {
        assert_eq!(err(&format!("variant = \"glinski\"\n{section}\n"), &[]), format!("my.toml: {message}"));
    }
    let e = err("variant = \"wellisch\"\n[gauntlet]\nevery = 1\ngames = 10\n", &[]);
    assert_eq!(e, "my.toml: gauntlet.games = 10: must be at least 1 (a multiple of 6 for three players)");
    assert!(Config::parse("variant = \"wellisch\"\n[gauntlet]\nevery = 0\ngames = 10\n", "my.toml", &[]).is_ok());
}

/// A renamed key is read under its former name too (configs and run directories written
/// before the rename), and the refusal of an unknown key lists the current names only.
#[test]
fn a_renamed_search_key_is_still_read_under_its_former_name() {
    let c = Config::parse(GOOD, "my.toml", &["search.tactical_iterations=7".into()]).unwrap();
    assert_eq!(c.search.tactics.tree_levers_iterations, 7);
    let c = Config::parse(&format!("{GOOD}[search]\ntactical_iterations = 5\n"), "my.toml", &[]).unwrap();
    assert_eq!(c.search.tactics.tree_levers_iterations, 5);
    assert!(c.to_toml().contains("tree_levers_iterations = 5") && !c.to_toml().contains("tactical_iterations"));
    let e = err("variant = \"glinski\"\n[search]\ntactical_iteration = 5\n", &[]);
    assert!(e.contains("tree_levers_iterations") && !e.contains("`tactical_iterations`"), "{e}");

    // A run saved under the former name takes the new one from --set (it was silently ignored).
    let saved = format!("{GOOD}[search]\npolicy_target_pruning = false\n");
    let c = Config::parse(&saved, "my.toml", &["search.policy_target=completed_q".into()]).unwrap();
    assert_eq!(c.search.policy_target, mcts::PolicyTarget::CompletedQ);
    let c = Config::parse(&saved, "my.toml", &["search.policy_target_pruning=true".into()]).unwrap();
    assert_eq!(c.search.policy_target, mcts::PolicyTarget::Pruned);
    // Both names in one file: refused, not one of them chosen.
    let e = err("variant = \"glinski\"\n[search]\npolicy_target = \"pruned\"\npolicy_target_pruning = false\n", &[]);
    assert!(e.contains("policy_target") && e.contains("give it once"), "{e}");
}
