//! Every locale has exactly the ids of `en` (the reference), every file parses, and every id
//! formats without Fluent errors (F169, DESIGN.md §5).
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;

use agent_chat_ui::core::{Arg, Catalog, LOCALES};
use fluent_bundle::{FluentBundle, FluentResource};

fn ids(source: &str) -> BTreeSet<String> {
    let res = match FluentResource::try_new(source.to_owned()) {
        Ok(res) => res,
        Err((_, errors)) => panic!("locale file does not parse: {errors:?}"),
    };
    res.entries()
        .filter_map(|e| match e {
            fluent_syntax::ast::Entry::Message(m) => Some(m.id.name.to_owned()),
            _ => None,
        })
        .collect()
}

#[test]
fn every_locale_has_exactly_the_reference_ids() {
    let (ref_tag, ref_src) = LOCALES[0];
    assert_eq!(ref_tag, "en");
    let reference = ids(ref_src);
    assert!(
        reference.len() > 80,
        "reference locale looks truncated: {}",
        reference.len()
    );
    for (tag, src) in LOCALES {
        let these = ids(src);
        let missing: Vec<_> = reference.difference(&these).collect();
        let extra: Vec<_> = these.difference(&reference).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{tag}: missing {missing:?}, extra {extra:?}"
        );
    }
}

#[test]
fn every_id_formats_cleanly_in_every_locale() {
    let reference = ids(LOCALES[0].1);
    for (tag, src) in LOCALES {
        let res = FluentResource::try_new(src.to_string()).expect("parses");
        let mut bundle = FluentBundle::new(vec![tag.parse().expect("valid tag")]);
        bundle.set_use_isolating(false);
        bundle.add_resource(res).expect("no duplicate ids");
        for id in &reference {
            let msg = bundle
                .get_message(id)
                .unwrap_or_else(|| panic!("{tag}: {id} missing"));
            let pattern = msg
                .value()
                .unwrap_or_else(|| panic!("{tag}: {id} has no value"));
            let mut args = fluent_bundle::FluentArgs::new();
            for name in [
                "count",
                "name",
                "max",
                "index",
                "seconds",
                "detail",
                "tool",
                "n",
                "reason",
                "path",
                "line",
                "column",
                "expected",
                "allowed",
                "property",
                "limit",
                "pattern",
                "matched",
                "subject",
                "stage",
                "message",
                "variants",
                "divisor",
                "format",
                "first",
                "second",
                "required",
                "reference",
                "dialect",
                "keyword",
                "operation",
                "target",
                "minutes",
            ] {
                args.set(name, 2);
            }
            let mut errors = Vec::new();
            let text = bundle.format_pattern(pattern, Some(&args), &mut errors);
            assert!(errors.is_empty(), "{tag}: {id}: {errors:?}");
            assert!(!text.trim().is_empty(), "{tag}: {id} is empty");
        }
    }
}

#[test]
fn catalog_falls_back_and_plurals_select() {
    let en = Catalog::new("en-US");
    assert_eq!(en.locale(), "en");
    assert_eq!(
        en.tr_args(
            "chat-tool-call-previous-steps",
            &[("count", Arg::from(1u64))]
        ),
        "1 previous step"
    );
    assert_eq!(
        en.tr_args(
            "chat-tool-call-previous-steps",
            &[("count", Arg::from(3u64))]
        ),
        "3 previous steps"
    );
    let tr = Catalog::new("tr-TR");
    assert_eq!(tr.locale(), "tr");
    assert_eq!(tr.tr("chat-history-new-chat"), "Yeni Sohbet");
    let unknown = Catalog::new("xx");
    assert_eq!(unknown.locale(), "en");
    assert_eq!(unknown.tr("no-such-id"), "no-such-id");
}

#[test]
fn overrides_accept_react_keys() {
    let mut c = Catalog::new("en");
    c.set_overrides([("chat.input.placeholder".to_owned(), "Ask {name}".to_owned())].into());
    assert_eq!(
        c.tr_args("chat-input-placeholder", &[("name", Arg::from("Ops"))]),
        "Ask Ops"
    );
}
