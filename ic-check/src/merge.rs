//! `ic-check merge SHARD.json...`: the shards of a `--partition K/N` run put back
//! together ([`explorer::parallel::partition::combine`]), printed as the whole run
//! would be, with its exit status. Shards that do not belong to one run are refused:
//! their counts would add up to nothing meaningful.

use crate::cli::Merge;
use crate::output::Output;
use crate::shard::ShardFile;
use crate::{print_report, status, write_witness, Shown, BAD_INPUT};
use frontend::interp::Limits;
use std::io::Write as _;
use std::time::Duration;

pub fn run(args: &Merge) -> u8 {
    match merge(args) {
        Ok(code) => code,
        Err(message) => {
            say!("error: {message}");
            BAD_INPUT
        }
    }
}

fn merge(args: &Merge) -> Result<u8, String> {
    let mut shards = Vec::new();
    for path in &args.shards {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the shard file {name}: {e}"))?;
        let shard = ShardFile::from_json(&text).map_err(|e| format!("{name}: {e}"))?;
        shards.push((name, shard));
    }
    let shards = one_run(shards)?;
    let first = &shards[0];
    let file = match &args.program {
        Some(path) => path.display().to_string(),
        None => first.program.file.clone(),
    };
    let source = std::fs::read_to_string(&file).map_err(|e| {
        format!(
            "cannot read {file}, the program the shards explored: {e} \
             (--program FILE says where it is now)"
        )
    })?;
    if !first.matches_source(&source) {
        return Err(format!(
            "{file} is not the program text the shards explored (sha256 {}): \
             --program FILE says where that text is now",
            first.program.sha256
        ));
    }
    let defines: Vec<(String, i64)> = first.params.clone().into_iter().collect();
    let program = frontend::load(&source, &defines).map_err(|diags| {
        frontend::diagnostic::render(&file, &source, &diags, false)
            .trim_end()
            .to_string()
    })?;
    let reports = shards
        .iter()
        .map(|s| (s.report(&source)).map_err(|e| format!("shard {}: {e}", s.shard)))
        .collect::<Result<Vec<_>, String>>()?;
    let report =
        explorer::parallel::partition::combine(reports, explorer::exploration::MAX_OUTCOMES);
    // The shards run side by side: the whole run takes as long as the longest.
    let longest = (shards.iter()).map(|s| s.time_ms).fold(0.0_f64, f64::max);
    let elapsed = Duration::from_secs_f64(longest.max(0.0) / 1000.0);
    let out = Output {
        file: &file,
        source: &source,
        program: &program,
        limits: Limits {
            max_steps: first.search.max_steps,
            ..Limits::default()
        },
    };
    let algorithm = &first.search.algorithm;
    let shown = Shown {
        json: args.json,
        stats: args.stats,
        finals: args.finals,
        schedules: !report.schedules.is_empty(),
    };
    let code = print_report(&out, algorithm, &report, elapsed, shown, status(&report));
    if let Some(path) = &args.witness {
        let max_steps = first.search.max_steps;
        if let Err(code) = write_witness(path, &out, max_steps, algorithm, &report) {
            return Ok(code);
        }
    }
    Ok(code)
}

/// The shards in order, if they are every shard of one run: the same ic-check,
/// program text, params, search and number of shards, each shard once.
fn one_run(mut shards: Vec<(String, ShardFile)>) -> Result<Vec<ShardFile>, String> {
    if let Some((name, s)) = (shards.iter()).find(|(_, s)| s.shard.k == 0 || s.shard.k > s.shard.n)
    {
        return Err(format!(
            "{name}: shard {} is not one of shards 1 to {}",
            s.shard, s.shard.n
        ));
    }
    shards.sort_by_key(|(_, s)| s.shard.k);
    let (first_name, first) = &shards[0];
    for (name, s) in &shards[1..] {
        let differs =
            |what: &str| format!("{name} is not a shard of the run of {first_name}: {what}");
        if s.version != first.version {
            return Err(differs(&format!(
                "another ic-check version ({} against {})",
                s.version, first.version
            )));
        }
        if !s.program.sha256.eq_ignore_ascii_case(&first.program.sha256) {
            return Err(differs("another program text"));
        }
        if s.params != first.params {
            return Err(differs("other params"));
        }
        if s.search != first.search {
            return Err(differs("another algorithm or other options"));
        }
        if s.shard.n != first.shard.n {
            return Err(differs(&format!(
                "another number of shards ({} against {})",
                s.shard.n, first.shard.n
            )));
        }
        if s.frontier != first.frontier {
            return Err(differs("another frontier"));
        }
    }
    let n = first.shard.n;
    for k in 1..=n {
        let with_k: Vec<&str> = (shards.iter())
            .filter(|(_, s)| s.shard.k == k)
            .map(|(name, _)| name.as_str())
            .collect();
        match with_k.as_slice() {
            [] => return Err(format!("shard {k}/{n} is missing")),
            [_] => {}
            [a, b, ..] => return Err(format!("shard {k}/{n} is given twice: {a} and {b}")),
        }
    }
    Ok(shards.into_iter().map(|(_, s)| s).collect())
}
