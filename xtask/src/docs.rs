//! `cargo xtask docs`: the decisions' index and the documentation's links.
//!
//! Each decision is a file of its own, `docs/decisions/NNNN-short-title.md`, whose first line
//! is `# D<n>. <title>` and which has a `Status:` line (`Accepted`, `Superseded by …`, with what
//! it amends or is amended by). The index, `docs/decisions/README.md`, is written from those
//! files: one row per decision in number order and the numbers that were never used. The
//! command rewrites it; the tests below fail when the index and the files disagree, when a
//! link between the Markdown files of the repository points at a file or heading that is not
//! there, when anything still names the single decisions file the folder replaced, and when
//! the element's reference page leaves out a name its manifest (`custom-elements.json`) lists.
//!
//! A branch started before the split may still append `## D<n>. <title>` sections to that single
//! file. When a merge brings it back, the command moves every section whose number has no file
//! yet into a file of its own (status `Accepted`) and removes the single file; sections whose
//! number already has a file are left to the files (a branch that edited one says so in its
//! diff, to be carried over by hand).

use std::{
    collections::BTreeMap,
    fs,
    path::{Path, PathBuf},
    process::ExitCode,
};

use crate::Ctx;

/// The folder of the decisions, from the workspace root.
const DECISIONS: &str = "docs/decisions";

/// The index's file name inside [`DECISIONS`].
const INDEX: &str = "README.md";

/// What the index says above its table.
const INDEX_HEAD: &str = "\
# Decisions

Choices where the protocol, the design notes and the issues were silent, one file each. A
decision keeps its number for good: tests and [the rules' table](../RULES.md) name them
(`d58_…`, D58). A later decision that changes an earlier one says so in its status line
(*amends*, *supersedes*), and the earlier one points forward (*amended by*, *superseded by*).
Measurements taken along the way are on [the benchmarks page](../benchmarks.md).

This index is written by `cargo xtask docs` from the files; `cargo test -p xtask` fails when
they disagree.
";

/// One decision file, as the index needs it.
#[derive(Debug, Clone, PartialEq)]
struct Decision {
    number: u32,
    title: String,
    status: String,
    file: String,
}

/// Reads one decision file: its number (from the name and the heading, which must agree), its
/// title and its status line.
fn read_decision(file: &str, text: &str) -> Result<Decision, String> {
    let from_name: u32 = file
        .split('-')
        .next()
        .filter(|n| n.len() == 4)
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("{file}: the name does not start with a four-digit number"))?;
    let heading = text.lines().next().unwrap_or_default();
    let rest = heading
        .strip_prefix("# D")
        .ok_or_else(|| format!("{file}: the first line is not `# D<n>. <title>`"))?;
    let (number, title) = rest
        .split_once(". ")
        .ok_or_else(|| format!("{file}: the first line is not `# D<n>. <title>`"))?;
    let number: u32 = number
        .parse()
        .map_err(|_| format!("{file}: `{number}` in the heading is not a number"))?;
    if number != from_name {
        return Err(format!(
            "{file}: the heading says D{number}, the name {from_name:04}"
        ));
    }
    let status = text
        .lines()
        .find_map(|line| line.strip_prefix("Status: "))
        .ok_or_else(|| format!("{file}: no `Status:` line"))?;
    Ok(Decision {
        number,
        title: title.trim().to_string(),
        status: status.trim().to_string(),
        file: file.to_string(),
    })
}

/// The index for these decisions: the head, a row per decision in number order, and the
/// numbers between 1 and the highest that no file has.
fn index_text(decisions: &[Decision]) -> Result<String, String> {
    let mut by_number = BTreeMap::new();
    for d in decisions {
        if let Some(other) = by_number.insert(d.number, d) {
            return Err(format!(
                "D{} is both {} and {}",
                d.number, other.file, d.file
            ));
        }
    }
    let highest = by_number.keys().next_back().copied().unwrap_or(0);
    let missing: Vec<String> = (1..=highest)
        .filter(|n| !by_number.contains_key(n))
        .map(|n| format!("D{n}"))
        .collect();
    let mut out = String::from(INDEX_HEAD);
    out.push('\n');
    if missing.is_empty() {
        out.push_str("Every number from D1 to the last is used.\n");
    } else {
        out.push_str(&format!(
            "Numbers with no decision (none was recorded under them): {}.\n",
            missing.join(", ")
        ));
    }
    out.push_str("\n| Number | Decision | Status |\n|---|---|---|\n");
    for d in by_number.values() {
        out.push_str(&format!(
            "| D{} | [{}]({}) | {} |\n",
            d.number,
            d.title.replace('|', "\\|"),
            d.file,
            d.status.replace('|', "\\|")
        ));
    }
    Ok(out)
}

/// Reads every decision file of `dir` (all Markdown files but the index).
fn read_decisions(dir: &Path) -> Result<Vec<Decision>, String> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).map_err(|e| format!("read {}: {e}", dir.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if name == INDEX || !name.ends_with(".md") {
            continue;
        }
        let text =
            fs::read_to_string(&path).map_err(|e| format!("read {}: {e}", path.display()))?;
        out.push(read_decision(name, &text)?);
    }
    Ok(out)
}

/// The single decisions file the folder replaced, from the workspace root. Spelled in two
/// pieces so that the check that nothing names it any more does not find this line.
fn single_file() -> String {
    ["docs/DECISIONS", ".md"].concat()
}

/// A file name for a new decision: its number in four digits and the first words of its title.
fn file_name(number: u32, title: &str) -> String {
    const SKIP: &[&str] = &[
        "a", "an", "the", "is", "are", "of", "in", "to", "and", "for", "by", "its", "it", "with",
        "on", "as", "from", "be",
    ];
    let words: Vec<String> = title
        .split(|c: char| !c.is_ascii_alphanumeric())
        .map(str::to_ascii_lowercase)
        .filter(|w| !w.is_empty() && !SKIP.contains(&w.as_str()))
        .take(5)
        .collect();
    format!("{number:04}-{}.md", words.join("-"))
}

/// Splits the sections of a single decisions file (`## D<n>. <title>` and the lines up to the
/// next one) into decision files, for the numbers that have none in `existing`. A title ending
/// in `(issue …)` gives a `Context:` line. Returns each new file's name and text.
fn split_single_file(text: &str, existing: &[u32]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut current: Option<(u32, String, Vec<&str>)> = None;
    let mut finish = |section: Option<(u32, String, Vec<&str>)>| {
        let Some((number, title, body)) = section else {
            return;
        };
        if existing.contains(&number) {
            return;
        }
        let (title, context) = match title.rfind(" (issue ") {
            Some(at) if title.ends_with(')') => (
                title[..at].to_string(),
                Some(title[at + 2..title.len() - 1].to_string()),
            ),
            _ => (title, None),
        };
        let mut file = format!("# D{number}. {title}\n\nStatus: Accepted\n");
        if let Some(context) = context {
            file.push_str(&format!("Context: {context}\n"));
        }
        file.push('\n');
        file.push_str(body.join("\n").trim());
        file.push('\n');
        out.push((file_name(number, &title), file));
    };
    for line in text.lines() {
        let heading = line
            .strip_prefix("## D")
            .and_then(|rest| rest.split_once(". "))
            .and_then(|(n, title)| Some((n.parse::<u32>().ok()?, title.trim().to_string())));
        match heading {
            Some((number, title)) => finish(current.replace((number, title, Vec::new()))),
            None => {
                if let Some((_, _, body)) = current.as_mut() {
                    body.push(line);
                }
            }
        }
    }
    finish(current);
    out
}

/// Moves the sections of a single decisions file that a merge brought back into files of their
/// own, then removes it. Returns the names of the files written.
fn absorb_single_file(root: &Path) -> Result<Vec<String>, String> {
    let single = root.join(single_file());
    let Ok(text) = fs::read_to_string(&single) else {
        return Ok(Vec::new());
    };
    let dir = root.join(DECISIONS);
    let existing: Vec<u32> = read_decisions(&dir)?.iter().map(|d| d.number).collect();
    let mut written = Vec::new();
    for (name, file) in split_single_file(&text, &existing) {
        fs::write(dir.join(&name), file).map_err(|e| format!("write {name}: {e}"))?;
        written.push(name);
    }
    fs::remove_file(&single).map_err(|e| format!("remove {}: {e}", single.display()))?;
    Ok(written)
}

/// The index as the files under `root` would have it.
fn expected_index(root: &Path) -> Result<String, String> {
    index_text(&read_decisions(&root.join(DECISIONS))?)
}

/// The Markdown files whose links are checked: the root's and everything under `docs/`.
fn markdown_files(root: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut out: Vec<PathBuf> = ["README.md", "ARCHITECTURE.md", "CHANGELOG.md"]
        .iter()
        .map(|f| root.join(f))
        .filter(|p| p.exists())
        .collect();
    walk(&root.join("docs"), &mut out);
    out.sort();
    out
}

/// The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens.
fn heading_anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Every anchor a Markdown text offers: its headings' (outside code blocks, a repeated heading
/// numbered as GitHub does) and `<a id="…">` tags.
fn anchors(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        if let Some(heading) = line.strip_prefix('#') {
            let heading = heading.trim_start_matches('#');
            if heading.starts_with(' ') {
                let base = heading_anchor(heading);
                let seen = counts.entry(base.clone()).or_insert(0);
                out.push(if *seen == 0 {
                    base
                } else {
                    format!("{base}-{seen}")
                });
                *seen += 1;
            }
        }
        let mut rest = line;
        while let Some(at) = rest.find("<a id=\"") {
            rest = &rest[at + 7..];
            if let Some(end) = rest.find('"') {
                out.push(rest[..end].to_string());
            }
        }
    }
    out
}

/// The link targets of a Markdown text (`](target)`), outside code blocks.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            if let Some(end) = rest.find(')') {
                let target = rest[..end].split_whitespace().next().unwrap_or_default();
                out.push(target.to_string());
                rest = &rest[end..];
            }
        }
    }
    out
}

/// Links between the repository's Markdown files that lead nowhere: a file that is not there,
/// or a `#anchor` that the Markdown file it names does not have. Web addresses are not checked.
fn broken_links(root: &Path) -> Vec<String> {
    let mut broken = Vec::new();
    for file in markdown_files(root) {
        let Ok(text) = fs::read_to_string(&file) else {
            continue;
        };
        let shown = file
            .strip_prefix(root)
            .unwrap_or(&file)
            .display()
            .to_string();
        for target in link_targets(&text) {
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let resolved = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap_or(root).join(path)
            };
            if !resolved.exists() {
                broken.push(format!("{shown}: {target} (no such file)"));
                continue;
            }
            if let Some(anchor) = anchor {
                if resolved.extension().is_some_and(|e| e == "md") {
                    let there = fs::read_to_string(&resolved).unwrap_or_default();
                    if !anchors(&there).iter().any(|a| a == anchor) {
                        broken.push(format!("{shown}: {target} (no such heading)"));
                    }
                }
            }
        }
    }
    broken
}

/// `cargo xtask docs`: moves decisions a merge brought back in the single file into files of
/// their own, rewrites the decisions' index from the files, then reports broken links.
pub fn main(ctx: &Ctx) -> ExitCode {
    match absorb_single_file(&ctx.root) {
        Ok(written) => {
            for name in written {
                println!("[docs] moved into {DECISIONS}/{name}: give it its status line");
            }
        }
        Err(msg) => {
            eprintln!("[docs] {msg}");
            return ExitCode::FAILURE;
        }
    }
    let index = match expected_index(&ctx.root) {
        Ok(index) => index,
        Err(msg) => {
            eprintln!("[docs] {msg}");
            return ExitCode::FAILURE;
        }
    };
    let path = ctx.root.join(DECISIONS).join(INDEX);
    if let Err(e) = fs::write(&path, index) {
        eprintln!("[docs] write {}: {e}", path.display());
        return ExitCode::FAILURE;
    }
    println!("[docs] wrote {}", path.display());
    let broken = broken_links(&ctx.root);
    for link in &broken {
        eprintln!("[docs] broken link: {link}");
    }
    if broken.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use std::env;

    use super::*;

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("xtask is inside the workspace")
            .to_path_buf()
    }

    fn decision(number: u32, status: &str) -> Decision {
        Decision {
            number,
            title: format!("Title {number}"),
            status: status.to_string(),
            file: format!("{number:04}-title.md"),
        }
    }

    #[test]
    fn the_decisions_index_matches_the_files() {
        let expected = expected_index(&root()).expect("every decision file reads");
        let on_disk = fs::read_to_string(root().join(DECISIONS).join(INDEX)).unwrap_or_default();
        assert!(
            on_disk == expected,
            "docs/decisions/README.md disagrees with the decision files: run `cargo xtask docs`"
        );
    }

    #[test]
    fn the_index_lists_decisions_in_number_order_and_names_the_gaps() {
        let index = index_text(&[decision(3, "Accepted"), decision(1, "Superseded by D3")])
            .expect("two distinct numbers");
        let first = index.find("| D1 |").expect("D1 listed");
        let third = index.find("| D3 |").expect("D3 listed");
        assert!(first < third, "D1 comes before D3:\n{index}");
        assert!(index.contains("Numbers with no decision (none was recorded under them): D2."));
        assert!(index.contains("| D1 | [Title 1](0001-title.md) | Superseded by D3 |"));
    }

    #[test]
    fn a_decision_file_that_disagrees_with_its_name_or_has_no_status_is_refused() {
        assert!(read_decision("0007-x.md", "# D7. Seven\n\nStatus: Accepted\n").is_ok());
        let wrong_number = read_decision("0007-x.md", "# D8. Eight\n\nStatus: Accepted\n");
        assert!(wrong_number.unwrap_err().contains("heading says D8"));
        let no_status = read_decision("0007-x.md", "# D7. Seven\n\nText.\n");
        assert!(no_status.unwrap_err().contains("no `Status:` line"));
        let twice = index_text(&[decision(2, "Accepted"), decision(2, "Accepted")]);
        assert!(twice.unwrap_err().contains("D2 is both"));
    }

    #[test]
    fn sections_a_merge_brings_back_become_files_of_their_own() {
        let text = "# Decisions\n\nIntro.\n\n## D1. Old one\nKept in its file.\n\n\
                    ## D90. The new thing, done well (issue 41)\n- **Why.** Because.\n\n\
                    ## D91. Another\nText.\n";
        let files = split_single_file(text, &[1]);
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["0090-new-thing-done-well.md", "0091-another.md"]);
        assert_eq!(
            files[0].1,
            "# D90. The new thing, done well\n\nStatus: Accepted\nContext: issue 41\n\n\
             - **Why.** Because.\n"
        );
        assert_eq!(
            read_decision(&files[1].0, &files[1].1).map(|d| d.number),
            Ok(91)
        );
    }

    #[test]
    fn the_element_reference_names_everything_the_manifest_lists() {
        let manifest = fs::read_to_string(root().join("packages/agent-chat/custom-elements.json"))
            .expect("the element's manifest");
        let page = fs::read_to_string(root().join("docs/guide/element.md"))
            .expect("the element's reference page");
        let missing: Vec<&str> = manifest
            .split("\"name\": \"")
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .filter(|name| !page.contains(name))
            .collect();
        assert!(
            missing.is_empty(),
            "docs/guide/element.md does not name: {}",
            missing.join(", ")
        );
    }

    #[test]
    fn links_between_the_markdown_files_resolve() {
        let broken = broken_links(&root());
        assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    }

    #[test]
    fn a_missing_file_or_heading_is_a_broken_link() {
        let dir = env::temp_dir().join(format!("xtask-docs-{}", std::process::id()));
        fs::create_dir_all(dir.join("docs")).expect("temp dir");
        fs::write(
            dir.join("README.md"),
            "# Top\n\n## Two words\n\n## Two words\n\n[ok](#two-words) [again](#two-words-1) \
             [gone](docs/none.md) [bad](#nope) [third](#two-words-2) \
             [guide](docs/guide.md#the-end) [web](https://example.com/x)\n",
        )
        .expect("write");
        fs::write(dir.join("docs/guide.md"), "# Guide\n\n## The end\n").expect("write");
        let broken = broken_links(&dir);
        fs::remove_dir_all(&dir).ok();
        assert_eq!(
            broken,
            vec![
                "README.md: docs/none.md (no such file)".to_string(),
                "README.md: #nope (no such heading)".to_string(),
                "README.md: #two-words-2 (no such heading)".to_string(),
            ]
        );
    }

    #[test]
    fn nothing_names_the_single_decisions_file_any_more() {
        let old = ["DECISIONS", ".md"].concat();
        let mut found = Vec::new();
        fn walk(dir: &Path, old: &str, found: &mut Vec<String>) {
            let Ok(entries) = fs::read_dir(dir) else {
                return;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                let name = entry.file_name();
                let name = name.to_string_lossy();
                if path.is_dir() {
                    if !matches!(
                        name.as_ref(),
                        "target" | "node_modules" | ".git" | "dist" | "fixtures" | "corpus"
                    ) {
                        walk(&path, old, found);
                    }
                } else if [".rs", ".md", ".toml", ".json", ".html", ".js"]
                    .iter()
                    .any(|ext| name.ends_with(ext))
                {
                    if let Ok(text) = fs::read_to_string(&path) {
                        if text.contains(old) {
                            found.push(path.display().to_string());
                        }
                    }
                }
            }
        }
        walk(&root(), &old, &mut found);
        assert!(found.is_empty(), "still named in: {}", found.join(", "));
    }
}
