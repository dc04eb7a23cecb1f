//! The agent server's endpoints the session calls, as data. The session says
//! what it asks for as a [`Call`] (an [`Endpoint`] with its values and the id its answer
//! comes back under) and hands the gateway nothing else: a gateway that plays the agent
//! server in the page reads the typed values, and only the agent server's own gateway renders
//! a call to HTTP ([`Call::http`]). No path, query or body is ever parsed back.
//!
//! Rendering keeps the rules of [`super::api`]: ids are percent-encoded path segments, and
//! a query parameter is sent only when truthy (`offset=0` is never sent).

use serde_json::{json, Value};

use super::session::{encode, HttpRequest, Method, RequestId};
use super::transport::reply::WireFile;

/// One call of the agent server's API, with the values it carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// `GET /agents`: the agent list.
    Agents,
    /// `GET /conversations?limit&agentId&offset`: a page of the history.
    Conversations {
        /// Only this agent's conversations.
        agent_id: Option<String>,
        /// Page size.
        limit: usize,
        /// Rows to skip (never sent when zero).
        offset: usize,
    },
    /// `POST /conversations` `{agentId, title?}`: a new conversation.
    CreateConversation {
        /// Whose conversation it is.
        agent_id: String,
        /// Its title, when the person gave one.
        title: Option<String>,
    },
    /// `GET /conversations/:id`: one conversation with its messages.
    Conversation {
        /// Which.
        conversation_id: String,
    },
    /// `PATCH /conversations/:id` `{title}`: a new title.
    Rename {
        /// Which.
        conversation_id: String,
        /// The title.
        title: String,
    },
    /// `DELETE /conversations/:id`.
    Delete {
        /// Which.
        conversation_id: String,
    },
    /// `GET /conversations/:id/messages?limit&offset&order=desc`: a page of messages, newest
    /// first.
    Messages {
        /// Which conversation.
        conversation_id: String,
        /// Page size.
        limit: usize,
        /// Messages to skip (never sent when zero).
        offset: usize,
    },
    /// `POST /conversations/:id/messages` `{message, stream, files?}`: the person's message.
    Send {
        /// Which conversation.
        conversation_id: String,
        /// The text.
        message: String,
        /// Whether the answer is streamed.
        stream: bool,
        /// The files (raw base64 content); not sent when there are none.
        files: Vec<WireFile>,
    },
    /// `POST /conversations/:cid/actions/:aid` `{resolution, stream, decisionKey, version?}`:
    /// an answer to a card.
    Resolve {
        /// The conversation the card is in.
        conversation_id: String,
        /// The action answered.
        action_id: String,
        /// The answer.
        resolution: Value,
        /// Whether the continuation is streamed.
        stream: bool,
        /// One key per decision, reused by its retries.
        decision_key: String,
        /// The action's version, when it has one.
        version: Option<i64>,
        /// The other cards of the same "Approve all" / "Deny all", still to be answered after
        /// this one with the same answer; empty for an answer on its own. Never part of the
        /// body: only a gateway reads it, to send them to a backend that decides a run's calls
        /// in one request.
        together: Vec<String>,
    },
}

/// One call of the session: the endpoint with its values, and the id its answer is reported
/// under. The gateway that plays the agent server in the page reads it as it is; only the
/// agent server's own gateway renders it to HTTP ([`Call::http`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// Id the result must be reported under.
    pub id: RequestId,
    /// What is asked, with its values.
    pub endpoint: Endpoint,
}

impl Call {
    /// The agent server's HTTP request for this call: method, path and query, JSON body.
    pub fn http(&self) -> HttpRequest {
        self.endpoint.request(self.id)
    }
}

impl Endpoint {
    /// The agent server's HTTP request for this endpoint, under `id`.
    pub fn request(&self, id: RequestId) -> HttpRequest {
        HttpRequest {
            id,
            method: self.method(),
            path: self.path(),
            body: self.body().map(|b| b.to_string()),
            headers: Vec::new(),
        }
    }

    /// The HTTP method.
    pub fn method(&self) -> Method {
        match self {
            Endpoint::Agents
            | Endpoint::Conversations { .. }
            | Endpoint::Conversation { .. }
            | Endpoint::Messages { .. } => Method::Get,
            Endpoint::CreateConversation { .. }
            | Endpoint::Send { .. }
            | Endpoint::Resolve { .. } => Method::Post,
            Endpoint::Rename { .. } => Method::Patch,
            Endpoint::Delete { .. } => Method::Delete,
        }
    }

    /// The path below the base URL, with its query.
    pub fn path(&self) -> String {
        match self {
            Endpoint::Agents => "/agents".to_owned(),
            Endpoint::Conversations {
                agent_id,
                limit,
                offset,
            } => {
                let mut path = format!("/conversations?limit={limit}");
                if let Some(agent) = agent_id {
                    path.push_str(&format!("&agentId={}", encode(agent)));
                }
                if *offset > 0 {
                    path.push_str(&format!("&offset={offset}"));
                }
                path
            }
            Endpoint::CreateConversation { .. } => "/conversations".to_owned(),
            Endpoint::Conversation { conversation_id }
            | Endpoint::Rename {
                conversation_id, ..
            }
            | Endpoint::Delete { conversation_id } => {
                format!("/conversations/{}", encode(conversation_id))
            }
            Endpoint::Messages {
                conversation_id,
                limit,
                offset,
            } => {
                let mut path = format!(
                    "/conversations/{}/messages?limit={limit}",
                    encode(conversation_id)
                );
                if *offset > 0 {
                    path.push_str(&format!("&offset={offset}"));
                }
                path.push_str("&order=desc");
                path
            }
            Endpoint::Send {
                conversation_id, ..
            } => format!("/conversations/{}/messages", encode(conversation_id)),
            Endpoint::Resolve {
                conversation_id,
                action_id,
                ..
            } => format!(
                "/conversations/{}/actions/{}",
                encode(conversation_id),
                encode(action_id)
            ),
        }
    }

    /// The JSON body, for the calls that have one.
    pub fn body(&self) -> Option<Value> {
        match self {
            Endpoint::CreateConversation { agent_id, title } => {
                let mut body = json!({ "agentId": agent_id });
                if let Some(title) = title {
                    body["title"] = Value::from(title.as_str());
                }
                Some(body)
            }
            Endpoint::Rename { title, .. } => Some(json!({ "title": title })),
            Endpoint::Send {
                message,
                stream,
                files,
                ..
            } => {
                let mut body = json!({ "message": message, "stream": stream });
                if !files.is_empty() {
                    body["files"] = files
                        .iter()
                        .map(|f| {
                            json!({ "name": f.name, "content": f.content,
                                    "mimeType": f.mime_type })
                        })
                        .collect();
                }
                Some(body)
            }
            Endpoint::Resolve {
                resolution,
                stream,
                decision_key,
                version,
                ..
            } => {
                let mut body = json!({ "resolution": resolution, "stream": stream,
                                       "decisionKey": decision_key });
                if let Some(v) = version {
                    body["version"] = json!(v);
                }
                Some(body)
            }
            _ => None,
        }
    }
}
