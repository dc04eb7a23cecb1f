//! Browser tests of `Chat`'s surface (issue 8): render slots (F26–F31, F57, F58, F61, F69,
//! F70, F107, F108), avatars and timestamps (F32, F33, F59, F60, F71, F72), initial messages
//! (F11, F134), `ChatMinimal` (F49), live locale (F39–F41, F128–F130) and theme (F24)
//! switching. No server: the base URL points at a closed port, the chat shows what it was given.
#![cfg(target_arch = "wasm32")]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use agent_chat_ui::core::{ComposerMode, Message, Role};
use agent_chat_ui::ui::i18n::I18n;
use agent_chat_ui::ui::{ChatHeader, HeaderSlot, MessageActionsSlot};
use agent_chat_ui::{
    CardOptions, Chat, ChatCallbacks, ChatMinimal, ChatSlots, Theme, UploadOptions,
};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

use crate::web;
use web::{computed_style, query, section, type_text, wait_for, wait_gone, wait_until};

/// A server address nothing listens on.
const DEAD: &str = "http://127.0.0.1:9/api/agents";

/// A user question and an assistant answer, with times.
fn seed() -> Vec<Message> {
    serde_json::from_str(
        r#"[{"id":"m_1","role":"user","content":"Hello there","createdAt":"2026-11-30T09:05:00Z"},
            {"id":"m_2","role":"assistant","content":"Hi! How can I help?","createdAt":"2026-11-30T09:06:00Z"}]"#,
    )
    .unwrap()
}

fn all(root: &web_sys::HtmlElement, sel: &str) -> Vec<web_sys::HtmlElement> {
    let list = root.query_selector_all(sel).unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .map(|n| n.unchecked_into())
        .collect()
}

fn text(el: &web_sys::HtmlElement) -> String {
    el.text_content().unwrap_or_default().trim().to_owned()
}

fn opacity(el: &web_sys::HtmlElement) -> String {
    computed_style(el, "opacity")
}

/// Removes `?lang=` from the test page's address (set_locale writes it), so later tests start
/// from a clean page.
fn clear_lang_param() {
    let window = web_sys::window().unwrap();
    let url = web_sys::Url::new(&window.location().href().unwrap()).unwrap();
    url.search_params().delete("lang");
    url.set_search(&url.search_params().to_string().as_string().unwrap());
    window
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url.href()))
        .unwrap();
}

fn lang_param() -> Option<String> {
    let search = web_sys::window().unwrap().location().search().unwrap();
    web_sys::UrlSearchParams::new_with_str(&search)
        .unwrap()
        .get("lang")
}

#[wasm_bindgen_test]
async fn f11_f134_initial_messages_are_shown_in_order_without_a_conversation() {
    let root = section();
    let _handle = mount_to(root.clone(), || {
        view! { <Chat base_url=DEAD show_history=false initial_messages=seed()/> }
    });
    wait_for(&root, "article.chat-message[data-message-id=m_2]").await;
    let rows = all(&root, "article.chat-message");
    let ids: Vec<_> = rows
        .iter()
        .map(|r| r.get_attribute("data-message-id").unwrap())
        .collect();
    assert_eq!(ids, ["m_1", "m_2"]);
    assert!(text(&rows[0]).contains("Hello there"));
    assert!(text(&rows[1]).contains("Hi! How can I help?"));
    assert!(
        query(&root, ".chat-empty").is_none(),
        "no empty state over seeded messages"
    );
}

#[wasm_bindgen_test]
async fn f26_f69_message_actions_under_assistant_messages_revealed_on_focus() {
    let root = section();
    let seen = Arc::new(Mutex::new(Vec::<(String, bool)>::new()));
    let record = seen.clone();
    let _handle = mount_to(root.clone(), move || {
        let record = record.clone();
        view! {
            <Chat
                base_url=DEAD
                show_history=false
                initial_messages=seed()
                slots=ChatSlots::default()
                    .render_message_actions(move |slot: MessageActionsSlot| {
                        record.lock().unwrap().push((slot.message.id.clone(), slot.is_streaming));
                        view! { <button type="button" class="test-copy">"Copy"</button> }
                    })
            />
        }
    });
    let button = wait_for(
        &root,
        "[data-message-id=m_2] .chat-message__actions .test-copy",
    )
    .await;
    assert!(
        query(&root, "[data-message-id=m_1] .chat-message__actions").is_none(),
        "no actions under the person's message"
    );
    assert_eq!(*seen.lock().unwrap(), [("m_2".to_owned(), false)]);
    let actions = query(&root, "[data-message-id=m_2] .chat-message__actions").unwrap();
    // Headless Chromium reports `(hover: none)`, so the stylesheet's touch rule would show the
    // actions all the time and hide the hover/focus rule. Both pointers are tried explicitly
    // by switching that one `@media` rule on and off.
    let touch = TouchRule::find();
    touch.set("all");
    wait_until("touch screens always show the actions", &root, || {
        opacity(&actions) == "1"
    })
    .await;
    touch.set("not all");
    wait_until("hidden for a mouse until hover or focus", &root, || {
        opacity(&actions) == "0"
    })
    .await;
    // A keyboard user tabbing to the action reveals the row (focus-within)...
    button.focus().unwrap();
    wait_until("actions visible on focus", &root, || {
        opacity(&actions) == "1"
    })
    .await;
    // ...and leaving it hides the row again.
    button.blur().unwrap();
    wait_until("hidden again after blur", &root, || {
        opacity(&actions) == "0"
    })
    .await;
}

/// The stylesheet's `@media (hover: none)` rule that always shows message actions on touch
/// screens; its media is put back when dropped.
struct TouchRule(js_sys::Array);

impl TouchRule {
    const MEDIA: &'static str = "(hover: none)";

    /// Every such rule in the page's style sheets (one per mounted stylesheet); at least one.
    fn find() -> TouchRule {
        let rules: js_sys::Array = js_sys::Function::new_with_args(
            "media",
            "const found = [];\
             for (const sheet of document.styleSheets) {\
               let rules = [];\
               try { rules = sheet.cssRules; } catch (e) { continue; }\
               for (const rule of rules) {\
                 if (rule.media && rule.media.mediaText === media\
                     && rule.cssText.includes('.chat-message__actions')) { found.push(rule); }\
               }\
             }\
             return found;",
        )
        .call1(&wasm_bindgen::JsValue::NULL, &Self::MEDIA.into())
        .unwrap()
        .unchecked_into();
        assert!(
            rules.length() > 0,
            "no {} rule for message actions",
            Self::MEDIA
        );
        TouchRule(rules)
    }

    /// Sets the rules' media query (`all`: a touch screen, `not all`: a mouse).
    fn set(&self, media: &str) {
        for rule in self.0.iter() {
            let list = js_sys::Reflect::get(&rule, &"media".into()).unwrap();
            js_sys::Reflect::set(&list, &"mediaText".into(), &media.into()).unwrap();
        }
    }
}

impl Drop for TouchRule {
    fn drop(&mut self) {
        self.set(Self::MEDIA);
    }
}

#[wasm_bindgen_test]
async fn f27_f32_f71_default_badges_custom_avatars_and_avatars_off() {
    // Default: "U" for the person, "AI" for the assistant.
    let root = section();
    let _a = mount_to(root.clone(), || {
        view! { <Chat base_url=DEAD show_history=false initial_messages=seed()/> }
    });
    let user = wait_for(&root, "[data-message-id=m_1] .chat-avatar").await;
    assert_eq!(text(&user), "U");
    assert_eq!(user.get_attribute("data-role").as_deref(), Some("user"));
    let ai = wait_for(&root, "[data-message-id=m_2] .chat-avatar").await;
    assert_eq!(text(&ai), "AI");

    // render_avatar replaces both, given the role.
    let custom = section();
    let _b = mount_to(custom.clone(), || {
        view! {
            <Chat
                base_url=DEAD
                show_history=false
                initial_messages=seed()
                slots=ChatSlots::default()
                    .render_avatar(|role: Role| {
                        let who = if role == Role::User { "me" } else { "bot" };
                        view! { <img class="test-avatar" alt="" data-who=who/> }
                    })
            />
        }
    });
    let mine = wait_for(
        &custom,
        "[data-message-id=m_1] .chat-avatar--custom .test-avatar",
    )
    .await;
    assert_eq!(mine.get_attribute("data-who").as_deref(), Some("me"));
    let bot = wait_for(
        &custom,
        "[data-message-id=m_2] .chat-avatar--custom .test-avatar",
    )
    .await;
    assert_eq!(bot.get_attribute("data-who").as_deref(), Some("bot"));

    // show_avatars=false: none at all.
    let off = section();
    let _c = mount_to(off.clone(), || {
        view! { <Chat base_url=DEAD show_history=false show_avatars=false initial_messages=seed()/> }
    });
    wait_for(&off, "[data-message-id=m_2]").await;
    assert!(query(&off, ".chat-avatar").is_none());
}

#[wasm_bindgen_test]
async fn f33_f72_timestamps_are_local_hh_mm_with_datetime_and_off_by_default() {
    let root = section();
    let _a = mount_to(root.clone(), || {
        view! { <Chat base_url=DEAD show_history=false initial_messages=seed()/> }
    });
    wait_for(&root, "[data-message-id=m_2]").await;
    assert!(query(&root, "time").is_none(), "off by default");

    let on = section();
    let _b = mount_to(on.clone(), || {
        view! { <Chat base_url=DEAD show_history=false show_timestamps=true initial_messages=seed()/> }
    });
    let time = wait_for(&on, "[data-message-id=m_2] time.chat-message__time").await;
    assert_eq!(
        time.get_attribute("datetime").as_deref(),
        Some("2026-11-30T09:06:00.000Z")
    );
    let date = js_sys::Date::new(&"2026-11-30T09:06:00Z".into());
    let expected = format!("{:02}:{:02}", date.get_hours(), date.get_minutes());
    assert_eq!(text(&time), expected);
    assert!(query(&on, "[data-message-id=m_1] time.chat-message__time").is_some());
}

#[wasm_bindgen_test]
async fn f28_f61_render_empty_state_replaces_the_default() {
    let root = section();
    let _handle = mount_to(root.clone(), || {
        view! {
            <Chat
                base_url=DEAD
                show_history=false
                slots=ChatSlots::default()
                    .render_empty_state(|_: ()| view! { <p class="test-empty">"Ask me about invoices"</p> })
            />
        }
    });
    let custom = wait_for(&root, ".test-empty").await;
    assert_eq!(text(&custom), "Ask me about invoices");
    assert!(query(&root, ".chat-empty__title").is_none());
}

#[wasm_bindgen_test]
async fn f29_render_header_gets_the_menu_callback_and_agents() {
    let root = section();
    let _handle = mount_to(root.clone(), || {
        view! {
            <Chat
                base_url=DEAD
                slots=ChatSlots::default()
                    .render_header(|h: HeaderSlot| {
                        let menu = h.on_menu_click;
                        let agents = h.agents;
                        view! {
                            <div class="test-header" data-agents=move || agents.with(|a| a.len()).to_string()>
                                <button type="button" class="test-menu" on:click=move |_| {
                                    if let Some(m) = menu { m.run(()); }
                                }>"Menu"</button>
                            </div>
                        }
                    })
            />
        }
    });
    wait_for(&root, ".test-header").await;
    assert!(
        query(&root, "header.chat-header").is_none(),
        "the default header is replaced"
    );
    let drawer = wait_for(&root, "aside.chat-history").await;
    assert_eq!(drawer.get_attribute("data-open").as_deref(), Some("false"));
    wait_for(&root, ".test-menu").await.click();
    wait_until("the drawer opens from the custom header", &root, || {
        drawer.get_attribute("data-open").as_deref() == Some("true")
    })
    .await;

    // The default header can be reused with extra controls at its end.
    let reuse = section();
    let _b = mount_to(reuse.clone(), || {
        view! {
            <Chat
                base_url=DEAD
                slots=ChatSlots::default()
                    .render_header(|h: HeaderSlot| view! {
                        <ChatHeader header=h><span class="test-extra">"extra"</span></ChatHeader>
                    })
            />
        }
    });
    wait_for(&reuse, "header.chat-header .test-extra").await;
    assert!(query(&reuse, "header.chat-header .chat-header__title").is_some());
    assert!(query(&reuse, "header.chat-header .chat-header__menu").is_some());
}

#[wasm_bindgen_test]
async fn f30_f31_f107_f108_history_header_and_footer_slots() {
    let root = section();
    let _handle = mount_to(root.clone(), || {
        view! {
            <Chat
                base_url=DEAD
                slots=ChatSlots::default()
                    .render_history_header(|_: ()| view! { <p class="test-history-top">"My chats"</p> })
                    .render_history_footer(|_: ()| view! { <p class="test-history-bottom">"v1.2"</p> })
            />
        }
    });
    let top = wait_for(&root, "aside.chat-history .test-history-top").await;
    assert_eq!(text(&top), "My chats");
    assert!(
        query(&root, ".chat-history__new").is_none(),
        "New Chat is replaced"
    );
    let bottom = wait_for(
        &root,
        "aside.chat-history .chat-history__footer .test-history-bottom",
    )
    .await;
    assert_eq!(text(&bottom), "v1.2");
}

#[wasm_bindgen_test]
async fn f49_chat_minimal_has_no_history_even_when_asked() {
    let root = section();
    let _handle = mount_to(root.clone(), || {
        view! {
            <ChatMinimal
                base_url=DEAD
                show_history=true
                initial_messages=seed()
                show_timestamps=true
                theme=Theme::Light
            />
        }
    });
    wait_for(&root, "[data-message-id=m_2] time").await;
    wait_for(&root, "textarea.chat-input__textarea").await;
    assert!(query(&root, ".chat-history").is_none());
    assert!(query(&root, ".chat-header__menu").is_none());
    assert!(query(&root, ".chat-root")
        .unwrap()
        .class_list()
        .contains("chat-theme-light"));
}

#[wasm_bindgen_test]
async fn f24_theme_switches_live_keeping_the_draft() {
    let root = section();
    let theme = RwSignal::new(Theme::Dark);
    let _handle = mount_to(root.clone(), move || {
        view! { <Chat base_url=DEAD show_history=false theme=theme initial_messages=seed()/> }
    });
    let chat = wait_for(&root, ".chat-root").await;
    assert!(!chat.class_list().contains("chat-theme-light"));
    let textarea = wait_for(&root, "textarea.chat-input__textarea").await;
    type_text(&textarea, "half a thought");
    theme.set(Theme::Light);
    wait_until("light class", &root, || {
        chat.class_list().contains("chat-theme-light")
    })
    .await;
    let same = query(&root, "textarea.chat-input__textarea").unwrap();
    assert!(same.is_same_node(Some(&textarea)), "not remounted");
    assert_eq!(
        same.unchecked_ref::<web_sys::HtmlTextAreaElement>().value(),
        "half a thought"
    );
    assert!(query(&root, "[data-message-id=m_2]").is_some());
    theme.set(Theme::Dark);
    wait_until("dark again", &root, || {
        !chat.class_list().contains("chat-theme-light")
    })
    .await;
}

#[wasm_bindgen_test]
async fn f40_f41_f128_set_locale_switches_strings_and_dir_live_and_rewrites_lang() {
    clear_lang_param();
    let root = section();
    let changes = Arc::new(Mutex::new(Vec::<String>::new()));
    let record = changes.clone();
    // What each set_locale call answered. Recorded, not asserted in the handler: a panic in
    // an event handler does not fail a wasm-bindgen test.
    let answers = Arc::new(Mutex::new(Vec::<(&str, bool)>::new()));
    let answered = answers.clone();
    let _handle = mount_to(root.clone(), move || {
        let record = record.clone();
        let answered = answered.clone();
        view! {
            <Chat
                base_url=DEAD
                show_history=false
                default_locale="tr"
                slots=ChatSlots::default()
                    .render_empty_state(move |_: ()| {
                        // Inside the chat: its i18n context, as a host control would use it.
                        let i18n = I18n::get();
                        let (to_ar, to_xx) = (answered.clone(), answered.clone());
                        view! {
                            <button type="button" class="test-to-ar" on:click=move |_| {
                                to_ar.lock().unwrap().push(("ar-SA", i18n.set_locale("ar-SA")));
                            }>"ar"</button>
                            <button type="button" class="test-to-xx" on:click=move |_| {
                                to_xx.lock().unwrap().push(("xx", i18n.set_locale("xx")));
                            }>"xx"</button>
                        }
                    })
                callbacks=ChatCallbacks::default()
                    .on_locale_change(move |l: String| record.lock().unwrap().push(l))
            />
        }
    });
    // F40: no locale prop and no ?lang=: default_locale.
    let chat = wait_for(&root, ".chat-root").await;
    assert_eq!(chat.get_attribute("lang").as_deref(), Some("tr"));
    assert_eq!(chat.get_attribute("dir").as_deref(), Some("ltr"));
    let textarea = wait_for(&root, "textarea.chat-input__textarea").await;
    assert_eq!(
        textarea.get_attribute("aria-label").as_deref(),
        Some("Mesaj")
    );
    type_text(&textarea, "taslak kalsın");

    wait_for(&root, ".test-to-xx").await.click();
    leptos::task::tick().await;
    assert_eq!(
        *answers.lock().unwrap(),
        [("xx", false)],
        "not a shipped locale"
    );
    assert_eq!(chat.get_attribute("lang").as_deref(), Some("tr"));

    wait_for(&root, ".test-to-ar").await.click();
    assert_eq!(*answers.lock().unwrap(), [("xx", false), ("ar-SA", true)]);
    wait_until("lang=ar", &root, || {
        chat.get_attribute("lang").as_deref() == Some("ar")
    })
    .await;
    assert_eq!(chat.get_attribute("dir").as_deref(), Some("rtl"));
    let textarea = query(&root, "textarea.chat-input__textarea").unwrap();
    let arabic_label = agent_chat_ui::core::Catalog::new("ar").tr("chat-input-label");
    assert_ne!(arabic_label, "Mesaj");
    wait_until("the composer label in Arabic", &root, || {
        textarea.get_attribute("aria-label") == Some(arabic_label.clone())
    })
    .await;
    assert_eq!(
        textarea
            .unchecked_ref::<web_sys::HtmlTextAreaElement>()
            .value(),
        "taslak kalsın",
        "the draft survives"
    );
    assert_eq!(lang_param().as_deref(), Some("ar"), "?lang rewritten");
    assert_eq!(*changes.lock().unwrap(), ["ar"]);
    clear_lang_param();
}

#[wasm_bindgen_test]
async fn f128_lang_query_is_detected_when_uncontrolled_only() {
    clear_lang_param();
    let window = web_sys::window().unwrap();
    let url = web_sys::Url::new(&window.location().href().unwrap()).unwrap();
    url.search_params().set("lang", "tr");
    url.set_search(&url.search_params().to_string().as_string().unwrap());
    window
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url.href()))
        .unwrap();

    let free = section();
    let _a = mount_to(
        free.clone(),
        || view! { <Chat base_url=DEAD show_history=false/> },
    );
    let title = wait_for(&free, ".chat-empty__title").await;
    assert_eq!(text(&title), "Bir sohbet başlatın");

    let controlled = section();
    let _b = mount_to(
        controlled.clone(),
        || view! { <Chat base_url=DEAD show_history=false locale="en"/> },
    );
    let title = wait_for(&controlled, ".chat-empty__title").await;
    assert_eq!(text(&title), "Start a conversation");
    clear_lang_param();
}

#[wasm_bindgen_test]
async fn f39_controlled_locale_follows_its_prop_and_refuses_set_locale() {
    clear_lang_param();
    let root = section();
    let locale = RwSignal::new("en".to_owned());
    // What set_locale answered (a panic in an event handler would not fail the test).
    let answers = Arc::new(Mutex::new(Vec::<bool>::new()));
    let answered = answers.clone();
    let _handle = mount_to(root.clone(), move || {
        let answered = answered.clone();
        view! {
            <Chat
                base_url=DEAD
                show_history=false
                locale=locale
                slots=ChatSlots::default()
                    .render_empty_state(move |_: ()| {
                        let i18n = I18n::get();
                        let answered = answered.clone();
                        view! {
                            <button type="button" class="test-try" on:click=move |_| {
                                answered.lock().unwrap().push(i18n.set_locale("tr"));
                            }>"try"</button>
                        }
                    })
            />
        }
    });
    let chat = wait_for(&root, ".chat-root").await;
    let textarea = wait_for(&root, "textarea.chat-input__textarea").await;
    type_text(&textarea, "keep me");
    wait_for(&root, ".test-try").await.click();
    assert_eq!(
        *answers.lock().unwrap(),
        [false],
        "refused while controlled"
    );
    // A locale change would be drawn by the next frame.
    web::next_frame().await;
    assert_eq!(chat.get_attribute("lang").as_deref(), Some("en"));
    assert_eq!(lang_param(), None, "the address is not touched");

    locale.set("ar".to_owned());
    wait_until("rtl", &root, || {
        chat.get_attribute("dir").as_deref() == Some("rtl")
    })
    .await;
    assert_eq!(
        query(&root, "textarea.chat-input__textarea")
            .unwrap()
            .unchecked_ref::<web_sys::HtmlTextAreaElement>()
            .value(),
        "keep me"
    );
    locale.set("tr".to_owned());
    wait_until("ltr Turkish", &root, || {
        chat.get_attribute("lang").as_deref() == Some("tr")
            && chat.get_attribute("dir").as_deref() == Some("ltr")
    })
    .await;
}

/// `rgb(r, g, b)` / `rgba(r, g, b, a)` as computed styles write colours; `None` when fully
/// transparent.
fn rgb(css: &str) -> Option<[f64; 3]> {
    let inner = css.trim().split_once('(')?.1.trim_end_matches(')');
    let parts: Vec<f64> = inner
        .split(',')
        .map(|p| p.trim().parse().unwrap())
        .collect();
    if parts.len() == 4 && parts[3] == 0.0 {
        return None;
    }
    Some([parts[0], parts[1], parts[2]])
}

/// WCAG 2.2 contrast ratio of two sRGB colours.
fn contrast(a: [f64; 3], b: [f64; 3]) -> f64 {
    let lum = |c: [f64; 3]| {
        let ch = |v: f64| {
            let s = v / 255.0;
            if s <= 0.04045 {
                s / 12.92
            } else {
                ((s + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * ch(c[0]) + 0.7152 * ch(c[1]) + 0.0722 * ch(c[2])
    };
    let (x, y) = (lum(a), lum(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

/// The colour painted behind `el`: its own background or the nearest ancestor's.
fn backdrop(el: &web_sys::Element) -> [f64; 3] {
    let mut at = Some(el.clone());
    while let Some(e) = at {
        if let Some(c) = rgb(&computed_style(&e, "background-color")) {
            return c;
        }
        at = e.parent_element();
    }
    panic!("no background behind the composer")
}

#[wasm_bindgen_test]
async fn wcag_2_4_13_the_focused_composer_has_a_2px_ring_at_3_to_1_in_both_themes() {
    let root = section();
    let theme = RwSignal::new(Theme::Dark);
    let _handle = mount_to(root.clone(), move || {
        view! { <Chat base_url=DEAD show_history=false theme=theme/> }
    });
    let chat = wait_for(&root, ".chat-root").await;
    let textarea = wait_for(&root, "textarea.chat-input__textarea").await;
    let boxed = query(&root, ".chat-input__box").unwrap();
    let outer = boxed.parent_element().unwrap();
    for (mode, light) in [(Theme::Dark, false), (Theme::Light, true)] {
        theme.set(mode);
        wait_until("theme applied", &root, || {
            chat.class_list().contains("chat-theme-light") == light
        })
        .await;
        textarea.blur().unwrap();
        leptos::task::tick().await;
        assert_eq!(
            computed_style(&boxed, "outline-style"),
            "none",
            "no ring without focus"
        );
        textarea.focus().unwrap();
        leptos::task::tick().await;
        let width: f64 = computed_style(&boxed, "outline-width")
            .trim_end_matches("px")
            .parse()
            .unwrap();
        assert_eq!(
            computed_style(&boxed, "outline-style"),
            "solid",
            "light={light}"
        );
        assert!(width >= 2.0, "ring {width}px (light={light})");
        let ring = rgb(&computed_style(&boxed, "outline-color")).expect("an opaque ring");
        // The ring sits outside the box (offset), on the composer's backdrop, and next to the
        // box's own fill: both must be 3:1 (non-text contrast).
        for (what, bg) in [("backdrop", backdrop(&outer)), ("box", backdrop(&boxed))] {
            let r = contrast(ring, bg);
            assert!(r >= 3.0, "ring on {what} is {r:.2}:1 (light={light})");
        }
    }
}

/// D44/D46: the text of the messages `ids` (a person's run of lines, or a Markdown
/// paragraph) says `direction` in its `dir` and reads in it; the content box itself has no
/// `dir` (it follows the layout).
fn expect_contents_read(root: &web_sys::HtmlElement, ids: &[&str], direction: &str) {
    for id in ids {
        let content = query(
            root,
            &format!("[data-message-id={id}] .chat-message__content"),
        )
        .unwrap_or_else(|| panic!("{id}'s content"));
        assert_eq!(content.get_attribute("dir"), None, "{id}");
        let text = query(&content, "p, .chat-message__lines").expect("the text");
        assert_eq!(
            text.get_attribute("dir").as_deref(),
            Some(direction),
            "{id}"
        );
        assert_eq!(computed_style(&text, "direction"), direction, "{id}");
    }
}

#[wasm_bindgen_test]
async fn d46_message_text_reads_its_own_way_english_ltr_in_arabic_and_arabic_rtl_in_english() {
    // English words in the Arabic (right-to-left) layout keep "!" and "?" at their end (right).
    let root = section();
    let _handle = mount_to(root.clone(), || {
        view! { <Chat base_url=DEAD show_history=false locale="ar" initial_messages=seed()/> }
    });
    let chat = wait_for(&root, ".chat-root[dir=rtl]").await;
    wait_for(&root, "[data-message-id=m_2] .chat-message__content").await;
    expect_contents_read(&root, &["m_1", "m_2"], "ltr");
    assert_eq!(
        computed_style(&chat, "direction"),
        "rtl",
        "the layout stays Arabic"
    );
    drop(_handle);

    // Arabic words in the English layout read right to left.
    let root = section();
    let arabic: Vec<Message> = serde_json::from_str(
        r#"[{"id":"a_1","role":"user","content":"مرحبا! كيف حالك؟"},
            {"id":"a_2","role":"assistant","content":"أنا بخير، شكرا."}]"#,
    )
    .unwrap();
    let _handle = mount_to(root.clone(), move || {
        view! { <Chat base_url=DEAD show_history=false locale="en" initial_messages=arabic.clone()/> }
    });
    wait_for(&root, ".chat-root[dir=ltr]").await;
    wait_for(&root, "[data-message-id=a_2] .chat-message__content").await;
    expect_contents_read(&root, &["a_1", "a_2"], "rtl");
}

/// Issue 17 (F2, F3, F4, F10): `authorization`, `headers`, `agent_id` and `conversation_id`
/// given as signals are followed: a refreshed token and headers go out with the next
/// request, a new conversation id opens it, a new agent id switches the agent.
#[wasm_bindgen_test]
async fn i17_server_props_given_as_signals_are_followed() {
    let stub = web::fetch::FetchStub::install(serde_json::json!([
        {"body": {"agents": [{"id": "echo", "name": "Echo"}, {"id": "ops", "name": "Ops"}]}},
        {"body": {"conversation": {"id": "conv_2", "agentId": "echo", "title": "Second"},
                  "messages": [{"id": "m_9", "role": "assistant", "content": "From conv 2",
                                "createdAt": "2026-11-30T09:06:00Z"}]}}
    ]));
    let root = section();
    let token = RwSignal::new(Some("Bearer one".to_string()));
    let headers = RwSignal::new(vec![("X-Tenant".to_string(), "acme".to_string())]);
    let agent = RwSignal::new(Some("echo".to_string()));
    let conversation = RwSignal::new(None::<String>);
    let changed = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = changed.clone();
    let _h = leptos::mount::mount_to(root.clone(), move || {
        view! {
            <Chat
                base_url="https://agents.test/api"
                show_history=false
                authorization=token
                headers=headers
                agent_id=agent
                conversation_id=conversation
                callbacks=ChatCallbacks::default()
                    .on_agent_change(move |id: String| sink.lock().unwrap().push(id))
            />
        }
    });
    wait_until("the agent list was asked for", &root, || {
        !stub.calls().is_empty()
    })
    .await;
    let first = &stub.calls()[0];
    assert_eq!(
        first.headers.get("authorization").map(String::as_str),
        Some("Bearer one")
    );
    assert_eq!(
        first.headers.get("x-tenant").map(String::as_str),
        Some("acme")
    );
    wait_for(&root, ".chat-header__title").await;

    token.set(Some("Bearer two".into()));
    headers.set(vec![("X-Tenant".into(), "globex".into())]);
    conversation.set(Some("conv_2".into()));
    wait_until("conv_2 was asked for", &root, || stub.calls().len() >= 2).await;
    let second = &stub.calls()[1];
    assert!(
        second.url.ends_with("/conversations/conv_2"),
        "{}",
        second.url
    );
    assert_eq!(
        second.headers.get("authorization").map(String::as_str),
        Some("Bearer two")
    );
    assert_eq!(
        second.headers.get("x-tenant").map(String::as_str),
        Some("globex")
    );
    wait_until("conv_2 drawn", &root, || {
        query(&root, ".chat-message").is_some_and(|m| text(&m).contains("From conv 2"))
    })
    .await;

    agent.set(Some("ops".into()));
    wait_until("switched to Ops", &root, || {
        query(&root, ".chat-header__title").is_some_and(|t| text(&t) == "Ops")
    })
    .await;
    assert_eq!(changed.lock().unwrap().as_slice(), ["ops".to_string()]);
    drop(stub);
}

/// A `window.fetch` that answers by route, for a `Chat` that talks to a server: one agent, a
/// history list of one conversation, a new conversation (and `conv_1` itself, empty), and for
/// a message either `send` (`{status, body}`) or a reply stream that stays open (so the Stop
/// button shows) until aborted.
const ROUTED_FETCH: &str = r#"
const enc = new TextEncoder();
const json = (b, status) => new Response(JSON.stringify(b),
  { status: status || 200, headers: { 'content-type': 'application/json' } });
return async (input, init) => {
  const req = input instanceof Request ? input : new Request(input, init);
  const path = new URL(req.url).pathname;
  if (path.endsWith('/agents')) { return json({ agents: [{ id: 'echo', name: 'Echo' }] }); }
  if (path.endsWith('/conversations/conv_1') && req.method === 'GET') {
    return json({ conversation: { id: 'conv_1', agentId: 'echo' }, messages: [], pendingActions: [] });
  }
  if (path.endsWith('/messages') && req.method === 'POST' && send) {
    const text = send.text !== undefined ? send.text : JSON.stringify(send.body);
    return new Response(text, { status: send.status,
      headers: Object.assign({ 'content-type': 'application/json' }, send.headers || {}) });
  }
  if (path.endsWith('/conversations') && req.method === 'GET') {
    return json({ conversations: [{ id: 'c1', agentId: 'echo', title: 'Trip to Rome' }],
      total: 1, limit: 20, offset: 0, hasMore: false });
  }
  if (path.endsWith('/conversations') && req.method === 'POST') {
    return json({ conversation: { id: 'conv_1', agentId: 'echo' } }, 201);
  }
  if (path.endsWith('/messages') && req.method === 'POST') {
    const body = new ReadableStream({
      start(c) {
        c.enqueue(enc.encode('data: {"type":"stream.start","timestamp":1,"conversationId":"conv_1","messageId":"m_u"}\n\n'));
        c.enqueue(enc.encode('data: {"type":"stream.text","timestamp":2,"text":"Working on it"}\n\n'));
        req.signal.addEventListener('abort', () => {
          try { c.error(new DOMException('The user aborted a request.', 'AbortError')); } catch (e) {}
        });
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  }
  return json({ error: { code: 'not_found', message: 'no route' } }, 404);
};
"#;

/// `window.fetch` replaced by [`ROUTED_FETCH`] until dropped.
struct RoutedFetch(wasm_bindgen::JsValue);

impl RoutedFetch {
    /// Messages get an open reply stream.
    fn install() -> RoutedFetch {
        RoutedFetch::answering(None)
    }

    /// Messages get `send` (`{status, body}`), or an open reply stream.
    fn answering(send: Option<serde_json::Value>) -> RoutedFetch {
        let window = web_sys::window().unwrap();
        let original = js_sys::Reflect::get(&window, &"fetch".into()).unwrap();
        let send = send.map_or(wasm_bindgen::JsValue::NULL, |v| {
            js_sys::JSON::parse(&v.to_string()).unwrap()
        });
        let fake = js_sys::Function::new_with_args("send", ROUTED_FETCH)
            .call1(&wasm_bindgen::JsValue::NULL, &send)
            .unwrap();
        js_sys::Reflect::set(&window, &"fetch".into(), &fake).unwrap();
        RoutedFetch(original)
    }
}

impl Drop for RoutedFetch {
    fn drop(&mut self) {
        let window = web_sys::window().unwrap();
        js_sys::Reflect::set(&window, &"fetch".into(), &self.0).unwrap();
    }
}

/// Every enabled, rendered button that shows an icon: its class and the contrast of the
/// icon's colour (what `currentColor` strokes) on the button's own fill or what is behind it.
fn icon_button_contrasts(root: &web_sys::HtmlElement) -> Vec<(String, f64)> {
    all(root, "button")
        .into_iter()
        .filter(|b| query(b, "svg.chat-icon").is_some())
        .filter(|b| !b.has_attribute("disabled") && b.get_bounding_client_rect().width() > 0.0)
        .map(|b| {
            let svg = query(&b, "svg.chat-icon").unwrap();
            let icon = rgb(&computed_style(&svg, "color")).expect("an opaque icon colour");
            let class = b.get_attribute("class").unwrap_or_default();
            (class, contrast(icon, backdrop(&b)))
        })
        .collect()
}

#[wasm_bindgen_test]
async fn issue_19_every_icon_button_shows_its_icon_on_its_own_fill_in_both_themes() {
    let _fetch = RoutedFetch::install();
    let root = section();
    let theme = RwSignal::new(Theme::Dark);
    let _handle = mount_to(root.clone(), move || {
        view! {
            <Chat base_url="https://icons.test/api" theme=theme initial_messages=seed()/>
        }
    });
    let chat = wait_for(&root, ".chat-root").await;
    wait_for(&root, "li[data-conversation-id=c1]").await;
    let textarea: web_sys::HtmlTextAreaElement = wait_for(&root, "textarea.chat-input__textarea")
        .await
        .unchecked_into();
    let check = |phase: &'static str, must: &'static str| {
        let root = root.clone();
        let chat = chat.clone();
        async move {
            for (mode, light) in [(Theme::Dark, false), (Theme::Light, true)] {
                theme.set(mode);
                wait_until("theme applied", &root, || {
                    chat.class_list().contains("chat-theme-light") == light
                })
                .await;
                let seen = icon_button_contrasts(&root);
                assert!(
                    seen.iter().any(|(class, _)| class.contains(must)),
                    "{must} not checked while {phase}: {seen:?}"
                );
                let faint: Vec<_> = seen.iter().filter(|(_, r)| *r < 3.0).collect();
                assert!(
                    faint.is_empty(),
                    "icons under 3:1 on their own fill while {phase} (light={light}): {faint:?}"
                );
            }
        }
    };
    // Typed, not sent: Send is enabled, the header and history rows show theirs.
    type_text(&textarea, "Plan a trip");
    wait_until("send enabled", &root, || {
        query(&root, ".chat-input__send").is_some_and(|b| !b.has_attribute("disabled"))
    })
    .await;
    check("typing", "chat-input__send").await;
    // Sent: the reply streams and Stop takes Send's place (the square that was blank).
    theme.set(Theme::Dark);
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("Enter");
    init.set_bubbles(true);
    init.set_cancelable(true);
    let key = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    textarea.dispatch_event(&key).unwrap();
    wait_for(&root, ".chat-input__stop").await;
    check("a reply streams", "chat-input__stop").await;
    query(&root, ".chat-input__stop").unwrap().click();
    // No stream outlives the test.
    wait_gone(&root, ".chat-input__stop").await;
}

/// Sends "Plan a trip" from a `Chat` whose server refuses messages with `code` (and the
/// wording "srv words"), with `custom` as `custom_messages`; returns the banner's text and
/// what the composer holds afterwards.
async fn refused_send(code: &str, custom: HashMap<String, String>) -> (String, String) {
    let (text, _, draft) = refused_with(
        serde_json::json!({
            "status": 409,
            "body": {"error": {"code": code, "message": "srv words"}}
        }),
        custom,
    )
    .await;
    (text, draft)
}

/// Sends "Plan a trip" from a `Chat` whose server refuses messages with `send` (`{status,
/// body | text, headers}`); returns the banner's sentence, the server's words under it (if
/// any) and what the composer holds afterwards.
async fn refused_with(
    send: serde_json::Value,
    custom: HashMap<String, String>,
) -> (String, Option<String>, String) {
    let _fetch = RoutedFetch::answering(Some(send));
    let root = section();
    let _handle = mount_to(root.clone(), move || {
        view! {
            <Chat base_url="https://errors.test/api" show_history=false custom_messages=custom.clone()/>
        }
    });
    let textarea: web_sys::HtmlTextAreaElement = wait_for(&root, "textarea.chat-input__textarea")
        .await
        .unchecked_into();
    wait_until("the agent list arrived", &root, || {
        query(&root, ".chat-header__title").and_then(|h| h.text_content()) == Some("Echo".into())
    })
    .await;
    type_text(&textarea, "Plan a trip");
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("Enter");
    init.set_bubbles(true);
    init.set_cancelable(true);
    let key = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    textarea.dispatch_event(&key).unwrap();
    let banner = wait_for(&root, ".chat-error[role=alert] .chat-error__text").await;
    let whole = banner.text_content().unwrap_or_default();
    let detail = query(&banner, ".chat-error__detail").and_then(|d| d.text_content());
    let text = match &detail {
        Some(d) => whole.strip_suffix(d.as_str()).unwrap_or(&whole).to_owned(),
        None => whole,
    };
    // The draft comes back with the same publish as the banner.
    web::next_frame().await;
    (text, detail, textarea.value())
}

/// Issue 38: a 429 tells the person how long to wait when the server said (`Retry-After`),
/// "too many requests" when it gave no words, its own words when it did, and the server's
/// words under the page's sentence for the `rate_limited` code; the message is kept.
#[wasm_bindgen_test]
async fn issue_38_a_429_says_how_long_to_wait_and_keeps_the_servers_words() {
    let words = "Free plan: 3 messages a minute.";
    for (send, text, detail) in [
        (
            serde_json::json!({"status": 429, "text": "", "headers": {"retry-after": "30"}}),
            "Too many requests. Try again in 30 seconds.",
            None,
        ),
        (
            serde_json::json!({"status": 429, "text": ""}),
            "Too many requests. Try again in a moment.",
            None,
        ),
        (
            serde_json::json!({"status": 429, "body": {"error": {"message": words}},
                "headers": {"retry-after": "30"}}),
            words,
            None,
        ),
        (
            serde_json::json!({"status": 429,
                "body": {"error": {"code": "rate_limited", "message": words}}}),
            "Too many requests. Try again in a moment.",
            Some(words),
        ),
        (
            serde_json::json!({"status": 502, "text": "upstream connect error", "headers": {"content-type": "text/plain"}}),
            "upstream connect error",
            None,
        ),
    ] {
        let (got, got_detail, draft) = refused_with(send.clone(), HashMap::new()).await;
        assert_eq!(got, text, "{send}");
        assert_eq!(got_detail.as_deref(), detail, "{send}");
        assert_eq!(draft, "Plan a trip", "{send}");
    }
}

#[wasm_bindgen_test]
async fn s000_refused_sends_show_the_friendly_error_in_the_page_and_customs_replace_it() {
    for (code, expected) in [
        (
            "pending_action",
            "The assistant is waiting for your answer above. Answer it before sending something new.",
        ),
        ("PENDING_ACTION", "The assistant is waiting for your answer above. Answer it before sending something new."),
        ("message_too_long", "This message is too long."),
        ("file_too_large", "This file is too large."),
        ("unsupported_file_type", "This file type is not supported."),
        ("attachments_disabled", "Attachments are turned off for this assistant."),
        // A code the library has no string for: the server's own words.
        ("no_such_code_here", "srv words"),
    ] {
        let (text, _) = refused_send(code, HashMap::new()).await;
        assert_eq!(text, expected, "{code}");
    }
    let custom = HashMap::from([(
        "chat.error.code.message_too_long".to_owned(),
        "Keep it shorter, please.".to_owned(),
    )]);
    let (text, _) = refused_send("message_too_long", custom).await;
    assert_eq!(text, "Keep it shorter, please.");
}

#[wasm_bindgen_test]
async fn f197_a_send_refused_as_pending_action_keeps_the_typed_text() {
    let (_, draft) = refused_send("pending_action", HashMap::new()).await;
    assert_eq!(draft, "Plan a trip");
}

/// Issue 17 (F1): a new `base_url` switches servers: the chat starts over against the new
/// one (its agents), and what the person typed stays.
#[wasm_bindgen_test]
async fn i17_a_new_base_url_starts_the_chat_over_on_that_server() {
    let stub = web::fetch::FetchStub::install(serde_json::json!([
        {"body": {"agents": [{"id": "echo", "name": "Echo"}]}},
        {"body": {"agents": [{"id": "ops", "name": "Ops"}]}}
    ]));
    let root = section();
    let base = RwSignal::new("https://one.test/api".to_string());
    let _h = leptos::mount::mount_to(root.clone(), move || {
        view! { <Chat base_url=base show_history=false/> }
    });
    wait_until("Echo from the first server", &root, || {
        query(&root, ".chat-header__title").is_some_and(|t| text(&t) == "Echo")
    })
    .await;
    let textarea = wait_for(&root, "textarea.chat-input__textarea").await;
    type_text(&textarea, "half a thought");
    base.set("https://two.test/api/".to_string());
    wait_until("Ops from the second server", &root, || {
        query(&root, ".chat-header__title").is_some_and(|t| text(&t) == "Ops")
    })
    .await;
    let calls = stub.calls();
    assert_eq!(
        calls.len(),
        2,
        "{:?}",
        calls.iter().map(|c| &c.url).collect::<Vec<_>>()
    );
    assert_eq!(calls[0].url, "https://one.test/api/agents");
    assert_eq!(calls[1].url, "https://two.test/api/agents");
    let textarea: web_sys::HtmlTextAreaElement = textarea.unchecked_into();
    assert_eq!(textarea.value(), "half a thought", "the draft stayed");
    drop(stub);
}

/// Issue 17 (F175, F179, F6, F178): the switches and limits given as signals apply to the
/// running chat: the card drawn turns read-only, the composer opens in cancel mode, the
/// attach button goes and the countdown's threshold moves, while the chat, its conversation
/// and the draft stay as they were.
#[wasm_bindgen_test]
async fn i17_flags_given_as_signals_apply_to_the_running_chat() {
    let soon = js_sys::Date::now() as u64 + 5 * 60_000;
    let approval = serde_json::json!({"id": "a_1", "type": "tool_approval", "toolName": "restart",
                                      "args": {}, "expiresAt": soon});
    let stub = web::fetch::FetchStub::install(serde_json::json!([
        {"body": {"agents": [{"id": "ops", "name": "Ops"}]}},
        {"body": {"conversation": {"id": "conv_1", "agentId": "ops"},
                  "messages": [{"id": "m_u", "role": "user", "content": "restart it"},
                               {"id": "m_a", "role": "assistant", "content": "On it."}],
                  "pendingActions": [approval]}}
    ]));
    let root = section();
    let approvals = RwSignal::new(true);
    let mode = RwSignal::new(ComposerMode::Block);
    let uploads = RwSignal::new(true);
    let warning = RwSignal::new(600u64);
    let _h = leptos::mount::mount_to(root.clone(), move || {
        view! {
            <Chat
                base_url="https://agents.test/api"
                show_history=false
                conversation_id="conv_1"
                cards=CardOptions::default()
                    .enable_tool_approvals(approvals)
                    .composer_mode(mode)
                    .expiry_warning_seconds(warning)
                uploads=UploadOptions::default()
                    .enabled(uploads)
            />
        }
    });
    let card = wait_for(&root, ".chat-card[data-action-id=a_1]").await;
    assert!(query(&card, ".chat-card__approve").is_some());
    let countdown = wait_for(&root, ".chat-countdown").await;
    assert_eq!(
        countdown.get_attribute("data-warning").as_deref(),
        Some("true")
    );
    let textarea = wait_for(&root, "textarea.chat-input__textarea").await;
    assert_eq!(
        textarea.get_attribute("aria-disabled").as_deref(),
        Some("true"),
        "block mode: the composer waits for the card"
    );
    assert!(query(&root, ".chat-input__attach").is_some());
    type_text(&textarea, "a note for later");
    let calls_before = stub.calls().len();

    approvals.set(false);
    mode.set(ComposerMode::Cancel);
    uploads.set(false);
    warning.set(60);
    wait_until("the card is read-only", &root, || {
        query(
            &root,
            ".chat-card[data-action-id=a_1] .chat-card__elsewhere",
        )
        .is_some()
    })
    .await;
    assert!(
        query(&root, ".chat-card__approve").is_none(),
        "no decisions offered"
    );
    wait_until("the composer is open in cancel mode", &root, || {
        textarea.get_attribute("aria-disabled").is_none()
    })
    .await;
    assert!(query(&root, ".chat-input__attach").is_none(), "uploads off");
    assert_eq!(
        countdown.get_attribute("data-warning").as_deref(),
        Some("false")
    );
    // The same chat: nothing redrawn from scratch, nothing asked of the server again.
    assert!(card.is_connected() && textarea.is_connected());
    let textarea: web_sys::HtmlTextAreaElement = textarea.unchecked_into();
    assert_eq!(textarea.value(), "a note for later");
    assert_eq!(stub.calls().len(), calls_before, "no request for a flag");

    // Back on: the same card is answerable again.
    approvals.set(true);
    wait_until("the card is answerable again", &root, || {
        query(&root, ".chat-card[data-action-id=a_1] .chat-card__approve").is_some()
    })
    .await;
    drop(stub);
}

/// The Chat Completions server of the thread-store tests: one streamed reply.
fn completions_stub(reply: &str) -> web::fetch::FetchStub {
    let chunk = serde_json::json!({"choices": [{"delta": {"content": reply}}]});
    web::fetch::FetchStub::install(serde_json::json!([
        {"url": "/chat/completions", "chunks": [format!("data: {chunk}\n\n"), "data: [DONE]\n\n"]}
    ]))
}

fn completions_transport(prefix_tag: &str) -> agent_chat_ui::core::transport::TransportOptions {
    agent_chat_ui::core::transport::TransportOptions {
        kind: agent_chat_ui::core::transport::TransportKind::ChatCompletions,
        model: Some(format!("model-{prefix_tag}")),
        ..Default::default()
    }
}

fn local_storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

/// Issue 15: over Chat Completions the conversation lives in `localStorage`: a chat mounted
/// again (a reload) lists it in the history and opens it with both messages, without asking
/// the model server anything.
#[wasm_bindgen_test]
async fn i15_a_chat_completions_conversation_survives_a_reload() {
    let base = "https://llm.test/v1-reload";
    let stub = completions_stub("Hi there!");
    let root = section();
    let h = leptos::mount::mount_to(root.clone(), move || {
        view! { <Chat base_url=base transport=completions_transport("a")/> }
    });
    let textarea = wait_for(&root, "textarea.chat-input__textarea").await;
    type_text(&textarea, "Hello model");
    wait_until("send enabled", &root, || {
        query(&root, ".chat-input__send").is_some_and(|b| b.get_attribute("disabled").is_none())
    })
    .await;
    query(&root, ".chat-input__send").unwrap().click();
    wait_until("the reply is drawn", &root, || {
        root.text_content()
            .unwrap_or_default()
            .contains("Hi there!")
    })
    .await;
    let calls = stub.calls();
    assert_eq!(calls.len(), 1, "only the model server was asked");
    assert_eq!(calls[0].url, format!("{base}/chat/completions"));
    assert_eq!(calls[0].json()["model"], "model-a");
    drop(h);
    drop(stub);

    let stub = completions_stub("unused");
    let root = section();
    let _h = leptos::mount::mount_to(root.clone(), move || {
        view! { <Chat base_url=base transport=completions_transport("a")/> }
    });
    let row = wait_for(&root, ".chat-history__item").await;
    assert!(text(&row).contains("Hello model"), "{}", text(&row));
    let open = query(&row, ".chat-history__select").expect("the row opens");
    open.click();
    wait_until("both messages are back", &root, || {
        let t = root.text_content().unwrap_or_default();
        t.contains("Hello model") && t.contains("Hi there!")
    })
    .await;
    assert!(stub.calls().is_empty(), "nothing asked of the model server");
    // Clean up this server's threads for the next run in this browser.
    let storage = local_storage();
    let keys: Vec<String> = (0..storage.length().unwrap())
        .filter_map(|i| storage.key(i).unwrap())
        .filter(|k| k.contains(base))
        .collect();
    for k in keys {
        storage.remove_item(&k).unwrap();
    }
}

/// Issue 15: a stored conversation that cannot be read is skipped and said so (in the
/// person's words, not the parser's); the readable one is still listed.
#[wasm_bindgen_test]
async fn i15_an_unreadable_stored_conversation_is_skipped_and_reported() {
    let base = "https://llm.test/v1-corrupt";
    let prefix = format!("agent-chat-ui:threads:{base}");
    let storage = local_storage();
    storage
        .set_item(&format!("{prefix}:index"), r#"["c_ok","c_bad"]"#)
        .unwrap();
    storage
        .set_item(
            &format!("{prefix}:c_ok"),
            r#"{"conversation":{"id":"c_ok","agentId":"model-b","title":"Kept one","createdAt":"2026-12-01T10:00:00Z","updatedAt":"2026-12-01T10:00:00Z"},"messages":[]}"#,
        )
        .unwrap();
    storage
        .set_item(
            &format!("{prefix}:c_bad"),
            "{\"conversation\": {\"id\": \"c_b",
        )
        .unwrap();
    let root = section();
    let _h = leptos::mount::mount_to(root.clone(), move || {
        view! { <Chat base_url=base transport=completions_transport("b")/> }
    });
    let banner = wait_for(&root, ".chat-error").await;
    assert!(
        text(&banner).contains("One saved conversation could not be read and was skipped."),
        "{}",
        text(&banner)
    );
    assert!(!text(&banner).contains("EOF"), "no parser wording");
    let row = wait_for(&root, ".chat-history__item").await;
    assert!(text(&row).contains("Kept one"));
    for id in ["index", "c_ok", "c_bad"] {
        storage.remove_item(&format!("{prefix}:{id}")).unwrap();
    }
}
