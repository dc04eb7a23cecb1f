//! The one reader of the session options a host gives by name: the element's attributes and
//! the page's query are both name/value pairs, so a setting is read by the same rules whichever
//! way it comes; `Chat` takes the same setting as a prop, which goes into
//! [`SessionConfig`](super::SessionConfig). Read at mount (a change of the attribute remounts
//! the element).

/// The session options by name: the attribute's (the element) and the camel-case one (the
/// page's query, the TypeScript declarations).
pub const START_OPTION_NAMES: &[(&str, &str)] =
    &[("action-expiry-refresh-ms", "actionExpiryRefreshMs")];

/// How long after a card expires here the conversation is fetched again, unless a host says
/// otherwise (the server may settle it differently, so the page asks it).
pub const DEFAULT_ACTION_EXPIRY_REFRESH_MS: u64 = 1_500;

/// The session options a host sets by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StartOptions {
    /// `actionExpiryRefreshMs`: how long after a card expires here the conversation is fetched
    /// again, so that a server which carries on by itself shows its continuation (default
    /// [`DEFAULT_ACTION_EXPIRY_REFRESH_MS`]).
    pub action_expiry_refresh_ms: u64,
}

impl Default for StartOptions {
    fn default() -> Self {
        StartOptions {
            action_expiry_refresh_ms: DEFAULT_ACTION_EXPIRY_REFRESH_MS,
        }
    }
}

impl StartOptions {
    /// The options `pairs` set (either form of [`START_OPTION_NAMES`]; other names are passed
    /// over).
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> StartOptions {
        let mut options = StartOptions::default();
        for (name, value) in pairs {
            options.set(name, value);
        }
        options
    }

    /// Sets the option `name` (either form) from `value`; false when `name` is no session
    /// option. A value that is not a whole number of milliseconds leaves the option as it was.
    pub fn set(&mut self, name: &str, value: &str) -> bool {
        let Some(&(name, _)) = START_OPTION_NAMES
            .iter()
            .find(|(attr, camel)| *attr == name || *camel == name)
        else {
            return false;
        };
        if name == "action-expiry-refresh-ms" {
            if let Ok(ms) = value.trim().parse() {
                self.action_expiry_refresh_ms = ms;
            }
        }
        true
    }
}
