//! The server's clock as the page estimates it (countdowns run on the server's clock).
//!
//! Deadlines (`expiresAt`) are instants on the server's clock; the page's clock may be minutes
//! off. Comparing one with the other would expire a card the server still waits on (page
//! ahead) or keep one open the server has given up on (page behind). The session keeps one
//! estimate of `server − page` and decides expiry on `now + offset`:
//! - from the `Date` header of any response ([`HttpResponse::date`]): the header has whole
//!   seconds, so it is read as the middle of its second; arriving late only makes the server
//!   look earlier, the safe side (a card expires a little late, never early);
//! - else from a live action's `createdAt` against the moment it arrived (the action was made
//!   just before it was sent), until a `Date` header is seen.
//!
//! An estimate within [`DEAD_BAND_MS`] of zero is taken as zero: neither source can tell a
//! difference that small from latency and rounding.
//!
//! [`HttpResponse::date`]: super::HttpResponse::date

use crate::time::Millis;

use super::Session;

/// Offsets this close to zero are read as zero (the `Date` header's one-second resolution).
const DEAD_BAND_MS: u64 = 1_000;

/// Where the estimate came from; a `Date` header wins over `createdAt`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Source {
    /// Nothing seen yet: the clocks are taken to agree.
    #[default]
    None,
    /// A live action's `createdAt`.
    CreatedAt,
    /// A response's `Date` header.
    Date,
}

/// `server − page` in milliseconds, and what it was estimated from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct ServerClock {
    offset_ms: i64,
    source: Source,
}

impl ServerClock {
    /// `page` moved onto the server's clock.
    pub(super) fn to_server(self, page: Millis) -> Millis {
        shift(page, self.offset_ms)
    }

    /// A server instant moved onto the page's clock (for the timer the driver arms).
    pub(super) fn to_page(self, server: Millis) -> Millis {
        shift(server, self.offset_ms.saturating_neg())
    }

    /// Takes one sample (`server_at` seen at page time `page_at`); returns whether the
    /// estimate changed.
    fn sample(&mut self, server_at: Millis, page_at: Millis, source: Source) -> bool {
        let raw = i128::from(server_at.0) - i128::from(page_at.0);
        let raw = i64::try_from(raw).unwrap_or(if raw < 0 { i64::MIN } else { i64::MAX });
        let offset = if raw.unsigned_abs() <= DEAD_BAND_MS {
            0
        } else {
            raw
        };
        let before = *self;
        self.offset_ms = offset;
        self.source = source;
        *self != before
    }
}

fn shift(at: Millis, by: i64) -> Millis {
    if by >= 0 {
        at.saturating_add(by.unsigned_abs())
    } else {
        at.saturating_sub(by.unsigned_abs())
    }
}

impl Session {
    /// The latest instant the session has seen, on the server's clock: what deadlines
    /// (`expiresAt`) are compared with.
    pub fn server_now(&self) -> Millis {
        self.clock.to_server(self.now)
    }

    /// `page_now` (the page's clock, e.g. a countdown's tick) on the server's clock. A
    /// countdown shows `expires_at − server_time(now)` so it reaches zero when the session
    /// expires the card.
    pub fn server_time(&self, page_now: Millis) -> Millis {
        self.clock.to_server(page_now)
    }

    /// The estimated `server − page` clock difference in milliseconds (0 until estimated, or
    /// when within a second). Changes bump the `status` revision.
    pub fn clock_offset_ms(&self) -> i64 {
        self.clock.offset_ms
    }

    /// A deadline on the server's clock as an instant on the page's clock.
    pub(super) fn page_time(&self, server: Millis) -> Millis {
        self.clock.to_page(server)
    }

    /// A response's `Date` header arrived at `self.now`.
    pub(super) fn observe_server_date(&mut self, date: Millis) {
        // The header truncates to the second: its middle is the better guess.
        if self
            .clock
            .sample(date.saturating_add(500), self.now, Source::Date)
        {
            self.revisions.status += 1;
        }
    }

    /// A live action made at `created_at` (server clock) arrived now. Used only until a
    /// `Date` header gave a better estimate.
    pub(super) fn observe_action_created(&mut self, created_at: Millis) {
        if self.clock.source == Source::Date {
            return;
        }
        if self.clock.sample(created_at, self.now, Source::CreatedAt) {
            self.revisions.status += 1;
        }
    }
}
