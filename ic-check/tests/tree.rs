//! `--tree`: the execution tree as DOT and SVG (snapshots, well-formedness, a real
//! rendering), its complete leaves against the runs' traces, its size limit and its
//! errors; and `--print-traces` with every algorithm.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const ALGORITHMS: [&str; 4] = ["naive", "sdpor", "csdpor", "cdpor"];

/// p and r write the same value to x, q is independent of both: naive explores 6
/// interleavings, sdpor 2 (the Mazurkiewicz traces), csdpor and cdpor 1.
const INDEPENDENT: &str = "global int x = 0; global int y = 0;
proc p() { x = 1; }
proc q() { y = 1; }
proc r() { x = 1; }
init { spawn p(); spawn q(); spawn r(); }
";

/// q r deadlocks p; p q r fails r's assertion (and r then ends the run); r q p completes.
const DEADLOCK: &str = "global int x = 0; global int y = 0;
proc p() { await (x == 1); y = 1; }
proc q() { x = 1; }
proc r() { x = 2; assert(y == 0, \"y was set before r ran\"); }
init { spawn p(); spawn q(); spawn r(); }
";

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path)
}

/// A fresh directory for this test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ic-check-tree-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn ic_check(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ic-check"))
        .args(args)
        .output()
        .expect("ic-check runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).expect("one JSON object")
}

/// Runs ic-check with `--tree` into `dir/name` and returns the picture and the JSON report.
fn tree(dir: &Path, name: &str, args: &[&str]) -> (String, serde_json::Value) {
    let out = dir.join(name);
    let mut all = vec!["--json", "--tree", out.to_str().unwrap()];
    all.extend(args);
    let o = ic_check(&all);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    (std::fs::read_to_string(&out).unwrap(), json(&o))
}

/// The `class` words of every node statement of a DOT picture.
fn dot_classes(dot: &str) -> Vec<Vec<&str>> {
    dot.lines()
        .filter(|l| l.starts_with("  s") && !l.contains("->"))
        .map(|l| match l.split_once("class=\"") {
            Some((_, rest)) => rest.split('"').next().unwrap_or("").split(' ').collect(),
            None => Vec::new(),
        })
        .collect()
}

fn count(classes: &[Vec<&str>], any: &[&str]) -> usize {
    classes
        .iter()
        .filter(|c| c.iter().any(|w| any.contains(w)))
        .count()
}

/// The DOT of CDPOR Fig. 1 under each algorithm (cdpor synthesises its constraints),
/// and cdpor's full tree with what it pruned.
#[test]
fn dot_of_fig1_under_each_algorithm() {
    let dir = scratch("snapshots");
    let fig1 = repo("examples/fig1.ic");
    for algo in ALGORITHMS {
        let (dot, _) = tree(
            &dir,
            &format!("{algo}.dot"),
            &["--algo", algo, fig1.to_str().unwrap()],
        );
        insta::assert_snapshot!(format!("fig1_{algo}"), dot);
    }
    let (dot, _) = tree(
        &dir,
        "cdpor-full.dot",
        &["--tree-full", "--algo", "cdpor", fig1.to_str().unwrap()],
    );
    insta::assert_snapshot!("fig1_cdpor_full", dot);
}

/// Without `--tree-full` a tree has as many complete leaves as the run has traces; with
/// it, as many as naive's, and every state naive reaches: what the algorithm did not
/// explore is marked pruned.
#[test]
fn complete_leaves_are_traces() {
    let dir = scratch("leaves");
    let independent = dir.join("independent.ic");
    std::fs::write(&independent, INDEPENDENT).unwrap();
    let deadlock = dir.join("deadlock.ic");
    std::fs::write(&deadlock, DEADLOCK).unwrap();
    let fig1 = repo("examples/fig1.ic");
    // (program, algorithm, traces = complete leaves, tree nodes, full tree's pruned nodes)
    let expected: [(&Path, &str, usize, usize, usize); 12] = [
        (&fig1, "naive", 6, 16, 0),
        (&fig1, "sdpor", 6, 16, 0),
        (&fig1, "csdpor", 1, 8, 8),
        (&fig1, "cdpor", 1, 4, 12),
        (&independent, "naive", 6, 16, 0),
        (&independent, "sdpor", 2, 7, 9),
        (&independent, "csdpor", 1, 6, 10),
        (&independent, "cdpor", 1, 4, 12),
        (&deadlock, "naive", 2, 8, 0),
        (&deadlock, "sdpor", 2, 8, 0),
        (&deadlock, "csdpor", 2, 8, 0),
        (&deadlock, "cdpor", 2, 8, 0),
    ];
    for (program, algo, traces, nodes, pruned) in expected {
        let what = format!("{algo} on {}", program.display());
        let args = [
            "--all-violations",
            "--algo",
            algo,
            program.to_str().unwrap(),
        ];
        let (dot, report) = tree(&dir, "plain.dot", &args);
        let classes = dot_classes(&dot);
        assert_eq!(report["traces"], traces, "{what}");
        assert_eq!(count(&classes, &["complete", "deadlock"]), traces, "{what}");
        assert_eq!(classes.len(), nodes, "{what}");
        assert_eq!(count(&classes, &["pruned"]), 0, "{what}");

        let mut full = vec!["--tree-full"];
        full.extend(args);
        let (dot, _) = tree(&dir, "full.dot", &full);
        let classes = dot_classes(&dot);
        let naive = if program == independent || program == fig1 {
            (6, 16)
        } else {
            (2, 8)
        };
        assert_eq!(
            count(&classes, &["complete", "deadlock"]),
            naive.0,
            "{what}"
        );
        assert_eq!(classes.len(), naive.1, "{what}");
        assert_eq!(count(&classes, &["pruned"]), pruned, "{what}");
    }
    // The deadlock program's ends, in every algorithm: one deadlock, one violation (the
    // failed step), and for the DPOR searches, which go on past a failure, the final
    // state after it.
    for algo in ALGORITHMS {
        let (dot, _) = tree(
            &dir,
            "marks.dot",
            &[
                "--all-violations",
                "--algo",
                algo,
                deadlock.to_str().unwrap(),
            ],
        );
        let classes = dot_classes(&dot);
        assert_eq!(count(&classes, &["deadlock"]), 1, "{algo}");
        assert_eq!(count(&classes, &["violation"]), 1, "{algo}");
        let after = usize::from(algo != "naive");
        assert_eq!(count(&classes, &["after-violation"]), after, "{algo}");
        assert!(dot.contains("deadlock\\l"), "{dot}");
        assert!(
            dot.contains("violation: assertion failed: y was set before r ran\\l"),
            "{dot}"
        );
    }
}

/// The SVG is well-formed XML with one group per state, and a browser draws it.
#[test]
fn svg_of_fig1_is_well_formed_and_renders() {
    let dir = scratch("svg");
    let fig1 = repo("examples/fig1.ic");
    let (svg, _) = tree(
        &dir,
        "fig1.svg",
        &["--tree-full", "--algo", "cdpor", fig1.to_str().unwrap()],
    );
    let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    let size = |a: &str| -> u32 {
        root.attribute(a)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("svg {a}"))
    };
    let (width, height) = (size("width"), size("height"));
    let classes: Vec<Vec<&str>> = doc
        .descendants()
        .filter(|n| n.has_tag_name("g"))
        .filter_map(|n| n.attribute("class"))
        .map(|c| c.split(' ').collect::<Vec<_>>())
        .filter(|c| c.contains(&"node"))
        .collect();
    assert_eq!(classes.len(), 16);
    assert_eq!(count(&classes, &["complete"]), 6);
    assert_eq!(count(&classes, &["pruned"]), 12);
    assert_eq!(count(&classes, &["blocked"]), 0);
    // Every state has its schedule as a tooltip.
    let titles: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("title"))
        .filter_map(|n| n.text())
        .collect();
    assert!(titles.contains(&"initial state") && titles.contains(&"p q r"));

    let chromium = Path::new("/usr/bin/chromium");
    if !chromium.exists() {
        eprintln!(
            "skipped the rendering: no {} (apt-get install chromium)",
            chromium.display()
        );
        return;
    }
    let png = dir.join("fig1.png");
    let profile = dir.join("profile");
    let _ = std::fs::remove_file(&png);
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("--window-size={width},{height}"))
        .arg(format!("file://{}", dir.join("fig1.svg").display()))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let started = Instant::now();
    while child.try_wait().expect("chromium runs").is_none() {
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("chromium took more than 120 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = std::fs::remove_dir_all(&profile);
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&png).expect("chromium wrote the screenshot"),
    ));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut pixels).expect("one frame");
    assert_eq!((info.width, info.height), (width, height));
    let channels = info.color_type.samples();
    assert!(channels >= 3, "{:?}", info.color_type);
    let rgb: Vec<&[u8]> = pixels[..info.buffer_size()]
        .chunks(channels)
        .map(|p| &p[..3])
        .collect();
    let ink = rgb.iter().filter(|p| p.iter().any(|&c| c < 200)).count();
    let share = ink as f64 / rgb.len() as f64;
    assert!(share > 0.01 && share < 0.5, "ink covers {share}");
    // The complete trace's green box is drawn.
    let green = rgb
        .iter()
        .filter(|p| {
            p.iter()
                .zip([0xe3, 0xf5, 0xe1])
                .all(|(&a, b)| a.abs_diff(b) <= 3)
        })
        .count();
    assert!(green > 500, "{green} green pixels");
}

/// Past `--tree-limit` the picture stops growing and says so; the run goes on.
#[test]
fn tree_limit_truncates_the_picture_not_the_run() {
    let dir = scratch("limit");
    let out = dir.join("t.dot");
    let fig1 = repo("examples/fig1.ic");
    let o = ic_check(&[
        "--json",
        "--algo",
        "naive",
        "--tree-limit",
        "5",
        "--tree",
        out.to_str().unwrap(),
        fig1.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(json(&o)["traces"], 6);
    assert_eq!(
        stderr(&o),
        "note: the tree stops at 5 nodes (--tree-limit); the exploration went on\n"
    );
    let dot = std::fs::read_to_string(&out).unwrap();
    assert_eq!(dot_classes(&dot).len(), 5);
    assert!(dot.contains("the tree stops at 5 nodes"), "{dot}");
    assert!(dot.contains("... (--tree-limit)"), "{dot}");
}

#[test]
fn tree_errors_exit_two() {
    let fig1 = repo("examples/fig1.ic");
    let fig1 = fig1.to_str().unwrap();
    let o = ic_check(&["--tree", "/tmp/picture.png", fig1]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: --tree /tmp/picture.png: unknown picture format; name the file `.dot` \
         (Graphviz) or `.svg`\n"
    );
    let o = ic_check(&["--tree", "/nonexistent/dir/t.svg", fig1]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("error: cannot write the tree to /nonexistent/dir/t.svg: "),
        "{}",
        stderr(&o)
    );
    assert!(o.stdout.is_empty(), "nothing explored");
    for args in [
        &["--tree-full", fig1][..],
        &["--tree-limit", "10", fig1],
        &["--tree", "/tmp/t.svg", "--tree-limit", "0", fig1],
        &["--tree", "/tmp/t.svg", "--replay", "p", fig1],
    ] {
        assert_eq!(ic_check(args).status.code(), Some(2), "{args:?}");
    }
}

/// `--print-traces` lists the schedule of every complete execution, for every
/// algorithm; each replays to a final state. With `--json` they are `schedules`.
#[test]
fn print_traces_with_every_algorithm() {
    let fig1 = repo("examples/fig1.ic");
    let fig1 = fig1.to_str().unwrap();
    let all = ["p q r", "p r q", "q p r", "q r p", "r p q", "r q p"];
    // naive and sdpor in the order of the search; the others explore one interleaving,
    // which one depends on their choices.
    for (algo, traces) in [("naive", 6), ("sdpor", 6), ("csdpor", 1), ("cdpor", 1)] {
        let o = ic_check(&["--print-traces", "--algo", algo, fig1]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        let (listed, summary) = out.split_at(out.find("program:").unwrap());
        let listed: Vec<&str> = listed.lines().collect();
        assert_eq!(listed.len(), traces, "{algo}");
        if traces == all.len() {
            assert_eq!(listed, all, "{algo}");
        }
        assert!(listed.iter().all(|s| all.contains(s)), "{algo}: {listed:?}");
        assert!(
            summary.contains(&format!("traces:       {traces}\n")),
            "{summary}"
        );
        let o = ic_check(&["--json", "--print-traces", "--algo", algo, fig1]);
        assert_eq!(json(&o)["schedules"], serde_json::json!(listed), "{algo}");
        for schedule in listed {
            let o = ic_check(&["--replay", schedule, fig1]);
            assert_eq!(o.status.code(), Some(0));
            assert!(String::from_utf8_lossy(&o.stdout)
                .ends_with("  final state: every process has ended\n"));
        }
    }
}

/// The pictures of docs/cli.md are what its commands make now.
#[test]
fn readme_pictures_are_current() {
    let dir = scratch("readme");
    let fig1 = repo("examples/fig1.ic");
    for (name, args) in [
        ("fig1-sdpor.svg", &["--algo", "sdpor"][..]),
        ("fig1-cdpor.svg", &["--algo", "cdpor", "--tree-full"][..]),
    ] {
        let mut all = args.to_vec();
        all.push(fig1.to_str().unwrap());
        let (svg, _) = tree(&dir, name, &all);
        let committed = std::fs::read_to_string(repo(&format!("docs/{name}"))).unwrap();
        assert!(
            svg == committed,
            "docs/{name} is out of date: run the command of docs/cli.md (\"Seeing the exploration\")"
        );
    }
}
