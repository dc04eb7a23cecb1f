//! The files of the part the chat draws first (the message list, D72), read from the split
//! loader `wasm-split-cli` writes, so the instant shell can start fetching them as soon as the
//! main wasm has arrived (D96) instead of once the wasm has compiled and started.
//!
//! The loader (before minifying) declares each shared chunk as
//! `const __chunk_<n> = makeLoad(() => { const src = fetch(new URL("./chunk_<n>.wasm", …` and
//! each part as `export const __wasm_split_load_<part> = wrapAsyncCb(makeLoad(() => { const
//! src = fetch(new URL("./split_<part>.wasm", …)); … }, [__chunk_a, __chunk_b]));`: a part
//! needs its own file and the chunks it lists.

/// The part the chat draws as soon as it is drawn.
pub const FIRST_PART: &str = "messages";

/// The files `part` needs, its own first then the chunks it shares, in the loader's order.
pub fn part_files(loader: &str, part: &str) -> Result<Vec<String>, String> {
    let start = format!("export const __wasm_split_load_{part} =");
    let at = loader
        .find(&start)
        .ok_or_else(|| format!("the split loader has no part `{part}`"))?;
    let rest = &loader[at + start.len()..];
    let statement = &rest[..rest.find("export const ").unwrap_or(rest.len())];
    let mut files = vec![url_of(statement)
        .ok_or_else(|| format!("the split loader's part `{part}` fetches no file"))?];
    let deps = statement
        .rfind('[')
        .and_then(|open| {
            let list = &statement[open + 1..];
            list.find(']').map(|close| &list[..close])
        })
        .ok_or_else(|| format!("the split loader's part `{part}` lists no chunks"))?;
    for name in deps.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let decl = format!("const {name} = makeLoad(");
        let file = loader
            .find(&decl)
            .and_then(|at| url_of(&loader[at..]))
            .ok_or_else(|| format!("the split loader does not say which file {name} is"))?;
        files.push(file);
    }
    Ok(files)
}

/// The first `new URL("./<file>"` in `js`: the file's name.
fn url_of(js: &str) -> Option<String> {
    let open = "new URL(\"./";
    let at = js.find(open)? + open.len();
    let end = js[at..].find('"')?;
    let file = &js[at..at + end];
    (!file.is_empty() && !file.contains(['/', '\\', '<'])).then(|| file.to_owned())
}

#[cfg(test)]
mod tests {
    use super::part_files;

    /// The shape `wasm-split-cli` writes (two shared chunks, two parts).
    const LOADER: &str = r#"
const __chunk_8 = makeLoad(() => {
    const src = fetch(new URL("./chunk_8.wasm", import.meta.url));
    src.catch(() => {});
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}
, []);
const __chunk_10 = makeLoad(() => {
    const src = fetch(new URL("./chunk_10.wasm", import.meta.url));
    src.catch(() => {});
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}
, [__chunk_8]);
export const __wasm_split_load_messages = wrapAsyncCb(makeLoad(() => {
    const src = fetch(new URL("./split_messages.wasm", import.meta.url));
    src.catch(() => {});
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}
, [__chunk_10, __chunk_8]));
export const __wasm_split_load_markdown = wrapAsyncCb(makeLoad(() => {
    const src = fetch(new URL("./split_markdown.wasm", import.meta.url));
    src.catch(() => {});
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}
, [__chunk_8]));
"#;

    #[test]
    fn a_part_needs_its_own_file_and_the_chunks_it_lists() {
        assert_eq!(
            part_files(LOADER, "messages").unwrap(),
            ["split_messages.wasm", "chunk_10.wasm", "chunk_8.wasm"]
        );
        assert_eq!(
            part_files(LOADER, "markdown").unwrap(),
            ["split_markdown.wasm", "chunk_8.wasm"]
        );
    }

    #[test]
    fn a_loader_of_another_shape_is_an_error_not_a_guess() {
        assert!(part_files(LOADER, "cards").is_err());
        let unnamed = LOADER.replace("const __chunk_10 = makeLoad(", "const c10 = makeLoad(");
        assert!(part_files(&unnamed, "messages").is_err());
        let no_list = "export const __wasm_split_load_messages = x(new URL(\"./a.wasm\"));";
        assert!(part_files(no_list, "messages").is_err());
    }
}
