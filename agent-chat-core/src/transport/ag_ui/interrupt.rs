//! An interrupt as a card, and a card's answer as the interrupt's resume entry.
//!
//! An interrupt that names a tool call (`toolCallId`) asks about that call: an approval card
//! (the call's tool and arguments, `message` as the summary, `responseSchema` as the
//! arguments' schema). Any other interrupt asks the person for something (an
//! `input_required`, a `confirmation`, a framework's own reason): a question card.
//!
//! A question card is drawn from the interrupt's `responseSchema`, which describes the
//! resume `payload` the agent expects:
//! - an object schema with `properties`: one question per property (its `title` or name as
//!   the chip, its `description` as the question), choices from its `enum` (or its items'
//!   `enum` for an array: several may be picked), required as the schema's `required` says;
//!   the interrupt's `message` is the line under the heading;
//! - anything else (or none): one required question, the `message` as its text, choices from
//!   the schema's `enum`.
//!
//! The question's text is the interrupt's `message`, else the earlier draft's `payload`
//! (a string, or an object's `question` / `message` / `description` / `text`, else its
//! JSON), else its `reason`: always text, which the card draws as text, never as HTML.
//!
//! The answer becomes the payload (one value, or an object of the answered properties), each
//! typed as its schema says (`integer`, `number`, `boolean` read from the text; a choice of
//! an `enum` as the enum's value), and is checked against `responseSchema` with the same
//! checker as edited arguments before anything is sent ([`AnswerRefusal::BreaksSchema`],
//! which names the question whose answer does not fit, in the words the card showed).
//! Skip sends `status: "cancelled"` without a payload, as the protocol asks.

use serde_json::{json, Map, Value};

use super::{AnswerRefusal, SOURCE_KEY};
use crate::schema::{blocks, gate_check};

/// The field of a question card that keeps the interrupt's `responseSchema` (the answer is
/// read back into a payload from it).
pub const SCHEMA_KEY: &str = "responseSchema";

/// The card of one interrupt: an approval of `call` (its tool name and arguments, when the
/// run streamed it) when the interrupt names a tool call, else a question card.
pub(super) fn card(i: &Value, call: Option<(String, Value)>) -> Value {
    let id = i["id"].as_str().unwrap_or_default();
    let call_id = i["toolCallId"].as_str().unwrap_or_default();
    let mut card = if call_id.is_empty() {
        question_card(id, i)
    } else {
        approval_card(id, call_id, i, call)
    };
    if let Some(at) = i["expiresAt"].as_str() {
        card["expiresAt"] = Value::from(at);
    }
    card
}

fn approval_card(id: &str, call_id: &str, i: &Value, call: Option<(String, Value)>) -> Value {
    let (name, args) = call.unwrap_or_else(|| {
        let args = i["metadata"]["arguments"]
            .as_object()
            .map(|o| Value::Object(o.clone()))
            .unwrap_or_else(|| json!({}));
        (i["reason"].as_str().unwrap_or("interrupt").to_owned(), args)
    });
    let mut card = json!({ "id": id, "type": "tool_approval", "status": "pending",
                           "toolName": name, "args": args, "toolCallId": call_id,
                           SOURCE_KEY: "interrupt" });
    if let Some(m) = message(i) {
        card["summary"] = Value::from(m);
    }
    if i["responseSchema"].is_object() {
        card["argsSchema"] = i["responseSchema"].clone();
    }
    card
}

/// The interrupt's own words: its `message`, else the earlier draft's `payload` as text.
fn message(i: &Value) -> Option<String> {
    if let Some(m) = i["message"].as_str().filter(|m| !m.trim().is_empty()) {
        return Some(m.to_owned());
    }
    let payload = &i["payload"];
    if let Some(text) = payload.as_str() {
        return Some(text.to_owned()).filter(|t| !t.trim().is_empty());
    }
    if payload.is_null() {
        return None;
    }
    ["question", "message", "description", "text"]
        .iter()
        .find_map(|k| payload[*k].as_str().filter(|t| !t.trim().is_empty()))
        .map(str::to_owned)
        .or_else(|| serde_json::to_string_pretty(payload).ok())
}

fn question_card(id: &str, i: &Value) -> Value {
    let prompt = message(i)
        .or_else(|| i["reason"].as_str().map(str::to_owned))
        .filter(|p| !p.trim().is_empty())
        .unwrap_or_else(|| "?".to_owned());
    let schema = &i["responseSchema"];
    let asked = questions(schema, &prompt);
    let form = asked.iter().any(|(_, property)| property.is_some());
    let mut card = json!({ "id": id, "type": "user_question", "status": "pending",
        "questions": asked.into_iter().map(|(q, _)| q).collect::<Vec<_>>(),
        SOURCE_KEY: "interrupt" });
    if form {
        card["summary"] = Value::from(prompt);
    }
    if schema.is_object() {
        card[SCHEMA_KEY] = schema.clone();
    }
    card
}

/// The questions a schema asks, each with the property it fills (`None`: the payload is the
/// one answer itself).
fn questions(schema: &Value, prompt: &str) -> Vec<(Value, Option<String>)> {
    let properties = schema["properties"].as_object().filter(|p| !p.is_empty());
    let Some(properties) = properties else {
        return vec![(question(prompt, None, schema, true), None)];
    };
    let required: Vec<&str> = schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let mut seen: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for (name, property) in properties {
        let header = property["title"].as_str().unwrap_or(name);
        let mut text = property["description"]
            .as_str()
            .filter(|d| !d.trim().is_empty())
            .unwrap_or(header)
            .to_owned();
        // The answer is keyed by the question's text: two alike get their property's name.
        if seen.contains(&text) {
            text = format!("{text} ({name})");
        }
        seen.push(text.clone());
        let q = question(&text, Some(header), property, required.contains(&name.as_str()));
        out.push((q, Some(name.clone())));
    }
    out
}

fn question(text: &str, header: Option<&str>, schema: &Value, required: bool) -> Value {
    let multi = schema["type"] == "array";
    let choices = if multi {
        &schema["items"]["enum"]
    } else {
        &schema["enum"]
    };
    let options: Vec<Value> = choices
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| match v {
            Value::String(s) => Some(s.clone()),
            Value::Number(_) | Value::Bool(_) => Some(v.to_string()),
            _ => None,
        })
        .map(|s| json!({ "label": s, "value": s }))
        .collect();
    let mut q = json!({ "question": text, "required": required });
    if let Some(h) = header {
        q["header"] = Value::from(h);
    }
    if !options.is_empty() {
        q["options"] = Value::from(options);
        q["allowFreeText"] = Value::Bool(false);
        q["multiSelect"] = Value::Bool(multi);
    }
    q
}

/// The resume entry that answers the question card `action` with `resolution` (the chat's
/// `{answers}` or `{cancelled: true}`): `resolved` with the payload, or `cancelled`.
pub fn question_entry(action: &Value, resolution: &Value) -> Result<Value, AnswerRefusal> {
    let id = action["id"].as_str().unwrap_or_default();
    if resolution["cancelled"] == true {
        return Ok(json!({ "interruptId": id, "status": "cancelled" }));
    }
    let answers = resolution["answers"]
        .as_object()
        .ok_or(AnswerRefusal::NotAnAnswer)?;
    let schema = &action[SCHEMA_KEY];
    let prompt = action["questions"][0]["question"].as_str().unwrap_or_default();
    let asked = questions(schema, prompt);
    let payload = match asked.as_slice() {
        [(q, None)] => {
            let answer = answered(answers, q).ok_or(AnswerRefusal::NotAnAnswer)?;
            typed(answer, schema)
        }
        _ => {
            let mut object = Map::new();
            for (q, property) in &asked {
                let (Some(name), Some(answer)) = (property, answered(answers, q)) else {
                    continue;
                };
                object.insert(name.clone(), typed(answer, &schema["properties"][name]));
            }
            Value::Object(object)
        }
    };
    if schema.is_object() {
        let problems = gate_check(&payload, schema);
        if blocks(&problems) {
            let at = problems.first().map(|p| p.path.as_str()).unwrap_or_default();
            return Err(AnswerRefusal::BreaksSchema(asked_at(&asked, at)));
        }
    }
    Ok(json!({ "interruptId": id, "status": "resolved", "payload": payload }))
}

/// Where an answer breaks the schema, as the person saw it: the text of the question whose
/// answer it is (the property the JSON pointer `at` starts with, or the one question of a
/// card that asks one), else the pointer itself.
fn asked_at(asked: &[(Value, Option<String>)], at: &str) -> String {
    let first = at
        .strip_prefix('/')
        .map(|rest| rest.split('/').next().unwrap_or_default())
        .map(|segment| segment.replace("~1", "/").replace("~0", "~"));
    let question = match (asked, first) {
        ([(q, None)], _) => Some(q),
        (_, Some(name)) => asked
            .iter()
            .find(|(_, property)| property.as_deref() == Some(name.as_str()))
            .map(|(q, _)| q),
        _ => None,
    };
    question
        .and_then(|q| q["question"].as_str())
        .filter(|text| !text.trim().is_empty())
        .map_or_else(|| at.to_owned(), str::to_owned)
}

/// The answer given to the question `q`, if any.
fn answered<'a>(answers: &'a Map<String, Value>, q: &Value) -> Option<&'a Value> {
    let text = q["question"].as_str()?;
    answers.get(text).filter(|a| match a {
        Value::String(s) => !s.trim().is_empty(),
        Value::Array(items) => !items.is_empty(),
        _ => true,
    })
}

/// An answer's text as the value its schema asks for; text that is not one stays text, for
/// the schema check to say so.
fn typed(answer: &Value, schema: &Value) -> Value {
    match answer {
        Value::Array(items) => items.iter().map(|i| typed(i, &schema["items"])).collect(),
        Value::String(text) => {
            let t = text.trim();
            let number = match schema["type"].as_str() {
                Some("integer") => t.parse::<i64>().ok().map(Value::from),
                Some("number") => t
                    .parse::<f64>()
                    .ok()
                    .and_then(serde_json::Number::from_f64)
                    .map(Value::Number),
                Some("boolean") => t.parse::<bool>().ok().map(Value::Bool),
                _ => None,
            };
            // A choice is the enum's own value (a number stays a number).
            let chosen = schema["enum"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|v| v.as_str() == Some(t) || (!v.is_string() && serde_json::to_string(v).is_ok_and(|s| s == t)))
                .cloned();
            number
                .or(chosen)
                .unwrap_or_else(|| Value::from(text.as_str()))
        }
        other => other.clone(),
    }
}
