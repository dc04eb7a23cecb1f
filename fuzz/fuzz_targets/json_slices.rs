//! `json_slices::array_elements` never panics and every range it returns lies inside the text
//! on character boundaries, whatever the server's body.

#![no_main]

use agent_chat_core::json_slices::array_elements;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Some((array, elements)) = array_elements(&text, "messages") {
        assert!(text.get(array).is_some());
        for element in elements {
            assert!(text.get(element).is_some());
        }
    }
});
