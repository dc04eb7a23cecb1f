//! The wire-type readers never panic: every parser of `core::wire` and `ApiError::from_body`
//! on the input (read as UTF-8, lossily), on its JSON value when it is JSON, and on the input
//! wrapped in JSON values. Whatever parses is also printed and written back to JSON.

#![no_main]

use agent_chat_core::{
    decode_body, decode_optional_body, ActionStateEntry, AgentInfo, AgentList, AnswerValue,
    ApiError, ContentPart, Conversation, ConversationEnvelope, ConversationList,
    ConversationWithMessages, FileEnvelope, Message, MessageContent, MessagesPage, PendingAction,
    Question, QuestionOption, Resolution, ResolveActionRequest, ResolveActionResponse,
    SendMessageResponse, StreamEvent, TimedEvent, ToolCallDetail, TurnStatus,
};
use libfuzzer_sys::fuzz_target;
use serde::{de::DeserializeOwned, Serialize};
use serde_json::{json, Value};

/// The `hint` values `Resolution::from_json` knows, plus none and an unknown one.
const HINTS: [Option<&str>; 5] = [
    None,
    Some("tool_approval"),
    Some("user_question"),
    Some("client_tool"),
    Some("other"),
];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let text: &str = &text;
    let status = data.first().map_or(500, |&b| 400 + u16::from(b) % 200);

    // Text parsers.
    let first_line = text.lines().next();
    for name in [None, Some("stream.text"), first_line] {
        if let Ok(event) = StreamEvent::parse(text, name) {
            exercise_event(&event);
        }
        if let Ok(timed) = TimedEvent::parse(text, name) {
            let _ = timed.to_json();
        }
    }
    let error = ApiError::from_body(status, text);
    let _ = (
        error.fluent_id(),
        error.code_is("pending_action"),
        error.to_string(),
    );
    let _ = ConversationEnvelope::parse("E4", text);
    typed_bodies(text);

    // The same on JSON values: the input's own value, and the input wrapped.
    let own = serde_json::from_str::<Value>(text).ok();
    let wrapped = [
        Value::String(text.to_owned()),
        json!([text]),
        json!({ "type": text, "id": text, "text": text }),
    ];
    for value in own.iter().chain(wrapped.iter()) {
        value_parsers(value, first_line);
    }
    if let Some(own) = own {
        // The value in the places the readers look for nested objects.
        for wrapped in [
            json!({ "type": "action_required", "action": own }),
            json!({ "type": "action_resolved", "actionId": "a", "resolution": own }),
            json!({ "type": "done", "message": own, "pendingActions": [own] }),
            json!({ "conversation": own, "messages": [own], "pendingActions": [own] }),
            json!({ "id": "m", "role": "assistant", "content": own, "metadata": own }),
            json!({ "type": "user_question", "id": "a", "questions": [own] }),
        ] {
            value_parsers(&wrapped, None);
        }
    }
});

/// Every `from_json` style reader on one value.
fn value_parsers(value: &Value, event_name: Option<&str>) {
    for name in [None, event_name] {
        if let Ok(event) = StreamEvent::from_json(value, name) {
            exercise_event(&event);
        }
        let _ = TimedEvent::from_json(value, name).map(|t| t.to_json());
    }
    if let Some(action) = PendingAction::from_json(value) {
        exercise_action(&action);
    }
    for hint in HINTS {
        if let Some(resolution) = Resolution::from_json(value, hint) {
            let _ = resolution.to_json();
        }
    }
    if let Some(q) = Question::from_json(value) {
        let _ = (q.offers_free_text(None), q.offers_free_text(Some(true)));
    }
    let _ = QuestionOption::from_json(value);
    let _ = AnswerValue::from_json(value).map(|a| a.as_slice().len());
    let _ = ContentPart::from_json(value).to_json();
    let _ = MessageContent::from_json(value).display_text().len();
    let _ = ToolCallDetail::from_json(value);
    let _ = ActionStateEntry::from_json(value).map(|e| e.to_json());
    let _ = TurnStatus::from_json(value).map(|s| s.as_str().len());
    typed_values(value);
}

/// serde readers of the typed bodies, from text.
fn typed_bodies(text: &str) {
    macro_rules! each {
        ($($ty:ty),* $(,)?) => {$(
            if let Ok(value) = decode_body::<$ty>("fuzz", text) {
                round_trip(&value);
            }
            let _ = decode_optional_body::<$ty>("fuzz", text);
        )*};
    }
    each!(
        AgentInfo,
        AgentList,
        Conversation,
        ConversationList,
        ConversationEnvelope,
        ConversationWithMessages,
        FileEnvelope,
        MessagesPage,
        SendMessageResponse,
        ResolveActionRequest,
        ResolveActionResponse,
        PendingAction,
        Resolution,
        Question,
        QuestionOption,
        AnswerValue,
        ContentPart,
        MessageContent,
        TurnStatus,
        ActionStateEntry,
    );
    if let Ok(message) = decode_body::<Message>("fuzz", text) {
        exercise_message(&message);
    }
    if let Ok(body) = decode_body::<ConversationWithMessages>("fuzz", text) {
        for message in &body.messages {
            exercise_message(message);
        }
    }
}

/// serde readers of the typed bodies, from an already-parsed value.
fn typed_values(value: &Value) {
    macro_rules! each {
        ($($ty:ty),* $(,)?) => {$(
            if let Ok(v) = <$ty as serde::Deserialize>::deserialize(value) {
                round_trip(&v);
            }
        )*};
    }
    each!(
        AgentInfo,
        AgentList,
        Conversation,
        ConversationList,
        ConversationEnvelope,
        ConversationWithMessages,
        FileEnvelope,
        MessagesPage,
        SendMessageResponse,
        ResolveActionRequest,
        ResolveActionResponse,
        PendingAction,
        Resolution,
        Question,
        QuestionOption,
        AnswerValue,
        ContentPart,
        MessageContent,
        TurnStatus,
        ActionStateEntry,
    );
    if let Ok(message) = <Message as serde::Deserialize>::deserialize(value) {
        exercise_message(&message);
    }
    if let Ok(body) = <ConversationWithMessages as serde::Deserialize>::deserialize(value) {
        for message in &body.messages {
            exercise_message(message);
        }
    }
}

/// Debug-prints and serialises a parsed value, then reads its JSON back (no equality asked:
/// the readers are lenient and canonicalise).
fn round_trip<T: Serialize + DeserializeOwned + std::fmt::Debug>(value: &T) {
    let _ = format!("{value:?}");
    let json = serde_json::to_string(value).expect("a parsed value serialises");
    let _ = serde_json::from_str::<T>(&json);
}

fn exercise_event(event: &StreamEvent) {
    let _ = event.type_name().len();
    let json = event.to_json();
    let _ = StreamEvent::from_json(&json, None);
    if let StreamEvent::ActionRequired { action, .. } = event {
        exercise_action(action);
    }
}

fn exercise_action(action: &PendingAction) {
    let _ = (action.is_timed_out(), action.kind.type_name().len());
    let json = action.to_json();
    let _ = PendingAction::from_json(&json);
}

fn exercise_message(message: &Message) {
    round_trip(message);
    let _ = message.display_text().len();
    let _ = message.tool_call_details();
    let _ = message.tool_call_duration_seconds();
    for action in message.metadata_pending_actions() {
        exercise_action(&action);
    }
    let _ = message.metadata_action_states();
}
