# English: the reference locale. Every other locale has exactly these ids (tests/core/locales.rs).
# Ids are the React library's keys in kebab-case: chat.input.attachFiles -> chat-input-attach-files.

chat-input-placeholder = Type your message...
chat-input-attach-files = Attach files
chat-input-send = Send message
chat-input-stop = Stop generating
chat-input-remove-file = Remove file
chat-input-helper = Press Enter to send, Shift+Enter for new line
chat-input-label = Message
chat-input-waiting-for-answer = The assistant is waiting for your answer above.
chat-input-send-cancels-request = Sending a message cancels the open request.

chat-history-title = Conversations
chat-history-new-chat = New Chat
chat-history-search-placeholder = Search conversations...
chat-history-clear-search = Clear search
chat-history-no-conversations = No conversations yet
chat-history-no-matching-conversations = No matching conversations
chat-history-load-more = Load more
chat-history-loading = Loading...
chat-history-delete-conversation = Delete conversation
chat-history-close = Close conversation list
chat-history-search-label = Search conversations
chat-history-rename-conversation = Rename conversation
chat-history-rename-title = Conversation title

chat-actions-copy = Copy
chat-actions-copied = Copied!
chat-actions-regenerate = Regenerate
chat-actions-good-response = Good response
chat-actions-bad-response = Bad response
chat-actions-failed-to-copy = Failed to copy
chat-actions-label = Message actions

chat-message-sources = Sources
chat-message-source = Source { $index }
chat-message-show-less = Show Less
chat-message-show-all = Show All ({ $count })
chat-message-tool-calls = Tool calls
chat-message-user = You
chat-message-ai = AI
# The default avatar badge of the person's messages (one letter).
chat-message-avatar-user = U
chat-message-error = Error
chat-find-open = Find in conversation
chat-find-label = Find in conversation
chat-find-placeholder = Find in conversation
chat-find-count = { $index } of { $count }
chat-find-none = No matches
chat-find-previous = Previous match
chat-find-next = Next match
chat-find-close = Close find
chat-message-list-label = Conversation messages
chat-message-list-load-older = Load older messages
chat-message-list-loading-older = Loading older messages...
chat-message-thinking = The assistant is thinking
chat-message-interrupted = Interrupted
chat-message-failed = The task failed:
chat-message-retry = Retry

chat-markdown-code = Code
chat-markdown-table = Table
chat-markdown-task = Task
chat-markdown-image = Image: { $name }

chat-tool-call-view-details = View details
chat-tool-call-hide-details = Hide details
chat-tool-call-older-calls = { $count ->
    [one] { $count } older call
   *[other] { $count } older calls
}
chat-tool-call-expand = Expand
chat-tool-call-collapse = Collapse
chat-tool-call-input = Input
chat-tool-call-output = Output
chat-tool-call-executing = Executing...
chat-tool-call-completed = Completed
chat-tool-call-duration = { $seconds }s
chat-tool-call-previous-steps = { $count ->
    [one] { $count } previous step
   *[other] { $count } previous steps
}
chat-tool-call-unknown-tool = Unknown Tool

chat-header-menu = Open menu
chat-header-select-agent = Select agent
chat-header-change-agent = Change agent

chat-empty-title = Start a conversation
chat-empty-subtitle = Type your message below to get started
chat-empty-start-typing = Start typing...

chat-loading-conversation = Loading conversation...

chat-error-dismiss = Dismiss
chat-error-load-conversation-failed = Failed to load conversation
chat-error-load-conversations-failed = Failed to load conversations
chat-error-load-more-failed = Failed to load more conversations
chat-error-load-older-messages-failed = Failed to load older messages
chat-error-delete-conversation-failed = Failed to delete conversation
chat-error-rename-conversation-failed = Failed to rename conversation
chat-error-file-request-failed = Failed to upload, read or delete the file
chat-error-client-not-initialized = Client not initialized
chat-error-send-failed = Failed to send message
chat-error-retry = Retry
chat-error-network = Could not reach the agent server. Check your connection and try again.
chat-error-other-origin = The server tried to send this to another address, so it was not sent. Nothing you wrote left this site.
chat-error-stream-cut = The connection dropped before the reply finished.
chat-error-storage-load = Saved conversations could not be loaded. New ones are kept until the page closes.
chat-error-chunk = Part of the chat could not be loaded. Check the connection and retry.
chat-chunk-loading = Loading...
chat-chunk-failed = This part of the chat could not be loaded.
chat-error-storage-save = This conversation could not be saved in this browser: its storage is full or blocked.
chat-error-storage-unreadable = { $count ->
    [one] One saved conversation could not be read and was skipped.
   *[other] { $count } saved conversations could not be read and were skipped.
}
chat-error-bad-response = The server sent a response that could not be read.
chat-error-request-failed = Request failed
chat-error-no-agent = No agent is available on this server.

chat-error-code-action-expired = That request has expired.
chat-error-code-action-cancelled = That request was cancelled.
chat-error-code-action-not-pending = That request was already answered.
chat-error-code-action-forbidden = Only the person who started this chat can answer this request.
chat-error-code-action-pending = The assistant is waiting for your answer above. Answer it before sending something new.
chat-error-code-pending-action = The assistant is waiting for your answer above. Answer it before sending something new.
chat-error-code-conversation-busy = The assistant is still working on this conversation. Please wait a moment.
chat-error-code-rate-limited = Too many requests. Try again in a moment.
chat-error-rate-limited-seconds = { $seconds ->
    [one] Too many requests. Try again in { $seconds } second.
   *[other] Too many requests. Try again in { $seconds } seconds.
}
chat-error-rate-limited-minutes = { $minutes ->
    [one] Too many requests. Try again in { $minutes } minute.
   *[other] Too many requests. Try again in { $minutes } minutes.
}
chat-error-code-quota-exceeded = The usage limit has been reached.
chat-error-code-message-too-long = This message is too long.
chat-error-code-guardrail-blocked = This request was blocked by a safety rule.
chat-error-code-file-too-large = This file is too large.
chat-error-code-unsupported-file-type = This file type is not supported.
chat-error-code-attachments-disabled = Attachments are turned off for this assistant.
chat-error-code-action-version-conflict = This request changed in the meantime. It has been reloaded.
chat-error-server-failed = The server reported an error.
chat-error-task-failed = The agent did not finish the task.
chat-error-task-canceled = The task was cancelled.
chat-error-refused-does-not-fit = Not sent: the answer does not fit what was asked.

chat-file-too-large = { $name } is too large (max { $max })
chat-file-too-many = You can attach at most { $max } files
chat-file-invalid-type = { $name } is not an allowed file type
chat-file-upload-failed = Upload failed
chat-file-download = Download
chat-file-read-failed = { $name } could not be read
chat-file-remove = Remove { $name }
chat-file-attachments = Attachments
chat-file-reading = Reading { $name }…

chat-time-just-now = Just now
chat-time-minutes-ago = { $count }m ago
chat-time-hours-ago = { $count }h ago
chat-time-days-ago = { $count }d ago

chat-theme-toggle-light = Switch to light theme
chat-theme-toggle-dark = Switch to dark theme

chat-action-details = Details
chat-action-side-effects = Side effects
chat-action-approve = Approve
chat-action-deny = Deny
chat-action-add-reason = Add a reason
chat-action-remove-reason = Remove reason
chat-action-reason-label = Reason (optional)
chat-action-remember = Don't ask again for this tool in this chat
chat-action-edit-arguments = Edit arguments
chat-action-reset-arguments = Reset arguments
chat-action-arguments-edited = Arguments edited
chat-action-preview = Preview
chat-action-send = Send
chat-action-skip = Skip
chat-action-required = *
chat-action-free-text-label = Your answer
chat-action-approval-label = Approval needed: { $tool }
chat-action-question-label = Question from the assistant
chat-action-sending = Sending...
chat-action-expires-hours = { $n ->
    [one] Expires in { $n } hour
   *[other] Expires in { $n } hours
}
chat-action-expires-minutes = { $n ->
    [one] Expires in { $n } minute
   *[other] Expires in { $n } minutes
}
chat-action-expires-seconds = { $n ->
    [one] Expires in { $n } second
   *[other] Expires in { $n } seconds
}
chat-action-status-approved = Approved
chat-action-status-approved-edited = Approved with edited arguments
chat-action-status-denied = Denied
chat-action-status-denied-with-reason = Denied - { $reason }
chat-action-status-answered = Answered
chat-action-status-skipped = Skipped
chat-action-status-expired = Expired
chat-action-status-cancelled = Cancelled
chat-action-status-remembered = Remembered for this chat
chat-action-status-waiting-elsewhere = Waiting for approval in another app
chat-action-announce-approval = The assistant needs your approval: { $tool }
chat-action-announce-question = The assistant has a question
chat-action-schema-invalid-json = Not valid JSON (line { $line }, column { $column })
chat-action-schema-not-object = The arguments must be a JSON object
chat-action-schema-type = { $path }: must be { $expected }
chat-action-schema-enum = { $path }: must be one of { $allowed }
chat-action-schema-const = { $path }: must be { $expected }
chat-action-schema-required = { $path }: "{ $property }" is required
chat-action-schema-additional-properties = { $path }: "{ $property }" is not allowed
chat-action-schema-minimum = { $path }: must be at least { $limit }
chat-action-schema-maximum = { $path }: must be at most { $limit }
chat-action-schema-exclusive-minimum = { $path }: must be more than { $limit }
chat-action-schema-exclusive-maximum = { $path }: must be less than { $limit }
chat-action-schema-min-length = { $limit ->
    [one] { $path }: must have at least { $limit } character
   *[other] { $path }: must have at least { $limit } characters
}
chat-action-schema-max-length = { $limit ->
    [one] { $path }: must have at most { $limit } character
   *[other] { $path }: must have at most { $limit } characters
}
chat-action-schema-pattern = { $path }: must match { $pattern }
chat-action-schema-min-items = { $limit ->
    [one] { $path }: must have at least { $limit } item
   *[other] { $path }: must have at least { $limit } items
}
chat-action-schema-max-items = { $limit ->
    [one] { $path }: must have at most { $limit } item
   *[other] { $path }: must have at most { $limit } items
}
chat-action-schema-any-of = { $path }: must match one of: { $variants }
chat-action-schema-one-of = { $path }: must match only one of: { $variants } (it matches { $matched })
chat-action-schema-one-of-none = { $path }: must match one of: { $variants }
chat-action-schema-too-deep = { $path }: nested too deeply (more than { $limit } levels)
chat-action-schema-multiple-of = { $path }: must be a multiple of { $divisor }
chat-action-schema-format = { $path }: must be a valid { $format }
chat-action-schema-unique-items = { $path }: items { $first } and { $second } are the same; every item must be different
chat-action-schema-min-contains = { $limit ->
    [one] { $path }: at least { $limit } item must match what the list has to contain
   *[other] { $path }: at least { $limit } items must match what the list has to contain
}
chat-action-schema-max-contains = { $limit ->
    [one] { $path }: at most { $limit } item may match what the list contains
   *[other] { $path }: at most { $limit } items may match what the list contains
}
chat-action-schema-min-properties = { $limit ->
    [one] { $path }: must have at least { $limit } property
   *[other] { $path }: must have at least { $limit } properties
}
chat-action-schema-max-properties = { $limit ->
    [one] { $path }: must have at most { $limit } property
   *[other] { $path }: must have at most { $limit } properties
}
chat-action-schema-dependent-required = { $path }: "{ $required }" is required when "{ $property }" is set
chat-action-schema-property-name = { $path }: "{ $property }" is not an allowed name
chat-action-schema-not = { $path }: is a value that is not allowed here
chat-action-schema-unjudged = This edit could not be checked in full here. The server checks it again when you approve.
chat-action-schema-too-much-work = The schema needs more than { $limit } steps to check; checking stopped
chat-action-schema-remote-ref = { $path }: the schema refers to { $reference }, outside this schema, which is never fetched
chat-action-schema-ref-cycle = { $path }: the schema refers to itself in a loop ({ $reference })
chat-action-schema-unknown-dialect = The schema is written in a version of JSON Schema this chat does not know ({ $dialect })
chat-action-schema-too-large = { $path }: the schema's "{ $keyword }" is too large to check here
chat-action-schema-unsupported = { $path }: the schema uses "{ $keyword }", which this chat does not check
chat-action-schema-not-loaded = The check of the arguments has not loaded yet; the server checks them
chat-action-schema-unreadable-pattern = { $path }: the pattern { $pattern } cannot be read here
chat-action-editor-label = Arguments (JSON)
chat-action-variant-label = Variant
chat-action-fields-label = Fields
chat-action-field-unset = (not set)
chat-action-item-label = Item { $index }
chat-action-item-add = Add an item
chat-action-item-remove = Remove item { $index }
chat-action-list-empty = No items
chat-action-diff-label = Changes to the proposed call
chat-action-diff-before = Proposed:
chat-action-diff-after = Edited:
chat-action-diff-unset = (not set)
chat-demo-custom-approval = Custom card: { $tool } wants to run
chat-demo-custom-question = Custom card: the assistant has a question
chat-demo-approve = Allow
chat-demo-deny = Refuse
chat-demo-skip = Skip it
# The standalone page's settings (theme and language); each language is named in itself.
chat-settings-button = Settings
chat-settings-theme = Theme
chat-settings-theme-dark = Dark
chat-settings-theme-light = Light
chat-settings-language = Language
chat-settings-language-en = English
chat-settings-language-tr = Türkçe
chat-settings-language-ar = العربية
chat-action-schema-root = Arguments
chat-action-free-text-other = Something else (optional)

# Issue 13: answers the chat refused to send, and requests that changed while shown.
chat-error-refused-changed = This request changed. Review it again before answering.
chat-error-refused-edit-not-offered = Arguments cannot be changed on this server: approve or deny the request as proposed.
chat-error-refused-decline-not-offered = This request cannot be declined that way: the server takes a decline only as the card offers it.
chat-error-refused-read-only = This request can't be answered here.
chat-error-refused-arguments = The answer was not sent: the arguments don't match what the tool accepts.
chat-error-refused-unanswered = The answer was not sent: a required question has no answer.
chat-error-refused-not-an-option = The answer was not sent: it is not one of the offered choices.
chat-error-refused-not-open = That request is no longer waiting for an answer.
chat-error-refused-settled = That request was already answered.
chat-error-refused-in-flight = Your answer to this request is already on its way.
chat-error-refused-busy = The assistant is still replying. You can answer when the reply has finished.
chat-action-changed = This request changed. Review it again.
chat-action-status-waiting-elsewhere-question = Waiting for an answer in another app
chat-action-announce-elsewhere = The assistant is waiting for an answer in another app
chat-input-waiting-elsewhere = The assistant is waiting for an answer in another app.

## Card stages, Checking status and the receipt (issue 14)
chat-action-stage-pending-approval = Pending approval
chat-action-stage-waiting-for-answer = Waiting for your answer
chat-action-stage-sending = Sending…
chat-action-stage-checking = Checking status
chat-action-stage-approved = Approved
chat-action-stage-executing = Executing…
chat-action-stage-completed = Completed
chat-action-stage-failed = Failed
chat-action-stage-failed-with-message = Failed: { $message }
chat-action-stage-denied = Denied
chat-action-stage-answered = Answered
chat-action-stage-answered-elsewhere = Answered elsewhere
chat-action-stage-skipped = Skipped
chat-action-stage-expired = Expired
chat-action-stage-cancelled = Cancelled
chat-action-announce-stage = { $subject }: { $stage }
chat-action-checking-hint = Your answer was sent, but the connection dropped before the server confirmed it. Checking whether it arrived…
chat-action-diff-version-label = Changed from the original proposal
chat-action-receipt-by = Decided by
chat-action-receipt-you = You
chat-action-receipt-at = When
chat-action-receipt-version = Version
chat-action-receipt-result = Result
chat-action-receipt-error = Error
chat-action-receipt-ran = What ran, against the original proposal
chat-action-approve-all = Approve all ({ $count })
chat-action-deny-all = Deny all
chat-action-batch-hint = { $count } calls of this reply wait for your approval.

## What an approval will do, to whom, with what (seed 004)
# { $operation } is the tool's operation ("Send email"), { $target } who or what it affects.
chat-operation-to = { $operation } to { $target }
chat-operation-in = { $operation } in { $target }
chat-action-parameters = Parameters
chat-action-param-show-all = Show all

## A card's transition history (seed 004)
chat-action-history = History
chat-action-step-proposed = Proposed
chat-action-step-edited = Changed
chat-action-step-approved = Approved
chat-action-step-rejected = Rejected
chat-action-step-executing = Execution started
chat-action-step-completed = Execution completed
chat-action-step-failed = Execution failed
chat-action-step-expired = Expired
chat-action-step-cancelled = Cancelled
# { $name } is who decided.
chat-action-step-by = by { $name }
chat-action-step-version = (version { $n })

## Values the tool's policy keeps as proposed (seed 004)
# { $path } is the argument, as "/recipient".
chat-action-schema-read-only = { $path }: this value cannot be changed; the tool's policy keeps it as proposed
chat-error-refused-read-only-value = Not sent: the edit changes a value that cannot be changed.

# The composer drawn before the chat's code has arrived (the instant shell).
chat-shell-sending = Sending as soon as the chat is ready…
chat-shell-load-failed = The chat could not load. Your message is still here: copy it, or reload the page to try again.
