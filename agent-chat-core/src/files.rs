//! Attachments before they are sent: the upload limits, an agent's narrowing of
//! them (an agent may only lower them), the type check with `type/*` wildcards and `.ext` patterns,
//! the checks of `addFiles`, file sizes for people and the base64 of a file's
//! bytes (raw base64, no `data:` prefix). Pure functions, tested natively.

use super::i18n::{Arg, Catalog};
use super::wire::AgentMetadata;

/// 10 MiB, the hook's default `maxFileSize`.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 10 * 1024 * 1024;
/// The default `maxFiles` per message.
pub const DEFAULT_MAX_FILES: usize = 10;

/// What may be attached to one message.
#[derive(Debug, PartialEq, Eq)]
pub struct UploadLimits {
    /// Uploads are on; off means no attach button and nothing is accepted.
    pub enabled: bool,
    /// Accepted types: MIME types (`image/png`), wildcards (`image/*`) or extensions (`.pdf`).
    /// Empty accepts any type.
    pub allowed_types: Vec<String>,
    /// An agent's own `allowedFileTypes`: a file must match this list too. Empty: the
    /// agent set none.
    pub agent_types: Vec<String>,
    /// Largest accepted file, in bytes.
    pub max_file_size: u64,
    /// Most files per message.
    pub max_files: usize,
}

// Cloned by hand, not derived: a derived `clone` is `#[inline]`, so the UI crate compiled its
// own copy beside this crate's and the element's first download carried both (D104). A new
// field fails to compile until it is added below.
impl Clone for UploadLimits {
    fn clone(&self) -> Self {
        UploadLimits {
            enabled: self.enabled,
            allowed_types: self.allowed_types.clone(),
            agent_types: self.agent_types.clone(),
            max_file_size: self.max_file_size,
            max_files: self.max_files,
        }
    }
}

impl Default for UploadLimits {
    fn default() -> Self {
        UploadLimits {
            enabled: true,
            allowed_types: Vec::new(),
            agent_types: Vec::new(),
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            max_files: DEFAULT_MAX_FILES,
        }
    }
}

impl UploadLimits {
    /// The limits that apply with an agent's `metadata`: the agent may only narrow
    /// the props (`maxFileSize` and `maxFiles` take the minimum, `allowedFileTypes` must match
    /// as well), except that `enableFileUpload` decides on its own when present, as in 0.1.1
    /// (`true` turns uploads on even if the prop turned them off).
    #[must_use]
    pub fn effective(&self, metadata: &AgentMetadata) -> UploadLimits {
        let mut out = self.clone();
        if let Some(enabled) = metadata.enable_file_upload() {
            out.enabled = enabled;
        }
        if let Some(max) = metadata.max_file_size() {
            out.max_file_size = out.max_file_size.min(max);
        }
        if let Some(max) = metadata.max_files() {
            out.max_files = out
                .max_files
                .min(usize::try_from(max).unwrap_or(usize::MAX));
        }
        if let Some(types) = metadata.allowed_file_types() {
            if !types.is_empty() {
                out.agent_types = types;
            }
        }
        if out.max_files == 0 {
            out.enabled = false;
        }
        out
    }

    /// Whether a file of this MIME type and name is accepted by both lists.
    #[must_use]
    pub fn accepts(&self, mime_type: &str, file_name: &str) -> bool {
        accepts(mime_type, file_name, &self.allowed_types)
            && accepts(mime_type, file_name, &self.agent_types)
    }

    /// The `accept` attribute of the file picker: the patterns both lists allow, or the
    /// one list that is set; empty when any type goes. Only a hint to the picker: the check
    /// ([`UploadLimits::accepts`]) is what decides.
    #[must_use]
    pub fn accept_attribute(&self) -> String {
        let list: Vec<&str> = match (self.allowed_types.is_empty(), self.agent_types.is_empty()) {
            (true, true) => Vec::new(),
            (false, true) => self.allowed_types.iter().map(String::as_str).collect(),
            (true, false) => self.agent_types.iter().map(String::as_str).collect(),
            (false, false) => {
                let mut both: Vec<&str> = Vec::new();
                for a in &self.agent_types {
                    for p in &self.allowed_types {
                        let meet = if covers(p, a) {
                            Some(a.as_str())
                        } else if covers(a, p) {
                            Some(p.as_str())
                        } else {
                            None
                        };
                        if let Some(m) = meet {
                            if !both.contains(&m) {
                                both.push(m);
                            }
                        }
                    }
                }
                if both.is_empty() {
                    // `text/*` and `.txt` meet in files no pattern names; the agent's is narrower.
                    self.agent_types.iter().map(String::as_str).collect()
                } else {
                    both
                }
            }
        };
        list.join(",")
    }

    /// `addFiles`: which of `files` may join the `pending` files already attached, in
    /// order. Each file is checked for count, then size, then type; once the count is reached
    /// the rest are refused together with one [`FileRejection::TooMany`]. Sizes come from the
    /// file's metadata, so nothing has been read yet.
    #[must_use]
    pub fn check(&self, pending: usize, files: &[FileMeta]) -> FileCheck {
        let mut out = FileCheck::default();
        if files.is_empty() {
            return out;
        }
        if !self.enabled {
            out.rejected.push(FileRejection::Disabled);
            return out;
        }
        let mut count = pending;
        for (i, f) in files.iter().enumerate() {
            if count >= self.max_files {
                out.rejected.push(FileRejection::TooMany {
                    max: self.max_files,
                });
                break;
            }
            if f.size > self.max_file_size {
                out.rejected.push(FileRejection::TooLarge {
                    name: f.name.clone(),
                    max: self.max_file_size,
                });
                continue;
            }
            if !self.accepts(&f.mime_type, &f.name) {
                out.rejected.push(FileRejection::InvalidType {
                    name: f.name.clone(),
                });
                continue;
            }
            out.accepted.push(i);
            count += 1;
        }
        out
    }
}

/// What the browser says about a file before it is read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileMeta {
    /// File name.
    pub name: String,
    /// MIME type as the browser guessed it (may be empty).
    pub mime_type: String,
    /// Size in bytes.
    pub size: u64,
}

/// The result of [`UploadLimits::check`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileCheck {
    /// Indexes of the accepted files, in order.
    pub accepted: Vec<usize>,
    /// Why the others were refused, in order.
    pub rejected: Vec<FileRejection>,
}

/// Why a file was not attached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileRejection {
    /// The message already has the most files allowed (`chat.file.tooMany`).
    TooMany {
        /// The limit.
        max: usize,
    },
    /// The file is larger than allowed (`chat.file.tooLarge`).
    TooLarge {
        /// File name.
        name: String,
        /// The limit in bytes.
        max: u64,
    },
    /// The file's type is not accepted (`chat.file.invalidType`).
    InvalidType {
        /// File name.
        name: String,
    },
    /// Uploads are off for this chat or agent.
    Disabled,
    /// The browser could not read the file.
    Unreadable {
        /// File name.
        name: String,
    },
}

/// For logs and the `error` event's `message` (the person reads [`FileRejection::describe`]).
impl std::fmt::Display for FileRejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileRejection::TooMany { max } => write!(f, "more than {max} files"),
            FileRejection::TooLarge { name, max } => write!(f, "{name} is over {max} bytes"),
            FileRejection::InvalidType { name } => write!(f, "{name} is not of an accepted type"),
            FileRejection::Disabled => f.write_str("uploads are off"),
            FileRejection::Unreadable { name } => write!(f, "{name} could not be read"),
        }
    }
}

impl FileRejection {
    /// The sentence shown to the person, in the catalog's language.
    #[must_use]
    pub fn describe(&self, catalog: &Catalog) -> String {
        match self {
            FileRejection::TooMany { max } => {
                catalog.tr_args("chat-file-too-many", &[("max", Arg::from(*max))])
            }
            FileRejection::TooLarge { name, max } => {
                // "1 MB" is left-to-right text: isolated in a right-to-left sentence, or the
                // bidi algorithm shows "MB 1" (D1 turns Fluent's own isolation marks off).
                let size = format_file_size(*max);
                let size = if super::i18n::is_rtl(catalog.locale()) {
                    format!("\u{2066}{size}\u{2069}")
                } else {
                    size
                };
                catalog.tr_args(
                    "chat-file-too-large",
                    &[("name", Arg::from(name.as_str())), ("max", Arg::from(size))],
                )
            }
            FileRejection::InvalidType { name } => catalog.tr_args(
                "chat-file-invalid-type",
                &[("name", Arg::from(name.as_str()))],
            ),
            FileRejection::Disabled => catalog.tr("chat-error-code-attachments-disabled"),
            FileRejection::Unreadable { name } => catalog.tr_args(
                "chat-file-read-failed",
                &[("name", Arg::from(name.as_str()))],
            ),
        }
    }
}

/// A file waiting for the next send. `content` is the raw base64 of its bytes, `None`
/// while the browser still reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingFile {
    /// Local id (the React library's `<ms>_<9 base36>` form).
    pub id: String,
    /// File name.
    pub name: String,
    /// MIME type.
    pub mime_type: String,
    /// Size in bytes.
    pub size: u64,
    /// Base64 content once read.
    pub content: Option<String>,
}

impl PendingFile {
    /// Whether the bytes have been read.
    #[must_use]
    pub fn is_ready(&self) -> bool {
        self.content.is_some()
    }
}

/// Whether a file matches one of `allowed` (empty accepts everything). Patterns are
/// compared without case: `*` or `*/*` match any file, `type/*` any subtype of `type`, `.ext`
/// the end of the file name, anything else the exact MIME type (parameters such as
/// `; charset=utf-8` ignored). A file whose type the browser did not know (empty MIME) can
/// only match by extension.
#[must_use]
pub fn accepts(mime_type: &str, file_name: &str, allowed: &[String]) -> bool {
    if allowed.is_empty() {
        return true;
    }
    let mime = essence(mime_type);
    let name = file_name.trim().to_ascii_lowercase();
    allowed.iter().any(|p| {
        let p = p.trim().to_ascii_lowercase();
        if p.is_empty() {
            return false;
        }
        if p == "*" || p == "*/*" {
            return true;
        }
        if p.starts_with('.') {
            return p.len() > 1 && name.ends_with(&p);
        }
        if mime.is_empty() {
            return false;
        }
        match p.strip_suffix("/*") {
            Some(kind) => mime
                .split_once('/')
                .is_some_and(|(k, sub)| k == kind && !sub.is_empty()),
            None => mime == p,
        }
    })
}

/// Whether every file `b` accepts is accepted by `a` (patterns compared as text).
fn covers(a: &str, b: &str) -> bool {
    let (a, b) = (a.trim().to_ascii_lowercase(), b.trim().to_ascii_lowercase());
    if a == "*" || a == "*/*" || a == b {
        return true;
    }
    match a.strip_suffix("/*") {
        Some(kind) => b.split_once('/').is_some_and(|(k, _)| k == kind),
        None => false,
    }
}

/// `text/plain; charset=utf-8` → `text/plain`, lower case.
fn essence(mime: &str) -> String {
    mime.split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// A file size for people, as the React library's `formatFileSize`: `0 Bytes`, `512 Bytes`,
/// `1.5 KB`, `10 MB`, `1.25 GB` (powers of 1024, at most two decimals, trailing zeros dropped).
#[must_use]
pub fn format_file_size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["Bytes", "KB", "MB", "GB"];
    if bytes == 0 {
        return "0 Bytes".to_owned();
    }
    let mut unit = 0;
    let mut scale = 1u64;
    while unit + 1 < UNITS.len() && bytes >= scale * 1024 {
        scale *= 1024;
        unit += 1;
    }
    // Hundredths, rounded half up, in integers: exact for any u64 size.
    let hundredths = (u128::from(bytes) * 100 + u128::from(scale) / 2) / u128::from(scale);
    let whole = hundredths / 100;
    let frac = hundredths % 100;
    let number = if frac == 0 {
        whole.to_string()
    } else if frac % 10 == 0 {
        format!("{whole}.{}", frac / 10)
    } else {
        format!("{whole}.{frac:02}")
    };
    format!("{number} {}", UNITS[unit])
}

/// Standard base64 (RFC 4648, with `=` padding), as `FileReader` would give after the
/// `data:…;base64,` prefix, which the agent server does not take.
#[must_use]
pub fn base64_encode(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let sextet = |shift: u32| char::from(ALPHABET[((n >> shift) & 63) as usize]);
        out.push(sextet(18));
        out.push(sextet(12));
        out.push(if chunk.len() > 1 { sextet(6) } else { '=' });
        out.push(if chunk.len() > 2 { sextet(0) } else { '=' });
    }
    out
}
