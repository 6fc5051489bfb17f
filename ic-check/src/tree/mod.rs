//! `--tree FILE`: the execution tree of the run as a picture, in the format the file's
//! extension names: `.dot` for Graphviz users, `.svg` drawn here (no Graphviz needed).
//! The file is created before the exploration starts, so that a path that cannot be
//! written is reported at once rather than after a long run.

mod dot;
mod label;
mod layout;
mod svg;

use explorer::Tree;
use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Dot,
    Svg,
}

/// Where the picture goes: the file, created already.
pub struct TreeFile {
    path: PathBuf,
    file: File,
    format: Format,
}

impl TreeFile {
    /// Checks the extension and creates (truncates) the file.
    pub fn create(path: &Path) -> Result<TreeFile, String> {
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        let format = match extension.as_deref() {
            Some("dot" | "gv") => Format::Dot,
            Some("svg") => Format::Svg,
            _ => {
                return Err(format!(
                    "--tree {}: unknown picture format; name the file `.dot` (Graphviz) or `.svg`",
                    path.display()
                ))
            }
        };
        let file = File::create(path)
            .map_err(|e| format!("cannot write the tree to {}: {e}", path.display()))?;
        Ok(TreeFile {
            path: path.to_path_buf(),
            file,
            format,
        })
    }

    /// Draws `tree` with `title` above it (and a note when the tree was truncated).
    pub fn write(mut self, tree: &Tree, title: &str) -> Result<(), String> {
        let mut caption = vec![title.to_string()];
        if let Some(limit) = tree.truncated {
            caption.push(truncated(limit));
        }
        let labels = label::labels(tree);
        let text = match self.format {
            Format::Dot => dot::write(tree, &labels, &caption),
            Format::Svg => svg::write(tree, &labels, &caption),
        };
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| format!("cannot write the tree to {}: {e}", self.path.display()))
    }
}

/// What the picture and stderr say when the tree stopped growing.
pub fn truncated(limit: usize) -> String {
    format!("the tree stops at {limit} nodes (--tree-limit); the exploration went on")
}
