//! Reading one run's event stream (as `@ag-ui/encoder` writes it) into the reply: text, tool
//! steps and their results, the state the agent keeps, the agent's failure in its words, and
//! what the run waits on at its end (interrupts, confirmations), split anywhere.

use serde_json::{json, Value};

use super::super::backend::ReadError;
use super::super::reply::{
    content_text, drain_frames, parse_arguments, Delta, Failure, FailureKind, Reply, ReplyDecoder,
    ToolCall,
};
use super::interrupt;
use super::{CONFIRM_TOOL, SOURCE_KEY, STATE_KEY};
use crate::lenient;
use crate::sse::SseFrameDecoder;

/// Reads one run's event stream, split anywhere.
#[derive(Debug, Default)]
pub struct Decoder {
    frames: SseFrameDecoder,
    reply: Reply,
    /// Calls in the order they started: id, name, arguments text.
    calls: Vec<(String, String, String)>,
    /// The call a `TOOL_CALL_CHUNK` without an id continues.
    last_call: Option<String>,
    /// Interrupts of the run's end.
    interrupts: Vec<Value>,
    /// Calls the run's end names as waiting on the page.
    pending_calls: Option<Vec<String>>,
    state: Option<Value>,
    failed: bool,
}

impl Decoder {
    /// A decoder at the start of a run.
    pub fn new() -> Decoder {
        Decoder::default()
    }

    /// Feeds bytes as they arrived; returns what they completed.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Delta> {
        self.frames.push(bytes);
        self.drain(false)
    }

    /// The body ended: reads what was left.
    pub fn finish(&mut self) -> Vec<Delta> {
        self.drain(true)
    }

    /// What the run left: its tool calls and their results, the cards it waits on, the
    /// state to keep.
    pub fn ending(&self) -> Reply {
        let mut reply = self.reply.clone();
        reply.tool_calls = self
            .calls
            .iter()
            .map(|(id, name, args)| ToolCall {
                id: id.clone(),
                name: name.clone(),
                args: parse_arguments(args),
            })
            .collect();
        let mut cards: Vec<Value> = self.interrupts.iter().map(|i| self.interrupt(i)).collect();
        for call in &reply.tool_calls {
            let waits = match &self.pending_calls {
                Some(ids) => ids.contains(&call.id),
                None => call.name == CONFIRM_TOOL && !reply.results.contains_key(&call.id),
            };
            if waits && !cards.iter().any(|c| c["id"] == call.id.as_str()) {
                cards.push(confirmation(call));
            }
        }
        if !cards.is_empty() && !self.failed {
            reply.pending_actions = Some(Value::from(cards));
        }
        if let Some(state) = &self.state {
            reply.keep.insert(STATE_KEY.into(), state.clone());
        }
        reply
    }

    /// One interrupt as a card, with the call it names when the run streamed it.
    fn interrupt(&self, i: &Value) -> Value {
        let call_id = i["toolCallId"].as_str().unwrap_or_default();
        let call = self
            .calls
            .iter()
            .find(|(c, _, _)| c == call_id)
            .map(|(_, name, args)| (name.clone(), parse_arguments(args)));
        interrupt::card(i, call)
    }

    fn drain(&mut self, end: bool) -> Vec<Delta> {
        let mut frames = std::mem::take(&mut self.frames);
        let out = drain_frames(&mut frames, end, |frame, out| self.event(&frame.data, out));
        self.frames = frames;
        out
    }

    fn event(&mut self, data: &str, out: &mut Vec<Delta>) {
        let data = data.trim();
        if data.is_empty() {
            return;
        }
        let value = match lenient::parse(data) {
            Ok(v) if v.is_object() => v,
            Ok(_) => return out.push(Delta::Skipped("an event that is not an object".into())),
            Err(e) => return out.push(Delta::Skipped(format!("unreadable event: {e}"))),
        };
        let text = |key: &str| value[key].as_str().unwrap_or_default().to_owned();
        match value["type"].as_str().unwrap_or_default() {
            "TEXT_MESSAGE_CONTENT" | "TEXT_MESSAGE_CHUNK" => {
                let delta = text("delta");
                if !delta.is_empty() && !self.failed && value["role"] != "user" {
                    self.reply.content.push_str(&delta);
                    out.push(Delta::Text(delta));
                }
            }
            "TOOL_CALL_START" => self.start_call(text("toolCallId"), text("toolCallName"), out),
            "TOOL_CALL_ARGS" => self.args(&text("toolCallId"), &text("delta")),
            "TOOL_CALL_CHUNK" => {
                let id = value["toolCallId"]
                    .as_str()
                    .map(str::to_owned)
                    .or_else(|| self.last_call.clone())
                    .unwrap_or_default();
                if !self.calls.iter().any(|(c, _, _)| *c == id) {
                    self.start_call(id.clone(), text("toolCallName"), out);
                }
                self.args(&id, &text("delta"));
            }
            "TOOL_CALL_RESULT" => {
                let id = text("toolCallId");
                let result = match &value["content"] {
                    Value::String(s) => lenient::parse(s).unwrap_or_else(|_| Value::from(s.as_str())),
                    other => Value::from(content_text(other)),
                };
                let name = self
                    .calls
                    .iter()
                    .find(|(c, _, _)| *c == id)
                    .map(|(_, n, _)| n.clone())
                    .unwrap_or_default();
                self.reply.results.insert(id.clone(), result.clone());
                out.push(Delta::ToolFinished { id, name, result });
            }
            "STATE_SNAPSHOT" => self.state = Some(value["snapshot"].clone()),
            "STATE_DELTA" => {
                let mut state = self.state.clone().unwrap_or_else(|| json!({}));
                if apply_patch(&mut state, &value["delta"]) {
                    self.state = Some(state);
                } else {
                    out.push(Delta::Skipped("a state delta that does not apply".into()));
                }
            }
            "RUN_ERROR" if !self.failed => {
                self.failed = true;
                let words = value["message"].as_str();
                out.push(Delta::Error(Failure::new(FailureKind::AgentError, words)));
            }
            "RUN_FINISHED" => self.finished(&value),
            _ => {}
        }
    }

    fn start_call(&mut self, id: String, name: String, out: &mut Vec<Delta>) {
        if id.is_empty() || self.calls.iter().any(|(c, _, _)| *c == id) {
            return;
        }
        self.last_call = Some(id.clone());
        self.calls.push((id.clone(), name.clone(), String::new()));
        out.push(Delta::ToolStarted(ToolCall { id, name, args: json!({}) }));
        self.reply.calls_streamed = true;
    }

    fn args(&mut self, id: &str, delta: &str) {
        if let Some((_, _, args)) = self.calls.iter_mut().find(|(c, _, _)| c == id) {
            args.push_str(delta);
        }
    }

    /// `RUN_FINISHED`: the interrupts of an interrupt outcome (the 1.0 shape, and the
    /// earlier draft's `outcome: "interrupt"` with one `interrupt`), or the calls a success
    /// names as pending.
    fn finished(&mut self, value: &Value) {
        let outcome = &value["outcome"];
        let interrupts: Vec<Value> = match outcome {
            Value::Object(o) if o.get("type").and_then(Value::as_str) == Some("interrupt") => {
                o.get("interrupts").and_then(Value::as_array).cloned().unwrap_or_default()
            }
            Value::String(s) if s == "interrupt" => value.get("interrupt").cloned().into_iter().collect(),
            _ => Vec::new(),
        };
        self.interrupts = interrupts
            .into_iter()
            .filter(|i| i["id"].as_str().is_some_and(|id| !id.is_empty()))
            .collect();
        if let Some(ids) = outcome["pendingToolCallIds"].as_array() {
            self.pending_calls = Some(
                ids.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect(),
            );
        }
    }
}

/// A frontend tool call the person confirms, as a card.
fn confirmation(call: &ToolCall) -> Value {
    let mut card = json!({ "id": call.id, "type": "tool_approval", "status": "pending",
                           "toolCallId": call.id, "toolName": call.name, "args": call.args,
                           SOURCE_KEY: "tool" });
    if let Some(m) = call.args["message"].as_str().filter(|m| !m.trim().is_empty()) {
        card["summary"] = Value::from(m);
    }
    card
}

/// Applies a JSON Patch (`add`, `replace`, `remove`; `test`, `move` and `copy` are not
/// needed for state the chat only keeps and sends back) to `doc`; `false` when an operation
/// does not apply, leaving `doc` as far as it got.
pub fn apply_patch(doc: &mut Value, patch: &Value) -> bool {
    let Some(ops) = patch.as_array() else {
        return false;
    };
    for op in ops {
        let Some(path) = op["path"].as_str() else {
            return false;
        };
        let ok = match op["op"].as_str() {
            Some("add" | "replace") => set(doc, path, op["value"].clone()),
            Some("remove") => remove(doc, path),
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    true
}

fn tokens(path: &str) -> Option<Vec<String>> {
    if path.is_empty() {
        return Some(Vec::new());
    }
    let rest = path.strip_prefix('/')?;
    Some(rest.split('/').map(|t| t.replace("~1", "/").replace("~0", "~")).collect())
}

fn parent<'a>(doc: &'a mut Value, tokens: &[String]) -> Option<&'a mut Value> {
    let mut at = doc;
    for t in tokens {
        at = match at {
            Value::Object(o) => o.get_mut(t)?,
            Value::Array(a) => a.get_mut(t.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(at)
}

fn set(doc: &mut Value, path: &str, value: Value) -> bool {
    let Some(tokens) = tokens(path) else { return false };
    let Some((last, rest)) = tokens.split_last() else {
        *doc = value;
        return true;
    };
    match parent(doc, rest) {
        Some(Value::Object(o)) => {
            o.insert(last.clone(), value);
            true
        }
        Some(Value::Array(a)) if last == "-" => {
            a.push(value);
            true
        }
        Some(Value::Array(a)) => match last.parse::<usize>() {
            Ok(i) if i <= a.len() => {
                a.insert(i, value);
                true
            }
            _ => false,
        },
        _ => false,
    }
}

fn remove(doc: &mut Value, path: &str) -> bool {
    let Some(tokens) = tokens(path) else { return false };
    let Some((last, rest)) = tokens.split_last() else {
        return false;
    };
    match parent(doc, rest) {
        Some(Value::Object(o)) => o.remove(last).is_some(),
        Some(Value::Array(a)) => match last.parse::<usize>() {
            Ok(i) if i < a.len() => {
                a.remove(i);
                true
            }
            _ => false,
        },
        _ => false,
    }
}

/// Reads a whole run (a send that did not stream: the same event stream, read at once).
pub fn read_reply(body: &str) -> Result<Reply, ReadError> {
    let mut d = Decoder::new();
    let deltas = d.read_whole(body);
    if let Some(wording) = deltas.iter().find_map(|x| match x {
        Delta::Error(w) => Some(w.clone()),
        _ => None,
    }) {
        return Err(ReadError::Refused(wording));
    }
    let reply = d.ending();
    let empty = reply.content.is_empty()
        && reply.tool_calls.is_empty()
        && reply.pending_actions.is_none();
    if empty && !body.contains("RUN_FINISHED") {
        return Err(ReadError::Unreadable("not an AG-UI event stream".into()));
    }
    Ok(reply)
}

