//! The reader of one backend's reply, by backend: each dialect's decoder behind one face, so
//! the gateway's turn handling is the same for every stateless backend (issue 15).

use super::super::reply::{Delta, Reply};
use super::super::TransportKind;
use super::super::{a2a, chat_completions as cc, cogitator, in_process, responses};

/// The reader of one streamed reply, by backend.
#[derive(Debug)]
pub(super) enum Decoder {
    Chat(cc::StreamDecoder),
    Responses(responses::StreamDecoder),
    A2a(a2a::Decoder),
    Cogitator(cogitator::Decoder),
    InProcess(in_process::Decoder),
}

impl Decoder {
    pub(super) fn new(kind: TransportKind) -> Decoder {
        match kind {
            TransportKind::Responses => Decoder::Responses(responses::StreamDecoder::new()),
            TransportKind::A2a => Decoder::A2a(a2a::Decoder::new()),
            TransportKind::Cogitator => Decoder::Cogitator(cogitator::Decoder::new()),
            TransportKind::InProcess => Decoder::InProcess(in_process::Decoder::new()),
            _ => Decoder::Chat(cc::StreamDecoder::new()),
        }
    }

    pub(super) fn push(&mut self, bytes: &[u8]) -> Vec<Delta> {
        match self {
            Decoder::Chat(d) => d.push(bytes),
            Decoder::Responses(d) => d.push(bytes),
            Decoder::A2a(d) => d.push(bytes),
            Decoder::Cogitator(d) => d.push(bytes),
            Decoder::InProcess(d) => d.push(bytes),
        }
    }

    pub(super) fn finish(&mut self) -> Vec<Delta> {
        match self {
            Decoder::Chat(d) => d.finish(),
            Decoder::Responses(d) => d.finish(),
            Decoder::A2a(d) => d.finish(),
            Decoder::Cogitator(d) => d.finish(),
            Decoder::InProcess(d) => d.finish(),
        }
    }

    /// Reads a whole reply (a non-streaming send) of A2A or an in-page agent.
    pub(super) fn read_whole(&mut self, body: &str) -> Vec<Delta> {
        match self {
            Decoder::A2a(d) => d.read_whole(body),
            Decoder::InProcess(d) => d.read_whole(body),
            d => {
                let mut out = d.push(body.as_bytes());
                out.extend(d.finish());
                out
            }
        }
    }

    pub(super) fn ending(&self) -> Reply {
        match self {
            Decoder::Chat(d) => d.ending(),
            Decoder::Responses(d) => d.ending(),
            Decoder::A2a(d) => d.ending(),
            Decoder::Cogitator(d) => d.ending(),
            Decoder::InProcess(d) => d.ending(),
        }
    }
}
