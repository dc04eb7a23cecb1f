//! Browser tests for the providers a host uses to build its own layout (F124–F127).
#![cfg(target_arch = "wasm32")]

use agent_chat_ui::core::theme::{
    default_dark_theme, default_light_theme, get_theme_preset, ChatTheme, ThemeMode,
};
use agent_chat_ui::core::SessionConfig;
use agent_chat_ui::io::http::TransportConfig;
use agent_chat_ui::ui::chat_input::ChatInput;
use agent_chat_ui::ui::message_list::ChatMessageList;
use agent_chat_ui::ui::{
    use_chat_context, use_chat_context_optional, use_chat_theme, ChatProvider, ChatThemeProvider,
};
use agent_chat_ui::ChatStore;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use crate::web;
use web::{computed_style, section, type_text, wait_for, wait_until};

/// Nothing listens here: requests fail fast.
const DEAD: &str = "http://127.0.0.1:9/api/agents";

fn var(el: &web_sys::HtmlElement, name: &str) -> String {
    computed_style(el, name).trim().to_owned()
}

#[wasm_bindgen_test]
async fn f126_theme_provider_puts_a_presets_tokens_on_its_children() {
    let root = section();
    let nord = get_theme_preset("nord").unwrap().theme();
    let colors = nord.colors.clone();
    let _h = mount_to(root.clone(), move || {
        view! {
            <ChatThemeProvider theme=nord.clone()>
                <p class="probe">"themed"</p>
            </ChatThemeProvider>
        }
    });
    let probe = wait_for(&root, ".chat-theme-root .probe").await;
    // The preset's own values (not the dark defaults it differs from).
    let dark = default_dark_theme().colors;
    assert_ne!(colors.bg_primary, dark.bg_primary);
    assert_eq!(Some(var(&probe, "--chat-bg-primary")), colors.bg_primary);
    assert_eq!(
        Some(var(&probe, "--chat-accent-secondary")),
        colors.accent_secondary
    );
    let boxed = wait_for(&root, ".chat-theme-root").await;
    assert!(!boxed.class_name().contains("chat-theme-light"));
    assert_eq!(boxed.get_attribute("data-theme").as_deref(), Some("dark"));
}

#[wasm_bindgen_test]
async fn f127_set_theme_merges_and_a_mode_switch_keeps_colours_set_on_purpose() {
    let root = section();
    let ctx = StoredValue::new(None);
    let _h = mount_to(root.clone(), move || {
        view! {
            <ChatThemeProvider>
                {move || {
                    ctx.set_value(Some(use_chat_theme()));
                    view! { <p class="probe">"x"</p> }
                }}
            </ChatThemeProvider>
        }
    });
    let probe = wait_for(&root, ".probe").await;
    let (dark, light) = (default_dark_theme().colors, default_light_theme().colors);
    assert_ne!(dark.bg_primary, light.bg_primary);
    assert_eq!(
        Some(var(&probe, "--chat-bg-primary")),
        dark.bg_primary,
        "dark defaults"
    );
    let theme = ctx.get_value().expect("context inside the provider");
    let mut accent = ChatTheme::default();
    accent.colors.accent_primary = Some("#aa00aa".into());
    theme.set_theme(accent);
    theme.set_theme(ChatTheme {
        mode: Some(ThemeMode::Light),
        ..ChatTheme::default()
    });
    leptos::task::tick().await;
    let boxed = wait_for(&root, ".chat-theme-root.chat-theme-light").await;
    assert_eq!(
        Some(var(&probe, "--chat-bg-primary")),
        light.bg_primary,
        "light defaults now"
    );
    assert_eq!(var(&probe, "--chat-accent-primary"), "#aa00aa", "kept");
    assert_eq!(boxed.get_attribute("data-theme").as_deref(), Some("light"));
}

#[wasm_bindgen_test]
async fn f124_f125_parts_inside_a_provider_share_one_controller() {
    let root = section();
    let message: agent_chat_ui::core::Message = serde_json::from_value(serde_json::json!({
        "id": "m1", "role": "assistant", "content": "shown by the shared list"
    }))
    .unwrap();
    let config = SessionConfig {
        initial_messages: vec![message],
        ..SessionConfig::default()
    };
    let seen = StoredValue::new(None::<ChatStore>);
    let outside = StoredValue::new(Some(()));
    let _h = mount_to(root.clone(), move || {
        outside.set_value(use_chat_context_optional().map(|_| ()));
        view! {
            <ChatProvider config=config.clone() transport=TransportConfig::new(DEAD)>
                {move || {
                    seen.set_value(Some(use_chat_context()));
                    view! {
                        <ChatMessageList/>
                        <ChatInput/>
                    }
                }}
            </ChatProvider>
        }
    });
    let textarea: web_sys::HtmlElement = wait_for(&root, "textarea").await;
    assert!(
        outside.get_value().is_none(),
        "no controller outside a provider"
    );
    let store = seen.get_value().expect("controller inside the provider");
    // The input writes the draft into the shared controller...
    type_text(&textarea, "a draft typed in the custom layout");
    leptos::task::tick().await;
    assert_eq!(
        store.draft.get_untracked(),
        "a draft typed in the custom layout"
    );
    // ...the list draws what the controller holds...
    wait_until("the message in the list", &root, || {
        root.text_content()
            .unwrap_or_default()
            .contains("shown by the shared list")
    })
    .await;
    assert_eq!(store.messages.with_untracked(Vec::len), 1);
    // ...and what is done through the controller reaches every part: New Chat empties the
    // list, a draft the host puts back shows in the text box.
    store.clear_messages();
    wait_until("the list emptied", &root, || {
        !root
            .text_content()
            .unwrap_or_default()
            .contains("shown by the shared list")
    })
    .await;
    store.set_draft("put back by the host");
    let area = textarea.clone();
    wait_until("the draft in the text box", &root, move || {
        area.unchecked_ref::<web_sys::HtmlTextAreaElement>().value() == "put back by the host"
    })
    .await;
}

#[wasm_bindgen_test]
async fn f128_f130_i18n_provider_translates_react_keys_and_formats_in_its_locale() {
    use agent_chat_ui::ui::i18n::{use_i18n, use_i18n_context_optional, ChatI18nProvider};
    let root = section();
    let seen = StoredValue::new(None);
    let outside = StoredValue::new(Some(()));
    let _h = mount_to(root.clone(), move || {
        outside.set_value(use_i18n_context_optional().map(|_| ()));
        view! {
            <ChatI18nProvider locale="tr">
                {move || {
                    seen.set_value(Some(use_i18n()));
                    view! { <p class="probe">"x"</p> }
                }}
            </ChatI18nProvider>
        }
    });
    wait_for(&root, ".probe").await;
    assert!(outside.get_value().is_none(), "no locale state outside");
    let i18n = seen.get_value().expect("inside the provider");
    assert_eq!(i18n.locale(), "tr");
    assert_eq!(i18n.t("chat.history.newChat", &[]), "Yeni Sohbet");
    assert_eq!(i18n.t("chat.no.such.key", &[]), "chat.no.such.key");
    assert_eq!(i18n.format_number(1234.5), "1.234,5");
    assert!(!i18n.set_locale("en"), "controlled: refused");
    assert_eq!(i18n.locale(), "tr");
}

#[wasm_bindgen_test]
async fn f40_f41_uncontrolled_provider_starts_at_its_default_and_reports_a_switch() {
    use agent_chat_ui::ui::i18n::{use_i18n, ChatI18nProvider};
    let root = section();
    let seen = StoredValue::new(None);
    let changes = std::rc::Rc::new(std::cell::RefCell::new(Vec::<String>::new()));
    let sink = send_wrapper::SendWrapper::new(changes.clone());
    let _h = mount_to(root.clone(), move || {
        view! {
            <ChatI18nProvider
                default_locale="tr"
                on_locale_change=move |l: String| sink.borrow_mut().push(l)
            >
                {move || {
                    seen.set_value(Some(use_i18n()));
                    view! { <p class="probe">"x"</p> }
                }}
            </ChatI18nProvider>
        }
    });
    wait_for(&root, ".probe").await;
    let i18n = seen.get_value().unwrap();
    assert_eq!(i18n.locale(), "tr", "the default when ?lang is absent");
    assert!(i18n.set_locale("en"));
    assert_eq!(i18n.t("chat.history.newChat", &[]), "New Chat");
    assert_eq!(i18n.format_number(1234.5), "1,234.5");
    assert_eq!(*changes.borrow(), vec!["en".to_owned()]);
    // set_locale wrote ?lang=en; leave the test page's address as it was.
    let history = web_sys::window().unwrap().history().unwrap();
    history
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("?"))
        .unwrap();
}
