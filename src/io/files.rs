//! Browser edge of attachments: what a `File` says about itself, and its bytes as the raw
//! base64 the core sends. The checks live in `core::files`; only files that
//! passed them are read here, so a 1 GB file is refused from its size alone.

use wasm_bindgen::JsCast;

use crate::core::{base64_encode, FileMeta};

/// Name, MIME type (as the browser guessed it) and size, without reading the file.
pub(crate) fn meta(file: &web_sys::File) -> FileMeta {
    FileMeta {
        name: file.name(),
        mime_type: file.type_(),
        size: file.size().max(0.0) as u64,
    }
}

/// The files of a `FileList` (picker or clipboard), in order.
pub(crate) fn list(files: Option<web_sys::FileList>) -> Vec<web_sys::File> {
    let Some(files) = files else {
        return Vec::new();
    };
    (0..files.length()).filter_map(|i| files.get(i)).collect()
}

/// Reads the whole file and encodes it; the error is the browser's wording.
pub(crate) async fn read_base64(file: web_sys::File) -> Result<String, String> {
    let buffer = wasm_bindgen_futures::JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| {
            e.dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
                .unwrap_or_else(|| "unreadable file".to_owned())
        })?;
    let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
    Ok(base64_encode(&bytes))
}
