//! `.brain/config.yaml`: workflow preset and the settings commands read.
//!
//! The preset gives defaults for trigger mode, capture mode and safe
//! auto-approval; a key set explicitly overrides its preset value. The config is
//! parsed by `crate::yaml` (unknown keys become warnings) and checked by
//! [`Config::problems`] (out-of-range values are errors naming the key).

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::model::SchemaVersion;
use crate::model::kind::word_enum_from_str;

/// A workflow preset.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Workflow {
    /// Nothing is captured automatically; what people add by hand is active at once.
    UltraSafeManual,
    /// Capture is detected automatically and lands as candidates for review.
    #[default]
    RecommendedSemiAuto,
    /// As `recommended-semi-auto`, and candidates the reviewer finds safe are approved.
    AutomationFirst,
}

impl Workflow {
    /// Returns the preset name.
    pub fn as_str(self) -> &'static str {
        match self {
            Workflow::UltraSafeManual => "ultra-safe-manual",
            Workflow::RecommendedSemiAuto => "recommended-semi-auto",
            Workflow::AutomationFirst => "automation-first",
        }
    }

    /// Returns the settings this preset implies.
    pub fn defaults(self) -> WorkflowSettings {
        match self {
            Workflow::UltraSafeManual => WorkflowSettings {
                trigger_mode: TriggerMode::Manual,
                capture_mode: CaptureMode::Direct,
                auto_approve_safe: false,
            },
            Workflow::RecommendedSemiAuto => WorkflowSettings {
                trigger_mode: TriggerMode::Detect,
                capture_mode: CaptureMode::Candidate,
                auto_approve_safe: false,
            },
            Workflow::AutomationFirst => WorkflowSettings {
                trigger_mode: TriggerMode::Detect,
                capture_mode: CaptureMode::Candidate,
                auto_approve_safe: true,
            },
        }
    }
}

impl fmt::Display for Workflow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

word_enum_from_str!(
    Workflow,
    "workflow preset",
    [
        Workflow::UltraSafeManual,
        Workflow::RecommendedSemiAuto,
        Workflow::AutomationFirst
    ]
);

/// When capture runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TriggerMode {
    /// Only when a person runs a capture command.
    Manual,
    /// Also from hooks when the capture signals say a session is worth it.
    Detect,
}

/// What captured memories become.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CaptureMode {
    /// Active at once.
    Direct,
    /// Candidates waiting for review.
    Candidate,
}

/// The three settings a preset decides, after explicit overrides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct WorkflowSettings {
    /// When capture runs.
    pub trigger_mode: TriggerMode,
    /// What captured memories become.
    pub capture_mode: CaptureMode,
    /// Whether candidates the reviewer finds safe are approved without a person.
    pub auto_approve_safe: bool,
}

/// Context injection settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct InjectConfig {
    /// Token budget of one injected context block.
    #[serde(default = "default_budget")]
    pub budget_tokens: u32,
    /// Relevance (`0..1`) the best memory needs for anything to be shown
    /// (default 0.75).
    #[serde(default = "default_min_relevance")]
    pub min_relevance: f64,
    /// Relevance every shown memory needs, once something is (default 0.25).
    #[serde(default = "default_min_shown_relevance")]
    pub min_shown_relevance: f64,
    /// Least share of the best memory's score another needs (default 0.2).
    #[serde(default = "default_relative_cutoff")]
    pub relative_cutoff: f64,
    /// Most memories in one block (default 5).
    #[serde(default = "default_max_memories")]
    pub max_memories: u32,
    /// `min_relevance` is multiplied by this for a task that only asks
    /// about the code (default 2: such a task gets nothing; 1: like any).
    #[serde(default = "default_read_only_factor")]
    pub read_only_factor: f64,
}

fn default_budget() -> u32 {
    1200
}

fn default_min_relevance() -> f64 {
    crate::inject::Tuning::default().min_relevance
}

fn default_min_shown_relevance() -> f64 {
    crate::inject::Tuning::default().min_shown_relevance
}

fn default_relative_cutoff() -> f64 {
    crate::inject::Tuning::default().relative_cutoff
}

fn default_max_memories() -> u32 {
    u32::try_from(crate::inject::Tuning::default().max_memories).unwrap_or(5)
}

fn default_read_only_factor() -> f64 {
    crate::inject::Tuning::default().read_only_factor
}

impl Default for InjectConfig {
    fn default() -> Self {
        InjectConfig {
            budget_tokens: default_budget(),
            min_relevance: default_min_relevance(),
            min_shown_relevance: default_min_shown_relevance(),
            relative_cutoff: default_relative_cutoff(),
            max_memories: default_max_memories(),
            read_only_factor: default_read_only_factor(),
        }
    }
}

impl InjectConfig {
    /// The selection thresholds these settings give.
    pub fn tuning(&self) -> crate::inject::Tuning {
        crate::inject::Tuning {
            min_relevance: self.min_relevance,
            min_shown_relevance: self.min_shown_relevance,
            relative_cutoff: self.relative_cutoff,
            max_memories: self.max_memories as usize,
            read_only_factor: self.read_only_factor,
        }
    }
}

/// Which embedding provider computes vectors for hybrid search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum EmbeddingProviderKind {
    /// Offline feature hashing (default): no network, no model files.
    #[default]
    Hash,
    /// An OpenAI-compatible `POST /v1/embeddings` endpoint.
    Openai,
    /// An external program speaking JSON over stdin and stdout.
    Command,
    /// A static (model2vec-style) model loaded from `model_dir`.
    LocalStatic,
    /// A small BERT model loaded from `model_dir`.
    LocalBert,
}

/// The `embedding:` section.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EmbeddingConfig {
    /// Provider to use.
    #[serde(default)]
    pub provider: EmbeddingProviderKind,
    /// Vector dimension.
    #[serde(default = "default_dimensions")]
    pub dimensions: u32,
    /// Model name sent to the provider.
    #[serde(default)]
    pub model: Option<String>,
    /// Base URL of an OpenAI-compatible endpoint.
    #[serde(default)]
    pub base_url: Option<String>,
    /// Name of the environment variable holding the API key (never the key itself).
    #[serde(default)]
    pub api_key_env: Option<String>,
    /// Program and arguments of the `command` provider.
    #[serde(default)]
    pub command: Vec<String>,
    /// Directory with local model weights.
    #[serde(default)]
    pub model_dir: Option<String>,
    /// Texts per request.
    #[serde(default = "default_batch_size")]
    pub batch_size: u32,
    /// Timeout of one request or command run, in milliseconds.
    #[serde(default = "default_timeout_ms")]
    pub timeout_ms: u64,
}

fn default_dimensions() -> u32 {
    256
}
fn default_batch_size() -> u32 {
    64
}
fn default_timeout_ms() -> u64 {
    30_000
}

impl Default for EmbeddingConfig {
    fn default() -> Self {
        EmbeddingConfig {
            provider: EmbeddingProviderKind::default(),
            dimensions: default_dimensions(),
            model: None,
            base_url: None,
            api_key_env: None,
            command: Vec::new(),
            model_dir: None,
            batch_size: default_batch_size(),
            timeout_ms: default_timeout_ms(),
        }
    }
}

/// Default of `extractor.timeout_seconds`.
pub const DEFAULT_EXTRACTOR_TIMEOUT_SECONDS: u64 = 30;

/// Largest accepted `extractor.timeout_seconds` (one hour).
pub const MAX_EXTRACTOR_TIMEOUT_SECONDS: u64 = 3600;

/// The `extractor:` section: an external command that `capture` and `extract`
/// try before the local pipeline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ExtractorConfig {
    /// Shell command run through `sh -c`: reads the prompt on stdin, prints
    /// `{"memories":[…]}` on stdout. Absent: only the local pipeline runs.
    /// The environment variable `BRAIN_EXTRACTOR_COMMAND` overrides it.
    #[serde(default)]
    pub command: Option<String>,
    /// Seconds after which the command is killed and its output refused.
    /// The environment variable `BRAIN_EXTRACTOR_TIMEOUT` overrides it.
    #[serde(default = "default_extractor_timeout")]
    pub timeout_seconds: u64,
}

fn default_extractor_timeout() -> u64 {
    DEFAULT_EXTRACTOR_TIMEOUT_SECONDS
}

impl Default for ExtractorConfig {
    fn default() -> Self {
        ExtractorConfig {
            command: None,
            timeout_seconds: default_extractor_timeout(),
        }
    }
}

/// `.brain/config.yaml`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Config {
    /// File-format version; always 1.
    pub schema_version: SchemaVersion,
    /// Workflow preset.
    #[serde(default)]
    pub workflow: Workflow,
    /// Overrides the preset's trigger mode.
    #[serde(default)]
    pub trigger_mode: Option<TriggerMode>,
    /// Overrides the preset's capture mode.
    #[serde(default)]
    pub capture_mode: Option<CaptureMode>,
    /// Overrides the preset's safe auto-approval.
    #[serde(default)]
    pub auto_approve_safe: Option<bool>,
    /// Context injection settings.
    #[serde(default)]
    pub inject: InjectConfig,
    /// Days without confirmation after which an active memory counts as stale.
    #[serde(default = "default_stale_days")]
    pub stale_days: u32,
    /// Embedding provider settings.
    #[serde(default)]
    pub embedding: EmbeddingConfig,
    /// External extractor settings.
    #[serde(default)]
    pub extractor: ExtractorConfig,
}

fn default_stale_days() -> u32 {
    90
}

impl Default for Config {
    fn default() -> Self {
        Config::for_workflow(Workflow::default())
    }
}

/// A config value that parses but makes no sense.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigProblem {
    /// Dotted key, e.g. `inject.budget_tokens`.
    pub key: &'static str,
    /// What is wrong.
    pub message: String,
}

impl Config {
    /// Returns the default config of a preset.
    pub fn for_workflow(workflow: Workflow) -> Config {
        Config {
            schema_version: SchemaVersion::CURRENT,
            workflow,
            trigger_mode: None,
            capture_mode: None,
            auto_approve_safe: None,
            inject: InjectConfig::default(),
            stale_days: default_stale_days(),
            embedding: EmbeddingConfig::default(),
            extractor: ExtractorConfig::default(),
        }
    }

    /// Returns the preset's settings with explicit overrides applied.
    pub fn settings(&self) -> WorkflowSettings {
        let base = self.workflow.defaults();
        WorkflowSettings {
            trigger_mode: self.trigger_mode.unwrap_or(base.trigger_mode),
            capture_mode: self.capture_mode.unwrap_or(base.capture_mode),
            auto_approve_safe: self.auto_approve_safe.unwrap_or(base.auto_approve_safe),
        }
    }

    /// Returns values that are well-typed but out of range.
    pub fn problems(&self) -> Vec<ConfigProblem> {
        let mut out = Vec::new();
        if self.inject.budget_tokens == 0 {
            out.push(ConfigProblem {
                key: "inject.budget_tokens",
                message: "must be a positive number of tokens".into(),
            });
        }
        for (key, value) in [
            ("inject.min_relevance", self.inject.min_relevance),
            (
                "inject.min_shown_relevance",
                self.inject.min_shown_relevance,
            ),
            ("inject.relative_cutoff", self.inject.relative_cutoff),
        ] {
            if !(0.0..=1.0).contains(&value) {
                out.push(ConfigProblem {
                    key,
                    message: format!("{value} is outside 0..=1"),
                });
            }
        }
        if self.inject.max_memories == 0 {
            out.push(ConfigProblem {
                key: "inject.max_memories",
                message: "must be at least 1".into(),
            });
        }
        if !(1.0..=10.0).contains(&self.inject.read_only_factor) {
            out.push(ConfigProblem {
                key: "inject.read_only_factor",
                message: format!("{} is outside 1..=10", self.inject.read_only_factor),
            });
        }
        if self.stale_days == 0 {
            out.push(ConfigProblem {
                key: "stale_days",
                message: "must be at least 1".into(),
            });
        }
        let e = &self.embedding;
        if e.dimensions == 0 || e.dimensions > 65_536 {
            out.push(ConfigProblem {
                key: "embedding.dimensions",
                message: format!("{} is outside 1..=65536", e.dimensions),
            });
        }
        if e.batch_size == 0 {
            out.push(ConfigProblem {
                key: "embedding.batch_size",
                message: "must be at least 1".into(),
            });
        }
        if e.timeout_ms == 0 {
            out.push(ConfigProblem {
                key: "embedding.timeout_ms",
                message: "must be at least 1".into(),
            });
        }
        match e.provider {
            EmbeddingProviderKind::Openai if e.base_url.is_none() => out.push(ConfigProblem {
                key: "embedding.base_url",
                message: "the `openai` provider needs a base_url".into(),
            }),
            EmbeddingProviderKind::Command if e.command.is_empty() => out.push(ConfigProblem {
                key: "embedding.command",
                message: "the `command` provider needs a command".into(),
            }),
            EmbeddingProviderKind::LocalStatic | EmbeddingProviderKind::LocalBert
                if e.model_dir.is_none() =>
            {
                out.push(ConfigProblem {
                    key: "embedding.model_dir",
                    message: "local providers need a model_dir".into(),
                });
            }
            _ => {}
        }
        let x = &self.extractor;
        if x.timeout_seconds == 0 || x.timeout_seconds > MAX_EXTRACTOR_TIMEOUT_SECONDS {
            out.push(ConfigProblem {
                key: "extractor.timeout_seconds",
                message: format!(
                    "{} is outside 1..={MAX_EXTRACTOR_TIMEOUT_SECONDS}",
                    x.timeout_seconds
                ),
            });
        }
        if x.command.as_deref().is_some_and(|c| c.trim().is_empty()) {
            out.push(ConfigProblem {
                key: "extractor.command",
                message: "must not be empty; leave the key out to use only the local pipeline"
                    .into(),
            });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::{config_to_string, parse_config};

    #[test]
    fn presets_and_overrides() {
        let cases = [
            (
                "workflow: ultra-safe-manual",
                TriggerMode::Manual,
                CaptureMode::Direct,
                false,
            ),
            (
                "workflow: recommended-semi-auto",
                TriggerMode::Detect,
                CaptureMode::Candidate,
                false,
            ),
            (
                "workflow: automation-first",
                TriggerMode::Detect,
                CaptureMode::Candidate,
                true,
            ),
            (
                "workflow: automation-first\nauto_approve_safe: false\ncapture_mode: direct",
                TriggerMode::Detect,
                CaptureMode::Direct,
                false,
            ),
            (
                "trigger_mode: manual",
                TriggerMode::Manual,
                CaptureMode::Candidate,
                false,
            ),
        ];
        for (body, trigger, capture, auto) in cases {
            let (c, unknown) = parse_config(&format!("schema_version: 1\n{body}\n")).unwrap();
            assert!(unknown.is_empty());
            let s = c.settings();
            assert_eq!(
                (s.trigger_mode, s.capture_mode, s.auto_approve_safe),
                (trigger, capture, auto),
                "{body}"
            );
        }
    }

    #[test]
    fn unknown_keys_are_reported_with_their_path() {
        let (_, unknown) = parse_config(
            "schema_version: 1\nworkflow: automation-first\nmaxInjectTokens: 5\ninject:\n  budget: 3\n",
        )
        .unwrap();
        assert_eq!(unknown, ["maxInjectTokens", "inject.budget"]);
    }

    #[test]
    fn invalid_values_name_the_key() {
        let err = parse_config("schema_version: 1\nworkflow: yolo\n").unwrap_err();
        assert_eq!(err.field.as_deref(), Some("workflow"));
        assert_eq!(err.line, Some(2));
        let err = parse_config("schema_version: 1\ninject:\n  budget_tokens: lots\n").unwrap_err();
        assert_eq!(err.field.as_deref(), Some("inject.budget_tokens"));
        let (c, _) =
            parse_config("schema_version: 1\nstale_days: 0\nembedding:\n  provider: openai\n")
                .unwrap();
        let keys: Vec<_> = c.problems().into_iter().map(|p| p.key).collect();
        assert_eq!(keys, ["stale_days", "embedding.base_url"]);
    }

    #[test]
    fn extractor_section() {
        let (c, unknown) = parse_config(
            "schema_version: 1\nextractor:\n  command: llm-extract --json\n  timeout_seconds: 90\n",
        )
        .unwrap();
        assert!(unknown.is_empty());
        assert_eq!(c.extractor.command.as_deref(), Some("llm-extract --json"));
        assert_eq!(c.extractor.timeout_seconds, 90);
        assert!(c.problems().is_empty());
        assert_eq!(
            config_to_string(&c),
            "schema_version: 1\nworkflow: recommended-semi-auto\nextractor:\n  command: llm-extract --json\n  timeout_seconds: 90\n"
        );
        // The default timeout is pruned; a command alone stays.
        let (c, _) =
            parse_config("schema_version: 1\nextractor:\n  command: x\n  timeout_seconds: 30\n")
                .unwrap();
        assert_eq!(
            config_to_string(&c),
            "schema_version: 1\nworkflow: recommended-semi-auto\nextractor:\n  command: x\n"
        );
        for (body, key) in [
            ("timeout_seconds: 0", "extractor.timeout_seconds"),
            ("timeout_seconds: 3601", "extractor.timeout_seconds"),
            ("command: ' '", "extractor.command"),
        ] {
            let (c, _) =
                parse_config(&format!("schema_version: 1\nextractor:\n  {body}\n")).unwrap();
            let keys: Vec<_> = c.problems().into_iter().map(|p| p.key).collect();
            assert_eq!(keys, [key], "{body}");
        }
        let (c, _) =
            parse_config("schema_version: 1\nextractor:\n  timeout_seconds: 3600\n").unwrap();
        assert!(c.problems().is_empty());
        let (_, unknown) = parse_config("schema_version: 1\nextractor:\n  timeout: 5\n").unwrap();
        assert_eq!(unknown, ["extractor.timeout"]);
        let keys = crate::yaml::config_keys();
        assert!(keys.iter().any(|k| k == "extractor.command"));
        assert!(keys.iter().any(|k| k == "extractor.timeout_seconds"));
    }

    #[test]
    fn inject_thresholds_are_settings_with_checked_ranges() {
        let (c, unknown) =
            parse_config("schema_version: 1\ninject:\n  min_relevance: 0.6\n  max_memories: 3\n")
                .unwrap();
        assert!(unknown.is_empty());
        let t = c.inject.tuning();
        assert!((t.min_relevance - 0.6).abs() < 1e-12);
        assert_eq!(t.max_memories, 3);
        assert!((t.min_shown_relevance - 0.45).abs() < 1e-12, "the default");
        assert!(c.problems().is_empty());
        for (body, key) in [
            ("min_relevance: 1.5", "inject.min_relevance"),
            ("min_shown_relevance: -0.1", "inject.min_shown_relevance"),
            ("relative_cutoff: 2", "inject.relative_cutoff"),
            ("max_memories: 0", "inject.max_memories"),
            ("read_only_factor: 0.5", "inject.read_only_factor"),
        ] {
            let (c, _) = parse_config(&format!("schema_version: 1\ninject:\n  {body}\n")).unwrap();
            let keys: Vec<_> = c.problems().into_iter().map(|p| p.key).collect();
            assert_eq!(keys, [key], "{body}");
        }
        // Defaults are not written out.
        let text = config_to_string(&Config::for_workflow(Workflow::AutomationFirst));
        assert!(!text.contains("inject"), "{text}");
    }

    #[test]
    fn default_config_is_small_and_round_trips() {
        let text = config_to_string(&Config::for_workflow(Workflow::AutomationFirst));
        assert_eq!(text, "schema_version: 1\nworkflow: automation-first\n");
        let (back, _) = parse_config(&text).unwrap();
        assert_eq!(back, Config::for_workflow(Workflow::AutomationFirst));
    }
}
