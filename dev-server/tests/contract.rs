//! Contract tests: every endpoint (E1–E14 + dev seed), every stream event type and every error
//! code of PROTOCOL §2 / §9.10 with its status, against a real server listening on 127.0.0.1:0.

use std::time::Duration;

use dev_server::Config;
use reqwest::header::HeaderMap;
use serde_json::{json, Value};

/// Starts a server in-process with fast test settings; returns the API base URL.
async fn start_with(config: Config) -> Api {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind test listener");
    let addr = listener.local_addr().expect("local addr");
    tokio::spawn(dev_server::serve(listener, config));
    Api {
        root: format!("http://{addr}"),
        base: format!("http://{addr}/api/agents"),
        http: reqwest::Client::new(),
    }
}

fn test_config() -> Config {
    Config {
        port: 0,
        hasty_expiry_secs: 1,
        chunk_delay_ms: 0,
        long_chunk_delay_ms: 0,
        slow_ms: 600,
        dev_controls: true,
        ..Config::default()
    }
}

async fn start() -> Api {
    start_with(test_config()).await
}

/// A response: status, headers, raw body text and the body parsed as JSON (Null when not JSON).
struct Res {
    status: u16,
    headers: HeaderMap,
    text: String,
    json: Value,
}

impl Res {
    fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }

    /// Asserts the exact error envelope `{ error: { code, message } }` and the status.
    fn assert_error(&self, status: u16, code: &str) {
        assert_eq!(self.status, status, "status of {}", self.text);
        assert_eq!(
            self.json["error"]["code"],
            json!(code),
            "code of {}",
            self.text
        );
        assert!(
            self.json["error"]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty()),
            "message of {}",
            self.text
        );
        let keys: Vec<&String> = self.json.as_object().expect("object").keys().collect();
        assert_eq!(keys, vec!["error"]);
        assert!(self.header("content-type").starts_with("application/json"));
    }

    /// Parses the body as SSE, checking the framing of PROTOCOL §6.
    fn events(&self) -> Vec<Value> {
        assert_eq!(self.status, 200, "{}", self.text);
        assert!(self.header("content-type").starts_with("text/event-stream"));
        assert_eq!(self.header("cache-control"), "no-cache");
        parse_sse(&self.text)
    }
}

/// Parses an SSE body strictly: events are `data: <json>` + blank line, nothing else.
fn parse_sse(body: &str) -> Vec<Value> {
    assert!(
        body.is_empty() || body.ends_with("\n\n"),
        "body must end with a blank line"
    );
    let mut out = Vec::new();
    for block in body.split("\n\n").filter(|b| !b.is_empty()) {
        let lines: Vec<&str> = block.split('\n').collect();
        assert_eq!(lines.len(), 1, "one line per event: {block:?}");
        let payload = lines[0]
            .strip_prefix("data: ")
            .unwrap_or_else(|| panic!("not a data line: {block:?}"));
        let v: Value = serde_json::from_str(payload).expect("event JSON");
        assert!(!payload.contains("\n"));
        assert!(v["type"].is_string(), "type in {payload}");
        assert!(v["timestamp"].is_i64(), "numeric timestamp in {payload}");
        out.push(v);
    }
    out
}

fn types(events: &[Value]) -> Vec<&str> {
    events
        .iter()
        .map(|e| e["type"].as_str().unwrap_or(""))
        .collect()
}

fn find<'a>(events: &'a [Value], kind: &str) -> &'a Value {
    events
        .iter()
        .find(|e| e["type"] == json!(kind))
        .unwrap_or_else(|| panic!("no {kind} in {:?}", types(events)))
}

fn last(events: &[Value]) -> &Value {
    events.last().expect("at least one event")
}

struct Api {
    root: String,
    base: String,
    http: reqwest::Client,
}

impl Api {
    async fn send(&self, req: reqwest::RequestBuilder) -> Res {
        let res = req.send().await.expect("request");
        let status = res.status().as_u16();
        let headers = res.headers().clone();
        let text = res.text().await.expect("body");
        let json = serde_json::from_str(&text).unwrap_or(Value::Null);
        Res {
            status,
            headers,
            text,
            json,
        }
    }

    fn req(
        &self,
        method: reqwest::Method,
        path: &str,
        user: Option<&str>,
    ) -> reqwest::RequestBuilder {
        let mut r = self
            .http
            .request(method, format!("{}{path}", self.base))
            .header("content-type", "application/json");
        if let Some(u) = user {
            r = r.header("x-user-id", u);
        }
        r
    }

    async fn get(&self, path: &str) -> Res {
        self.send(self.req(reqwest::Method::GET, path, None)).await
    }

    async fn get_as(&self, path: &str, user: &str) -> Res {
        self.send(self.req(reqwest::Method::GET, path, Some(user)))
            .await
    }

    async fn post(&self, path: &str, body: Value) -> Res {
        self.send(
            self.req(reqwest::Method::POST, path, None)
                .body(body.to_string()),
        )
        .await
    }

    async fn post_as(&self, path: &str, body: Value, user: &str) -> Res {
        self.send(
            self.req(reqwest::Method::POST, path, Some(user))
                .body(body.to_string()),
        )
        .await
    }

    async fn patch(&self, path: &str, body: Value) -> Res {
        self.send(
            self.req(reqwest::Method::PATCH, path, None)
                .body(body.to_string()),
        )
        .await
    }

    async fn delete(&self, path: &str) -> Res {
        self.send(self.req(reqwest::Method::DELETE, path, None))
            .await
    }

    async fn create(&self, agent: &str) -> String {
        let r = self
            .post("/conversations", json!({ "agentId": agent }))
            .await;
        assert_eq!(r.status, 201, "{}", r.text);
        r.json["conversation"]["id"]
            .as_str()
            .expect("id")
            .to_string()
    }

    async fn create_for(&self, agent: &str, user: &str) -> String {
        let r = self
            .post(
                "/conversations",
                json!({ "agentId": agent, "userId": user }),
            )
            .await;
        assert_eq!(r.status, 201);
        r.json["conversation"]["id"]
            .as_str()
            .expect("id")
            .to_string()
    }

    async fn say(&self, cid: &str, text: &str) -> Res {
        self.post(
            &format!("/conversations/{cid}/messages"),
            json!({ "message": text }),
        )
        .await
    }

    async fn say_stream(&self, cid: &str, text: &str) -> Vec<Value> {
        self.post(
            &format!("/conversations/{cid}/messages"),
            json!({ "message": text, "stream": true }),
        )
        .await
        .events()
    }

    async fn answer(&self, cid: &str, aid: &str, body: Value) -> Res {
        self.post(&format!("/conversations/{cid}/actions/{aid}"), body)
            .await
    }

    async fn conversation(&self, cid: &str) -> Value {
        let r = self.get(&format!("/conversations/{cid}")).await;
        assert_eq!(r.status, 200, "{}", r.text);
        r.json
    }

    /// Sends a message to a pausing agent and returns the open action.
    async fn pause(&self, cid: &str, text: &str) -> Value {
        let r = self.say(cid, text).await;
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(r.json["status"], "requires_action");
        r.json["pendingActions"][0].clone()
    }
}

fn is_id(v: &Value, prefix: &str) -> bool {
    v.as_str().is_some_and(|s| {
        s.len() == prefix.len() + 1 + 21
            && s.starts_with(&format!("{prefix}_"))
            && s[prefix.len() + 1..]
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    })
}

fn b64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, b)| acc | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(A[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

// ---------------------------------------------------------------- agents, routing, CORS

#[tokio::test]
async fn e1_e2_agents() {
    let api = start().await;
    let r = api.get("/agents").await;
    assert_eq!(r.status, 200);
    let agents = r.json["agents"].as_array().expect("agents");
    let ids: Vec<&str> = agents.iter().filter_map(|a| a["id"].as_str()).collect();
    assert_eq!(
        ids,
        [
            "echo", "support", "ops", "survey", "feedback", "hasty", "long", "host", "deploy",
            "files", "research"
        ]
    );
    for a in agents {
        assert!(a["name"].is_string() && a["description"].is_string());
    }
    assert_eq!(agents[0]["metadata"]["enableFileUpload"], true);
    assert_eq!(agents[1]["metadata"]["enableFileUpload"], true);
    let ops = api.get("/agents/ops").await;
    assert_eq!(ops.status, 200);
    assert_eq!(ops.json["metadata"]["pendingActionComposerMode"], "cancel");
    assert_eq!(ops.json["capabilities"]["approvalArgsEdit"], true);
    api.get("/agents/nobody")
        .await
        .assert_error(404, "NOT_FOUND");
}

#[tokio::test]
async fn unknown_routes_are_404_with_envelope() {
    let api = start().await;
    let r = api.get("/x").await;
    r.assert_error(404, "NOT_FOUND");
    assert_eq!(r.json["error"]["message"], "Route not found: GET /x");
    let r = api
        .send(api.req(reqwest::Method::PUT, "/conversations", None))
        .await;
    r.assert_error(404, "NOT_FOUND");
    assert_eq!(
        r.json["error"]["message"],
        "Route not found: PUT /conversations"
    );
    let r = api
        .send(api.http.get(format!("{}/elsewhere", api.root)))
        .await;
    r.assert_error(404, "NOT_FOUND");
}

#[tokio::test]
async fn cors_preflight_allows_the_client() {
    let api = start().await;
    let r = api
        .send(
            api.http
                .request(
                    reqwest::Method::OPTIONS,
                    format!("{}/conversations", api.base),
                )
                .header("origin", "http://page.example")
                .header("access-control-request-method", "PATCH")
                .header(
                    "access-control-request-headers",
                    "content-type,authorization",
                ),
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("access-control-allow-origin"), "*");
    let methods = r
        .header("access-control-allow-methods")
        .to_ascii_uppercase();
    for m in ["GET", "POST", "PATCH", "DELETE", "OPTIONS"] {
        assert!(methods.contains(m), "{methods}");
    }
    let headers = r
        .header("access-control-allow-headers")
        .to_ascii_lowercase();
    assert!(headers.contains("content-type") && headers.contains("authorization"));
    let r = api
        .send(
            api.http
                .get(format!("{}/agents", api.base))
                .header("origin", "http://page.example"),
        )
        .await;
    assert_eq!(r.header("access-control-allow-origin"), "*");
}

#[tokio::test]
async fn invalid_json_is_a_validation_error() {
    let api = start().await;
    let r = api
        .send(
            api.req(reqwest::Method::POST, "/conversations", None)
                .body("{nope"),
        )
        .await;
    r.assert_error(400, "VALIDATION_ERROR");
}

#[tokio::test]
async fn optional_auth_mode() {
    let api = start_with(Config {
        require_auth: true,
        ..test_config()
    })
    .await;
    api.get("/agents")
        .await
        .assert_error(401, "AUTHENTICATION_ERROR");
    let r = api
        .send(
            api.req(reqwest::Method::GET, "/agents", None)
                .header("authorization", "Bearer invalid"),
        )
        .await;
    r.assert_error(401, "AUTHENTICATION_ERROR");
    assert_eq!(r.json["error"]["message"], "Invalid token");
    let r = api
        .send(
            api.req(reqwest::Method::GET, "/agents", None)
                .header("authorization", "Bearer u1"),
        )
        .await;
    assert_eq!(r.status, 200);
}

/// Issue 17: the test controls exist only with `--dev-controls`; without it every `/_dev/`
/// path is an unknown route (404), so a server others reach cannot be driven by them.
#[tokio::test]
async fn i17_dev_controls_only_with_the_flag() {
    let api = start_with(Config {
        dev_controls: false,
        ..test_config()
    })
    .await;
    assert_eq!(api.get("/agents").await.status, 200);
    let conv = api
        .post("/conversations", json!({ "agentId": "support" }))
        .await;
    assert_eq!(conv.status, 201, "{:?}", conv.json);
    let id = conv.json["conversation"]["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    for (path, body) in [
        ("/_dev/seed", json!({ "agentId": "echo", "messages": 3 })),
        ("/_dev/expire", json!({ "actionId": "act_1" })),
        ("/_dev/reissue", json!({ "actionId": "act_1" })),
        (
            "/_dev/next-answer",
            json!({ "conversationId": id, "refuse": "action_forbidden" }),
        ),
    ] {
        assert_eq!(api.post(path, body).await.status, 404, "{path}");
    }
    assert_eq!(api.get("/_dev/resolutions").await.status, 404);
    assert_eq!(api.get("/_dev/executions?actionId=act_1").await.status, 404);
    let on = start().await;
    let seeded = on
        .post("/_dev/seed", json!({ "agentId": "echo", "messages": 3 }))
        .await;
    assert_eq!(seeded.status, 201, "with the flag: {:?}", seeded.json);
}

#[tokio::test]
async fn serves_the_built_page() {
    let dir = std::env::temp_dir().join(format!("dev-server-dist-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dist dir");
    std::fs::write(dir.join("index.html"), "<html>chat page</html>").expect("index");
    let api = start_with(Config {
        dist: Some(dir.clone()),
        ..test_config()
    })
    .await;
    let r = api.send(api.http.get(format!("{}/", api.root))).await;
    assert_eq!(r.status, 200);
    assert!(r.text.contains("chat page"));
    assert!(r.header("content-type").starts_with("text/html"));
    let r = api.get("/agents").await;
    assert_eq!(r.status, 200);
    let r = api.get("/nothing").await;
    r.assert_error(404, "NOT_FOUND");
    let _ = std::fs::remove_dir_all(dir);
}

// ---------------------------------------------------------------- conversations E3–E8

#[tokio::test]
async fn e3_to_e8_conversation_crud() {
    let api = start().await;
    // E4
    let r = api
        .post(
            "/conversations",
            json!({ "agentId": "echo", "title": "First", "metadata": { "k": 1 } }),
        )
        .await;
    assert_eq!(r.status, 201);
    let first = &r.json["conversation"];
    assert!(is_id(&first["id"], "conv"), "{first}");
    assert_eq!(first["agentId"], "echo");
    assert_eq!(first["title"], "First");
    assert_eq!(first["metadata"]["k"], 1);
    assert!(first["state"].is_object());
    assert!(first["createdAt"]
        .as_str()
        .is_some_and(|s| s.ends_with('Z')));
    assert!(first["updatedAt"].is_string());
    let first_id = first["id"].as_str().expect("id").to_string();
    let second_id = api.create("support").await;
    let r = api.post("/conversations", json!({})).await;
    r.assert_error(400, "VALIDATION_ERROR");
    assert_eq!(r.json["error"]["message"], "agentId is required");
    api.post("/conversations", json!({ "agentId": "ghost" }))
        .await
        .assert_error(404, "NOT_FOUND");

    // E3: newest-created first, agentName, paging and query parsing
    let r = api.get("/conversations").await;
    assert_eq!(r.status, 200);
    let list = &r.json;
    assert_eq!(list["total"], 2);
    assert_eq!(list["limit"], 20);
    assert_eq!(list["offset"], 0);
    assert_eq!(list["hasMore"], false);
    assert_eq!(list["conversations"][0]["id"], json!(second_id));
    assert_eq!(list["conversations"][0]["agentName"], "Support");
    assert_eq!(list["conversations"][1]["agentName"], "Echo");
    let r = api.get("/conversations?limit=1").await;
    assert_eq!(r.json["conversations"].as_array().map(Vec::len), Some(1));
    assert_eq!(r.json["hasMore"], true);
    let r = api.get("/conversations?limit=1&offset=1").await;
    assert_eq!(r.json["conversations"][0]["id"], json!(first_id));
    assert_eq!(r.json["hasMore"], false);
    assert_eq!(api.get("/conversations?limit=0").await.json["limit"], 20);
    assert_eq!(api.get("/conversations?limit=abc").await.json["limit"], 20);
    assert_eq!(api.get("/conversations?limit=5x").await.json["limit"], 5);
    let r = api.get("/conversations?agentId=echo").await;
    assert_eq!(r.json["total"], 1);

    // E5
    let r = api.get(&format!("/conversations/{first_id}")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json["conversation"]["id"], json!(first_id));
    assert_eq!(r.json["messages"], json!([]));
    assert_eq!(r.json["pendingActions"], json!([]));
    api.get("/conversations/conv_missing")
        .await
        .assert_error(404, "NOT_FOUND");

    // E6: bare conversation
    let r = api
        .patch(
            &format!("/conversations/{first_id}"),
            json!({ "title": "Renamed" }),
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json["id"], json!(first_id));
    assert_eq!(r.json["title"], "Renamed");
    assert_eq!(r.json["metadata"]["k"], 1);
    api.patch("/conversations/conv_missing", json!({ "title": "x" }))
        .await
        .assert_error(404, "NOT_FOUND");
    api.patch(&format!("/conversations/{first_id}"), json!({ "title": 5 }))
        .await
        .assert_error(400, "VALIDATION_ERROR");

    // E8
    for i in 0..3 {
        assert_eq!(api.say(&first_id, &format!("m{i}")).await.status, 200);
    }
    let r = api
        .get(&format!("/conversations/{first_id}/messages"))
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json["total"], 6);
    assert_eq!(r.json["limit"], 100);
    assert_eq!(r.json["offset"], 0);
    assert_eq!(r.json["hasMore"], false);
    assert_eq!(r.json["messages"][0]["content"], "m0");
    assert_eq!(r.json["messages"][0]["role"], "user");
    let r = api
        .get(&format!(
            "/conversations/{first_id}/messages?limit=2&offset=1&order=desc"
        ))
        .await;
    assert_eq!(r.json["messages"][0]["content"], "m2");
    assert_eq!(r.json["messages"][1]["content"], "You said: m1");
    assert_eq!(r.json["hasMore"], true);
    let r = api
        .get(&format!("/conversations/{first_id}/messages?order=DESC"))
        .await;
    assert_eq!(
        r.json["messages"][0]["content"], "m0",
        "only exactly `desc` reverses"
    );
    api.get("/conversations/conv_missing/messages")
        .await
        .assert_error(404, "NOT_FOUND");

    // E7: 204 with an empty body
    let r = api.delete(&format!("/conversations/{first_id}")).await;
    assert_eq!(r.status, 204);
    assert!(r.text.is_empty());
    api.get(&format!("/conversations/{first_id}"))
        .await
        .assert_error(404, "NOT_FOUND");
    api.delete(&format!("/conversations/{first_id}"))
        .await
        .assert_error(404, "NOT_FOUND");
}

#[tokio::test]
async fn conversation_owner_is_enforced() {
    let api = start().await;
    let r = api
        .post_as("/conversations", json!({ "agentId": "echo" }), "alice")
        .await;
    assert_eq!(r.json["conversation"]["userId"], "alice");
    let cid = r.json["conversation"]["id"]
        .as_str()
        .expect("id")
        .to_string();
    let path = format!("/conversations/{cid}");
    api.get_as(&path, "bob")
        .await
        .assert_error(403, "FORBIDDEN");
    assert_eq!(api.get_as(&path, "alice").await.status, 200);
    // Bearer token = user id
    let r = api
        .send(
            api.req(reqwest::Method::GET, &path, None)
                .header("authorization", "Bearer bob"),
        )
        .await;
    r.assert_error(403, "FORBIDDEN");
    // anonymous callers are let through
    assert_eq!(api.get(&path).await.status, 200);
    let r = api
        .send(api.req(reqwest::Method::DELETE, &path, Some("bob")))
        .await;
    r.assert_error(403, "FORBIDDEN");
    let r = api
        .send(
            api.req(reqwest::Method::PATCH, &path, Some("bob"))
                .body("{}"),
        )
        .await;
    r.assert_error(403, "FORBIDDEN");
    api.get_as(&format!("{path}/messages"), "bob")
        .await
        .assert_error(403, "FORBIDDEN");
    // non-streaming send → JSON 403; streaming → stream.error FORBIDDEN
    api.post_as(
        &format!("{path}/messages"),
        json!({ "message": "hi" }),
        "bob",
    )
    .await
    .assert_error(403, "FORBIDDEN");
    let ev = api
        .post_as(
            &format!("{path}/messages"),
            json!({ "message": "hi", "stream": true }),
            "bob",
        )
        .await
        .events();
    assert_eq!(types(&ev), ["stream.error"]);
    assert_eq!(ev[0]["code"], "FORBIDDEN");
    // listing is per user
    let r = api.get_as("/conversations", "alice").await;
    assert_eq!(r.json["total"], 1);
    let r = api.get_as("/conversations", "bob").await;
    assert_eq!(r.json["total"], 0);
}

#[tokio::test]
async fn seed_creates_many_messages() {
    let api = start().await;
    let r = api
        .post("/_dev/seed", json!({ "agentId": "echo", "messages": 1000 }))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let cid = r.json["conversation"]["id"]
        .as_str()
        .expect("id")
        .to_string();
    let conv = api.conversation(&cid).await;
    assert_eq!(conv["messages"].as_array().map(Vec::len), Some(100));
    assert_eq!(conv["messages"][0]["role"], "user");
    assert_eq!(conv["messages"][1]["role"], "assistant");
    let r = api
        .get(&format!(
            "/conversations/{cid}/messages?limit=10&order=desc"
        ))
        .await;
    assert_eq!(r.json["total"], 1000);
    assert_eq!(r.json["hasMore"], true);
    assert_eq!(r.json["messages"][0]["role"], "assistant");
    api.post("/_dev/seed", json!({ "agentId": "ghost" }))
        .await
        .assert_error(404, "NOT_FOUND");
    api.post("/_dev/seed", json!({ "messages": "lots" }))
        .await
        .assert_error(400, "VALIDATION_ERROR");
}

/// Issue 8 (D26): a numbered 1,000-message conversation, paged newest first through E8 the
/// way the client does, from "Message 1000" back to "Message 1".
#[tokio::test]
async fn seed_numbered_long_conversation_pages_back_to_message_1() {
    let api = start().await;
    let r = api
        .post(
            "/_dev/seed",
            json!({ "agentId": "long", "messages": 1000, "numbered": true }),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let cid = r.json["conversation"]["id"]
        .as_str()
        .expect("id")
        .to_string();
    let conv = api.conversation(&cid).await;
    assert_eq!(conv["messages"].as_array().map(Vec::len), Some(100));
    assert_eq!(conv["messages"][0]["content"], "Message 1");
    assert_eq!(conv["messages"][99]["content"], "Message 100");
    let mut seen: Vec<String> = Vec::new();
    let mut offset = 0;
    loop {
        let mut path = format!("/conversations/{cid}/messages?limit=50");
        if offset > 0 {
            path.push_str(&format!("&offset={offset}"));
        }
        path.push_str("&order=desc");
        let page = api.get(&path).await;
        assert_eq!(page.status, 200, "{}", page.text);
        assert_eq!(page.json["total"], 1000);
        let messages = page.json["messages"].as_array().expect("messages").clone();
        offset += messages.len();
        seen.extend(
            messages
                .iter()
                .map(|m| m["content"].as_str().unwrap_or("").to_string()),
        );
        if page.json["hasMore"] != true {
            break;
        }
        assert!(offset < 2000, "paging never ends");
    }
    assert_eq!(seen.len(), 1000);
    assert_eq!(seen[0], "Message 1000");
    assert_eq!(seen[999], "Message 1");
    let expected: Vec<String> = (1..=1000).rev().map(|i| format!("Message {i}")).collect();
    assert_eq!(seen, expected);
    api.post("/_dev/seed", json!({ "numbered": "yes" }))
        .await
        .assert_error(400, "VALIDATION_ERROR");
}

/// Issue 18: a conversation seeded `whole` is served like a server that does not page: E5
/// holds every message, oldest first.
#[tokio::test]
async fn seed_whole_serves_every_message_in_e5() {
    let api = start().await;
    let r = api
        .post(
            "/_dev/seed",
            json!({ "agentId": "echo", "messages": 5000, "numbered": true, "whole": true }),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let cid = r.json["conversation"]["id"]
        .as_str()
        .expect("id")
        .to_string();
    assert_eq!(r.json["conversation"]["metadata"]["servedWhole"], true);
    let conv = api.conversation(&cid).await;
    let messages = conv["messages"].as_array().expect("messages");
    assert_eq!(messages.len(), 5000);
    assert_eq!(messages[0]["content"], "Message 1");
    assert_eq!(messages[4999]["content"], "Message 5000");
    api.post("/_dev/seed", json!({ "whole": 1 }))
        .await
        .assert_error(400, "VALIDATION_ERROR");
}

#[tokio::test]
async fn dev_resolutions_log_every_answer_as_received() {
    let api = start().await;
    let support = api.create_for("support", "u1").await;
    let action = api.pause(&support, "hello").await;
    let aid = action["id"].as_str().expect("id");
    let path = format!("/conversations/{support}/actions/{aid}");
    // refused: a bad decision, then a body that is not JSON at all
    api.post_as(
        &path,
        json!({ "resolution": { "decision": "maybe" } }),
        "u1",
    )
    .await
    .assert_error(400, "VALIDATION_ERROR");
    let r = api
        .send(
            api.req(reqwest::Method::POST, &path, Some("u1"))
                .body("{not json"),
        )
        .await;
    r.assert_error(400, "VALIDATION_ERROR");
    // accepted: an "edit" equal to the proposal is logged as posted, not as normalised
    let posted =
        json!({ "type": "tool_approval", "decision": "allow", "approvedArgs": action["args"] });
    let r = api
        .post_as(&path, json!({ "resolution": posted, "stream": true }), "u1")
        .await;
    assert_eq!(last(&r.events())["type"], "stream.done");
    // a second conversation, anonymous, refused because the answer comes too late
    let survey = api.create("survey").await;
    let question = api.pause(&survey, "set me up").await;
    let qid = question["id"].as_str().expect("id");
    api.answer(&survey, qid, json!({ "resolution": { "cancelled": true } }))
        .await;
    api.answer(&survey, qid, json!({ "resolution": { "cancelled": true } }))
        .await
        .assert_error(409, "action_not_pending");

    let all = api.get("/_dev/resolutions").await;
    assert_eq!(all.status, 200, "{}", all.text);
    assert_eq!(
        all.json,
        json!({ "resolutions": [
            { "conversationId": support, "actionId": aid, "userId": "u1",
              "resolution": { "decision": "maybe" }, "version": null, "status": 400 },
            { "conversationId": support, "actionId": aid, "userId": "u1",
              "resolution": null, "version": null, "status": 400 },
            { "conversationId": support, "actionId": aid, "userId": "u1",
              "resolution": posted, "version": null, "status": 200 },
            { "conversationId": survey, "actionId": qid, "userId": null,
              "resolution": { "cancelled": true }, "version": null, "status": 200 },
            { "conversationId": survey, "actionId": qid, "userId": null,
              "resolution": { "cancelled": true }, "version": null, "status": 409 },
        ] })
    );
    let only = api
        .get(&format!("/_dev/resolutions?conversationId={survey}"))
        .await;
    let list = only.json["resolutions"].as_array().expect("resolutions");
    assert_eq!(list.len(), 2);
    assert!(list.iter().all(|r| r["conversationId"] == json!(survey)));
    let none = api
        .get("/_dev/resolutions?conversationId=conv_unknown")
        .await;
    assert_eq!(none.json, json!({ "resolutions": [] }));
}

#[tokio::test]
async fn dev_expire_lets_an_action_lapse_now() {
    let api = start().await;
    let cid = api.create("support").await;
    let action = api.pause(&cid, "hello").await;
    let aid = action["id"].as_str().expect("id");
    let r = api.post("/_dev/expire", json!({ "actionId": aid })).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let settled = &r.json["action"];
    assert_eq!(settled["id"], json!(aid));
    assert_eq!(settled["status"], "resolved");
    assert_eq!(settled["resolvedBy"], "system:timeout");
    assert_eq!(settled["resolution"]["decision"], "deny");
    assert_eq!(settled["executionStatus"], "expired");
    // the advertised deadline (a day ahead) is left alone: a page that has it still counts down
    assert_eq!(settled["expiresAt"], action["expiresAt"]);
    // the server carried on by itself, as at a real deadline
    let conv = api.conversation(&cid).await;
    assert_eq!(conv["pendingActions"], json!([]));
    let msgs = api.get(&format!("/conversations/{cid}/messages")).await;
    let msgs = msgs.json["messages"].as_array().expect("messages").clone();
    assert_eq!(msgs.len(), 3);
    assert_eq!(
        msgs[1]["metadata"]["pendingActions"][0]["resolvedBy"],
        "system:timeout"
    );
    assert_eq!(
        msgs[2]["content"],
        "The request expired, so I did not run it."
    );
    // an answer now comes too late
    api.answer(&cid, aid, json!({ "resolution": { "decision": "allow" } }))
        .await
        .assert_error(410, "action_expired");
    // only a pending action can lapse
    api.post("/_dev/expire", json!({ "actionId": aid }))
        .await
        .assert_error(409, "action_not_pending");
    api.post("/_dev/expire", json!({ "actionId": "act_unknown" }))
        .await
        .assert_error(404, "NOT_FOUND");
    api.post("/_dev/expire", json!({}))
        .await
        .assert_error(400, "VALIDATION_ERROR");
}

#[tokio::test]
async fn dev_reissue_changes_an_open_action_under_the_same_id() {
    let api = start().await;
    let cid = api.create("ops").await;
    let action = api.pause(&cid, "list the files").await;
    let aid = action["id"].as_str().expect("id");
    assert_eq!(action["version"], 1);
    let r = api
        .post(
            "/_dev/reissue",
            json!({ "actionId": aid, "args": { "cmd": "pwd" } }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    // same id and fields, new arguments, version + 1 by default
    let mut expected = action.clone();
    expected["args"] = json!({ "cmd": "pwd" });
    expected["version"] = json!(2);
    assert_eq!(r.json, json!({ "action": expected }));
    // E5 lists it as it is now, and so does the paused message (§9.6)
    let conv = api.conversation(&cid).await;
    assert_eq!(conv["pendingActions"], json!([expected]));
    assert_eq!(
        conv["messages"][1]["metadata"]["pendingActions"],
        json!([expected])
    );

    // E14 now requires the new version: the old one is refused and changes nothing
    let allow = json!({ "type": "tool_approval", "decision": "allow" });
    let old = api
        .answer(&cid, aid, json!({ "resolution": allow, "version": 1 }))
        .await;
    old.assert_error(409, "action_version_conflict");
    assert_eq!(old.json["error"]["details"], json!({ "version": 2 }));
    assert_eq!(
        api.conversation(&cid).await["pendingActions"],
        json!([expected])
    );
    // the new version is accepted; an unedited allow runs the new arguments
    let new = api
        .answer(&cid, aid, json!({ "resolution": allow, "version": 2 }))
        .await;
    assert_eq!(new.status, 200, "{}", new.text);
    assert_eq!(new.json["action"]["version"], 2);
    assert_eq!(new.json["action"]["args"], json!({ "cmd": "pwd" }));
    assert_eq!(new.json["action"]["resolution"], allow);
    assert_eq!(
        new.json["message"]["content"],
        "Ran `pwd`:\n\n```\npwd: done\n```"
    );

    let log = api
        .get(&format!("/_dev/resolutions?conversationId={cid}"))
        .await;
    assert_eq!(
        log.json,
        json!({ "resolutions": [
            { "conversationId": cid, "actionId": aid, "userId": null,
              "resolution": allow, "version": 1, "status": 409 },
            { "conversationId": cid, "actionId": aid, "userId": null,
              "resolution": allow, "version": 2, "status": 200 },
        ] })
    );
}

#[tokio::test]
async fn dev_reissue_takes_a_version_and_keeps_the_arguments() {
    let api = start().await;
    let cid = api.create("support").await;
    let action = api.pause(&cid, "hello").await;
    let aid = action["id"].as_str().expect("id");
    let r = api
        .post("/_dev/reissue", json!({ "actionId": aid, "version": 7 }))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let mut expected = action.clone();
    expected["version"] = json!(7);
    assert_eq!(r.json["action"], expected);
    // the same version with other arguments (an agent that forgot to bump it) is allowed too
    let mut args = action["args"].clone();
    args["to"] = json!("eve@example.com");
    let r = api
        .post(
            "/_dev/reissue",
            json!({ "actionId": aid, "args": args, "version": 7 }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    expected["args"] = args.clone();
    assert_eq!(r.json["action"], expected);
    assert_eq!(
        api.conversation(&cid).await["pendingActions"],
        json!([expected])
    );
    // an "edit" equal to the new arguments is no edit; the agent sends to the new recipient
    let r = api
        .answer(
            &cid,
            aid,
            json!({ "resolution": { "decision": "allow", "approvedArgs": args }, "version": 7 }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        r.json["action"]["resolution"],
        json!({ "type": "tool_approval", "decision": "allow" })
    );
    assert_eq!(
        r.json["message"]["content"],
        "Email sent to eve@example.com."
    );
}

#[tokio::test]
async fn dev_reissue_refusals() {
    let api = start().await;
    let cid = api.create("support").await;
    let action = api.pause(&cid, "hello").await;
    let aid = action["id"].as_str().expect("id");
    for bad in [
        json!({}),
        json!({ "actionId": "" }),
        json!({ "actionId": aid, "args": "ls" }),
        json!({ "actionId": aid, "args": [1] }),
        json!({ "actionId": aid, "version": 0 }),
        json!({ "actionId": aid, "version": "2" }),
        json!({ "actionId": aid, "version": 1.5 }),
    ] {
        api.post("/_dev/reissue", bad)
            .await
            .assert_error(400, "VALIDATION_ERROR");
    }
    // nothing of that changed the action
    assert_eq!(
        api.conversation(&cid).await["pendingActions"],
        json!([action])
    );
    api.post("/_dev/reissue", json!({ "actionId": "act_unknown" }))
        .await
        .assert_error(404, "NOT_FOUND");
    // a question has no arguments to change
    let survey = api.create("survey").await;
    let question = api.pause(&survey, "set me up").await;
    let qid = question["id"].as_str().expect("id");
    api.post("/_dev/reissue", json!({ "actionId": qid, "args": {} }))
        .await
        .assert_error(400, "VALIDATION_ERROR");
    let r = api.post("/_dev/reissue", json!({ "actionId": qid })).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["action"]["version"], 2);
    // only an open action can be re-issued
    api.answer(&cid, aid, json!({ "resolution": { "decision": "deny" } }))
        .await;
    api.post("/_dev/reissue", json!({ "actionId": aid, "version": 2 }))
        .await
        .assert_error(409, "action_not_pending");
}

#[tokio::test]
async fn dev_reissue_reaches_a_stream_that_is_still_open() {
    // `#slow` holds the second turn's stream open long enough for the re-issue to land in it.
    let api = start_with(Config {
        slow_ms: 2000,
        ..test_config()
    })
    .await;
    let cid = api.create("host").await;
    let first = api.pause(&cid, "selection?").await;
    let fid = first["id"].as_str().expect("id");
    // an open client tool does not block the next message; its stream is open once the
    // headers arrive
    let slow = api
        .req(
            reqwest::Method::POST,
            &format!("/conversations/{cid}/messages"),
            None,
        )
        .body(json!({ "message": "and now? #slow", "stream": true }).to_string())
        .send()
        .await
        .expect("slow request");
    assert_eq!(slow.status(), 200);
    let r = api
        .post(
            "/_dev/reissue",
            json!({ "actionId": fid, "args": { "scope": "page" } }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let mut expected = first.clone();
    expected["args"] = json!({ "scope": "page" });
    expected["version"] = json!(2);
    assert_eq!(r.json["action"], expected);

    let ev = parse_sse(&slow.text().await.expect("slow body"));
    let required: Vec<&Value> = ev
        .iter()
        .filter(|e| e["type"] == "stream.action_required")
        .collect();
    assert_eq!(required.len(), 2, "{:?}", types(&ev));
    // first the re-issued action, under the message it was raised with; then the turn's own
    assert_eq!(required[0]["conversationId"], json!(cid));
    assert_eq!(required[0]["messageId"], first["messageId"]);
    assert_eq!(required[0]["action"], expected);
    assert_ne!(required[1]["action"]["id"], json!(fid));
    assert_eq!(last(&ev)["type"], "stream.done");
    let second = &last(&ev)["pendingActions"][0];
    assert_eq!(
        api.conversation(&cid).await["pendingActions"],
        json!([expected, second])
    );
}

#[tokio::test]
async fn dev_next_answer_refuses_the_next_answer_once() {
    let api = start().await;
    let cid = api.create("support").await;
    let action = api.pause(&cid, "hello").await;
    let aid = action["id"].as_str().expect("id");
    let r = api
        .post(
            "/_dev/next-answer",
            json!({ "conversationId": cid, "refuse": "action_forbidden" }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        r.json,
        json!({ "armed": { "conversationId": cid, "refuse": "action_forbidden",
                           "cutStreamAfter": null, "delayMs": null,
                           "failExecution": null, "newVersionOnEdit": false,
                           "lookupDelayMs": null } })
    );
    let allow = json!({ "resolution": { "type": "tool_approval", "decision": "allow" } });
    let refused = api.answer(&cid, aid, allow.clone()).await;
    refused.assert_error(403, "action_forbidden");
    assert_eq!(
        refused.json["error"]["message"],
        "Only the user who started this conversation can answer this request"
    );
    // the action is untouched and the fault is used up: the same answer now goes through
    assert_eq!(
        api.conversation(&cid).await["pendingActions"][0]["id"],
        json!(aid)
    );
    let r = api.answer(&cid, aid, allow).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        r.json["message"]["content"],
        "Email sent to customer@example.com."
    );
    let log = api
        .get(&format!("/_dev/resolutions?conversationId={cid}"))
        .await;
    let statuses: Vec<&Value> = log.json["resolutions"]
        .as_array()
        .expect("resolutions")
        .iter()
        .map(|r| &r["status"])
        .collect();
    assert_eq!(statuses, [&json!(403), &json!(200)]);
    // every injectable code answers with its own status
    for (code, status) in [
        ("action_expired", 410),
        ("action_cancelled", 409),
        ("action_not_pending", 409),
        ("conversation_busy", 409),
        ("action_version_conflict", 409),
        ("rate_limited", 429),
        ("quota_exceeded", 429),
        ("guardrail_blocked", 422),
        ("INTERNAL_ERROR", 500),
    ] {
        let armed = api
            .post(
                "/_dev/next-answer",
                json!({ "conversationId": cid, "refuse": code }),
            )
            .await;
        assert_eq!(armed.status, 200, "{}", armed.text);
        api.answer(&cid, "act_whatever", json!({}))
            .await
            .assert_error(status, code);
    }
    // bad requests
    for body in [
        json!({ "refuse": "action_forbidden" }),
        json!({ "conversationId": cid, "refuse": "teapot" }),
        json!({ "conversationId": cid, "refuse": "action_pending" }),
        json!({ "conversationId": cid, "cutStreamAfter": -1 }),
        json!({ "conversationId": cid, "delayMs": 60_001 }),
        json!({ "conversationId": cid, "delayMs": "soon" }),
    ] {
        api.post("/_dev/next-answer", body)
            .await
            .assert_error(400, "VALIDATION_ERROR");
    }
    api.post(
        "/_dev/next-answer",
        json!({ "conversationId": "conv_unknown", "refuse": "rate_limited" }),
    )
    .await
    .assert_error(404, "NOT_FOUND");
}

#[tokio::test]
async fn dev_next_answer_cuts_the_answer_stream_while_the_turn_goes_on() {
    let api = start().await;
    let cid = api.create("support").await;
    let action = api.pause(&cid, "hello").await;
    let aid = action["id"].as_str().expect("id");
    let r = api
        .post(
            "/_dev/next-answer",
            json!({ "conversationId": cid, "cutStreamAfter": 1 }),
        )
        .await;
    assert_eq!(r.json["armed"]["cutStreamAfter"], 1);
    let ev = api
        .answer(
            &cid,
            aid,
            json!({ "resolution": { "decision": "allow" }, "stream": true }),
        )
        .await
        .events();
    assert_eq!(types(&ev), ["stream.action_resolved"]);
    // the continuation is stored all the same
    let mut content = Value::Null;
    for _ in 0..50 {
        let msgs = api.get(&format!("/conversations/{cid}/messages")).await;
        content = msgs.json["messages"][2]["content"].clone();
        if content.is_string() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(content, "Email sent to customer@example.com.");
    // used up: the next answer streams in full again
    let again = api.pause(&cid, "and again").await;
    let ev = api
        .answer(
            &cid,
            again["id"].as_str().expect("id"),
            json!({ "resolution": { "decision": "deny" }, "stream": true }),
        )
        .await
        .events();
    assert_eq!(last(&ev)["type"], "stream.done");
}

#[tokio::test]
async fn dev_next_answer_delays_an_accepted_answer_past_the_deadline() {
    // hasty's deadline is 1 s here; the answer is settled at once, its response comes later
    let api = start().await;
    let cid = api.create("hasty").await;
    let action = api.pause(&cid, "restart it").await;
    let aid = action["id"].as_str().expect("id");
    let r = api
        .post(
            "/_dev/next-answer",
            json!({ "conversationId": cid, "delayMs": 1500 }),
        )
        .await;
    assert_eq!(r.json["armed"]["delayMs"], 1500);
    let r = api
        .answer(&cid, aid, json!({ "resolution": { "decision": "allow" } }))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["action"]["resolvedBy"], "user");
    assert_eq!(r.json["message"]["content"], "Restarted the web service.");
    // By the server's clock the continuation was written after the deadline had passed: the
    // response was held back, and the accepted answer still won over the timer.
    assert!(
        millis(&r.json["message"], "createdAt") > millis(&action, "expiresAt"),
        "message {} vs action {action}",
        r.json["message"]
    );
    let msgs = api.get(&format!("/conversations/{cid}/messages")).await;
    let msgs = msgs.json["messages"].as_array().expect("messages").clone();
    assert_eq!(msgs.len(), 3, "no timeout continuation: {msgs:?}");
}

// ---------------------------------------------------------------- E9 messages and streams

/// F77: the `research` agent's reply carries seven citations, in `stream.done` and on the
/// stored message; its first tool call has a reasoning and a display name (F116).
#[tokio::test]
async fn research_reply_carries_citations_streamed_stored_and_unstreamed() {
    let api = start().await;
    let cid = api.create("research").await;
    let ev = api.say_stream(&cid, "wasm chat UIs").await;
    let call = find(&ev, "stream.tool_call");
    assert_eq!(call["toolName"], "web_search");
    assert_eq!(call["reasoning"], "Searching the web for sources");
    assert_eq!(call["displayName"], "Web search");
    let done = last(&ev);
    assert_eq!(done["type"], "stream.done");
    let cites = done["citations"]
        .as_array()
        .expect("citations in stream.done");
    assert_eq!(cites.len(), 7);
    assert_eq!(cites[0]["title"], "The Rust Programming Language");
    assert_eq!(cites[0]["link"], "https://doc.rust-lang.org/book/");
    assert!(cites[3].get("title").is_none(), "one untitled source");
    assert!(cites[5].get("link").is_none(), "one source without a link");
    assert!(done["content"]
        .as_str()
        .is_some_and(|c| c.starts_with("Here is what I found.")));

    let conv = api.conversation(&cid).await;
    let stored = conv["messages"]
        .as_array()
        .and_then(|m| m.last())
        .cloned()
        .expect("assistant message");
    assert_eq!(stored["role"], "assistant");
    assert_eq!(stored["citations"], done["citations"]);
    let details = stored["metadata"]["toolCallDetails"]
        .as_array()
        .expect("tool steps");
    assert_eq!(details.len(), 2);
    assert_eq!(details[0]["reasoning"], "Searching the web for sources");

    // Without streaming, the reply message carries them too; other agents send none.
    let r = api.say(&cid, "again").await;
    assert_eq!(
        r.json["response"]["citations"].as_array().map(Vec::len),
        Some(7)
    );
    let echo = api.create("echo").await;
    let ev = api.say_stream(&echo, "hi").await;
    assert!(last(&ev).get("citations").is_none());
}

#[tokio::test]
async fn echo_streams_text_and_tool_events() {
    let api = start().await;
    let cid = api.create("echo").await;
    let ev = api.say_stream(&cid, "hello streaming world #think").await;
    let t = types(&ev);
    assert_eq!(t[0], "stream.start");
    assert_eq!(*t.last().expect("last"), "stream.done");
    for kind in [
        "stream.progress",
        "stream.thinking",
        "stream.tool_call",
        "stream.tool_result",
    ] {
        assert!(t.contains(&kind), "{kind} missing from {t:?}");
    }
    let start = &ev[0];
    assert_eq!(start["conversationId"], json!(cid));
    let call = find(&ev, "stream.tool_call");
    assert_eq!(call["toolName"], "count_words");
    assert_eq!(call["args"]["text"], "hello streaming world #think");
    let result = find(&ev, "stream.tool_result");
    assert_eq!(result["toolCallId"], call["toolCallId"]);
    assert_eq!(result["result"]["words"], 4);
    let texts: Vec<&str> = ev
        .iter()
        .filter(|e| e["type"] == "stream.text")
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert!(texts.len() > 5, "several small chunks");
    assert!(texts.iter().all(|t| t.chars().count() <= 4));
    let done = last(&ev);
    assert_eq!(done["content"], json!(texts.concat()));
    assert!(done["content"]
        .as_str()
        .is_some_and(|c| c.contains("You said: hello streaming world")));
    assert_eq!(done["status"], "completed");
    assert_eq!(done["title"], "hello streaming world #think");
    assert!(done["usage"]["totalTokens"].is_u64());
    assert!(is_id(&done["messageId"], "msg"));

    // stored: start.messageId is the user message, done.messageId the assistant message
    let conv = api.conversation(&cid).await;
    assert_eq!(
        conv["conversation"]["title"],
        "hello streaming world #think"
    );
    let msgs = conv["messages"].as_array().expect("messages");
    assert_eq!(msgs.len(), 2);
    assert_eq!(msgs[0]["id"], start["messageId"]);
    assert_eq!(msgs[0]["role"], "user");
    assert_eq!(msgs[1]["id"], done["messageId"]);
    assert_eq!(msgs[1]["content"], done["content"]);
    let details = &msgs[1]["metadata"]["toolCallDetails"][0];
    assert_eq!(details["name"], "count_words");
    assert_eq!(details["result"]["words"], 4);
    assert!(msgs[1]["metadata"]["toolCallDurationSeconds"].is_u64());
    let tc = &msgs[1]["toolCalls"][0];
    assert_eq!(tc["name"], "count_words");
    let args: Value =
        serde_json::from_str(tc["arguments"].as_str().expect("string")).expect("json");
    assert_eq!(args["text"], "hello streaming world #think");

    // title only after the first exchange
    let ev = api.say_stream(&cid, "again").await;
    assert!(last(&ev).get("title").is_none());
}

#[tokio::test]
async fn echo_without_streaming() {
    let api = start().await;
    let cid = api.create("echo").await;
    let r = api.say(&cid, "plain request").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json["message"]["role"], "user");
    assert_eq!(r.json["message"]["content"], "plain request");
    assert!(is_id(&r.json["message"]["id"], "msg"));
    assert_eq!(r.json["response"]["role"], "assistant");
    assert_eq!(r.json["response"]["content"], "You said: plain request");
    assert_eq!(r.json["conversationTitle"], "plain request");
    assert_eq!(r.json["status"], "completed");
    assert!(r.json.get("pendingActions").is_none());
    // tolerated docs variant `streaming: true`
    let ev = api
        .post(
            &format!("/conversations/{cid}/messages"),
            json!({ "message": "hi", "streaming": true }),
        )
        .await
        .events();
    assert_eq!(last(&ev)["type"], "stream.done");
}

#[tokio::test]
async fn long_titles_are_cut_to_forty_chars() {
    let api = start().await;
    let cid = api.create("echo").await;
    let text = "This is a rather long first message that goes on and on";
    let r = api.say(&cid, text).await;
    assert_eq!(
        r.json["conversationTitle"],
        json!(text.chars().take(40).collect::<String>())
    );
}

#[tokio::test]
async fn send_validation_and_not_found() {
    let api = start().await;
    let cid = api.create("echo").await;
    let path = format!("/conversations/{cid}/messages");
    let r = api.post(&path, json!({ "stream": true })).await;
    r.assert_error(400, "VALIDATION_ERROR");
    assert_eq!(r.json["error"]["message"], "message is required");
    api.post(&path, json!({ "message": "   " }))
        .await
        .assert_error(400, "VALIDATION_ERROR");
    api.post(
        "/conversations/conv_nope/messages",
        json!({ "message": "x" }),
    )
    .await
    .assert_error(404, "NOT_FOUND");
    let ev = api
        .post(
            "/conversations/conv_nope/messages",
            json!({ "message": "x", "stream": true }),
        )
        .await
        .events();
    assert_eq!(types(&ev), ["stream.error"]);
    assert_eq!(ev[0]["code"], "NOT_FOUND");
    assert!(ev[0]["error"].is_string());
}

#[tokio::test]
async fn scripted_failure_is_a_stream_error() {
    let api = start().await;
    let cid = api.create("echo").await;
    let ev = api.say_stream(&cid, "please #fail").await;
    let err = last(&ev);
    assert_eq!(err["type"], "stream.error");
    assert_eq!(err["code"], "INTERNAL_ERROR");
    assert!(!types(&ev).contains(&"stream.done"));
    let conv = api.conversation(&cid).await;
    assert_eq!(
        conv["messages"].as_array().map(Vec::len),
        Some(1),
        "no reply stored"
    );
    api.say(&cid, "again #fail")
        .await
        .assert_error(500, "INTERNAL_ERROR");
}

#[tokio::test]
async fn cut_stream_still_completes_the_turn() {
    let api = start().await;
    let cid = api.create("echo").await;
    let ev = api.say_stream(&cid, "drop me #cut").await;
    let t = types(&ev);
    assert!(!t.contains(&"stream.done") && !t.contains(&"stream.error"));
    assert_eq!(t.last(), Some(&"stream.tool_result"));
    let mut stored = false;
    for _ in 0..50 {
        let conv = api.conversation(&cid).await;
        if conv["messages"][1]["content"] == "You said: drop me #cut" {
            stored = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(stored, "the reply is stored although the stream was cut");
}

#[tokio::test]
async fn long_agent_streams_many_deltas() {
    let api = start().await;
    let cid = api.create("long").await;
    let ev = api.say_stream(&cid, "tell me everything").await;
    let n = ev.iter().filter(|e| e["type"] == "stream.text").count();
    assert!(n >= 1000, "{n} text events");
    let content = last(&ev)["content"].as_str().expect("content").to_string();
    let words = content.split_whitespace().count();
    assert!((1800..=2600).contains(&words), "{words} words");
    assert!(content
        .trim_end()
        .ends_with("That is the end of the long answer."));
    assert!(content.starts_with("# A long answer"));
}

#[tokio::test]
async fn message_limits_and_magic_words() {
    let api = start().await;
    let cid = api.create("echo").await;
    let long = "a".repeat(100_001);
    api.say(&cid, &long)
        .await
        .assert_error(413, "message_too_long");
    assert_eq!(api.say(&cid, &"b".repeat(100_000)).await.status, 200);
    api.say(&cid, "hi #guardrail")
        .await
        .assert_error(422, "guardrail_blocked");
    api.say(&cid, "hi #ratelimit")
        .await
        .assert_error(429, "rate_limited");
    api.say(&cid, "hi #quota")
        .await
        .assert_error(429, "quota_exceeded");
    // refusals come before streaming, also with stream: true
    let r = api
        .post(
            &format!("/conversations/{cid}/messages"),
            json!({ "message": "x #quota", "stream": true }),
        )
        .await;
    r.assert_error(429, "quota_exceeded");
}

#[tokio::test]
async fn busy_conversation_refuses_messages() {
    let api = start().await;
    let cid = api.create("echo").await;
    // The response headers arrive once the turn runs; #slow keeps it running for a while.
    let slow = api
        .req(
            reqwest::Method::POST,
            &format!("/conversations/{cid}/messages"),
            None,
        )
        .body(json!({ "message": "take your time #slow", "stream": true }).to_string())
        .send()
        .await
        .expect("slow request");
    assert_eq!(slow.status(), 200);
    api.say(&cid, "are you there?")
        .await
        .assert_error(409, "conversation_busy");
    let body = slow.text().await.expect("slow body");
    let ev = parse_sse(&body);
    assert_eq!(last(&ev)["type"], "stream.done");
    assert_eq!(api.say(&cid, "now?").await.status, 200);
}

// ---------------------------------------------------------------- files E9 + E10–E13

#[tokio::test]
async fn e10_to_e13_files() {
    let api = start().await;
    let r = api
        .post(
            "/files",
            json!({ "file": { "name": "a.txt", "content": b64(b"hello"), "mimeType": "text/plain" },
                    "metadata": { "purpose": "test" } }),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let file = &r.json["file"];
    assert!(is_id(&file["id"], "file"));
    assert_eq!(file["name"], "a.txt");
    assert_eq!(file["mimeType"], "text/plain");
    assert_eq!(file["size"], 5);
    assert!(file["storageKey"].is_string());
    assert!(file["createdAt"].is_string());
    let fid = file["id"].as_str().expect("id").to_string();

    let r = api.get(&format!("/files/{fid}")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json["id"], json!(fid));
    assert_eq!(r.json["metadata"]["purpose"], "test");

    let r = api.get(&format!("/files/{fid}/content")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.text, "hello");
    assert_eq!(r.header("content-type"), "text/plain");
    assert_eq!(r.header("content-length"), "5");
    assert_eq!(
        r.header("content-disposition"),
        "attachment; filename=\"a.txt\""
    );

    let r = api.delete(&format!("/files/{fid}")).await;
    assert_eq!(r.status, 204);
    assert!(r.text.is_empty());
    api.get(&format!("/files/{fid}"))
        .await
        .assert_error(404, "NOT_FOUND");
    api.get(&format!("/files/{fid}/content"))
        .await
        .assert_error(404, "NOT_FOUND");
    api.delete(&format!("/files/{fid}"))
        .await
        .assert_error(404, "NOT_FOUND");

    // refusals
    api.post("/files", json!({}))
        .await
        .assert_error(400, "VALIDATION_ERROR");
    api.post(
        "/files",
        json!({ "file": { "name": "a", "mimeType": "text/plain" } }),
    )
    .await
    .assert_error(400, "VALIDATION_ERROR");
    api.post(
        "/files",
        json!({ "file": { "name": "a", "content": "***", "mimeType": "text/plain" } }),
    )
    .await
    .assert_error(400, "VALIDATION_ERROR");
    api.post(
        "/files",
        json!({ "file": { "name": "x.exe", "content": b64(b"MZ"), "mimeType": "application/x-msdownload" } }),
    )
    .await
    .assert_error(415, "unsupported_file_type");
    let big = b64(&vec![0u8; 10 * 1024 * 1024 + 3]);
    api.post(
        "/files",
        json!({ "file": { "name": "big.bin", "content": big, "mimeType": "application/octet-stream" } }),
    )
    .await
    .assert_error(413, "file_too_large");
    let survey = api.create("survey").await;
    api.post(
        "/files",
        json!({ "file": { "name": "a.txt", "content": b64(b"x"), "mimeType": "text/plain" },
                "conversationId": survey }),
    )
    .await
    .assert_error(422, "attachments_disabled");
    let echo = api.create("echo").await;
    let r = api
        .post(
            "/files",
            json!({ "file": { "name": "a.txt", "content": b64(b"x"), "mimeType": "text/plain" },
                    "conversationId": echo }),
        )
        .await;
    assert_eq!(r.status, 201);
    assert_eq!(r.json["file"]["conversationId"], json!(echo));
}

#[tokio::test]
async fn message_attachments() {
    let api = start().await;
    let cid = api.create("echo").await;
    let path = format!("/conversations/{cid}/messages");
    let r = api
        .post(
            &path,
            json!({ "message": "see file",
                    "files": [{ "name": "a.txt", "content": b64(b"hello"), "mimeType": "text/plain" }] }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let f = &r.json["message"]["files"][0];
    assert!(f["id"].as_str().is_some_and(|s| s.starts_with("file_")));
    assert_eq!(f["name"], "a.txt");
    assert_eq!(f["mimeType"], "text/plain");
    assert_eq!(f["size"], 5);
    assert!(r.json["response"]["content"]
        .as_str()
        .is_some_and(|c| c.contains("a.txt (text/plain, 5 bytes)")));

    let big = b64(&vec![1u8; 10 * 1024 * 1024 + 1]);
    api.post(
        &path,
        json!({ "message": "big", "files": [{ "name": "b.bin", "content": big, "mimeType": "application/octet-stream" }] }),
    )
    .await
    .assert_error(413, "file_too_large");
    api.post(
        &path,
        json!({ "message": "exe", "files": [{ "name": "x.exe", "content": b64(b"MZ"), "mimeType": "application/x-msdownload" }] }),
    )
    .await
    .assert_error(415, "unsupported_file_type");
    api.post(
        &path,
        json!({ "message": "bad", "files": [{ "name": "x", "content": "!!", "mimeType": "text/plain" }] }),
    )
    .await
    .assert_error(400, "VALIDATION_ERROR");
    let survey = api.create("survey").await;
    api.post(
        &format!("/conversations/{survey}/messages"),
        json!({ "message": "hi", "stream": true,
                "files": [{ "name": "a.txt", "content": b64(b"x"), "mimeType": "text/plain" }] }),
    )
    .await
    .assert_error(422, "attachments_disabled");
}

/// C16: the `files` agent narrows uploads in its metadata and E9 enforces the same limits;
/// its reply names every file it received with the decoded size.
#[tokio::test]
async fn files_agent_narrows_uploads_c16() {
    let api = start().await;
    let info = api.get("/agents/files").await;
    assert_eq!(info.status, 200);
    let meta = &info.json["metadata"];
    assert_eq!(meta["enableFileUpload"], true);
    assert_eq!(meta["allowedFileTypes"], json!(["image/*", ".txt"]));
    assert_eq!(meta["maxFileSize"], 1024 * 1024);
    assert_eq!(meta["maxFiles"], 3);

    let cid = api.create("files").await;
    let path = format!("/conversations/{cid}/messages");
    let r = api
        .post(
            &path,
            json!({ "message": "two files", "files": [
                { "name": "notes.txt", "content": b64(b"hello"), "mimeType": "text/plain" },
                { "name": "dot.png", "content": b64(&[137, 80, 78, 71]), "mimeType": "image/png" }
            ] }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let reply = r.json["response"]["content"].as_str().unwrap_or_default();
    assert!(
        reply.contains("notes.txt (text/plain, 5 bytes), dot.png (image/png, 4 bytes)"),
        "{reply}"
    );
    api.post(
        &path,
        json!({ "message": "pdf", "files": [{ "name": "a.pdf", "content": b64(b"%PDF"), "mimeType": "application/pdf" }] }),
    )
    .await
    .assert_error(415, "unsupported_file_type");
    let big = b64(&vec![0u8; 1024 * 1024 + 1]);
    api.post(
        &path,
        json!({ "message": "big", "files": [{ "name": "big.png", "content": big, "mimeType": "image/png" }] }),
    )
    .await
    .assert_error(413, "file_too_large");
    let four: Vec<Value> = (0..4)
        .map(|i| json!({ "name": format!("{i}.txt"), "content": b64(b"x"), "mimeType": "text/plain" }))
        .collect();
    api.post(&path, json!({ "message": "four", "files": four }))
        .await
        .assert_error(400, "VALIDATION_ERROR");
}

// ---------------------------------------------------------------- approvals & questions E14

/// An ISO timestamp field of `v` as epoch milliseconds.
fn millis(v: &Value, field: &str) -> i64 {
    let text = v[field]
        .as_str()
        .unwrap_or_else(|| panic!("no {field} in {v}"));
    chrono::DateTime::parse_from_rfc3339(text)
        .unwrap_or_else(|e| panic!("{field} {text:?}: {e}"))
        .timestamp_millis()
}

/// How long the action `a` was given, by the server's own clock: `expiresAt - createdAt`.
fn lifetime_ms(a: &Value) -> i64 {
    millis(a, "expiresAt") - millis(a, "createdAt")
}

fn assert_action_shape(a: &Value, kind: &str) {
    assert!(is_id(&a["id"], "act"), "{a}");
    assert_eq!(a["type"], kind);
    assert_eq!(a["status"], "pending");
    assert_eq!(a["version"], 1);
    assert!(is_id(&a["messageId"], "msg"));
    assert!(a["createdAt"].is_string());
    assert!(a["expiresAt"].is_string());
}

#[tokio::test]
async fn support_approval_streams_and_allows() {
    let api = start().await;
    let cid = api.create("support").await;
    let ev = api.say_stream(&cid, "My order never arrived").await;
    assert_eq!(
        types(&ev)
            .iter()
            .filter(|t| **t != "stream.text")
            .copied()
            .collect::<Vec<_>>(),
        ["stream.start", "stream.action_required", "stream.done"]
    );
    let required = find(&ev, "stream.action_required");
    assert_eq!(required["conversationId"], json!(cid));
    let action = &required["action"];
    assert_action_shape(action, "tool_approval");
    assert_eq!(action["toolName"], "send_email");
    assert_eq!(action["args"]["to"], "customer@example.com");
    assert!(action["args"]["subject"].is_string() && action["args"]["body"].is_string());
    let schema = &action["argsSchema"];
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["required"], json!(["to", "subject", "body"]));
    assert_eq!(schema["additionalProperties"], false);
    assert!(schema["properties"]["to"]["pattern"].is_string());
    // expiresAt is 24 h after the action was created (the server's clock, not this test's)
    assert_eq!(lifetime_ms(action), 24 * 3600 * 1000, "{action}");

    let done = last(&ev);
    assert_eq!(done["status"], "requires_action");
    assert_eq!(done["pendingActions"][0]["id"], action["id"]);
    assert_eq!(done["messageId"], action["messageId"]);
    assert_eq!(
        done["content"],
        "I drafted an email to customer@example.com. I need your approval before sending it."
    );

    // E5 restores the open action
    let conv = api.conversation(&cid).await;
    assert_eq!(conv["pendingActions"][0]["id"], action["id"]);
    let paused = &conv["messages"][1];
    assert_eq!(paused["id"], action["messageId"]);
    assert_eq!(paused["metadata"]["pendingActions"][0]["status"], "pending");

    // block policy
    api.say(&cid, "hello?")
        .await
        .assert_error(409, "action_pending");

    // non-streaming answer
    let aid = action["id"].as_str().expect("id");
    let r = api
        .answer(
            &cid,
            aid,
            json!({ "resolution": { "type": "tool_approval", "decision": "allow" } }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["status"], "completed");
    assert_eq!(r.json["action"]["id"], action["id"]);
    assert_eq!(r.json["action"]["status"], "resolved");
    assert_eq!(r.json["action"]["resolution"]["decision"], "allow");
    assert_eq!(r.json["action"]["executionStatus"], "completed");
    assert_eq!(
        r.json["message"]["content"],
        "Email sent to customer@example.com."
    );
    assert_ne!(r.json["message"]["id"], action["messageId"]);
    assert_eq!(
        r.json["message"]["metadata"]["toolCallDetails"][0]["name"],
        "send_email"
    );

    let conv = api.conversation(&cid).await;
    assert_eq!(conv["pendingActions"], json!([]));
    let entry = &conv["messages"][1]["metadata"]["pendingActions"][0];
    assert_eq!(entry["status"], "resolved");
    assert_eq!(entry["resolution"]["decision"], "allow");
    assert_eq!(entry["resolvedBy"], "user");
    assert_eq!(
        conv["messages"][2]["content"],
        "Email sent to customer@example.com."
    );

    // answering again
    api.answer(&cid, aid, json!({ "resolution": { "decision": "deny" } }))
        .await
        .assert_error(409, "action_not_pending");
    api.answer(
        &cid,
        "act_unknown",
        json!({ "resolution": { "decision": "deny" } }),
    )
    .await
    .assert_error(404, "NOT_FOUND");
    api.answer(
        "conv_unknown",
        aid,
        json!({ "resolution": { "decision": "deny" } }),
    )
    .await
    .assert_error(404, "NOT_FOUND");
    // the conversation is free again
    assert_eq!(
        api.pause(&cid, "another one").await["toolName"],
        "send_email"
    );
}

#[tokio::test]
async fn support_allow_with_edited_args_streams_the_continuation() {
    let api = start().await;
    let cid = api.create("support").await;
    let action = api.pause(&cid, "Refund please").await;
    let aid = action["id"].as_str().expect("id");
    let mut edited = action["args"].clone();
    edited["to"] = json!("dana@example.org");
    edited["subject"] = json!("Your refund");

    // server-side validation of the edit
    let mut bad = edited.clone();
    bad["to"] = json!("not an address");
    api.answer(
        &cid,
        aid,
        json!({ "resolution": { "decision": "allow", "approvedArgs": bad } }),
    )
    .await
    .assert_error(400, "VALIDATION_ERROR");
    let mut extra = edited.clone();
    extra["cc"] = json!("x@y.zz");
    api.answer(
        &cid,
        aid,
        json!({ "resolution": { "decision": "allow", "approvedArgs": extra } }),
    )
    .await
    .assert_error(400, "VALIDATION_ERROR");
    api.answer(&cid, aid, json!({ "resolution": { "decision": "maybe" } }))
        .await
        .assert_error(400, "VALIDATION_ERROR");
    api.answer(
        &cid,
        aid,
        json!({ "resolution": { "type": "user_question", "answers": {} } }),
    )
    .await
    .assert_error(400, "VALIDATION_ERROR");
    api.answer(&cid, aid, json!({}))
        .await
        .assert_error(400, "VALIDATION_ERROR");

    let ev = api
        .answer(
            &cid,
            aid,
            json!({ "resolution": { "type": "tool_approval", "decision": "allow", "approvedArgs": edited },
                    "stream": true }),
        )
        .await
        .events();
    let t = types(&ev);
    assert_eq!(t[0], "stream.action_resolved");
    assert_eq!(t[1], "stream.start");
    assert_eq!(*t.last().expect("last"), "stream.done");
    let resolved = &ev[0];
    assert_eq!(resolved["actionId"], action["id"]);
    assert_eq!(resolved["conversationId"], json!(cid));
    assert_eq!(resolved["status"], "resolved");
    assert_eq!(
        resolved["resolution"]["approvedArgs"]["to"],
        "dana@example.org"
    );
    assert_eq!(
        find(&ev, "stream.tool_call")["args"]["to"],
        "dana@example.org"
    );
    let done = last(&ev);
    assert_eq!(done["status"], "completed");
    assert_ne!(done["messageId"], action["messageId"]);
    assert_eq!(
        done["content"],
        "Email sent to dana@example.org with the subject \"Your refund\" (you edited the draft)."
    );
    let conv = api.conversation(&cid).await;
    let entry = &conv["messages"][1]["metadata"]["pendingActions"][0];
    assert_eq!(
        entry["resolution"]["approvedArgs"]["subject"],
        "Your refund"
    );
}

#[tokio::test]
async fn unchanged_edit_is_not_an_edit() {
    let api = start().await;
    let cid = api.create("support").await;
    let action = api.pause(&cid, "hello").await;
    let r = api
        .answer(
            &cid,
            action["id"].as_str().expect("id"),
            json!({ "resolution": { "decision": "allow", "approvedArgs": action["args"] } }),
        )
        .await;
    assert_eq!(r.status, 200);
    assert!(r.json["action"]["resolution"].get("approvedArgs").is_none());
    assert_eq!(
        r.json["message"]["content"],
        "Email sent to customer@example.com."
    );
}

#[tokio::test]
async fn support_deny_with_comment() {
    let api = start().await;
    let cid = api.create_for("support", "u1").await;
    let action = api.pause(&cid, "mail bob@example.org now").await;
    assert_eq!(action["args"]["to"], "bob@example.org");
    let aid = action["id"].as_str().expect("id");
    // a different user may not answer; Bearer token = user id
    let r = api
        .send(
            api.req(
                reqwest::Method::POST,
                &format!("/conversations/{cid}/actions/{aid}"),
                None,
            )
            .header("authorization", "Bearer u2")
            .body(json!({ "resolution": { "decision": "deny" } }).to_string()),
        )
        .await;
    r.assert_error(403, "action_forbidden");
    let r = api
        .post_as(
            &format!("/conversations/{cid}/actions/{aid}"),
            json!({ "resolution": { "decision": "deny", "comment": "wrong recipient" } }),
            "u1",
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        r.json["message"]["content"],
        "I did not send the email. Reason: wrong recipient"
    );
    assert_eq!(r.json["action"]["executionStatus"], "rejected");
    assert_eq!(r.json["action"]["resolvedBy"], "user:u1");
    let conv = api.conversation(&cid).await;
    let entry = &conv["messages"][1]["metadata"]["pendingActions"][0];
    assert_eq!(entry["resolution"]["decision"], "deny");
    assert_eq!(entry["resolution"]["comment"], "wrong recipient");
    assert_eq!(entry["resolvedBy"], "user:u1");
}

#[tokio::test]
async fn answer_refusals_by_magic_words_and_version() {
    let api = start().await;
    let cid = api.create("support").await;
    let action = api.pause(&cid, "hello").await;
    let aid = action["id"].as_str().expect("id");
    api.answer(
        &cid,
        aid,
        json!({ "resolution": { "decision": "deny", "comment": "#guardrail" } }),
    )
    .await
    .assert_error(422, "guardrail_blocked");
    let mut args = action["args"].clone();
    args["body"] = json!("#guardrail");
    api.answer(
        &cid,
        aid,
        json!({ "resolution": { "decision": "allow", "approvedArgs": args } }),
    )
    .await
    .assert_error(422, "guardrail_blocked");
    api.answer(
        &cid,
        aid,
        json!({ "resolution": { "decision": "deny", "comment": "#ratelimit" } }),
    )
    .await
    .assert_error(429, "rate_limited");
    api.answer(
        &cid,
        aid,
        json!({ "resolution": { "decision": "deny", "comment": "#quota" } }),
    )
    .await
    .assert_error(429, "quota_exceeded");
    api.answer(
        &cid,
        aid,
        json!({ "resolution": { "decision": "allow" }, "version": 2 }),
    )
    .await
    .assert_error(409, "action_version_conflict");
    // still pending after all refusals; the right version is accepted
    let r = api
        .answer(
            &cid,
            aid,
            json!({ "resolution": { "decision": "allow" }, "version": 1 }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
}

#[tokio::test]
async fn decision_key_retries_are_idempotent() {
    let api = start().await;
    let cid = api.create("support").await;
    let action = api.pause(&cid, "hello").await;
    let aid = action["id"].as_str().expect("id");
    let body = json!({ "resolution": { "decision": "allow" }, "decisionKey": "k-1" });
    let first = api.answer(&cid, aid, body.clone()).await;
    assert_eq!(first.status, 200);
    let again = api.answer(&cid, aid, body).await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.json["message"]["id"], first.json["message"]["id"]);
    assert_eq!(again.json["status"], "completed");
    let ev = api
        .answer(
            &cid,
            aid,
            json!({ "resolution": { "decision": "allow" }, "decisionKey": "k-1", "stream": true }),
        )
        .await
        .events();
    assert_eq!(types(&ev), ["stream.action_resolved", "stream.done"]);
    assert_eq!(ev[1]["messageId"], first.json["message"]["id"]);
    api.answer(
        &cid,
        aid,
        json!({ "resolution": { "decision": "allow" }, "decisionKey": "k-2" }),
    )
    .await
    .assert_error(409, "action_not_pending");
}

#[tokio::test]
async fn busy_conversation_refuses_answers() {
    let api = start().await;
    let cid = api.create("support").await;
    let action = api.pause(&cid, "hello").await;
    let aid = action["id"].as_str().expect("id");
    let slow = api
        .req(reqwest::Method::POST, &format!("/conversations/{cid}/actions/{aid}"), None)
        .body(json!({ "resolution": { "decision": "deny", "comment": "later #slow" }, "stream": true }).to_string())
        .send()
        .await
        .expect("slow answer");
    assert_eq!(slow.status(), 200);
    api.answer(&cid, aid, json!({ "resolution": { "decision": "allow" } }))
        .await
        .assert_error(409, "conversation_busy");
    api.say(&cid, "hi")
        .await
        .assert_error(409, "conversation_busy");
    let ev = parse_sse(&slow.text().await.expect("body"));
    assert_eq!(
        last(&ev)["content"],
        "I did not send the email. Reason: later #slow"
    );
}

/// The request `first` (the second message's card) was cancelled by a new message: answering
/// it is refused with 409 `action_cancelled` and the message's metadata says `cancelled`.
/// Returns the conversation as read then.
async fn assert_first_cancelled(api: &Api, cid: &str, first: &Value) -> Value {
    api.answer(
        cid,
        first["id"].as_str().expect("id"),
        json!({ "resolution": { "decision": "allow" } }),
    )
    .await
    .assert_error(409, "action_cancelled");
    let conv = api.conversation(cid).await;
    assert_eq!(
        conv["messages"][1]["metadata"]["pendingActions"][0]["status"],
        "cancelled"
    );
    conv
}

#[tokio::test]
async fn ops_cancel_policy_and_remembered_approval() {
    let api = start().await;
    let cid = api.create("ops").await;
    let ev = api.say_stream(&cid, "list files").await;
    let first = find(&ev, "stream.action_required")["action"].clone();
    assert_action_shape(&first, "tool_approval");
    assert_eq!(first["toolName"], "sandbox_exec");
    assert_eq!(first["args"], json!({ "cmd": "ls" }));
    assert_eq!(
        last(&ev)["content"],
        "I'd like to run `ls` in the sandbox. Please approve."
    );

    // a new message cancels the waiting request and is processed normally
    let ev = api.say_stream(&cid, "never mind, list again").await;
    let t = types(&ev);
    assert_eq!(t[0], "stream.action_resolved");
    assert_eq!(t[1], "stream.start");
    assert_eq!(ev[0]["actionId"], first["id"]);
    assert_eq!(ev[0]["status"], "cancelled");
    let second = find(&ev, "stream.action_required")["action"].clone();
    assert_ne!(second["id"], first["id"]);
    let conv = assert_first_cancelled(&api, &cid, &first).await;
    assert_eq!(conv["pendingActions"][0]["id"], second["id"]);

    // approve an edited command and remember it for the session
    let r = api
        .answer(
            &cid,
            second["id"].as_str().expect("id"),
            json!({ "resolution": { "decision": "allow", "approvedArgs": { "cmd": "ls -la" },
                                    "rememberForSession": true } }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let content = r.json["message"]["content"].as_str().expect("content");
    assert!(content.starts_with("Ran `ls -la`:"), "{content}");
    assert_eq!(r.json["action"]["resolution"]["rememberForSession"], true);

    // remembered: the next request runs without asking
    let r = api.say(&cid, "once more").await;
    assert_eq!(r.json["status"], "completed");
    assert!(r.json["response"]["content"]
        .as_str()
        .is_some_and(|c| c.contains("Ran `ls`:")));
    let conv = api.conversation(&cid).await;
    assert_eq!(
        conv["conversation"]["state"]["rememberedTools"],
        json!(["sandbox_exec"])
    );

    // deny path of ops
    let cid = api.create("ops").await;
    let action = api.pause(&cid, "list").await;
    let r = api
        .answer(
            &cid,
            action["id"].as_str().expect("id"),
            json!({ "resolution": { "decision": "deny" } }),
        )
        .await;
    assert_eq!(r.json["message"]["content"], "I did not run `ls`.");
}

#[tokio::test]
async fn cancel_policy_can_be_chosen_per_conversation() {
    let api = start().await;
    let r = api
        .post(
            "/conversations",
            json!({ "agentId": "support", "metadata": { "pendingActionPolicy": "cancel" } }),
        )
        .await;
    let cid = r.json["conversation"]["id"]
        .as_str()
        .expect("id")
        .to_string();
    let first = api.pause(&cid, "first").await;
    let r = api.say(&cid, "second").await;
    assert_eq!(r.status, 200, "{}", r.text);
    // The message cancelled the waiting request rather than slipping past it.
    assert_first_cancelled(&api, &cid, &first).await;
    // The metadata chose it: support's own policy blocks the same message.
    let blocking = api.create("support").await;
    api.pause(&blocking, "first").await;
    api.say(&blocking, "second")
        .await
        .assert_error(409, "action_pending");
}

#[tokio::test]
async fn survey_questions_round_trip() {
    let api = start().await;
    let cid = api.create("survey").await;
    let ev = api.say_stream(&cid, "set me up").await;
    let action = find(&ev, "stream.action_required")["action"].clone();
    assert_action_shape(&action, "user_question");
    let qs = action["questions"].as_array().expect("questions");
    assert_eq!(qs.len(), 3);
    assert_eq!(qs[0]["multiSelect"], false);
    assert!(qs[0]["options"].as_array().is_some_and(|o| o.len() >= 2));
    assert_eq!(qs[1]["multiSelect"], true);
    assert!(qs[1]["options"]
        .as_array()
        .is_some_and(|o| o.iter().all(|x| x["preview"].is_string())));
    assert_eq!(qs[2]["required"], false);
    assert!(qs[2].get("options").is_none());
    assert_eq!(last(&ev)["status"], "requires_action");

    let aid = action["id"].as_str().expect("id");
    let q0 = qs[0]["question"].as_str().expect("q");
    let q1 = qs[1]["question"].as_str().expect("q");
    let q2 = qs[2]["question"].as_str().expect("q");
    // a required answer is missing
    api.answer(
        &cid,
        aid,
        json!({ "resolution": { "type": "user_question", "answers": { q0: "pro" } } }),
    )
    .await
    .assert_error(400, "VALIDATION_ERROR");
    // not an option of a closed single choice
    api.answer(
        &cid,
        aid,
        json!({ "resolution": { "answers": { q0: "platinum", q1: ["beta"] } } }),
    )
    .await
    .assert_error(400, "VALIDATION_ERROR");
    api.answer(&cid, aid, json!({ "resolution": { "decision": "allow" } }))
        .await
        .assert_error(400, "VALIDATION_ERROR");

    let ev = api
        .answer(
            &cid,
            aid,
            json!({ "resolution": { "type": "user_question",
                                    "answers": { q0: "pro", q1: ["dark_mode", "my own idea"], q2: "thanks" } },
                    "stream": true }),
        )
        .await
        .events();
    assert_eq!(ev[0]["type"], "stream.action_resolved");
    assert_eq!(ev[0]["resolution"]["answers"][q0], "pro");
    let done = last(&ev);
    assert_eq!(
        done["content"],
        "Thanks for your answers.\n\n- Plan: Pro\n- Features: Dark mode, my own idea\n- Notes: thanks"
    );
    let conv = api.conversation(&cid).await;
    let entry = &conv["messages"][1]["metadata"]["pendingActions"][0];
    assert_eq!(entry["status"], "resolved");
    assert_eq!(
        entry["resolution"]["answers"][q1],
        json!(["dark_mode", "my own idea"])
    );
    assert!(entry.get("executionStatus").is_none());

    // skipping
    let action = api.pause(&cid, "again").await;
    let r = api
        .answer(
            &cid,
            action["id"].as_str().expect("id"),
            json!({ "resolution": { "type": "user_question", "answers": {}, "cancelled": true } }),
        )
        .await;
    assert_eq!(
        r.json["message"]["content"],
        "No problem, I skipped the survey."
    );
    assert_eq!(r.json["action"]["resolution"]["cancelled"], true);
}

#[tokio::test]
async fn feedback_questions_are_all_optional() {
    let api = start().await;
    let cid = api.create("feedback").await;
    let ev = api.say_stream(&cid, "bye").await;
    assert_eq!(
        last(&ev)["content"],
        "Before you go, two optional questions about this chat."
    );
    let action = find(&ev, "stream.action_required")["action"].clone();
    assert_action_shape(&action, "user_question");
    let qs = action["questions"].as_array().expect("questions");
    assert_eq!(qs.len(), 2);
    assert!(qs.iter().all(|q| q["required"] == json!(false)));
    assert!(qs[0]["options"].as_array().is_some_and(|o| o.len() == 3));
    assert_eq!(qs[0]["allowFreeText"], false);
    assert!(qs[1].get("options").is_none());
    assert_eq!(qs[1]["placeholder"], "Optional comments");
    // nothing answered is a valid answer
    let r = api
        .answer(
            &cid,
            action["id"].as_str().expect("id"),
            json!({ "resolution": { "type": "user_question", "answers": {} } }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["message"]["content"], "Thanks for the feedback.");
    // Skip
    let action = api.pause(&cid, "bye again").await;
    let r = api
        .answer(
            &cid,
            action["id"].as_str().expect("id"),
            json!({ "resolution": { "type": "user_question", "answers": {}, "cancelled": true } }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["message"]["content"], "No problem, maybe next time.");
    assert_eq!(r.json["action"]["resolution"]["cancelled"], true);
}

#[tokio::test]
async fn deploy_asks_one_free_text_question() {
    let api = start().await;
    let r = api.get("/agents/deploy").await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["name"], "Deploy");
    let cid = api.create("deploy").await;
    let ev = api.say_stream(&cid, "ship it").await;
    let done = last(&ev);
    assert_eq!(done["status"], "requires_action");
    assert_eq!(done["content"], "Which environment should I deploy to?");
    let action = find(&ev, "stream.action_required")["action"].clone();
    assert_action_shape(&action, "user_question");
    assert_eq!(
        action["questions"],
        json!([{ "question": "Which environment?", "placeholder": "e.g. staging" }])
    );
    // the paused turn (E5) carries exactly that one action
    let conv = api.conversation(&cid).await;
    let pending = conv["pendingActions"].as_array().expect("pendingActions");
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0]["id"], action["id"]);
    assert_eq!(pending[0]["questions"], action["questions"]);
    // block policy: no new message while it waits
    api.say(&cid, "hello?")
        .await
        .assert_error(409, "action_pending");

    let aid = action["id"].as_str().expect("id");
    // the question is required
    api.answer(
        &cid,
        aid,
        json!({ "resolution": { "type": "user_question", "answers": { "Which environment?": "  " } } }),
    )
    .await
    .assert_error(400, "VALIDATION_ERROR");
    let ev = api
        .answer(
            &cid,
            aid,
            json!({ "resolution": { "type": "user_question",
                                    "answers": { "Which environment?": "staging" } },
                    "stream": true }),
        )
        .await
        .events();
    assert_eq!(ev[0]["type"], "stream.action_resolved");
    assert_eq!(
        ev[0]["resolution"]["answers"]["Which environment?"],
        "staging"
    );
    let done = last(&ev);
    assert_eq!(done["status"], "completed");
    assert_eq!(done["content"], "Deploying to staging.");
    let conv = api.conversation(&cid).await;
    assert_eq!(conv["pendingActions"], json!([]));
    let log = api
        .get(&format!("/_dev/resolutions?conversationId={cid}"))
        .await;
    let entries = log.json["resolutions"].as_array().expect("resolutions");
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[1]["status"], 200);

    // Skip
    let action = api.pause(&cid, "again").await;
    let r = api
        .answer(
            &cid,
            action["id"].as_str().expect("id"),
            json!({ "resolution": { "type": "user_question", "answers": {}, "cancelled": true } }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["message"]["content"], "Deployment cancelled.");
    assert_eq!(api.conversation(&cid).await["pendingActions"], json!([]));

    // lapsing (generic `_dev/expire`): cancelled answers by system:timeout
    let action = api.pause(&cid, "once more").await;
    let r = api
        .post("/_dev/expire", json!({ "actionId": action["id"] }))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["action"]["resolvedBy"], "system:timeout");
    assert_eq!(r.json["action"]["resolution"]["cancelled"], true);
    let conv = api.conversation(&cid).await;
    assert_eq!(conv["pendingActions"], json!([]));
    let msgs = conv["messages"].as_array().expect("messages");
    assert_eq!(
        msgs[msgs.len() - 1]["content"],
        "The questions expired, so I went ahead without your answers."
    );
}

#[tokio::test]
async fn hasty_expires_on_its_own() {
    let api = start().await;
    let cid = api.create("hasty").await;
    let ev = api.say_stream(&cid, "restart it").await;
    let action = find(&ev, "stream.action_required")["action"].clone();
    assert_eq!(action["toolName"], "restart_service");
    assert_eq!(
        last(&ev)["content"],
        "I want to restart the web service. Approve within 1 second, or I will give up."
    );
    // hasty_expiry_secs = 1 (test_config), by the server's clock
    assert_eq!(lifetime_ms(&action), 1000, "{action}");
    // the timer settles it without any answer: its continuation is stored (polled, so a busy
    // machine only makes this wait longer)
    let mut msgs = Vec::new();
    for _ in 0..100 {
        let r = api.get(&format!("/conversations/{cid}/messages")).await;
        msgs = r.json["messages"].as_array().expect("messages").clone();
        if msgs.len() >= 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(msgs.len(), 3, "{msgs:?}");
    assert!(
        millis(&msgs[2], "createdAt") >= millis(&action, "expiresAt"),
        "the continuation comes at the deadline, not before: {} vs {action}",
        msgs[2]
    );
    let entry = &msgs[1]["metadata"]["pendingActions"][0];
    assert_eq!(entry["status"], "resolved");
    assert_eq!(entry["resolvedBy"], "system:timeout");
    assert_eq!(entry["resolution"]["decision"], "deny");
    assert_eq!(entry["executionStatus"], "expired");
    assert_eq!(msgs[2]["role"], "assistant");
    assert_eq!(
        msgs[2]["content"],
        "The request expired, so I did not run it."
    );
    assert_eq!(api.conversation(&cid).await["pendingActions"], json!([]));
    api.answer(
        &cid,
        action["id"].as_str().expect("id"),
        json!({ "resolution": { "decision": "allow" } }),
    )
    .await
    .assert_error(410, "action_expired");
    // the composer is free again; approving in time runs the tool
    let action = api.pause(&cid, "again").await;
    let r = api
        .answer(
            &cid,
            action["id"].as_str().expect("id"),
            json!({ "resolution": { "decision": "allow" } }),
        )
        .await;
    assert_eq!(r.json["message"]["content"], "Restarted the web service.");
}

// ---------------------------------------------------------------- client tools (host)

/// The exact wire shape of the `host` agent's `client_tool` action: no card fields, no deadline.
fn assert_client_tool_shape(a: &Value) {
    assert!(is_id(&a["id"], "act"), "{a}");
    assert!(is_id(&a["messageId"], "msg"), "{a}");
    assert!(is_id(&a["toolCallId"], "call"), "{a}");
    assert!(a["createdAt"].is_string(), "{a}");
    let mut rest = a.clone();
    for key in ["id", "messageId", "toolCallId", "createdAt"] {
        rest.as_object_mut().expect("object").remove(key);
    }
    assert_eq!(
        rest,
        json!({ "type": "client_tool", "toolName": "get_selection", "args": {},
                "status": "pending", "version": 1 })
    );
}

#[tokio::test]
async fn host_asks_the_page_and_continues_with_the_result() {
    let api = start().await;
    let r = api.get("/agents/host").await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["name"], "Host page tools");
    assert_eq!(
        r.json["description"],
        "Asks the embedding page for the text selected on it"
    );

    let cid = api.create("host").await;
    let ev = api.say_stream(&cid, "What did I select?").await;
    assert_eq!(
        types(&ev)
            .iter()
            .filter(|t| **t != "stream.text")
            .copied()
            .collect::<Vec<_>>(),
        ["stream.start", "stream.action_required", "stream.done"]
    );
    let required = find(&ev, "stream.action_required");
    assert_eq!(required["conversationId"], json!(cid));
    let action = required["action"].clone();
    assert_client_tool_shape(&action);
    assert_eq!(required["messageId"], action["messageId"]);
    let done = last(&ev);
    assert_eq!(done["status"], "requires_action");
    assert_eq!(
        done["content"],
        "Let me look at what you selected on the page."
    );
    assert_eq!(done["messageId"], action["messageId"]);
    assert_eq!(done["pendingActions"], json!([action]));

    // E5 restores it as open, and on the paused message
    let conv = api.conversation(&cid).await;
    assert_eq!(conv["pendingActions"], json!([action]));
    assert_eq!(conv["messages"][1]["id"], action["messageId"]);
    assert_eq!(
        conv["messages"][1]["metadata"]["pendingActions"],
        json!([action])
    );

    // the page answers with the selection
    let aid = action["id"].as_str().expect("id");
    let posted = json!({ "type": "client_tool", "result": { "text": "hello world" } });
    let r = api
        .answer(&cid, aid, json!({ "resolution": posted, "stream": true }))
        .await;
    let ev = r.events();
    assert_eq!(
        types(&ev)
            .iter()
            .filter(|t| **t != "stream.text")
            .copied()
            .collect::<Vec<_>>(),
        ["stream.action_resolved", "stream.start", "stream.done"]
    );
    let resolved = &ev[0];
    assert_eq!(resolved["actionId"], json!(aid));
    assert_eq!(resolved["status"], "resolved");
    assert_eq!(resolved["resolution"], posted);
    let done = last(&ev);
    assert_eq!(done["status"], "completed");
    assert_eq!(done["content"], "You selected: hello world");
    assert!(done.get("pendingActions").is_none(), "{done}");
    assert_ne!(done["messageId"], action["messageId"]);

    let conv = api.conversation(&cid).await;
    assert_eq!(conv["pendingActions"], json!([]));
    let entry = &conv["messages"][1]["metadata"]["pendingActions"][0];
    assert_eq!(entry["status"], "resolved");
    assert_eq!(entry["resolution"], posted);
    assert_eq!(entry["resolvedBy"], "user");
    assert!(entry.get("executionStatus").is_none(), "{entry}");
    assert_eq!(conv["messages"][2]["content"], "You selected: hello world");

    // logged as received; a second answer is too late
    let log = api
        .get(&format!("/_dev/resolutions?conversationId={cid}"))
        .await;
    assert_eq!(
        log.json["resolutions"],
        json!([{ "conversationId": cid, "actionId": aid, "userId": null,
                 "resolution": posted, "version": null, "status": 200 }])
    );
    api.answer(&cid, aid, json!({ "resolution": posted }))
        .await
        .assert_error(409, "action_not_pending");
}

#[tokio::test]
async fn host_reports_an_empty_selection_and_page_errors() {
    let api = start().await;
    let cid = api.create("host").await;
    for (result, reply) in [
        (json!({ "text": "" }), "Nothing is selected."),
        (json!({}), "Nothing is selected."),
        (
            json!({ "text": "line one\nline two" }),
            "You selected: line one\nline two",
        ),
    ] {
        let action = api.pause(&cid, "selection?").await;
        assert_client_tool_shape(&action);
        let r = api
            .answer(
                &cid,
                action["id"].as_str().expect("id"),
                json!({ "resolution": { "type": "client_tool", "result": result } }),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(r.json["status"], "completed");
        assert_eq!(r.json["action"]["status"], "resolved");
        assert_eq!(r.json["action"]["resolution"]["result"], result);
        assert_eq!(r.json["message"]["content"], reply);
        assert!(r.json.get("pendingActions").is_none());
    }
    // the page could not run the tool; `type` may be left out (inferred from the action)
    let action = api.pause(&cid, "selection?").await;
    let r = api
        .answer(
            &cid,
            action["id"].as_str().expect("id"),
            json!({ "resolution": { "error": "Selection API unavailable" } }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        r.json["action"]["resolution"],
        json!({ "type": "client_tool", "error": "Selection API unavailable" })
    );
    assert_eq!(
        r.json["message"]["content"],
        "The page could not run get_selection: Selection API unavailable"
    );
    assert_eq!(api.conversation(&cid).await["pendingActions"], json!([]));
}

#[tokio::test]
async fn host_refuses_resolutions_that_are_not_client_tool_answers() {
    let api = start().await;
    let cid = api.create("host").await;
    let action = api.pause(&cid, "selection?").await;
    let aid = action["id"].as_str().expect("id");
    for resolution in [
        json!({ "type": "tool_approval", "decision": "allow" }),
        json!({ "type": "user_question", "answers": {} }),
        json!({ "decision": "allow" }),
        json!({ "type": "client_tool" }),
        json!({ "type": "client_tool", "result": null }),
        json!({ "type": "client_tool", "error": "" }),
        json!({ "type": "client_tool", "error": 42 }),
        json!({ "type": "client_tool", "result": { "text": "a" }, "error": "b" }),
    ] {
        let r = api
            .answer(&cid, aid, json!({ "resolution": resolution }))
            .await;
        r.assert_error(400, "VALIDATION_ERROR");
    }
    // a client_tool answer does not fit an approval either
    let support = api.create("support").await;
    let approval = api.pause(&support, "hello").await;
    api.answer(
        &support,
        approval["id"].as_str().expect("id"),
        json!({ "resolution": { "type": "client_tool", "result": { "text": "a" } } }),
    )
    .await
    .assert_error(400, "VALIDATION_ERROR");

    // still open after every refusal; each refusal was logged with its status
    assert_eq!(
        api.conversation(&cid).await["pendingActions"],
        json!([action])
    );
    let log = api
        .get(&format!("/_dev/resolutions?conversationId={cid}"))
        .await;
    let log = log.json["resolutions"]
        .as_array()
        .expect("resolutions")
        .clone();
    assert_eq!(log.len(), 8);
    assert!(log.iter().all(|e| e["status"] == 400));
    assert_eq!(
        log[0]["resolution"],
        json!({ "type": "tool_approval", "decision": "allow" })
    );

    // _dev/next-answer applies as to any action; the armed refusal is used up once
    let r = api
        .post(
            "/_dev/next-answer",
            json!({ "conversationId": cid, "refuse": "conversation_busy" }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let answer = json!({ "resolution": { "type": "client_tool", "result": { "text": "x" } } });
    api.answer(&cid, aid, answer.clone())
        .await
        .assert_error(409, "conversation_busy");
    let r = api.answer(&cid, aid, answer).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["message"]["content"], "You selected: x");
}

#[tokio::test]
async fn host_client_tool_does_not_block_messages_and_can_lapse() {
    let api = start().await;
    let cid = api.create("host").await;
    let first = api.pause(&cid, "selection?").await;
    // not person-facing: the block policy (PROTOCOL §9.8) does not refuse the next message,
    // and the open client tool is not cancelled by it either
    let second = api.pause(&cid, "and now?").await;
    assert_client_tool_shape(&second);
    assert_ne!(first["id"], second["id"]);
    assert_eq!(
        api.conversation(&cid).await["pendingActions"],
        json!([first, second])
    );
    // the page answers the older one late: it still continues
    let r = api
        .answer(
            &cid,
            first["id"].as_str().expect("id"),
            json!({ "resolution": { "type": "client_tool", "result": { "text": "old" } } }),
        )
        .await;
    assert_eq!(r.json["message"]["content"], "You selected: old");
    // no deadline of its own, but _dev/expire lets it lapse like any action
    let sid = second["id"].as_str().expect("id");
    let r = api.post("/_dev/expire", json!({ "actionId": sid })).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["action"]["resolvedBy"], "system:timeout");
    assert_eq!(
        r.json["action"]["resolution"],
        json!({ "type": "client_tool", "error": "The request expired." })
    );
    assert!(r.json["action"].get("expiresAt").is_none());
    let msgs = api.get(&format!("/conversations/{cid}/messages")).await;
    let msgs = msgs.json["messages"].as_array().expect("messages").clone();
    assert_eq!(
        msgs.last().expect("message")["content"],
        "The page did not answer, so I went ahead without it."
    );
    assert_eq!(api.conversation(&cid).await["pendingActions"], json!([]));
    api.answer(
        &cid,
        sid,
        json!({ "resolution": { "type": "client_tool", "result": {} } }),
    )
    .await
    .assert_error(410, "action_expired");
}

/// Issue 14 (seed 004): an approved tool executes, then completes; the record says so, the run
/// is counted once, and a retry with the same `decisionKey` replays instead of running again.
#[tokio::test]
async fn i14_approved_tool_executes_once_and_a_repeated_key_replays() {
    let api = start().await;
    let cid = api.create("support").await;
    let action = api.pause(&cid, "hello").await;
    let aid = action["id"].as_str().expect("id");
    assert_eq!(action["executionStatus"], json!("pending_approval"));
    let body = json!({ "resolution": { "type": "tool_approval", "decision": "allow" },
                       "decisionKey": "k-1" });
    let first = api.answer(&cid, aid, body.clone()).await;
    assert_eq!(first.status, 200, "{}", first.text);
    assert_eq!(first.json["action"]["executionStatus"], json!("completed"));
    assert_eq!(
        first.json["action"]["executionResult"]["status"],
        json!("sent")
    );
    assert!(first.json["action"]["resolvedAt"].is_string());
    let again = api.answer(&cid, aid, body).await;
    assert_eq!(again.status, 200, "{}", again.text);
    let other = api
        .answer(
            &cid,
            aid,
            json!({ "resolution": { "type": "tool_approval", "decision": "allow" },
                    "decisionKey": "k-2" }),
        )
        .await;
    other.assert_error(409, "action_not_pending");
    let count = api.get(&format!("/_dev/executions?actionId={aid}")).await;
    assert_eq!(count.json["count"], json!(1), "{}", count.text);
}

/// Issue 14: `failExecution` makes the next approved tool fail with that message.
#[tokio::test]
async fn i14_an_armed_failure_reads_failed_with_the_message() {
    let api = start().await;
    let cid = api.create("support").await;
    let action = api.pause(&cid, "hello").await;
    let aid = action["id"].as_str().expect("id");
    let r = api
        .post(
            "/_dev/next-answer",
            json!({ "conversationId": cid, "failExecution": "SMTP refused" }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let done = api
        .answer(
            &cid,
            aid,
            json!({ "resolution": { "type": "tool_approval", "decision": "allow" } }),
        )
        .await;
    assert_eq!(done.json["action"]["executionStatus"], json!("failed"));
    assert_eq!(done.json["action"]["executionError"], json!("SMTP refused"));
}

/// Issue 14 (seed 004): with `newVersionOnEdit`, an edited approval is answered with version 2
/// of the action, pending, carrying the edit; nothing ran.
#[tokio::test]
async fn i14_an_edit_can_be_answered_with_a_new_version() {
    let api = start().await;
    let cid = api.create("support").await;
    let action = api.pause(&cid, "hello").await;
    let aid = action["id"].as_str().expect("id");
    api.post(
        "/_dev/next-answer",
        json!({ "conversationId": cid, "newVersionOnEdit": true }),
    )
    .await;
    let mut edited = action["args"].clone();
    edited["to"] = json!("alex@example.com");
    let r = api
        .answer(
            &cid,
            aid,
            json!({ "resolution": { "type": "tool_approval", "decision": "allow",
                                    "approvedArgs": edited }, "version": 1 }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["status"], json!("requires_action"));
    assert_eq!(r.json["action"]["version"], json!(2));
    assert_eq!(r.json["action"]["status"], json!("pending"));
    assert_eq!(r.json["action"]["args"]["to"], json!("alex@example.com"));
    let count = api.get(&format!("/_dev/executions?actionId={aid}")).await;
    assert_eq!(count.json["count"], json!(0));
}

/// Issue 15: the scripted Chat Completions endpoint speaks OpenAI's shape: `data:` chunks
/// with `choices[0].delta` (text, `tool_calls` by index with the arguments in pieces), a
/// usage chunk and `[DONE]`; or one `chat.completion` object; a 400 error object without
/// `messages`.
#[tokio::test]
async fn i15_chat_completions_endpoint() {
    let api = start().await;
    let url = format!("{}/v1/chat/completions", api.root);
    let res = api
        .send(api.http.post(&url).json(&json!({
            "model": "scripted", "stream": true,
            "messages": [{"role": "user", "content": "What is the weather?"}]
        })))
        .await;
    assert_eq!(res.status, 200);
    assert!(res.header("content-type").starts_with("text/event-stream"));
    let blocks: Vec<&str> = res.text.split("\n\n").filter(|b| !b.is_empty()).collect();
    assert_eq!(blocks.last(), Some(&"data: [DONE]"));
    let chunks: Vec<Value> = blocks[..blocks.len() - 1]
        .iter()
        .map(|b| serde_json::from_str(b.strip_prefix("data: ").expect("data line")).unwrap())
        .collect();
    assert!(chunks
        .iter()
        .all(|c| c["object"] == "chat.completion.chunk"));
    let text: String = chunks
        .iter()
        .filter_map(|c| c["choices"][0]["delta"]["content"].as_str())
        .collect();
    assert_eq!(text, "It is 24 °C in Izmir.");
    let args: String = chunks
        .iter()
        .filter_map(|c| c["choices"][0]["delta"]["tool_calls"][0]["function"]["arguments"].as_str())
        .collect();
    assert_eq!(args, r#"{"city":"Izmir"}"#);
    assert_eq!(chunks.last().unwrap()["usage"]["total_tokens"], 16);

    let res = api
        .send(api.http.post(&url).json(&json!({
            "model": "scripted", "messages": [{"role": "user", "content": "Hello"}]
        })))
        .await;
    assert_eq!(res.status, 200);
    assert_eq!(res.json["object"], "chat.completion");
    assert_eq!(
        res.json["choices"][0]["message"]["content"],
        "You said: Hello (1 messages so far)"
    );

    let res = api
        .send(api.http.post(&url).json(&json!({"model": "m"})))
        .await;
    assert_eq!(res.status, 400);
    assert_eq!(res.json["error"]["type"], "invalid_request_error");
    assert!(res.json["error"]["message"]
        .as_str()
        .is_some_and(|m| !m.is_empty()));
}

/// Issue 15: the scripted Responses endpoint streams `event:` + `data:` frames whose `type`
/// names the event, chains by `previous_response_id` (refusing one it cannot have made), and
/// stops with `requires_action` and a pending approval when asked to send an email.
#[tokio::test]
async fn i15_responses_endpoint() {
    let api = start().await;
    let url = format!("{}/v1/responses", api.root);
    let res = api
        .send(api.http.post(&url).json(&json!({
            "model": "scripted", "stream": true,
            "input": [{"role": "user", "content": "What is the weather?"}]
        })))
        .await;
    assert_eq!(res.status, 200);
    assert!(res.header("content-type").starts_with("text/event-stream"));
    let events: Vec<Value> = res
        .text
        .split("\n\n")
        .filter(|b| !b.is_empty())
        .map(|b| {
            let (event, data) = b.split_once('\n').expect("event and data lines");
            let data: Value =
                serde_json::from_str(data.strip_prefix("data: ").expect("data line")).unwrap();
            assert_eq!(
                Some(data["type"].as_str().unwrap()),
                event.strip_prefix("event: ")
            );
            data
        })
        .collect();
    assert_eq!(events[0]["type"], "response.created");
    assert_eq!(events[0]["response"]["id"], "resp_1");
    let text: String = events
        .iter()
        .filter(|e| e["type"] == "response.output_text.delta")
        .filter_map(|e| e["delta"].as_str())
        .collect();
    assert_eq!(text, "It is 24 °C in Izmir.");
    let done = events
        .iter()
        .find(|e| e["type"] == "response.output_item.done")
        .expect("the function call is done");
    assert_eq!(done["item"]["name"], "get_weather");
    assert_eq!(done["item"]["arguments"], r#"{"city":"Izmir"}"#);
    assert!(events
        .iter()
        .any(|e| e["annotation"]["type"] == "url_citation"));
    let last = events.last().unwrap();
    assert_eq!(last["type"], "response.completed");
    assert_eq!(last["response"]["usage"]["total_tokens"], 16);

    // Chained, whole.
    let res = api
        .send(api.http.post(&url).json(&json!({
            "model": "scripted", "previous_response_id": "resp_1", "input": "Hello"
        })))
        .await;
    assert_eq!(res.status, 200);
    assert_eq!(res.json["id"], "resp_2");
    assert_eq!(
        res.json["output"][0]["content"][0]["text"],
        "You said: Hello (turn 2)"
    );
    let res = api
        .send(api.http.post(&url).json(&json!({
            "model": "scripted", "previous_response_id": "nope", "input": "Hello"
        })))
        .await;
    assert_eq!(res.status, 400);
    assert_eq!(res.json["error"]["code"], "previous_response_not_found");

    let res = api
        .send(api.http.post(&url).json(&json!({
            "model": "scripted", "input": "Email the report to Ayşe"
        })))
        .await;
    assert_eq!(res.json["status"], "requires_action");
    assert_eq!(res.json["pendingActions"][0]["kind"], "tool_approval");
    assert_eq!(res.json["pendingActions"][0]["toolName"], "send_email");

    let res = api
        .send(api.http.post(&url).json(&json!({"model": "m"})))
        .await;
    assert_eq!(res.status, 400);
    assert_eq!(res.json["error"]["type"], "invalid_request_error");
}

/// Issue 15: the scripted A2A agent publishes its card, answers `message/stream` as SSE of
/// JSON-RPC responses (a booking waits for input; the reply with the task id completes it
/// with an appended artifact) and `message/send` whole, and refuses other methods.
#[tokio::test]
async fn i15_a2a_endpoint() {
    let api = start().await;
    let card = api
        .send(
            api.http
                .get(format!("{}/a2a/.well-known/agent-card.json", api.root)),
        )
        .await;
    assert_eq!(card.status, 200);
    assert_eq!(card.json["name"], "Travel Agent");
    assert_eq!(card.json["capabilities"]["streaming"], true);
    let url = format!("{}/a2a", api.root);
    let message = |text: &str, task: Option<&str>| {
        let mut m = json!({"kind": "message", "messageId": "u1", "role": "user",
                           "parts": [{"kind": "text", "text": text}]});
        if let Some(task) = task {
            m["taskId"] = json!(task);
            m["contextId"] = json!("ctx_scripted");
        }
        m
    };
    let res = api
        .send(api.http.post(&url).json(&json!({"jsonrpc": "2.0", "id": 1,
            "method": "message/stream", "params": {"message": message("Book a flight", None)}})))
        .await;
    assert_eq!(res.status, 200);
    assert!(res.header("content-type").starts_with("text/event-stream"));
    let results: Vec<Value> = res
        .text
        .split("\n\n")
        .filter(|b| !b.is_empty())
        .map(|b| {
            let v: Value =
                serde_json::from_str(b.strip_prefix("data: ").expect("data line")).unwrap();
            assert_eq!(v["jsonrpc"], "2.0");
            assert_eq!(v["id"], 1);
            v["result"].clone()
        })
        .collect();
    assert_eq!(results[0]["kind"], "task");
    let last = results.last().unwrap();
    assert_eq!(last["status"]["state"], "input-required");
    let task = last["taskId"].as_str().unwrap().to_owned();

    let res = api
        .send(api.http.post(&url).json(&json!({"jsonrpc": "2.0", "id": 2,
            "method": "message/send", "params": {"message": message("Friday", Some(&task))}})))
        .await;
    assert_eq!(res.json["result"]["kind"], "task");
    assert_eq!(res.json["result"]["status"]["state"], "completed");
    assert_eq!(
        res.json["result"]["artifacts"][0]["parts"][0]["text"],
        "Booked for Friday: flight TK2410 to Izmir."
    );

    let res = api
        .send(
            api.http
                .post(&url)
                .json(&json!({"jsonrpc": "2.0", "id": 3, "method": "tasks/nope"})),
        )
        .await;
    assert_eq!(res.json["error"]["code"], -32601);
}

/// Issue 15 (C20): the scripted Console action endpoint takes the answer to the approval a
/// response waits on and answers with the continuation, a new response chained to it
/// (streamed or whole); an action that does not belong to that response is refused as no
/// longer pending.
#[tokio::test]
async fn i15_responses_action_endpoint() {
    let api = start().await;
    let url = format!("{}/v1/actions/act_resp_3", api.root);
    let res = api
        .send(api.http.post(&url).json(&json!({
            "resolution": {"type": "tool_approval", "decision": "allow"},
            "stream": false, "previous_response_id": "resp_3", "model": "scripted"
        })))
        .await;
    assert_eq!(res.status, 200);
    assert_eq!(
        res.json["id"], "resp_4",
        "chained to the response that waited"
    );
    assert_eq!(res.json["status"], "completed");
    assert_eq!(
        res.json["output"][0]["content"][0]["text"],
        "Sent the report to ayse@example.com."
    );
    let res = api
        .send(api.http.post(&url).json(&json!({
            "resolution": {"decision": "deny", "comment": "not today"},
            "stream": true, "previous_response_id": "resp_3"
        })))
        .await;
    assert_eq!(res.status, 200);
    assert!(res.header("content-type").starts_with("text/event-stream"));
    assert!(res.text.contains("response.completed"));
    assert!(res.text.contains("not today"));
    let res = api
        .send(api.http.post(&url).json(&json!({
            "resolution": {"decision": "allow"}, "previous_response_id": "resp_2"
        })))
        .await;
    assert_eq!(res.status, 409);
    assert_eq!(res.json["error"]["code"], "action_not_pending");
}

/// The `data` of each event of a Cogitator stream (their own shape: a `type`, no timestamp),
/// checking that it ends with `[DONE]` when `done`.
fn cogitator_events(res: &Res, done: bool) -> Vec<Value> {
    assert_eq!(res.status, 200, "{}", res.text);
    assert!(res.header("content-type").starts_with("text/event-stream"));
    let mut data: Vec<&str> = res
        .text
        .split("\n\n")
        .filter(|b| !b.is_empty())
        .map(|b| b.strip_prefix("data: ").expect("a data line"))
        .collect();
    assert_eq!(data.last() == Some(&"[DONE]"), done, "{}", res.text);
    if done {
        data.pop();
    }
    data.iter()
        .map(|d| {
            let v: Value = serde_json::from_str(d).expect("event JSON");
            assert!(v["type"].is_string(), "type in {d}");
            v
        })
        .collect()
}

/// The Cogitator server's shapes (seed 001, PROTOCOL §11.1, C31): agents, a streamed run that
/// pauses with `pendingApprovals`, a resume that decides one call of two (still paused) then
/// the other (completed), the refusals `RUN_NOT_PAUSED` and `THREAD_ACCESS_DENIED`, and a new
/// message that declines the waiting calls.
#[tokio::test]
async fn i15_cogitator_endpoint() {
    let api = start().await;
    let base = format!("{}/cogitator", api.root);
    let agents = api.send(api.http.get(format!("{base}/agents"))).await;
    assert_eq!(agents.status, 200);
    assert_eq!(agents.json["agents"][0]["name"], "support");

    let res = api
        .send(
            api.http
                .post(format!("{base}/agents/support/stream"))
                .json(&json!({"input": "Refund both orders", "threadId": "t_contract"})),
        )
        .await;
    let events = cogitator_events(&res, true);
    let kinds: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(kinds[0], "start");
    assert_eq!(events[0]["threadId"], "t_contract");
    assert!(kinds.contains(&"text-delta"));
    assert!(kinds.contains(&"tool-call-start") && kinds.contains(&"tool-result"));
    assert_eq!(kinds[kinds.len() - 2..], ["approval-required", "finish"]);
    let finish = events.last().unwrap();
    assert_eq!(finish["status"], "paused");
    assert_eq!(finish["usage"]["totalTokens"], 20);
    let approvals = finish["pendingApprovals"].as_array().unwrap();
    assert_eq!(approvals.len(), 2);
    for a in approvals {
        for key in [
            "toolCallId",
            "toolName",
            "arguments",
            "description",
            "sideEffects",
        ] {
            assert!(a.get(key).is_some(), "{key} in {a}");
        }
    }
    assert_eq!(
        events[events.len() - 2]["approvals"],
        finish["pendingApprovals"]
    );
    let first = approvals[0]["toolCallId"].as_str().unwrap().to_owned();
    let second = approvals[1]["toolCallId"].as_str().unwrap().to_owned();
    assert_ne!(first, second);

    let resume = format!("{base}/agents/support/resume");
    // Another user may not resume it.
    let res = api
        .send(
            api.http
                .post(&resume)
                .header("x-user-id", "mallory")
                .json(&json!({"threadId": "t_contract", "defaultDecision": {"approved": true}})),
        )
        .await;
    res.assert_error(403, "THREAD_ACCESS_DENIED");
    // One call decided: still paused with the other.
    let res = api
        .send(
            api.http
                .post(&resume)
                .json(&json!({"threadId": "t_contract",
            "decisions": {first.as_str(): {"approved": true}}})),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.text);
    assert_eq!(res.json["status"], "paused");
    assert_eq!(
        res.json["pendingApprovals"][0]["toolCallId"],
        second.as_str()
    );
    assert_eq!(res.json["pendingApprovals"].as_array().unwrap().len(), 1);
    // The other declined: the run completes and says what it did.
    let res = api
        .send(
            api.http
                .post(&resume)
                .json(&json!({"threadId": "t_contract",
            "decisions": {second.as_str(): {"approved": false, "reason": "Too small"}}})),
        )
        .await;
    assert_eq!(res.json["status"], "completed");
    assert_eq!(
        res.json["output"],
        "Refunded 40 EUR for order A-1. Did not refund order A-2 (Too small)."
    );
    assert_eq!(res.json["toolCalls"][0]["name"], "refund");
    assert!(res.json.get("pendingApprovals").is_none());
    // Nothing waits any more.
    let res = api
        .send(
            api.http
                .post(&resume)
                .json(&json!({"threadId": "t_contract"})),
        )
        .await;
    res.assert_error(409, "RUN_NOT_PAUSED");
    let res = api
        .send(api.http.post(&resume).json(&json!({"threadId": ""})))
        .await;
    res.assert_error(400, "INVALID_INPUT");

    // A new message instead of a decision declines the waiting call.
    let run = format!("{base}/agents/support/run");
    let res = api
        .send(
            api.http
                .post(&run)
                .json(&json!({"input": "Refund A-1", "threadId": "t2"})),
        )
        .await;
    assert_eq!(res.json["status"], "paused");
    assert_eq!(res.json["output"], "Let me look up the order.");
    assert_eq!(res.json["toolCalls"][0]["name"], "lookup_order");
    let res = api
        .send(
            api.http
                .post(&run)
                .json(&json!({"input": "Hello", "threadId": "t2"})),
        )
        .await;
    assert_eq!(res.json["status"], "completed");
    assert_eq!(res.json["output"], "You said: Hello");
    let res = api
        .send(api.http.post(&resume).json(&json!({"threadId": "t2",
            "defaultDecision": {"approved": true}})))
        .await;
    res.assert_error(409, "RUN_NOT_PAUSED");

    // Errors in the server's envelope and in the stream.
    let res = api
        .send(
            api.http
                .post(&run)
                .json(&json!({"input": "please fail", "threadId": "t3"})),
        )
        .await;
    res.assert_error(503, "LLM_UNAVAILABLE");
    let res = api
        .send(
            api.http
                .post(format!("{base}/agents/support/stream"))
                .json(&json!({"input": "please fail", "threadId": "t3"})),
        )
        .await;
    let events = cogitator_events(&res, false);
    assert_eq!(events.last().unwrap()["type"], "error");
    assert_eq!(events.last().unwrap()["code"], "LLM_UNAVAILABLE");
    let res = api
        .send(
            api.http
                .post(format!("{base}/agents/ghost/run"))
                .json(&json!({"input": "x"})),
        )
        .await;
    res.assert_error(404, "AGENT_NOT_FOUND");
    let res = api
        .send(api.http.post(&run).json(&json!({"input": "  "})))
        .await;
    res.assert_error(400, "INVALID_INPUT");
}

/// Issue 35: the Cogitator server's test hooks. A run asked "quietly" announces its pause with
/// `approval-required` only (`finish` says `paused` without repeating the calls); every resume
/// request is logged as received with the status and code it was answered with; a paused run
/// can be handed to another user (`THREAD_ACCESS_DENIED`) or dropped (`RUN_NOT_PAUSED`).
#[tokio::test]
async fn i35_cogitator_test_hooks() {
    let api = start().await;
    let base = format!("{}/cogitator", api.root);
    let res = api
        .send(
            api.http
                .post(format!("{base}/agents/support/stream"))
                .json(&json!({"input": "Refund order A-1 quietly", "threadId": "t_q"})),
        )
        .await;
    let events = cogitator_events(&res, true);
    let kinds: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(kinds[kinds.len() - 2..], ["approval-required", "finish"]);
    let finish = events.last().unwrap();
    assert_eq!(finish["status"], "paused");
    assert!(finish.get("pendingApprovals").is_none(), "{finish}");
    let call = events[events.len() - 2]["approvals"][0]["toolCallId"]
        .as_str()
        .unwrap()
        .to_owned();

    let resume = format!("{base}/agents/support/resume");
    let handed = api
        .send(
            api.http
                .post(format!("{base}/_dev/handover"))
                .json(&json!({"user": "someone-else"})),
        )
        .await;
    assert_eq!(handed.json["handedOver"], 1);
    let decide = json!({"threadId": "t_q", "decisions": {call.as_str(): {"approved": true}}});
    let res = api.send(api.http.post(&resume).json(&decide)).await;
    res.assert_error(403, "THREAD_ACCESS_DENIED");
    let dropped = api.send(api.http.post(format!("{base}/_dev/forget"))).await;
    assert_eq!(dropped.json["dropped"], 1);
    let res = api.send(api.http.post(&resume).json(&decide)).await;
    res.assert_error(409, "RUN_NOT_PAUSED");
    let res = api.send(api.http.post(&resume).body("not json")).await;
    res.assert_error(400, "INVALID_INPUT");

    let log = api.send(api.http.get(format!("{base}/_dev/resumes"))).await;
    assert_eq!(
        log.json["resumes"],
        json!([
            {"body": decide, "status": 403, "code": "THREAD_ACCESS_DENIED"},
            {"body": decide, "status": 409, "code": "RUN_NOT_PAUSED"},
            {"body": "not json", "status": 400, "code": "INVALID_INPUT"},
        ])
    );
    let refused = api
        .send(
            api.http
                .post(format!("{base}/_dev/handover"))
                .json(&json!({})),
        )
        .await;
    refused.assert_error(400, "INVALID_INPUT");
}
