//! Issue 45, item 2: `--partition K/N` shards run by a batch engine (here `xargs -P 2`,
//! as docs/cli.md's recipes run them through Slurm or Kubernetes) and put back
//! together by `ic-check merge`, against the single run of the same search.

mod common;

use common::*;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs the `n` shards of `ic-check ARGS --partition K/N` through `xargs -P 2` into
/// `dir` (one file per shard, `K.json`), and returns the files.
fn shards_through_xargs(dir: &Path, args: &[&str], n: usize) -> Vec<PathBuf> {
    std::fs::create_dir_all(dir).unwrap();
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    let script = format!(
        "seq 1 {n} | xargs -P 2 -I @K@ sh -c \"'{bin}' --quiet {args} --partition @K@/{n} > '{dir}/@K@.json'\"",
        bin = env!("CARGO_BIN_EXE_ic-check"),
        args = quoted.join(" "),
        dir = dir.display(),
    );
    let status = Command::new("sh").arg("-c").arg(&script).status().unwrap();
    assert!(status.success(), "{script}");
    (1..=n).map(|k| dir.join(format!("{k}.json"))).collect()
}

fn json_of(o: &std::process::Output) -> Value {
    serde_json::from_str(&stdout(o)).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

/// What a run found, as sets: its final states and its violations.
fn found(v: &Value) -> (BTreeSet<String>, BTreeSet<String>) {
    let finals = v["finals"].as_array().unwrap().iter();
    let violations = v["violations"].as_array().unwrap().iter();
    (
        finals
            .map(|f| format!("{} | {}", f["globals"], f["processes"]))
            .collect(),
        violations
            .map(|f| format!("{} {} {}", f["kind"], f["message"], f["block"]))
            .collect(),
    )
}

fn counts(v: &Value) -> [u64; 4] {
    ["traces", "blocked", "states", "final_states"].map(|k| v[k].as_u64().unwrap())
}

/// Each row, split into 4 shards and into 40 (more than the 32 units `--jobs` takes,
/// so the frontier is deepened for them): the merge finds the single run's final
/// states, violations, result and exit status; sdpor and odpor explore one execution
/// per Mazurkiewicz trace (the frontier's sleep sets keep two shards from exploring
/// one trace), so their traces are the single run's; and with 4 shards, the units
/// are those of one shard (`--partition 1/1`) on two threads, so odpor-ob's every
/// count is that run's. `--jobs 2` runs odpor-ob on one thread (its units explore
/// what one search prunes): every count the single run's; sdpor's and odpor's
/// threads share the top of their tree: the same traces and findings.
#[test]
fn shards_merged_are_the_single_run() {
    let casrot = repo("benches/programs/classic/casrot.ic");
    let lastzero = repo("benches/programs/classic/lastzero.ic");
    let fr = repo("benches/programs/odpor/fr.ic");
    let (bank, philosophers, kvstore, mutex) = (
        repo("examples/bank.ic"),
        repo("examples/philosophers.ic"),
        repo("examples/kvstore.ic"),
        repo("examples/mutex.ic"),
    );
    let rows: Vec<(Vec<&str>, u64)> = vec![
        // GenMC's casrot(6): 144 executions.
        (
            vec!["--algo", "sdpor", "-D", "N=6", casrot.to_str().unwrap()],
            144,
        ),
        (
            vec!["--algo", "sdpor", "-D", "N=8", lastzero.to_str().unwrap()],
            704,
        ),
        (vec!["--algo", "odpor", fr.to_str().unwrap()], 0),
        (
            vec![
                "--algo",
                "sdpor",
                "--all-violations",
                bank.to_str().unwrap(),
            ],
            6,
        ),
        (
            vec![
                "--algo",
                "odpor",
                "--all-violations",
                philosophers.to_str().unwrap(),
            ],
            7,
        ),
        (vec!["--algo", "sdpor", kvstore.to_str().unwrap()], 6),
        (vec!["--algo", "odpor", mutex.to_str().unwrap()], 6),
        // Three workers take the lock in 3! orders.
        (vec!["--algo", "odpor-ob", mutex.to_str().unwrap()], 6),
    ];
    let dir = std::env::temp_dir().join(format!("ic-check-partition-{}", std::process::id()));
    for (row, (args, traces)) in rows.iter().enumerate() {
        let single = ic_check(&[&["--json"], &args[..]].concat());
        let jobs = ic_check(&[&["--json", "--jobs", "2"], &args[..]].concat());
        let (single_json, jobs_json) = (json_of(&single), json_of(&jobs));
        if *traces > 0 {
            assert_eq!(single_json["traces"], *traces, "{args:?}");
        }
        assert_eq!(jobs_json["traces"], single_json["traces"], "{args:?}");
        assert_eq!(found(&jobs_json), found(&single_json), "{args:?}");
        let units = args[1] == "odpor-ob";
        let one_shard_on_threads = units.then(|| {
            let args = [&["--jobs", "2"], &args[..]].concat();
            let file = shards_through_xargs(&dir.join(format!("{row}-1")), &args, 1);
            json_of(&ic_check(&["merge", "--json", file[0].to_str().unwrap()]))
        });
        if units {
            assert_eq!(counts(&jobs_json), counts(&single_json), "{args:?}");
        }
        for n in [4, 40] {
            let files = shards_through_xargs(&dir.join(format!("{row}-{n}")), args, n);
            let files: Vec<&str> = files.iter().map(|f| f.to_str().unwrap()).collect();
            let merged = ic_check(&[&["merge", "--json"], &files[..]].concat());
            no_panic(&merged);
            let merged_json = json_of(&merged);
            let what = format!("{args:?} in {n} shards");
            assert_eq!(merged.status.code(), single.status.code(), "{what}");
            assert_eq!(merged_json["result"], single_json["result"], "{what}");
            assert_eq!(found(&merged_json), found(&single_json), "{what}");
            assert_eq!(merged_json["traces"], single_json["traces"], "{what}");
            assert_eq!(merged_json["parallel"]["shards"], n, "{what}");
            if let Some(one) = one_shard_on_threads.as_ref().filter(|_| n == 4) {
                assert_eq!(counts(&merged_json), counts(one), "{what}");
            }
        }
    }
}

/// The optimal searches that compare states are sharded at the frontier's units
/// (with `--jobs`, odpor-cs's and ocdpor's threads share the top instead, and
/// odpor-cs-ob runs on one thread): the merge finds the single run's final states
/// (as many as the program has: 1 for fib, 2 for the philosophers, 6 for the
/// buffer), violations, result and exit status, in more executions than the single
/// run where the state checks prune across units (fib: 12 where one run explores 3).
#[test]
fn searches_that_compare_states_are_sharded() {
    let programs = [
        ("examples/fib.ic", 1, Some(12)),
        ("examples/philosophers.ic", 2, None),
        ("examples/buffer.ic", 6, None),
    ];
    let dir = std::env::temp_dir().join(format!("ic-check-compare-{}", std::process::id()));
    for algo in ["odpor-cs", "odpor-cs-ob", "ocdpor"] {
        for (file, finals, merged_traces) in programs {
            let path = repo(file);
            let args = ["--algo", algo, "--all-violations", path.to_str().unwrap()];
            let single = ic_check(&[&["--json"], &args[..]].concat());
            let single_json = json_of(&single);
            assert_eq!(single_json["final_states"], finals, "{args:?}");
            let files = shards_through_xargs(&dir.join(format!("{algo}-{finals}")), &args, 4);
            let files: Vec<&str> = files.iter().map(|f| f.to_str().unwrap()).collect();
            let merged = ic_check(&[&["merge", "--json"], &files[..]].concat());
            no_panic(&merged);
            let merged_json = json_of(&merged);
            let what = format!("{args:?} in 4 shards");
            assert_eq!(merged.status.code(), single.status.code(), "{what}");
            assert_eq!(merged_json["result"], single_json["result"], "{what}");
            assert_eq!(found(&merged_json), found(&single_json), "{what}");
            if let Some(traces) = merged_traces {
                assert_eq!(single_json["traces"], 3, "{what}");
                assert_eq!(merged_json["traces"], traces, "{what}");
            }
        }
    }
}

/// A shard that finds a violation still exits 0 (a batch engine would retry it
/// otherwise); the merge says what was found, with the states of its schedule, exits
/// 1, and writes a witness file that `--replay` reproduces.
#[test]
fn the_merge_gives_the_verdict() {
    let bank = repo("examples/bank.ic");
    let bank = bank.to_str().unwrap();
    let dir = std::env::temp_dir().join(format!("ic-check-verdict-{}", std::process::id()));
    let files = shards_through_xargs(&dir, &["--algo", "sdpor", bank], 3);
    let single = ic_check(&["--algo", "sdpor", bank]);
    assert_eq!(single.status.code(), Some(1));
    let files: Vec<&str> = files.iter().map(|f| f.to_str().unwrap()).collect();
    let witness = dir.join("witness.json");
    let merged = ic_check(
        &[
            &["merge", "--witness", witness.to_str().unwrap()],
            &files[..],
        ]
        .concat(),
    );
    assert_eq!(merged.status.code(), Some(1), "{}", stderr(&merged));
    let out = stdout(&merged);
    assert!(out.contains("result:       violation"), "{out}");
    assert!(out.contains("shards:       3 ("), "{out}");
    assert!(out.contains("schedule: "), "{out}");
    assert!(out.contains("  0. initial"), "the witness's states: {out}");
    let replay = ic_check(&["--replay", witness.to_str().unwrap(), bank]);
    assert_eq!(replay.status.code(), Some(1), "{}", stderr(&replay));
}

/// Shards of different runs, a missing or repeated shard, a file that is no shard, a
/// program text that changed, and searches that cannot be sharded are refused with
/// a message; `--program` finds a program that moved.
#[test]
fn shards_of_other_runs_are_refused() {
    let source = std::fs::read_to_string(repo(FIG1)).unwrap();
    let program = file("partition-refused", "fig1.ic", &source);
    let p = program.to_str().unwrap();
    let dir = program.parent().unwrap().to_path_buf();
    let run = |name: &str, args: &[&str]| {
        let o = ic_check(args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let path = dir.join(name);
        std::fs::write(&path, &o.stdout).unwrap();
        path.to_str().unwrap().to_string()
    };
    let one = run("1.json", &["--algo", "odpor", "--partition", "1/2", p]);
    let two = run("2.json", &["--algo", "odpor", "--partition", "2/2", p]);
    let sdpor = run("s.json", &["--algo", "sdpor", "--partition", "2/2", p]);
    let three = run("3.json", &["--algo", "odpor", "--partition", "2/3", p]);
    let static_deps = run(
        "d.json",
        &[
            "--algo",
            "odpor",
            "--deps",
            "static",
            "--partition",
            "2/2",
            p,
        ],
    );
    let merge = |files: &[&str]| ic_check(&[&["merge"], files].concat());
    assert_eq!(merge(&[&one, &two]).status.code(), Some(0));
    fails_with(&merge(&[&one]), 2, "shard 2/2 is missing");
    fails_with(&merge(&[&one, &one, &two]), 2, "shard 1/2 is given twice");
    fails_with(
        &merge(&[&one, &sdpor]),
        2,
        "another algorithm or other options",
    );
    fails_with(
        &merge(&[&one, &static_deps]),
        2,
        "another algorithm or other options",
    );
    fails_with(
        &merge(&[&one, &three]),
        2,
        "another number of shards (3 against 2)",
    );
    let not_a_shard = file(
        "partition-refused",
        "no.json",
        "{\"format\": \"ic-check-witness/1\"}",
    );
    fails_with(
        &merge(&[&one, not_a_shard.to_str().unwrap()]),
        2,
        "unsupported shard format `ic-check-witness/1`",
    );
    fails_with(
        &merge(&[&one, "/nonexistent/2.json"]),
        2,
        "cannot read the shard file",
    );
    let text = std::fs::read_to_string(&two).unwrap();
    let edited = text.replace("\"shard\":{\"k\":2,\"n\":2}", "\"shard\":{\"k\":0,\"n\":0}");
    assert_ne!(edited, text);
    let zero = file("partition-refused", "zero.json", &edited);
    fails_with(
        &merge(&[zero.to_str().unwrap()]),
        2,
        "shard 0/0 is not one of shards 1 to 0",
    );
    // The program's text changes after the shards ran; the text they explored moves.
    let moved = file("partition-refused", "moved.ic", &source);
    std::fs::write(&program, format!("{source}\n// edited\n")).unwrap();
    fails_with(
        &merge(&[&one, &two]),
        2,
        "is not the program text the shards explored",
    );
    let found = ic_check(&["merge", "--program", moved.to_str().unwrap(), &one, &two]);
    assert_eq!(found.status.code(), Some(0), "{}", stderr(&found));
    // naive, whose traces are counted as a set, and options that count over the
    // whole search.
    fails_with(
        &ic_check(&["--algo", "naive", "--partition", "1/2", p]),
        2,
        "naive counts Mazurkiewicz traces as a set over the whole search",
    );
    fails_with(
        &ic_check(&[
            "--algo",
            "sdpor",
            "--partition",
            "1/2",
            "--max-traces",
            "3",
            p,
        ]),
        2,
        "cannot be used with",
    );
    fails_with(
        &ic_check(&["--partition", "3/2", p]),
        2,
        "shards are numbered from 1 to 2",
    );
    fails_with(&ic_check(&["--partition", "2", p]), 2, "is not K/N");
}

/// docs/recipes/slurm-shards.sh run as Slurm runs an array's tasks (its variables
/// set, the tasks by `xargs -P 2`), and the command of docs/recipes/k8s-shards.yaml
/// run as each pod of the Indexed Job runs it (`JOB_COMPLETION_INDEX` and the
/// manifest's variables): either's shards merge into the single run.
#[test]
fn the_recipes_shard_a_run() {
    let dir = std::env::temp_dir().join(format!("ic-check-recipes-{}", std::process::id()));
    let bin_dir = dir.join("bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    let link = bin_dir.join("ic-check");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_ic-check"), &link).unwrap();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap());
    let program = repo("benches/programs/classic/lastzero.ic");
    let program = program.to_str().unwrap();
    let single = json_of(&ic_check(&[
        "--json", "--algo", "sdpor", "-D", "N=8", program,
    ]));
    let n = 5;
    let run_all = |results: &Path, task: &str| {
        std::fs::create_dir_all(results).unwrap();
        let status = Command::new("sh")
            .arg("-c")
            .arg(format!("seq 1 {n} | xargs -P 2 -I @K@ sh -c '{task}'"))
            .env("PATH", &path)
            .env("PROGRAM", program)
            .env("ALGO", "sdpor")
            .env("ARGS", "-D N=8")
            .env("RESULTS", results)
            .status()
            .unwrap();
        assert!(status.success(), "{task}");
        let mut files: Vec<String> = std::fs::read_dir(results)
            .unwrap()
            .map(|e| e.unwrap().path().to_str().unwrap().to_string())
            .collect();
        files.sort();
        assert_eq!(files.len(), n, "{files:?}");
        let merged = ic_check(
            &[
                &["merge", "--json"],
                &files.iter().map(|f| f.as_str()).collect::<Vec<_>>()[..],
            ]
            .concat(),
        );
        assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
        let merged = json_of(&merged);
        assert_eq!(found(&merged), found(&single));
        assert_eq!(merged["traces"], single["traces"]);
        assert_eq!(merged["parallel"]["shards"], n);
    };
    let slurm = repo("docs/recipes/slurm-shards.sh");
    run_all(
        &dir.join("slurm"),
        &format!(
            "SLURM_ARRAY_TASK_ID=@K@ SLURM_ARRAY_TASK_COUNT={n} SLURM_CPUS_PER_TASK=1 bash {}",
            slurm.display()
        ),
    );
    let manifest = std::fs::read_to_string(repo("docs/recipes/k8s-shards.yaml")).unwrap();
    let value = |prefix: &str| {
        let line = manifest
            .lines()
            .find(|l| l.trim_start().starts_with(prefix));
        line.unwrap_or_else(|| panic!("no `{prefix}` in the manifest"))
            .trim()
            .to_string()
    };
    // SHARDS is the Job's number of completions.
    let completions = value("completions:")
        .trim_start_matches("completions:")
        .trim()
        .to_string();
    assert_eq!(
        value("- { name: SHARDS"),
        format!("- {{ name: SHARDS, value: \"{completions}\" }}")
    );
    let command = value("- 'K=$((JOB_COMPLETION_INDEX");
    let command = command.trim_start_matches("- '").trim_end_matches('\'');
    // The pod's index counts from 0; the task's K from 1.
    run_all(
        &dir.join("k8s"),
        &format!(
            "JOB_COMPLETION_INDEX=$((@K@ - 1)) SHARDS={n} sh -c {}",
            shell_quote(command)
        ),
    );
}

/// `s` as one word of `sh`, inside the single quotes of `xargs … sh -c '…'`.
fn shell_quote(s: &str) -> String {
    format!(
        "\"{}\"",
        s.replace('\\', "\\\\")
            .replace('"', "\\\"")
            .replace('$', "\\$")
    )
}

/// The stateful searches in shards: each unit is the root of a search of its own,
/// which stores and expands what its state reaches (some states in several units),
/// so the merge finds the single run's final states and violations, and counts more
/// stored states than it: filter_buggy (the filter lock with the level check off by
/// one) in 3 shards, for the reference, S-POR, DE-S-POR and DL-S-POR.
#[test]
fn the_stateful_searches_in_shards_find_what_one_run_finds() {
    let program = repo("benches/programs/cyclic/filter_buggy.ic");
    for algo in ["stateful", "spor", "de-spor", "dl-spor"] {
        let args = [
            "--algo",
            algo,
            "--all-violations",
            program.to_str().unwrap(),
        ];
        let dir =
            std::env::temp_dir().join(format!("ic-check-{algo}-shards-{}", std::process::id()));
        let files = shards_through_xargs(&dir, &args, 3);
        let files: Vec<&str> = files.iter().map(|f| f.to_str().unwrap()).collect();
        let merged = ic_check(&[&["merge", "--json"], &files[..]].concat());
        let single = ic_check(&[&["--json"], &args[..]].concat());
        assert_eq!(merged.status.code(), Some(1), "{algo}: {}", stderr(&merged));
        assert_eq!(single.status.code(), Some(1), "{algo}");
        let (merged, single) = (json_of(&merged), json_of(&single));
        assert_eq!(found(&merged), found(&single), "{algo}");
        assert!(
            !single["violations"].as_array().unwrap().is_empty(),
            "{algo}"
        );
        assert!(
            merged["stored"].as_u64() > single["stored"].as_u64(),
            "{algo}"
        );
    }
}
