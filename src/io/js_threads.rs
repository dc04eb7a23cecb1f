//! A thread store the host page implements in JavaScript: the element's `threadStore`
//! property. The object has three functions, each returning a value or a promise
//! of one: `load()` → the kept threads (objects `{conversation, messages}` or their JSON
//! text), `save(thread)` with such an object, and `delete(id)`. A missing function, a
//! throw or a rejected promise is an `Err` the chat reports; it never panics.

use js_sys::{Array, Function, Promise, Reflect, JSON};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::threads::{StorageFuture, ThreadStorage};

/// The host's JavaScript store object.
pub(crate) struct JsThreads(JsValue);

impl JsThreads {
    /// Wraps `store` when it is an object; `None` otherwise.
    pub(crate) fn new(store: JsValue) -> Option<JsThreads> {
        store.is_object().then_some(JsThreads(store))
    }

    /// Calls `store[name](...args)` and waits for what it returns.
    fn call(&self, name: &'static str, args: &[JsValue]) -> StorageFuture<JsValue> {
        let called = Reflect::get(&self.0, &JsValue::from_str(name))
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
            .ok_or_else(|| format!("threadStore.{name} is not a function"))
            .and_then(|f| {
                f.apply(&self.0, &args.iter().collect::<Array>())
                    .map_err(|e| describe(&e))
            });
        Box::pin(async move {
            let value = called?;
            JsFuture::from(Promise::resolve(&value))
                .await
                .map_err(|e| describe(&e))
        })
    }
}

fn describe(err: &JsValue) -> String {
    err.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| err.as_string())
        .unwrap_or_else(|| "the thread store failed".to_owned())
}

impl ThreadStorage for JsThreads {
    fn load(&self) -> StorageFuture<Vec<String>> {
        let loaded = self.call("load", &[]);
        Box::pin(async move {
            let value = loaded.await?;
            if !Array::is_array(&value) {
                return Err("threadStore.load() did not give a list".to_owned());
            }
            let list: Array = value.unchecked_into();
            // An entry that is neither text nor serialisable becomes text the core refuses
            // (counted as unreadable), never a silent loss.
            Ok(list
                .iter()
                .map(|item| {
                    item.as_string().unwrap_or_else(|| {
                        JSON::stringify(&item)
                            .ok()
                            .and_then(|s| s.as_string())
                            .unwrap_or_default()
                    })
                })
                .collect())
        })
    }

    fn save(&self, _id: &str, text: &str) -> StorageFuture<()> {
        let thread = match JSON::parse(text) {
            Ok(thread) => thread,
            Err(e) => {
                let why = describe(&e);
                return Box::pin(async move { Err(why) });
            }
        };
        let saved = self.call("save", &[thread]);
        Box::pin(async move { saved.await.map(|_| ()) })
    }

    fn delete(&self, id: &str) -> StorageFuture<()> {
        let deleted = self.call("delete", &[JsValue::from_str(id)]);
        Box::pin(async move { deleted.await.map(|_| ()) })
    }
}
