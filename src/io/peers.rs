//! Other tabs of the same chat: when this tab's answer is accepted, it says so on
//! a `BroadcastChannel`, and a tab showing the same conversation looks it up at once, so its
//! card settles without a click. The message carries ids only; the server stays the authority
//! (the other tab refreshes, and a refusal there still wins).

/// The channel's name, shared by every chat of this origin.
#[cfg(target_arch = "wasm32")]
pub(crate) const CHANNEL: &str = "agent-chat-ui:actions";

/// This tab's end of the channel; closed when dropped.
pub(crate) struct Peers {
    #[cfg(target_arch = "wasm32")]
    channel: web_sys::BroadcastChannel,
    #[cfg(target_arch = "wasm32")]
    _listener: wasm_bindgen::closure::Closure<dyn FnMut(web_sys::MessageEvent)>,
}

impl Peers {
    /// Joins the channel; `on_settled(conversation_id, action_id)` runs for every message from
    /// another tab. `None` where the browser has no `BroadcastChannel`.
    #[cfg(target_arch = "wasm32")]
    pub(crate) fn open(on_settled: impl Fn(String, String) + 'static) -> Option<Peers> {
        use wasm_bindgen::JsCast;
        let channel = web_sys::BroadcastChannel::new(CHANNEL).ok()?;
        let listener = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
            move |ev: web_sys::MessageEvent| {
                let Some(text) = ev.data().as_string() else {
                    return;
                };
                let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else {
                    return;
                };
                if let (Some(c), Some(a)) = (v["conversationId"].as_str(), v["actionId"].as_str()) {
                    on_settled(c.to_owned(), a.to_owned());
                }
            },
        );
        channel.set_onmessage(Some(listener.as_ref().unchecked_ref()));
        Some(Peers {
            channel,
            _listener: listener,
        })
    }

    /// Natively there are no other tabs.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn open(_on_settled: impl Fn(String, String) + 'static) -> Option<Peers> {
        None
    }

    /// Tells the other tabs that `action_id` of `conversation_id` was settled here.
    pub(crate) fn tell_settled(&self, conversation_id: &str, action_id: &str) {
        #[cfg(target_arch = "wasm32")]
        {
            let text =
                serde_json::json!({ "conversationId": conversation_id, "actionId": action_id })
                    .to_string();
            let _ = self
                .channel
                .post_message(&wasm_bindgen::JsValue::from_str(&text));
        }
        #[cfg(not(target_arch = "wasm32"))]
        let _ = (conversation_id, action_id);
    }
}

impl Drop for Peers {
    fn drop(&mut self) {
        #[cfg(target_arch = "wasm32")]
        {
            self.channel.set_onmessage(None);
            self.channel.close();
        }
    }
}
