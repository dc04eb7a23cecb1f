//! The npm package of `<agent-chat>` (issue 17), `packages/agent-chat/`.
//!
//! The element build copies its files (module, wasm, snippets) beside the package's own
//! (`package.json`, `agent-chat.d.ts`, `custom-elements.json`, README). [`check`] then does
//! what a web developer would: `npm pack`, install the tarball into a scratch project
//! (`dist/npm-check/`), type-check a consumer written in TypeScript against the declarations
//! with the pinned `tsc`, and write a page that imports the package by its name, resolved
//! through the package's `exports` (an import map, as a bundler resolves it). The reference
//! server serves that page at `/npm-check/` for the `npm_package_in_a_page` journey.

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use crate::{run, Ctx};

/// The package's folder.
pub fn package_dir(ctx: &Ctx) -> PathBuf {
    ctx.root.join("packages/agent-chat")
}

/// The files of the element build the package ships besides its lazy chunks (the rest of the
/// package is checked in).
const BUILT: &[&str] = &[
    "agent-chat.js",
    "agent-chat_bg.wasm",
    crate::split::LOADER,
    "snippets",
];

/// Copies the element build (`dist/element`) into the package: the files above and every lazy
/// chunk (D67), after removing the chunks of an earlier build.
pub fn copy_build(ctx: &Ctx, element: &Path) -> Result<(), String> {
    let package = package_dir(ctx);
    let listed = |dir: &Path| -> Result<Vec<String>, String> {
        Ok(fs::read_dir(dir)
            .map_err(|e| format!("read {}: {e}", dir.display()))?
            .flatten()
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|name| crate::split::is_chunk(name))
            .collect())
    };
    for old in listed(&package)? {
        fs::remove_file(package.join(&old)).map_err(|e| format!("remove {old}: {e}"))?;
    }
    let chunks = listed(element)?;
    for name in BUILT
        .iter()
        .copied()
        .chain(chunks.iter().map(String::as_str))
    {
        let to = package.join(name);
        if to.is_dir() {
            fs::remove_dir_all(&to).map_err(|e| format!("remove {}: {e}", to.display()))?;
        }
        copy(&element.join(name), &to)?;
    }
    Ok(())
}

fn copy(from: &Path, to: &Path) -> Result<(), String> {
    if from.is_dir() {
        fs::create_dir_all(to).map_err(|e| format!("create {}: {e}", to.display()))?;
        let entries = fs::read_dir(from).map_err(|e| format!("read {}: {e}", from.display()))?;
        for entry in entries.flatten() {
            copy(&entry.path(), &to.join(entry.file_name()))?;
        }
        Ok(())
    } else {
        fs::copy(from, to)
            .map(|_| ())
            .map_err(|e| format!("copy {} to {}: {e}", from.display(), to.display()))
    }
}

/// A consumer of the package: it must type-check, and each `@ts-expect-error` line must be an
/// error (so the declarations are not `any`).
const CONSUMER_TS: &str = r##"import "agent-chat-ui";
import type { AgentChatElement, PendingAction, AgentChatErrorDetail } from "agent-chat-ui";

const chat: AgentChatElement = document.createElement("agent-chat");
chat.setAttribute("agent-id", "echo");
chat.authorization = "Bearer abc";
chat.headers = { "X-Tenant": "acme" };
chat.themeColors = { accentPrimary: "#6d28d9" };
chat.styles = "[part=send-button] { border-radius: 0 }";
chat.clientTools = {
  get_selection: (_args, request) => ({ text: String(window.getSelection()), id: request.actionId }),
};
chat.addEventListener("agent-chat:action-required", (e) => {
  const action: PendingAction = e.detail;
  console.log(action.id.toUpperCase(), action.type);
});
chat.addEventListener("agent-chat:error", (e) => {
  const detail: AgentChatErrorDetail = e.detail;
  console.log(detail.message.length);
});
document.addEventListener("agent-chat:attention", (e) => console.log(e.detail.pending + 1));
const answered: boolean = chat.resolveClientTool("act_1", { ok: true });
const found = document.querySelector("agent-chat");
found?.resolveClientTool("act_2", undefined, "no selection");
console.log(answered);

// @ts-expect-error a token is a string
chat.authorization = 42;
// @ts-expect-error headers are name -> value strings
chat.headers = { "X-Retry": 3 };
// @ts-expect-error the detail of conversation-change is a string or null
document.addEventListener("agent-chat:conversation-change", (e) => e.detail.toFixed());
// @ts-expect-error resolveClientTool needs the action id
chat.resolveClientTool();
"##;

const TSCONFIG: &str = r#"{
  "compilerOptions": {
    "target": "ES2022",
    "module": "ESNext",
    "moduleResolution": "Bundler",
    "lib": ["ES2022", "DOM", "DOM.Iterable"],
    "strict": true,
    "noEmit": true,
    "skipLibCheck": false,
    "types": []
  },
  "files": ["consumer.ts"]
}
"#;

/// Packs the package, installs it into `dist/npm-check`, type-checks the consumer and writes
/// the page. Returns the scratch folder.
pub fn check(ctx: &Ctx) -> Result<PathBuf, String> {
    let package = package_dir(ctx);
    for name in BUILT {
        if !package.join(name).exists() {
            return Err(format!(
                "{} is missing: build the element first (cargo xtask element)",
                package.join(name).display()
            ));
        }
    }
    let packs = ctx.root.join("target/npm");
    let _ = fs::remove_dir_all(&packs);
    fs::create_dir_all(&packs).map_err(|e| format!("create {}: {e}", packs.display()))?;
    let mut pack = ctx.command("npm");
    pack.current_dir(&package)
        .args(["pack", "--silent", "--pack-destination"])
        .arg(&packs);
    let tarball = output(pack)?
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.ends_with(".tgz"))
        .map(|l| packs.join(l))
        .ok_or("npm pack printed no tarball name")?;
    println!("[npm] packed {}", tarball.display());

    let scratch = ctx.dist().join("npm-check");
    let _ = fs::remove_dir_all(&scratch);
    fs::create_dir_all(&scratch).map_err(|e| format!("create {}: {e}", scratch.display()))?;
    write(
        &scratch.join("package.json"),
        r#"{ "name": "npm-check", "private": true, "type": "module" }"#,
    )?;
    // The tarball has no dependencies: nothing is fetched.
    let mut install = ctx.command("npm");
    install
        .current_dir(&scratch)
        .args([
            "install",
            "--offline",
            "--no-audit",
            "--no-fund",
            "--no-package-lock",
        ])
        .arg(&tarball);
    step(install)?;

    write(&scratch.join("consumer.ts"), CONSUMER_TS)?;
    write(&scratch.join("tsconfig.json"), TSCONFIG)?;
    let mut tsc = ctx.command(ctx.root.join("node_modules/.bin/tsc"));
    tsc.arg("-p").arg(scratch.join("tsconfig.json"));
    step(tsc)?;
    println!("[npm] the consumer type-checks against agent-chat.d.ts");

    let installed = scratch.join("node_modules/agent-chat-ui");
    let manifest = fs::read_to_string(installed.join("package.json"))
        .map_err(|e| format!("read the installed package.json: {e}"))?;
    let entry = export_of(&manifest).ok_or("the installed package.json has no exports[\".\"]")?;
    write(&scratch.join("index.html"), &page(&entry))?;
    Ok(scratch)
}

/// `exports["."].default` of a package.json, read without a JSON crate (xtask is plain std):
/// the first `"default": "…"` after `"."`.
fn export_of(manifest: &str) -> Option<String> {
    let dot = manifest.find("\".\"")?;
    let rest = &manifest[dot..];
    let key = rest.find("\"default\"")?;
    let value = rest[key + "\"default\"".len()..]
        .trim_start()
        .strip_prefix(':')?;
    let value = value.trim_start().strip_prefix('"')?;
    Some(value[..value.find('"')?].to_owned())
}

/// A page importing `agent-chat-ui` by name; the import map stands in for a bundler's
/// resolution of the package's `exports`.
fn page(entry: &str) -> String {
    let entry = entry.trim_start_matches("./");
    format!(
        r#"<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>agent-chat-ui from npm</title>
    <script type="importmap">{{ "imports": {{ "agent-chat-ui": "./node_modules/agent-chat-ui/{entry}" }} }}</script>
    <style>body {{ margin: 0; font-family: system-ui, sans-serif; }} agent-chat {{ display: block; height: 600px; }}</style>
  </head>
  <body>
    <agent-chat id="npm" agent-id="echo" show-history="false"></agent-chat>
    <script type="module">
      import {{ define_agent_chat }} from "agent-chat-ui";
      define_agent_chat();
      document.getElementById("npm").styles = "[part=send-button] {{ outline: 3px solid rgb(255, 0, 255); }}";
      window.agentChatImported = true;
    </script>
  </body>
</html>
"#
    )
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    fs::write(path, text).map_err(|e| format!("write {}: {e}", path.display()))
}

fn step(mut cmd: Command) -> Result<(), String> {
    println!("[npm] $ {}", run::display(&cmd));
    match run::status(&mut cmd) {
        Ok(st) if st.success() => Ok(()),
        Ok(st) => Err(format!("`{}` failed: {st}", run::display(&cmd))),
        Err(msg) => Err(msg),
    }
}

fn output(mut cmd: Command) -> Result<String, String> {
    println!("[npm] $ {}", run::display(&cmd));
    let out = cmd
        .output()
        .map_err(|e| format!("could not run `{}`: {e}", run::display(&cmd)))?;
    if !out.status.success() {
        return Err(format!(
            "`{}` failed: {}\n{}",
            run::display(&cmd),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_the_main_export() {
        let manifest = r#"{ "exports": { ".": { "types": "./a.d.ts", "default": "./a.js" } } }"#;
        assert_eq!(super::export_of(manifest).as_deref(), Some("./a.js"));
        assert_eq!(super::export_of("{}"), None);
    }
}
