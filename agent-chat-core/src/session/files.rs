//! Attachments waiting for the next send: checked from their metadata, read by
//! the io layer, removed on request.

use crate::files::{FileMeta, FileRejection, PendingFile};

use super::{ChatError, Output, Session};

impl Session {
    /// Checks `files` against the effective limits from their metadata alone (nothing is
    /// read before it passes), adds the accepted ones as pending files still to be read, asks
    /// the io layer to read them, and reports the refused ones.
    pub(super) fn add_files(&mut self, files: Vec<FileMeta>) {
        let check = self.upload_limits().check(self.pending_files.len(), &files);
        for index in check.accepted {
            let Some(meta) = files.get(index) else {
                continue;
            };
            let id = self.local_id();
            self.pending_files.push(PendingFile {
                id: id.clone(),
                name: meta.name.clone(),
                mime_type: meta.mime_type.clone(),
                size: meta.size,
                content: None,
            });
            self.revisions.files += 1;
            self.outputs.push_back(Output::ReadFile { index, id });
        }
        if !check.rejected.is_empty() {
            self.set_error(ChatError::Files(check.rejected));
        }
    }

    /// A pending file's bytes arrived (or could not be read: the file is dropped and said so).
    /// A file removed in the meantime is ignored.
    pub(super) fn on_file_read(&mut self, id: String, result: Result<String, String>) {
        let Some(pos) = self.pending_files.iter().position(|f| f.id == id) else {
            return;
        };
        match result {
            Ok(content) => self.pending_files[pos].content = Some(content),
            Err(_) => {
                let file = self.pending_files.remove(pos);
                self.set_error(ChatError::Files(vec![FileRejection::Unreadable {
                    name: file.name,
                }]));
            }
        }
        self.revisions.files += 1;
    }

    /// Drops a pending file by its local id.
    pub(super) fn remove_file(&mut self, id: &str) {
        let before = self.pending_files.len();
        self.pending_files.retain(|f| f.id != id);
        if self.pending_files.len() != before {
            self.revisions.files += 1;
        }
    }
}
