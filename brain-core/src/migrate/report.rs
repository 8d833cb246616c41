//! The report of `brain import --from-repobrain`; its `Serialize` shape is
//! the `--format json` contract (`schemas/output/import.schema.json`).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use super::Plan;
use crate::model::{MemoryId, Status};
use crate::secrets::Redaction;

/// The result of `brain import --from-repobrain`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct MigrateReport {
    /// Whether nothing was written (`--dry-run`).
    pub dry_run: bool,
    /// Number of RepoBrain files read.
    pub files_read: usize,
    /// Records written (in a dry run: that would be written), in source order.
    pub imported: Vec<ImportedRecord>,
    /// Records whose id is already in the store (imported by an earlier run).
    pub skipped_existing: Vec<ImportedRecord>,
    /// Files that produced no record, with the reason.
    pub not_imported: Vec<NotImported>,
    /// Keys of imported files that the mapping does not know, per file.
    pub unmapped: Vec<UnmappedFields>,
    /// Changes of meaning made while mapping (dismissals, dropped references).
    pub notes: Vec<MigrateNote>,
    /// Usage data left out (`score`, `hit_count`, `last_used`, `updated`):
    /// the number of imported files that carried each key.
    pub dropped_usage: BTreeMap<String, usize>,
    /// Secrets replaced by `[REDACTED:<kind>]` in the records before they
    /// were written (in a dry run: that would be), in source order.
    pub redactions: Vec<Redaction>,
}

/// A record produced from a RepoBrain file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ImportedRecord {
    /// Its id.
    pub id: MemoryId,
    /// Its memory type, or `preference`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Its status.
    pub status: Status,
    /// Its file, relative to the root.
    pub path: String,
    /// The RepoBrain file, relative to the RepoBrain `.brain/` directory.
    pub from: String,
}

/// A RepoBrain file that produced no record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct NotImported {
    /// The RepoBrain file, relative to the RepoBrain `.brain/` directory.
    pub from: String,
    /// Why.
    pub reason: String,
}

/// Keys of one RepoBrain file that were not mapped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct UnmappedFields {
    /// The RepoBrain file.
    pub from: String,
    /// The keys, sorted.
    pub fields: Vec<String>,
}

/// A change of meaning made while mapping one file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct MigrateNote {
    /// The RepoBrain file.
    pub from: String,
    /// What was changed and why.
    pub message: String,
}

impl Plan {
    /// Turns the plan into the command's report, given what happened to each
    /// planned record: written (or to be written) at a path, or skipped
    /// because its id exists; and the secrets redacted from the records.
    pub fn into_report(
        self,
        outcomes: Vec<(ImportedRecord, bool)>,
        redactions: Vec<Redaction>,
        dry_run: bool,
    ) -> MigrateReport {
        let mut imported = Vec::new();
        let mut skipped_existing = Vec::new();
        for (record, written) in outcomes {
            if written {
                imported.push(record);
            } else {
                skipped_existing.push(record);
            }
        }
        MigrateReport {
            dry_run,
            files_read: self.files_read,
            imported,
            skipped_existing,
            not_imported: self.not_imported,
            unmapped: self.unmapped,
            notes: self.notes,
            dropped_usage: self.dropped_usage,
            redactions,
        }
    }
}
