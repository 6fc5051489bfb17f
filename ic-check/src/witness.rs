//! Witness files: `--witness FILE` writes the findings of a run with what replaying
//! them needs — the program text's hash, the params and the step limit in force —
//! and `--replay FILE` reads them back (docs/cli.md, "Witness files"). One JSON object,
//! format `ic-check-witness/1`.

use explorer::replay::{End, Replay};
use explorer::{Report, ViolationKind};
use frontend::ast::Span;
use frontend::diagnostic::line_col;
use frontend::ics::{sha256_hex, ProgramRef};
use frontend::interp::Fault;
use frontend::ir::Program;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The value of the `format` field.
pub const FORMAT: &str = "ic-check-witness/1";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Witness {
    pub format: String,
    /// The program text the findings were found in: its SHA-256 (as `ics.json` has
    /// it) and the path it was read from.
    pub program: ProgramRef,
    /// Every `param` with the value in force (`-D` overrides included).
    pub params: BTreeMap<String, i64>,
    /// `--max-steps` in force: "block did not terminate" depends on it.
    pub max_steps: u64,
    /// The algorithm that found them (for the reader: any schedule replays alike).
    pub algorithm: String,
    /// In the order the run reported them; empty when it found nothing.
    pub findings: Vec<Finding>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    pub kind: ViolationKind,
    pub message: String,
    /// The block that failed (for a deadlock: the first blocked one).
    pub block: String,
    /// The processes to run from the initial state; the last step fails (a deadlock:
    /// the state after it is stuck). Empty when `init` fails.
    pub schedule: String,
    /// Where the failing statement is (none for a deadlock).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
}

impl Witness {
    /// The findings of `report`, a run of `algorithm` on `program` (loaded from
    /// `source`, read from `file`).
    pub fn of(
        file: &str,
        source: &str,
        program: &Program,
        max_steps: u64,
        algorithm: &str,
        report: &Report,
    ) -> Witness {
        let findings = report
            .violations
            .iter()
            .map(|v| {
                let at = v.span.map(|s| line_col(source, s.start));
                Finding {
                    kind: v.kind,
                    message: v.message.clone(),
                    block: v.block.clone(),
                    schedule: v.schedule.clone(),
                    line: at.map(|(l, _)| l),
                    column: at.map(|(_, c)| c),
                }
            })
            .collect();
        Witness {
            format: FORMAT.to_string(),
            program: ProgramRef {
                sha256: sha256_hex(source.as_bytes()),
                file: file.to_string(),
            },
            params: program
                .params
                .iter()
                .map(|p| (p.name.clone(), p.value))
                .collect(),
            max_steps,
            algorithm: algorithm.to_string(),
            findings,
        }
    }

    pub fn to_json(&self) -> String {
        // Plain data: serialising it cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// Reads a witness file. Its `format` is checked before anything else.
    pub fn from_json(text: &str) -> Result<Witness, String> {
        crate::format::read(text, FORMAT, "witness file")
    }

    /// Whether the findings were found in this program text.
    pub fn matches_source(&self, source: &str) -> bool {
        self.program
            .sha256
            .eq_ignore_ascii_case(&sha256_hex(source.as_bytes()))
    }

    /// The `-D` values and step limit to replay with: the witness's, which the
    /// command line may repeat but not contradict. A `-D` of a name the witness does
    /// not have is kept (the program then refuses it as unknown).
    pub fn settings(
        &self,
        defines: &[(String, i64)],
        max_steps: Option<u64>,
        path: &str,
    ) -> Result<(Vec<(String, i64)>, u64), String> {
        for (name, value) in defines {
            if let Some(found) = self.params.get(name) {
                if found != value {
                    return Err(format!(
                        "-D {name}={value} contradicts the witness file {path}, whose findings \
                         were found with {name} = {found}: leave out -D {name}"
                    ));
                }
            }
        }
        if let Some(steps) = max_steps {
            if steps != self.max_steps {
                return Err(format!(
                    "--max-steps {steps} contradicts the witness file {path}, whose findings \
                     were found with --max-steps {}: leave out --max-steps",
                    self.max_steps
                ));
            }
        }
        let mut all: Vec<(String, i64)> =
            self.params.iter().map(|(n, v)| (n.clone(), *v)).collect();
        all.extend(
            defines
                .iter()
                .filter(|(n, _)| !self.params.contains_key(n))
                .cloned(),
        );
        Ok((all, self.max_steps))
    }
}

fn fault_kind(fault: &Fault) -> ViolationKind {
    match fault {
        Fault::Assert { .. } => ViolationKind::Assert,
        Fault::Runtime(_) => ViolationKind::Runtime,
    }
}

/// Whether replaying `finding`'s schedule ended in that finding: `Ok` with the
/// failing statement (none for a deadlock), or what the replay ended in instead.
pub fn reproduced(finding: &Finding, replay: &Replay) -> Result<Option<Span>, String> {
    let fault = match &replay.end {
        End::InitFault(fault) | End::Fault { fault, .. } => fault,
        End::Final { deadlock: true } if finding.kind == ViolationKind::Deadlock => {
            return Ok(None)
        }
        End::Final { deadlock: true } => return Err("a deadlock".to_string()),
        End::Final { deadlock: false } => {
            return Err("a final state where every process has ended".to_string())
        }
        // An execution without end is a prefix of steps that all run.
        End::Open { .. }
            if matches!(
                finding.kind,
                ViolationKind::NonTermination | ViolationKind::DepthLimit
            ) =>
        {
            return Ok(None)
        }
        End::Cycle { .. } if finding.kind == ViolationKind::Livelock => return Ok(None),
        End::Cycle { .. } => return Err("a cycle".to_string()),
        End::Open { enabled } => {
            return Err(format!(
                "no finding: the schedule ends while {} can still run",
                enabled.join(" ")
            ))
        }
    };
    if fault_kind(fault) == finding.kind && fault.to_string() == finding.message {
        Ok(Some(fault.span()))
    } else {
        Err(format!("`{fault}`"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_is_checked_first() {
        assert!(Witness::from_json("{}")
            .unwrap_err()
            .contains("no `format` field"));
        assert!(Witness::from_json(r#"{"format": "ic-check-witness/9"}"#)
            .unwrap_err()
            .contains("unsupported witness format `ic-check-witness/9`"));
        assert!(Witness::from_json("p q")
            .unwrap_err()
            .starts_with("not a witness file"));
    }

    #[test]
    fn settings_repeat_but_do_not_contradict() {
        let w = Witness {
            format: FORMAT.to_string(),
            program: ProgramRef {
                sha256: sha256_hex(b""),
                file: "a.ic".to_string(),
            },
            params: [("N".to_string(), 3)].into_iter().collect(),
            max_steps: 1000,
            algorithm: "naive".to_string(),
            findings: Vec::new(),
        };
        let n = |v| vec![("N".to_string(), v)];
        assert_eq!(w.settings(&[], None, "w.json"), Ok((n(3), 1000)));
        assert_eq!(w.settings(&n(3), Some(1000), "w.json"), Ok((n(3), 1000)));
        assert!(w
            .settings(&n(4), None, "w.json")
            .unwrap_err()
            .starts_with("-D N=4 contradicts the witness file w.json"));
        assert!(w
            .settings(&[], Some(5), "w.json")
            .unwrap_err()
            .starts_with("--max-steps 5 contradicts"));
        assert!(w.matches_source(""));
        assert!(!w.matches_source(" "));
        assert_eq!(Witness::from_json(&w.to_json()), Ok(w));
    }
}
