//! JSON Schemas of every file format and every `--format json` output,
//! generated from the Rust types.
//!
//! The checked-in copies under `schemas/` are compared with these by a test
//! (`BRAIN_UPDATE_SCHEMAS=1` rewrites them), so they cannot drift.

use schemars::{JsonSchema, Schema, SchemaGenerator};

use crate::config::Config;
use crate::lint::LintReport;
use crate::migrate::MigrateReport;
use crate::model::{Memory, Preference};
use crate::report::{
    AddReport, DismissReport, ErrorReport, InitReport, ListReport, NormalizeReport, ShowReport,
    StatsReport, SupersedeReport,
};

fn generate<T: JsonSchema>(id: &str) -> Schema {
    let mut schema = SchemaGenerator::default().into_root_schema_for::<T>();
    schema.insert(
        "$id".to_owned(),
        serde_json::Value::String(format!("https://brain.invalid/schemas/{id}")),
    );
    schema
}

/// Returns every schema with its path under `schemas/`, in a fixed order.
#[allow(clippy::too_many_lines, reason = "one entry per schema")]
pub fn all() -> Vec<(&'static str, Schema)> {
    vec![
        (
            "memory.schema.json",
            generate::<Memory>("memory.schema.json"),
        ),
        (
            "preference.schema.json",
            generate::<Preference>("preference.schema.json"),
        ),
        (
            "config.schema.json",
            generate::<Config>("config.schema.json"),
        ),
        (
            "extractor-output.schema.json",
            generate::<crate::extract::external::ExtractorOutput>("extractor-output.schema.json"),
        ),
        (
            "feedback-event.schema.json",
            generate::<crate::feedback::FeedbackEvent>("feedback-event.schema.json"),
        ),
        (
            "failure-event.schema.json",
            generate::<crate::failures::FailureEvent>("failure-event.schema.json"),
        ),
        (
            "failure-detector-output.schema.json",
            generate::<crate::failures::detector::DetectorOutput>(
                "failure-detector-output.schema.json",
            ),
        ),
        (
            "output/init.schema.json",
            generate::<InitReport>("output/init.schema.json"),
        ),
        (
            "output/add.schema.json",
            generate::<AddReport>("output/add.schema.json"),
        ),
        (
            "output/list.schema.json",
            generate::<ListReport>("output/list.schema.json"),
        ),
        (
            "output/show.schema.json",
            generate::<ShowReport>("output/show.schema.json"),
        ),
        (
            "output/stats.schema.json",
            generate::<StatsReport>("output/stats.schema.json"),
        ),
        (
            "output/lint.schema.json",
            generate::<LintReport>("output/lint.schema.json"),
        ),
        (
            "output/status.schema.json",
            generate::<crate::status::StatusReport>("output/status.schema.json"),
        ),
        (
            "output/sweep.schema.json",
            generate::<crate::sweep::SweepReport>("output/sweep.schema.json"),
        ),
        (
            "output/check.schema.json",
            generate::<crate::check::CheckReport>("output/check.schema.json"),
        ),
        (
            "output/normalize.schema.json",
            generate::<NormalizeReport>("output/normalize.schema.json"),
        ),
        (
            "output/supersede.schema.json",
            generate::<SupersedeReport>("output/supersede.schema.json"),
        ),
        (
            "output/dismiss.schema.json",
            generate::<DismissReport>("output/dismiss.schema.json"),
        ),
        (
            "output/review.schema.json",
            generate::<crate::approve::ReviewReport>("output/review.schema.json"),
        ),
        (
            "output/approve.schema.json",
            generate::<crate::approve::ApproveReport>("output/approve.schema.json"),
        ),
        (
            "output/edit.schema.json",
            generate::<crate::edit::EditReport>("output/edit.schema.json"),
        ),
        (
            "output/error.schema.json",
            generate::<ErrorReport>("output/error.schema.json"),
        ),
        (
            "output/import.schema.json",
            generate::<MigrateReport>("output/import.schema.json"),
        ),
        (
            "output/import-rules.schema.json",
            generate::<crate::capture::RuleImportReport>("output/import-rules.schema.json"),
        ),
        (
            "output/capture.schema.json",
            generate::<crate::capture::CaptureReport>("output/capture.schema.json"),
        ),
        (
            "route.schema.json",
            generate::<crate::route::RouteReport>("route.schema.json"),
        ),
        (
            "output/inject.schema.json",
            generate::<crate::inject::InjectReport>("output/inject.schema.json"),
        ),
        (
            "output/search.schema.json",
            generate::<crate::search::SearchReport>("output/search.schema.json"),
        ),
        (
            "output/suggest-extract.schema.json",
            generate::<crate::capture::SuggestReport>("output/suggest-extract.schema.json"),
        ),
        (
            "output/index.schema.json",
            generate::<crate::embed::IndexReport>("output/index.schema.json"),
        ),
        (
            "output/conversation-start.schema.json",
            generate::<crate::session::ConversationStartReport>(
                "output/conversation-start.schema.json",
            ),
        ),
        (
            "output/diff.schema.json",
            generate::<crate::session::DiffReport>("output/diff.schema.json"),
        ),
        (
            "output/export.schema.json",
            generate::<crate::export::ExportReport>("output/export.schema.json"),
        ),
        (
            "output/setup.schema.json",
            generate::<crate::setup::SetupReport>("output/setup.schema.json"),
        ),
        (
            "output/preference-add.schema.json",
            generate::<crate::prefs::PreferenceAddReport>("output/preference-add.schema.json"),
        ),
        (
            "output/preference-list.schema.json",
            generate::<crate::prefs::PreferenceListReport>("output/preference-list.schema.json"),
        ),
        (
            "output/preference-show.schema.json",
            generate::<crate::prefs::PreferenceShowReport>("output/preference-show.schema.json"),
        ),
        (
            "output/preference-approve.schema.json",
            generate::<crate::prefs::PreferenceApproveReport>(
                "output/preference-approve.schema.json",
            ),
        ),
        (
            "output/preference-dismiss.schema.json",
            generate::<crate::prefs::PreferenceDismissReport>(
                "output/preference-dismiss.schema.json",
            ),
        ),
        (
            "output/preference-supersede.schema.json",
            generate::<crate::prefs::PreferenceSupersedeReport>(
                "output/preference-supersede.schema.json",
            ),
        ),
        (
            "output/preference-capture.schema.json",
            generate::<crate::prefs::PreferenceCaptureReport>(
                "output/preference-capture.schema.json",
            ),
        ),
        ("session-profile.schema.json", session_profile_file()),
        (
            "output/session-show.schema.json",
            generate::<crate::session_profile::SessionShowReport>(
                "output/session-show.schema.json",
            ),
        ),
        (
            "output/session-set.schema.json",
            generate::<crate::session_profile::SessionSetReport>("output/session-set.schema.json"),
        ),
        (
            "output/session-clear.schema.json",
            generate::<crate::session_profile::SessionClearReport>(
                "output/session-clear.schema.json",
            ),
        ),
        (
            "output/session-promote.schema.json",
            generate::<crate::session_profile::SessionPromoteReport>(
                "output/session-promote.schema.json",
            ),
        ),
        (
            "output/routing-feedback.schema.json",
            generate::<crate::feedback::FeedbackReport>("output/routing-feedback.schema.json"),
        ),
        (
            "output/routing-feedback-explain.schema.json",
            generate::<crate::feedback::ExplainReport>(
                "output/routing-feedback-explain.schema.json",
            ),
        ),
        (
            "output/reinforce.schema.json",
            generate::<crate::feedback::ReinforceReport>("output/reinforce.schema.json"),
        ),
        (
            "output/failure.schema.json",
            generate::<crate::failures::FailureReport>("output/failure.schema.json"),
        ),
    ]
}

/// The session profile file, `.brain/runtime/session-profile.json`: read
/// strictly, so unknown keys are refused here too.
fn session_profile_file() -> Schema {
    let mut schema = generate::<crate::route::SessionPolicy>("session-profile.schema.json");
    schema.insert(
        "additionalProperties".to_owned(),
        serde_json::Value::Bool(false),
    );
    schema
}

/// Returns the schema text as written to disk: pretty JSON with a final newline.
#[allow(
    clippy::missing_panics_doc,
    reason = "serializing a JSON value cannot fail"
)]
pub fn to_text(schema: &Schema) -> String {
    let mut s = serde_json::to_string_pretty(schema)
        .expect("a schema is a JSON value and always serializes");
    s.push('\n');
    s
}
