//! The `local-static` provider (cargo feature `embed-static`): a
//! model2vec-style static model read from a directory the user supplies.
//! Nothing is ever downloaded.
//!
//! The directory holds
//!
//! * `model.safetensors`: the embedding matrix, `[vocabulary, dimensions]`
//!   in f32, f16, bf16, f64 or i8, named `embeddings` (or `0` or
//!   `embedding.weight`), and optionally model2vec's per-token `weights` and
//!   token-to-row `mapping`;
//! * `tokenizer.json`: a Hugging Face tokenizer;
//! * `config.json` (optional): model2vec's config, of which `normalize`
//!   (default `true`) is read.
//!
//! A text's vector is the mean of the rows of its first [`MAX_TOKENS`] tokens
//! (no special tokens, the unknown token skipped), each scaled by its weight,
//! then scaled to unit length. This is what model2vec's `encode` computes.
//! The provider's [`EmbedderId`] carries a hash of the three files and the
//! dimension, so vectors of two models never share a cache.

use std::path::{Path, PathBuf};

use brain_core::embed::{EmbedError, Embedder, EmbedderId};
use safetensors::{Dtype, SafeTensors};
use tokenizers::Tokenizer;
use tokenizers::models::ModelWrapper;

/// The embedding matrix's file.
const MODEL_FILE: &str = "model.safetensors";
/// The tokenizer's file.
const TOKENIZER_FILE: &str = "tokenizer.json";
/// The optional model2vec config.
const CONFIG_FILE: &str = "config.json";
/// Names the embedding matrix goes by, tried in order (model2vec,
/// sentence-transformers' `StaticEmbedding`, a bare `nn.Embedding`).
const MATRIX_NAMES: [&str; 3] = ["embeddings", "0", "embedding.weight"];
/// Tokens of a text that count, as in model2vec's default `max_length`.
const MAX_TOKENS: usize = 512;
/// Largest dimension accepted, as for `embedding.dimensions`.
const MAX_DIMENSIONS: usize = 65_536;

/// A loaded static model.
pub(crate) struct StaticEmbedder {
    tokenizer: Tokenizer,
    tokenizer_path: PathBuf,
    /// Row-major `[rows, dim]`.
    table: Vec<f32>,
    dim: usize,
    /// Per-token scale (model2vec's `weights`), indexed by token id.
    weights: Option<Vec<f32>>,
    /// Token id to row (model2vec's `mapping`).
    mapping: Option<Vec<usize>>,
    /// The unknown token, left out of the mean.
    unk: Option<u32>,
    normalize: bool,
    id: EmbedderId,
}

fn model_error(path: &Path, message: impl Into<String>) -> EmbedError {
    EmbedError::Model {
        path: path.to_path_buf(),
        message: message.into(),
    }
}

/// Reads a file of the model directory; `None` when it is optional and
/// absent.
fn read(path: &Path, optional: bool) -> Result<Option<Vec<u8>>, EmbedError> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && optional => Ok(None),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(model_error(path, "the file does not exist"))
        }
        Err(e) => Err(model_error(path, format!("cannot read the file: {e}"))),
    }
}

impl StaticEmbedder {
    /// Loads the model in `dir`. `label` names the model in its id (the
    /// directory's name when `None`); a hash of the files is always added.
    pub(crate) fn load(dir: &Path, label: Option<&str>) -> Result<StaticEmbedder, EmbedError> {
        match std::fs::metadata(dir) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => return Err(model_error(dir, "not a directory (`embedding.model_dir`)")),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(model_error(
                    dir,
                    "the directory does not exist (`embedding.model_dir`)",
                ));
            }
            Err(e) => return Err(model_error(dir, format!("cannot read the directory: {e}"))),
        }
        let model_path = dir.join(MODEL_FILE);
        let tokenizer_path = dir.join(TOKENIZER_FILE);
        let config_path = dir.join(CONFIG_FILE);
        let model_bytes = read(&model_path, false)?.unwrap_or_default();
        let tokenizer_bytes = read(&tokenizer_path, false)?.unwrap_or_default();
        let config_bytes = read(&config_path, true)?;

        let normalize = match &config_bytes {
            None => true,
            Some(bytes) => read_normalize(bytes).map_err(|m| model_error(&config_path, m))?,
        };
        let tokenizer =
            load_tokenizer(&tokenizer_bytes).map_err(|m| model_error(&tokenizer_path, m))?;
        let matrix = Matrix::parse(&model_bytes).map_err(|m| model_error(&model_path, m))?;
        // Every id of the tokenizer's vocabulary must have a row.
        let vocabulary = tokenizer.get_vocab_size(false);
        let addressable = matrix.mapping.as_ref().map_or(matrix.rows, Vec::len);
        if vocabulary > addressable {
            let what = if matrix.mapping.is_some() {
                "tensor `mapping` has"
            } else {
                "the embedding matrix has"
            };
            return Err(model_error(
                &model_path,
                format!(
                    "{what} {addressable} rows, but `{TOKENIZER_FILE}` has {vocabulary} tokens"
                ),
            ));
        }
        let unk = unknown_token(&tokenizer);

        let mut hasher = blake3::Hasher::new();
        // Length-prefixed, so bytes moved between files change the hash.
        for part in [
            Some(&model_bytes),
            Some(&tokenizer_bytes),
            config_bytes.as_ref(),
        ]
        .into_iter()
        .flatten()
        {
            hasher.update(&u64::try_from(part.len()).unwrap_or(u64::MAX).to_le_bytes());
            hasher.update(part);
        }
        let hash = hasher.finalize().to_hex();
        let label = label
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .or_else(|| {
                dir.canonicalize()
                    .ok()
                    .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
            })
            .unwrap_or_else(|| "model".to_owned());
        let dimensions = u32::try_from(matrix.dim).expect("the dimension was checked to fit");
        Ok(StaticEmbedder {
            tokenizer,
            tokenizer_path,
            table: matrix.table,
            dim: matrix.dim,
            weights: matrix.weights,
            mapping: matrix.mapping,
            unk,
            normalize,
            id: EmbedderId::new(
                "local-static",
                format!("{label}-{}", &hash[..12]),
                dimensions,
            ),
        })
    }

    fn embed_one(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        let encoding = self.tokenizer.encode_fast(text, false).map_err(|e| {
            model_error(&self.tokenizer_path, format!("cannot tokenize a text: {e}"))
        })?;
        let rows = self.table.len() / self.dim;
        let mut sum = vec![0f32; self.dim];
        let mut count = 0u32;
        for &token in encoding.get_ids().iter().take(MAX_TOKENS) {
            if Some(token) == self.unk {
                continue;
            }
            let Ok(t) = usize::try_from(token) else {
                continue;
            };
            let row = match &self.mapping {
                Some(m) => m.get(t).copied(),
                None => Some(t),
            };
            // Added tokens beyond the matrix count as unknown.
            let Some(row) = row.filter(|r| *r < rows) else {
                continue;
            };
            let scale = self
                .weights
                .as_ref()
                .and_then(|w| w.get(t).copied())
                .unwrap_or(1.0);
            let values = &self.table[row * self.dim..(row + 1) * self.dim];
            for (s, v) in sum.iter_mut().zip(values) {
                *s += v * scale;
            }
            count += 1;
        }
        if count > 0 {
            #[expect(
                clippy::cast_precision_loss,
                reason = "at most MAX_TOKENS tokens, exact in an f32"
            )]
            let n = count as f32;
            for s in &mut sum {
                *s /= n;
            }
        }
        if self.normalize {
            brain_core::embed::normalize(&mut sum);
        }
        Ok(sum)
    }
}

impl Embedder for StaticEmbedder {
    fn id(&self) -> EmbedderId {
        self.id.clone()
    }

    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        texts.iter().map(|t| self.embed_one(t)).collect()
    }
}

/// model2vec's `normalize` flag from `config.json` (default `true`).
fn read_normalize(bytes: &[u8]) -> Result<bool, String> {
    let value: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| format!("invalid JSON: {e}"))?;
    let Some(object) = value.as_object() else {
        return Err("expected a JSON object".to_owned());
    };
    match object.get("normalize") {
        None | Some(serde_json::Value::Null) => Ok(true),
        Some(serde_json::Value::Bool(b)) => Ok(*b),
        Some(other) => Err(format!("`normalize` must be true or false, not {other}")),
    }
}

/// The tokenizer, without the padding or truncation it may have been saved
/// with (some pad every text to a fixed length).
fn load_tokenizer(bytes: &[u8]) -> Result<Tokenizer, String> {
    let mut tokenizer =
        Tokenizer::from_bytes(bytes).map_err(|e| format!("not a valid tokenizer: {e}"))?;
    tokenizer.with_padding(None);
    tokenizer
        .with_truncation(None)
        .map_err(|e| format!("cannot turn truncation off: {e}"))?;
    Ok(tokenizer)
}

/// The id of the tokenizer's unknown token, when it has one.
fn unknown_token(tokenizer: &Tokenizer) -> Option<u32> {
    match tokenizer.get_model() {
        ModelWrapper::BPE(m) => m
            .unk_token
            .as_deref()
            .and_then(|t| tokenizer.token_to_id(t)),
        ModelWrapper::WordPiece(m) => tokenizer.token_to_id(&m.unk_token),
        ModelWrapper::WordLevel(m) => tokenizer.token_to_id(&m.unk_token),
        // `Unigram` keeps `unk_id` private; its serialised form has it.
        ModelWrapper::Unigram(m) => serde_json::to_value(m)
            .ok()?
            .get("unk_id")?
            .as_u64()
            .and_then(|id| u32::try_from(id).ok()),
    }
}

/// The tensors of `model.safetensors`, decoded and checked.
struct Matrix {
    table: Vec<f32>,
    rows: usize,
    dim: usize,
    weights: Option<Vec<f32>>,
    mapping: Option<Vec<usize>>,
}

impl Matrix {
    fn parse(bytes: &[u8]) -> Result<Matrix, String> {
        let tensors =
            SafeTensors::deserialize(bytes).map_err(|e| format!("not a safetensors file: {e}"))?;
        let Some((name, matrix)) = MATRIX_NAMES
            .iter()
            .find_map(|n| tensors.tensor(n).ok().map(|t| (*n, t)))
        else {
            let mut names = tensors.names();
            names.sort_unstable();
            return Err(format!(
                "no tensor named `embeddings` (it has: {})",
                if names.is_empty() {
                    "none".to_owned()
                } else {
                    names.join(", ")
                }
            ));
        };
        let (rows, dim) = match *matrix.shape() {
            [rows, dim] if rows > 0 && (1..=MAX_DIMENSIONS).contains(&dim) => (rows, dim),
            _ => {
                return Err(format!(
                    "tensor `{name}` has shape {:?}; expected [vocabulary, dimensions] with 1 to {MAX_DIMENSIONS} dimensions",
                    matrix.shape()
                ));
            }
        };
        let table = decode(name, matrix.dtype(), matrix.data())?;
        if table.len() != rows * dim {
            return Err(format!(
                "tensor `{name}` holds {} numbers, not {rows} × {dim}",
                table.len()
            ));
        }
        let weights = match tensors.tensor("weights") {
            Err(_) => None,
            Ok(w) => {
                let values = decode("weights", w.dtype(), w.data())?;
                if w.shape().len() != 1 {
                    return Err(format!(
                        "tensor `weights` has shape {:?}; expected one weight per token",
                        w.shape()
                    ));
                }
                Some(values)
            }
        };
        let mapping = match tensors.tensor("mapping") {
            Err(_) => None,
            Ok(m) => {
                let mapping = decode_mapping(m.dtype(), m.data())?;
                if let Some(bad) = mapping.iter().find(|r| **r >= rows) {
                    return Err(format!(
                        "tensor `mapping` points at row {bad}, but `{name}` has {rows} rows"
                    ));
                }
                Some(mapping)
            }
        };
        Ok(Matrix {
            table,
            rows,
            dim,
            weights,
            mapping,
        })
    }
}

/// Little-endian numbers of a tensor as f32, all finite.
fn decode(name: &str, dtype: Dtype, data: &[u8]) -> Result<Vec<f32>, String> {
    #[expect(
        clippy::cast_possible_truncation,
        reason = "f64 weights are stored as f32, like model2vec does"
    )]
    let values: Vec<f32> = match dtype {
        Dtype::F32 => data
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect(),
        Dtype::F16 => data
            .chunks_exact(2)
            .map(|b| f16_to_f32(u16::from_le_bytes([b[0], b[1]])))
            .collect(),
        Dtype::BF16 => data
            .chunks_exact(2)
            .map(|b| f32::from_bits(u32::from(u16::from_le_bytes([b[0], b[1]])) << 16))
            .collect(),
        Dtype::F64 => data
            .chunks_exact(8)
            .map(|b| f64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]) as f32)
            .collect(),
        Dtype::I8 => data.iter().map(|b| f32::from(b.cast_signed())).collect(),
        other => {
            return Err(format!(
                "tensor `{name}` has type {other:?}; expected F32, F16, BF16, F64 or I8"
            ));
        }
    };
    if values.iter().any(|v| !v.is_finite()) {
        return Err(format!(
            "tensor `{name}` contains a value that is not a finite number"
        ));
    }
    Ok(values)
}

/// model2vec's token-to-row `mapping` (i64 or i32).
fn decode_mapping(dtype: Dtype, data: &[u8]) -> Result<Vec<usize>, String> {
    let rows: Vec<i64> = match dtype {
        Dtype::I64 => data
            .chunks_exact(8)
            .map(|b| i64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
            .collect(),
        Dtype::I32 => data
            .chunks_exact(4)
            .map(|b| i64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])))
            .collect(),
        other => {
            return Err(format!(
                "tensor `mapping` has type {other:?}; expected I64 or I32"
            ));
        }
    };
    rows.into_iter()
        .map(|r| usize::try_from(r).map_err(|_| format!("tensor `mapping` holds row {r}")))
        .collect()
}

/// An IEEE 754 half-precision number as f32 (exact).
fn f16_to_f32(bits: u16) -> f32 {
    let sign = u32::from(bits >> 15) << 31;
    let exponent = u32::from((bits >> 10) & 0x1f);
    let mantissa = u32::from(bits & 0x3ff);
    match (exponent, mantissa) {
        (0, 0) => f32::from_bits(sign),
        (0, _) => {
            // Subnormal: mantissa × 2^-24.
            let value = f32::from(bits & 0x3ff) * f32::from_bits(0x3380_0000);
            if sign == 0 { value } else { -value }
        }
        (0x1f, _) => f32::from_bits(sign | 0x7f80_0000 | (mantissa << 13)),
        _ => f32::from_bits(sign | ((exponent + 112) << 23) | (mantissa << 13)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use brain_core::embed::cosine;
    use safetensors::tensor::TensorView;

    const WORDS: [&str; 13] = [
        "[UNK]",
        "ledger",
        "rows",
        "are",
        "append",
        "only",
        "never",
        "update",
        "dashboard",
        "uses",
        "dark",
        "colour",
        "theme",
    ];
    const DIM: usize = 8;

    /// A `WordPiece` tokenizer (BERT normaliser and pre-tokeniser) over `words`.
    fn tokenizer_json(words: &[&str]) -> String {
        let vocab: serde_json::Map<String, serde_json::Value> = words
            .iter()
            .enumerate()
            .map(|(i, w)| ((*w).to_owned(), i.into()))
            .collect();
        serde_json::json!({
            "version": "1.0",
            "truncation": null,
            // Saved with padding, as some exported tokenizers are: it must be turned off.
            "padding": {"strategy": {"Fixed": 16}, "direction": "Right", "pad_to_multiple_of": null,
                        "pad_id": 1, "pad_type_id": 0, "pad_token": "ledger"},
            "added_tokens": [{"id": 0, "content": "[UNK]", "single_word": false, "lstrip": false,
                              "rstrip": false, "normalized": false, "special": true}],
            "normalizer": {"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true,
                           "strip_accents": null, "lowercase": true},
            "pre_tokenizer": {"type": "BertPreTokenizer"},
            "post_processor": null,
            "decoder": null,
            "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                      "max_input_chars_per_word": 100, "vocab": vocab}
        })
        .to_string()
    }

    /// A deterministic `[rows, DIM]` matrix in -1..1 (xorshift from `seed`).
    fn matrix(rows: usize, seed: u64) -> Vec<f32> {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..rows * DIM)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                #[expect(clippy::cast_precision_loss, reason = "test data")]
                let unit = (state >> 40) as f32 / (1u64 << 24) as f32;
                unit * 2.0 - 1.0
            })
            .collect()
    }

    fn safetensors_file(tensors: &[(&str, Dtype, Vec<usize>, Vec<u8>)]) -> Vec<u8> {
        let views: Vec<(&str, TensorView<'_>)> = tensors
            .iter()
            .map(|(name, dtype, shape, bytes)| {
                (
                    *name,
                    TensorView::new(*dtype, shape.clone(), bytes).unwrap(),
                )
            })
            .collect();
        safetensors::serialize(views, None).unwrap()
    }

    fn f32_bytes(values: &[f32]) -> Vec<u8> {
        values.iter().flat_map(|v| v.to_le_bytes()).collect()
    }

    /// Writes a complete model directory with the matrix of `seed`.
    fn write_model(dir: &Path, seed: u64) {
        let m = matrix(WORDS.len(), seed);
        let bytes = safetensors_file(&[(
            "embeddings",
            Dtype::F32,
            vec![WORDS.len(), DIM],
            f32_bytes(&m),
        )]);
        std::fs::write(dir.join(MODEL_FILE), bytes).unwrap();
        std::fs::write(dir.join(TOKENIZER_FILE), tokenizer_json(&WORDS)).unwrap();
        std::fs::write(
            dir.join(CONFIG_FILE),
            r#"{"model_type": "model2vec", "normalize": true, "hidden_dim": 8}"#,
        )
        .unwrap();
    }

    fn load_err(dir: &Path) -> String {
        match StaticEmbedder::load(dir, None) {
            Ok(e) => panic!("expected an error, got {}", e.id()),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn embeds_by_mean_of_rows_with_unit_length() {
        let dir = tempfile::tempdir().unwrap();
        write_model(dir.path(), 1);
        let e = StaticEmbedder::load(dir.path(), Some("tiny")).unwrap();
        let id = e.id();
        assert_eq!((id.provider.as_str(), id.dimensions), ("local-static", 8));
        assert!(
            id.model.starts_with("tiny-") && id.model.len() == 5 + 12,
            "{id}"
        );

        let texts = [
            "Ledger rows are append-only",
            "Ledger rows are append only: never UPDATE them",
            "The dashboard uses a dark colour theme",
            "Ledger rows are append-only",
            "zebra quokka",
        ];
        let v = e.embed(&texts).unwrap();
        assert_eq!(v.len(), texts.len());
        for (text, vector) in texts.iter().zip(&v[..4]) {
            assert_eq!(vector.len(), DIM);
            let norm: f32 = vector.iter().map(|x| x * x).sum::<f32>().sqrt();
            assert!((norm - 1.0).abs() < 1e-5, "{text}: {norm}");
        }
        assert_eq!(v[0], v[3], "identical texts, identical vectors");
        assert!(
            cosine(&v[0], &v[1]) > cosine(&v[0], &v[2]),
            "{} vs {}",
            cosine(&v[0], &v[1]),
            cosine(&v[0], &v[2])
        );
        // Only unknown words: no row to average, a zero vector.
        assert!(v[4].iter().all(|x| *x == 0.0), "{:?}", v[4]);

        // The mean of the rows, unit length: "ledger rows" is rows 1 and 2.
        let m = matrix(WORDS.len(), 1);
        let mut want: Vec<f32> = (0..DIM)
            .map(|i| f32::midpoint(m[DIM + i], m[2 * DIM + i]))
            .collect();
        brain_core::embed::normalize(&mut want);
        let got = e.embed(&["ledger ROWS"]).unwrap().remove(0);
        for (g, w) in got.iter().zip(&want) {
            assert!((g - w).abs() < 1e-6, "{got:?} vs {want:?}");
        }
        // The unknown token is left out of the mean.
        assert_eq!(e.embed(&["ledger zebra rows"]).unwrap().remove(0), got);
    }

    #[test]
    fn the_id_follows_the_files() {
        let dir = tempfile::tempdir().unwrap();
        write_model(dir.path(), 1);
        let first = StaticEmbedder::load(dir.path(), None).unwrap().id();
        let name = dir
            .path()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        assert!(first.model.starts_with(&format!("{name}-")), "{first}");
        assert_eq!(StaticEmbedder::load(dir.path(), None).unwrap().id(), first);

        write_model(dir.path(), 2);
        let reweighted = StaticEmbedder::load(dir.path(), None).unwrap().id();
        assert_ne!(first, reweighted, "other weights, another id");
        assert_ne!(first.key(), reweighted.key());

        std::fs::write(dir.path().join(CONFIG_FILE), r#"{"normalize": false}"#).unwrap();
        let raw = StaticEmbedder::load(dir.path(), None).unwrap();
        assert_ne!(raw.id(), reweighted, "another config, another id");
        // Without normalisation the mean is returned as it is.
        let m = matrix(WORDS.len(), 2);
        assert_eq!(raw.embed(&["ledger"]).unwrap()[0], m[DIM..2 * DIM]);

        std::fs::remove_file(dir.path().join(CONFIG_FILE)).unwrap();
        let unconfigured = StaticEmbedder::load(dir.path(), None).unwrap();
        assert_ne!(unconfigured.id(), reweighted, "config.json is optional");
        let norm: f32 = unconfigured.embed(&["rows"]).unwrap()[0]
            .iter()
            .map(|x| x * x)
            .sum();
        assert!((norm - 1.0).abs() < 1e-5, "normalised by default: {norm}");
    }

    #[test]
    fn half_precision_weights_mapping_and_token_weights() {
        let dir = tempfile::tempdir().unwrap();
        write_model(dir.path(), 3);
        let full = StaticEmbedder::load(dir.path(), None).unwrap();
        let text = ["ledger rows never update"];
        let want = full.embed(&text).unwrap().remove(0);

        // The same matrix in f16 and bf16 gives nearly the same vector.
        let m = matrix(WORDS.len(), 3);
        let f16: Vec<u8> = m
            .iter()
            .flat_map(|v| f32_to_f16(*v).to_le_bytes())
            .collect();
        let bf16: Vec<u8> = m
            .iter()
            .flat_map(|v| u16::try_from(v.to_bits() >> 16).unwrap().to_le_bytes())
            .collect();
        for (dtype, bytes, tolerance) in [(Dtype::F16, f16, 2e-3), (Dtype::BF16, bf16, 2e-2)] {
            std::fs::write(
                dir.path().join(MODEL_FILE),
                safetensors_file(&[("embeddings", dtype, vec![WORDS.len(), DIM], bytes)]),
            )
            .unwrap();
            let half = StaticEmbedder::load(dir.path(), None).unwrap();
            let got = half.embed(&text).unwrap().remove(0);
            assert!(
                got.iter()
                    .zip(&want)
                    .all(|(g, w)| (g - w).abs() < tolerance),
                "{dtype:?}: {got:?} vs {want:?}"
            );
        }

        // model2vec's vocabulary quantisation: every token maps to row 0,
        // so every known text has row 0's direction; weights only scale.
        let two_rows = matrix(2, 4);
        let mapping: Vec<u8> = (0..WORDS.len()).flat_map(|_| 0i64.to_le_bytes()).collect();
        let weights: Vec<f32> = (1..=WORDS.len())
            .map(|i| f32::from(u8::try_from(i).unwrap()))
            .collect();
        std::fs::write(
            dir.path().join(MODEL_FILE),
            safetensors_file(&[
                ("embeddings", Dtype::F32, vec![2, DIM], f32_bytes(&two_rows)),
                ("mapping", Dtype::I64, vec![WORDS.len()], mapping),
                (
                    "weights",
                    Dtype::F32,
                    vec![WORDS.len()],
                    f32_bytes(&weights),
                ),
            ]),
        )
        .unwrap();
        let quantised = StaticEmbedder::load(dir.path(), None).unwrap();
        let vectors = quantised.embed(&["ledger", "dark colour theme"]).unwrap();
        let mut first_row = two_rows[..DIM].to_vec();
        brain_core::embed::normalize(&mut first_row);
        for vector in &vectors {
            assert!(cosine(vector, &first_row) > 0.9999, "{vector:?}");
        }
    }

    /// f32 to IEEE half, round to nearest (normal numbers only; test data).
    fn f32_to_f16(v: f32) -> u16 {
        let bits = v.to_bits();
        let sign = u16::try_from((bits >> 16) & 0x8000).unwrap();
        let exponent = i32::try_from((bits >> 23) & 0xff).unwrap() - 127 + 15;
        if exponent <= 0 {
            return sign;
        }
        let mantissa = (bits & 0x7f_ffff) + 0x1000;
        let half = (u32::try_from(exponent).unwrap() << 10) + (mantissa >> 13);
        sign | u16::try_from(half).unwrap()
    }

    #[test]
    fn half_floats_decode_exactly() {
        for (bits, value) in [
            (0x3c00, 1.0),
            (0xc000, -2.0),
            (0x3800, 0.5),
            (0x7bff, 65504.0),
            (0x0001, 5.960_464_5e-8),
            (0x8000, -0.0),
        ] {
            assert_eq!(
                f16_to_f32(bits).to_bits(),
                f32::to_bits(value),
                "{bits:#06x}"
            );
        }
        assert!(f16_to_f32(0x7c00).is_infinite() && f16_to_f32(0x7e00).is_nan());
    }

    #[test]
    fn broken_models_name_the_file() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("m2v");
        let err = load_err(&dir);
        assert!(
            err.starts_with("cannot load the embedding model from `")
                && err.contains("m2v`: the directory does not exist"),
            "{err}"
        );

        std::fs::create_dir(&dir).unwrap();
        write_model(&dir, 1);
        std::fs::remove_file(dir.join(MODEL_FILE)).unwrap();
        let err = load_err(&dir);
        assert!(
            err.contains("model.safetensors`: the file does not exist"),
            "{err}"
        );

        write_model(&dir, 1);
        std::fs::remove_file(dir.join(TOKENIZER_FILE)).unwrap();
        let err = load_err(&dir);
        assert!(
            err.contains("tokenizer.json`: the file does not exist"),
            "{err}"
        );

        std::fs::write(dir.join(TOKENIZER_FILE), "{\"model\": 3}").unwrap();
        let err = load_err(&dir);
        assert!(
            err.contains("tokenizer.json`: not a valid tokenizer: "),
            "{err}"
        );

        write_model(&dir, 1);
        std::fs::write(dir.join(CONFIG_FILE), "{\"normalize\": \"yes\"}").unwrap();
        let err = load_err(&dir);
        assert!(
            err.contains("config.json`: `normalize` must be true or false"),
            "{err}"
        );

        let model = |tensors: &[(&str, Dtype, Vec<usize>, Vec<u8>)]| {
            write_model(&dir, 1);
            std::fs::write(dir.join(MODEL_FILE), safetensors_file(tensors)).unwrap();
            load_err(&dir)
        };
        let flat = f32_bytes(&matrix(WORDS.len(), 1));
        let err = model(&[(
            "embeddings",
            Dtype::F32,
            vec![WORDS.len() * DIM],
            flat.clone(),
        )]);
        assert!(
            err.contains("model.safetensors`: tensor `embeddings` has shape [104]; expected [vocabulary, dimensions]"),
            "{err}"
        );
        let err = model(&[("vectors", Dtype::F32, vec![WORDS.len(), DIM], flat.clone())]);
        assert!(
            err.contains("no tensor named `embeddings` (it has: vectors)"),
            "{err}"
        );
        let short = f32_bytes(&matrix(4, 1));
        let err = model(&[("embeddings", Dtype::F32, vec![4, DIM], short)]);
        assert!(
            err.contains("the embedding matrix has 4 rows, but `tokenizer.json` has 13 tokens"),
            "{err}"
        );
        let ints = vec![0u8; WORDS.len() * DIM * 4];
        let err = model(&[("embeddings", Dtype::I32, vec![WORDS.len(), DIM], ints)]);
        assert!(err.contains("has type I32; expected F32"), "{err}");
        let mut nan = matrix(WORDS.len(), 1);
        nan[5] = f32::NAN;
        let err = model(&[(
            "embeddings",
            Dtype::F32,
            vec![WORDS.len(), DIM],
            f32_bytes(&nan),
        )]);
        assert!(err.contains("not a finite number"), "{err}");

        write_model(&dir, 1);
        std::fs::write(dir.join(MODEL_FILE), b"not safetensors").unwrap();
        let err = load_err(&dir);
        assert!(
            err.contains("model.safetensors`: not a safetensors file"),
            "{err}"
        );
    }
}
