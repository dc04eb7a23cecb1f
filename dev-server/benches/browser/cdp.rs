//! DevTools protocol commands sent through chromedriver's `goog/cdp/execute` (commands only:
//! their events do not come back this way).

use fantoccini::wd::WebDriverCompatibleCommand;
use serde_json::{json, Value};

use super::harness::{ChatPage, Step};

/// One DevTools protocol command.
#[derive(Debug)]
struct Cdp {
    cmd: &'static str,
    params: Value,
}

impl WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _url: &url::Url) -> (http::Method, Option<String>) {
        let body = json!({ "cmd": self.cmd, "params": self.params });
        (http::Method::POST, Some(body.to_string()))
    }
}

/// Sends `cmd` with `params`; its result (`{}` for most commands).
pub async fn cdp(page: &ChatPage, cmd: &'static str, params: Value) -> Step<Value> {
    page.client
        .issue_cmd(Cdp { cmd, params })
        .await
        .map_err(|e| format!("{cmd}: {e}"))
}
