//! F116: a tool's name as the React library shows it (`formatToolName` in its ToolCall.tsx):
//! `_` → space, a space between a lower-case ASCII letter and an upper-case one, then each
//! space-separated word upper-cases its first character and lower-cases the rest.
#![cfg(not(target_arch = "wasm32"))]

use agent_chat_ui::ui::format::title_case_tool;

#[test]
fn f116_tool_names_read_as_in_the_react_library() {
    let cases = [
        // snake_case
        ("send_email", "Send Email"),
        ("sandbox_exec", "Sandbox Exec"),
        ("get_WEATHER_data", "Get Weather Data"),
        // camelCase and PascalCase
        ("getWeather", "Get Weather"),
        ("getWeatherData", "Get Weather Data"),
        ("SendEmail", "Send Email"),
        // Acronyms: only a lower → upper step splits, and inner capitals are lower-cased.
        ("getHTTPData", "Get Httpdata"),
        ("HTTPRequest", "Httprequest"),
        ("parseURL", "Parse Url"),
        ("XMLHttpRequest", "Xmlhttp Request"),
        ("API", "Api"),
        // Already spaced, or shouted: each word is re-cased.
        ("Send Email", "Send Email"),
        ("send email now", "Send Email Now"),
        ("SEND EMAIL", "Send Email"),
        // Digits and hyphens do not split; a digit before a capital does not either.
        ("get2Data", "Get2data"),
        ("web-search", "Web-search"),
        ("v2_apiCall", "V2 Api Call"),
        // Repeated separators keep their spaces, as `split(" ")` / `join(" ")` do.
        ("a__b", "A  B"),
        ("_private", " Private"),
        // Non-ASCII: `[a-z]`/`[A-Z]` are ASCII only, but upper/lower-casing is Unicode.
        ("çalıştırKomut", "Çalıştır Komut"),
        ("öğrenÖzet", "Öğrenözet"),
        ("x", "X"),
    ];
    for (name, want) in cases {
        assert_eq!(title_case_tool(name), want, "formatting {name:?}");
    }
}
