//! Fetching a part that is not in the first download, and fetching it again when that fails:
//! one lifecycle for the backends' code, a language's texts and a part of the view.
//!
//! Invariant: at most one fetch of a part, or one wait before fetching it again, is on its way
//! at a time; after `n` failed fetches in a row the next waits [`retry_delay_ms`]`(n)` (1 s,
//! doubling, at most 30 s), and an arrival forgets the failures.
//!
//! The machine is pure: the browser's edge asks [`ChunkFetch::begin`] whether to fetch now,
//! runs the fetch, reports [`ChunkFetch::arrived`] or [`ChunkFetch::failed`] with the time, and
//! arms a timer for the wait it is given. What the person is told (the banner, `on_error`) is
//! the caller's: the machine says whether a failure is the first of a row and whether an
//! arrival follows failures.

use crate::time::Millis;

/// The wait before fetching a part again after `failures` failed fetches in a row: 1 s,
/// doubling, at most 30 s. No failure, no wait.
pub fn retry_delay_ms(failures: u32) -> u64 {
    if failures == 0 {
        return 0;
    }
    (1_000u64 << (failures - 1).min(5)).min(30_000)
}

/// Where one part's fetch stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FetchState {
    /// Not asked for yet, or asked for again after its wait (nothing on its way).
    #[default]
    Idle,
    /// A fetch is on its way.
    Fetching,
    /// The last fetch failed; the next may start at `until`.
    Waiting {
        /// When the wait is over.
        until: Millis,
    },
    /// The part is here; it stays.
    Arrived,
}

/// What [`ChunkFetch::begin`] tells the edge to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Begin {
    /// Fetch now (the state is [`FetchState::Fetching`] from here).
    Fetch,
    /// A fetch is on its way: its result answers this ask too.
    OnItsWay,
    /// The last fetch failed and its wait is not over: ask again after this many ms.
    Wait(u64),
    /// The part is here: nothing to fetch.
    Here,
}

/// A failure, as [`ChunkFetch::failed`] reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failed {
    /// Failed fetches in a row, this one included.
    pub failures: u32,
    /// This failure is the first of its row (the one to tell the person about).
    pub first: bool,
    /// When the next fetch may start.
    pub retry_at: Millis,
}

/// One part's fetch lifecycle. See the module docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ChunkFetch {
    state: FetchState,
    failures: u32,
}

impl ChunkFetch {
    /// Not asked for yet, no failures.
    pub fn new() -> Self {
        Self::default()
    }

    /// Where the fetch stands.
    pub fn state(&self) -> FetchState {
        self.state
    }

    /// Failed fetches in a row since the last arrival (or [`ChunkFetch::forget_failures`]).
    pub fn failures(&self) -> u32 {
        self.failures
    }

    /// The part is here.
    pub fn has_arrived(&self) -> bool {
        self.state == FetchState::Arrived
    }

    /// The part is asked for at `now`: whether to start a fetch. Only one fetch is on its way
    /// at a time, and after a failure none starts before its wait is over.
    pub fn begin(&mut self, now: Millis) -> Begin {
        match self.state {
            FetchState::Arrived => Begin::Here,
            FetchState::Fetching => Begin::OnItsWay,
            FetchState::Waiting { until } if now < until => Begin::Wait(until.0 - now.0),
            FetchState::Idle | FetchState::Waiting { .. } => {
                self.state = FetchState::Fetching;
                Begin::Fetch
            }
        }
    }

    /// The fetch on its way was given up on (its result is no longer wanted): a later ask
    /// may start another at once. Failures are kept.
    pub fn abandon(&mut self) {
        if self.state == FetchState::Fetching {
            self.state = FetchState::Idle;
        }
    }

    /// A new run of asks (another part or language was wanted meanwhile): earlier failures no
    /// longer lengthen the wait, and a wait in progress is over.
    pub fn forget_failures(&mut self) {
        self.failures = 0;
        if let FetchState::Waiting { .. } = self.state {
            self.state = FetchState::Idle;
        }
    }

    /// The part arrived. Returns whether failures came before (then whatever said it was
    /// missing should go). The failures are forgotten.
    pub fn arrived(&mut self) -> bool {
        let after_failures = self.failures > 0;
        self.state = FetchState::Arrived;
        self.failures = 0;
        after_failures
    }

    /// A fetch failed at `now`: the next may start after [`retry_delay_ms`] of the failures in
    /// a row. A part that arrived meanwhile (another fetch of it) stays here.
    pub fn failed(&mut self, now: Millis) -> Failed {
        if self.state == FetchState::Arrived {
            return Failed {
                failures: 0,
                first: false,
                retry_at: now,
            };
        }
        self.failures = self.failures.saturating_add(1);
        let until = Millis(now.0.saturating_add(retry_delay_ms(self.failures)));
        self.state = FetchState::Waiting { until };
        Failed {
            failures: self.failures,
            first: self.failures == 1,
            retry_at: until,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: Millis = Millis(1_000_000);

    fn at(ms: u64) -> Millis {
        Millis(T0.0 + ms)
    }

    #[test]
    fn i16_a_failed_fetch_is_retried_after_one_second_doubling_up_to_thirty() {
        let delays: Vec<u64> = (0..=8).map(retry_delay_ms).collect();
        assert_eq!(
            delays,
            [0, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]
        );
        assert_eq!(retry_delay_ms(u32::MAX), 30_000);
    }

    #[test]
    fn i16_one_fetch_at_a_time_and_its_result_answers_every_ask() {
        let mut f = ChunkFetch::new();
        assert_eq!(f.begin(T0), Begin::Fetch);
        assert_eq!(f.begin(T0), Begin::OnItsWay);
        assert!(!f.arrived());
        assert_eq!(f.begin(at(5)), Begin::Here);
        assert!(f.has_arrived());
    }

    #[test]
    fn i16_a_failure_waits_before_the_next_fetch_and_only_the_first_is_told() {
        let mut f = ChunkFetch::new();
        assert_eq!(f.begin(T0), Begin::Fetch);
        let first = f.failed(T0);
        assert_eq!(
            first,
            Failed {
                failures: 1,
                first: true,
                retry_at: at(1_000)
            }
        );
        // Asked again during the wait: not before it is over.
        assert_eq!(f.begin(at(400)), Begin::Wait(600));
        assert_eq!(f.begin(at(1_000)), Begin::Fetch);
        let second = f.failed(at(1_000));
        assert!(!second.first);
        assert_eq!(second.failures, 2);
        assert_eq!(second.retry_at, at(3_000));
        assert_eq!(f.begin(at(3_000)), Begin::Fetch);
        // An arrival after failures says so, and forgets them.
        assert!(f.arrived());
        assert_eq!(f.failures(), 0);
    }

    #[test]
    fn i16_forgetting_failures_ends_the_wait_and_restarts_the_row() {
        let mut f = ChunkFetch::new();
        f.begin(T0);
        f.failed(T0);
        f.begin(at(1_000));
        f.failed(at(1_000));
        f.forget_failures();
        assert_eq!(f.state(), FetchState::Idle);
        assert_eq!(f.begin(at(1_001)), Begin::Fetch);
        assert!(f.failed(at(1_001)).first);
    }

    #[test]
    fn i16_an_abandoned_fetch_lets_the_next_ask_fetch_at_once() {
        let mut f = ChunkFetch::new();
        f.begin(T0);
        f.abandon();
        assert_eq!(f.begin(T0), Begin::Fetch);
        // Abandoning outside a fetch changes nothing.
        f.failed(T0);
        f.abandon();
        assert_eq!(f.begin(T0), Begin::Wait(1_000));
    }

    #[test]
    fn i16_a_late_failure_does_not_undo_an_arrival() {
        let mut f = ChunkFetch::new();
        f.begin(T0);
        f.arrived();
        let late = f.failed(at(10));
        assert!(!late.first);
        assert!(f.has_arrived());
        assert_eq!(f.begin(at(20)), Begin::Here);
    }
}
