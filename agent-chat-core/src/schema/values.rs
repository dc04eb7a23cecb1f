//! The keywords that look at one value alone: `type`, the number limits, and the count
//! limits' reading (`minItems: 2.0` is a count).

use serde_json::{Map, Number, Value};

use super::problems::{Problem, ProblemKind};

/// The `type` keyword: `None` when the value fits (or there is no usable `type`), otherwise the
/// expected type names. An unknown type name matches anything, like an unknown keyword.
pub(super) fn type_mismatch(type_keyword: Option<&Value>, value: &Value) -> Option<Vec<String>> {
    let names: Vec<&str> = match type_keyword? {
        Value::String(name) => vec![name.as_str()],
        Value::Array(names) => names.iter().filter_map(Value::as_str).collect(),
        _ => return None,
    };
    if names.is_empty() || names.iter().any(|name| type_matches(name, value)) {
        return None;
    }
    Some(names.into_iter().map(str::to_owned).collect())
}

fn type_matches(name: &str, value: &Value) -> bool {
    match name {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "number" => value.is_number(),
        // JSON Schema: 3.0 is an integer.
        "integer" => match value {
            Value::Number(n) => {
                n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
            }
            _ => false,
        },
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        _ => true,
    }
}

pub(super) fn check_number(n: &Number, s: &Map<String, Value>, path: &str, out: &mut Vec<Problem>) {
    let Some(x) = n.as_f64() else {
        return;
    };
    // Draft 4 wrote `exclusiveMinimum: true` to make `minimum` exclusive; draft 6 and later
    // give `exclusiveMinimum` its own number. Both are read.
    let min_exclusive = s.get("exclusiveMinimum") == Some(&Value::Bool(true));
    if let Some(limit) = s.get("minimum").and_then(Value::as_f64) {
        if min_exclusive && x <= limit {
            out.push(Problem::new(path, ProblemKind::ExclusiveMinimum { limit }));
        } else if x < limit {
            out.push(Problem::new(path, ProblemKind::Minimum { limit }));
        }
    }
    if let Some(limit) = s.get("exclusiveMinimum").and_then(Value::as_f64) {
        if x <= limit {
            out.push(Problem::new(path, ProblemKind::ExclusiveMinimum { limit }));
        }
    }
    let max_exclusive = s.get("exclusiveMaximum") == Some(&Value::Bool(true));
    if let Some(limit) = s.get("maximum").and_then(Value::as_f64) {
        if max_exclusive && x >= limit {
            out.push(Problem::new(path, ProblemKind::ExclusiveMaximum { limit }));
        } else if x > limit {
            out.push(Problem::new(path, ProblemKind::Maximum { limit }));
        }
    }
    if let Some(limit) = s.get("exclusiveMaximum").and_then(Value::as_f64) {
        if x >= limit {
            out.push(Problem::new(path, ProblemKind::ExclusiveMaximum { limit }));
        }
    }
    if let Some(divisor) = s.get("multipleOf").and_then(Value::as_f64) {
        if divisor > 0.0 && !is_multiple(n, x, divisor) {
            out.push(Problem::new(path, ProblemKind::MultipleOf { divisor }));
        }
    }
}

/// `x` is a whole multiple of `divisor`, with integers exact and a float's rounding forgiven
/// (`0.3` is a multiple of `0.1`). A quotient that overflows is not whole (as the test suite
/// has it); a finite one too large for a float's fraction is taken as whole.
fn is_multiple(n: &Number, x: f64, divisor: f64) -> bool {
    if let (Some(a), true) = (n.as_i64(), divisor.fract() == 0.0 && divisor.abs() < 9.0e15) {
        return a % (divisor as i64) == 0;
    }
    let quotient = x / divisor;
    if !quotient.is_finite() {
        return false;
    }
    if quotient.abs() > 1.0e15 {
        return true;
    }
    (quotient - quotient.round()).abs() < 1.0e-9 * quotient.abs().max(1.0)
}

/// A length or item count limit: a non-negative integer, also written as `2.0`.
pub(super) fn as_count(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| {
        v.as_f64()
            .filter(|f| *f >= 0.0 && f.fract() == 0.0 && *f <= u64::MAX as f64)
            .map(|f| f as u64)
    })
}
