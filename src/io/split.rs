//! Code fetched on first use: where a part of the element and the page
//! begins, and what a failed fetch is.
//!
//! A function declared with `split_point!` is where a part begins. Built with the `split`
//! feature (the element and the page are), `wasm-split-cli` moves it, and all the code only it
//! reaches, out of the main wasm into a chunk of its own; calling it fetches the chunk first.
//! Without the feature (a Leptos app mounting `<Chat/>`, the tests) it is an ordinary function,
//! ready at once.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

/// Runs `again` (asking for a chunk again) after `ms` milliseconds: the wait a
/// [`ChunkFetch`](crate::core::chunk_fetch::ChunkFetch) gave after a failed fetch.
pub(crate) fn later(ms: u64, again: impl FnOnce() + 'static) {
    leptos::prelude::set_timeout(again, std::time::Duration::from_millis(ms));
}

/// A chunk could not be fetched or instantiated (the browser console has the details).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkMissing;

#[cfg(feature = "split")]
impl From<leptos::wasm_split::SplitLoaderError> for ChunkMissing {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        ChunkMissing
    }
}

/// Declares where a part loaded on first use begins: `split_point!(chunk_name, preload_name,
/// fn name(args) -> Type { body })` defines `async fn name(args) -> Result<Type, ChunkMissing>`
/// and `async fn preload_name() -> Result<(), ChunkMissing>` (fetches the chunk without
/// calling anything). Functions with the same `chunk_name` share one chunk.
macro_rules! split_point {
    (
        $chunk:ident, $preload:ident,
        $(#[$meta:meta])*
        $vis:vis fn $name:ident($($arg:ident : $ty:ty),* $(,)?) -> $ret:ty $body:block
    ) => {
        // The split function and its raw preload live in a module named like the preload
        // function (modules and functions do not share names), so each split point's
        // generated items stay apart.
        #[cfg(feature = "split")]
        #[doc(hidden)]
        // The function is `pub` only so the `use` below can give it the caller's visibility.
        #[allow(unreachable_pub)]
        mod $preload {
            #[allow(unused_imports)]
            use super::*;

            $(#[$meta])*
            #[leptos::wasm_split::wasm_split(
                $chunk,
                wasm_split_path = ::leptos::wasm_split,
                fallible,
                preload(#[doc(hidden)] raw)
            )]
            pub fn $name($($arg: $ty),*) -> Result<$ret, $crate::io::split::ChunkMissing> {
                Ok($body)
            }
        }
        #[cfg(feature = "split")]
        $vis use $preload::$name;

        $(#[$meta])*
        #[cfg(not(feature = "split"))]
        $vis async fn $name($($arg: $ty),*) -> Result<$ret, $crate::io::split::ChunkMissing> {
            Ok($body)
        }

        /// Fetches the chunk of the function of the same place without calling it.
        // A part may also be fetched only by calling it (a locale's texts).
        #[cfg(feature = "split")]
        #[allow(dead_code)]
        $vis async fn $preload() -> Result<(), $crate::io::split::ChunkMissing> {
            $preload::raw().await.map_err($crate::io::split::ChunkMissing::from)
        }

        /// Without `split` every part is in the main wasm: nothing to fetch.
        #[cfg(not(feature = "split"))]
        #[allow(dead_code)]
        $vis async fn $preload() -> Result<(), $crate::io::split::ChunkMissing> {
            Ok(())
        }
    };
}
pub(crate) use split_point;

/// Polls `fut` once, without a task to wake: `Some` when it was ready at once (a function of
/// a chunk already here, or any function without `split`).
pub(crate) fn ready_now<F: Future + ?Sized>(fut: Pin<&mut F>) -> Option<F::Output> {
    match fut.poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(value) => Some(value),
        Poll::Pending => None,
    }
}
