//! A minimal JSON Schema checker for edited approval arguments (`approvedArgs`), covering the
//! keywords the demo schemas use: type, enum, const, properties, required, additionalProperties,
//! items, minimum/maximum, minLength/maxLength, minItems/maxItems and the e-mail `pattern`.

use serde_json::Value;

/// The `pattern` the demo schemas use for e-mail addresses; checked by hand (no regex crate).
pub const EMAIL_PATTERN: &str = r"^[^@\s]+@[^@\s]+\.[^@\s]+$";

/// True when `s` matches [`EMAIL_PATTERN`].
pub fn is_email(s: &str) -> bool {
    if s.chars().any(char::is_whitespace) {
        return false;
    }
    let mut parts = s.split('@');
    let (Some(local), Some(domain), None) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    if local.is_empty() {
        return false;
    }
    match domain.rfind('.') {
        Some(i) => i > 0 && i + 1 < domain.len(),
        None => false,
    }
}

fn type_matches(ty: &str, v: &Value) -> bool {
    match ty {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.as_i64().is_some() || v.as_u64().is_some(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        _ => true,
    }
}

/// Checks `value` against `schema`; returns the list of problems (`path: text`), empty when valid.
pub fn validate(schema: &Value, value: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    check(schema, value, "$", &mut problems);
    problems
}

fn check(schema: &Value, v: &Value, path: &str, out: &mut Vec<String>) {
    let Some(s) = schema.as_object() else {
        return;
    };
    match s.get("type") {
        Some(Value::String(t)) if !type_matches(t, v) => {
            out.push(format!("{path}: expected {t}"));
            return;
        }
        Some(Value::Array(ts))
            if !ts
                .iter()
                .filter_map(Value::as_str)
                .any(|t| type_matches(t, v)) =>
        {
            out.push(format!("{path}: wrong type"));
            return;
        }
        _ => {}
    }
    if let Some(Value::Array(options)) = s.get("enum") {
        if !options.contains(v) {
            out.push(format!("{path}: not one of the allowed values"));
        }
    }
    if let Some(c) = s.get("const") {
        if c != v {
            out.push(format!("{path}: must equal {c}"));
        }
    }
    if let Some(text) = v.as_str() {
        let len = text.chars().count() as u64;
        if let Some(min) = s.get("minLength").and_then(Value::as_u64) {
            if len < min {
                out.push(format!("{path}: shorter than {min} characters"));
            }
        }
        if let Some(max) = s.get("maxLength").and_then(Value::as_u64) {
            if len > max {
                out.push(format!("{path}: longer than {max} characters"));
            }
        }
        if s.get("pattern").and_then(Value::as_str) == Some(EMAIL_PATTERN) && !is_email(text) {
            out.push(format!("{path}: not an e-mail address"));
        }
    }
    if let Some(n) = v.as_f64() {
        if let Some(min) = s.get("minimum").and_then(Value::as_f64) {
            if n < min {
                out.push(format!("{path}: less than {min}"));
            }
        }
        if let Some(max) = s.get("maximum").and_then(Value::as_f64) {
            if n > max {
                out.push(format!("{path}: greater than {max}"));
            }
        }
    }
    if let Some(items) = v.as_array() {
        let len = items.len() as u64;
        if let Some(min) = s.get("minItems").and_then(Value::as_u64) {
            if len < min {
                out.push(format!("{path}: fewer than {min} items"));
            }
        }
        if let Some(max) = s.get("maxItems").and_then(Value::as_u64) {
            if len > max {
                out.push(format!("{path}: more than {max} items"));
            }
        }
        if let Some(item_schema) = s.get("items") {
            for (i, item) in items.iter().enumerate() {
                check(item_schema, item, &format!("{path}[{i}]"), out);
            }
        }
    }
    if let Some(obj) = v.as_object() {
        if let Some(Value::Array(required)) = s.get("required") {
            for key in required.iter().filter_map(Value::as_str) {
                if !obj.contains_key(key) {
                    out.push(format!("{path}.{key}: required"));
                }
            }
        }
        let props = s.get("properties").and_then(Value::as_object);
        for (key, val) in obj {
            let child = format!("{path}.{key}");
            match props.and_then(|p| p.get(key)) {
                Some(prop_schema) => check(prop_schema, val, &child, out),
                None => match s.get("additionalProperties") {
                    Some(Value::Bool(false)) => out.push(format!("{child}: not allowed")),
                    Some(extra @ Value::Object(_)) => check(extra, val, &child, out),
                    _ => {}
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn email_check() {
        assert!(is_email("a@b.co"));
        assert!(!is_email("a@b"));
        assert!(!is_email("@b.co"));
        assert!(!is_email("a b@c.de"));
        assert!(!is_email("a@b@c.de"));
    }

    #[test]
    fn object_schema() {
        let schema = json!({
            "type": "object", "required": ["to"], "additionalProperties": false,
            "properties": { "to": { "type": "string", "minLength": 3, "pattern": EMAIL_PATTERN } }
        });
        assert!(validate(&schema, &json!({ "to": "x@y.zz" })).is_empty());
        assert_eq!(validate(&schema, &json!({})), ["$.to: required"]);
        assert_eq!(
            validate(&schema, &json!({ "to": "x@y.zz", "cc": 1 })),
            ["$.cc: not allowed"]
        );
        assert_eq!(
            validate(&schema, &json!({ "to": 5 })),
            ["$.to: expected string"]
        );
        assert_eq!(validate(&schema, &json!("no")), ["$: expected object"]);
        assert_eq!(
            validate(&schema, &json!({ "to": "a@" })),
            [
                "$.to: shorter than 3 characters",
                "$.to: not an e-mail address"
            ]
        );
    }
}
