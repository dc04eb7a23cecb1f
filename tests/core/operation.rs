//! Seed 004's four facts for a card without a server title: what will happen (the schema's
//! operation template or title, else the tool id in words), who or what is affected (the
//! target-like argument), and the meaningful parameters (each argument, long ones folded).
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::core::operation::{fill, readable, FOLD_CHARS};
use agent_chat_ui::core::{ActionKind, Operation, PendingAction, Statement, Target, TargetRole};
use serde_json::{json, Value};

fn describe(v: Value) -> Operation {
    let action = PendingAction::from_json(&v).unwrap();
    let ActionKind::ToolApproval(t) = &action.kind else {
        panic!("not an approval: {v}");
    };
    Operation::of(t, &t.args)
}

#[test]
fn issue35_the_guides_record_says_send_email_to_its_recipient() {
    let op = describe(json!({
        "id":"act_42","version":3,"status":"pending_approval","type":"send_email",
        "recipient":"alex@example.com"
    }));
    assert_eq!(
        op.statement,
        Statement::Derived {
            operation: "Send email".into(),
            target: Some(Target {
                role: TargetRole::To,
                value: "alex@example.com".into()
            })
        }
    );
    assert_eq!(op.parameters.len(), 1);
    assert_eq!(op.parameters[0].name, "recipient");
    assert_eq!(op.parameters[0].value, "alex@example.com");
    assert!(!op.parameters[0].folded);
}

#[test]
fn issue35_the_schemas_template_and_title_and_description_are_used_when_given() {
    let schema = json!({
        "type":"object","title":"Open a pull request","description":"Opens a PR for review",
        "x-operation":"Open a pull request from {branch} in {repository}",
        "properties":{"branch":{"type":"string","title":"Branch"},"repository":{"type":"string"}}
    });
    let op = describe(json!({
        "id":"a","type":"tool_approval","toolName":"gh_pr","argsSchema":schema,
        "args":{"branch":"fix-1","repository":"acme/api"}
    }));
    assert_eq!(
        op.statement,
        Statement::Given("Open a pull request from fix-1 in acme/api".into())
    );
    assert_eq!(op.summary.as_deref(), Some("Opens a PR for review"));
    // The target first; a property's schema title is its label.
    assert_eq!(op.parameters[0].label, "repository");
    assert_eq!(op.parameters[1].label, "Branch");
    // A template naming a missing argument is not half-filled: the schema's title is used.
    let op = describe(json!({
        "id":"a","type":"tool_approval","toolName":"gh_pr","argsSchema":schema,
        "args":{"repository":"acme/api"}
    }));
    assert_eq!(
        op.statement,
        Statement::Derived {
            operation: "Open a pull request".into(),
            target: Some(Target {
                role: TargetRole::In,
                value: "acme/api".into()
            })
        }
    );
    // The server's own title and summary win over everything.
    let op = describe(json!({
        "id":"a","type":"tool_approval","toolName":"gh_pr","argsSchema":schema,
        "title":"Open PR #12","summary":"As asked","args":{"branch":"x","repository":"r"}
    }));
    assert_eq!(op.statement, Statement::Given("Open PR #12".into()));
    assert_eq!(op.summary.as_deref(), Some("As asked"));
}

#[test]
fn issue35_target_like_arguments_name_who_or_what_is_affected() {
    for (args, role, value) in [
        (
            json!({"to":["a@b.co","c@d.co"],"subject":"Hi"}),
            TargetRole::To,
            "a@b.co, c@d.co",
        ),
        (
            json!({"environment":"production","version":"1.2"}),
            TargetRole::To,
            "production",
        ),
        (
            json!({"path":"src/main.rs","content":"x"}),
            TargetRole::In,
            "src/main.rs",
        ),
        (json!({"Repository":"acme/api"}), TargetRole::In, "acme/api"),
    ] {
        let op = describe(json!({"id":"a","type":"tool_approval","toolName":"do_it","args":args}));
        let Statement::Derived {
            target: Some(t), ..
        } = &op.statement
        else {
            panic!("no target for {args}: {:?}", op.statement);
        };
        assert_eq!((t.role, t.value.as_str()), (role, value), "{args}");
    }
    // Nothing target-like, or a target too long to be a name: the operation alone.
    for args in [
        json!({"query":"rust"}),
        json!({"to":"x".repeat(FOLD_CHARS + 1)}),
        json!("raw"),
    ] {
        let op =
            describe(json!({"id":"a","type":"tool_approval","toolName":"web_search","args":args}));
        assert_eq!(
            op.statement,
            Statement::Derived {
                operation: "Web search".into(),
                target: None
            },
            "{args}"
        );
    }
}

#[test]
fn issue35_long_values_are_folded_and_short_ones_shown_whole() {
    let body = "Dear Alex,\n\nplease find the contract attached.\n\nBest,\nSam";
    let op = describe(json!({
        "id":"a","type":"tool_approval","toolName":"send_email",
        "args":{"to":"alex@example.com","subject":"Contract","body":body,"cc":null,"attempts":2}
    }));
    let names: Vec<&str> = op.parameters.iter().map(|p| p.name.as_str()).collect();
    // The target first, then the others by name; null values are left out.
    assert_eq!(names, ["to", "attempts", "body", "subject"]);
    let body_param = &op.parameters[2];
    assert!(body_param.folded);
    assert_eq!(body_param.value, body, "the whole text is kept");
    assert_eq!(
        body_param.preview(),
        "Dear Alex,\n\nplease find the contract attached."
    );
    assert!(!op.parameters[3].folded);
    assert_eq!(op.parameters[1].value, "2");
    let long = "x".repeat(FOLD_CHARS + 5);
    let op = describe(json!({"id":"a","type":"tool_approval","toolName":"t","args":{"q":long}}));
    assert!(op.parameters[0].folded);
    assert_eq!(op.parameters[0].preview().chars().count(), FOLD_CHARS);
}

#[test]
fn issue35_tool_ids_read_as_words_and_templates_fill_only_whole() {
    assert_eq!(readable("send_email"), "Send email");
    assert_eq!(readable("sendEmail"), "Send email");
    assert_eq!(readable("run-SQL-query"), "Run SQL query");
    assert_eq!(readable("deploy"), "Deploy");
    assert_eq!(readable(""), "");
    assert_eq!(readable("___"), "___");
    let args = json!({"to":"a@b.co","n":3,"empty":""});
    assert_eq!(
        fill("Send to {to} ({n})", &args).as_deref(),
        Some("Send to a@b.co (3)")
    );
    assert_eq!(
        fill("Literal {{braces}}", &args).as_deref(),
        Some("Literal {braces}")
    );
    assert_eq!(fill("Send to {missing}", &args), None);
    assert_eq!(fill("Send to {empty}", &args), None);
    assert_eq!(fill("Broken {to", &args), None);
    assert_eq!(fill("Broken }", &args), None);
}
