//! The built files as the dev-server serves them: the `.br` / `.gz` copies chosen by
//! `Accept-Encoding`, `Vary`, caching by name, and the test switch that holds the main wasm back.

use std::path::PathBuf;
use std::time::Duration;

use dev_server::Config;

const SCRIPT: &str = "console.log('the script itself');\n";

/// A dist with a page, an element script with both copies, a hashed wasm with only gzip.
fn dist(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dev-server-static-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("element")).unwrap();
    std::fs::write(dir.join("index.html"), "<!doctype html><p>page</p>").unwrap();
    std::fs::write(dir.join("element/agent-chat.js"), SCRIPT).unwrap();
    std::fs::write(dir.join("element/agent-chat.js.br"), b"BROTLI BYTES").unwrap();
    std::fs::write(dir.join("element/agent-chat.js.gz"), b"GZIP BYTES").unwrap();
    std::fs::write(dir.join("element/agent-chat_bg.wasm"), b"\0asm main").unwrap();
    std::fs::write(
        dir.join("agent-chat-page-3f9a8c1b2d4e5f60_bg.wasm"),
        b"\0asm page",
    )
    .unwrap();
    std::fs::write(
        dir.join("agent-chat-page-3f9a8c1b2d4e5f60_bg.wasm.gz"),
        b"GZIP WASM",
    )
    .unwrap();
    dir
}

async fn start(dist: PathBuf) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let config = Config {
        port: 0,
        dist: Some(dist),
        dev_controls: true,
        ..Config::default()
    };
    tokio::spawn(dev_server::serve(listener, config));
    format!("http://{addr}")
}

async fn get(root: &str, path: &str, accept: Option<&str>) -> reqwest::Response {
    let mut req = reqwest::Client::new().get(format!("{root}{path}"));
    if let Some(a) = accept {
        req = req.header("accept-encoding", a);
    }
    req.send().await.unwrap()
}

fn header<'a>(res: &'a reqwest::Response, name: &str) -> &'a str {
    res.headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

#[tokio::test]
async fn compressed_copies_are_chosen_by_accept_encoding_issue_37() {
    let root = start(dist("encoding")).await;
    let cases = [
        (Some("gzip, deflate, br, zstd"), "br", "BROTLI BYTES"),
        (Some("gzip"), "gzip", "GZIP BYTES"),
        (Some("br;q=0.5, gzip"), "gzip", "GZIP BYTES"),
        (Some("identity"), "", SCRIPT),
        (None, "", SCRIPT),
    ];
    for (accept, encoding, body) in cases {
        let res = get(&root, "/element/agent-chat.js", accept).await;
        assert_eq!(res.status(), 200, "{accept:?}");
        assert_eq!(header(&res, "content-encoding"), encoding, "{accept:?}");
        assert!(
            header(&res, "content-type").starts_with("text/javascript"),
            "the type is the file's, not the copy's: {accept:?}"
        );
        assert!(
            header(&res, "vary").eq_ignore_ascii_case("accept-encoding"),
            "{accept:?}"
        );
        assert_eq!(res.text().await.unwrap(), body, "{accept:?}");
    }
    // A file with no Brotli copy falls back to gzip; the wasm keeps its type.
    let res = get(
        &root,
        "/agent-chat-page-3f9a8c1b2d4e5f60_bg.wasm",
        Some("br, gzip"),
    )
    .await;
    assert_eq!(header(&res, "content-encoding"), "gzip");
    assert_eq!(header(&res, "content-type"), "application/wasm");
    // A file with no copy at all is served as it is.
    let res = get(&root, "/element/agent-chat_bg.wasm", Some("br, gzip")).await;
    assert_eq!(header(&res, "content-encoding"), "");
    assert_eq!(res.bytes().await.unwrap().as_ref(), b"\0asm main");
}

#[tokio::test]
async fn hashed_names_are_immutable_and_the_rest_revalidated_issue_37() {
    let root = start(dist("caching")).await;
    let res = get(
        &root,
        "/agent-chat-page-3f9a8c1b2d4e5f60_bg.wasm",
        Some("gzip"),
    )
    .await;
    assert_eq!(
        header(&res, "cache-control"),
        "public, max-age=31536000, immutable"
    );
    for path in [
        "/",
        "/index.html",
        "/element/agent-chat.js",
        "/element/agent-chat_bg.wasm",
    ] {
        let res = get(&root, path, Some("br")).await;
        assert_eq!(res.status(), 200, "{path}");
        assert_eq!(header(&res, "cache-control"), "no-cache", "{path}");
    }
    // A missing file is not given caching headers.
    let res = get(&root, "/nope-3f9a8c1b2d4e5f60.js", None).await;
    assert_eq!(res.status(), 404);
    assert_eq!(header(&res, "cache-control"), "");
}

#[tokio::test]
async fn the_main_wasm_waits_while_held_and_fails_when_told_issue_37() {
    let root = start(dist("hold")).await;
    let http = reqwest::Client::new();
    let control = |state: &'static str| {
        let http = http.clone();
        let url = format!("{root}/api/agents/_dev/wasm");
        async move {
            let res = http
                .post(url)
                .json(&serde_json::json!({ "state": state }))
                .send()
                .await
                .unwrap();
            assert_eq!(res.status(), 200, "{state}");
        }
    };
    control("held").await;
    let waiting = tokio::spawn({
        let root = root.clone();
        async move {
            get(&root, "/element/agent-chat_bg.wasm", None)
                .await
                .status()
        }
    });
    // The script is not held, only the wasm.
    assert_eq!(
        get(&root, "/element/agent-chat.js", None).await.status(),
        200
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!waiting.is_finished(), "the held wasm must wait");
    control("released").await;
    assert_eq!(waiting.await.unwrap(), 200);

    control("failed").await;
    let res = get(&root, "/agent-chat-page-3f9a8c1b2d4e5f60_bg.wasm", None).await;
    assert_eq!(res.status(), 503);
    control("released").await;
    let res = http
        .post(format!("{root}/api/agents/_dev/wasm"))
        .json(&serde_json::json!({ "state": "open" }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
}
