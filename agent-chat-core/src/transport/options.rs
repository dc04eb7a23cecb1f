//! The one reader of the transport options from name/value pairs: the element's attributes
//! and the page's query are both such pairs, so the backend a page or an element is pointed
//! at is read by the same rules; `Chat` takes the same [`TransportOptions`] as a prop.

use super::{ThreadStoreKind, TransportKind, TransportOptions};

/// The transport options by name: the attribute's (the element) and the camel-case one (the
/// page's query, the TypeScript declarations). Read at mount; a change remounts the element.
pub const OPTION_NAMES: &[(&str, &str)] = &[
    ("transport", "transport"),
    ("model", "model"),
    ("thread-store", "threadStore"),
    ("action-url", "actionUrl"),
    ("resend-history", "resendHistory"),
    ("agent-card-url", "agentCardUrl"),
];

/// A value one option could not take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionRefusal {
    /// A `transport` that names no backend a page can name (the agent server is used).
    UnknownTransport(String),
}

impl TransportOptions {
    /// The options `pairs` set (either form of [`OPTION_NAMES`]; other names are passed
    /// over), and the values refused.
    pub fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> (TransportOptions, Vec<OptionRefusal>) {
        let mut options = TransportOptions::default();
        let refused = pairs
            .into_iter()
            .filter_map(|(name, value)| options.set(name, value).err())
            .collect();
        (options, refused)
    }

    /// Sets the option `name` (either form) from `value`. A blank value sets nothing, except
    /// for `resend-history`: like an attribute, a flag is on unless it says `false`, `0`,
    /// `off` or `no`. A value a closed list does not know is passed over (`thread-store`) or
    /// refused (`transport`); a name that is no transport option changes nothing.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), OptionRefusal> {
        let Some(&(name, _)) = OPTION_NAMES
            .iter()
            .find(|(attr, camel)| *attr == name || *camel == name)
        else {
            return Ok(());
        };
        let text = value.trim();
        if name == "resend-history" {
            self.resend_history = !matches!(text, "false" | "0" | "off" | "no");
            return Ok(());
        }
        if text.is_empty() {
            return Ok(());
        }
        match name {
            "transport" => match TransportKind::parse_by_name(text) {
                Some(kind) => self.kind = kind,
                None => return Err(OptionRefusal::UnknownTransport(value.to_owned())),
            },
            "model" => self.model = Some(value.to_owned()),
            "thread-store" => {
                if let Some(kind) = ThreadStoreKind::parse(text) {
                    self.thread_store = kind;
                }
            }
            "action-url" => self.action_url = Some(value.to_owned()),
            "agent-card-url" => self.agent_card_url = Some(text.to_owned()),
            _ => {}
        }
        Ok(())
    }
}
