// Type declarations of <agent-chat> (the agent-chat-ui custom element). Kept beside the Rust
// source of the element (src/element.rs); tests/core/element_package.rs checks that every
// attribute, property and event the element has is declared here and in custom-elements.json.

/** A part of a message's content (PROTOCOL §4). */
export type ContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string; detail?: string } }
  | { type: "file"; file: { id: string; name: string; mimeType: string; url?: string } }
  | { type: string; [key: string]: unknown };

/** A message as the agent server sends it. */
export interface ChatMessage {
  id: string;
  conversationId?: string;
  role: "user" | "assistant" | "system" | "tool" | (string & {});
  content: string | ContentPart[];
  createdAt?: string;
  toolCalls?: unknown[];
  toolCallId?: string;
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A conversation (E6, E7). */
export interface Conversation {
  id: string;
  agentId?: string;
  title?: string | null;
  createdAt?: string;
  updatedAt?: string;
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A row of the history list. */
export interface ConversationListItem extends Conversation {}

/** How a card was answered. */
export type Resolution =
  | {
      type: "tool_approval";
      decision: "allow" | "deny";
      approvedArgs?: unknown;
      rememberForSession?: boolean;
      comment?: string;
    }
  | { type: "user_question"; answers: Record<string, unknown>; cancelled?: boolean }
  | { type: "client_tool"; result?: unknown; error?: string }
  | { type: string; [key: string]: unknown };

/** One question of a question card (its text is also the key of its answer). */
export interface Question {
  question: string;
  header?: string;
  options?: { label: string; value: string; description?: string; preview?: string }[];
  multiSelect?: boolean;
  allowFreeText?: boolean;
  placeholder?: string;
  required: boolean;
  [key: string]: unknown;
}

/** A paused turn waiting for a person (or the page): an approval, a question or a client tool. */
export interface PendingAction {
  id: string;
  type: "tool_approval" | "user_question" | "client_tool" | (string & {});
  status: string;
  toolName?: string;
  args?: unknown;
  argsSchema?: unknown;
  title?: string;
  summary?: string;
  questions?: Question[];
  allowFreeText?: boolean;
  expiresAt?: string;
  resolution?: Resolution;
  resolvedBy?: string;
  messageId?: string;
  toolCallId?: string;
  createdAt?: string;
  version?: number;
  executionStatus?: string;
  resolvedAt?: string;
  executionResult?: unknown;
  executionError?: string;
  [key: string]: unknown;
}

/** `agent-chat:error`. */
export interface AgentChatErrorDetail {
  /** The server's or the chat's error code (`pending_action`, `network`, …), if any. */
  code: string | null;
  /** HTTP status, if the error came from a response. */
  status: number | null;
  /** The server's own message, if it sent one. */
  serverMessage: string | null;
  /** The localized text the chat shows. */
  message: string;
}

/** `agent-chat:action-resolved`: the server accepted an answer. */
export interface AgentChatActionResolvedDetail {
  actionId: string;
  resolution: Resolution;
}

/** `agent-chat:client-tool`: the agent asks the page to run one of its tools. */
export interface AgentChatClientToolDetail {
  actionId: string;
  toolName: string;
  args: unknown;
}

/** `agent-chat:attention`: how many cards wait for this person. */
export interface AgentChatAttentionDetail {
  pending: number;
  kinds: string[];
  /** The soonest deadline (ISO 8601), if a waiting card has one. */
  expiresAt: string | null;
}

/** A tool of the page: given the call's arguments and the request, returns its result. */
export type ClientTool = (args: any, request: AgentChatClientToolDetail) => unknown | Promise<unknown>;

/** The `detail` of each event the element dispatches (they bubble and are `composed`). */
export interface AgentChatEventDetails {
  "agent-chat:message-sent": ChatMessage;
  "agent-chat:message-received": ChatMessage;
  "agent-chat:error": AgentChatErrorDetail;
  "agent-chat:conversation-created": Conversation;
  "agent-chat:conversation-change": string | null;
  "agent-chat:conversation-selected": ConversationListItem;
  "agent-chat:agent-change": string;
  "agent-chat:action-required": PendingAction;
  "agent-chat:action-resolved": AgentChatActionResolvedDetail;
  "agent-chat:client-tool": AgentChatClientToolDetail;
  "agent-chat:attention": AgentChatAttentionDetail;
}

/** One kept conversation: the agent server's conversation record and its messages. */
export interface AgentChatThread {
  conversation: { id: string; [key: string]: unknown };
  messages: Array<Record<string, unknown>>;
}

/** A store of conversations the page implements (`element.threadStore`). */
export interface AgentChatThreadStore {
  /** Every kept thread (objects, or their JSON text); entries that are not threads are skipped and reported. */
  load(): AgentChatThread[] | string[] | Promise<AgentChatThread[] | string[]>;
  /** Keeps a thread (create or replace, by `thread.conversation.id`). */
  save(thread: AgentChatThread): void | Promise<void>;
  /** Forgets a thread. */
  delete(id: string): void | Promise<void>;
}

/** The events of the element as DOM event types. */
export type AgentChatEventMap = {
  [K in keyof AgentChatEventDetails]: CustomEvent<AgentChatEventDetails[K]>;
};

/** The backends an element or a page can be pointed at (the `transport` attribute). */
export type AgentChatTransport = "agent-server" | "chat-completions" | "responses" | "a2a" | "cogitator" | "ai-sdk" | "ag-ui" | "langgraph";

/**
 * The attributes that say which backend is at `base-url` and how it is reached; read at
 * mount, a change remounts the chat. The page's query takes the same options in camel case.
 */
export type AgentChatTransportAttribute = "transport" | "model" | "thread-store" | "action-url" | "resend-history" | "agent-card-url";

/**
 * The attributes that tune the session, read at mount (a change remounts the chat); the page's
 * query takes the same options in camel case (`actionExpiryRefreshMs`).
 * `action-expiry-refresh-ms`: milliseconds after a card expires here before the conversation
 * is fetched again, so a server that carries on by itself shows its continuation (default 1500).
 */
export type AgentChatSessionAttribute = "action-expiry-refresh-ms";

/**
 * `<agent-chat>`. Scalar settings are attributes (`base-url`, `agent-id`, `theme`, …); objects
 * and the token are properties. Attribute changes apply to the running chat (a reply keeps
 * streaming, the draft stays) except `base-url`, `transport`, `model`, `thread-store`,
 * `action-url`, `resend-history`, `agent-card-url`, `action-expiry-refresh-ms` and
 * `default-locale`, which remount it.
 */
export declare class AgentChatElement extends HTMLElement {
  /** Sent as `Authorization` on every request; a property only, never an attribute. */
  authorization: string | undefined;
  /** Extra headers on every request: `{ name: value }`. */
  headers: Record<string, string> | undefined;
  /** Colours by token: React keys (`accentPrimary`) or `--chat-*` names. */
  themeColors: Record<string, string> | undefined;
  /** Replacement texts by message id (`chat-input-placeholder`) or React key. */
  customMessages: Record<string, string> | undefined;
  /** The page's tools, looked up by own property name. */
  clientTools: Record<string, ClientTool> | undefined;
  /** CSS for what the tokens cannot reach: a string, or style sheets adopted into the shadow root. */
  styles: string | CSSStyleSheet | CSSStyleSheet[] | undefined;
  /**
   * The page's own store of conversations, for a backend without them (transport
   * `chat-completions`, `responses`, `a2a`): used instead of `thread-store`. Each function may
   * return a promise. A new object remounts the chat.
   */
  threadStore: AgentChatThreadStore | undefined;
  /** Answers a `client_tool` request; `false` when no chat is mounted. */
  resolveClientTool(actionId: string, result?: unknown, error?: string | null): boolean;

  addEventListener<K extends keyof AgentChatEventMap>(
    type: K,
    listener: (this: AgentChatElement, ev: AgentChatEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener<K extends keyof HTMLElementEventMap>(
    type: K,
    listener: (this: AgentChatElement, ev: HTMLElementEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener<K extends keyof AgentChatEventMap>(
    type: K,
    listener: (this: AgentChatElement, ev: AgentChatEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener<K extends keyof HTMLElementEventMap>(
    type: K,
    listener: (this: AgentChatElement, ev: HTMLElementEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void;
}

/** Registers `<agent-chat>` (importing the module already did; calling again does nothing). */
export declare function define_agent_chat(): void;

declare global {
  interface HTMLElementTagNameMap {
    "agent-chat": AgentChatElement;
  }
  // The events bubble out of the shadow root, so a listener on the document sees them too.
  interface GlobalEventHandlersEventMap extends AgentChatEventMap {}
}
