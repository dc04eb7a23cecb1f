//! The argsSchema checker never panics, whatever the schema and the editor text.
//!
//! Input layout: the bytes before the first NUL are the schema (as JSON; when that is not JSON
//! it is used as a JSON string), the rest is the editor text. Without a NUL there is no schema.

#![no_main]

use agent_chat_core::{args_equal, check_args_text, check_value};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let (schema, text) = match data.iter().position(|&b| b == 0) {
        Some(at) => (Some(&data[..at]), &data[at + 1..]),
        None => (None, data),
    };
    let text = String::from_utf8_lossy(text);
    let schema = schema.map(|s| {
        let s = String::from_utf8_lossy(s);
        serde_json::from_str::<Value>(&s).unwrap_or(Value::String(s.into_owned()))
    });

    let result = check_args_text(&text, schema.as_ref());
    if let Err(problems) = &result {
        assert!(!problems.is_empty(), "Err without a problem");
        for problem in problems {
            let _ = problem.kind.fluent_id();
            let _ = problem.fluent_args();
        }
    }
    if let Ok(value) = &result {
        assert!(value.is_object(), "check_args_text accepted a non-object");
        assert!(args_equal(value, value), "a value differs from itself");
    }
    if let Some(schema) = &schema {
        // The schema checked against itself and against the text as a string; then against
        // the text's value when it is JSON but not an object (check_args_text stops there).
        let _ = check_value(schema, schema);
        let _ = check_value(&Value::String(text.to_string()), schema);
        if let Ok(value) = serde_json::from_str::<Value>(&text) {
            let _ = check_value(&value, schema);
            let _ = args_equal(&value, schema);
        }
    }
});
