//! Just enough of the WebAssembly binary format to rewrite a module's import and export names
//! (D79): its sections, and the unsigned LEB128 numbers that frame them.

/// The import section's id.
pub const IMPORTS: u8 = 2;
/// The export section's id.
pub const EXPORTS: u8 = 7;

/// One import or export: its module (imports only), its name, and the bytes after the name
/// (kind and index or type), copied as they are.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The module an import comes from; empty for an export.
    pub module: String,
    /// The name.
    pub name: String,
    /// What follows the name, unread.
    pub rest: Vec<u8>,
}

/// One section of a module: its id, where it starts (its id byte) and where its body is.
struct Section {
    id: u8,
    start: usize,
    body: std::ops::Range<usize>,
}

/// The sections of `wasm`, in order, after checking its header.
fn sections(wasm: &[u8]) -> Result<Vec<Section>, String> {
    const HEADER: usize = 8;
    if wasm.len() < HEADER || &wasm[..4] != b"\0asm" {
        return Err("not a wasm module".into());
    }
    let mut found = Vec::new();
    let mut at = HEADER;
    while at < wasm.len() {
        let (size, body_at) = leb(wasm, at + 1)?;
        let end = body_at
            .checked_add(size)
            .filter(|end| *end <= wasm.len())
            .ok_or("a section runs past the end of the module")?;
        found.push(Section {
            id: wasm[at],
            start: at,
            body: body_at..end,
        });
        at = end;
    }
    Ok(found)
}

/// `wasm` with each section of id `id` (its entries) rewritten by `edit`; the other sections
/// are copied byte for byte.
pub fn rewrite(
    wasm: &[u8],
    id: u8,
    mut edit: impl FnMut(Vec<Entry>) -> Vec<Entry>,
) -> Result<Vec<u8>, String> {
    let sections = sections(wasm)?;
    let mut out = wasm[..8].to_vec();
    for section in sections {
        if section.id == id {
            let entries = edit(read_entries(&wasm[section.body.clone()], id)?);
            let mut body = Vec::new();
            write_leb(&mut body, entries.len());
            for entry in &entries {
                if id == IMPORTS {
                    write_name(&mut body, &entry.module);
                }
                write_name(&mut body, &entry.name);
                body.extend_from_slice(&entry.rest);
            }
            out.push(section.id);
            write_leb(&mut out, body.len());
            out.extend_from_slice(&body);
        } else {
            out.extend_from_slice(&wasm[section.start..section.body.end]);
        }
    }
    Ok(out)
}

/// The entries of an import (`id` [`IMPORTS`]) or export section's body.
fn read_entries(body: &[u8], id: u8) -> Result<Vec<Entry>, String> {
    let (count, mut at) = leb(body, 0)?;
    let mut entries = Vec::new();
    for _ in 0..count {
        let mut module = String::new();
        if id == IMPORTS {
            (module, at) = read_name(body, at)?;
        }
        let (name, rest_at) = read_name(body, at)?;
        let kind = *body.get(rest_at).ok_or("an entry runs past the end")?;
        at = rest_at + 1;
        match (id, kind) {
            // A function (its type), a table, a memory or a global of an export: an index.
            (EXPORTS, _) | (IMPORTS, 0) => at = leb(body, at)?.1,
            // A table: its element type, then limits.
            (IMPORTS, 1) => at = limits(body, at + 1)?,
            (IMPORTS, 2) => at = limits(body, at)?,
            // A global: its value type and mutability.
            (IMPORTS, 3) => at += 2,
            _ => return Err(format!("an import of unknown kind {kind}")),
        }
        let rest = body
            .get(rest_at..at)
            .ok_or("an entry runs past the end")?
            .to_vec();
        entries.push(Entry { module, name, rest });
    }
    Ok(entries)
}

/// Past the limits at `at` (a flag, a minimum, and a maximum when the flag says so).
fn limits(body: &[u8], at: usize) -> Result<usize, String> {
    let flag = *body.get(at).ok_or("limits run past the end")?;
    let at = leb(body, at + 1)?.1;
    if flag & 1 == 1 {
        Ok(leb(body, at)?.1)
    } else {
        Ok(at)
    }
}

fn read_name(bytes: &[u8], at: usize) -> Result<(String, usize), String> {
    let (len, at) = leb(bytes, at)?;
    let name = bytes
        .get(at..at + len)
        .and_then(|n| std::str::from_utf8(n).ok())
        .ok_or("a name is not UTF-8 or runs past the end")?;
    Ok((name.to_owned(), at + len))
}

fn write_name(out: &mut Vec<u8>, name: &str) {
    write_leb(out, name.len());
    out.extend_from_slice(name.as_bytes());
}

/// The lowest address an active data segment of `wasm` is written to (`None`: no data
/// section, or only passive segments). A segment placed by anything but an `i32.const` is
/// an error: its address cannot be known here.
pub fn lowest_data_address(wasm: &[u8]) -> Result<Option<u32>, String> {
    const DATA: u8 = 11;
    let mut lowest: Option<u32> = None;
    for section in sections(wasm)?.into_iter().filter(|s| s.id == DATA) {
        let body = &wasm[section.body];
        let (count, mut pos) = leb(body, 0)?;
        for _ in 0..count {
            let (flag, next) = leb(body, pos)?;
            pos = next;
            if flag == 2 {
                pos = leb(body, pos)?.1;
            }
            if flag != 1 {
                // `i32.const <signed LEB> end`
                if body.get(pos) != Some(&0x41) {
                    return Err("a data segment placed by an expression, not a constant".into());
                }
                let (address, next) = sleb32(body, pos + 1)?;
                if body.get(next) != Some(&0x0b) {
                    return Err("a data segment's offset is not a lone constant".into());
                }
                pos = next + 1;
                let address = address as u32;
                lowest = Some(lowest.map_or(address, |l| l.min(address)));
            }
            let (len, next) = leb(body, pos)?;
            pos = next + len;
        }
    }
    Ok(lowest)
}

/// The names of `wasm`'s custom sections, in order.
pub fn custom_section_names(wasm: &[u8]) -> Result<Vec<String>, String> {
    const CUSTOM: u8 = 0;
    sections(wasm)?
        .into_iter()
        .filter(|s| s.id == CUSTOM)
        .map(|s| read_name(&wasm[s.body], 0).map(|(name, _)| name))
        .collect()
}

/// A signed 32-bit LEB128 at `at`, and where what follows it starts.
fn sleb32(bytes: &[u8], mut at: usize) -> Result<(i32, usize), String> {
    let mut value: i64 = 0;
    let mut shift = 0;
    loop {
        let byte = *bytes.get(at).ok_or("a number runs past the end")?;
        at += 1;
        value |= i64::from(byte & 0x7f) << shift;
        shift += 7;
        if byte & 0x80 == 0 {
            if shift < 64 && byte & 0x40 != 0 {
                value |= -1i64 << shift;
            }
            return i32::try_from(value)
                .map(|v| (v, at))
                .map_err(|_| "a constant wider than 32 bits".into());
        }
        if shift >= 35 {
            return Err("a number longer than 5 bytes".into());
        }
    }
}

/// An unsigned LEB128 at `at`, and where what follows it starts.
pub fn leb(bytes: &[u8], mut at: usize) -> Result<(usize, usize), String> {
    let mut value = 0usize;
    for shift in (0..35).step_by(7) {
        let byte = *bytes.get(at).ok_or("a number runs past the end")?;
        at += 1;
        value |= usize::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok((value, at));
        }
    }
    Err("a number longer than 5 bytes".into())
}

/// Appends `value` as an unsigned LEB128.
pub fn write_leb(out: &mut Vec<u8>, mut value: usize) {
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// Builds small modules for the tests of the modules that rewrite names.
#[cfg(test)]
pub mod build {
    use super::{write_leb, write_name, EXPORTS, IMPORTS};

    /// A module with a custom section, then an import section of function imports
    /// (`module`, `name`, type 0) and an export section of function exports (index 0).
    pub fn module(imports: &[(&str, &str)], exports: &[&str]) -> Vec<u8> {
        let mut wasm = b"\0asm\x01\0\0\0".to_vec();
        wasm.extend_from_slice(&[0, 3, 1, b'x', 9]);
        let mut body = Vec::new();
        write_leb(&mut body, imports.len());
        for (module, name) in imports {
            write_name(&mut body, module);
            write_name(&mut body, name);
            body.extend_from_slice(&[0, 0]);
        }
        wasm.push(IMPORTS);
        write_leb(&mut wasm, body.len());
        wasm.extend_from_slice(&body);
        let mut body = Vec::new();
        write_leb(&mut body, exports.len());
        for name in exports {
            write_name(&mut body, name);
            body.extend_from_slice(&[0, 0]);
        }
        wasm.push(EXPORTS);
        write_leb(&mut wasm, body.len());
        wasm.extend_from_slice(&body);
        wasm
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_sections_are_named_in_order() {
        let mut wasm = build::module(&[("env", "g")], &["memory"]);
        assert_eq!(custom_section_names(&wasm).unwrap(), ["x"]);
        wasm.extend_from_slice(&[0, 10, 9]);
        wasm.extend_from_slice(b"producers");
        assert_eq!(custom_section_names(&wasm).unwrap(), ["x", "producers"]);
        assert!(custom_section_names(&wasm[..wasm.len() - 1]).is_err());
    }

    #[test]
    fn an_unchanged_rewrite_gives_the_same_bytes() {
        let wasm = build::module(&[("./m_bg.js", "__wbg_f_0123"), ("env", "g")], &["memory"]);
        assert_eq!(rewrite(&wasm, IMPORTS, |e| e).unwrap(), wasm);
        assert_eq!(rewrite(&wasm, EXPORTS, |e| e).unwrap(), wasm);
        let mut names = Vec::new();
        rewrite(&wasm, IMPORTS, |e| {
            names = e
                .iter()
                .map(|e| (e.module.clone(), e.name.clone()))
                .collect();
            e
        })
        .unwrap();
        assert_eq!(
            names,
            [
                ("./m_bg.js".to_owned(), "__wbg_f_0123".to_owned()),
                ("env".to_owned(), "g".to_owned())
            ]
        );
    }

    #[test]
    fn a_broken_module_is_an_error() {
        assert!(rewrite(b"not wasm", EXPORTS, |e| e).is_err());
        assert!(rewrite(b"\0asm\x01\0\0\0\x07\x05\x01", EXPORTS, |e| e).is_err());
        assert!(rewrite(b"\0asm\x01\0\0\0\x07\x01\x01", EXPORTS, |e| e).is_err());
    }

    #[test]
    fn finds_the_lowest_data_address() {
        // A data section: an active segment at 1048576 (3 bytes), a passive one, an active
        // one of memory 0 at 2000.
        let mut wasm = b"\0asm\x01\0\0\0".to_vec();
        let body: &[u8] = &[
            3, 0, 0x41, 0x80, 0x80, 0xc0, 0x00, 0x0b, 3, b'a', b'b', b'c', 1, 1, b'p', 2, 0, 0x41,
            0xd0, 0x0f, 0x0b, 0,
        ];
        wasm.push(11);
        write_leb(&mut wasm, body.len());
        wasm.extend_from_slice(body);
        assert_eq!(lowest_data_address(&wasm).unwrap(), Some(2000));
        assert_eq!(
            lowest_data_address(&build::module(&[], &["memory"])).unwrap(),
            None
        );
        // Placed by a global, not a constant.
        let mut wasm = b"\0asm\x01\0\0\0".to_vec();
        wasm.extend_from_slice(&[11, 6, 1, 0, 0x23, 0, 0x0b, 0]);
        assert!(lowest_data_address(&wasm).is_err());
        assert_eq!(sleb32(&[0x7f], 0).unwrap(), (-1, 1));
    }

    #[test]
    fn reads_every_kind_of_import() {
        // A table (funcref, min 1), a memory (min 1, max 2), a global (i32, immutable).
        let body: &[u8] = &[
            3, 1, b'e', 1, b't', 1, 0x70, 0, 1, 1, b'e', 1, b'm', 2, 1, 1, 2, 1, b'e', 1, b'g', 3,
            0x7f, 0,
        ];
        let entries = read_entries(body, IMPORTS).unwrap();
        let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["t", "m", "g"]);
        assert_eq!(entries[1].rest, [2, 1, 1, 2]);
    }
}
