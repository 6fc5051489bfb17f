//! The JSON files `ic-check` writes and reads back (witness files, shard files): one
//! object whose `format` field names its kind and version, checked before anything
//! else, so that a file of another kind or version is refused by name rather than
//! for a missing field.

use serde::de::DeserializeOwned;

/// Reads `text` as a file of `format` (`ic-check-witness/1`), a `what` (`witness
/// file`) for the messages.
pub fn read<T: DeserializeOwned>(text: &str, format: &str, what: &str) -> Result<T, String> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not a {what}: {e}"))?;
    match value.get("format") {
        Some(serde_json::Value::String(f)) if f == format => {}
        Some(serde_json::Value::String(f)) => {
            let kind = what.split(' ').next().unwrap_or(what);
            return Err(format!(
                "unsupported {kind} format `{f}`: this version reads `{format}` only"
            ));
        }
        _ => return Err(format!("not a {what}: no `format` field \"{format}\"")),
    }
    serde_json::from_value(value).map_err(|e| format!("not a {what}: {e}"))
}
