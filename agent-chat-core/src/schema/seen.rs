//! What a schema evaluated of the object or array it was applied to: JSON Schema's
//! annotations, as far as `unevaluatedProperties` and `unevaluatedItems` need them.
//!
//! A property counts as evaluated when `properties`, `patternProperties`,
//! `additionalProperties` or `unevaluatedProperties` applied to it, in the schema itself or in
//! a subschema applied in place (`allOf`, `$ref`, `$dynamicRef`, `dependentSchemas`, `if` when
//! it passes, `then`/`else`, each passing `anyOf` branch, the passing `oneOf` branch). Items
//! likewise, with `prefixItems`, `items`, `additionalItems`, `contains` and `unevaluatedItems`.
//! A failing branch's annotations are dropped; `not`'s always are.

use std::collections::HashSet;

/// The properties and items one schema evaluated.
#[derive(Debug, Default)]
pub(super) struct Seen {
    /// Property names evaluated.
    props: HashSet<String>,
    /// Every property was evaluated.
    all_props: bool,
    /// The first `items` items were evaluated (by position).
    items: usize,
    /// Items evaluated by `contains`, by index.
    matched: HashSet<usize>,
}

impl Seen {
    /// Adds what a subschema applied in place evaluated.
    pub(super) fn merge(&mut self, other: Seen) {
        self.all_props |= other.all_props;
        if !self.all_props {
            self.props.extend(other.props);
        }
        self.items = self.items.max(other.items);
        self.matched.extend(other.matched);
    }

    /// Records the property `key` as evaluated.
    pub(super) fn prop(&mut self, key: &str) {
        if !self.all_props {
            self.props.insert(key.to_owned());
        }
    }

    /// Records every property as evaluated.
    pub(super) fn all_props(&mut self) {
        self.all_props = true;
        self.props.clear();
    }

    /// Records the first `count` items as evaluated.
    pub(super) fn items(&mut self, count: usize) {
        self.items = self.items.max(count);
    }

    /// Records the item at `index` as evaluated.
    pub(super) fn item(&mut self, index: usize) {
        self.matched.insert(index);
    }

    /// Whether the property `key` was evaluated.
    pub(super) fn has_prop(&self, key: &str) -> bool {
        self.all_props || self.props.contains(key)
    }

    /// Whether the item at `index` was evaluated.
    pub(super) fn has_item(&self, index: usize) -> bool {
        index < self.items || self.matched.contains(&index)
    }
}
